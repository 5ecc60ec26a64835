"""mancala: rules engines, records and diagrams for Bao la Kimasai and Bao Kingulu.

    >>> from mancala_cli import get_game, Line
    >>> line = Line(get_game("kingulu"))
    >>> [line.game.board.name(m.origin) for m in line.legal_moves()]
    ['c1', 'd1', 'e1', 'f1']
"""
from .api import GamePosition, Line, Report, check, copy_record, read, svg, text, write
from .errors import BadArchive, BadCoordinate, BadMove, BadPosition, UnreadableInput
from .positions import format_position, parse_position
from .records import random_game
from .rules import (LAP_LIMIT, NORTH, SOUTH, Board, Game, IllegalMove, InvalidPosition, MancalaError, Move,
                    MutablePosition, Outcome, Position, other)
from .rules import GAME_IDS, UnknownGame, all_games, get_game
from .rules.perft import divide, perft

__version__ = "0.1.0"

__all__ = [
    "LAP_LIMIT", "NORTH", "SOUTH", "Board", "Game", "IllegalMove", "InvalidPosition", "Line",
    "MancalaError", "Move", "MutablePosition", "Outcome", "Position", "other", "GAME_IDS", "UnknownGame",
    "all_games", "get_game", "perft", "divide", "parse_position", "format_position", "BadPosition",
    "random_game", "__version__", "read", "write", "check", "svg", "text", "Report", "GamePosition",
    "copy_record", "BadArchive", "BadCoordinate", "BadMove", "UnreadableInput",
]
