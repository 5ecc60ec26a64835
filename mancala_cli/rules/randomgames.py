"""Random legal games (for ``mancala random``, tests and benchmarks).

    >>> import random
    >>> from mancala_cli.rules.registry import get_game
    >>> game = random_line(get_game("kingulu"), random.Random(1))
    >>> game.outcome.result in ("1-0", "0-1", "1/2-1/2"), len(game.moves) > 0
    (True, True)
"""
from __future__ import annotations

import random as _random
from typing import NamedTuple

from .game import Game, Move, Outcome
from .position import Position, PositionKey


class RandomLine(NamedTuple):
    """The moves of a random game, where it stopped, and its outcome (``None``
    when it was stopped by ``max_plies`` before the rules ended it)."""

    moves: list[Move]
    position: Position
    outcome: Outcome | None


def random_line(game: Game, rng: _random.Random, max_plies: int | None = None) -> RandomLine:
    """Play uniformly random legal moves from the standard start until the game
    ends or ``max_plies`` moves are played."""
    position = game.start()
    history: set[PositionKey] = set()
    moves: list[Move] = []
    children = None  # the legal moves where the game stopped, when known
    while max_plies is None or len(moves) < max_plies:
        children = list(game.successors(position, history=history))
        if not children:
            break
        move, after = rng.choice(children)
        if game.uses_history:
            history.add(position.key())
        position = after
        moves.append(move)
        children = None
    legal = None if children is None else [move for move, _ in children]
    return RandomLine(moves, position, game.outcome(position, history=history, moves=legal))
