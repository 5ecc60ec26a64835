"""Where the time of ``mancala validate`` goes: microseconds per ply in each
stage, for a generated archive (the one records.py makes).

usage: python benchmarks/stages.py [--games N] [--repeat N] [--profile N]

Each stage runs over the whole archive in this process, batch after batch
as one job runs them; the figures are processor time (so that other work on
the machine counts little), the least of ``--repeat`` runs:

* read: decoding the file, cutting it into batches and reading the PMN;
* check: replaying every record with every check (``checking.replay``),
  also per game;
* report: what validate makes of each replayed record (``format_result``);
* total: the three in a row, as one job runs them (``pipeline.results``).

Then the command itself (``validate --quiet``, a new process), with its
start-up (an empty input) apart. ``--profile N`` prints the N functions
that take most time of their own over the total. It prints figures; it is
not a test.
"""
from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

from records import make_archive

from mancala_cli.batch.pipeline import Options, format_result, results
from mancala_cli.checking import replay
from mancala_cli.files.batches import batch_records, batches, fewer_collections
from mancala_cli.files.sources import open_source

OPTIONS = Options("validate")


def best(repeat: int, work: Callable[[], Any]) -> tuple[float, Any]:
    """The least processor time of ``repeat`` runs of ``work``, and its last value."""
    times = []
    value = None
    for _ in range(repeat):
        began = time.process_time()
        value = work()
        times.append(time.process_time() - began)
    return min(times), value


def stages(path: str) -> dict[str, float]:
    """Seconds of each stage over the whole file, batch after batch as one
    job runs them (one batch held at a time, the collector of reference
    cycles set as in validate)."""
    spent = {"read": 0.0, "check": 0.0, "report": 0.0}
    clock = time.process_time
    with open_source(path) as source, fewer_collections():
        began = clock()
        work = list(batches(source.lines(), "pmn", source.name, source.problems))
        spent["read"] += clock() - began
        for batch in work:
            began = clock()
            records = batch_records(batch)
            spent["read"] += clock() - began
            for record in records:  # as process_batch: each replay is dropped once formatted
                began = clock()
                replayed = replay(record)
                checked = clock()
                format_result(OPTIONS, record, replayed)
                spent["report"] += clock() - checked
                spent["check"] += checked - began
    return spent


def by_game(path: str) -> dict[str, tuple[float, int]]:
    """Seconds and plies of replaying the records of each game, batch after batch."""
    spent: dict[str, tuple[float, int]] = {}
    clock = time.process_time
    with open_source(path) as source, fewer_collections():
        for batch in batches(source.lines(), "pmn", source.name, source.problems):
            for record in batch_records(batch):
                began = clock()
                replay(record)
                game = record.tag("Game") or "?"
                seconds, plies = spent.get(game, (0.0, 0))
                spent[game] = (seconds + clock() - began, plies + len(record.moves))
    return spent


def total(path: str) -> int:
    with open_source(path) as source:
        return sum(result.moves for result in results(source, OPTIONS))


def command(args: list[str], repeat: int) -> float:
    """The least processor time (user and system) of ``repeat`` runs of
    ``validate --quiet`` on ``args`` in a new process."""
    mancala = [sys.executable, "-m", "mancala_cli", "validate", "--quiet"]
    times = []
    for _ in range(repeat):
        child = subprocess.Popen(mancala + args, stdout=subprocess.DEVNULL)
        _, _, usage = os.wait4(child.pid, 0)
        times.append(usage.ru_utime + usage.ru_stime)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="print the N functions with the most time of their own")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "archive.pmn")
        plies = make_archive(path, args.games)
        print(f"{args.games:,} games, {plies:,} plies; microseconds per ply, best of {args.repeat}")

        def show(stage: str, seconds: float, of: int = plies) -> None:
            print(f"  {stage:<24} {seconds * 1e6 / of:6.2f} us/ply  ({seconds:.3f} s)")

        runs = [stages(path) for _ in range(args.repeat)]
        for stage in ("read", "check", "report"):
            show(stage, min(run[stage] for run in runs))
        games = [by_game(path) for _ in range(args.repeat)]
        for game_id in sorted(games[0]):
            show(f"  check, {game_id}", min(run[game_id][0] for run in games), games[0][game_id][1])
        show("read + check + report", min(sum(run.values()) for run in runs))
        total_s, moves = best(args.repeat, lambda: total(path))
        assert moves == plies, (moves, plies)
        show("total (one job)", total_s)
        empty = os.path.join(folder, "empty.pmn")
        with open(empty, "w", encoding="utf-8") as out:
            out.write("\n")
        start = command([empty], args.repeat)
        whole = command([path], args.repeat)
        show("validate --quiet, less start-up", whole - start)
        print(f"  start-up {start * 1e3:.0f} ms; validate --quiet {whole:.2f} s, "
              f"{plies / whole:,.0f} plies per processor second")
        if args.profile:
            profile = cProfile.Profile()
            profile.runcall(total, path)
            pstats.Stats(profile, stream=sys.stdout).sort_stats("tottime").print_stats(args.profile)


if __name__ == "__main__":
    main()
