"""Game sheets: several positions of one game in a grid, one SVG document
(``mancala render FILE --sheet``), for articles and books.

:func:`sheet_svg` places the boards that :func:`.svg.board_element` draws
side by side, ``columns`` to a row, each captioned with the move number and
the move that led to it (:func:`move_caption`; the board where the game
ended adds the result, ``23... b1 · South wins 35–13 (KG-7)``), under a header line of the
game's tags (:func:`header_line`; broken at a `` · `` into more lines where it
is wider than the boards)::

    >>> from mancala_cli import Line, get_game
    >>> game = get_game("kingulu")
    >>> line = Line(game)
    >>> start = line.position
    >>> move = line.play("d1")
    >>> header = header_line(game, [("South", "Amani"), ("North", "Baraka"), ("Result", "*")])
    >>> header
    'Bao Kingulu · Amani – Baraka · *'
    >>> move_caption(game, start, move)
    '1. d1x6'
    >>> svg = sheet_svg(game, [Diagram(0, start, None, "Start"),
    ...                        Diagram(1, line.position, move, move_caption(game, start, move))],
    ...                 header=header, columns=2)
    >>> legend = sheet_legend(game, [Diagram(1, line.position, move, "")])
    >>> legend
    ['last-origin', 'last-end']
    >>> sheet_size(game, 2, columns=2, legend=legend), 'viewBox="0 0 928 384"' in svg
    ((928, 384), True)

Each board is a ``<g id="ply-K" class="diagram">`` holding what a single
diagram holds (its ids prefixed ``ply-K-``: ``ply-10-hole-c2``), its caption
is ``<text class="caption">`` and the header ``<text class="header">``.
Below the grid, a legend says what the rings drawn on the boards mean
(``g#legend``, as under a diagram's caption: the last move's origin and
end, reserved holes; none when no board has a ring). The
default style is written once, and the ``style`` argument appends a second
``<style>`` as for a single diagram. Same input, same bytes.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from notation.coords import format_move, move_label

from ..rules.game import Game, Move, Outcome
from ..rules.position import Position
from .caption import RING_MEANINGS, add_legend, legend_height, rings_drawn
from .fontwidths import text_width as _text_width
from .layout import MARGIN, add_element, viewbox_size
from .style import BACKGROUND, DEFAULT_STYLE
from .svg import board_element
from .text import FROM_POSITION, FromPosition, outcome_of, result_words
from .tree import Element, tostring

__all__ = ["Diagram", "sheet_svg", "sheet_size", "move_caption", "header_line", "choose_plies", "game_diagrams", "GAP", "HEADER_H",
           "CAPTION_H", "HEADER_LEADING", "header_lines", "board_origin", "sheet_legend", "LEGEND_TOP",
           "DEFAULT_COLUMNS"]

GAP = 16           # between two boards of a row, and between rows
HEADER_H = 40      # the header line's strip, above the first row
CAPTION_H = 30     # a caption's strip, below its board
HEADER_SIZE = 18   # px
HEADER_LEADING = 24  # from one header line to the next
CAPTION_SIZE = 16  # px
LEGEND_TOP = 4     # from the last row of boards to the legend
#: The boards in a row of a sheet, unless told.
DEFAULT_COLUMNS = 3

SHEET_STYLE = f"""
.sheet-background {{ fill: {BACKGROUND}; }}
.header {{ fill: #3b2a18; font-size: {HEADER_SIZE}px; font-weight: bold; }}
.caption {{ fill: #3b2a18; font-size: {CAPTION_SIZE}px; text-anchor: middle; }}
"""

#: Tags shown by their value alone in the header, in this order after the players.
_PLAIN_TAGS = ("Event", "Site", "Date")
#: Tags the header leaves out: the game is named, the setup is drawn.
_HIDDEN_TAGS = {"Game", "Setup", "Coordinates", "South", "North"}


class Diagram(NamedTuple):
    """One board of a sheet: the ply (0: the start), its position, the move
    that led to it, its caption and, where known, how the game ended there."""

    ply: int
    position: Position
    last_move: Move | None
    caption: str
    outcome: Outcome | None | FromPosition = FROM_POSITION


def move_caption(game: Game, before: Position, move: Move) -> str:
    """``12... c2x4``: the move number and the move played in ``before``."""
    return f"{move_label(before.move_number, before.side)} {format_move(game.board, move, 'algebraic', before.side)}"


#: The most positions one sheet shows (a page of a book holds a few dozen;
#: this keeps a sheet of a very long game from growing without bound).
MAX_BOARDS = 1000


def choose_plies(last: int, *, plies: Sequence[int] | None = None, every: int | None = None) -> list[int]:
    """The plies a sheet shows, of a game whose last position is ply ``last``:
    ``plies`` as given, or ply 0 and every ``every``-th after it, the last
    position always included. Raises :class:`ValueError` (one line) for a
    ply past the last, a ply given twice, both or neither of the two, and
    more than :data:`MAX_BOARDS` positions.

        >>> choose_plies(23, every=10), choose_plies(23, plies=[20, 0])
        ([0, 10, 20, 23], [20, 0])
    """
    if (plies is None) == (every is None):
        raise ValueError("give plies or every, not both" if plies is not None else "give plies or every")
    if every is not None:
        if every < 1:
            raise ValueError(f"every must be at least 1 (got {every})")
        count = -(-(last + 1) // every) + (last % every != 0)
        if count > MAX_BOARDS:
            raise ValueError(f"a sheet shows at most {MAX_BOARDS:,} positions (every {every} gives {count:,})")
        chosen = list(range(0, last + 1, every))
        return chosen if chosen[-1] == last else chosen + [last]
    assert plies is not None
    chosen = list(plies)
    if not chosen:
        raise ValueError("a sheet needs at least one position")
    if len(chosen) > MAX_BOARDS:
        raise ValueError(f"a sheet shows at most {MAX_BOARDS:,} positions (got {len(chosen):,})")
    seen: set[int] = set()
    for ply in chosen:
        if ply < 0 or ply > last:
            raise ValueError(f"the record has {last} playable move{'' if last == 1 else 's'}, no ply {ply}")
        if ply in seen:
            raise ValueError(f"ply {ply} is given twice")
        seen.add(ply)
    return chosen


def game_diagrams(game: Game, start: Position, positions: Sequence[Position], moves: Sequence[Move],
                  plies: Iterable[int], *, outcome: Outcome | None = None) -> list[Diagram]:
    """The boards of ``plies`` of a game that went from ``start`` through
    ``moves`` to ``positions`` (one after each move), captioned; ``outcome``
    is how the game ended at its last position, if it did."""
    states = [start, *positions]
    last = len(states) - 1
    diagrams = []
    for ply in plies:
        if ply == 0:
            diagrams.append(Diagram(0, start, None, "Start", outcome if last == 0 else None))
            continue
        move = moves[ply - 1]
        diagrams.append(Diagram(ply, states[ply], move, move_caption(game, states[ply - 1], move),
                                outcome if ply == last else None))
    return diagrams


def header_line(game: Game, tags: Iterable[tuple[str, str]]) -> str:
    """The game's name, the players (``South – North``), event, site and date,
    then the other tags (``Round 1``, ``Annotator Zawadi``) with the result
    in the place the record gives it, a ``·`` between; unknown parts
    (``?``, empty) left out."""
    values = {name: value.strip() for name, value in tags}
    parts = [game.name]
    south, north = values.get("South", ""), values.get("North", "")
    if _known(south) or _known(north):
        parts.append(f"{south if _known(south) else '?'} – {north if _known(north) else '?'}")
    parts += [values[name] for name in _PLAIN_TAGS if _known(values.get(name, ""))]
    for name, value in values.items():
        if name in _HIDDEN_TAGS or name in _PLAIN_TAGS or not _known(value):
            continue
        parts.append(value if name == "Result" else f"{name} {value}")
    return " · ".join(parts)


def _known(value: str) -> bool:
    return value.strip("?. ") != ""


def _grid(game: Game, count: int, columns: int) -> tuple[int, int, int]:
    """The columns actually used, the rows, and a cell's height."""
    used = max(1, min(columns, count))
    rows = max(1, -(-count // used))
    return used, rows, viewbox_size(game)[1] + CAPTION_H


def header_lines(header: str, width: int) -> list[str]:
    """The header broken at its `` · `` into lines that fit in ``width``
    (a part longer than that on a line of its own)."""
    room = width - 2 * MARGIN
    lines: list[str] = []
    for part in header.split(" · ") if header else []:
        if lines and _text_width(f"{lines[-1]} · {part}", HEADER_SIZE) <= room:
            lines[-1] = f"{lines[-1]} · {part}"
        else:
            lines.append(part)
    return lines or [""]


def _top(lines: int) -> int:
    """Where the first row of boards starts, below ``lines`` header lines."""
    return HEADER_H + (lines - 1) * HEADER_LEADING


def sheet_legend(game: Game, diagrams: Iterable[Diagram]) -> list[str]:
    """The rings drawn on any board of ``diagrams`` (the last move's origin
    and end, reserved holes), as keys of :data:`~.svg.RING_MEANINGS`, in
    its order: what the sheet's legend lists."""
    drawn: set[str] = set()
    for diagram in diagrams:
        drawn.update(rings_drawn(game, diagram.position, diagram.last_move))
    return [kind for kind in RING_MEANINGS if kind in drawn]


def sheet_size(game: Game, count: int, *, columns: int, header: str = "",
               legend: Sequence[str] = ()) -> tuple[int, int]:
    """The width and height of a sheet of ``count`` boards: the grid's
    width (wider only for a header part that fits on no line), the header
    lines, the rows and, below them, the legend of the rings ``legend``
    (:func:`sheet_legend`; none by default)."""
    width, _ = viewbox_size(game)
    used, rows, cell_h = _grid(game, count, columns)
    grid_w = used * width + (used - 1) * GAP
    lines = header_lines(header, grid_w)
    sheet_w = max(grid_w, *(2 * MARGIN + _text_width(line, HEADER_SIZE) for line in lines))
    height = _top(len(lines)) + rows * cell_h + (rows - 1) * GAP
    if legend:
        height += LEGEND_TOP + legend_height(legend, sheet_w - 2 * MARGIN) + MARGIN
    return sheet_w, height


def board_origin(game: Game, index: int, *, columns: int, header_lines: int = 1) -> tuple[int, int]:
    """Where the top left corner of the ``index``-th board (from 0) lies."""
    width, height = viewbox_size(game)
    row, column = divmod(index, max(1, columns))
    return column * (width + GAP), _top(header_lines) + row * (height + CAPTION_H + GAP)


def sheet_svg(game: Game, diagrams: Sequence[Diagram], *, header: str, columns: int = DEFAULT_COLUMNS,
              flip: bool = False, title: str | None = None, style: str | None = None) -> str:
    """A standalone SVG document of ``diagrams`` in a grid of ``columns``
    (fewer when there are fewer boards), the header line on top."""
    if not diagrams:
        raise ValueError("a sheet needs at least one position")
    if columns < 1:
        raise ValueError("a sheet needs at least one column")
    used = min(columns, len(diagrams))
    legend = sheet_legend(game, diagrams)
    width, height = sheet_size(game, len(diagrams), columns=used, header=header, legend=legend)
    board_w, board_h = viewbox_size(game)
    lines = header_lines(header, used * board_w + (used - 1) * GAP)
    root = Element("svg", {"version": "1.1", "width": str(width), "height": str(height),
                           "viewBox": f"0 0 {width} {height}", "class": f"mancala sheet {game.id}"})
    add_element(root, "title", None, header if title is None else title)
    add_element(root, "desc", None, f"{game.id} sheet of plies {', '.join(str(d.ply) for d in diagrams)}")
    add_element(root, "style", {"type": "text/css"}, DEFAULT_STYLE + SHEET_STYLE)
    if style is not None:
        add_element(root, "style", {"type": "text/css"}, style)
    add_element(root, "rect", {"class": "sheet-background", "x": 0, "y": 0, "width": width, "height": height})
    for k, line in enumerate(lines):
        add_element(root, "text", {"class": "header", "x": MARGIN, "y": 27 + k * HEADER_LEADING}, line)
    for index, diagram in enumerate(diagrams):
        x, y = board_origin(game, index, columns=used, header_lines=len(lines))
        over = outcome_of(game, diagram.position, diagram.outcome)
        board = board_element(game, diagram.position, last_move=diagram.last_move, flip=flip,
                              outcome=over, result_strip=False)
        prefix = f"ply-{diagram.ply}"
        group = add_element(root, "g", {"id": prefix, "class": "diagram", "transform": f"translate({x} {y})"})
        for child in list(board):
            if child.tag == "desc" or child.tag == "style":
                continue
            group.append(child)
        for element in group.iter():
            name = element.get("id")
            if name is not None and element is not group:
                element.set("id", f"{prefix}-{name}")
        caption = diagram.caption if over is None else f"{diagram.caption} · {result_words(over)}"
        add_element(group, "text", {"class": "caption", "x": board_w // 2, "y": board_h + 20}, caption)
    rows = -(-len(diagrams) // used)
    bottom = _top(len(lines)) + rows * (board_h + CAPTION_H) + (rows - 1) * GAP
    add_legend(root, legend, MARGIN, bottom + LEGEND_TOP, width - 2 * MARGIN)
    return tostring(root)

