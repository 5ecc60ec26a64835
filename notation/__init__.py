"""PMN, the Portable Mancala Notation: coordinates, position strings, the
grammar, a streaming reader and a canonical writer.

    >>> from notation import parse_position, format_position
    >>> from mancala_cli import get_game
    >>> game = get_game("kingulu")
    >>> format_position(game, parse_position(game, "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1"))
    '4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1'
"""
from .coords import STYLES, CoordinateError, format_hole, format_move, parse_hole
from .pmn import read_game, read_games, write_game, write_games
from .position import format_position, parse_position
from .record import GameRecord, MoveNode, Problem

__all__ = ["STYLES", "CoordinateError", "format_hole", "format_move", "parse_hole", "format_position",
           "parse_position", "read_game", "read_games", "write_game", "write_games", "GameRecord",
           "MoveNode", "Problem"]
