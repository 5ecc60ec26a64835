"""kingulu: every KG rule and illegal-move id, with exact positions."""
import pytest

import mancala_cli.rules.kingulu as kingulu_module
from mancala_cli import IllegalMove, Line, format_position, get_game, parse_position

from .conftest import illegal, marks, play

G = "kingulu"
START = "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1"
game = get_game(G)


def error(position: str, hole: str) -> IllegalMove:
    return illegal(G, position, hole)


def test_kg1_start():
    assert format_position(game, game.start()) == START


def test_worked_example_a1_first_lap_and_c1_capture():
    caught = error(START, "a1")
    assert caught.rule == "KG-FIRSTLAP"
    move, after = play(G, START, "c1")
    assert after == "1,0,6,6,0,1/6,6,2,7,0,6 N 7-0 1"
    assert (move.captured, move.laps, game.board.name(move.end)) == (6, 5, "e1")
    assert marks(G, START) == ["c1x6", "d1x6", "e1", "f1"]


def test_notation_sample_game_position():
    # NOTATION.md §1: 1. d1x6 d2x10 2. f1^ a2 3. d1 a2
    _, after = play(G, START, "d1", "d2", "f1", "a2", "d1", "a2")
    assert after == "0,1,0,3,1,6*/0,11,1,1,3,3 S 7-11 4"


def test_kg6_kuweka_mtoto_takes_back_the_penultimate_seed():
    before = "4,4,4,4,4,3/4,4,4,4,2,0 S 7-0 5"
    move, after = play(G, before, "e1")
    assert after == "4,4,4,4,4,5*/4,4,4,4,0,0 N 7-0 5"
    assert move.reserved and move.captured == 0


def test_kg6_single_seed_lap_leaves_four():
    before = "4,4,4,4,4,3/4,4,4,4,4,1 S 4-0 5"
    move, after = play(G, before, "f1")
    assert after == "4,4,4,4,4,4*/4,4,4,4,4,0 N 4-0 5"
    assert marks(G, before)[-1] == "f1^"


def test_kg6_penultimate_seed_taken_from_a_reserved_hole():
    # North d2 with 2 seeds: c2 (reserved), b2 … no: sow c2 then b2 (held 3 → own row).
    # South e1 with 2 seeds: f1 is reserved (by North) and gets the penultimate seed,
    # f2 (held 3) is reserved: the seed is taken back out of f1 all the same.
    before = "4,4,4,4,4,3/4,4,4,4,2,5* S 2-0 5"
    _, after = play(G, before, "e1")
    assert after == "4,4,4,4,4,5*/4,4,4,4,0,5* N 2-0 5"


def test_kg2_kg4_seeds_fall_into_reserved_holes_and_end_the_move_there():
    before = "4,4,4,4,4,5*/4,4,4,4,2,0 S 5-0 5"
    move, after = play(G, before, "e1")
    assert after == "4,4,4,4,4,6*/4,4,4,4,0,1 N 5-0 5"
    assert not move.reserved and move.captured == 0


def test_kg5_capture_and_no_capture_facing_reserved_or_empty_hole():
    move, after = play(G, "4,4,4,4,4,4/1,0,4,4,4,4 S 7-0 3", "a1")
    assert (move.captured, after) == (4, "4,0,4,4,4,4/0,0,4,4,4,4 N 12-0 3")
    # b2 reserved (by South): no capture, the seed stays in b1.
    _, after = play(G, "4,5*,4,4,4,4/1,0,4,4,4,4 S 6-0 3", "a1")
    assert after == "4,5*,4,4,4,4/0,1,4,4,4,4 N 6-0 3"
    # b2 empty: nothing captured.
    _, after = play(G, "4,0,4,4,4,4/1,0,4,4,4,4 S 11-0 3", "a1")
    assert after == "4,0,4,4,4,4/0,1,4,4,4,4 N 11-0 3"


def test_kg4_lap_ending_in_opponents_empty_hole_ends_the_move():
    move, after = play(G, "4,4,4,4,4,0/4,4,4,4,4,1 S 7-0 3", "f1")
    assert after == "4,4,4,4,4,1/4,4,4,4,4,0 N 7-0 3"
    assert (move.captured, move.reserved) == (0, False)


def test_illegal_ids_in_precedence_order():
    reserved = "4,4,4,4,4,4/5*,3,4,4,4,4 S 0-0 6"
    assert error(reserved, "a1").rule == "KG-RESERVED"
    assert "a1" not in [m.split("x")[0] for m in marks(G, reserved)]
    assert error(START, "a2").rule == "KG-ORIGIN"
    assert error("4,4,4,4,4,4/0,4,4,4,4,4 S 4-0 2", "a1").rule == "KG-EMPTY"


def test_endless_by_repetition_and_by_lap_limit():
    caught = error("1,2,0,1,0,3/0,4,1,0,1,5 S 8-22 10", "f1")
    assert caught.rule == "ENDLESS" and "repeats the end of lap" in caught.message
    caught = error("3,1,2,0,1,0/1,10,1,11,2,1 N 13-2 4", "a2")
    assert caught.rule == "ENDLESS" and "lap 1000 " in caught.message
    assert marks(G, "3,1,2,0,1,0/1,10,1,11,2,1 N 13-2 4") == ["e2x11"]


def test_lap_limit_is_exact(monkeypatch):
    monkeypatch.setattr(kingulu_module, "LAP_LIMIT", 5)
    assert play(G, START, "c1")[0].laps == 5
    assert "c1x6" in marks(G, START)
    monkeypatch.setattr(kingulu_module, "LAP_LIMIT", 4)
    with pytest.raises(IllegalMove) as caught:
        game._apply(game.start(), game.board.index_of("c1"))
    assert caught.value.rule == "ENDLESS"
    assert "c1x6" not in marks(G, START)


def test_kg7_scores_and_game_over():
    # South to move: a1 is reserved by North, every other South hole empty.
    over = "0,2,0,3,0,9*/6*,0,0,0,0,0 S 20-8 30"
    position = parse_position(game, over)
    outcome = game.outcome(position)
    # South: store 20 + f2 (reserved by South, 9) = 29; North: 8 + a1 (6) + own 2 + 3 = 19.
    assert (outcome.result, outcome.reason, outcome.score) == ("1-0", "KG-7", (29, 19))
    assert error(over, "a1").rule == "GAME-OVER"


def test_kg7_draw():
    over = "0,0,0,0,0,0/0,0,0,0,0,0 N 24-24 30"
    outcome = game.outcome(parse_position(game, over))
    assert (outcome.result, outcome.score) == ("1/2-1/2", (24, 24))


def test_replay_line_keeps_banks_conserved():
    line = Line(game)
    for hole in ["d1", "d2", "f1", "a2"]:
        line.play(game.board.index_of(hole))
        assert line.position.seeds() == 48


def test_kg8_no_repetition_rule():
    position = game.start()
    assert game.outcome(position, history={position.key()}) is None
    assert marks(G, START) == ["c1x6", "d1x6", "e1", "f1"]
