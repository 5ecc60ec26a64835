"""``mancala random``: random legal games as PMN (:func:`mancala_cli.random_records.random_game`)."""
from __future__ import annotations

import random
import sys
from typing import Optional

from notation.pmn_writer import write_games

from ..random_records import random_game
from .options import GAME_OPTION, game_rules, int_option

#: The most random games and the longest random game asked for.
MAX_RANDOM_GAMES = 10_000_000
MAX_RANDOM_PLIES = 1_000_000


def random_games(
    game: str = GAME_OPTION,
    n: int = int_option(1, "-n", "--number", low=0, high=MAX_RANDOM_GAMES, help="How many games."),
    seed: Optional[int] = int_option(None, "--seed", "-s", low=-(2**128), high=2**128,
                                     help="Random seed (the same seed gives the same games)."),
    max_plies: Optional[int] = int_option(None, "--max-plies", low=1, high=MAX_RANDOM_PLIES,
                                          help="Stop a game after this many moves (result '*')."),
) -> None:
    """Write N random legal games as canonical PMN.

    Example: mancala random --game kingulu -n 3 --seed 7
    """
    rules = game_rules(game)
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    write_games((random_game(rules, rng, max_plies, event=f"random game {i + 1}, seed {seed}")
                 for i in range(n)), sys.stdout)
