"""``validate --scheduler`` on a Dask LocalCluster of two worker processes,
against ``--jobs 2`` and the yardstick ``--jobs 1``, measured in the same
run; the table of docs/scale-out.md.

usage: python benchmarks/cluster.py [--games N ...] [--repeat N]

For each archive size (generated as records.py makes them) every command
runs as a new process, ``validate --quiet``, the least wall time of
``--repeat`` runs. Printed per run: plies per second, the ratio to
``--jobs 1``, and the overhead per batch: the worker time a batch costs
beyond the work itself, ``(wall − start) × workers − work`` over the
batches, where ``work`` is the ``--jobs 1`` time less its start-up and
``start`` is the same command's time on a one-game file (for the cluster:
the connection and the check of every worker). The cluster is started
before the timings and shut down at the end, also on an error or Ctrl-C.
It prints figures; it is not a test.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

from records import make_archive

from mancala_cli.batch.pipeline import process_pool
from mancala_cli.files.batches import Batch, batches
from mancala_cli.files.sources import open_source

MANCALA = os.path.join(os.path.dirname(sys.executable), "mancala")
ONE_GAME = """[Game "kingulu"]
[Result "*"]

1. c1x6 a2x1 *
"""


def wall(command: list[str], repeat: int) -> float:
    """The least wall time of ``repeat`` runs of ``command`` (which must succeed)."""
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - began)
    return min(times)


def count_batches(path: str) -> int:
    with open_source(path) as source:
        return sum(1 for _ in batches(source.lines(), "pmn", source.name, source.problems))


def echo(batch: Batch) -> list[str]:
    """A batch's lines back: a round trip with no work in it."""
    return batch.lines


def round_trip(executor: Any, path: str) -> float:
    """Seconds per batch of sending every batch of ``path`` to a worker and
    back with no work done, one batch at a time."""
    with open_source(path) as source:
        work = list(batches(source.lines(), "pmn", source.name, source.problems))
    executor.submit(echo, work[0]).result()  # (a started worker)
    began = time.perf_counter()
    for batch in work:
        executor.submit(echo, batch).result()
    return (time.perf_counter() - began) / len(work)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[500, 4000, 12000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    try:
        import distributed
    except ImportError:
        sys.exit("benchmarks/cluster.py needs Dask distributed: pip install -e '.[dask]'")
    with tempfile.TemporaryDirectory() as folder, \
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                     dashboard_address=None) as cluster:
        ways = {"--jobs 1": ["--jobs", "1"], "--jobs 2": ["--jobs", "2"],
                "LocalCluster, 2 workers": ["--scheduler", cluster.scheduler_address]}
        workers = {"--jobs 1": 1, "--jobs 2": 2, "LocalCluster, 2 workers": 2}
        one = os.path.join(folder, "one.pmn")
        with open(one, "w", encoding="utf-8") as out:
            out.write(ONE_GAME)
        start = {name: wall([MANCALA, "validate", "--quiet", *way, one], args.repeat) for name, way in ways.items()}
        print(f"{os.cpu_count()} cores; start-up on a one-game file: "
              + ", ".join(f"{name} {seconds * 1000:.0f} ms" for name, seconds in start.items()))
        print(f"{'games':>6} {'plies':>8} {'batches':>7}  {'run':24} {'seconds':>7} {'plies/s':>9} "
              f"{'vs --jobs 1':>11} {'overhead/batch':>14}")
        for games in args.games:
            path = os.path.join(folder, f"{games}.pmn")
            plies = make_archive(path, games)
            count = count_batches(path)
            times = {name: wall([MANCALA, "validate", "--quiet", *way, path], args.repeat)
                     for name, way in ways.items()}
            work = times["--jobs 1"] - start["--jobs 1"]
            for name, seconds in times.items():
                overhead = ((seconds - start[name]) * workers[name] - work) / count
                print(f"{games:>6} {plies:>8} {count:>7}  {name:24} {seconds:7.2f} {plies / seconds:9,.0f} "
                      f"{times['--jobs 1'] / seconds:10.2f}x {overhead * 1000:11.1f} ms")
        from mancala_cli.batch.dask_client import connect

        pool = process_pool(1)
        connected = connect(cluster.scheduler_address, 10)
        try:
            local, remote = round_trip(pool, path), round_trip(connected.executor(), path)
        finally:
            pool.shutdown()
            connected.close()
        print(f"round trip of one batch ({os.path.getsize(path) // count:,} bytes), no work: "
              f"local worker process {local * 1000:.1f} ms, LocalCluster {remote * 1000:.1f} ms")


if __name__ == "__main__":
    main()
