"""How much of the example games ``annotate`` proves, without and with what
the project knows beyond its search: the endgame tables of
kimasai-klamroth (``--tablebase``) and the proofs of the Kingulu solution
(``--proof docs/kingulu-proof*.txt.xz``), in the same run.

usage: python benchmarks/annotate_examples.py [--nodes N] [--tablebase FILE] [FILE ...]

For each example game file (default: examples/*.pmn): the positions whose
result is proven and the played moves whose result is proven, out of all,
and the nodes searched. A node limit per position, not a time limit, so
that the figures do not depend on the machine's load.
"""
from __future__ import annotations

import argparse
import pathlib
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*")
    parser.add_argument("--nodes", type=int, default=1_000_000, help="node limit per position")
    parser.add_argument("--tablebase", help="a kimasai-klamroth table (mancala tablebase build)")
    args = parser.parse_args()

    from mancala_cli import CORE
    from mancala_cli.solving.endgame import Tablebase
    from mancala_cli.solving.engine_facts import Limits, annotate_record
    from mancala_cli.solving.proofs import ProofBook
    from notation.pmn_reader import read_games

    files = [pathlib.Path(f) for f in args.files] or sorted((ROOT / "examples").glob("*.pmn"))
    table = Tablebase.read(args.tablebase) if args.tablebase else None
    proofs = ProofBook.read([str(p) for p in sorted((ROOT / "docs").glob("kingulu-proof*.txt.xz"))])
    limits = Limits(nodes=args.nodes, seconds=None)
    print(f"{CORE} core, at most {args.nodes:,} nodes a position; with: {table!r}, {proofs!r}")
    for path in files:
        records = list(read_games(path.read_text(encoding="utf-8")))
        line = []
        for name, knowledge in (("without", {}), ("with", {"tablebase": table, "proofs": proofs})):
            started = time.monotonic()
            searched = proven = moves = known = nodes = 0
            for record in records:
                done = annotate_record(record, limits=limits, **knowledge)
                searched += done.searched
                proven += done.proven
                nodes += done.nodes
                results = done.results or []
                moves += len(results)
                known += sum(result != "unknown" for result in results)
            line.append(f"{name}: {proven}/{searched} positions, {known}/{moves} moves proven, {nodes:,} nodes, "
                        f"{time.monotonic() - started:.0f} s")
        print(f"{path.name}: " + " | ".join(line), flush=True)


if __name__ == "__main__":
    main()
