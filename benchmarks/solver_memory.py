"""What one entry of the solver's table costs in memory, by game, against
what :data:`mancala_cli.solving.search.ENTRY_BYTES` charges for it: the table
each search leaves (tracemalloc) divided by its entries, from the start and
from positions deep into random games, and the resident memory of a search
whose table fills a budget.

usage: python benchmarks/solver_memory.py [--nodes N] [--budget MB]

A ratio (charged / measured) of 1 or more means the budget holds: the table
never costs more than ``memory``.
"""
from __future__ import annotations

import argparse
import gc
import random
import resource
import subprocess
import sys
import tracemalloc


def measure(game_id: str, plies: int, nodes: int) -> tuple[int, int, int]:
    """(entries, bytes held, bytes charged) of a search of ``nodes`` positions
    from ``plies`` random moves into a game."""
    from mancala_cli import Line, get_game
    from mancala_cli.rules.randomgames import random_line
    from mancala_cli.solving.search import Solver

    game = get_game(game_id)
    line = Line(game)
    for move in random_line(game, random.Random(5), max_plies=plies).moves if plies else ():
        line.play(move.origin)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    solver = Solver(game)
    solver.solve(line.position, nodes=nodes, history=line.history)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return len(solver.table), held, solver.used


def _rss() -> int:
    """This process's resident memory now, in bytes."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize()


def resident(game_id: str, budget: int) -> None:
    """In this process: the resident memory a search from the start adds
    while its table fills ``budget`` bytes (printed)."""
    from mancala_cli import get_game
    from mancala_cli.solving.search import ENTRY_BYTES, Solver

    game = get_game(game_id)
    base = _rss()
    solver = Solver(game, memory=budget)
    solution = solver.solve(game.start(), nodes=8 * budget // ENTRY_BYTES[game_id])
    grown = _rss() - base
    print(f"  {game_id:<17} budget {budget >> 20} MB: table charged {solver.used / 2**20:.1f} MB, "
          f"resident memory grew {grown / 2**20:.1f} MB ({grown / budget:.2f} of the budget), "
          f"{solution.nodes:,} nodes in {solution.seconds:.0f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=30_000)
    parser.add_argument("--budget", type=int, default=32, help="MB for the resident-memory runs")
    parser.add_argument("--resident", metavar="GAME", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.resident:
        resident(args.resident, args.budget << 20)
        return
    from mancala_cli import CORE
    from mancala_cli.solving.search import ENTRY_BYTES

    print(f"solver table entries, {CORE} core (tracemalloc):")
    for game_id, charged in ENTRY_BYTES.items():
        for plies in (0, 4, 30, 60):
            entries, held, used = measure(game_id, plies, args.nodes)
            if entries:
                print(f"  {game_id:<17} {plies:>2} plies in: {entries:>6,} entries, {held / entries:6.0f} bytes "
                      f"each, charged {used / entries:6.0f} ({charged} + earlier positions): ratio "
                      f"{used / held:.2f}", flush=True)
    print("resident memory of a search that fills the table (each in its own process):")
    for game_id in ENTRY_BYTES:
        subprocess.run([sys.executable, __file__, "--resident", game_id, "--budget", str(args.budget)], check=True)


if __name__ == "__main__":
    main()
