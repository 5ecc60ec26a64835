"""kimasai-mackay: every KM rule and illegal-move id, with exact positions."""
import pytest

import mancala_cli.rules.kimasai_mackay as mackay_module
from mancala_cli import IllegalMove, Line, format_position, get_game, parse_position

from .conftest import illegal, marks, play

G = "kimasai-mackay"
START = "0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1/0,0,0,0,0,0,0,0 S 24-24 1"
game = get_game(G)


def error(position: str, hole: str) -> IllegalMove:
    return illegal(G, position, hole)


def test_km1_start():
    assert format_position(game, game.start()) == START


def test_km2_circuits_are_clockwise():
    order = list(game.circuits["S"])
    h1 = order.index(game.board.index_of("h1"))
    names = [game.board.name(order[(h1 + k) % 16]) for k in range(16)]
    assert names == ["h1", "g1", "f1", "e1", "d1", "c1", "b1", "a1",
                     "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2"]
    # North sows a4 b4 … h4 h3 g3 … a3, then a4 again.
    order = list(game.circuits["N"])
    a4 = order.index(game.board.index_of("a4"))
    cycle = [game.board.name(order[(a4 + k) % 16]) for k in range(16)]
    assert cycle == ["a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4",
                     "h3", "g3", "f3", "e3", "d3", "c3", "b3", "a3"]


def test_worked_example_first_move_c2():
    move, after = play(G, START, "c2")
    assert after == "0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1/1,1,0,0,2,0,2,0/0,0,0,0,0,0,1,1 N 24-24 1"
    assert (game.board.name(move.end), move.laps, move.captured) == ("g1", 4, 0)


def test_km4a_first_turn_lifts_without_reserve_seed_and_all_eight_holes_are_legal():
    assert marks(G, START) == ["a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2"]


def test_km4_phase1_move_introduces_a_reserve_seed():
    # North's reply to c2: a reserve seed into a3 (1 → 2), lift 2: a4, b4 both empty → ends in b4.
    _, after = play(G, START, "c2", "a3")
    assert after == "1,1,0,0,0,0,0,0/0,1,1,1,1,1,1,1/1,1,0,0,2,0,2,0/0,0,0,0,0,0,1,1 S 24-23 2"


def test_km4b_and_km6_phase1_without_own_reserve_relays_instead_of_raiding():
    # S has no reserve, N has one: phase 1, no seed introduced (KM-4b); the lap
    # ends in b2 (occupied, inner, facing 3 in b3) and relays (KM-6), no raid.
    before = "10,10,10,10,10,5,0,0/0,3,0,0,0,0,0,1/1,1,0,0,0,0,0,0/0,0,0,0,0,0,0,2 S 0-1 30"
    move, after = play(G, before, "a2")
    assert after == "10,10,10,10,10,5,0,0/0,3,0,0,0,0,0,1/0,0,1,1,0,0,0,0/0,0,0,0,0,0,0,2 N 0-1 30"
    assert (move.captured, move.laps) == (0, 2)


def test_km3_the_turn_that_introduces_the_last_reserve_seed_is_phase1():
    before = "10,10,10,10,10,4,0,0/0,3,2,0,0,0,0,1/1,1,1,0,0,0,0,0/0,0,0,0,0,0,0,0 S 1-0 25"
    assert mackay_module.KimasaiMackay.phase(parse_position(game, before)) == 1
    move, after = play(G, before, "a2")
    # a2 gets the last reserve seed (2), lift: b2, c2; c2 was occupied: relay (no raid of c3).
    assert after == "10,10,10,10,10,4,0,0/0,3,2,0,0,0,0,1/0,2,0,1,1,0,0,0/0,0,0,0,0,0,0,0 N 0-0 25"
    assert move.captured == 0
    assert mackay_module.KimasaiMackay.phase(parse_position(game, after)) == 2


def test_km7_km8_phase2_single_seed_and_cattle_raid():
    before = "10,10,10,10,10,6,0,0/0,3,0,0,0,0,0,1/1,1,0,0,0,0,0,0/0,0,0,0,0,0,0,2 S 0-0 30"
    move, after = play(G, before, "a2")
    # a2's seed ends in b2 (occupied, facing 3): raid b3, first raided seed into b2 itself.
    assert after == "10,10,10,10,10,6,0,0/0,0,0,0,0,0,0,1/0,3,1,1,0,0,0,0/0,0,0,0,0,0,0,2 N 0-0 30"
    assert (move.captured, game.board.name(move.end), move.laps) == (3, "d2", 2)
    assert marks(G, before) == ["h1", "a2x3", "b2"]


def test_km8_back_row_and_inner_row_facing_empty_hole_relay():
    # h1 (back row, occupied) relays; the relay ends in b... keep phase 2.
    before = "10,10,10,10,10,6,0,0/0,3,0,0,0,0,0,1/1,0,0,0,0,0,0,1/0,0,0,0,0,0,1,1 S 0-0 30"
    # h2 (1 seed) → h1, which held 1: relay (back row), lift 2 → g1 (1, occupied), f1... no:
    # g1 gets 1 (held 1 → 2), f1 gets 1 (empty) → ends.
    move, after = play(G, before, "h2")
    assert after == "10,10,10,10,10,6,0,0/0,3,0,0,0,0,0,1/1,0,0,0,0,0,0,0/0,0,0,0,0,1,2,0 N 0-0 30"
    assert move.captured == 0
    # a2 → b2 (empty before: the move ends, never a raid).
    move, after = play(G, before, "a2")
    assert move.captured == 0 and after.split("/")[2] == "0,1,0,0,0,0,0,1"


def test_km9_opponent_inner_row_emptied_wins():
    before = "10,10,10,10,10,6,1,0/0,3,0,0,0,0,0,0/1,1,0,0,0,0,0,0/0,0,0,0,0,0,0,2 S 0-0 30"
    line = Line(game, parse_position(game, before))
    line.play(game.board.index_of("a2"))
    outcome = line.outcome()
    assert (outcome.result, outcome.reason) == ("1-0", "KM-9")
    assert line.legal_moves() == []
    with pytest.raises(IllegalMove) as caught:
        line.play(game.board.index_of("h3"))
    assert caught.value.rule == "GAME-OVER"


def test_km9_mover_who_empties_his_own_inner_row_loses():
    before = "10,10,10,10,10,10,1,0/1,1,0,0,0,0,0,0/0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0 S 0-0 30"
    line = Line(game, parse_position(game, before))
    line.play(game.board.index_of("h2"))
    assert format_position(game, line.position) == \
        "10,10,10,10,10,10,1,0/1,1,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1 N 0-0 30"
    outcome = line.outcome()
    assert (outcome.result, outcome.reason) == ("0-1", "KM-9")


def test_km9_checked_on_set_up_positions():
    over = "10,10,10,10,10,10,2,0/0,0,0,0,0,0,0,0/1,1,0,0,0,0,0,0/0,0,0,0,0,0,0,0 N 0-0 30"
    outcome = game.outcome(parse_position(game, over))
    assert (outcome.result, outcome.reason) == ("1-0", "KM-9")


def test_illegal_origin_and_empty_in_precedence_order():
    assert error(START, "a3").rule == "KM-ORIGIN"
    assert error(START, "a1").rule == "KM-EMPTY"
    over = "10,10,10,10,10,10,2,0/0,0,0,0,0,0,0,0/1,1,0,0,0,0,0,0/0,0,0,0,0,0,0,0 N 0-0 30"
    assert error(over, "a1").rule == "GAME-OVER"   # GAME-OVER before KM-ORIGIN


def test_endless_by_lap_limit_rules_example():
    # RULES.md §1: North d4 neither ends nor repeats within the limit.
    position = "0,2,3,2,0,1,0,7/17,0,0,1,13,1,7,0/1,0,2,1,0,1,0,0/0,0,3,0,2,0,0,0 N 0-0 37"
    caught = error(position, "d4")
    assert caught.rule == "ENDLESS"
    assert "lap 1000 " in caught.message
    assert "d4" not in marks(G, position)


def test_lap_limit_is_exact(monkeypatch):
    # The c2 opening takes exactly 4 laps: legal with a limit of 4, endless with 3.
    monkeypatch.setattr(mackay_module, "LAP_LIMIT", 4)
    assert play(G, START, "c2")[0].laps == 4
    monkeypatch.setattr(mackay_module, "LAP_LIMIT", 3)
    assert error(START, "c2").rule == "ENDLESS"


def test_endless_by_repeated_lap_state():
    # South b1: every lap of this phase-1 move comes back to a state it had
    # at the end of an earlier lap, so the move can never end.
    position = "1,3,0,2,5,1,2,1/1,1,3,1,1,4,2,0/0,2,1,0,1,0,3,2/1,5,1,2,1,2,5,1 S 5-4 21"
    caught = error(position, "b1")
    assert caught.rule == "ENDLESS"
    assert "repeats the end of lap" in caught.message
    assert marks(G, position) == ["a1", "c1", "d1", "e1", "f1", "h1", "b2", "c2", "e2", "g2", "h2"]


def test_km10_no_repetition_rule():
    position = parse_position(game, START)
    assert game.outcome(position, history={position.key()}) is None
    assert len(game.legal_moves(position, history={position.key()})) == 8
