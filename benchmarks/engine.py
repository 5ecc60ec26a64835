"""Random games per game: moves per second and peak memory of the rules engine.

usage: python benchmarks/engine.py [--games N] [--seed S]
"""
from __future__ import annotations

import argparse
import random
import time
import tracemalloc

from mancala_cli import CORE, Line, all_games


def play_random(game, rng: random.Random) -> int:
    line = Line(game)
    plies = 0
    while True:
        moves = line.legal_moves()
        if not moves:
            return plies
        line.play(rng.choice(moves).origin)
        plies += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"rules engine, {CORE} core:")
    for game in all_games():
        rng = random.Random(args.seed)
        tracemalloc.start()
        for _ in range(args.games):
            play_random(game, rng)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        # A second run without tracemalloc for the speed figure.
        rng = random.Random(args.seed)
        began = time.perf_counter()
        plies = sum(play_random(game, rng) for _ in range(args.games))
        elapsed = time.perf_counter() - began
        print(f"{game.id:17} {args.games} games {plies:7} moves {plies / elapsed:10,.0f} moves/s "
              f"(each with its legal-move list) peak {peak / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
