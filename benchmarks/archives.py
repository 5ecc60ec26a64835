"""``filter --reaches`` and ``stats`` over a generated archive, with
``--jobs 1`` and with the default (every usable core).

usage: python benchmarks/archives.py [--games N]

Prints plies per second (wall time, start-up included) and the peak memory
(resident set) of each run. The archive is the one records.py makes (the
three games mixed, at most 120 plies a game); the position asked for is
one that a game of the archive reaches in the middle, so that most games
are followed to their end. It prints figures; it is not a test.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile

from records import make_archive, measure

from mancala_cli import check, read


def middle_position(path: str) -> str:
    """The position after half the moves of the archive's first long kingulu game."""
    for record in read(path):
        if record.tag("Game") == "kingulu" and len(record.moves) >= 20:
            report = check(record)
            return str(report.positions[len(record.moves) // 2])
    raise SystemExit("no kingulu game of 20 moves in the archive")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    args = parser.parse_args()
    mancala = os.path.join(os.path.dirname(sys.executable), "mancala")
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "archive.pmn")
        plies = make_archive(path, args.games)
        size = os.path.getsize(path) / 2**20
        print(f"archive: {args.games:,} games, {plies:,} plies, {size:.1f} MiB")
        position = middle_position(path)
        runs = {
            "filter --reaches": [mancala, "filter", path, "--reaches", position, "--count"],
            "stats": [mancala, "stats", path, "--format", "json"],
        }
        for name, command in runs.items():
            for jobs in ("1", "auto"):
                seconds, peak, status = measure([*command, "--jobs", jobs])
                if status != 0:
                    raise SystemExit(f"{name} --jobs {jobs}: exit status {status}")
                print(f"{name:<17} --jobs {jobs:<4}  {plies / seconds:>10,.0f} plies/s  "
                      f"{seconds:6.1f} s  peak {peak:6.1f} MiB")


if __name__ == "__main__":
    main()
