"""The solved Bao Kingulu start (docs/rules.md, "Solving `kingulu` from its
start"): docs/kingulu-solution.json, the proof docs/kingulu-proof.txt.xz, and
the checker benchmarks/check_proof.py that replays the proof with the rules
alone."""
from __future__ import annotations

import importlib.util
import json
import lzma
import os
import pathlib
import subprocess
import sys

import pytest

from mancala_cli import Line, Move, Position, get_game, parse_position
from mancala_cli.solving.proofs import NoProof, write_proof
from mancala_cli.solving.search import Solver

ROOT = pathlib.Path(__file__).resolve().parents[1]
SOLUTION = ROOT / "docs" / "kingulu-solution.json"
PROOF = ROOT / "docs" / "kingulu-proof.txt.xz"
CHECKER = ROOT / "benchmarks" / "check_proof.py"
#: A won endgame (South to move wins; README, "Engine facts").
ENDGAME = "0,0,0,6*,2,9*/0,0,2,2,4,0 S 10-13 8"
#: A win in one move (b1x14), where d1 would end the game at once, won by North.
SHORT_WIN = "0,0,14,0,0,0/0,1,0,1,0,1 S 18-13 9"
#: From this ply of the principal variation on, `solve` without limits proves
#: every position in seconds (2 s or less each: docs/rules.md).
PROVES_FROM = 8


def _checker():
    spec = importlib.util.spec_from_file_location("check_proof", CHECKER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _check(*paths: pathlib.Path) -> subprocess.CompletedProcess:
    """Run the checker as a script on the pure core; it reports the modules it loaded."""
    program = ("import runpy, sys\n"
               f"sys.argv = ['check_proof.py', *{[str(path) for path in paths]!r}]\n"
               "try:\n"
               f"    runpy.run_path({str(CHECKER)!r}, run_name='__main__')\n"
               "finally:\n"
               "    print('loaded:', sorted(m for m in sys.modules if m.startswith(('notation', 'mancala_cli.rules.s',"
               " 'mancala_cli.solving'))))\n")
    env = dict(os.environ)
    env.pop("MANCALA_PURE", None)
    return subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=600, env=env,
                          cwd=ROOT)


def _solution() -> dict:
    return json.loads(SOLUTION.read_text(encoding="utf-8"))


def _proof_lines() -> list[str]:
    return lzma.decompress(PROOF.read_bytes()).decode("ascii").splitlines()


def test_the_published_proofs_hold_on_the_pure_rules_without_the_solver():
    done = _check()  # every docs/kingulu-proof*.txt.xz
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    # a proof for the start, and one for each losing first move (North, to move after it, wins)
    headlines = [line for line in lines if line.endswith(": the proof holds")]
    assert headlines == [
        "kingulu-proof-d1x6.txt.xz: kingulu, N to move wins from 0,6,6,6,1,0/1,6,6,2,7,0 N 7-0: the proof holds",
        "kingulu-proof-e1.txt.xz: kingulu, N to move wins from 6,6,6,1,6,1/0,1,6,6,2,7 N 0-0: the proof holds",
        "kingulu-proof-f1.txt.xz: kingulu, N to move wins from 6,6,1,6,1,7/6,0,1,6,6,2 N 0-0: the proof holds",
        "kingulu-proof.txt.xz: kingulu, S to move wins from 4,4,4,4,4,4/4,4,4,4,4,4 S 0-0: the proof holds",
    ]
    assert all("; pure core," in line for line in lines[1:-1:2])
    # the rules' selection module, and nothing of the solver, the proof writer or the notation
    assert lines[-1] == "loaded: ['mancala_cli.rules.selection']"


def test_every_first_move_of_the_solution_has_a_proof():
    checker = _checker()
    game = get_game("kingulu")
    for entry in _solution()["moves"]:
        line = Line(game)
        line.play(entry["move"])
        if entry["result"] == "win":  # the start's proof plays it
            _, start, winner, strategy = checker.read(PROOF)
            assert (start, winner, strategy[checker.key(start)]) == (game.start(), "S", line.moves[0].move.origin)
        else:
            assert entry["result"] == "loss"
            _, start, winner, _ = checker.read(PROOF.with_name(f"kingulu-proof-{entry['move']}.txt.xz"))
            assert (start, winner) == (line.position._replace(move_number=1), "N")


def test_the_solution_file_has_the_published_shape_and_agrees_with_the_proof():
    solution = _solution()
    assert list(solution) == ["result", "side", "moves", "pv", "nodes", "cpu_seconds"]
    game = get_game("kingulu")
    line = Line(game)
    assert solution["side"] == line.position.side == "S"
    assert [m["move"] for m in solution["moves"]] == [line.token(m) for m in line.legal_moves()]
    assert solution["result"] == "win" == max((m["result"] for m in solution["moves"]),
                                              key=["loss", "draw", "win"].index)
    assert solution["nodes"] > 0 and solution["cpu_seconds"] > 0
    checker = _checker()
    _, start, winner, strategy = checker.read(PROOF)
    assert (start, winner) == (game.start(), "S")
    # The principal variation: the proof's move at each of South's positions, legal
    # replies of North, to the end of the game, won by South.
    for token in solution["pv"]:
        if line.position.side == "S":
            assert line.game.board.name(strategy[checker.key(line.position)]) == token[:2]
        line.play(token)
    assert line.outcome().result == "1-0"
    first = solution["pv"][0]
    assert {"move": first, "result": "win"} in solution["moves"]


def test_solve_agrees_with_the_principal_variation_where_it_proves_quickly():
    solution = _solution()
    line = Line(get_game("kingulu"))
    for ply, token in enumerate(solution["pv"]):
        if ply >= PROVES_FROM:
            found = Solver(line.game).solve(line.position)  # (a limit would make it deepen: slower)
            if line.position.side == "S":
                assert found.result == "win"
                assert token in [line.token(m) for m in found.best]
            else:
                assert found.result == "loss"
                assert {result for _, result in found.moves} == {"loss"}
        line.play(token)


def test_the_proof_writer_writes_what_the_checker_accepts(tmp_path):
    game = get_game("kingulu")
    proof = write_proof(game, parse_position(game, ENDGAME))
    path = tmp_path / "endgame.txt"
    path.write_text(proof.text(), encoding="ascii")
    checker = _checker()
    found = checker.check(*checker.read(path))
    assert found["proof moves"] == len(proof.strategy) == 4
    assert found["longest line"] == len(proof.principal_variation())
    with pytest.raises(NoProof):  # South to move loses this one
        write_proof(game, Position((0, 0, 0, 0, 0, 1) + (0, 0, 0, 0, 0, 1), "S", (23, 23), 20))


def _broken(tmp_path, change, position: str = ENDGAME) -> str:
    """The checker's error line for the proof from ``position`` after ``change`` (a function of its lines)."""
    game = get_game("kingulu")
    lines = write_proof(game, parse_position(game, position)).text().splitlines()
    path = tmp_path / "broken.txt"
    path.write_text("\n".join(change(lines)) + "\n", encoding="ascii")
    done = _check(path)
    assert done.returncode == 1 and done.stdout.splitlines()[-1].startswith("loaded:"), done.stdout
    return done.stderr.strip()


def _count(lines: list[str]) -> list[str]:
    return [*lines[:4], f"moves {len(lines) - 5}", *lines[5:]]


def test_the_checker_rejects_a_missing_position(tmp_path):
    error = _broken(tmp_path, lambda lines: _count(lines[:-1]))
    assert error == "check_proof: error: broken.txt: no move in the proof for 0,1,0,8*,1,10*/0,0,0,0,0,2 S 10-16"


def test_the_checker_rejects_an_illegal_move(tmp_path):
    error = _broken(tmp_path, lambda lines: [*lines[:5], lines[5].replace(" d1", " a1"), *lines[6:]])
    assert error == "check_proof: error: broken.txt: the proof's move a1 is illegal at 0,0,0,6*,2,9*/0,0,2,2,4,0 S 10-13"


def test_the_checker_rejects_a_line_the_winner_loses(tmp_path):
    # b1x14 wins; d1 ends the game at once, won by North
    error = _broken(tmp_path, lambda lines: [*lines[:5], lines[5].replace(" b1", " d1")], SHORT_WIN)
    assert error == "check_proof: error: broken.txt: a line ends 0-1 at 0,0,14,0,0,0/0,1,0,0,1,1 N 18-13"


def test_the_checker_rejects_a_position_never_reached(tmp_path):
    error = _broken(tmp_path, lambda lines: _count([*lines, "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 c1"]))
    assert error == "check_proof: error: broken.txt: 1 position of the proof is never reached"


def test_the_checker_rejects_a_line_that_returns_to_a_position():
    checker = _checker()
    board = get_game("kingulu").board

    class Circle:
        """Each side has one move, and two moves lead back where they began."""
        def legal_moves(self, position):
            return [Move(0 if position.side == "S" else 6, 0)]

        def play(self, position, origin):
            return Move(origin, 0), position._replace(side="N" if position.side == "S" else "S")

        def outcome(self, position):
            return None

    Circle.board = board
    start = Position((4,) * 12, "S", (0, 0), 1)
    with pytest.raises(checker.ProofError, match="a line returns to 4,4,4,4,4,4/4,4,4,4,4,4 S 0-0: an endless game"):
        checker.check(Circle(), start, "S", {checker.key(start): 0})
