"""The record layer: game records (:mod:`.record`, with the one walk over
their moves), coordinates (:mod:`.coords`), position strings
(:mod:`.position`), and one module per format: PMN (:mod:`.pmn`, with its
grammar in :mod:`.grammar`; its reader and writer in the ``pmn_`` modules),
JSON Lines (:mod:`.jsonl`) and XML archives (:mod:`.xml`, with the ``xml_``
modules). It knows no rules: of a game it needs only plain facts (its
id, rows and columns, whether holes can be reserved), and it imports nothing
from :mod:`mancala_cli`. See ``docs/notation.md``.

Each name is imported from the module that defines it, as
``from notation.record import GameRecord, walk``; the package itself holds
none (``from notation import NAME`` still works for this release, with a
``DeprecationWarning``).

    >>> from notation.position import format_position, parse_position
    >>> from mancala_cli import get_game
    >>> game = get_game("kingulu")
    >>> format_position(game, parse_position(game, "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1"))
    '4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1'
"""
from __future__ import annotations

import importlib
import warnings
from typing import Any

#: The names this package gave before each was imported from its own module,
#: kept for one release: where each lives now.
_MOVED = {
    **{name: "coords" for name in ("STYLES", "Side", "format_hole", "format_move", "move_label", "parse_hole",
                                   "parse_move_token")},
    **{name: "errors" for name in ("CoordinateError", "NotationError", "PositionError")},
    **{name: "position" for name in ("BoardFacts", "PositionFields", "format_position", "parse_position")},
    **{name: "record" for name in ("BEGIN", "END", "MOVE", "SKIP", "GameRecord", "MoveNode", "Problem", "SkipType",
                                   "Step", "Visitor", "copy_record", "visit", "walk")},
    **{name: "pmn" for name in ("read_game", "read_games", "write_game", "write_games")},
}


def __getattr__(name: str) -> Any:
    """An old name, from its module, with a warning that says where it lives
    (PEP 562's deprecation hook)."""
    module = _MOVED.get(name)
    if module is None:
        raise AttributeError(f"module 'notation' has no attribute {name!r}")
    warnings.warn(f"notation.{name} is deprecated: import it from notation.{module}", DeprecationWarning,
                  stacklevel=2)
    return getattr(importlib.import_module(f".{module}", __name__), name)
