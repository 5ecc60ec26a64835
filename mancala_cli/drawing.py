"""Drawing positions and records: SVG diagrams, PNG images, text boards and
game sheets (``docs/library.md``, "Drawing"). What they return is a
``str`` or ``bytes`` as before, of a subclass that Jupyter shows as a
picture: :class:`SvgDiagram` (``_repr_svg_``), :class:`PngImage`
(``_repr_png_``) and :class:`TextBoard` (printed as the board).

    >>> from mancala_cli import GamePosition, svg, text
    >>> start = GamePosition.from_string("kingulu", "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1")
    >>> picture = svg(start)
    >>> isinstance(picture, str), picture._repr_svg_() == picture, picture.startswith("<?xml")
    (True, True, True)
    >>> print(text(start).splitlines()[0])
    Bao Kingulu — move 1, South to move

:func:`svg` draws a :class:`~notation.record.GameRecord` too: its last
position that could be played, with its last move and result.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Protocol, Union, overload

from notation.record import GameRecord

from .checking import replay
from .diagrams.png import svg_to_png
from .diagrams.sheet import choose_plies, game_diagrams, header_line, sheet_svg
from .diagrams.svg import board_svg
from .diagrams.text import board_text
from .errors import BadSheet
from .positions import parse_position
from .rules.game import Game, Move
from .rules.position import Position
from .rules.registry import game_id, get_game

__all__ = ["svg", "png", "text", "sheet", "SvgDiagram", "PngImage", "TextBoard"]


class Positioned(Protocol):
    """What brings its game to a drawing: a ``GamePosition``, a ``Line``."""

    @property
    def game(self) -> Game: ...

    @property
    def position(self) -> Position: ...


#: What the drawing functions draw: a position with its game, or a position
#: or position string (with ``game=``).
Drawable = Union[Position, Positioned, str]


class SvgDiagram(str):
    """An SVG document: a ``str`` (write it, compare it, search it as
    before) that Jupyter shows as the picture."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


class PngImage(bytes):
    """A PNG image: ``bytes`` that Jupyter shows as the picture."""

    __slots__ = ()

    def _repr_png_(self) -> bytes:
        return bytes(self)


class TextBoard(str):
    """A plain-text board: a ``str`` that IPython and Jupyter print as the
    board (not as a quoted string with ``\\n`` in it)."""

    __slots__ = ()

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(str(self))


def _game_and_position(position: Drawable, game: Game | str | None,
                       caller: str) -> tuple[Game, Position]:
    """The rules and the position to draw: a :class:`GamePosition` (or a
    ``Line``) brings its game; a position or a position string needs ``game``."""
    if isinstance(position, (str, Position)):
        if game is None:
            raise TypeError(f"{caller}() needs game= for a position that is not a GamePosition")
        rules = get_game(game) if isinstance(game, str) else game
        return rules, parse_position(rules, position) if isinstance(position, str) else position
    its_game, where = getattr(position, "game", None), getattr(position, "position", None)
    if not isinstance(its_game, Game) or not isinstance(where, Position):
        raise TypeError(f"{caller}() draws a GamePosition, a Line, or a position or position string with game=, "
                        f"not {type(position).__name__}")
    if game is not None and (game if isinstance(game, str) else game.id) != its_game.id:
        raise ValueError(f"{caller}(): the position is one of {its_game.id}, not of "
                         f"{game if isinstance(game, str) else game.id}")
    return its_game, where


def svg(position: Drawable | GameRecord, *, game: Game | str | None = None,
        last_move: Move | None = None, flip: bool = False, title: str | None = None,
        style: str | None = None) -> SvgDiagram:
    """A standalone SVG diagram of ``position``: a :class:`GamePosition`, or
    a position or position string of ``game``; or a record's last position
    that could be played, its last move marked and the result shown where
    the rules ended the game (``game``: the game of a record without a
    ``Game`` tag; a record that cannot be replayed at all, with no game or
    a bad ``Setup``, raises :class:`BadSheet`).

        >>> from mancala_cli import read, svg
        >>> svg("4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1", game="kingulu").startswith("<?xml")
        True
        >>> record = next(read('[Game "kingulu"] 1. c1x6 d2 *'))
        >>> 'id="last-end"' in svg(record)
        True
    """
    if isinstance(position, GameRecord):
        if last_move is not None:
            raise TypeError("svg() draws a record with its own last move: last_move= is for a position")
        return _record_svg(position, game, flip=flip, title=title, style=style)
    rules, where = _game_and_position(position, game, "svg")
    return SvgDiagram(board_svg(rules, where, last_move=last_move, flip=flip, title=title, style=style))


def png(position: Drawable, *, game: Game | str | None = None,
        last_move: Move | None = None, flip: bool = False, title: str | None = None, style: str | None = None,
        scale: float = 2.0) -> PngImage:
    """The :func:`svg` diagram of ``position`` as a PNG image, ``scale``
    pixels per SVG unit (2 by default, for sharp screens; 0.1 to 10, else
    :class:`BadImage`); needs the ``png`` extra (``pip install
    'mancala[png]'``, else :class:`PngUnavailable`).
    Same input, same bytes, on any machine: the labels use the DejaVu Sans
    fonts shipped with the package, never the system's.

        >>> from mancala_cli import png
        >>> image = png("4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1", game="kingulu")
        >>> image[:4], int.from_bytes(image[16:20], "big"), int.from_bytes(image[20:24], "big")
        (b'\\x89PNG', 912, 568)
    """
    rules, where = _game_and_position(position, game, "png")
    return PngImage(svg_to_png(svg(where, game=rules, last_move=last_move, flip=flip, title=title, style=style),
                               scale=scale))


def text(position: Drawable, *, game: Game | str | None = None,
         last_move: Move | None = None, flip: bool = False) -> TextBoard:
    """A plain-text board of ``position`` for terminals.

        >>> from mancala_cli import text
        >>> print(text("4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1", game="kingulu").splitlines()[0])
        Bao Kingulu — move 1, South to move
    """
    rules, where = _game_and_position(position, game, "text")
    return TextBoard(board_text(rules, where, last_move=last_move, flip=flip))


@overload
def sheet(record: GameRecord, *, plies: Sequence[int] | None = ..., every: int | None = ..., columns: int = ...,
          flip: bool = ..., style: str | None = ..., game: Game | str | None = ..., format: Literal["svg"] = ...,
          scale: float = ...) -> SvgDiagram: ...
@overload
def sheet(record: GameRecord, *, plies: Sequence[int] | None = ..., every: int | None = ..., columns: int = ...,
          flip: bool = ..., style: str | None = ..., game: Game | str | None = ..., format: Literal["png"],
          scale: float = ...) -> PngImage: ...
def sheet(record: GameRecord, *, plies: Sequence[int] | None = None, every: int | None = None, columns: int = 3,
          flip: bool = False, style: str | None = None, game: Game | str | None = None, format: str = "svg",
          scale: float = 2.0) -> SvgDiagram | PngImage:
    """A game sheet of ``record``, as ``mancala render FILE --sheet`` draws
    it: the positions after the moves of ``plies`` (0: the start), or ply 0
    and every ``every``-th with the last, in a grid ``columns`` wide, each
    captioned with its move (``12... c2x4``), the game's tags above. An SVG
    document (``str``), or with ``format="png"`` a PNG image (``bytes``,
    ``scale`` pixels per unit, as :func:`png`). ``game`` is the game of a
    record without a ``Game`` tag; ``flip`` and ``style`` as for :func:`svg`.
    Only the moves that could be played are drawn; a ply past them, a ply
    given twice, neither or both of ``plies`` and ``every`` raise
    :class:`BadSheet`.

        >>> from mancala_cli import read, sheet
        >>> record = next(read("examples/kingulu-village-match.pmn"))
        >>> drawing = sheet(record, every=10)
        >>> drawing.count('class="diagram"'), drawing.count('class="caption"')
        (4, 4)
        >>> import re; re.findall(r'class="caption"[^>]*>([^<]*)<', drawing)
        ['Start', '5... b2', '10... c2', '12. a1x1 · South wins 35–13 (KG-7)']
        >>> sheet(record, plies=[30])
        Traceback (most recent call last):
        ...
        mancala_cli.errors.BadSheet: the record has 23 playable moves, no ply 30
    """
    if format not in ("svg", "png"):
        raise ValueError(f"format must be 'svg' or 'png' (got {format!r})")
    replayed = replay(record, None if game is None else game_id(game), positions=True)
    rules, start = replayed.game, replayed.start
    if rules is None or start is None:
        raise BadSheet(replayed.stopped_by.message)
    try:
        chosen = choose_plies(len(replayed.positions), plies=plies, every=every)
    except ValueError as error:
        raise BadSheet(str(error)) from None
    if columns < 1:
        raise BadSheet(f"columns must be at least 1 (got {columns})")
    diagrams = game_diagrams(rules, start, replayed.positions, replayed.moves, chosen, outcome=replayed.outcome)
    document = sheet_svg(rules, diagrams, header=header_line(rules, record.tags), columns=columns, flip=flip,
                         style=style)
    if format == "svg":
        return SvgDiagram(document)

    return PngImage(svg_to_png(document, scale=scale))


def _record_svg(record: GameRecord, game: Game | str | None, *, flip: bool, title: str | None,
                style: str | None) -> SvgDiagram:
    """:func:`svg` of a record: its last position that could be played."""
    replayed = replay(record, None if game is None else game_id(game))
    if replayed.game is None or replayed.start is None:
        raise BadSheet(f"the record cannot be replayed: {replayed.stopped_by.message}")
    final = replayed.positions[-1] if replayed.positions else replayed.start
    last = replayed.moves[-1] if replayed.moves else None
    return SvgDiagram(board_svg(replayed.game, final, last_move=last, outcome=replayed.outcome, flip=flip,
                                title=title, style=style))
