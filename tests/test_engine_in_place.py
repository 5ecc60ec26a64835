"""Game.move on a MutablePosition: the same moves and positions as Game.play."""
import random

import pytest
from hypothesis import given, settings, strategies as st

from mancala_cli import GAME_IDS, IllegalMove, Line, MutablePosition, format_position, get_game, parse_position


@settings(max_examples=30, deadline=None)
@given(game_id=st.sampled_from(GAME_IDS), seed=st.integers(0, 2**32 - 1))
def test_move_in_place_matches_play_at_every_ply(game_id, seed):
    game = get_game(game_id)
    rng = random.Random(seed)
    line = Line(game)
    now = MutablePosition(game.start())
    history = set()
    while (moves := line.legal_moves()) and len(line.moves) < 200:
        origin = rng.choice(moves).move.origin
        key = now.key()
        assert key == line.position.key()
        played = line.play(origin)
        assert game.move(now, origin, history=history) == played
        if game.uses_history:
            history.add(key)
        assert now.frozen() == line.position


def test_in_place_kingulu_reserves_and_stores():
    game = get_game("kingulu")
    now = MutablePosition(parse_position(game, "4,4,4,4,4,3/4,4,4,4,2,0 S 7-0 5"))
    move = game.move(now, game.board.index_of("e1"))
    assert (move.reserved, move.captured) == (True, 0)
    assert format_position(game, now.frozen()) == "4,4,4,4,4,5*/4,4,4,4,0,0 N 7-0 5"
    now = MutablePosition(parse_position(game, "4,4,4,4,4,4/1,0,4,4,4,4 S 7-0 3"))
    assert game.move(now, game.board.index_of("a1")).captured == 4
    assert format_position(game, now.frozen()) == "4,0,4,4,4,4/0,0,4,4,4,4 N 12-0 3"


def test_in_place_move_after_the_end_is_game_over():
    game = get_game("kimasai-mackay")
    ended = "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 S 31-32 40"
    with pytest.raises(IllegalMove) as caught:
        game.move(MutablePosition(parse_position(game, ended)), game.board.index_of("a1"))
    assert caught.value.rule == "GAME-OVER"


def test_in_place_illegal_move_names_its_rule():
    game = get_game("kimasai-klamroth")
    now = MutablePosition(game.start())
    with pytest.raises(IllegalMove) as caught:
        game.move(now, game.board.index_of("a1"))
    assert caught.value.rule == "KK-BLOCKED"
