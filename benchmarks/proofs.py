"""How many positions of the example files ``solve --time T`` proves, per
game, on the core this process runs (``MANCALA_PURE=1``: the pure one):
every position of every game's main line, each searched as ``mancala solve``
searches it (the game's history given), at most T seconds each.

``--features`` compares what the search adds to plain alpha-beta, side by
side in the same run (each position searched by every configuration in
turn): ``none`` (plain alpha-beta with the table), ``etc`` (enhanced
transposition cutoffs), ``history`` (the history heuristic), ``all``.

usage: python benchmarks/proofs.py [--time SECONDS] [--game ID] [--features LIST] [FILE ...]
"""
from __future__ import annotations

import argparse
import glob
import os
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=1.0, help="seconds per position at most")
    parser.add_argument("--game", help="only the files of this game")
    parser.add_argument("--features", default="all",
                        help="comma-separated configurations to compare: none, etc, history, all (default: all)")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    from mancala_cli import CORE
    from mancala_cli.api import read
    from mancala_cli.checking import replay
    from mancala_cli.rules import solver as solver_module
    from mancala_cli.rules.solver import Solver

    named = {"none": 0, "etc": solver_module.ETC, "history": solver_module.HISTORY,
             "all": solver_module.ALL_FEATURES}
    configs = [name.strip() for name in args.features.split(",")]
    if any(name not in named for name in configs):
        parser.error(f"--features: one of {', '.join(named)} each")

    files = args.files or sorted(glob.glob(os.path.join(HERE, "..", "examples", "*.pmn")))
    totals: dict[tuple[str, str], list[float]] = {}
    for path in files:
        for record in read(path):
            report = replay(record, None, positions=True)
            if not report.valid or report.game is None or report.start is None:
                continue
            game = report.game
            if args.game and game.id != args.game:
                continue
            history: list[tuple] = []
            for position in [report.start, *report.positions]:
                for name in configs:
                    row = totals.setdefault((game.id, name), [0, 0, 0.0, 0])
                    began = time.perf_counter()
                    solution = Solver(game, features=named[name]).solve(position, seconds=args.time,
                                                                        history=set(history))
                    row[2] += time.perf_counter() - began
                    row[0] += 1
                    row[1] += solution.result != "unknown"
                    row[3] += solution.nodes
                if game.uses_history:
                    history.append(position.key())
    for (game_id, name), (positions, proven, seconds, nodes) in sorted(totals.items()):
        print(f"{CORE} core, solve --time {args.time:g}, {name:7}: {game_id:17} {proven:4} of {positions:4} "
              f"positions proven ({seconds:.0f} s, {nodes / seconds:,.0f} nodes/s)", flush=True)


if __name__ == "__main__":
    main()
