"""Checks a proof that the side to move wins a position, with the rules alone.

usage: python benchmarks/check_proof.py [PROOF...]   (default: docs/kingulu-proof*.txt.xz)

The proof (``mancala_cli/solving/proofs.py`` writes it; ``.xz`` files are
lzma-compressed) names, for positions of the winner, the hole the winner sows
from. This script plays from the start every reply of the loser and the
proof's move for the winner, and accepts the proof only if every line ends
with the game won by the winner (the rules' outcome: in kingulu KG-7's score),
every position of the winner reached is in the proof, every move of the proof
is legal and is used, and no position recurs on a line (an endless game is no
win).

It uses the rules' legal moves, play and outcome, run as a script on the
pure-Python core (``MANCALA_PURE=1`` unless set otherwise), and nothing of
the solver or of the notation layer: it reads the position strings itself. Exit 0 and a summary of each proof if all hold, else exit 1
and one line ``check_proof: error: FILE: ...``.
"""
from __future__ import annotations

import argparse
import lzma
import os
import pathlib
import sys
import time

if __name__ == "__main__":
    os.environ.setdefault("MANCALA_PURE", "1")  # the reference rules, before they load

from mancala_cli.rules.position import Position  # noqa: E402
from mancala_cli.rules.registry import get_game  # noqa: E402

DEFAULTS = pathlib.Path(__file__).resolve().parents[1] / "docs"


class ProofError(Exception):
    """The proof does not hold (or cannot be read)."""


def parse(game, text: str) -> Position:
    """A position from the first three or four fields of a position string:
    rows (top rank first, ``*`` marks a reserved hole), side, banks ``S-N``."""
    fields = text.split()
    try:
        rows, side, banks = fields[0].split("/"), fields[1], fields[2].split("-")
        files, ranks = game.board.files, game.board.ranks
        holes, reserved = [0] * (files * ranks), set()
        for r, row in enumerate(rows):
            cells = row.split(",")
            if len(rows) != ranks or len(cells) != files:
                raise ValueError
            for f, cell in enumerate(cells):
                hole = (ranks - 1 - r) * files + f
                if cell.endswith("*"):
                    reserved.add(hole)
                holes[hole] = int(cell.rstrip("*"))
        position = Position(tuple(holes), side, (int(banks[0]), int(banks[1])), 1, frozenset(reserved))
        game.validate(position)
        return position
    except Exception as error:  # a bad field, count or shape
        raise ProofError(f"not a position: {text!r} ({error})") from None


def show(game, position: Position) -> str:
    """The first three fields of the position string of ``position``."""
    files, holes = game.board.files, position.holes
    rows = ["".join(f"{holes[h]}{'*' if h in position.reserved else ''}," for h in range(r * files, (r + 1) * files))
            for r in range(len(holes) // files - 1, -1, -1)]
    return f"{'/'.join(row[:-1] for row in rows)} {position.side} {position.banks[0]}-{position.banks[1]}"


def key(position: Position) -> tuple:
    return (position.holes, position.side, position.banks, position.reserved)


def read(path: pathlib.Path):
    """The game, start, winner and strategy (key -> hole) of a proof file."""
    data = path.read_bytes()
    text = (lzma.decompress(data) if path.suffix == ".xz" else data).decode("ascii")
    lines = text.splitlines()
    if len(lines) < 5 or lines[0] != "mancala proof 1":
        raise ProofError(f"{path}: not a proof file")
    header = dict(line.split(" ", 1) for line in lines[1:5])
    game = get_game(header["game"])
    start = parse(game, header["start"])
    winner = header["winner"]
    if winner != start.side:
        raise ProofError(f"the winner {winner} is not the side to move at the start")
    entries = lines[5:]
    if int(header["moves"]) != len(entries):
        raise ProofError(f"the header says {header['moves']} moves, the file has {len(entries)}")
    strategy = {}
    for line in entries:
        position = parse(game, line)
        if position.side != winner:
            raise ProofError(f"not a position of the winner: {line}")
        strategy[key(position)] = game.board.index_of(line.split()[3])
    return game, start, winner, strategy


def check(game, start: Position, winner: str, strategy: dict) -> dict:
    """Raise :class:`ProofError` unless ``strategy`` wins every line from ``start``.
    Returns the counts: the proof's moves (all used), the positions reached,
    those that end the game, and the longest line (moves)."""
    won = "1-0" if winner == "S" else "0-1"
    done: dict = {}     # positions proven won -> the longest line from them
    line: set = set()   # positions on the line being played
    used: set = set()

    def visit(position: Position) -> int:
        k = key(position)
        if k in done:
            return done[k]
        if k in line:
            raise ProofError(f"a line returns to {show(game, position)}: an endless game, no win")
        moves = game.legal_moves(position)
        if not moves:
            outcome = game.outcome(position)
            if outcome is None or outcome.result != won:
                raise ProofError(f"a line ends {outcome and outcome.result} at {show(game, position)}")
            done[k] = 0
            return 0
        line.add(k)
        if position.side == winner:
            if k not in strategy:
                raise ProofError(f"no move in the proof for {show(game, position)}")
            used.add(k)
            if strategy[k] not in [move.origin for move in moves]:
                raise ProofError(f"the proof's move {game.board.name(strategy[k])} is illegal at {show(game, position)}")
            longest = 1 + visit(game.play(position, strategy[k])[1])
        else:
            longest = 1 + max(visit(game.play(position, move.origin)[1]) for move in moves)
        line.discard(k)
        done[k] = longest
        return longest

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    longest = visit(start)
    if len(used) != len(strategy):
        unreached = len(strategy) - len(used)
        raise ProofError(f"{unreached} position{'' if unreached == 1 else 's'} of the proof "
                         f"{'is' if unreached == 1 else 'are'} never reached")
    return {"proof moves": len(used), "positions": len(done), "finished": sum(1 for n in done.values() if n == 0),
            "longest line": longest}


def main() -> int:
    import resource

    from mancala_cli.rules.selection import CORE
    parser = argparse.ArgumentParser(prog="check_proof", description=__doc__.splitlines()[0])
    parser.add_argument("proofs", nargs="*", metavar="PROOF", help="proof files (default: docs/kingulu-proof*.txt.xz)")
    paths = [pathlib.Path(name) for name in parser.parse_args().proofs] or sorted(DEFAULTS.glob("kingulu-proof*.txt.xz"))
    for path in paths:
        began = time.process_time()
        try:
            game, start, winner, strategy = read(path)
            counts = check(game, start, winner, strategy)
        except (OSError, ProofError, KeyError, ValueError, lzma.LZMAError) as error:
            print(f"check_proof: error: {path.name}: {error}", file=sys.stderr)
            return 1
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{path.name}: {game.id}, {winner} to move wins from {show(game, start)}: the proof holds")
        print("  " + ", ".join(f"{name} {count:,}" for name, count in counts.items())
              + f"; {CORE} core, {time.process_time() - began:.1f} s CPU, {peak:,.0f} MB peak so far")
    return 0


if __name__ == "__main__":
    sys.exit(main())
