"""Position strings (PMN §3) and coordinates (PMN §2)."""
import random

import pytest
from hypothesis import given, settings, strategies as st

from mancala_cli import InvalidPosition, Line, format_position, get_game, parse_position
from notation.coords import STYLES, format_hole, hole_table, parse_hole
from notation.notation_errors import CoordinateError

STARTS = {
    "kingulu": "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1",
    "kimasai-mackay": "0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1/0,0,0,0,0,0,0,0 S 24-24 1",
    "kimasai-klamroth": "1,1,1,1,1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1,1,1,1,0/"
                        "0,1,1,1,1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1,1,1,1,1 S 0-0 1",
}


@pytest.mark.parametrize("game_id", sorted(STARTS))
def test_standard_starts(game_id):
    game = get_game(game_id)
    assert format_position(game, game.start()) == STARTS[game_id]
    assert parse_position(game, STARTS[game_id]) == game.start()


def test_reader_accepts_leading_zeros_and_runs_of_blanks():
    game = get_game("kingulu")
    position = parse_position(game, "  04,4,4,4,4,4/4,4,4,4,4,4   S\t0-00  1 ")
    assert format_position(game, position) == STARTS["kingulu"]


@pytest.mark.parametrize("game_id,text,message", [
    ("kingulu", "4,4,4,4,4,4 S 0-0 1", "1 rows of holes, kingulu has 2 rows of 6"),
    ("kingulu", "4,4,4,4,4/4,4,4,4,4,4,4 S 0-0 1", "2 rows of holes, kingulu has 2 rows of 6: rank 2 has 5 holes"),
    ("kingulu", "4,4,4,4,4,4/4,4,4,4,4 S 0-0 1", "2 rows of holes, kingulu has 2 rows of 6: rank 1 has 5 holes"),
    ("kingulu", "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0", "has 4 fields"),
    *(("kingulu", f"4,4,4,4,4,4/4,4,4,4,4,4{space}S{space}0-0{space}1",
       f"a position string has 4 fields (rows, side, banks, move number) separated by spaces, not U+{code}")
      for space, code in (("\u3000", "3000"), ("\u00a0", "00A0"), ("\x1c", "001C"), ("\x1d", "001D"),
                          ("\x1e", "001E"), ("\n", "000A"))),
    ("kingulu", "4,4,4,4,4,x/4,4,4,4,4,4 S 0-0 1", "count 'x' in f2 is not a number"),
    ("kingulu", "4,4,4,4,4,-4/4,4,4,4,4,4 S 0-0 1", "negative count '-4' in f2"),
    ("kingulu", "4,4,4,4,4,5/4,4,4,4,4,4 S 0-0 1", "seeds do not add up"),
    ("kingulu", "4,4,4,4,4,1000000000/4,4,4,4,4,4 S 0-0 1", "seeds do not add up"),
    ("kingulu", "4,4,4,4,4,4/4,4,4,4,4,4 X 0-0 1", "side to move must be S or N"),
    ("kingulu", "4,4,4,4,4,4/4,4,4,4,4,4 S 0:0 1", "banks '0:0'"),
    ("kingulu", "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 0", "move number must be 1 or more"),
    ("kingulu", "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 one", "move number 'one'"),
    ("kingulu", "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 " + "9" * 5000, "far too large"),
    ("kimasai-mackay", STARTS["kimasai-mackay"].replace("0,0,0,0,0,0,0,0/", "0*,0,0,0,0,0,0,0/", 1),
     "only kingulu has reserved holes"),
    ("kimasai-klamroth", STARTS["kimasai-klamroth"].replace("1,1,1,1,1,1,1,1,1,1,1,0", "1,1,1,1,1,1,1,1,1,1,2,0"),
     "a kimasai-klamroth hole holds at most one"),
])
def test_bad_position_strings_name_what_is_wrong(game_id, text, message):
    with pytest.raises(InvalidPosition) as caught:
        parse_position(get_game(game_id), text)
    assert message in str(caught.value)


def test_relative_coordinates_examples():
    board = get_game("kimasai-mackay").board
    expected = {"S1": "a1", "S8": "h1", "S9": "h2", "S16": "a2",
                "N1": "h4", "N8": "a4", "N9": "a3", "N16": "h3"}
    for token, name in expected.items():
        assert board.name(parse_hole(board, token, "relative", token[0])) == name
        assert format_hole(board, board.index_of(name), "relative", token[0]) == token
    kingulu = get_game("kingulu").board
    assert [format_hole(kingulu, kingulu.index_of(n), "relative", "N") for n in ("f2", "a2")] == ["N1", "N6"]
    assert format_hole(board, board.index_of("a2"), "numeric") == "9"


@pytest.mark.parametrize("game_id,token,style,side,message", [
    ("kimasai-mackay", "i1", "algebraic", "S", "'i1' is not a hole"),
    ("kimasai-klamroth", "49", "numeric", "S", "'49' is not a hole number"),
    ("kimasai-klamroth", "0", "numeric", "S", "'0' is not a hole number"),
    ("kingulu", "N3", "relative", "S", "names a hole of N, but S is to move"),
    ("kingulu", "S7", "relative", "S", "'S7' is not a hole of S"),
    ("kingulu", "c1", "relative", "S", "not a relative coordinate"),
])
def test_bad_coordinates(game_id, token, style, side, message):
    with pytest.raises(CoordinateError) as caught:
        parse_hole(get_game(game_id).board, token, style, side)
    assert message in str(caught.value)


@settings(max_examples=60, deadline=None)
@given(game_id=st.sampled_from(sorted(STARTS)), seed=st.integers(0, 2**32), plies=st.integers(0, 120))
def test_random_games_conserve_seeds_and_round_trip_positions_and_coordinates(game_id, seed, plies):
    game = get_game(game_id)
    rng = random.Random(seed)
    line = Line(game)
    for _ in range(plies):
        moves = line.legal_moves()
        if not moves:
            break
        move = rng.choice(moves).move
        side = line.position.side
        for style in STYLES:
            token = format_hole(game.board, move.origin, style, side)
            assert parse_hole(game.board, token, style, side) == move.origin
        line.play(move.origin)
        assert line.position.seeds() == game.total
        text = format_position(game, line.position)
        assert parse_position(game, text) == line.position
        assert format_position(game, parse_position(game, text)) == text


@settings(max_examples=20, deadline=None)
@given(game_id=st.sampled_from(sorted(STARTS)), seed=st.integers(0, 2**32))
def test_same_seed_same_games(game_id, seed):
    from mancala_cli.random_records import random_game
    from notation.pmn_writer import write_game
    game = get_game(game_id)
    first = write_game(random_game(game, random.Random(seed), max_plies=60))
    assert first == write_game(random_game(game, random.Random(seed), max_plies=60))


@pytest.mark.parametrize("game_id", ["kimasai-mackay", "kimasai-klamroth", "kingulu"])
def test_relative_numbers_follow_the_rules_circuits(game_id):
    """The record layer numbers a player's holes from the board's shape alone;
    the numbering is the rules' counterclockwise circuit from the back-row
    hole on his left."""
    from notation.coords import hole_names, relative_numbers
    board = get_game(game_id).board
    for side in ("S", "N"):
        own = len(board.holes_of(side))
        assert relative_numbers(board.ranks, board.files, side) == board.circuit(side)[:own]
    assert hole_names(board.ranks, board.files) == tuple(board.name(h) for h in range(board.size))


@pytest.mark.parametrize("game_id", ["kimasai-mackay", "kimasai-klamroth", "kingulu"])
@pytest.mark.parametrize("style", STYLES)
def test_hole_table_names_what_parse_hole_names(game_id, style):
    board = get_game(game_id).board
    for side in ("S", "N"):
        table = hole_table(board, style, side)
        written = {}
        for hole in range(board.size):
            try:
                written[format_hole(board, hole, style, side)] = hole
            except CoordinateError:
                pass
        assert table == written
        assert all(parse_hole(board, token, style, side) == hole for token, hole in table.items())
