"""The rules of the three games: the shared core (:mod:`.core`), one module
per game that reads like its section of ``docs/rules.md``
(:mod:`.kimasai_mackay`, :mod:`.kimasai_klamroth`, :mod:`.kingulu`), the
registry of games by id (:mod:`.registry`), perft (:mod:`.perft`) and random
games (:mod:`.randomgames`). The rules know no notation, no diagrams and no
command line: a hole is an integer, a position a tuple."""
from .core import (DRAW, LAP_LIMIT, NORTH, SIDES, SOUTH, Board, Game, IllegalMove, InvalidPosition, Line,
                   MancalaError, Move, MutablePosition, Outcome, Position, Side, other, side_name)
from .perft import divide, perft
from .registry import GAME_IDS, UnknownGame, all_games, get_game

__all__ = ["DRAW", "LAP_LIMIT", "NORTH", "SIDES", "SOUTH", "Board", "Game", "IllegalMove", "InvalidPosition",
           "Line", "MancalaError", "Move", "MutablePosition", "Outcome", "Position", "Side", "other", "side_name",
           "divide", "perft", "GAME_IDS", "UnknownGame", "all_games", "get_game"]
