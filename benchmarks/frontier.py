"""How far is a start from being solved? Along a recorded game (by default
the 163-move examples/kimasai-klamroth-annotated.pmn), solve the position
BACK plies from the end (with the endgame tables of --tablebase, if given),
each with its game's history, for BACK = --from, --from + --step, … until a
position is left unknown within the node limit: the *frontier* is the
furthest position back that is proven. A least-squares line through log(nodes) against BACK
then says how the cost grows per ply, and what the start (the whole game
back) would cost at that rate, in nodes and in days of one core at the
measured speed. It also prints what a retrograde analysis of every position
of kimasai-klamroth (the tables built up to 46 stones) would take, from the
layer sizes and the build speed given with --build-rate.

usage: python benchmarks/frontier.py [GAME_FILE] [--tablebase TABLE] [--nodes N] [--from B]
       [--step S] [--memory SIZE] [--build-rate POSITIONS_PER_CPU_SECOND] [--json FILE]

TABLE is a file of ``mancala tablebase build``. Node limits, not time
limits, so the frontier does not depend on the machine's load (the speed,
and so the days, do).
"""
from __future__ import annotations

import argparse
import json
import math
import pathlib
import time
from math import comb

from mancala_cli.cli.values import size_parser

ROOT = pathlib.Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "kimasai-klamroth-annotated.pmn"
#: Each side's stones stay on its own 24 holes (KK-1), at most one a hole.
HOLES_A_SIDE = 24


def fit(points: list[tuple[int, int]]) -> tuple[float, float]:
    """The least-squares line ``log(nodes) = a + b × back``: (a, b)."""
    xs = [float(x) for x, _ in points]
    ys = [math.log(n) for _, n in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return my - b * mx, b


def retrograde(south: int, north: int) -> tuple[int, int]:
    """Positions of every stone count reachable from a start of ``south`` and
    ``north`` stones (either side to move, one entry serving both as the
    table does), and the largest pair of layers a build holds at once."""
    total = 0
    largest = 0
    for a in range(south + 1):
        for b in range(north + 1):
            total += comb(HOLES_A_SIDE, a) * comb(HOLES_A_SIDE, b)
            # (the layer of a and b stones with its mirror, b and a: a move
            # that captures nothing leads from one to the other)
            pair = comb(HOLES_A_SIDE, a) * comb(HOLES_A_SIDE, b) * (1 if a == b else 2)
            largest = max(largest, pair)
    return total, largest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game_file", nargs="?", default=str(EXAMPLE))
    parser.add_argument("--tablebase", default=None, help="endgame tables (kimasai-klamroth)")
    parser.add_argument("--nodes", type=int, default=50_000_000, help="node limit of each solve")
    parser.add_argument("--from", dest="start", type=int, default=60, help="the first BACK")
    parser.add_argument("--step", type=int, default=4, help="BACK's step")
    parser.add_argument("--memory", default="2G", type=size_parser("--memory"),
                        help="the search table's memory (as solve --memory)")
    parser.add_argument("--build-rate", type=float, default=None,
                        help="positions per CPU second of `mancala tablebase build` (for the retrograde estimate)")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args()

    from mancala_cli import CORE
    from mancala_cli.checking import replay
    from mancala_cli.solving.endgame import Tablebase
    from mancala_cli.solving.search import Solver
    from notation.pmn_reader import read_game

    memory = args.memory
    table = None if args.tablebase is None else Tablebase.read(args.tablebase)
    example = pathlib.Path(args.game_file)
    record = read_game(example.read_text(encoding="utf-8"))
    report = replay(record, None, positions=True)
    game = report.game
    positions = [report.start, *report.positions]
    plies = len(positions) - 1
    print(f"{table!r}, {CORE} core, {example.name}: {plies} plies, at most {args.nodes:,} nodes a solve",
          flush=True)
    probes: list[dict[str, object]] = []
    back = args.start
    while back <= plies:
        k = plies - back
        history = {p.key() for p in positions[:k]}
        position = positions[k]
        cpu = time.process_time()
        solution = Solver(game, tablebase=table, memory=memory).solve(position, nodes=args.nodes, history=history)
        cpu = time.process_time() - cpu
        stones = sum(position.holes)
        probes.append({"back": back, "ply": k, "stones": stones, "result": solution.result,
                       "nodes": solution.nodes, "cpu_seconds": round(cpu, 1)})
        print(f"  {back:3} plies from the end (ply {k:3}, {stones:2} stones): {solution.result:7} "
              f"{solution.nodes:12,} nodes {cpu:7.1f} s CPU", flush=True)
        if solution.result == "unknown":
            break
        back += args.step
    proven = [(int(p["back"]), int(p["nodes"])) for p in probes if p["result"] != "unknown"]
    figures: dict[str, object] = {"game": game.id, "table": repr(table), "core": CORE, "node_limit": args.nodes, "probes": probes}
    if proven:
        frontier = max(proven)
        print(f"frontier: proven {frontier[0]} plies from the end, {plies - frontier[0]} plies short of the start")
        figures["frontier_back"] = frontier[0]
    if len(proven) >= 2:
        a, b = fit(proven)
        cpu_all = sum(float(p["cpu_seconds"]) for p in probes)
        rate = sum(int(p["nodes"]) for p in probes) / cpu_all if cpu_all else 0.0
        start_nodes = math.exp(a + b * plies)
        days = start_nodes / rate / 86400 if rate else float("inf")
        print(f"growth: × {math.exp(b):.3f} nodes per ply back (least squares over {len(proven)} proven points)")
        print(f"the start at that rate: {start_nodes:.2e} nodes, {days:.2e} days of one core at "
              f"{rate:,.0f} nodes per CPU second")
        figures.update(growth_per_ply=round(math.exp(b), 4), start_nodes=float(f"{start_nodes:.3e}"),
                       nodes_per_cpu_second=round(rate), start_core_days=float(f"{days:.3e}"))
    if game.id != "kimasai-klamroth":
        _write(args.json, figures)
        return
    total, largest = retrograde(23, 23)
    print(f"retrograde analysis of the whole game: {total:.3e} positions (one byte each), "
          f"the largest pair of layers {largest:.3e}")
    figures.update(retrograde_positions=total, retrograde_largest_layers=largest)
    if args.build_rate:
        days = total / args.build_rate / 86400
        print(f"  at {args.build_rate:,.0f} positions per CPU second: {days:,.0f} days of one core")
        figures.update(build_rate=args.build_rate, retrograde_core_days=round(days))
    _write(args.json, figures)


def _write(path: str | None, figures: dict[str, object]) -> None:
    if path:
        pathlib.Path(path).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
