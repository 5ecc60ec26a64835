"""mancala: read, check, write, draw and solve game records of Bao la
Kimasai and Bao Kingulu. The whole guide is docs/library.md (installed with
the package: ``mancala_cli/docs/library.md``); this is the short one.

Read records from a path, a file object, ``bytes`` or record text (a ``str``
with a line break, or that begins with ``[``, ``{`` or ``<``; any other
``str`` is a path), and check them against the rules:

    >>> import mancala_cli as mancala
    >>> record = next(mancala.read('[Game "kingulu"] 1. c1x6 d2 *'))
    >>> report = mancala.check(record)
    >>> report.valid, report.plies, str(report.final)
    (True, 2, '4,1,10,1,3,4/1,0,2,10,3,2 S 7-0 2')

Write them in another format or coordinate style (PMN, JSON Lines, XML):

    >>> print(mancala.write(record, coords="relative"), end="")
    [Game "kingulu"]
    [Coordinates "relative"]
    <BLANKLINE>
    1. S3x6 N3 *

Draw a position (SVG; ``png`` and ``text`` too, ``sheet`` and ``page`` for
whole games; ``render`` draws into files as ``mancala render`` does):

    >>> mancala.svg(report.final).startswith("<?xml")
    True

Play moves by their tokens and solve positions; moves come back as tokens
(:class:`MoveToken`: a ``str``, with the :class:`Move` in ``.move``):

    >>> start = mancala.GamePosition.from_string("kingulu", "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1")
    >>> start.legal_moves()
    ['c1x6', 'd1x6', 'e1', 'f1']
    >>> ending = start.play("c1x6").play("d2")
    >>> ending.solve(depth=1).bounds
    ('loss', 'win')
    >>> mancala.solve("0,0,0,0,3,2/1,0,0,0,0,2 S 20-20 12", game="kingulu").best
    ['f1^']

``__all__`` (what ``help(mancala_cli)`` lists) holds those names; the rest
of the library loads from here too when first used: the rules (``get_game``,
``Game``, ``Board``, ``Position``, ``Move``, ``Line``, ``Outcome``,
``perft``, ``divide``, ``random_game``, ``parse_position``,
``format_position``, ``NORTH``, ``SOUTH``), the drawings' types
(``SvgDiagram``, ``PngImage``, ``TextBoard``), ``CORE``
(``"native"`` or ``"pure"``: which core the rules run on) and every error
(each derives from :class:`MancalaError`). Loading names only when used
keeps the command line's start quick.
"""
from __future__ import annotations

import importlib

from .version import __version__

TYPE_CHECKING = False  # (not typing's, which slows `mancala --version`: docs/performance.md, 'Start-up')

if TYPE_CHECKING:
    from typing import Any

    from .api import (
        Report as Report,
        annotate as annotate,
        check as check,
        check_files as check_files,
        copy_record as copy_record,
        page as page,
        read as read,
        write as write,
    )
    from .batch.annotating import annotate_files as annotate_files
    from .batch.conversion import NotWritten as NotWritten, write_files as write_files
    from .batch.filtering import filter_files as filter_files
    from .batch.statistics import stats_files as stats_files
    from .drawing import (
        PngImage as PngImage,
        SvgDiagram as SvgDiagram,
        TextBoard as TextBoard,
        png as png,
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
        RenderError as RenderError,
        UnreadableInput as UnreadableInput,
        UnwritableOutput as UnwritableOutput,
    )
    from .playing import (
        GamePosition as GamePosition,
        Line as Line,
        MoveToken as MoveToken,
        Solution as Solution,
        solve as solve,
    )
    from .positions import format_position as format_position, parse_position as parse_position
    from .random_records import random_game as random_game
    from .rendering import render as render
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


#: Where each name that loads when first used lives.
_LATER = {
    **{name: "rules" for name in ("GAME_IDS", "LAP_LIMIT", "NORTH", "SOUTH", "Board", "Game", "IllegalMove",
                                  "InvalidPosition", "MancalaError", "Move", "MutablePosition", "Outcome", "Position",
                                  "UnknownGame", "all_games", "get_game", "other")},
    **{name: "rules.perft" for name in ("divide", "perft")},
    "CORE": "rules.selection",
    **{name: "api" for name in ("Report", "annotate", "check", "check_files", "copy_record", "page", "read",
                                "write")},
    **{name: "playing" for name in ("GamePosition", "Line", "MoveToken", "Solution", "solve")},
    **{name: "drawing" for name in ("PngImage", "SvgDiagram", "TextBoard", "png", "sheet", "svg",
                                    "text")},
    **{name: "errors" for name in ("BadArchive", "BadCoordinate", "BadImage", "BadMove", "BadPosition", "BadQuery",
                                   "BadSheet", "PngUnavailable", "RenderError", "UnreadableInput", "UnwritableOutput")},
    **{name: "positions" for name in ("format_position", "parse_position")},
    "random_game": "random_records",
    "render": "rendering",
    **{name: "batch.conversion" for name in ("NotWritten", "write_files")},
    "stats_files": "batch.statistics",
    "filter_files": "batch.filtering",
    "annotate_files": "batch.annotating",
}

#: What ``help(mancala_cli)`` and ``from mancala_cli import *`` show: the
#: library's entry points (the package docstring is their guide). Every name
#: of ``_LATER`` can be imported from here all the same.
__all__ = ["__version__", "read", "check", "check_files", "write", "write_files", "filter_files", "stats_files",
           "annotate", "annotate_files", "solve", "svg", "png", "text", "sheet", "page", "render", "GamePosition", "Line", "Report", "Solution", "get_game", "MancalaError", "CORE"]


def __getattr__(name: str) -> Any:
    module = _LATER.get(name)
    if module is None:
        raise AttributeError(f"module 'mancala_cli' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*__all__, *_LATER})  # every name, loaded or not
