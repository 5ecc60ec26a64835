"""Completion (:func:`completions`): tag names, the values of the tags
that take few, and in movetext the legal moves of the position reached at
the cursor (:func:`line_at`), or the result where the game is over.

The position at the cursor is the position after the last move written
before it, in the line of play the cursor is in: the brackets ``(`` and
``)`` between that move and the cursor (outside comments) say whether the
cursor opened a variation of it (the position before it) or closed one
(the position after it again).
"""
from __future__ import annotations

import re

from .. import GAME_IDS, GamePosition, Line, get_game
from .analysis import Document, DocumentGame
from .answers import Completion, Span, TextEdit
from .hover import outcome_marks
from .replay import GameView, TooManyMoves, view

__all__ = ["completions", "line_at", "TAGS", "VALUES"]

#: The tags of docs/notation.md, in the canonical order, with what they hold.
TAGS = {
    "Game": "the game: kimasai-mackay, kimasai-klamroth or kingulu",
    "Event": "the event (free text)",
    "Site": "where it was played (free text)",
    "Date": "YYYY.MM.DD, ?? for unknown parts",
    "Round": "the round (free text)",
    "South": "South's player",
    "North": "North's player",
    "Result": "1-0 (South won), 0-1 (North won), 1/2-1/2 or * (unfinished or unknown)",
    "Setup": "a position string: the game starts there",
    "Coordinates": "algebraic (default), numeric or relative",
    "Termination": "how the game ended (free text)",
    "Score": "kingulu: the final score S-N, e.g. 26-22",
    "Annotator": "who annotated the game (free text)",
    "Source": "where the record comes from (free text)",
}

#: The values a tag can take, where they are few.
VALUES = {
    "Game": {game: get_game(game).name for game in GAME_IDS},
    "Coordinates": {"algebraic": "c2 (the default)", "numeric": "11", "relative": "S11, N3"},
    "Result": {"1-0": "South won", "0-1": "North won", "1/2-1/2": "a draw", "*": "unfinished or unknown"},
}

_TAG_NAME_AT = re.compile(r"\s*\[\s*([A-Za-z0-9_]*)\Z")
_TAG_VALUE_AT = re.compile(r'\s*\[\s*([A-Za-z0-9_]+)\s*"([^"\\]*)\Z')
_WORD_BEFORE = re.compile(r"[A-Za-z0-9^-]*\Z")


def _replacing(line0: int, start: int, column0: int, new: str) -> TextEdit:
    return TextEdit(Span(line0, start, line0, column0), new)


def _tag_names(doc: Document, line0: int, column0: int, typed: str) -> list[Completion]:
    game = doc.game_at(line0)
    present = {name for name, _ in game.tags} if game is not None else set()
    rest = doc.line(line0)[column0:].strip()
    close = "" if rest.startswith("]") else "]"
    out = []
    for index, (name, meaning) in enumerate(TAGS.items()):
        if name in present:
            continue
        snippet = f'{name} "$1"{close}$0' if rest in ("", "]") else None
        out.append(Completion(name, "tag", meaning, _replacing(line0, column0 - len(typed), column0, name),
                              f"{index:02d}", snippet=snippet))
    return out


def _tag_values(line0: int, column0: int, name: str, typed: str) -> list[Completion]:
    values = VALUES.get(name, {})
    return [Completion(value, "value", meaning, _replacing(line0, column0 - len(typed), column0, value), f"{i:02d}")
            for i, (value, meaning) in enumerate(values.items())]


def _movetext_brackets(doc: Document, game: DocumentGame, line0: int, column0: int) -> list[tuple[int, int, str]] | None:
    """The ``(`` and ``)`` of the game's movetext before the place (0-based
    line and column each), outside comments and tag lines; ``None`` when the
    place is inside a comment."""
    found: list[tuple[int, int, str]] = []
    in_comment = False
    for index in range(game.start - 1, line0 + 1):
        written = doc.line(index)
        limit = column0 if index == line0 else len(written)
        at = 0
        if not in_comment and written.lstrip().startswith("["):
            continue
        while at < limit:
            if in_comment:
                close = written.find("}", at, limit)
                if close < 0:
                    break
                in_comment = False
                at = close + 1
                continue
            char = written[at]
            if char == "{":
                in_comment = True
            elif char == ";":
                if index == line0:
                    return None
                break
            elif char in "()":
                found.append((index, at, char))
            at += 1
    return None if in_comment else found


def _context(seen: GameView, doc: Document, line0: int, column0: int) -> Line | None | bool:
    """The game played up to the place (a :class:`Line`), ``None`` when a
    move on the way cannot be played, ``False`` where no move goes (inside a
    comment, after the result)."""
    result_at = seen.record.result_at
    if result_at is not None and (line0, column0) > (result_at[0] - 1, result_at[1] - 1):
        return False
    brackets = _movetext_brackets(doc, seen.game, line0, column0)
    if brackets is None:
        return False
    last = seen.last_move_before(line0, column0)
    if last is None:
        return seen.line_after(None)
    after = [char for line, column, char in brackets if (line, column) >= (last.line, last.token_end)]
    events = seen.events
    position = next(i for i, (kind, info) in enumerate(events) if kind == "move" and info is last)
    state = ("move", last)
    for char in after:
        if position + 1 < len(events) and events[position + 1][0] == ("begin" if char == "(" else "end"):
            position += 1
            state = events[position]
        else:
            break
    kind, info = state
    if kind == "begin":
        return seen.line_after(info.prev)
    return seen.line_after(info)


def line_at(doc: Document, line0: int, column0: int) -> tuple[Line, GameView] | None:
    """The game played up to the place, in the line of play the place is
    in (a :class:`mancala_cli.Line`: its position, moves and history), and
    the game's view; ``None`` where no move goes (a tag line, a comment,
    after the result, a game that cannot be replayed or has more moves
    than :data:`~.replay.MAX_VIEW_MOVES`, or a move on the way that cannot
    be played). The place is before what is typed there: a
    move token that starts at it is not played."""
    if doc.too_large or doc.line(line0).lstrip().startswith("["):
        return None
    game = doc.game_at(line0)
    if game is None:
        return None
    try:
        seen = view(doc, game)
    except TooManyMoves:
        return None
    if seen.rules is None or seen.start is None:
        return None
    line = _context(seen, doc, line0, min(column0, len(doc.line(line0))))
    return (line, seen) if isinstance(line, Line) else None


def completions(doc: Document, line0: int, column0: int) -> list[Completion]:
    """What can be written at the place: a tag name after ``[``; a game id,
    coordinate style or result in ``[Game "``, ``[Coordinates "``,
    ``[Result "``; in movetext, the legal moves of the position reached
    there in the record's coordinate style, with their outcome marks (the
    result where the game is over)."""
    if doc.too_large:
        return []
    written = doc.line(line0)
    column0 = min(column0, len(written))
    before = written[:column0]
    found = _TAG_NAME_AT.match(before)
    if found:
        return _tag_names(doc, line0, column0, found.group(1))
    found = _TAG_VALUE_AT.match(before)
    if found:
        return _tag_values(line0, column0, found.group(1), found.group(2))
    if before.lstrip().startswith("["):
        return []
    typed = _WORD_BEFORE.search(before)
    start = column0 - len(typed.group()) if typed else column0
    found_line = line_at(doc, line0, start)
    if found_line is None:
        return []
    line, seen = found_line
    rules = line.game
    out = []
    for index, move in enumerate(token.move for token in line.legal_moves()):
        token = str(line.token(move, seen.style))
        after = GamePosition(rules, line.position).play(move)
        detail = "; ".join(outcome_marks(rules, move)).replace("`", "")
        out.append(Completion(token, "move", detail, _replacing(line0, start, column0, token), f"{index:03d}",
                              documentation=f"position after: {after}"))
    ended = line.outcome()
    if not out and ended is not None:
        out.append(Completion(ended.result, "result", f"the game is over: {ended.reason}: {ended.message}",
                              _replacing(line0, start, column0, ended.result), "000"))
    return out

