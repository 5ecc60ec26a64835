"""The proof-number search (``solver.PN``): what it proves holds, and it
proves more than alpha-beta alone on the same node budget.

Positions are taken 1 to 8 plies before the end of random games (with their
game's history), as in the native search's differential test; each is
solved on the same node budget with and without the proof-number phase,
and every result proven either way is checked against a search of the same
position with a hundred times the budget."""
import pytest

from mancala_cli.rules import kimasai_klamroth, kimasai_mackay, kingulu
from mancala_cli.solving.alpha_beta import ETC, HISTORY
from mancala_cli.solving.search import Solver

from .test_native_search import endgame_positions

try:
    from mancala_cli.rules import native
except ImportError:  # no compiler at install: the pure core alone
    native = None

GAMES = {
    "kimasai-mackay": kimasai_mackay.KimasaiMackay,
    "kimasai-klamroth": kimasai_klamroth.KimasaiKlamroth,
    "kingulu": kingulu.Kingulu,
}
ALPHA_BETA = ETC | HISTORY


def fastest(game_id):
    """The game on the native core where there is one (the searches are the
    same step for step: tests/test_native_search.py), else the pure one."""
    if native is not None:
        return native.game_class(GAMES[game_id].__name__)()
    return GAMES[game_id]()


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_proof_numbers_prove_more_and_only_what_holds(game_id):
    game = fastest(game_id)
    count = 150 if native is not None else 25
    budget = 3000
    proven = {"with": 0, "without": 0}
    for position, history in endgame_positions(game, count, f"{game_id} proof numbers"):
        with_pn = Solver(game).solve(position, history=history, nodes=budget)
        without = Solver(game, features=ALPHA_BETA).solve(position, history=history, nodes=budget)
        proven["with"] += with_pn.result != "unknown"
        proven["without"] += without.result != "unknown"
        if with_pn.result == without.result == "unknown":
            continue
        deeper = Solver(game, features=ALPHA_BETA).solve(position, history=history, nodes=100 * budget)
        for solution in (with_pn, without):
            if solution.result != "unknown" and deeper.result != "unknown":
                assert solution.result == deeper.result, (position, history)
            for (move, result), (move2, result2) in zip(solution.moves, deeper.moves):
                assert move == move2
                assert "unknown" in (result, result2) or result == result2, (position, move)
    # never fewer; in kimasai-mackay, whose games run long, more
    assert proven["with"] >= proven["without"], proven
    if game_id == "kimasai-mackay":
        assert proven["with"] > proven["without"], proven
    print(game_id, proven)



def test_a_first_move_the_phase_proves_is_the_answer_when_the_rest_runs_out():
    """After the proof-number phase, what it proved of each first move is read
    from the table before any is searched to its end: a win it proves is the
    answer even where that search runs out of nodes before reaching the
    winning move (these two positions stayed unknown before). The full
    search agrees."""
    game = fastest("kingulu")
    positions = endgame_positions(kingulu.Kingulu(), 60, "kingulu read back", backs=range(20, 61))
    for index in (13, 53):
        position, history = positions[index]
        limited = Solver(game).solve(position, history=history, nodes=20_000)
        assert limited.nodes == 20_000  # (the search ran out: every move is not proven)
        assert limited.result == "win", index
        assert "unknown" in [result for _, result in limited.moves]
        full = Solver(game).solve(position, history=history)
        assert full.result == "win"
        for (move, result), (move2, result2) in zip(limited.moves, full.moves):
            assert move == move2
            assert result in ("unknown", result2), (index, move)
