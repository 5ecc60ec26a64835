"""The record layer: game records (:mod:`.record`, with the one walk over
their moves), coordinates (:mod:`.coords`), position strings
(:mod:`.position`), and one module per format: PMN (:mod:`.pmn`, with its
grammar in :mod:`.grammar`; its reader and writer in the ``pmn_`` modules),
JSON Lines (:mod:`.jsonl`) and XML archives (:mod:`.xml`, with the ``xml_``
modules). It knows no rules: of a game it needs only plain facts (its
id, rows and columns, whether holes can be reserved), and it imports nothing
from :mod:`mancala_cli`. See ``docs/notation.md``.

    >>> from notation import parse_position, format_position
    >>> from mancala_cli import get_game
    >>> game = get_game("kingulu")
    >>> format_position(game, parse_position(game, "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1"))
    '4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1'
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .coords import STYLES, Side, format_hole, format_move, move_label, parse_hole, parse_move_token
from .errors import CoordinateError, NotationError, PositionError
from .position import BoardFacts, PositionFields, format_position, parse_position
from .record import (
    BEGIN,
    END,
    MOVE,
    SKIP,
    GameRecord,
    MoveNode,
    Problem,
    SkipType,
    Step,
    Visitor,
    copy_record,
    visit,
    walk,
)

if TYPE_CHECKING:
    from .pmn import read_game, read_games, write_game, write_games

#: The PMN reader's and writer's names, given by :mod:`notation.pmn` when
#: first asked for: a program that needs coordinates, positions or records
#: alone (a diagram of a position) loads neither.
_PMN = frozenset(("read_game", "read_games", "write_game", "write_games"))

__all__ = ["STYLES", "Side", "CoordinateError", "NotationError", "PositionError", "format_hole", "format_move",
           "parse_hole", "BoardFacts", "PositionFields", "format_position", "parse_position", "read_game",
           "read_games", "write_game", "write_games", "GameRecord", "MoveNode", "Problem", "Step", "walk",
           "MOVE", "BEGIN", "END", "Visitor", "visit", "SKIP", "SkipType", "copy_record", "move_label",
           "parse_move_token"]


def __getattr__(name: str) -> Any:
    if name not in _PMN:
        raise AttributeError(f"module 'notation' has no attribute {name!r}")
    from . import pmn  # (the PMN reader, 3 ms, and the writer: see _PMN)

    value = getattr(pmn, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
