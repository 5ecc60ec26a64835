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
from mancala_cli.rules.selection import CORE
from mancala_cli.solving.proofs import ProofBook, write_proof
from mancala_cli.solving.search import Solver

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
    assert refused.stderr.startswith(f"mancala: error: {bad}:1: ")
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


def test_proof_files_after_one_proof_option_are_proofs_too():
    """A shell's glob: --proof docs/kingulu-proof*.txt.xz, as the repeated option."""
    each = mancala("solve", "--game", "kingulu", *proof_options())
    glob = mancala("solve", "--game", "kingulu", "--proof", *PROOFS)
    assert (glob.returncode, glob.stdout, glob.stderr) == (0, each.stdout, "")
    assert glob.stdout.endswith("win (best: c1x6; proven; depth 0, 0 nodes, 0.00 s)\n")
    alone = mancala("solve", "--game", "kingulu", PROOFS[0])
    assert (alone.returncode, alone.stdout) == (2, "")
    assert alone.stderr == (f"mancala: error: {PROOFS[0]}: solve reads no input files (proof files go after "
                            "--proof: --proof FILE [PROOF]...)\n")


def test_annotate_takes_the_proof_files_of_a_glob_as_proofs(tmp_path):
    game = str(ROOT / "examples" / "kingulu-relative.pmn")
    each = mancala("annotate", "--time", "60", "--nodes", "3000", *proof_options(), game)
    glob = mancala("annotate", "--time", "60", "--nodes", "3000", "--proof", *PROOFS, game)
    assert (glob.returncode, glob.stdout, glob.stderr) == (0, each.stdout, each.stderr)
    assert glob.stdout.count("[Game ") == 1 and "\x00" not in glob.stdout


START = "0,0,0,6*,2,9*/0,0,2,2,4,0 S 10-13 8"


def test_a_proof_that_claims_an_illegal_move_is_refused(tmp_path):
    """a1 is empty at the start: no move the proof may claim there."""
    text = write_proof(get_game("kingulu"), mancala_cli.parse_position(get_game("kingulu"), START)).text()
    lines = text.splitlines()
    number = next(n for n, line in enumerate(lines, 1) if line == "0,0,0,6*,2,9*/0,0,2,2,4,0 S 10-13 d1")
    lines[number - 1] = "0,0,0,6*,2,9*/0,0,2,2,4,0 S 10-13 a1"
    bad = tmp_path / "bad-proof.txt"
    bad.write_text("\n".join(lines) + "\n")
    done = mancala("solve", "--game", "kingulu", "--position", START, "--nodes", "10", "--proof", str(bad))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"mancala: error: {bad}:{number}: the move a1 is not legal at "
                           "0,0,0,6*,2,9*/0,0,2,2,4,0 S 10-13\n")


def limited(*args: str) -> subprocess.CompletedProcess[str]:
    """The command within 1 GiB of address space and 60 s."""
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "
            "from mancala_cli.cli import main; sys.argv = ['mancala', *sys.argv[1:]]; main()")
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=60, cwd=ROOT)


@pytest.mark.parametrize("header", [b"", b"mancala proof 1\ngame kingulu\n"])
def test_a_proof_that_unpacks_to_gigabytes_is_refused_from_its_first_lines(tmp_path, header):
    """1.5 GB of zeros in a 230 KB .xz (the same 64 MB stream 24 times)."""
    import lzma
    import time

    stream = lzma.compress(bytes(64 << 20), preset=0)
    bomb = tmp_path / "bomb.txt.xz"
    bomb.write_bytes(lzma.compress(header) + stream * 24)
    started = time.monotonic()
    done = limited("solve", "--game", "kingulu", "--proof", str(bomb))
    assert (done.returncode, done.stdout) == (2, "")
    line = 1 if not header else 3
    assert done.stderr == (f"mancala: error: {bomb}:{line}: not a proof (a line longer than 4,096 characters)\n")
    assert time.monotonic() - started < 20


def test_a_proof_that_announces_more_moves_than_a_book_holds_is_refused(tmp_path):
    big = tmp_path / "big.txt"
    big.write_text("mancala proof 1\ngame kingulu\nstart 4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1\nwinner S\n"
                   "moves 99999999999\n")
    done = mancala("solve", "--game", "kingulu", "--proof", str(big))
    assert (done.returncode, done.stderr) == (
        2, f"mancala: error: {big}:5: 99,999,999,999 moves, more than a book holds (1,000,000 positions in all)\n")


def test_a_proof_of_more_than_a_million_moves_is_refused_before_its_moves_are_read(tmp_path):
    """3.9 million lines in a 4.5 MB .xz took 1.2 GB and 19 s to read: a
    book holds 1,000,000 positions at most (about 200 MB)."""
    big = tmp_path / "big.txt"
    big.write_text("mancala proof 1\ngame kingulu\nstart 4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1\nwinner S\n"
                   "moves 1000001\n")
    done = mancala("solve", "--game", "kingulu", "--proof", str(big))
    assert (done.returncode, done.stderr) == (
        2, f"mancala: error: {big}:5: 1,000,001 moves, more than a book holds (1,000,000 positions in all)\n")


@pytest.mark.parametrize("tail", ["\n", "\ngarbage\n", "garbage\n"])
def test_a_proof_with_lines_after_its_moves_is_refused(tmp_path, tail):
    text = write_proof(get_game("kingulu"), mancala_cli.parse_position(get_game("kingulu"), START)).text()
    bad = tmp_path / "tail.txt"
    bad.write_text(text + tail)
    done = mancala("solve", "--game", "kingulu", "--position", START, "--nodes", "10", "--proof", str(bad))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"mancala: error: {bad}:10: more lines than its 'moves 4'\n"


def test_a_proof_move_that_leads_where_the_proof_does_not_go_is_refused(tmp_path):
    """The proof of f1 has North win with d2; a2 loses there (a search of
    the position says so), yet with a2 in its place the proof made ``a2``
    a win: the move's replies must reach positions of the proof."""
    import lzma

    lines = lzma.decompress(pathlib.Path(ROOT / "docs" / "kingulu-proof-f1.txt.xz").read_bytes()).decode().splitlines()
    number = lines.index("6,6,1,6,1,7/6,0,1,6,6,2 N 0-0 d2") + 1
    lines[number - 1] = "6,6,1,6,1,7/6,0,1,6,6,2 N 0-0 a2"
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("\n".join(lines) + "\n")
    done = mancala("solve", "--game", "kingulu", "--position", AFTER_F1, "--nodes", "10", "--proof", str(wrong))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"mancala: error: {wrong}:{number}: the move a2 at 6,6,1,6,1,7/6,0,1,6,6,2 N 0-0 is not "
                           "proven to win: the proof has no move at 2,0,5,5*,5,12/1,3,6,3,2,4 N 0-0\n")
    right = mancala("solve", "--game", "kingulu", "--position", AFTER_F1, "--nodes", "10", "--proof", PROOFS[2])
    assert (right.returncode, right.stdout.splitlines()[:3:2]) == (3, ["a2: unknown", "d2x2: win"])  # (3: stopped)
