"""Position strings for the rules: the record layer reads the text
(:func:`notation.position.parse_position`), the rules check what it says
(:meth:`Game.validate <mancala_cli.rules.core.Game.validate>`).

    >>> from mancala_cli import get_game
    >>> game = get_game("kingulu")
    >>> parse_position(game, "1,0,6,6,0,1/6,6,2,7,0,6 N 7-0 1").banks
    (7, 0)
    >>> parse_position(game, "4,4,4,4,4,4/4,4,4,4,4,5 S 0-0 1")
    Traceback (most recent call last):
    ...
    mancala_cli.positions.BadPosition: seeds do not add up: 49 on the board + 0-0 in the banks = 49, kingulu has 48
"""
from __future__ import annotations

from notation.errors import PositionError
from notation.position import format_position, parse_position as parse_fields

from .rules.core import Game, InvalidPosition, Position

__all__ = ["BadPosition", "parse_position", "format_position"]


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
