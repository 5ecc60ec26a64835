"""mancala: rules engines, records and diagrams for Bao la Kimasai and Bao Kingulu.

    >>> from mancala_cli import get_game, Line
    >>> line = Line(get_game("kingulu"))
    >>> [line.token(m) for m in line.legal_moves()]
    ['c1x6', 'd1x6', 'e1', 'f1']

Every name loads when first used: the rules with the first of theirs, the
library's reading, checking, writing and drawing (``docs/library.md``) with
the first of theirs, so that a command that needs none of them starts
quickly. :data:`CORE` says which core the rules run on (``"native"`` or
``"pure"``; ``docs/library.md``, "The native core").
"""
from __future__ import annotations

import importlib

TYPE_CHECKING = False  # (typing itself is not loaded for this: start-up counts)

if TYPE_CHECKING:
    from typing import Any

    from .api import (
        GamePosition as GamePosition,
        Line as Line,
        Report as Report,
        annotate as annotate,
        check as check,
        copy_record as copy_record,
        page as page,
        read as read,
        solve as solve,
        write as write,
    )
    from .drawing import (
        PngImage as PngImage,
        SvgDiagram as SvgDiagram,
        TextBoard as TextBoard,
        png as png,
        record_svg as record_svg,
        sheet as sheet,
        svg as svg,
        text as text,
    )
    from .errors import (
        BadArchive as BadArchive,
        BadCoordinate as BadCoordinate,
        BadImage as BadImage,
        BadMove as BadMove,
        BadPosition as BadPosition,
        BadQuery as BadQuery,
        BadSheet as BadSheet,
        PngUnavailable as PngUnavailable,
        UnreadableInput as UnreadableInput,
    )
    from .positions import format_position as format_position, parse_position as parse_position
    from .records import random_game as random_game
    from .rules import (
        GAME_IDS as GAME_IDS,
        LAP_LIMIT as LAP_LIMIT,
        NORTH as NORTH,
        SOUTH as SOUTH,
        Board as Board,
        Game as Game,
        IllegalMove as IllegalMove,
        InvalidPosition as InvalidPosition,
        MancalaError as MancalaError,
        Move as Move,
        MutablePosition as MutablePosition,
        Outcome as Outcome,
        Position as Position,
        UnknownGame as UnknownGame,
        all_games as all_games,
        get_game as get_game,
        other as other,
    )
    from .rules.perft import divide as divide, perft as perft
    from .rules.selection import CORE as CORE
    from .rules.solver import Solution as Solution

__version__ = "0.1.0"

#: Where each name that loads when first used lives.
_LATER = {
    **{name: "rules" for name in ("GAME_IDS", "LAP_LIMIT", "NORTH", "SOUTH", "Board", "Game", "IllegalMove",
                                  "InvalidPosition", "MancalaError", "Move", "MutablePosition", "Outcome", "Position",
                                  "UnknownGame", "all_games", "get_game", "other")},
    **{name: "rules.perft" for name in ("divide", "perft")},
    "CORE": "rules.selection",
    "Solution": "rules.solver",
    **{name: "api" for name in ("GamePosition", "Line", "Report", "annotate", "check", "copy_record", "page", "read",
                                "solve", "write")},
    **{name: "drawing" for name in ("PngImage", "SvgDiagram", "TextBoard", "png", "record_svg", "sheet", "svg",
                                    "text")},
    **{name: "errors" for name in ("BadArchive", "BadCoordinate", "BadImage", "BadMove", "BadPosition", "BadQuery",
                                   "BadSheet", "PngUnavailable", "UnreadableInput")},
    **{name: "positions" for name in ("format_position", "parse_position")},
    "random_game": "records",
}

__all__ = ["__version__", *_LATER]


def __getattr__(name: str) -> Any:
    module = _LATER.get(name)
    if module is None:
        raise AttributeError(f"module 'mancala_cli' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
