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

from .version import TYPE_CHECKING, __version__

if TYPE_CHECKING:
    from typing import Any

    from notation.position_strings import format_position as format_position
    from notation.record import copy_record as copy_record

    from .api import Report as Report, annotate as annotate, check as check, page as page, read as read, write as write
    from .batch.annotating import annotate_files as annotate_files
    from .batch.conversion import NotWritten as NotWritten, write_files as write_files
    from .batch.filtering import filter_files as filter_files
    from .batch.runs import check_files as check_files
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
    from .positions import BadPosition as BadPosition, parse_position as parse_position
    from .random_records import random_game as random_game
    from .rendering import render as render
    from .rules.board import NORTH as NORTH, SOUTH as SOUTH, Board as Board, other as other
    from .rules.counting import divide as divide, perft as perft
    from .rules.game import (
        LAP_LIMIT as LAP_LIMIT,
        Game as Game,
        IllegalMove as IllegalMove,
        InvalidPosition as InvalidPosition,
        MancalaError as MancalaError,
        Move as Move,
        Outcome as Outcome,
    )
    from .rules.position import MutablePosition as MutablePosition, Position as Position
    from .rules.registry import (
        GAME_IDS as GAME_IDS,
        UnknownGame as UnknownGame,
        all_games as all_games,
        get_game as get_game,
    )
    from .rules.selection import CORE as CORE


#: Where each name that loads when first used lives: the module that defines
#: it (tests/test_layers.py holds the stubs above to this table).
_LATER = {
    **{name: "mancala_cli.rules.registry" for name in ("GAME_IDS", "UnknownGame", "all_games", "get_game")},
    **{name: "mancala_cli.rules.game" for name in ("LAP_LIMIT", "Game", "IllegalMove", "InvalidPosition",
        "MancalaError", "Move", "Outcome")},
    **{name: "mancala_cli.rules.board" for name in ("NORTH", "SOUTH", "Board", "other")},
    **{name: "mancala_cli.rules.position" for name in ("MutablePosition", "Position")},
    **{name: "mancala_cli.rules.counting" for name in ("divide", "perft")},
    "CORE": "mancala_cli.rules.selection",
    **{name: "mancala_cli.api" for name in ("Report", "annotate", "check", "page", "read", "write")},
    "check_files": "mancala_cli.batch.runs",
    "copy_record": "notation.record",
    **{name: "mancala_cli.playing" for name in ("GamePosition", "Line", "MoveToken", "Solution", "solve")},
    **{name: "mancala_cli.drawing" for name in ("PngImage", "SvgDiagram", "TextBoard", "png", "sheet", "svg", "text")},
    **{name: "mancala_cli.errors" for name in ("BadArchive", "BadCoordinate", "BadImage", "BadMove", "BadQuery",
        "BadSheet", "PngUnavailable", "RenderError", "UnreadableInput", "UnwritableOutput")},
    **{name: "mancala_cli.positions" for name in ("BadPosition", "parse_position")},
    "format_position": "notation.position_strings",
    "random_game": "mancala_cli.random_records",
    "render": "mancala_cli.rendering",
    **{name: "mancala_cli.batch.conversion" for name in ("NotWritten", "write_files")},
    "stats_files": "mancala_cli.batch.statistics",
    "filter_files": "mancala_cli.batch.filtering",
    "annotate_files": "mancala_cli.batch.annotating",
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
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*__all__, *_LATER})  # every name, loaded or not
