"""The start of ``--jobs``' worker processes: a pool of N workers started
and one answer taken from each, with the workers forked (the command line's
case: a process of one thread) and started as new interpreters (a process
that runs other threads, where forking could deadlock the child), as ratios
to ``python -c pass`` measured in the same run (medians of every way taken
once in each round, in turn).

usage: python benchmarks/pool_start.py [--runs N] [--workers N]
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

#: Starts a pool, threaded or not, and waits for one answer of each worker.
PROGRAM = """
import os, sys, threading
import mancala_cli.batch.pool as pool
if sys.argv[1] == "threaded":
    threading.Thread(target=threading.Event().wait, daemon=True).start()
workers = pool.WorkerPool(int(sys.argv[2]))
for answer in [workers.submit(os.getpid) for _ in range(int(sys.argv[2]))]:
    answer.result()
workers.shutdown()
"""


def wall(command: list[str]) -> float:
    began = time.perf_counter()
    subprocess.run(command, check=True)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=21, help="rounds (default 21)")
    parser.add_argument("--workers", type=int, default=2, help="workers in the pool (default 2)")
    args = parser.parse_args()
    ways = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "pool, forked": [sys.executable, "-c", PROGRAM, "single", str(args.workers)],
        "pool, new interpreters": [sys.executable, "-c", PROGRAM, "threaded", str(args.workers)],
    }
    times: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(args.runs):
        for name, command in ways.items():
            times[name].append(wall(command))
    floor = statistics.median(times["python -c pass"])
    for name in ways:
        median = statistics.median(times[name])
        print(f"{name:24} {median * 1000:7.1f} ms  {median / floor:5.2f} x python -c pass")
    forked, new = (statistics.median(times[name]) for name in ("pool, forked", "pool, new interpreters"))
    print(f"new interpreters cost {(new - forked) * 1000:.1f} ms more than forking ({args.workers} workers)")


if __name__ == "__main__":
    main()
