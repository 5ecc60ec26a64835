"""Game pages (``render --format html``): the size of each example game's
page against its budget (60 KB plus 1 KB a ply), and the time to write it.

usage: python benchmarks/pages.py [--repeat N]
"""
from __future__ import annotations

import argparse
import pathlib
import time

from mancala_cli import read
from mancala_cli.diagrams.page import game_page
from notation.record import GameRecord

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="pages written per game, for the time")
    args = parser.parse_args()
    print(f"{'game page':44} {'plies':>5} {'bytes':>7} {'budget':>7} {'used':>5} {'ms':>6}")
    for path in sorted(EXAMPLES.glob("*.pmn")):
        for number, record in enumerate(read(path), 1):
            began = time.perf_counter()
            for _ in range(args.repeat):
                page = game_page([record])
            ms = (time.perf_counter() - began) / args.repeat * 1000
            size = len(page.html.encode("utf-8"))
            budget = 60_000 + 1_000 * page.plies
            name = f"{path.name} #{number}"
            assert size <= budget, (name, size, budget)
            print(f"{name:44} {page.plies:5} {size:7} {budget:7} {size / budget:5.0%} {ms:6.1f}")
    for game in ("kimasai-mackay", "kimasai-klamroth", "kingulu"):
        empty = GameRecord(tags=[("Game", game)], result="*")
        print(f"{'a page of ' + game + ' without moves':44} {0:5} {len(game_page([empty]).html.encode('utf-8')):7}")


if __name__ == "__main__":
    main()
