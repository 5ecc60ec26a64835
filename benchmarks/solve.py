"""The solver: nodes per second for each game, on both cores, and the time to
solve Bao Kingulu positions 10, 20 and 30 plies from the end of random games.

usage: python benchmarks/solve.py [--games N] [--seed S] [--limit SECONDS]

Each core runs in its own process (``MANCALA_PURE=1`` for the pure one).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time


def worker(args: argparse.Namespace) -> None:
    from mancala_cli import CORE, Line, all_games, get_game
    from mancala_cli.rules.randomgames import random_line
    from mancala_cli.rules.solver import Solver

    print(f"solver, {CORE} core:", flush=True)
    for game in all_games():
        rng = random.Random(args.seed)
        nodes = 0
        seconds = 0.0
        for _ in range(5):
            line = random_line(game, rng)
            middle = Line(game)
            for move in line.moves[:len(line.moves) // 2]:
                middle.play(move.origin)
            solution = Solver(game).solve(middle.position, nodes=100_000, history=middle.history)
            nodes += solution.nodes
            seconds += solution.seconds
        print(f"  {game.id:17} {nodes:9,} nodes {nodes / seconds:10,.0f} nodes/s "
              f"(5 positions from the middle of random games, 100,000 nodes each at most)", flush=True)
    game = get_game("kingulu")
    rng = random.Random(args.seed)
    lines = [random_line(game, rng) for _ in range(args.games)]
    for back in (10, 20, 30):
        times, unproven = [], 0
        for line in lines:
            if len(line.moves) < back:
                continue
            position = game.start()
            for move in line.moves[:len(line.moves) - back]:
                position = game.play(position, move.origin)[1]
            began = time.perf_counter()
            solution = Solver(game).solve(position, seconds=args.limit)
            times.append(time.perf_counter() - began)
            unproven += solution.result == "unknown"
        if times:
            print(f"  kingulu {back:2} plies from the end: {len(times)} positions, median "
                  f"{statistics.median(times):.3f} s, max {max(times):.3f} s, "
                  f"{unproven} unproven within {args.limit:g} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=float, default=20.0, help="seconds per Kingulu position at most")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    for pure in ("0", "1"):
        env = dict(os.environ, MANCALA_PURE=pure)
        subprocess.run([sys.executable, __file__, "--worker", "--games", str(args.games), "--seed", str(args.seed),
                        "--limit", str(args.limit)], env=env, check=True)


if __name__ == "__main__":
    main()
