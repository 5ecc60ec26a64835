"""Records made from the rules: random games as :class:`~notation.record.GameRecord`\\ s.

    >>> import random
    >>> from mancala_cli import get_game
    >>> record = random_game(get_game("kingulu"), random.Random(1))
    >>> record.tag("Game"), record.result in ("1-0", "0-1", "1/2-1/2")
    ('kingulu', True)
"""
from __future__ import annotations

import random as _random

from notation.coords import hole_names
from notation.record import GameRecord, MoveNode

from .rules.game import Game
from .rules.randomgames import random_line

__all__ = ["random_game"]


def random_game(game: Game, rng: _random.Random, max_plies: int | None = None,
                event: str = "random game") -> GameRecord:
    """A random legal game of ``game`` as a record: tags ``Game``, ``Event``,
    ``Result`` (``*`` when ``max_plies`` stopped it) and, where the rules
    score it, ``Score``."""
    line = random_line(game, rng, max_plies)
    names = hole_names(game.ranks, game.files)
    nodes = [MoveNode(names[move.origin], captured=move.captured or None, reserved=move.reserved)
             for move in line.moves]
    outcome = line.outcome
    result = outcome.result if outcome else "*"
    tags = [("Game", game.id), ("Event", event), ("Result", result)]
    if outcome is not None and outcome.score is not None:
        tags.append(("Score", f"{outcome.score[0]}-{outcome.score[1]}"))
    return GameRecord(tags=tags, moves=nodes, result=result)
