"""Perft: the number of legal move sequences of exactly ``depth`` moves.

A line whose game ends earlier contributes nothing, as in chess perft::

    >>> from mancala_cli.rules.registry import get_game
    >>> game = get_game("kingulu")
    >>> perft(game, game.start(), 2)
    15
"""
from __future__ import annotations

from .game import Game, Move
from .position import Position, PositionKey


def _children(game: Game, position: Position, history: frozenset[PositionKey]
              ) -> tuple[list[tuple[Move, Position]], frozenset[PositionKey]]:
    """The successors and the history their own successors are judged with."""
    children = list(game.successors(position, history=history))
    if game.uses_history:
        history = history | {position.key()}
    return children, history


def perft(game: Game, position: Position, depth: int, *, history: frozenset[PositionKey] = frozenset()) -> int:
    """Count the legal move sequences of exactly ``depth`` moves from ``position``;
    ``history`` holds the keys of earlier positions (KK-4b)."""
    if depth == 0:
        return 1
    children, history = _children(game, position, history)
    if depth == 1:
        return len(children)
    return sum(perft(game, after, depth - 1, history=history) for _, after in children)


def divide(game: Game, position: Position, depth: int, *, history: frozenset[PositionKey] = frozenset()
           ) -> list[tuple[Move, int]]:
    """Perft split by first move (``depth`` ≥ 1), as chess tools print it."""
    children, history = _children(game, position, history)
    return [(move, perft(game, after, depth - 1, history=history)) for move, after in children]
