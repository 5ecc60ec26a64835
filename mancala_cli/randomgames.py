"""Random legal games, as records (for ``mancala random``, tests and benchmarks).

    >>> import random
    >>> from mancala_cli.games import get_game
    >>> record = random_game(get_game("kingulu"), random.Random(1))
    >>> record.tag("Game"), record.result in ("1-0", "0-1", "1/2-1/2")
    ('kingulu', True)
"""
from __future__ import annotations

import random as _random

from notation.coords import format_hole
from notation.record import GameRecord, MoveNode

from .core import Game, Line


def random_game(game: Game, rng: _random.Random, max_plies: int | None = None,
                event: str = "random game") -> GameRecord:
    """Play uniformly random legal moves from the standard start until the game
    ends or ``max_plies`` moves are played (then the result is ``*``)."""
    line = Line(game)
    board = game.board
    nodes = []
    while max_plies is None or len(nodes) < max_plies:
        moves = line.legal_moves()
        if not moves:
            break
        choice = rng.choice(moves)
        side = line.position.side
        line.play(choice.origin)
        nodes.append(MoveNode(format_hole(board, choice.origin, "algebraic", side),
                              captured=choice.captured or None, reserved=choice.reserved))
    outcome = line.outcome()
    result = outcome.result if outcome else "*"
    tags = [("Game", game.id), ("Event", event), ("Result", result)]
    if outcome is not None and outcome.score is not None:
        tags.append(("Score", f"{outcome.score[0]}-{outcome.score[1]}"))
    return GameRecord(tags=tags, moves=nodes, result=result)
