"""``filter --reaches`` and ``stats`` over a generated archive, with
``--jobs 1`` and with the default (every usable core); then ``filter``
with the same criteria given as flags and as ``--where``, with ``--jobs 1``.

usage: python benchmarks/archives.py [--games N]

Prints plies per second (wall time, start-up included) and the peak memory
(resident set) of each run. The archive is the one records.py makes (the
three games mixed, at most 120 plies a game); the position asked for is
one that a game of the archive reaches in the middle, so that most games
are followed to their end. For flags against ``--where`` it prints the
ratio of the two times (the goal: ``--where`` within 10 % of the flags,
a ratio at most 1.10), the better of three runs each. It prints figures;
it is not a test.
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
        for name, flags, where in same_criteria(position):
            times = [float("inf"), float("inf")]
            for _ in range(3):  # taken in turn, so that a change in the machine's load touches both
                for k, args in enumerate((flags, ["--where", where])):
                    seconds, _, status = measure([mancala, "filter", path, *args, "--count", "--jobs", "1"])
                    if status != 0:
                        raise SystemExit(f"filter {' '.join(args)}: exit status {status}")
                    times[k] = min(times[k], seconds)
            print(f"{name:<17} flags {times[0]:6.2f} s  --where {times[1]:6.2f} s  "
                  f"ratio {times[1] / times[0]:.3f}")


def same_criteria(position: str) -> list[tuple[str, list[str], str]]:
    """Criteria given as flags and as a --where expression: ones decided
    without a replay, and ones that need it."""
    return [
        ("tags and plies", ["--game", "kingulu", "--tag", "Event=^random", "--result", "0-1", "--min-plies", "30"],
         'game = kingulu and tag.Event ~ "^random" and result = "0-1" and plies >= 30'),
        ("valid, reaches", ["--valid", "--reaches", position], f'valid and reaches "{position}"'),
    ]


if __name__ == "__main__":
    main()
