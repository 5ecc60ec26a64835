"""The shared core of the rules engines: sides, board geometry, positions,
moves, results and the errors that name a rule, gathered from the modules
that hold them: :mod:`.board` (sides, :class:`Board`), :mod:`.position`
(:class:`Position`, :class:`MutablePosition`) and :mod:`.game`
(:class:`Game`, :class:`GameInProgress`, :class:`Move`, :class:`Outcome`,
the errors).

Every game module (:mod:`mancala_cli.rules.kimasai_mackay`,
:mod:`mancala_cli.rules.kimasai_klamroth`, :mod:`mancala_cli.rules.kingulu`) builds on
these pieces::

    >>> from mancala_cli.rules.registry import get_game
    >>> game = get_game("kingulu")
    >>> line = GameInProgress(game)
    >>> move = line.play(game.board.index_of("c1"))
    >>> move.captured
    6
    >>> line.position.banks
    (7, 0)

Holes are plain integers: ``index = (rank - 1) * files + file`` with files
and ranks counted from 0 and 1 respectively, so ``a1`` is 0 and the index is
one less than the hole's ``numeric`` coordinate.
"""
from __future__ import annotations

from .board import FILES, NORTH, SIDES, SOUTH, Board, Side, other, side_name
from .game import (
    DRAW,
    LAP_LIMIT,
    WATCH_FROM,
    Game,
    GameInProgress,
    IllegalMove,
    InvalidPosition,
    MancalaError,
    Move,
    Outcome,
    sow,
    win,
)
from .position import MutablePosition, Position, PositionKey

__all__ = ["Side", "SOUTH", "NORTH", "SIDES", "FILES", "other", "side_name", "Board",
           "PositionKey", "Position", "MutablePosition",
           "LAP_LIMIT", "WATCH_FROM", "sow", "Move", "Outcome", "win", "DRAW",
           "MancalaError", "IllegalMove", "InvalidPosition", "Game", "GameInProgress"]
