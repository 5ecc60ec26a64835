"""Replay of records (PMN §4): every check, exact locations, round trips."""
import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from mancala_cli import Line, format_position, get_game
from mancala_cli.checking import replay
from mancala_cli.random_records import random_game
from notation.jsonl import object_to_record, record_to_object
from notation.pmn_reader import read_game, read_games
from notation.pmn_writer import write_game


def problems(text, **options):
    report = replay(read_game(text), **options)
    return [(p.severity, p.code, p.line, p.column, p.ply) for p in report.problems]


def test_notation_sample_record_is_valid_and_ends_in_the_stated_position():
    text = """[Game "kingulu"]
[Event "Village match"]
[Result "*"]

1. d1x6 {empty-hole capture: d2 and the capturing seed} 1... d2x10 2. f1^
{kuweka mtoto: f2 is South's now} 2... a2 (2... c2x9!? {nine at once})
3. d1 a2 *
"""
    report = replay(read_game(text), fill_positions=True)
    assert report.problems == []
    assert report.record.moves[-1].position == "0,1,0,3,1,6*/0,11,1,1,3,3 S 7-11 4"
    assert report.result == "*" and report.outcome is None and report.plies == 6


def test_illegal_move_reports_rule_position_and_legal_moves():
    report = replay(read_game('[Game "kingulu"]\n\n1. c1 d1 *\n'))
    (problem,) = report.problems
    assert (problem.code, problem.line, problem.column, problem.ply, problem.move) == ("KG-ORIGIN", 3, 7, 2, "d1")
    assert problem.position == "1,0,6,6,0,1/6,6,2,7,0,6 N 7-0 1"
    assert problem.legal == ["a2x1", "c2^", "d2", "f2"]


def test_wrong_marks_are_reported_at_the_move():
    assert problems('[Game "kingulu"]\n\n1. c1x5 *\n') == [("error", "bad-mark", 3, 4, 1)]
    assert problems('[Game "kingulu"]\n\n1. e1^ *\n') == [("error", "bad-mark", 3, 4, 1)]
    assert problems('[Game "kingulu"]\n\n1. c1x0 *\n') == [("error", "bad-mark", 3, 4, 1)]
    assert problems('[Game "kingulu"]\n\n1. e1x0 *\n') == []


def test_variation_starts_from_the_position_before_the_move_it_replaces():
    # 1... d2 replaced by 1... e2 (empty after c1): KG-EMPTY inside the variation at ply 2.
    got = problems('[Game "kingulu"]\n\n1. c1x6 d2 (1... e2) 2. e1 *\n')
    assert got == [("error", "KG-EMPTY", 3, 18, 2)]
    # A variation inside a variation.
    got = problems('[Game "kingulu"]\n\n1. c1x6 d2 (1... a2x1 (1... e2) 2. f1) *\n')
    assert got == [("error", "KG-EMPTY", 3, 29, 2)]


def test_move_after_the_end_and_result_checks():
    record = random_game(get_game("kingulu"), random.Random(3))
    text = write_game(record)
    assert problems(text) == []
    # A move after the end of the game.
    extra = text.replace(" 1-0\n", " a2 1-0\n")
    (got,) = problems(extra)
    assert got[1] == "GAME-OVER" and got[4] == len(record.moves) + 1
    # A result that disagrees with the engine's.
    wrong = text.replace("1-0", "0-1")
    codes = [p[1] for p in problems(wrong)]
    assert codes == ["result-mismatch"]
    # Token and tag disagree.
    token = text.replace(" 1-0\n", " *\n")
    assert [p[1] for p in problems(token)] == ["result-mismatch", "result-mismatch"]
    # Score must agree with KG-7.
    score = text.replace('[Score "35-13"]', '[Score "30-18"]')
    assert [(p[1], p[2]) for p in problems(score)] == [("score-mismatch", 4)]


def test_record_may_end_early_with_any_result():
    assert problems('[Game "kingulu"]\n[Result "0-1"]\n\n1. c1x6 0-1\n') == []


def test_setup_and_move_numbers():
    text = ('[Game "kingulu"]\n[Setup "0,1,0,3,1,6*/0,11,1,1,3,3 S 7-11 4"]\n\n'
            '4. b1x1 4... b2 6. c1 *\n')
    report = replay(read_game(text))
    assert [(p.severity, p.code, p.line, p.column) for p in report.problems] == [
        ("warning", "move-number", 4, 20), ("error", "KG-FIRSTLAP", 4, 20)]
    assert problems('[Game "kingulu"]\n[Setup "4,4,4 S 0-0 1"]\n\n*\n') == [
        ("error", "bad-setup", 2, 9, None)]


def test_unknown_game_and_default_game():
    assert problems("1. c1 *\n")[0][1] == "unknown-game"
    assert problems("1. c1x6 *\n", default_game="kingulu") == []
    assert problems('[Game "chess"]\n\n1. e4 *\n')[0][:2] == ("error", "unknown-game")


def test_bad_hole_names_are_notation_errors():
    assert problems('[Game "kimasai-mackay"]\n\n1. i1 *\n') == [("error", "bad-hole", 3, 4, 1)]
    text = '[Game "kingulu"]\n[Coordinates "relative"]\n\n1. N3 *\n'
    assert problems(text) == [("error", "bad-hole", 4, 4, 1)]


def test_klamroth_long_form_is_checked():
    assert problems('[Game "kimasai-klamroth"]\n\n1. b2-a2x2 *\n') == []
    assert problems('[Game "kimasai-klamroth"]\n\n1. b2-b1 *\n') == [("error", "bad-destination", 3, 4, 1)]
    text = '[Game "kimasai-klamroth"]\n[Coordinates "numeric"]\n\n1. 14-13x2 *\n'
    assert problems(text) == []
    assert problems('[Game "kingulu"]\n\n1. c1-d1 *\n')[0][1] == "bad-hole"


@pytest.mark.parametrize("game_id", ["kimasai-mackay", "kimasai-klamroth", "kingulu"])
def test_round_trips_pmn_json_pmn_and_across_coordinate_styles(game_id):
    record = random_game(get_game(game_id), random.Random(9))
    canonical = write_game(record)
    again = read_game(canonical)
    assert write_game(again) == canonical
    report = replay(again)
    obj = json.loads(json.dumps(record_to_object(again, game_id, None)))
    assert write_game(object_to_record(obj)) == canonical
    for style in ("numeric", "relative", "algebraic"):
        converted = read_game(canonical)
        replay(converted, coords=style)
        text = write_game(converted)
        assert (f'[Coordinates "{style}"]' in text) == (style != "algebraic")
        back = read_game(text)
        assert replay(back).problems == []
        replay(back, coords="algebraic")
        assert write_game(back).replace('[Coordinates "algebraic"]\n', "") == canonical
    assert report.valid


@settings(max_examples=40, deadline=None)
@given(game_id=st.sampled_from(["kimasai-mackay", "kimasai-klamroth", "kingulu"]),
       seed=st.integers(0, 2**32), data=st.data())
def test_random_games_validate_and_a_corrupted_move_is_found_at_its_ply(game_id, seed, data):
    game = get_game(game_id)
    record = random_game(game, random.Random(seed), max_plies=80)
    text = write_game(record)
    assert replay(read_game(text)).problems == []
    if not record.moves:
        return
    ply = data.draw(st.integers(1, len(record.moves)))
    node = record.moves[ply - 1]
    side = "S" if ply % 2 else "N"
    own = sorted(game.board.holes_of("N" if side == "S" else "S"))
    node.hole = game.board.name(own[0])          # a hole of the opponent
    node.captured, node.reserved = None, False
    report = replay(read_game(write_game(record)))
    first = report.problems[0]
    expected = {"kimasai-mackay": "KM-ORIGIN", "kimasai-klamroth": "KK-ORIGIN", "kingulu": "KG-ORIGIN"}
    assert (first.ply, first.code) == (ply, expected[game_id])


def test_many_games_stream_with_their_own_problems():
    text = "\n".join(write_game(random_game(get_game("kingulu"), random.Random(s))) for s in range(5))
    broken = text.replace("1. ", "1. {oops ", 1)
    games = list(read_games(broken.splitlines(keepends=True)))
    assert len(games) == 5
    assert [bool(g.problems) for g in games] == [True, False, False, False, False]


# -- replay in place: the positions problems name, and Replay.positions --------------

def _positions_by_play(game, record):
    """The position before each main-line move and after the last, by Line.play."""
    line = Line(game)
    out = [line.position]
    for node in record.moves:
        line.play(game.board.index_of(node.hole))
        out.append(line.position)
    return out


@pytest.mark.parametrize("game_id", ["kimasai-mackay", "kimasai-klamroth", "kingulu"])
def test_replay_positions_are_those_of_play_and_worked_out_when_asked(game_id):
    game = get_game(game_id)
    record = random_game(game, random.Random(5), max_plies=60)
    report = replay(read_game(write_game(record)))
    assert report._positions is None  # checking alone worked none out
    assert [report.start, *report.positions] == _positions_by_play(game, record)
    assert report.positions is report.positions
    kept = replay(read_game(write_game(record)), positions=True)
    assert kept._positions == report.positions and kept.problems == report.problems == []


def test_replay_positions_stop_before_the_move_that_cannot_be_played():
    report = replay(read_game('[Game "kingulu"]\n\n1. c1x6 d2 2. a2 b1 *\n'))
    assert [(p.code, p.ply) for p in report.problems] == [("KG-ORIGIN", 3)]
    assert [format_position(report.game, p) for p in report.positions] == [
        "1,0,6,6,0,1/6,6,2,7,0,6 N 7-0 1", "4,1,10,1,3,4/1,0,2,10,3,2 S 7-0 2"]
    for text in ('[Game "kingulu"]\n\n1. c1x6 d2 2. a2 b1 *\n', '[Game "kingulu"]\n\n1. c1x6 d2 (1... a2) 2. a2 b1 *\n'):
        kept = replay(read_game(text), positions=True)
        assert kept._positions == report.positions and kept.problems == replay(read_game(text)).problems


@pytest.mark.parametrize("game_id", ["kimasai-mackay", "kimasai-klamroth", "kingulu"])
def test_every_problem_names_the_position_before_its_move(game_id):
    # Wrong marks on every other move and a wrong move number on every
    # fourth: each problem gives the position before its own move.
    game = get_game(game_id)
    record = random_game(game, random.Random(11), max_plies=40)
    before = _positions_by_play(game, record)
    for k, node in enumerate(record.moves):
        if k % 2:
            node.captured = (node.captured or 0) + 7
        if k % 4 == 0:
            node.number = 99
    report = replay(read_game(write_game(record).replace("1. ", "99. ", 1)))
    marks = [p for p in report.problems if p.code == "bad-mark"]
    numbers = [p for p in report.problems if p.code == "move-number"]
    assert len(marks) == len(record.moves) // 2 and numbers
    for problem in report.problems:
        if problem.ply is not None:
            assert problem.position == format_position(game, before[problem.ply - 1])


def test_an_illegal_move_after_wrong_marks_names_its_position_and_rule():
    # The position before the illegal move is worked out again from the
    # last one a problem named; the rule is the one play gives.
    report = replay(read_game('[Game "kingulu"]\n\n1. c1x5 d2x10 2. a1x9 a2x1 3. c1 *\n'))
    assert [(p.code, p.ply, p.position) for p in report.problems] == [
        ("bad-mark", 1, "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1"),
        ("bad-mark", 2, "1,0,6,6,0,1/6,6,2,7,0,6 N 7-0 1"),
        ("bad-mark", 3, "4,1,10,1,3,4/1,0,2,10,3,2 S 7-0 2"),
        ("bad-mark", 4, "4,0,10,1,3,4/0,0,2,10,3,2 N 9-0 2"),
        ("KG-RESERVED", 5, "1,1,11,2,4,5/2,1,5*,0,4,3 S 9-0 3")]
    assert report.problems[-1].legal == ["a1", "b1", "e1", "f1"]
    # South has no legal move: play names GAME-OVER where a1 alone is KK-BLOCKED.
    full = ",".join(["1"] * 12)
    blocked = f'[Game "kimasai-klamroth"]\n[Setup "{full}/1,1,1,1,1,1,1,1,1,1,0,0/{full}/{full} S 0-0 1"]\n\n1. a1 *\n'
    assert [(p.code, p.legal) for p in replay(read_game(blocked)).problems] == [("GAME-OVER", [])]


def test_problems_in_variations_name_their_positions():
    text = '[Game "kingulu"]\n\n1. c1x6 d2x9 (1... a2x5 2. c1x3 (2. a1x2) 2... e2) 2. a1 *\n'
    report = replay(read_game(text))
    assert [(p.code, p.ply, p.move, p.position, p.legal) for p in report.problems] == [
        ("bad-mark", 2, "d2x9", "1,0,6,6,0,1/6,6,2,7,0,6 N 7-0 1", None),
        ("bad-mark", 2, "a2x5", "1,0,6,6,0,1/6,6,2,7,0,6 N 7-0 1", None),
        ("KG-FIRSTLAP", 3, "c1x3", "0,0,6,6,0,2/0,7,3,8,0,7 S 7-2 2", ["b1x1", "d1", "f1x1"]),
        ("KG-EMPTY", 3, "a1x2", "0,0,6,6,0,2/0,7,3,8,0,7 S 7-2 2", ["b1x1", "d1", "f1x1"])]
    assert len(report.positions) == 3
