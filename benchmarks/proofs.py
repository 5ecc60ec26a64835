"""How many positions of the example files ``solve --time T`` proves, per
game, on the core this process runs (``MANCALA_PURE=1``: the pure one):
every position of every game's main line, each searched as ``mancala solve``
searches it (the game's history given), at most T seconds each.

``--features`` compares what the search adds to plain alpha-beta, side by
side in the same run (each position searched by every configuration in
turn): ``none`` (plain alpha-beta with the table), ``etc`` (enhanced
transposition cutoffs), ``history`` (the history heuristic), ``pn`` (the
proof-number search alone), ``alphabeta`` (etc and history), ``all``.

``--shares`` compares the share of the time limit after which the search
stops deepening (``solver.DEEPENING_SHARE``) likewise: ``1`` deepens to the
end.

``--nodes N`` gives each position N nodes instead of a time limit: what a
search proves per node, the same on a busy machine as on an idle one.

``--tablebase FILE`` gives the searches endgame tables (``mancala tablebase
build``), as ``solve --tablebase FILE`` does; ``--compare-tablebase`` runs
every configuration without and with them, side by side.

usage: python benchmarks/proofs.py [--time SECONDS | --nodes N] [--game ID] [--features LIST] [--shares LIST]
       [--tablebase FILE [--compare-tablebase]] [FILE ...]
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
    parser.add_argument("--nodes", type=int, help="nodes per position at most (instead of --time)")
    parser.add_argument("--game", help="only the files of this game")
    parser.add_argument("--features", default="all",
                        help="comma-separated configurations to compare: none, etc, history, pn, alphabeta, all "
                             "(default: all)")
    parser.add_argument("--shares", default="",
                        help="comma-separated deepening shares to compare (default: the solver's own)")
    parser.add_argument("--tablebase", help="endgame tables for the searches")
    parser.add_argument("--compare-tablebase", action="store_true",
                        help="each configuration without and with the tables")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    from mancala_cli import CORE
    from mancala_cli.api import read
    from mancala_cli.checking import replay
    from mancala_cli.solving import search as solver_module
    from mancala_cli.solving.alpha_beta import ETC, HISTORY
    from mancala_cli.solving.proof_numbers import PN
    from mancala_cli.solving.search import Solver

    named = {"none": 0, "etc": ETC, "history": HISTORY,
             "pn": PN, "alphabeta": ETC | HISTORY,
             "all": solver_module.ALL_FEATURES}
    features = [name.strip() for name in args.features.split(",")]
    if any(name not in named for name in features):
        parser.error(f"--features: one of {', '.join(named)} each")
    shares = [float(share) for share in args.shares.split(",")] if args.shares else [solver_module.DEEPENING_SHARE]
    tables = [None]
    if args.tablebase:
        from mancala_cli.solving.endgame import Tablebase

        table = Tablebase.read(args.tablebase)
        tables = [None, table] if args.compare_tablebase else [table]
    configs = [(name, share, t) for name in features for share in shares for t in range(len(tables))]

    files = args.files or sorted(glob.glob(os.path.join(HERE, "..", "examples", "*.pmn")))
    totals: dict[tuple[str, str, float, int], list[float]] = {}
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
                for name, share, t in configs:
                    row = totals.setdefault((game.id, name, share, t), [0, 0, 0.0, 0])
                    solver_module.DEEPENING_SHARE = share  # type: ignore[misc]
                    began = time.perf_counter()
                    limit = {"nodes": args.nodes} if args.nodes else {"seconds": args.time}
                    solution = Solver(game, features=named[name], tablebase=tables[t]).solve(position, history=set(history), **limit)
                    row[2] += time.perf_counter() - began
                    row[0] += 1
                    row[1] += solution.result != "unknown"
                    row[3] += solution.nodes
                if game.uses_history:
                    history.append(position.key())
    for (game_id, name, share, t), (positions, proven, seconds, nodes) in sorted(totals.items()):
        limit = f"--nodes {args.nodes}" if args.nodes else f"--time {args.time:g}"
        if tables[t] is not None:
            limit += f" --tablebase ({tables[t]!r})"
        print(f"{CORE} core, solve {limit}, {name:7} (deepening share {share:g}): {game_id:17} "
              f"{proven:4} of {positions:4} "
              f"positions proven ({seconds:.0f} s, {nodes / seconds:,.0f} nodes/s)", flush=True)


if __name__ == "__main__":
    main()
