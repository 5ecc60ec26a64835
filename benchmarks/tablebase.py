"""Do the kimasai-klamroth endgame tables pay? Along the example game
(examples/kimasai-klamroth-annotated.pmn), the same searches with and
without a table, in the same run: what ``annotate`` proves with a node limit
per position, and the nodes ``solve`` needs to prove positions 20 to 60
plies from the end (each with its game's history).

usage: python benchmarks/tablebase.py TABLE [--nodes N] [--solve-nodes N] [--back 20,30,...]

TABLE is a file of ``mancala tablebase build``. Node limits, not time
limits, so that the figures do not depend on the machine's load.
"""
from __future__ import annotations

import argparse
import pathlib
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "kimasai-klamroth-annotated.pmn"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table")
    parser.add_argument("--nodes", type=int, default=200_000, help="annotate's node limit per position")
    parser.add_argument("--solve-nodes", type=int, default=20_000_000, help="solve's node limit")
    parser.add_argument("--back", default="20,30,40,50,60", help="plies from the end to solve")
    args = parser.parse_args()

    from mancala_cli import CORE
    from mancala_cli.checking import replay
    from mancala_cli.solving.endgame import Tablebase
    from mancala_cli.solving.engine_facts import Limits, annotate_record
    from mancala_cli.solving.search import Solver
    from notation.pmn_reader import read_game

    table = Tablebase.read(args.table)
    record = read_game(EXAMPLE.read_text(encoding="utf-8"))
    print(f"{table!r}, {CORE} core, {EXAMPLE.name}")
    print(f"annotate, at most {args.nodes:,} nodes a position:")
    for name, tables in (("without", None), ("with", table)):
        started = time.monotonic()
        done = annotate_record(record, limits=Limits(nodes=args.nodes, seconds=None), tablebase=tables)
        print(f"  {name:7} the table: {done.proven:3} of {done.searched} positions proven, "
              f"{done.nodes:12,} nodes, {time.monotonic() - started:6.1f} s", flush=True)
    report = replay(record, None, positions=True)
    game = report.game
    positions = [report.start, *report.positions]
    print(f"solve, at most {args.solve_nodes:,} nodes:")
    for back in (int(b) for b in args.back.split(",")):
        k = len(positions) - 1 - back
        history = {p.key() for p in positions[:k]}
        position = positions[k]
        figures = []
        for tables in (None, table):
            solution = Solver(game, tablebase=tables).solve(position, nodes=args.solve_nodes, history=history)
            figures.append(f"{solution.result:7} {solution.nodes:11,} nodes {solution.seconds:6.1f} s")
        print(f"  {back:3} plies from the end ({sum(position.holes):2} stones): without {figures[0]} | "
              f"with {figures[1]}", flush=True)


if __name__ == "__main__":
    main()
