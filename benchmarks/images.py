"""PNG images: milliseconds per PNG diagram of each game (scale 2, the
default, and scale 1) and per game sheet, as ratios to the yardstick of one
SVG diagram of the same positions, measured in the same run (medians).

usage: python benchmarks/images.py [--diagrams N] [--runs N]

Needs the png extra (``pip install -e '.[png]'``, as benchmarks/run does).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from exports import positions  # (benchmarks/exports.py: positions of random games)

from mancala_cli import Line, all_games, get_game, read, sheet
from mancala_cli.diagrams.png import svg_to_png
from mancala_cli.diagrams.svg import board_svg


def median_ms(work, runs: int) -> float:
    """The median wall time of ``work()`` in milliseconds."""
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        work()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--diagrams", type=int, default=10, help="positions per game")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(1)
    for game in all_games():
        sample = positions(game, args.diagrams, rng)
        svgs = [board_svg(game, position, last_move=move) for position, move in sample]
        svg_to_png(svgs[0])  # load resvg and the fonts once

        def draw_svg() -> None:
            for position, move in sample:
                board_svg(game, position, last_move=move)

        def draw_png(scale: float) -> None:
            for position, move in sample:
                svg_to_png(board_svg(game, position, last_move=move), scale=scale)

        yardstick = median_ms(draw_svg, args.runs) / len(sample)
        for scale in (2.0, 1.0):
            each = median_ms(lambda: draw_png(scale), args.runs) / len(sample)
            print(f"png {game.id:17} scale {scale:g}: {each:7.2f} ms per PNG, {each / yardstick:6.1f}x one SVG "
                  f"diagram ({yardstick:.3f} ms)")
    record = next(read(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples",
                            "kingulu-village-match.pmn")))
    kingulu = get_game("kingulu")
    line = Line(kingulu)
    yardstick = median_ms(lambda: board_svg(kingulu, line.position), args.runs * 20)
    for every in (10, 2):
        boards = len(range(0, 23, every)) + 1
        each = median_ms(lambda: sheet(record, every=every, format="png"), args.runs)
        print(f"png sheet of {boards:2} kingulu boards, scale 2: {each:7.1f} ms, {each / yardstick:6.0f}x one SVG "
              f"diagram ({yardstick:.3f} ms)")


if __name__ == "__main__":
    main()
