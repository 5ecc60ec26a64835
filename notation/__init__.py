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
none.

    >>> from notation.position_strings import format_position, parse_position
    >>> from mancala_cli import get_game
    >>> game = get_game("kingulu")
    >>> format_position(game, parse_position(game, "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1"))
    '4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1'
"""
