"""Exports: milliseconds per SVG diagram, XML archive plies per second, and
``render --positions`` against a shell loop of ``render --position``.

usage: python benchmarks/exports.py [--games N] [--diagrams N]
"""
from __future__ import annotations

import argparse
import io
import pathlib
import random
import subprocess
import sys
import tempfile
import time

from mancala_cli import Line, all_games, format_position, get_game
from mancala_cli.checking import replay
from mancala_cli.diagrams.svg import board_svg
from mancala_cli.random_records import random_game
from notation.xml_reader import read_archive
from notation.xml_writer import write_archive


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
    parser.add_argument("--diagrams", type=int, default=1000, help="positions drawn by render --positions")
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

    many_diagrams(args.diagrams, rng)


def many_diagrams(count: int, rng: random.Random) -> None:
    """``render --positions`` of ``count`` kingulu positions in one process,
    against a shell loop of one ``render --position`` per position (a
    tenth of them, the time scaled)."""
    game = get_game("kingulu")
    mancala = str(pathlib.Path(sys.executable).parent / "mancala")
    lines = [format_position(game, position) + "\n" for position, _ in positions(game, count, rng)]
    with tempfile.TemporaryDirectory() as folder:
        listing = pathlib.Path(folder, "positions.txt")
        listing.write_text("".join(lines), encoding="utf-8")
        began = time.perf_counter()
        subprocess.run([mancala, "render", "--game", "kingulu", "--positions", str(listing), "--out-dir",
                        str(pathlib.Path(folder, "one"))], check=True)
        one = time.perf_counter() - began
        sample = max(1, count // 10)
        pathlib.Path(folder, "sample.txt").write_text("".join(lines[:sample]), encoding="utf-8")
        loop = ('mkdir loop && n=0 && while IFS= read -r p; do n=$((n + 1)); '
                '"$0" render --game kingulu --position "$p" -o loop/$n.svg || exit; done < sample.txt')
        began = time.perf_counter()
        subprocess.run(["sh", "-c", loop, mancala], cwd=folder, check=True)
        each = (time.perf_counter() - began) / sample
    print(f"render --positions, {count} kingulu diagrams: {one:.2f} s in one process; a shell loop of "
          f"render --position: {each * 1000:.0f} ms a diagram, {each * count:.0f} s for {count} "
          f"({each * count / one:.0f}x)")


if __name__ == "__main__":
    main()
