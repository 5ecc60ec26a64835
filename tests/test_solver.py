"""The solver (mancala_cli.rules.solver) against a plain minimax over the
full game tree, its table's traps (transpositions, KK-4b repetitions), its
limits and the ``mancala solve`` command."""
from __future__ import annotations

import json
import random

import pytest

from mancala_cli.rules.core import Position
from mancala_cli.rules.randomgames import random_line
from mancala_cli.rules.registry import get_game
from mancala_cli.rules.solver import Solver

from .conftest import on_terminal
from .test_cli import run


class Endless(Exception):
    """The plain minimax met a position again on its line (no result)."""


class TooBig(Exception):
    """The plain minimax's tree is bigger than a test should walk."""


def minimax(game, position, history=frozenset(), line=frozenset(), budget=None):
    """The value for the side to move (1, 0, -1), over the whole tree, no pruning, no table."""
    if budget is not None:
        budget[0] -= 1
        if budget[0] < 0 or len(line) > 60:
            raise TooBig
    children = list(game.successors(position, history=history))
    if not children:
        result = game.outcome(position, history=history, moves=[]).result
        if result == "1/2-1/2":
            return 0
        return 1 if (result == "1-0") == (position.side == "S") else -1
    state = (position.holes, position.side, position.banks, position.reserved, position.move_number == 1)
    if not game.uses_history and state in line:
        raise Endless
    if game.uses_history:
        history = history | {position.key()}
    return max(-minimax(game, after, history, line | {state}, budget) for _, after in children)


NAMES = {1: "win", 0: "draw", -1: "loss"}


def check_against_minimax(game, position, history=frozenset()):
    solution = Solver(game).solve(position, history=history)
    expected = [NAMES[-minimax(game, after, history | ({position.key()} if game.uses_history else set()))]
                for _, after in game.successors(position, history=history)]
    assert [result for _, result in solution.moves] == expected
    assert solution.result == (max(expected, key=["loss", "draw", "win"].index) if expected else solution.result)
    assert all(result == solution.result for result in [r for m, r in solution.moves if m in solution.best])
    assert len(solution.best) == expected.count(solution.result)
    return solution


def small_positions(game, make, count, budget=20_000):
    """``count`` positions from ``make(rng)`` whose whole tree is small and finite."""
    found = []
    rng = random.Random(11)
    while len(found) < count:
        position = make(rng)
        try:
            minimax(game, position, budget=[budget])
        except (TooBig, Endless):
            continue
        if list(game.successors(position)):
            found.append(position)
    return found


def kingulu_endgames(count):
    game = get_game("kingulu")
    positions = []
    for seed in range(40):
        line = random_line(game, random.Random(seed))
        position = game.start()
        for move in line.moves[:max(0, len(line.moves) - 8)]:
            position = game.play(position, move.origin)[1]
        positions.append(position)
    return small_positions(game, lambda rng: positions[rng.randrange(len(positions))], count)


def scattered(game, rng, seeds_per_side, banks=(0, 0)):
    """A position with a few seeds scattered over each side's holes."""
    holes = [0] * game.board.size
    for side in ("S", "N"):
        own = list(game.board.holes_in_order(side))
        for hole in rng.sample(own, seeds_per_side):
            holes[hole] += 1 if game.hole_capacity == 1 else rng.randint(1, 3)
    return Position(tuple(holes), rng.choice(("S", "N")), banks, 30)


def test_kingulu_endgames_match_minimax():
    game = get_game("kingulu")
    results = {check_against_minimax(game, p).result for p in kingulu_endgames(8)}
    assert results == {"win", "loss"} or len(results) >= 2


def test_mackay_endgames_match_minimax():
    game = get_game("kimasai-mackay")
    positions = small_positions(game, lambda rng: scattered(game, rng, 1), 6)
    assert len({check_against_minimax(game, p).result for p in positions}) >= 2


def test_klamroth_endgames_match_minimax():
    game = get_game("kimasai-klamroth")
    positions = (small_positions(game, lambda rng: scattered(game, rng, 1), 4)
                 + small_positions(game, lambda rng: scattered(game, rng, 2), 2))
    assert len({check_against_minimax(game, p).result for p in positions}) >= 2


def test_klamroth_repetition_draws_depend_on_the_line():
    # One stone each: South's only move leads to a position that North wins.
    game = get_game("kimasai-klamroth")
    lone = [0] * 48
    lone[game.board.index_of("a1")] = 1
    lone[game.board.index_of("l4")] = 1
    position = Position(tuple(lone), "S", (22, 22), 30)
    (move, after), = game.successors(position)
    plain = check_against_minimax(game, position)
    assert plain.result == ("win" if minimax(game, position) == 1 else "loss")
    # With that position earlier in the game, the move repeats it: a draw.
    again = check_against_minimax(game, position, frozenset({after.key()}))
    assert (again.result, [r for _, r in again.moves]) == ("draw", ["draw"])
    # And solving the same position again without that history forgets it.
    solver = Solver(game)
    assert solver.solve(position, history={after.key()}).result == "draw"
    assert solver.solve(position).result == plain.result
    # A table that reused values across lines would be fooled here: the same
    # positions are solved with and without an earlier line, in both orders.
    rng = random.Random(5)
    for candidate in small_positions(game, lambda rng: scattered(game, rng, 2), 2):
        children = [after for _, after in game.successors(candidate)]
        earlier = frozenset({children[0].key()} if children else ())
        check_against_minimax(game, candidate, earlier)
        check_against_minimax(game, candidate)
    del rng


def test_transpositions_are_found_once():
    game = get_game("kingulu")
    position = kingulu_endgames(1)[0]
    solver = Solver(game)
    solution = solver.solve(position)
    tree = [10**9]
    minimax(game, position, budget=tree)
    assert solution.nodes < 10**9 - tree[0]
    assert len(solver.table) <= solution.nodes


def test_a_full_table_costs_searches_never_results_or_memory():
    """With room for a handful of positions, the results are those of an
    unbounded table (and of the plain minimax), the table never holds more,
    and the search only grows."""
    for game_id, positions in (("kingulu", kingulu_endgames(3)),
                               ("kimasai-klamroth", small_positions(get_game("kimasai-klamroth"),
                                                                    lambda rng: scattered(get_game("kimasai-klamroth"),
                                                                                          rng, 2), 2))):
        game = get_game(game_id)
        for position in positions:
            free = Solver(game).solve(position)
            small = Solver(game, max_entries=8)
            bounded = small.solve(position)
            assert [(m.origin, r) for m, r in bounded.moves] == [(m.origin, r) for m, r in free.moves]
            assert (bounded.result, bounded.best) == (free.result, free.best)
            assert len(small.table) <= 8 and bounded.nodes >= free.nodes
            check_against_minimax(game, position)


def test_results_do_not_depend_on_the_order_asked():
    game = get_game("kingulu")
    first, second = kingulu_endgames(2)

    def answers(solver, position):
        solution = solver.solve(position)
        return solution.result, [(m.origin, r) for m, r in solution.moves], solution.nodes

    solver = Solver(game)
    a_then_b = [answers(solver, first), answers(solver, second)]
    solver = Solver(game)
    b_then_a = [answers(solver, second), answers(solver, first)]
    assert a_then_b == b_then_a[::-1]
    limited = Solver(game)
    one = limited.solve(game.start(), depth=3)
    limited.solve(first)
    assert [r for _, r in limited.solve(game.start(), depth=3).moves] == [r for _, r in one.moves]


def test_limits_leave_unknown():
    game = get_game("kingulu")
    start = game.start()
    for limits in ({"depth": 2}, {"nodes": 50}, {"seconds": 0.0}):
        solution = Solver(game).solve(start, **limits)
        assert solution.result == "unknown"
        assert solution.best == []
        assert [r for _, r in solution.moves] == ["unknown"] * 4
    assert Solver(game).solve(start, nodes=50).nodes <= 50


def test_a_limited_search_still_proves_what_it_can():
    game = get_game("kingulu")
    position = kingulu_endgames(1)[0]
    exact = Solver(game).solve(position)
    deep = Solver(game).solve(position, depth=40)
    assert (deep.result, [r for _, r in deep.moves]) == (exact.result, [r for _, r in exact.moves])
    shallow = Solver(game).solve(position, depth=1)
    for (_, full), (_, partial) in zip(exact.moves, shallow.moves):
        assert partial in (full, "unknown")


def test_a_finished_game_has_no_moves():
    game = get_game("kingulu")
    over = Position((0,) * 6 + (0, 0, 0, 0, 0, 2), "S", (20, 26), 20)
    solution = Solver(game).solve(over)
    assert (solution.result, solution.moves, solution.best) == ("loss", [], [])


ENDGAME = "0,0,0,0,3,2/1,0,0,0,0,2 S 20-20 12"


def test_solve_text_output():
    result = run("solve", "--game", "kingulu", "--position", ENDGAME)
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[:2] == ["a1: loss", "f1^: win"]
    assert lines[2].startswith("win (best: f1^; 10 nodes, ")


def test_solve_json_output():
    result = run("solve", "--game", "kingulu", "--position", ENDGAME, "--format", "json")
    assert result.exit_code == 0
    answer = json.loads(result.output)
    seconds = answer.pop("seconds")
    assert isinstance(seconds, float) and seconds >= 0
    assert answer == {"game": "kingulu", "position": ENDGAME, "result": "win", "best": ["f1^"],
                      "moves": [{"move": "a1", "result": "loss"}, {"move": "f1^", "result": "win"}],
                      "nodes": 10}


def test_solve_with_limits_says_unknown():
    result = run("solve", "--game", "kingulu", "--depth", "3", "--format", "json")
    assert result.exit_code == 0
    answer = json.loads(result.output)
    assert (answer["result"], answer["best"]) == ("unknown", [])
    assert answer["moves"] == [{"move": m, "result": "unknown"} for m in ("c1x6", "d1x6", "e1", "f1")]
    assert json.loads(run("solve", "--game", "kingulu", "--nodes", "20", "-f", "json").output)["nodes"] <= 20


def test_solve_finished_game():
    result = run("solve", "--game", "kingulu", "--position", "0,0,0,0,0,2/0,0,0,0,0,0 S 20-26 20")
    assert (result.exit_code, result.output) == (0, "loss (best: -; 1 nodes, 0.00 s)\n")


@pytest.mark.parametrize("args, message", [
    (["--depth", "0"], "--depth must be ≥ 1 (got 0)"),
    (["--nodes", "x"], "--nodes must be a whole number (got 'x')"),
    (["--time", "0"], "--time must be a number of seconds > 0 (got '0')"),
    (["--time", "soon"], "--time must be a number of seconds > 0 (got 'soon')"),
    (["--format", "xml"], None),
])
def test_solve_bad_options(args, message):
    result = run("solve", "--game", "kingulu", *args)
    assert result.exit_code == 2
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("mancala: error: ")
    if message is not None:
        assert lines[0] == f"mancala: error: {message}"


def test_solve_bad_game_and_position():
    result = run("solve", "--game", "chess")
    assert result.exit_code == 2 and len(result.output.splitlines()) == 1
    result = run("solve", "--game", "kingulu", "--position", "4,4 S 0-0 1")
    assert result.exit_code == 2 and result.output.startswith("mancala: error: bad position for kingulu: ")


def test_progress_is_told_every_complete_iteration_and_changes_nothing():
    game = get_game("kingulu")
    heard = []
    solution = Solver(game).solve(game.start(), depth=9, progress=lambda *told: heard.append(told))
    plain = Solver(game).solve(game.start(), depth=9)
    assert (solution.nodes, solution.moves) == (plain.nodes, plain.moves)
    # 35,689 positions: one call during the search, at 32,768, in iteration 9.
    assert [(depth, nodes) for depth, nodes, _ in heard] == [
        (1, 5), (2, 24), (3, 93), (4, 292), (5, 827), (6, 2195), (7, 5663), (8, 14354), (8, 32768), (9, 35689)]
    assert all(seconds >= 0 for _, _, seconds in heard)


def test_solve_shows_progress_only_on_a_terminal():
    import subprocess
    import sys

    command = [sys.executable, "-m", "mancala_cli", "solve", "--game", "kingulu", "--depth", "3"]
    piped = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert (piped.returncode, piped.stderr) == (0, "")
    out, seen = on_terminal(command)
    assert out.split(b" nodes, ")[0] == piped.stdout.encode().split(b" nodes, ")[0]  # (the times differ)
    import re

    assert re.fullmatch(rb"\r\x1b\[Ksolving: depth 1 done, 5 nodes, [0-9]+\.[0-9] s"
                        rb"\r\x1b\[Ksolving: depth 2 done, 24 nodes, [0-9]+\.[0-9] s"
                        rb"\r\x1b\[Ksolving: depth 3 done, 93 nodes, [0-9]+\.[0-9] s\r\x1b\[K", seen), seen


def test_the_published_deepening_from_the_kingulu_start():
    """docs/rules.md, "Solving kingulu from its start": the nodes of the
    shallower rows (the deeper ones take minutes), none of them proving a
    first move."""
    import pathlib
    import re

    text = (pathlib.Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")
    section = text.split("## Solving `kingulu` from its start")[1]
    rows = {int(d): int(n.replace(",", "")) for d, n in re.findall(r"^\| (\d+) \| ([\d,]+) \|", section, re.M)}
    small = re.search(r"Depths 1 to 5: ([\d, and]+) nodes", section)[1]
    rows.update(enumerate(map(int, re.findall(r"\d+", small)), 1))
    assert sorted(rows) == [1, 2, 3, 4, 5, 6, 8, *range(10, 19)]
    game = get_game("kingulu")
    for depth in [d for d in sorted(rows) if d <= 10]:
        solution = Solver(game).solve(game.start(), depth=depth)
        assert (depth, solution.nodes, solution.result) == (depth, rows[depth], "unknown")
        assert {result for _, result in solution.moves} == {"unknown"}
