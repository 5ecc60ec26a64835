"""Quick fixes (:func:`code_actions`): the edits that fix a diagnostic on
the lines asked about, where there is one (a wrong outcome mark or
destination, a missing result, a move number, an unterminated comment, a
missing move number).
"""
from __future__ import annotations

import re

from notation.coords import move_label
from notation.record import RESULTS, Problem

from .. import Line
from .analysis import Diagnostic, Document, problem_message, token_end
from .answers import Fix, Span, TextEdit
from .hints import Hint
from .replay import GameView, TooManyMoves, view

__all__ = ["code_actions"]

_NUMBER_BEFORE = re.compile(r"([0-9]+)(\.\.\.|\.)\s*\Z")


def _diagnostic(doc: Document, problem: Problem) -> Diagnostic:
    line0 = (problem.line or 1) - 1
    column0 = (problem.column or 1) - 1
    if line0 == 0 and doc.lines[0].startswith("\ufeff"):
        column0 += 1
    return Diagnostic(line0, column0, line0, token_end(doc.line(line0), column0), problem.severity, problem.code,
                      problem_message(problem))


def _fix_marks(seen: GameView, problem: Problem, diagnostic: Diagnostic) -> Fix | None:
    info = seen.move_at(diagnostic.line, diagnostic.column)
    if info is None or info.move is None or seen.rules is None or info.before is None:
        return None
    right = str(Line(seen.rules, info.before).token(info.move, seen.style,
                                                   long_form=info.node.destination is not None))
    edit = TextEdit(Span(info.line, info.column, info.line, info.token_end), right)
    return Fix(f"Write {right}: the move as it is played", [edit], diagnostic)


def _fix_result(doc: Document, seen: GameView, diagnostic: Diagnostic) -> list[Fix]:
    ended = seen.report.outcome
    tag = seen.record.tag("Result")
    result = ended.result if ended is not None else tag if tag in RESULTS else "*"
    written = doc.line(diagnostic.line)
    if written.lstrip().startswith("["):
        insert = "\n\n" + result
    else:
        insert = (" " if diagnostic.column > 0 else "") + result
    at = Span(diagnostic.line, diagnostic.column, diagnostic.line, diagnostic.column)
    fixes = [Fix(f"Add the result {result}", [TextEdit(at, insert)], diagnostic)]
    if any(p.code == "syntax" and p.message.startswith("unterminated comment") for p in seen.record.problems):
        fixes = [Fix(f"Close the comment here and add the result {result}", [TextEdit(at, "} " + result)],
                     diagnostic, preferred=False)]
    return fixes


def _fix_number(doc: Document, seen: GameView, problem: Problem, diagnostic: Diagnostic) -> Fix | None:
    written = doc.line(diagnostic.line)
    if problem.ply is None:  # a move number that no move follows
        span = Span(diagnostic.line, diagnostic.column, diagnostic.line, diagnostic.end_column)
        return Fix(f"Remove the move number {written[diagnostic.column:diagnostic.end_column]}",
                   [TextEdit(span, "")], diagnostic)
    info = seen.move_at(diagnostic.line, diagnostic.column)
    if info is None:
        return None
    number = _NUMBER_BEFORE.search(written, 0, info.column)
    if number is None:
        return None
    label = move_label(info.number, info.side)
    span = Span(info.line, number.start(), info.line, number.end(2))
    return Fix(f"Write the move number {label}", [TextEdit(span, label)], diagnostic)


def _fix_comment(doc: Document, diagnostic: Diagnostic) -> Fix:
    end = len(doc.line(diagnostic.line))
    span = Span(diagnostic.line, end, diagnostic.line, end)
    return Fix("Close the comment at the end of its line", [TextEdit(span, "}")], diagnostic)


def _fix_missing_number(doc: Document, diagnostic: Diagnostic, hint: Hint) -> Fix:
    """The move number canonical writing puts before the move of the hint
    (``3. `` before ``c1``, as ``3. c1`` is written), and a space before it
    where the move is glued to what comes before it (a comment's ``}``)."""
    at = Span(diagnostic.line, diagnostic.column, diagnostic.line, diagnostic.column)
    before = doc.line(diagnostic.line)[:diagnostic.column]
    glued = bool(before) and not before[-1].isspace() and before[-1] != "("
    return Fix(f"Add the move number {hint.label}", [TextEdit(at, (" " if glued else "") + hint.label + " ")],
               diagnostic)


#: The problems that have a quick fix (``syntax``: an unterminated comment).
_FIXABLE = frozenset(("bad-mark", "bad-destination", "missing-result", "move-number", "syntax"))


def code_actions(doc: Document, line0: int, end_line0: int) -> list[Fix]:
    """The quick fixes for the diagnostics on lines ``line0`` to
    ``end_line0``: a wrong outcome mark or destination (``bad-mark``,
    ``bad-destination``: the move as played), a missing result
    (``missing-result``: the result the rules ended the game with, else the
    ``Result`` tag's, else ``*``), a move number that does not fit or that
    no move follows (``move-number``), an unterminated comment (closed at
    the end of its line); and the server's hints (``no-move-number``: the
    move number canonical writing puts there). Only the games with a
    fixable problem in the range are replayed; a hint's fix is made from
    the hint alone."""
    if doc.too_large:
        return []
    fixes: list[Fix] = []
    for game in doc.games_between(line0, end_line0):
        if any(line0 <= d.line <= end_line0 and d.code in _FIXABLE for d in doc.game_diagnostics(game)):
            try:
                fixes += _problem_fixes(doc, view(doc, game), line0, end_line0)
            except TooManyMoves:
                pass  # (not replayed: its hints' fixes alone)
        fixes += [_fix_missing_number(doc, diagnostic, hint) for diagnostic, hint in doc.hints(game)
                  if line0 <= diagnostic.line <= end_line0 and not hint.more]
    return fixes


def _problem_fixes(doc: Document, seen: GameView, line0: int, end_line0: int) -> list[Fix]:
    """The fixes of the problems of a game that are on lines ``line0`` to ``end_line0``."""
    fixes: list[Fix] = []
    for problem in seen.report.problems:
        if problem.code not in _FIXABLE:
            continue
        diagnostic = _diagnostic(doc, problem)
        if not line0 <= diagnostic.line <= end_line0:
            continue
        if problem.code in ("bad-mark", "bad-destination"):
            fix = _fix_marks(seen, problem, diagnostic)
            fixes += [fix] if fix else []
        elif problem.code == "missing-result":
            fixes += _fix_result(doc, seen, diagnostic)
        elif problem.code == "move-number":
            fix = _fix_number(doc, seen, problem, diagnostic)
            fixes += [fix] if fix else []
        elif problem.message.startswith("unterminated comment"):
            fixes.append(_fix_comment(doc, diagnostic))
    return fixes
