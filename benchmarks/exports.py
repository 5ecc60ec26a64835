"""Exports: milliseconds per SVG diagram and XML archive plies per second.

usage: python benchmarks/exports.py [--games N]
"""
from __future__ import annotations

import argparse
import io
import random
import time

from mancala_cli import Line, all_games, get_game
from mancala_cli.records import random_game
from mancala_cli.checking import replay
from mancala_cli.diagrams.svg import board_svg
from notation.xml import read_archive, write_archive


def positions(game, count: int, rng: random.Random):
    """(position, last move) pairs from random games."""
    out = []
    while len(out) < count:
        line = Line(game)
        while len(out) < count:
            moves = line.legal_moves()
            if not moves:
                break
            move = line.play(rng.choice(moves).origin)
            out.append((line.position, move))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    rng = random.Random(1)
    total = 0.0
    count = 0
    for game in all_games():
        sample = positions(game, 1000, rng)
        board_svg(game, sample[0][0])               # warm the per-game template
        began = time.perf_counter()
        for position, move in sample:
            board_svg(game, position, last_move=move)
        elapsed = time.perf_counter() - began
        total += elapsed
        count += len(sample)
        print(f"svg {game.id:17} {elapsed / len(sample) * 1000:.3f} ms per diagram")
    print(f"svg all games      {total / count * 1000:.3f} ms per diagram ({count} diagrams)")

    records = []
    for i in range(args.games):
        record = random_game(get_game(("kingulu", "kimasai-mackay", "kimasai-klamroth")[i % 3]), rng, 120)
        replay(record, fill_positions=True)
        records.append(record)
    plies = sum(len(r.moves) for r in records)
    for with_positions in (False, True):
        out = io.BytesIO()
        began = time.perf_counter()
        write_archive(records, out, positions=with_positions)
        elapsed = time.perf_counter() - began
        data = out.getvalue()
        began = time.perf_counter()
        read = sum(len(r.moves) for r in read_archive(data))
        read_elapsed = time.perf_counter() - began
        label = "with positions" if with_positions else "             "
        print(f"xml {label} write {plies / elapsed:10,.0f} plies/s, read+validate "
              f"{read / read_elapsed:10,.0f} plies/s ({len(data) / 2**20:.1f} MiB, {args.games} games)")


if __name__ == "__main__":
    main()
