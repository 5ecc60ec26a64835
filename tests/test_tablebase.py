"""The endgame tables of kimasai-klamroth (mancala_cli/solving/endgame.py,
native_tablebase.c): the value the solver finds for every position it
proves, on random positions of at most N stones; the same search results
with and without the tables inside searches with a history; the native
build equal byte for byte to the Python one; the file's header checked;
``mancala tablebase build``, ``solve --tablebase`` and ``annotate
--tablebase``. Runs on both cores (the tables are built by the core in use)."""
from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from mancala_cli import get_game
from mancala_cli.rules.position import Position
from mancala_cli.rules.randomgames import random_line
from mancala_cli.rules.selection import CORE
from mancala_cli.solving.endgame import HEADER_BYTES, Tablebase, TablebaseError, build_bytes, entries
from mancala_cli.solving.search import Solver

GAME = get_game("kimasai-klamroth")
#: The table the tests build: larger on the native core, which builds it in a fraction of a second.
STONES = 5 if CORE == "native" else 4
VALUES = {"win": 1, "draw": 0, "loss": -1}


@pytest.fixture(scope="module")
def table():
    return Tablebase.build(STONES)


def random_position(rng: random.Random, stones: int) -> Position:
    holes = [0] * 48
    for hole in rng.sample(range(48), stones):
        holes[hole] = 1
    return Position(tuple(holes), rng.choice("SN"), (23, 23 - stones), 40)


def test_the_table_gives_the_value_the_solver_proves(table):
    rng = random.Random(25)
    proven = {}
    for _ in range(300 if CORE == "native" else 120):
        position = random_position(rng, rng.randint(1, STONES))
        solution = Solver(GAME).solve(position, nodes=20000)
        if solution.result == "unknown":
            continue
        assert table.probe(position) == VALUES[solution.result], position
        proven[solution.result] = proven.get(solution.result, 0) + 1
    # enough of both results proven for the comparison to mean something
    assert proven.get("win", 0) >= 40 and proven.get("loss", 0) >= 40


def test_a_finished_position_and_a_bare_side(table):
    bare = Position((0,) * 24 + (1,) + (0,) * 23, "S", (23, 22), 80)
    assert table.probe(bare) == -1            # KK-4a: South to move has no stone
    assert table.probe(bare._replace(side="N")) == 1
    full = GAME.start()
    assert table.probe(full) is None          # 46 stones: not in the table


def endgame_positions(count: int, most: int, seed: int) -> list[tuple[Position, frozenset]]:
    """Positions of random games with at most ``most`` stones, each with the
    history of its game."""
    rng = random.Random(seed)
    found: list[tuple[Position, frozenset]] = []
    while len(found) < count:
        line = random_line(GAME, rng)
        position, history = GAME.start(), set()
        for move in line.moves:
            if sum(position.holes) <= most and rng.random() < 0.3:
                found.append((position, frozenset(history)))
            after = GAME.play(position, move.origin, history=history)[1]
            history.add(position.key())
            position = after
    return found[:count]


def test_searches_with_the_table_prove_what_searches_without_it_prove(table):
    limit = 4000 if CORE == "native" else 1500
    with_more = nodes_with = nodes_without = 0
    for position, history in endgame_positions(60, STONES + 3, 7):
        plain = Solver(GAME).solve(position, nodes=limit, history=history)
        told = Solver(GAME, tablebase=table).solve(position, nodes=limit, history=history)
        if plain.result != "unknown" and told.result != "unknown":
            assert plain.result == told.result
            assert [r for _, r in plain.moves if r != "unknown"] == \
                [r for (_, r), (_, p) in zip(told.moves, plain.moves) if p != "unknown"]
        with_more += (told.result != "unknown") - (plain.result != "unknown")
        nodes_with += told.nodes
        nodes_without += plain.nodes
    assert with_more > 0 and nodes_with < nodes_without


@pytest.mark.skipif(CORE != "native", reason="the native build and search against the Python ones")
def test_the_native_build_and_search_match_the_python_ones(table):
    from mancala_cli.rules import kimasai_klamroth

    assert Tablebase.build(4).data == Tablebase.build(4, pure=True).data
    pure_game = kimasai_klamroth.KimasaiKlamroth()
    for position, history in endgame_positions(40, STONES + 2, 11):
        native = Solver(GAME, tablebase=table).solve(position, nodes=3000, history=history)
        pure = Solver(pure_game, tablebase=table).solve(position, nodes=3000, history=history)
        assert (native.result, native.moves, native.best, native.nodes) == \
            (pure.result, pure.moves, pure.best, pure.nodes)


def test_the_file_round_trip_and_its_checks(table, tmp_path):
    path = tmp_path / "kk.tb"
    table.write(str(path))
    assert path.stat().st_size == HEADER_BYTES + build_bytes(STONES)
    back = Tablebase.read(str(path))
    assert back.stones == STONES and bytes(back.data) == bytes(table.data)
    assert len(back.data) * 4 >= entries(STONES)
    raw = path.read_bytes()
    for name, damaged, message in [
        ("short.tb", raw[:-1], "cut short"),
        ("magic.tb", b"x" + raw[1:], "not a mancala tablebase"),
        ("game.tb", raw.replace(b"game kimasai-klamroth", b"game kimasai-mackayyy"), "a table of"),
        ("rules.tb", raw.replace(b"kimasai-klamroth 1\n", b"kimasai-klamroth 9\n"), "built for rules"),
    ]:
        bad = tmp_path / name
        bad.write_bytes(damaged)
        with pytest.raises(TablebaseError, match=message):
            Tablebase.read(str(bad))


def mancala(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mancala_cli", *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd)


def test_the_commands(tmp_path):
    path = tmp_path / "kk3.tb"
    done = mancala("tablebase", "build", "--stones", "3", "-o", str(path))
    assert done.returncode == 0 and done.stdout == ""
    assert "18,473 positions of at most 3 stones" in done.stderr
    assert Tablebase.read(str(path)).data == Tablebase.build(3).data
    position = "0,0,0,0,0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0,0,0,0,1 S 22-21 60"
    plain = mancala("solve", "-g", "kimasai-klamroth", "-p", position)
    told = mancala("solve", "-g", "kimasai-klamroth", "-p", position, "--tablebase", str(path))
    assert plain.returncode == told.returncode == 0
    # South's l2 steps on without capturing; the table proves at once what the search proves in 14,000 nodes
    assert plain.stdout.splitlines()[0] == told.stdout.splitlines()[0] == "l2: win"
    assert told.stdout.splitlines()[1].startswith("win (best: l2; proven; depth 1, 2 nodes, ")
    assert plain.stdout.splitlines()[1].startswith("win (best: l2; proven; depth 25, 14,142 nodes, ")
    # refused: another game, too much memory, a bad file; nothing written
    refused = mancala("tablebase", "build", "--game", "kingulu", "--stones", "3", "-o", str(tmp_path / "x"))
    assert refused.returncode == 2 and refused.stderr.startswith("mancala: error: tables are built for")
    refused = mancala("tablebase", "build", "--stones", "9", "--memory", "1M", "-o", str(tmp_path / "x"))
    assert refused.returncode == 2 and "needs" in refused.stderr and not (tmp_path / "x").exists()
    bad = tmp_path / "bad.tb"
    bad.write_bytes(b"nothing")
    for command in (["solve", "-g", "kimasai-klamroth"], ["annotate", os.devnull]):
        refused = mancala(*command, "--tablebase", str(bad))
        assert refused.returncode == 1 and len(refused.stderr.splitlines()) == 1
        assert "not a mancala tablebase" in refused.stderr
    assert not [name for name in os.listdir(tmp_path) if name.startswith(".tablebase-")]


# -- what the Kingulu proofs tell annotate -----------------------------------
DOCS = __import__("pathlib").Path(__file__).resolve().parents[1] / "docs"
EXAMPLES = DOCS.parent / "examples"


@pytest.fixture(scope="module")
def book():
    from mancala_cli.solving.proofs import ProofBook

    return ProofBook.read([str(path) for path in sorted(DOCS.glob("kingulu-proof*.txt.xz"))])


def test_the_proofs_agree_with_the_solver_along_the_principal_variation(book):
    import json

    game = get_game("kingulu")
    pv = json.loads((DOCS / "kingulu-solution.json").read_text(encoding="utf-8"))["pv"]
    position = game.start()
    told = 0
    for ply, token in enumerate(pv):
        if ply >= 30:
            solution = Solver(game).solve(position, nodes=300_000)
            value = book.value(game, position)
            if value is not None and solution.result != "unknown":
                assert VALUES[solution.result] == value
                told += 1
            after = {move.origin: then for move, then in game.successors(position)}
            for move, result in solution.moves:
                value = book.move_value(game, position, move, after[move.origin])
                if value is not None and result != "unknown":
                    assert VALUES[result] == value
        move = next(m for m, _ in game.successors(position) if game.board.name(m.origin) == token[:2])
        position = game.play(position, move.origin)[1]
    assert told >= 20


@pytest.mark.skipif(CORE != "native", reason="the pure core searches a million nodes a position too slowly")
def test_annotate_proves_every_move_of_an_example_game_with_the_proofs(book):
    from mancala_cli.solving.engine_facts import Limits, annotate_record
    from notation.pmn_reader import read_game

    record = read_game((EXAMPLES / "kingulu-relative.pmn").read_text(encoding="utf-8"))
    limits = Limits(nodes=1_000_000, seconds=None)
    plain = annotate_record(record, limits=limits)
    told = annotate_record(record, limits=limits, proofs=book)
    # (the search alone proves every move here too since its proof-number phase: the proofs save nodes)
    assert "unknown" not in told.results and told.start == "win" and told.nodes < plain.nodes
    # what both prove, they prove alike
    assert all(a == b for a, b in zip(plain.results, told.results) if a != "unknown")


def test_annotate_refuses_a_file_that_is_not_a_proof(tmp_path):
    bad = tmp_path / "proof.txt"
    bad.write_text("mancala proof 1\ngame kingulu\nstart x\nwinner S\nmoves 1\nthis is not a line\n")
    refused = mancala("annotate", str(EXAMPLES / "kingulu-relative.pmn"), "--proof", str(bad))
    assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1
    assert "proof.txt:6: a line that is not 'rows S banks hole'" in refused.stderr and refused.stdout == ""
