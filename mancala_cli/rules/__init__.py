"""The rules of the three games: the shared core (:mod:`.core`), one module
per game that reads like its section of ``docs/rules.md``
(:mod:`.kimasai_mackay`, :mod:`.kimasai_klamroth`, :mod:`.kingulu`), the
registry of games by id (:mod:`.registry`), perft (:mod:`.perft`) and random
games (:mod:`.randomgames`). The rules know no notation, no diagrams and no
command line: a hole is an integer, a position a tuple.

They run on the native kernel where the install built it (:mod:`.native`),
else on these pure-Python modules (:mod:`.selection`; :data:`CORE` says which). Every name
here but :data:`CORE` loads when first used: ``mancala --version`` imports
this package for :data:`CORE` alone, and importing the core, the registry
and perft here would add about 10 ms to it (0.4 × ``python -c pass``,
against a goal of at most 1.5 × in all), and ``tests/test_startup.py``
holds it to loading no ``rules.core``.

The search for game values and what is built on it (the solver, endgame
tables, proofs, annotation) is in :mod:`mancala_cli.solving`; the native
kernel's search stays here, in :mod:`.native`, beside the rules it runs on.
"""
from __future__ import annotations

import importlib

from .selection import CORE

TYPE_CHECKING = False  # (not typing's: typing and what it loads cost 11 ms of `mancala --version`, see tests/test_startup.py)

if TYPE_CHECKING:
    from typing import Any

    from .core import (
        DRAW as DRAW,
        LAP_LIMIT as LAP_LIMIT,
        NORTH as NORTH,
        SIDES as SIDES,
        SOUTH as SOUTH,
        Board as Board,
        Game as Game,
        GameInProgress as GameInProgress,
        IllegalMove as IllegalMove,
        InvalidPosition as InvalidPosition,
        MancalaError as MancalaError,
        Move as Move,
        MutablePosition as MutablePosition,
        Outcome as Outcome,
        Position as Position,
        Side as Side,
        other as other,
        side_name as side_name,
    )
    from .perft import divide as divide, perft as perft
    from .registry import GAME_IDS as GAME_IDS, UnknownGame as UnknownGame, all_games as all_games, get_game as get_game

_LATER = {
    **{name: "core" for name in ("DRAW", "LAP_LIMIT", "NORTH", "SIDES", "SOUTH", "Board", "Game", "IllegalMove",
                                 "InvalidPosition", "GameInProgress", "MancalaError", "Move", "MutablePosition", "Outcome",
                                 "Position", "Side", "other", "side_name")},
    **{name: "perft" for name in ("divide", "perft")},
    **{name: "registry" for name in ("GAME_IDS", "UnknownGame", "all_games", "get_game")},
}

__all__ = ["CORE", *_LATER]


def __getattr__(name: str) -> Any:
    module = _LATER.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
