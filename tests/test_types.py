"""The side type of the two layers, and reserved holes' owners."""
from typing import get_args

import notation.coords
from mancala_cli.rules import board as rules
from mancala_cli.rules.registry import get_game


def test_both_layers_name_the_same_sides_in_the_same_order():
    assert get_args(rules.Side) == ("S", "N")
    assert get_args(notation.coords.Side) == get_args(rules.Side)
    assert rules.SIDES == (rules.SOUTH, rules.NORTH) == ("S", "N")


def test_a_reserved_hole_belongs_to_the_opponent_of_its_rows_owner():
    game = get_game("kingulu")
    board = game.board
    assert [game.reserver(board.index_of(name)) for name in ("a1", "f1", "a2", "f2")] == ["N", "N", "S", "S"]
