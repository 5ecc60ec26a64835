"""Random legal games, as records (for ``mancala random``, tests and benchmarks).

    >>> import random
    >>> from mancala_cli.games import get_game
    >>> record = random_game(get_game("kingulu"), random.Random(1))
    >>> record.tag("Game"), record.result in ("1-0", "0-1", "1/2-1/2")
    ('kingulu', True)
"""
from __future__ import annotations

import random as _random

from notation.record import GameRecord, MoveNode

from .core import Game


def random_game(game: Game, rng: _random.Random, max_plies: int | None = None,
                event: str = "random game") -> GameRecord:
    """Play uniformly random legal moves from the standard start until the game
    ends or ``max_plies`` moves are played (then the result is ``*``)."""
    position = game.start()
    history: set = set()
    board = game.board
    nodes = []
    children = None  # the legal moves where the game stopped, when known
    while max_plies is None or len(nodes) < max_plies:
        children = list(game.successors(position, history))
        if not children:
            break
        move, after = rng.choice(children)
        if game.uses_history:
            history.add(position.key())
        position = after
        nodes.append(MoveNode(board.names[move.origin], captured=move.captured or None,
                              reserved=move.reserved))
        children = None
    outcome = game.outcome(position, history, children)
    result = outcome.result if outcome else "*"
    tags = [("Game", game.id), ("Event", event), ("Result", result)]
    if outcome is not None and outcome.score is not None:
        tags.append(("Score", f"{outcome.score[0]}-{outcome.score[1]}"))
    return GameRecord(tags=tags, moves=nodes, result=result)
