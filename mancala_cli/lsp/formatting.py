"""Formatting: the edits that make a document, or the games a range of it
touches, what ``mancala convert --to pmn`` writes of it
(:func:`format_document`, :func:`format_range`).
"""
from __future__ import annotations

from notation.coords import STYLES

from .. import write
from .analysis import Document, DocumentGame
from .answers import Span, TextEdit

__all__ = ["format_document", "format_range"]


def _canonical(doc: Document, game: DocumentGame) -> str:
    """The game as ``mancala convert --to pmn`` writes it (in its own
    coordinate style), without the last line end."""
    record = doc.record_of(game)
    style = record.tag("Coordinates")
    written = write(record, coords=style if style in STYLES else "algebraic")
    assert written is not None
    return written.rstrip("\n")


def _break(doc: Document) -> str:
    return "\r\n" if doc.lines[0].endswith("\r\n") else "\n"


def _game_edit(doc: Document, game: DocumentGame) -> TextEdit | None:
    """The edit that writes ``game`` canonically, if it is valid and not canonical already."""
    if not game.valid or game.canonical:
        return None
    new = _canonical(doc, game)
    old = "\n".join(doc.line(i) for i in range(game.start - 1, game.end))
    if new == old:
        game.canonical = True  # (until an edit makes it a game read again)
        return None
    last = game.end - 1
    return TextEdit(Span(game.start - 1, 0, last, len(doc.line(last))), new.replace("\n", _break(doc)))


def format_document(doc: Document) -> list[TextEdit]:
    """The edits that make the document what ``mancala convert --to pmn``
    writes of it (in its own line ends): each game written canonically, one
    blank line between games, none before the first, one line end after
    the last. A game with an error is left as it is, and so are the blank
    lines next to it: writing it canonically could lose text (an
    unterminated comment that swallowed moves), as ``convert`` refuses to
    replace an input with errors."""
    if doc.too_large:
        return []
    games = doc.all_games()
    if not games:
        return []
    brk = _break(doc)
    edits: list[TextEdit] = []
    first = games[0]
    if first.valid and first.start > 1:
        edits.append(TextEdit(Span(0, 0, first.start - 1, 0), ""))
    for index, game in enumerate(games):
        edit = _game_edit(doc, game)
        if edit is not None:
            edits.append(edit)
        following = games[index + 1] if index + 1 < len(games) else None
        if not game.valid or (following is not None and not following.valid):
            continue
        last = game.end - 1
        end = len(doc.line(last))
        if following is not None:  # one blank line between games
            span, wanted = Span(last, end, following.start - 1, 0), brk + brk
            between = doc.lines[last + 1:following.start - 1]
        else:  # one line end after the last
            span, wanted = Span(last, end, len(doc.lines) - 1, len(doc.line(len(doc.lines) - 1))), brk
            between = doc.lines[last + 1:]
        if doc.lines[last][end:] + "".join(between) != wanted:
            edits.append(TextEdit(span, wanted))
    return edits


def format_range(doc: Document, line0: int, end_line0: int) -> list[TextEdit]:
    """The edits that write canonically the valid games that lines
    ``line0`` to ``end_line0`` touch (whole games: a part of a game has no
    canonical form of its own)."""
    if doc.too_large:
        return []
    edits = []
    for game in doc.games_between(line0, end_line0):
        if game.start - 1 <= end_line0 and game.end - 1 >= line0:
            edit = _game_edit(doc, game)
            if edit is not None:
                edits.append(edit)
    return edits
