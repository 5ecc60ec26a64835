"""``solve --scheduler`` on a Dask LocalCluster of two worker processes
against the yardstick, ``solve`` in one process, measured in the same run;
the figures of docs/scale-out.md ("Solving one position").

usage: python benchmarks/cluster_solve.py [--game ID] [--position STRING] [--memory SIZE] [--time S] [--repeat N]

Each command runs as a new process with ``--format json``, the two in
turn, ``--repeat`` times; printed for each run: the wall time, the CPU
time (of the command, and for the cluster of each of its two workers
too), the positions searched and the results, then the ratio of the one
process's wall time to the cluster's (the speed-up; more than 1 is
faster), the ratio of the one process's CPU time to the busier worker's
(the speed-up the split allows on two idle cores, less the cluster's
overhead) and the load average. Both must give the same results. The cluster (2 workers of
1 thread, on 127.0.0.1) is started before the timings and shut down at the
end, also on an error or Ctrl-C. It prints figures; it is not a test.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

MANCALA = os.path.join(os.path.dirname(sys.executable), "mancala")


def run(command: list[str]) -> tuple[float, float, dict]:
    """Wall seconds, CPU seconds and the JSON answer of one command."""
    cpu = os.times()
    began = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.PIPE, check=True)
    wall = time.perf_counter() - began
    after = os.times()
    return wall, (after.children_user - cpu.children_user) + (after.children_system - cpu.children_system), \
        json.loads(done.stdout)


def worker_cpu(client) -> list[float]:
    """The CPU seconds each of the cluster's worker processes has used."""
    def used() -> float:
        times = os.times()
        return times.user + times.system

    return [seconds for _, seconds in sorted(client.run(used).items())]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="kingulu")
    parser.add_argument("--position")
    parser.add_argument("--memory", default="1G")
    parser.add_argument("--time", default="300")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    import distributed

    base = [MANCALA, "solve", "--game", args.game, "--memory", args.memory, "--time", args.time, "--format", "json"]
    if args.position:
        base += ["--position", args.position]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None, memory_limit=0) as local, \
            distributed.Client(local.scheduler_address, set_as_default=False) as client:
        ratios = []
        for _ in range(args.repeat):
            load = os.getloadavg()[0]
            one_wall, one_cpu, one = run(base)
            print(f"one process: {one_wall:.1f} s, CPU {one_cpu:.1f} s, {one['nodes']:,} nodes, {one['result']}, "
                  f"{[(m['move'], m['result']) for m in one['moves']]}", flush=True)
            before = worker_cpu(client)
            spread_wall, spread_cpu, spread = run([*base, "--scheduler", local.scheduler_address])
            workers = [after - earlier for after, earlier in zip(worker_cpu(client), before)]
            print(f"LocalCluster, 2 workers: {spread_wall:.1f} s, CPU {spread_cpu:.1f} s + workers "
                  f"{' + '.join(f'{w:.1f}' for w in workers)} s, "
                  f"{spread['nodes']:,} nodes, {spread['result']}, {spread['tasks']} tasks at {spread['split']} "
                  f"plies, pv {' '.join(spread['pv'])}", flush=True)
            same = all(one[k] == spread[k] for k in ("result", "best", "moves", "complete"))
            ratios.append(one_wall / spread_wall)
            print(f"same results: {same}; speed-up {one_wall / spread_wall:.2f}x, in CPU time of the busier "
                  f"worker {one_cpu / max(workers):.2f}x (positions "
                  f"{spread['nodes'] / one['nodes']:.2f}x); load average {load:.1f} before, "
                  f"{os.getloadavg()[0]:.1f} after", flush=True)
            if not same:
                sys.exit(1)
        print(f"speed-ups: {' '.join(f'{r:.2f}x' for r in ratios)}")


if __name__ == "__main__":
    main()
