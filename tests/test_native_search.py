"""The native search against the Python solver on the pure rules (the
reference): on at least 1,000 positions per game, taken near the end of
random games, both give the same result, the same result for every move,
the same best moves, and — since the native search is the Python one step
for step — the same node count and depth, with and without a node limit.
The run with ``MANCALA_PURE=1`` skips the file (it would compare the same
two)."""
import os
import random

import pytest

from mancala_cli.rules import kimasai_klamroth, kimasai_mackay, kingulu
from mancala_cli.rules.randomgames import random_line
from mancala_cli.solving.alpha_beta import ETC, HISTORY
from mancala_cli.solving.proof_numbers import PN
from mancala_cli.solving.search import Solver

native = pytest.importorskip("mancala_cli.rules.native", reason="the native kernel is not built here")
from mancala_cli.rules import _native  # noqa: E402

pytestmark = pytest.mark.skipif(os.environ.get("MANCALA_PURE", "") not in ("", "0"),
                                reason="the run on the default core compares both")

PAIRS = {
    "kimasai-mackay": (kimasai_mackay.KimasaiMackay(), native.game_class("KimasaiMackay")()),
    "kimasai-klamroth": (kimasai_klamroth.KimasaiKlamroth(), native.game_class("KimasaiKlamroth")()),
    "kingulu": (kingulu.Kingulu(), native.game_class("Kingulu")()),
}
#: Positions per game (the issue asks for at least 1,000).
POSITIONS = 1000
#: The node limits per game, low and high (the Python solver on the pure
#: MacKay rules searches about 15,000 positions a second).
LIMITS = {"kimasai-mackay": (100, 400), "kimasai-klamroth": (300, 3000), "kingulu": (300, 3000)}


def endgame_positions(game, count, seed, backs=range(1, 9)):
    """``count`` positions 1 to 8 plies (``backs``) before the end of random
    games, each with the history of its game (the keys of the positions
    before it)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        line = random_line(game, rng)
        position, history, line_positions = game.start(), set(), []
        for move in line.moves:
            line_positions.append((position, frozenset(history)))
            after = game.play(position, move.origin, history=history)[1]
            if game.uses_history:
                history.add(position.key())
            position = after
        for back in sorted(rng.sample(backs, 3)):
            if back <= len(line_positions):
                found.append(line_positions[-back])
    return found[:count]


def summary(solution):
    return (solution.result, solution.moves, solution.best, solution.nodes, solution.depth)


@pytest.mark.parametrize("game_id", list(PAIRS))
def test_the_native_search_solves_as_the_python_solver(game_id):
    pure, fast = PAIRS[game_id]
    results = set()
    for i, (position, history) in enumerate(endgame_positions(pure, POSITIONS, game_id)):
        # Every third search stops at a node limit, so unknown bounds and the limit are compared too.
        limit = LIMITS[game_id][0] if i % 3 == 0 else LIMITS[game_id][1]
        expected = Solver(pure).solve(position, history=history, nodes=limit)
        got = Solver(fast).solve(position, history=history, nodes=limit)
        assert summary(got) == summary(expected), (position, history)
        results.add(expected.result)
    assert {"win", "loss", "unknown"} <= results, results


@pytest.mark.parametrize("game_id", list(PAIRS))
def test_the_native_search_by_depth_and_with_more_nodes(game_id):
    pure, fast = PAIRS[game_id]
    nodes = 3000 if game_id == "kimasai-mackay" else 20_000
    for position, history in endgame_positions(pure, 40, f"{game_id} unlimited"):
        for limits in ({"depth": 2}, {"nodes": nodes}):
            assert summary(Solver(fast).solve(position, history=history, **limits)) == \
                summary(Solver(pure).solve(position, history=history, **limits)), (position, limits)


@pytest.mark.parametrize("game_id", list(PAIRS))
def test_a_small_table_gives_the_same_results_and_stays_within_its_bound(game_id):
    """A table of a few kilobytes (room for 8 entries of the Python table,
    none of the native one, whose smallest table is larger): the searches
    take other paths, so their node counts differ, but every interval found
    holds the true result: each move's intervals overlap, and where both
    prove a move they agree."""
    pure, fast = PAIRS[game_id]
    memory = 8 * Solver(pure).entry_bytes
    order = {"loss": -1, "draw": 0, "win": 1}
    proven = 0
    for position, history in endgame_positions(pure, 30, f"{game_id} small table"):
        solver = Solver(fast, memory=memory)
        got = solver.solve(position, history=history, nodes=1000)
        expected = Solver(pure, memory=memory).solve(position, history=history, nodes=1000)
        assert [move for move, _ in got.moves] == [move for move, _ in expected.moves]
        for (low, high), (low2, high2) in zip(got.move_bounds, expected.move_bounds):
            assert order[low] <= order[high2] and order[low2] <= order[high], (position, got, expected)
            proven += low == high and low2 == high2
        if solver.kernel is not None:
            assert solver.kernel.table_bytes <= memory
    assert proven > 0


def test_the_table_is_bounded_by_bytes():
    """``max_bytes`` bounds the table's memory however many positions the search meets."""
    pure, fast = PAIRS["kingulu"]
    position = pure.start()
    bound = 200_000
    kernel = _native.Search(2, 10**9, 400, 300_000, -1.0, None, bound)
    kernel.root(position)
    for depth in range(1, 12):
        for _, after in fast.successors(position):
            kernel.search(after, depth, -1, 1, frozenset(), 1, kernel.nodes)
    assert kernel.nodes >= 100_000
    assert 0 < kernel.table_bytes <= bound
    assert kernel.entries * _native.entry_bytes() // 2 <= bound


def test_progress_is_reported_as_the_python_solver_reports_it():
    pure, fast = PAIRS["kingulu"]
    position = pure.start()
    calls = {}
    for name, game in (("pure", pure), ("native", fast)):
        seen = []
        Solver(game).solve(position, nodes=70_000, progress=lambda depth, nodes, seconds: seen.append((depth, nodes)))
        calls[name] = seen
    assert calls["native"] == calls["pure"]
    assert any(nodes % (1 << 15) == 0 and nodes for _, nodes in calls["pure"])


def test_an_error_in_the_progress_callback_stops_the_search():
    _, fast = PAIRS["kingulu"]

    def fail(depth, nodes, seconds):
        if nodes:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        Solver(fast).solve(fast.start(), nodes=200_000, progress=fail)


@pytest.mark.parametrize("game_id", list(PAIRS))
def test_each_search_feature_alone_gives_the_python_solvers_results(game_id):
    """Plain alpha-beta (no feature), enhanced transposition cutoffs alone, the
    history heuristic alone and the proof-number search alone: step for step
    as the Python solver too."""
    pure, fast = PAIRS[game_id]
    for features in (0, ETC, HISTORY, PN):
        for position, history in endgame_positions(pure, 60, f"{game_id} features"):
            limit = LIMITS[game_id][1]
            expected = Solver(pure, features=features).solve(position, history=history, nodes=limit)
            got = Solver(fast, features=features).solve(position, history=history, nodes=limit)
            assert summary(got) == summary(expected), (features, position, history)


#: Node limits that give the proof-number phase several rounds of each goal
#: (its dual's numbers, the two slots, the choice of the cheapest goal).
PHASE_LIMITS = {"kimasai-mackay": 6000, "kimasai-klamroth": 12000, "kingulu": 20000}
#: How far from the end (plies) those positions are taken, by game.
PHASE_BACKS = {"kimasai-mackay": range(10, 31), "kimasai-klamroth": range(30, 81), "kingulu": range(20, 61)}


@pytest.mark.parametrize("game_id", list(PAIRS))
def test_the_proof_number_phase_over_many_rounds_as_the_python_solver(game_id):
    """Positions 10 to 80 plies from the end, where the phase runs each goal
    many times: the same results, moves and node counts on both cores."""
    pure, fast = PAIRS[game_id]
    rounds = 0
    for position, history in endgame_positions(pure, 12, f"{game_id} rounds", backs=PHASE_BACKS[game_id]):
        expected = Solver(pure).solve(position, history=history, nodes=PHASE_LIMITS[game_id])
        got = Solver(fast).solve(position, history=history, nodes=PHASE_LIMITS[game_id])
        assert summary(got) == summary(expected), (position, history)
        rounds += expected.nodes > PHASE_LIMITS[game_id] // 4
    assert rounds >= 3, rounds  # (the phase ran long on several of them)
