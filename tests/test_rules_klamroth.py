"""kimasai-klamroth: every KK rule and illegal-move id, with exact positions."""
import pytest

from mancala_cli import IllegalMove, Line, format_position, get_game, parse_position

from .conftest import illegal, marks, play

G = "kimasai-klamroth"
ROW = ",".join(["1"] * 12)
START = f"{ROW}/1,1,1,1,1,1,1,1,1,1,1,0/0,1,1,1,1,1,1,1,1,1,1,1/{ROW} S 0-0 1"
game = get_game(G)
EMPTY = ",".join(["0"] * 12)


def row(*ones: str) -> str:
    """A row with stones on the given files."""
    return ",".join("1" if f in ones else "0" for f in "abcdefghijkl")


def error(position: str, hole: str) -> IllegalMove:
    return illegal(G, position, hole)


def test_kk1_start():
    assert format_position(game, game.start()) == START
    assert sum(game.start().holes) == 46


def test_kk2_circuits_counterclockwise():
    south = [game.board.name(h) for h in game.board.circuit("S")]
    assert south[:13] == [f"{f}1" for f in "abcdefghijkl"] + ["l2"] and south[-1] == "a2"
    assert game.board.name(game.step[game.board.index_of("a2")]) == "a1"
    assert game.board.name(game.step[game.board.index_of("l3")]) == "l4"
    assert game.board.name(game.step[game.board.index_of("a4")]) == "a3"


def test_worked_example_move_one_and_replies():
    assert marks(G, START) == ["b2x2"]
    move, after = play(G, START, "b2")
    assert after == ("0,1,1,1,1,1,1,1,1,1,1,1/0,1,1,1,1,1,1,1,1,1,1,0/"
                     "1,0,1,1,1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1,1,1,1,1 N 2-0 1")
    assert (move.captured, game.board.name(move.end)) == (2, "a2")
    assert sorted(marks(G, after)) == ["b4", "k3x2"]


def test_kk3_front_capture_without_back_stone_and_no_capture_facing_empty():
    # South b2 → a2; a3 holds a stone, a4 is empty: one stone captured.
    before = f"{row('l')}/{row('a', 'l')}/{row('b')}/{row('a')} S 0-41 9"
    move, after = play(G, before, "b2")
    assert move.captured == 1
    assert after == f"{row('l')}/{row('l')}/{row('a')}/{row('a')} N 1-41 9"
    # Facing hole empty: nothing, whatever the back hole holds.
    before = f"{row('a', 'l')}/{row('l')}/{row('b')}/{row('a')} S 0-41 9"
    move, after = play(G, before, "b2")
    assert move.captured == 0 and after == f"{row('a', 'l')}/{row('l')}/{row('a')}/{row('a')} N 0-41 9"


def test_kk3_step_into_back_row_never_captures():
    # North b4 → a4 (back row) although a2 is... North captures only from its front row.
    before = f"{row('b')}/{row('l')}/{row('a')}/{row('a')} N 0-42 9"
    move, after = play(G, before, "b4")
    assert move.captured == 0 and after == f"{row('a')}/{row('l')}/{row('a')}/{row('a')} S 0-42 10"


def test_kk2_blocked_origin_and_empty_and_game_over():
    assert error(START, "c2").rule == "KK-BLOCKED"
    assert error(START, "a3").rule == "KK-ORIGIN"
    assert error(START, "a2").rule == "KK-EMPTY"
    over = f"{row('a')}/{EMPTY}/{EMPTY}/{EMPTY} S 23-22 40"
    assert error(over, "a1").rule == "GAME-OVER"


def test_kk4a_no_stone_left():
    over = f"{row('a')}/{EMPTY}/{EMPTY}/{EMPTY} S 23-22 40"
    outcome = game.outcome(parse_position(game, over))
    assert (outcome.result, outcome.reason) == ("0-1", "KK-4a")


def test_kk4b_repetition_counts_the_set_up_position_and_the_side_to_move():
    start = parse_position(game, f"{row('h')}/{EMPTY}/{EMPTY}/{row('a')} S 22-22 1")
    after = game.play(start, game.board.index_of("a1"))[1]
    # The position after the move has occurred before (with the same side to move): draw.
    outcome = game.outcome(after, history={start.key(), after.key()})
    assert (outcome.result, outcome.reason) == ("1/2-1/2", "KK-4b")
    assert game.legal_moves(after, history={after.key()}) == []
    with pytest.raises(IllegalMove) as caught:
        game.play(after, game.board.index_of("h4"), history={after.key()})
    assert caught.value.rule == "GAME-OVER"
    # The same holes with the other side to move are a different position.
    assert game.outcome(after, history={(after.holes, "S")}) is None
    # A Line records the set-up position in its history.
    line = Line(game, start)
    line.play(game.board.index_of("a1"))
    assert start.key() in line.history


def test_kk4b_single_stones_never_repeat_a_position():
    # Every pairing of one South and one North stone ends by a capture (KK-4a),
    # never by repetition: the stones always meet in the front rows.
    circuit_s, circuit_n = game.board.circuit("S"), game.board.circuit("N")
    reasons = set()
    for a in range(0, 24, 5):
        for b in range(24):
            holes = [0] * 48
            holes[circuit_s[a]] = holes[circuit_n[b]] = 1
            line = Line(game, parse_position(game, format_position(
                game, game.start().__class__(tuple(holes), "S", (22, 22), 1))))
            while line.outcome() is None:
                (move,) = line.legal_moves()
                line.play(move.move.origin)
            reasons.add(line.outcome().reason)
    assert reasons == {"KK-4a"}


def test_kk4c_blocked_player_loses():
    full = ",".join(["1"] * 12)
    blocked = f"{full}/{',1' * 0}1,1,1,1,1,1,1,1,1,1,0,0/{full}/{full} S 0-0 1"
    outcome = game.outcome(parse_position(game, blocked))
    assert (outcome.result, outcome.reason) == ("0-1", "KK-4c")
    assert error(blocked, "a1").rule == "GAME-OVER"
