"""Plain-text boards for terminals (``mancala render --format text``)."""
from __future__ import annotations

from mancala_cli import Line, Move, get_game, parse_position
from mancala_cli.diagrams.text import board_text


def _mackay_after_six():
    game = get_game("kimasai-mackay")
    line = Line(game)
    move = None
    for name in ["a2", "d3", "h1", "e3", "c2", "c4"]:
        move = line.play(game.board.index_of(name))
    return game, line.position, move


def test_kingulu_start():
    game = get_game("kingulu")
    assert board_text(game, game.start()) == (
        "Bao Kingulu — move 1, South to move\n"
        "   North  store 0\n"
        "     a    b    c    d    e    f\n"
        " 2   4    4    4    4    4    4   2\n"
        " 1   4    4    4    4    4    4   1\n"
        "     a    b    c    d    e    f\n"
        "   South  store 0   <- to move"
    )


def test_four_rows_with_last_move():
    game, position, move = _mackay_after_six()
    assert board_text(game, position, last_move=move) == (
        "Bao la Kimasai (MacKay) — move 4, South to move\n"
        "   North  reserve 21\n"
        "     a    b    c    d    e    f    g    h\n"
        " 4   0    1   [0]   1   (1)   0    0    0   4\n"
        " 3   3    1    0    1    0    1    1    1   3\n"
        "   --------------------------------------\n"
        " 2   0    0    0    1    3    1    2    0   2\n"
        " 1   0    0    0    0    0    1    2    0   1\n"
        "     a    b    c    d    e    f    g    h\n"
        "   South  reserve 22   <- to move\n"
        "last move: c4 → e4"
    )


def test_four_rows_flipped():
    game, position, move = _mackay_after_six()
    assert board_text(game, position, last_move=move, flip=True) == (
        "Bao la Kimasai (MacKay) — move 4, South to move\n"
        "   South  reserve 22   <- to move\n"
        "     h    g    f    e    d    c    b    a\n"
        " 1   0    2    1    0    0    0    0    0   1\n"
        " 2   0    2    1    3    1    0    0    0   2\n"
        "   --------------------------------------\n"
        " 3   1    1    1    0    1    0    1    3   3\n"
        " 4   0    0    0   (1)   1   [0]   1    0   4\n"
        "     h    g    f    e    d    c    b    a\n"
        "   North  reserve 21\n"
        "last move: c4 → e4"
    )


def test_kingulu_reserved_holes():
    game = get_game("kingulu")
    position = parse_position(game, "0,1,0,3,1,6*/0,11,1,1,3,3* N 7-11 4")
    assert board_text(game, position) == (
        "Bao Kingulu — move 4, North to move\n"
        "   North  store 11   <- to move\n"
        "     a    b    c    d    e    f\n"
        " 2   0    1    0    3    1    6*  2\n"
        " 1   0   11    1    1    3    3*  1\n"
        "     a    b    c    d    e    f\n"
        "   South  store 7\n"
        "reserved: f1 by North, f2 by South"
    )


def test_reserved_origin_and_same_hole_marks():
    game = get_game("kingulu")
    position = parse_position(game, "0,1,0,3,1,6*/0,11,1,1,3,3* N 7-11 4")
    text = board_text(game, position, last_move=Move(game.board.index_of("f2"), game.board.index_of("b1")))
    assert " 2   0    1    0    3    1   [6]* 2" in text.splitlines()
    assert " 1   0  (11)   1    1    3    3*  1" in text.splitlines()
    same = board_text(game, game.start(), last_move=Move(2, 2))
    assert " 1   4    4   {4}   4    4    4   1" in same.splitlines()
    assert same.endswith("last move: c1 → c1")


def test_klamroth_captured_and_deterministic():
    game = get_game("kimasai-klamroth")
    line = Line(game)
    move = line.play(game.board.index_of("b2"))
    text = board_text(game, line.position, last_move=move)
    assert text == board_text(game, line.position, last_move=move)
    lines = text.splitlines()
    assert lines[1] == "   North  captured 0   <- to move"
    assert lines[-2] == "   South  captured 2"
    assert lines[2] == "     a    b    c    d    e    f    g    h    i    j    k    l"
    assert lines[6] == " 2  (1)  [0]   1    1    1    1    1    1    1    1    1    1   2"
    assert all(line == line.rstrip() for line in lines)


def test_a_finished_game_says_who_won_and_the_final_score():
    """The stores read 12 and 13, the final score (KG-7) is 35-13 for South:
    the first line says so, naming no side's bank."""
    game = get_game("kingulu")
    position = parse_position(game, "0,0,0,8*,0,12*/0,0,0,0,0,3 N 12-13 12")
    lines = board_text(game, position).split("\n")
    assert lines[0] == "Bao Kingulu — move 12, South wins 35–13 (KG-7)"
    assert lines[1] == "   North  store 13" and lines[6] == "   South  store 12"
    assert lines[-1] == "game over: 1-0 (KG-7: N to move has no legal move; score 35-13)"
