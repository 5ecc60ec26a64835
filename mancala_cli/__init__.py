"""mancala: rules engines, records and diagrams for Bao la Kimasai and Bao Kingulu.

    >>> from mancala_cli import get_game, Line
    >>> line = Line(get_game("kingulu"))
    >>> [line.game.board.name(m.origin) for m in line.legal_moves()]
    ['c1', 'd1', 'e1', 'f1']
"""
from .core import (LAP_LIMIT, NORTH, SOUTH, Board, Game, IllegalMove, InvalidPosition, Line,
                   MancalaError, Move, MutablePosition, Outcome, Position, other)
from .games import GAME_IDS, UnknownGame, all_games, get_game

__version__ = "0.1.0"

__all__ = [
    "LAP_LIMIT", "NORTH", "SOUTH", "Board", "Game", "IllegalMove", "InvalidPosition", "Line",
    "MancalaError", "Move", "MutablePosition", "Outcome", "Position", "other", "GAME_IDS", "UnknownGame",
    "all_games", "get_game", "__version__",
]
