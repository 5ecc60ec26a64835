"""The solver: nodes per second for each game, on both cores, and the time to
solve Bao Kingulu positions 10, 20 and 30 plies from the end of random games.

usage: python benchmarks/solve.py [--games N] [--seed S] [--limit SECONDS] [--nodes N]

First the native search and the Python one on the pure rules in the same
process, on the same positions (the ratio of their node rates, and whether
they found the same results and node counts); then each core in its own
process (``MANCALA_PURE=1`` for the pure one) for the Kingulu endgames.
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
    from mancala_cli.solving.search import Solver

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


def same_run(args: argparse.Namespace) -> None:
    """Both searches on the same positions in this one process."""
    from mancala_cli.rules import kimasai_klamroth, kimasai_mackay, kingulu
    from mancala_cli.rules.game import GameInProgress
    from mancala_cli.rules.randomgames import random_line
    from mancala_cli.solving.search import Solver
    try:
        from mancala_cli.rules import native
    except ImportError:
        print("the native kernel is not built here: no same-run comparison")
        return
    print(f"solver, same run, {args.nodes:,} nodes at most per position (5 positions from the middle of "
          "random games per game):", flush=True)
    for pure in (kimasai_mackay.KimasaiMackay(), kimasai_klamroth.KimasaiKlamroth(), kingulu.Kingulu()):
        fast = getattr(native, type(pure).__name__)()
        rng = random.Random(args.seed)
        totals = {"pure": [0, 0.0], "native": [0, 0.0]}
        same = True
        for _ in range(5):
            line = random_line(pure, rng)
            middle = GameInProgress(pure)
            for move in line.moves[:len(line.moves) // 2]:
                middle.play(move.origin)
            found = {}
            for name, game in (("pure", pure), ("native", fast)):
                solution = Solver(game).solve(middle.position, nodes=args.nodes, history=middle.history)
                totals[name][0] += solution.nodes
                totals[name][1] += solution.seconds
                found[name] = (solution.result, solution.moves, solution.nodes)
            same = same and found["pure"] == found["native"]
        rates = {name: nodes / seconds for name, (nodes, seconds) in totals.items()}
        print(f"  {pure.id:17} pure {rates['pure']:9,.0f} nodes/s, native {rates['native']:11,.0f} nodes/s: "
              f"{rates['native'] / rates['pure']:5.1f}x (goal for kingulu: 50x); same results and node counts: "
              f"{'yes' if same else 'NO'}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=float, default=20.0, help="seconds per Kingulu position at most")
    parser.add_argument("--nodes", type=int, default=100_000, help="nodes per position in the same-run comparison")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    same_run(args)
    for pure in ("0", "1"):
        env = dict(os.environ, MANCALA_PURE=pure)
        subprocess.run([sys.executable, __file__, "--worker", "--games", str(args.games), "--seed", str(args.seed),
                        "--limit", str(args.limit)], env=env, check=True)


if __name__ == "__main__":
    main()
