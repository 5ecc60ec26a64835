"""Position strings for the rules: the record layer reads the text
(:func:`notation.position_strings.parse_position`), the rules check what it says
(:meth:`Game.validate <mancala_cli.rules.game.Game.validate>`).

    >>> from mancala_cli import get_game
    >>> game = get_game("kingulu")
    >>> parse_position(game, "1,0,6,6,0,1/6,6,2,7,0,6 N 7-0 1").banks
    (7, 0)
    >>> parse_position(game, "4,4,4,4,4,4/4,4,4,4,4,5 S 0-0 1")
    Traceback (most recent call last):
    ...
    mancala_cli.positions.BadPosition: seeds do not add up: 49 on the board + 0-0 in the banks = 49, kingulu has 48

:func:`position_lines` reads a file of them, one a line (``mancala render
--positions``).
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator

from notation.notation_errors import PositionError
from notation.position_strings import parse_position as parse_fields

from .rules.game import Game, InvalidPosition
from .rules.position import Position

__all__ = ["BadPosition", "parse_position", "position_lines"]


class BadPosition(InvalidPosition, PositionError):
    """A position string that is badly formed or names a position the game
    cannot have (``except InvalidPosition`` and ``except PositionError``
    both catch it)."""


def parse_position(game: Game, text: str) -> Position:
    """The position of ``game`` that ``text`` names; :class:`BadPosition` if none."""
    try:
        position = Position._make(parse_fields(game, text))
        game.validate(position)
    except (PositionError, InvalidPosition) as error:
        raise BadPosition(str(error)) from None
    return position


def position_lines(game: Game, lines: Iterable[tuple[int, str | None, str]]
                   ) -> Iterator[tuple[int, Position | None, str]]:
    """The position of ``game`` on each of ``lines`` (numbered lines, as
    :func:`~mancala_cli.files.sources.numbered_lines` gives them: the
    number, the text or ``None``, and why there is none), blank lines
    skipped: the number and the position, or ``None`` and why the line
    names none.

        >>> from mancala_cli import get_game
        >>> lines = [(1, "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1", ""), (2, " ", ""), (3, "4 S", ""), (4, None, "a NUL byte")]
        >>> for number, position, why in position_lines(get_game("kingulu"), lines):
        ...     print(number, position and position.banks, why)
        1 (0, 0)
        3 None bad position for kingulu: a position string has 4 fields (rows, side, banks, move number), not 2
        4 None a NUL byte
    """
    for number, text, why in lines:
        if text is None:
            yield number, None, why
            continue
        if not text.strip(" \t"):
            continue
        try:
            position = parse_position(game, text)
        except InvalidPosition as error:
            yield number, None, f"bad position for {game.id}: {error}"
            continue
        yield number, position, ""
