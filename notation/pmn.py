"""Reading and writing PMN (docs/notation.md: "A record", "Canonical writing").

:func:`read_games` streams the games of a file one at a time, holding only
the current game; it never raises on bad input: every syntax problem becomes
a :class:`~notation.record.Problem` (``code="syntax"``, 1-based line and
column) of the game where it was found, and reading resynchronises at the
next game. :func:`write_game` gives the canonical text of a record.

    >>> from notation.pmn import read_game, write_game
    >>> record = read_game('[Game "kingulu"]\\n\\n1. d1x6 {empty hole} d2x10 2. f1^ *\\n')
    >>> [(m.hole, m.captured, m.reserved, m.comment) for m in record.moves]
    [('d1', 6, False, 'empty hole'), ('d2', 10, False, None), ('f1', None, True, None)]
    >>> print(write_game(record), end="")
    [Game "kingulu"]
    <BLANKLINE>
    1. d1x6 {empty hole} 1... d2x10 2. f1^ *

Game boundaries: a game starts at its first non-blank line. It ends at a
blank line after its result token, at a line that starts with ``[`` after its
movetext (a new tag section, blank line or not), and at a line that starts
with ``[`` after a blank line anywhere — even inside an unterminated comment
or variation, so that a mistake never swallows the next game.

The reader is a chain of modules, each building on the one before:
:mod:`notation.pmn_tags` (a game's tag section and its problems),
:mod:`notation.pmn_movetext` (its movetext) and :mod:`notation.pmn_reader`
(cutting lines into games); the writer is :mod:`notation.pmn_writer`. This
module is their public face; the writer's names load when first asked for
(reading a file does not load the writer).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .pmn_reader import MAX_GAME_LINES, MAX_GAME_TEXT, after_tag_line, read_game, read_games
from .record import MAX_PROBLEMS, MAX_TAG_VALUE

if TYPE_CHECKING:
    from .pmn_writer import WIDTH, unheld, unreadable as unreadable, write_game, write_games

#: The names of :mod:`notation.pmn_writer` that this module gives
#: (``unreadable``: the check :mod:`mancala_cli.files.writing` makes of what it wrote).
_WRITER = frozenset(("WIDTH", "unheld", "unreadable", "write_game", "write_games"))


def __getattr__(name: str) -> object:
    if name not in _WRITER:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import pmn_writer  # (local: reading, validate's path, does not load the writer)

    value: object = getattr(pmn_writer, name)
    globals()[name] = value
    return value

__all__ = ["read_games", "read_game", "write_game", "write_games", "unheld", "WIDTH", "MAX_PROBLEMS", "MAX_TAG_VALUE",
           "MAX_GAME_TEXT", "MAX_GAME_LINES", "after_tag_line"]
