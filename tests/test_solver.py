"""The solver (mancala_cli.solving.search) against a plain minimax over the
full game tree, its table's traps (transpositions, KK-4b repetitions), its
limits and the ``mancala solve`` command."""
from __future__ import annotations

import json
import random
import re

import pytest

from mancala_cli.positions import parse_position
from mancala_cli.rules.position import Position
from mancala_cli.rules.randomgames import random_line
from mancala_cli.rules.registry import get_game
from mancala_cli.solving.search import ENTRY_BYTES, Solver

from .conftest import on_terminal
from .test_cli import run


def pure_game(game_id):
    """The game on the pure rules: the tests that look into the Python
    solver's table use it (the native search keeps its table in C; see
    tests/test_native_search.py)."""
    from mancala_cli.rules import kimasai_klamroth, kimasai_mackay, kingulu

    return {"kingulu": kingulu.Kingulu, "kimasai-mackay": kimasai_mackay.KimasaiMackay,
            "kimasai-klamroth": kimasai_klamroth.KimasaiKlamroth}[game_id]()


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
    game = pure_game("kingulu")
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
                               ("kimasai-klamroth", small_positions(pure_game("kimasai-klamroth"),
                                                                    lambda rng: scattered(pure_game("kimasai-klamroth"),
                                                                                          rng, 2), 2))):
        game = pure_game(game_id)
        for position in positions:
            free = Solver(game).solve(position)
            small = Solver(game, memory=8 * ENTRY_BYTES[game_id])
            bounded = small.solve(position)
            assert [(m.origin, r) for m, r in bounded.moves] == [(m.origin, r) for m, r in free.moves]
            assert (bounded.result, bounded.best) == (free.result, free.best)
            assert len(small.table) <= 8 and small.used <= small.memory and bounded.nodes >= free.nodes
            check_against_minimax(game, position)


def table_bytes(game, position, memory, **limits):
    """The solver and the bytes its table holds after a search (tracemalloc:
    everything the search left allocated, which is the table's)."""
    import gc
    import tracemalloc

    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        solver = Solver(game, memory=memory)
        solution = solver.solve(position, **limits)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    return solver, solution, held


@pytest.mark.parametrize("game_id, plies", [("kingulu", 0), ("kingulu", 4), ("kimasai-mackay", 0),
                                            ("kimasai-mackay", 30), ("kimasai-klamroth", 0),
                                            ("kimasai-klamroth", 60)])
def test_an_entry_costs_no_more_than_it_is_charged(game_id, plies):
    """What the table really holds (tracemalloc) is within what its entries
    are charged, from the start and from deep into a random game (where
    kimasai-klamroth's keys hold many earlier positions)."""
    from mancala_cli import Line

    game = pure_game(game_id)
    line = Line(game)
    for move in random_line(game, random.Random(5), max_plies=plies).moves if plies else ():
        line.play(move.origin)
    assert len(line.moves) == plies and line.legal_moves()
    solver, _, held = table_bytes(game, line.position, 1 << 30, nodes=6000, history=line.history)
    assert len(solver.table) > 300
    assert held <= solver.used
    assert solver.used <= 1.6 * held  # (charged for what it costs, not wildly more)


def test_a_small_budget_bounds_the_table_and_keeps_the_results():
    """With a budget of 256 KB, a search that would hold several times that
    (1.5 MB) keeps its table within the budget, and gives the unbounded
    table's results."""
    game = pure_game("kingulu")
    budget = 1 << 18
    free, free_solution, free_held = table_bytes(game, game.start(), 1 << 30, depth=8)
    bounded, solution, held = table_bytes(game, game.start(), budget, depth=8)
    assert free_held > 4 * budget
    assert held <= bounded.used <= budget
    assert (solution.result, solution.moves, solution.depth) == (free_solution.result, free_solution.moves,
                                                                 free_solution.depth)
    for position in kingulu_endgames(2):
        exact = Solver(game).solve(position)
        tight = Solver(game, memory=1 << 12).solve(position)
        assert (tight.result, tight.moves, tight.best) == (exact.result, exact.moves, exact.best)


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


@pytest.mark.parametrize("table", [False, True])
def test_a_solves_state_is_one_object_its_parts_are_given(tmp_path, table):
    """The solver's parts are composed, not inherited: each solve makes one
    SearchState and gives it to the alpha-beta search, the proof-number
    search and the table file, which share it (nothing of it on the solver)."""
    from mancala_cli.solving.alpha_beta import AlphaBeta
    from mancala_cli.solving.proof_numbers import ProofNumbers
    from mancala_cli.solving.search_result import SearchState
    from mancala_cli.solving.table_file import TableFile

    assert Solver.__mro__ == (Solver, object)
    assert AlphaBeta.__mro__ == (AlphaBeta, object) and ProofNumbers.__mro__ == (ProofNumbers, object)
    assert TableFile.__mro__ == (TableFile, object)
    game = pure_game("kingulu")
    solver = Solver(game)
    before = solver.state
    solution = solver.solve(game.start(), nodes=5_000, table=tmp_path / "t.table" if table else None)
    state = solver.state
    assert type(state) is SearchState and state is not before
    assert solver.alpha_beta.state is state and solver.proof_numbers.state is state
    assert (solver.table_file is not None) == table
    if table:
        assert solver.table_file.state is state and solver.table_file.path == str(tmp_path / "t.table")
    assert (state.nodes, state.stop_reason, state.table is solver.table) == (solution.nodes, "nodes", True)
    assert solver.used == state.used > 0 and state.numbers  # (the proof-number phase ran, beside the table)
    assert not {"nodes", "stopped", "path", "cutoffs", "numbers", "used", "longest"} & set(vars(solver))


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
    solution = Solver(get_game("kingulu")).solve(parse_position(get_game("kingulu"), ENDGAME), seconds=300)
    assert lines[2].startswith(f"win (best: f1^; proven; depth {solution.depth}, {solution.nodes} nodes, ")
    assert len(lines) == 3


def test_solve_json_output():
    result = run("solve", "--game", "kingulu", "--position", ENDGAME, "--format", "json")
    assert result.exit_code == 0
    answer = json.loads(result.output)
    seconds = answer.pop("seconds")
    assert isinstance(seconds, float) and seconds >= 0
    solution = Solver(get_game("kingulu")).solve(parse_position(get_game("kingulu"), ENDGAME), seconds=300)
    assert answer == {"game": "kingulu", "position": ENDGAME, "result": "win", "best": ["f1^"],
                      "moves": [{"move": "a1", "result": "loss", "low": "loss", "high": "loss"},
                                {"move": "f1^", "result": "win", "low": "win", "high": "win"}],
                      "nodes": solution.nodes, "low": "win", "high": "win", "complete": True, "stopped": None,
                      "depth": solution.depth, "over": None}
    assert 0 < solution.depth < 400


def test_solve_with_limits_says_unknown_and_exits_3():
    result = run("solve", "--game", "kingulu", "--depth", "3", "--format", "json")
    assert result.exit_code == 3
    answer = json.loads(result.output)
    assert (answer["result"], answer["best"]) == ("unknown", [])
    assert answer["moves"] == [{"move": m, "result": "unknown", "low": "loss", "high": "win"}
                               for m in ("c1x6", "d1x6", "e1", "f1")]
    assert (answer["complete"], answer["stopped"], answer["depth"]) == (False, "depth", 3)
    assert (answer["low"], answer["high"]) == ("loss", "win")
    counted = run("solve", "--game", "kingulu", "--nodes", "20", "-f", "json")
    assert counted.exit_code == 3
    assert json.loads(counted.output)["nodes"] <= 20 and json.loads(counted.output)["stopped"] == "nodes"
    text = run("solve", "--game", "kingulu", "--depth", "3")
    assert (text.exit_code, text.output.splitlines()[4]) == (3, "unknown (stopped at the depth limit; depth 3, "
                                                                "93 nodes, " + text.output.split(", ")[-1].strip())


def test_a_time_limit_prints_what_is_known_so_far():
    """kimasai-klamroth's start is far from proven: a time limit stops the
    search, which prints each move, the depth reached and why it stopped."""
    result = run("solve", "--game", "kimasai-klamroth", "--time", "0.5", "--format", "json")
    assert result.exit_code == 3
    answer = json.loads(result.output)
    assert (answer["complete"], answer["stopped"], answer["result"]) == (False, "time", "unknown")
    assert [m["move"] for m in answer["moves"]] == ["b2x2"]
    assert answer["depth"] >= 1 and answer["nodes"] > 1
    text = run("solve", "--game", "kimasai-klamroth", "--time", "0.5")
    assert text.exit_code == 3
    assert text.output.splitlines()[0] == "b2x2: unknown"
    assert re.fullmatch(r"unknown \(stopped by the time limit; depth [0-9]+, [0-9,]+ nodes, [0-9.]+ s\)\n",
                        text.output.split("\n", 1)[1]), text.output


def test_the_default_limits_are_the_solvers_and_the_help_says_them():
    import typer.main

    from mancala_cli.cli.commands import whole
    app = whole()
    from mancala_cli.solving.search import DEFAULT_MEMORY, DEFAULT_SECONDS

    command = typer.main.get_command(app).commands["solve"]
    defaults = {param.name: param.default for param in command.params}
    assert (defaults["time"], defaults["memory"]) == (DEFAULT_SECONDS, DEFAULT_MEMORY)
    assert DEFAULT_SECONDS <= 300 and DEFAULT_MEMORY <= 2 << 30
    help_text = " ".join(run("solve", "--help").output.split())
    assert f"(default: {DEFAULT_SECONDS:g})" in help_text
    assert f"(default: {DEFAULT_MEMORY >> 30}G)" in help_text
    assert "Exit status 0 when the search ran to its end, 3 when a limit stopped it, 130 after Ctrl-C." in help_text


def test_solve_finished_game():
    result = run("solve", "--game", "kingulu", "--position", "0,0,0,0,0,2/0,0,0,0,0,0 S 20-26 20")
    assert (result.exit_code, result.output) == (
        0, "loss (the game is over: 0-1, KG-7: S to move has no legal move; score 20-28)\n")
    answer = json.loads(run("solve", "--game", "kingulu", "--position", "0,0,0,0,0,2/0,0,0,0,0,0 S 20-26 20",
                            "--format", "json").output)
    assert (answer["result"], answer["moves"], answer["complete"], answer["depth"]) == ("loss", [], True, 0)
    assert answer["over"] == {"result": "0-1", "reason": "KG-7",
                              "message": "S to move has no legal move; score 20-28"}


def _solving(*args):
    """``mancala solve ARGS`` in a session of its own, after 2 s of searching."""
    import os
    import subprocess
    import sys
    import time

    child = subprocess.Popen([sys.executable, "-m", "mancala_cli", "solve", *args], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, start_new_session=True)
    time.sleep(2)
    assert child.poll() is None
    return child, os.getpgid(child.pid)


@pytest.mark.parametrize("format", ["json", "text"])
def test_ctrl_c_prints_what_is_known_so_far_and_exits_130(format):
    import os
    import signal
    import subprocess

    child, group = _solving("--game", "kimasai-mackay", "--format", format)
    try:
        os.killpg(group, signal.SIGINT)
        out, err = child.communicate(timeout=1)
    except subprocess.TimeoutExpired:
        os.killpg(group, signal.SIGKILL)
        child.communicate()
        raise
    assert (child.returncode, err) == (130, b"")
    game = get_game("kimasai-mackay")
    first = len(game.legal_moves(game.start()))
    if format == "json":
        answer = json.loads(out)
        assert (answer["complete"], answer["stopped"], answer["result"]) == (False, "interrupted", "unknown")
        assert len(answer["moves"]) == first and answer["nodes"] > 1000
    else:
        lines = out.decode().splitlines()
        assert len(lines) == first + 1 and all(line.endswith(": unknown") for line in lines[:first])
        assert re.fullmatch(r"unknown \(interrupted; depth [0-9]+, [0-9,]+ nodes, [0-9.]+ s\)", lines[first])


def test_memory_option_bounds_the_table_and_bad_sizes_are_usage_errors():
    result = run("solve", "--game", "kingulu", "--position", ENDGAME, "--memory", "1M", "-f", "json")
    assert (result.exit_code, json.loads(result.output)["result"]) == (0, "win")
    for value in ("1.5G", "512m", "2GiB", "1048576"):
        assert run("solve", "--game", "kingulu", "--position", ENDGAME, "--memory", value).exit_code == 0
    for value, message in (("lots", "--memory must be a size in bytes such as 512M or 2G (got 'lots')"),
                           ("-1G", "--memory must be a size in bytes such as 512M or 2G (got '-1G')"),
                           ("1000", "--memory must be at least 1M (got '1000')"),
                           ("9000000T", "--memory must be at most 8,388,607T, what this machine can address "
                                        "(got '9000000T')"),
                           ("8388608T", "--memory must be at most 8,388,607T, what this machine can address "
                                        "(got '8388608T')")):
        bad = run("solve", "--game", "kingulu", "--memory", value)
        assert (bad.exit_code, bad.output) == (2, f"mancala: error: {message}\n")


def test_a_memory_beyond_what_the_machine_addresses_is_all_it_can():
    """The kernel takes a signed 64-bit count: a bigger budget (the
    library's, which no option bounds) is the most it can be."""
    solution = Solver(get_game("kingulu"), memory=1 << 70).solve(
        get_game("kingulu").start(), nodes=1000)
    assert solution.nodes >= 1000
    result = run("solve", "--game", "kingulu", "--memory", "8388607T", "--nodes", "1000", "-f", "json")
    assert (result.exit_code, json.loads(result.output)["stopped"]) == (3, "nodes")


def _capped_solve(*args: str, pure: bool, cap_mb: int = 300):
    import os
    import resource
    import subprocess
    import sys

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap_mb << 20, cap_mb << 20))

    env = {**os.environ, "MANCALA_PURE": "1" if pure else "0"}
    return subprocess.run([sys.executable, "-m", "mancala_cli", "solve", "--game", "kimasai-klamroth",
                           "--memory", "100G", *args], capture_output=True, text=True, timeout=200,
                          preexec_fn=cap, env=env)


def test_running_out_of_memory_is_one_line():
    """Under an address-space cap smaller than the table's budget, the
    Python table's MemoryError is one line and exit 2, not a traceback nor an
    abort of the interpreter: the table raises it while 16 MB are still to be
    had (search.HEADROOM), where the interpreter can raise it cleanly,
    whatever the cap and however the search's functions are split (the cap,
    48 MB, a little over twice what the pure command holds when its search
    starts, so the table fills it within seconds)."""
    done = _capped_solve("--time", "120", pure=True, cap_mb=48)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("mancala: error: out of memory while solving (the table may use 107,374,182,400 bytes; "
                           "--memory gives it less)\n")


def test_the_native_table_stops_growing_where_memory_ends():
    """The native search's table grows by doubling: a doubling the system
    refuses leaves it at the size it has (full, so new positions are searched
    again), and the search goes on to its limit."""
    from mancala_cli.rules.selection import CORE

    if CORE != "native":
        pytest.skip("the native core is not in use")
    done = _capped_solve("--time", "3", pure=False)
    assert (done.returncode, done.stderr) == (3, "")
    assert "stopped by the time limit" in done.stdout


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
    # 35,719 positions: one call during the search, at 32,768, in iteration 9.
    assert [(depth, nodes) for depth, nodes, _ in heard] == [
        (1, 5), (2, 24), (3, 93), (4, 292), (5, 827), (6, 2195), (7, 5664), (8, 14361), (8, 32768), (9, 35719)]
    assert all(seconds >= 0 for _, _, seconds in heard)


def test_solve_shows_progress_only_on_a_terminal():
    import subprocess
    import sys

    command = [sys.executable, "-m", "mancala_cli", "solve", "--game", "kingulu", "--depth", "3"]
    piped = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert (piped.returncode, piped.stderr) == (3, "")
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
    section = text.split("## Solving `kingulu` from its start")[1].split("\n## ")[0]
    rows = {int(d): int(n.replace(",", "")) for d, n in re.findall(r"^\| (\d+) \| ([\d,]+) \|", section, re.M)}
    small = re.search(r"Depths 1 to 5: ([\d, and]+) nodes", section)[1]
    rows.update(enumerate(map(int, re.findall(r"\d+", small)), 1))
    assert sorted(rows) == [1, 2, 3, 4, 5, 6, 8, *range(10, 19)]
    game = get_game("kingulu")
    for depth in [d for d in sorted(rows) if d <= 10]:
        solution = Solver(game, features=0).solve(game.start(), depth=depth)  # (the plain search of the time)
        assert (depth, solution.nodes, solution.result) == (depth, rows[depth], "unknown")
        assert {result for _, result in solution.moves} == {"unknown"}


def test_with_a_node_limit_the_search_takes_the_same_path_whatever_the_time():
    """A search with a node limit stops deepening after a share of its nodes,
    not of its time: a slow machine (here, a slow progress callback) gives
    the same nodes and results, as annotate --nodes promises."""
    import time

    game = get_game("kingulu")
    plain = Solver(game).solve(game.start(), nodes=40_000, seconds=10)
    slow = Solver(game).solve(game.start(), nodes=40_000, seconds=10, progress=lambda *told: time.sleep(0.2))
    assert (slow.nodes, slow.depth, slow.moves, slow.stopped) == (plain.nodes, plain.depth, plain.moves, "nodes")
