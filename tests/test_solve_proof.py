"""``solve --proof FILE`` and ``mancala_cli.solve(proofs=...)``: the stored
Kingulu proofs (docs/kingulu-proof*.txt.xz) fill in what the search leaves
unknown, and a position whose every move they decide is not searched."""
from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

import mancala_cli
from mancala_cli import get_game
from mancala_cli.api import read
from mancala_cli.checking import replay
from mancala_cli.proof import ProofBook
from mancala_cli.rules.selection import CORE
from mancala_cli.rules.solver import Solver

ROOT = pathlib.Path(__file__).resolve().parents[1]
PROOFS = sorted(str(path) for path in ROOT.glob("docs/kingulu-proof*.txt.xz"))
#: North to move after 1. f1, which loses for South: the proof of f1 holds North's winning reply.
AFTER_F1 = "6,6,1,6,1,7/6,0,1,6,6,2 N 0-0 1"


def mancala(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mancala_cli", *args], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)


def proof_options() -> list[str]:
    return [option for path in PROOFS for option in ("--proof", path)]


@pytest.fixture(scope="module")
def book() -> ProofBook:
    return ProofBook.read(PROOFS)


def test_the_start_is_answered_by_the_proofs_without_a_search():
    assert len(PROOFS) == 4
    done = mancala("solve", "--game", "kingulu", *proof_options())
    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    assert lines[:4] == ["c1x6: win", "d1x6: loss", "e1: loss", "f1: loss"]
    assert lines[4].startswith("win (best: c1x6; proven; depth 0, 0 nodes, ")


def test_the_proofs_fill_in_what_the_search_leaves_unknown():
    plain = mancala("solve", "--game", "kingulu", "--position", AFTER_F1, "--nodes", "2000")
    told = mancala("solve", "--game", "kingulu", "--position", AFTER_F1, "--nodes", "2000", *proof_options())
    assert plain.returncode == told.returncode == 3  # the node limit stopped both searches
    assert "d2x2: unknown" in plain.stdout.splitlines() and plain.stdout.splitlines()[-1].startswith("unknown (")
    assert "d2x2: win" in told.stdout.splitlines()
    assert told.stdout.splitlines()[-1].startswith("win (best: d2x2; stopped by the node limit; ")
    # the other moves are not in the proof (it holds one move of the winner's): still unknown
    assert [line for line in told.stdout.splitlines()[:-1] if not line.startswith("d2x2")] == \
        [line for line in plain.stdout.splitlines()[:-1] if not line.startswith("d2x2")]


def test_the_library_does_the_same(book):
    start = mancala_cli.solve("4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1", game="kingulu", proofs=PROOFS)
    assert (start.result, start.nodes, start.complete) == ("win", 0, True)
    assert [r for _, r in start.moves] == ["win", "loss", "loss", "loss"]
    told = mancala_cli.solve(AFTER_F1, game="kingulu", nodes=2000, time=None, proofs=book)
    assert told.result == "win" and told.bounds == ("win", "win") and told.stopped == "nodes"


def test_proof_options_that_are_refused(tmp_path):
    bad = tmp_path / "proof.txt"
    bad.write_text("not a proof\n")
    refused = mancala("solve", "--game", "kingulu", "--proof", str(bad))
    assert refused.returncode == 2 and refused.stdout == "" and len(refused.stderr.splitlines()) == 1
    assert refused.stderr.startswith(f"mancala: error: {bad}: ")
    cluster = mancala("solve", "--game", "kingulu", "--scheduler", "tcp://127.0.0.1:9", *proof_options())
    assert cluster.returncode == 2
    assert cluster.stderr == "mancala: error: --proof does not go with --scheduler\n"


@pytest.mark.skipif(CORE != "native", reason="a million nodes a position is too slow on the pure core")
def test_every_position_of_the_kingulu_examples_is_proven_with_the_proofs(book):
    game = get_game("kingulu")
    total = searched = 0
    for name in ("kingulu-tournament.pmn", "kingulu-village-match.pmn"):
        for record in read(str(ROOT / "examples" / name)):
            report = replay(record, None, positions=True)
            for position in [report.start, *report.positions]:
                total += 1
                solution = book.proven(game, position)
                if solution is None:
                    searched += 1
                    solution = book.solution(game, position, Solver(game).solve(position, nodes=1_000_000))
                assert solution.result != "unknown", (name, position)
    assert total == 134 and 0 < searched < total
