"""What the language server answers, as plain functions of a
:class:`~.analysis.Document` and a place in it (0-based lines, code-point
columns): hover, completion, formatting, quick fixes and the outline.

Every answer about a move comes from the game's record read again from its
lines and replayed (:func:`view`): each move of the record, main line and
variations, with the position before it and after it, found by playing the
record's moves on a :class:`mancala_cli.Line` (the repetition history
counted). The position at the cursor, for completion, is the position after
the last move written before it, in the line of play the cursor is in: the
brackets ``(`` and ``)`` between that move and the cursor (outside
comments) say whether the cursor opened a variation of it (the position
before it) or closed one (the position after it again).
"""
from __future__ import annotations

import base64
import bisect
import re
from dataclasses import dataclass, field
from typing import cast

from notation.coords import STYLES, move_label
from notation.grammar import HOLE
from notation.record import RESULTS, MoveNode, Problem, walk

from .. import (
    GAME_IDS,
    Game as Rules,
    GamePosition,
    Line,
    MancalaError,
    Move,
    Position,
    Report,
    check,
    get_game,
    svg,
    text,
    write,
)
from .analysis import Diagnostic, Document, Game, Hint, problem_message, token_end

__all__ = ["Span", "TextEdit", "HoverInfo", "Completion", "Fix", "Symbol", "MoveInfo", "GameView", "view",
           "hover", "line_at", "completions", "format_document", "format_range", "code_actions", "symbols", "symbol_name",
           "TAGS", "VALUES"]

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

_MOVE = re.compile(rf"(?:{HOLE})(?:-(?:{HOLE}))?(?:x[0-9]+)?\^?")
_GLYPH = re.compile(r"[!?][!?]?")
_TAG_NAME_AT = re.compile(r"\s*\[\s*([A-Za-z0-9_]*)\Z")
_TAG_VALUE_AT = re.compile(r'\s*\[\s*([A-Za-z0-9_]+)\s*"([^"\\]*)\Z')
_WORD_BEFORE = re.compile(r"[A-Za-z0-9^-]*\Z")
_NUMBER_BEFORE = re.compile(r"([0-9]+)(\.\.\.|\.)\s*\Z")
#: Problems at a move that still let it be played (the others stop its line, as checking does).
_PLAYABLE = frozenset(("bad-mark", "bad-destination", "move-number"))


# -- answers -------------------------------------------------------------------------

@dataclass(frozen=True)
class Span:
    """A range of text: 0-based lines, code-point columns, the end exclusive."""

    line: int
    column: int
    end_line: int
    end_column: int


@dataclass(frozen=True)
class TextEdit:
    span: Span
    text: str


@dataclass(frozen=True)
class HoverInfo:
    """What hovering over a move shows: ``text`` (Markdown when
    ``markdown``, else plain text) and the move's span."""

    text: str
    span: Span
    markdown: bool


@dataclass(frozen=True)
class Completion:
    """One completion: ``kind`` is ``move``, ``result``, ``tag`` or
    ``value``; ``edit`` puts ``label``'s text in place of what is typed;
    ``snippet``, where given, is the same with placeholders (``$1``) for
    clients that take snippets."""

    label: str
    kind: str
    detail: str
    edit: TextEdit
    sort: str
    documentation: str | None = None
    snippet: str | None = None


@dataclass(frozen=True)
class Fix:
    """A quick fix: its title, its edits and the diagnostic it fixes (a
    problem of validate's, or the server's hint where a move number is
    missing)."""

    title: str
    edits: list[TextEdit]
    diagnostic: Diagnostic | None
    preferred: bool = True


@dataclass(frozen=True)
class Symbol:
    """A game in the outline: ``span`` its lines, ``selection`` its first line."""

    name: str
    detail: str
    span: Span
    selection: Span


# -- a game's moves and positions ------------------------------------------------------

@dataclass(eq=False)
class MoveInfo:
    """A move of a record where it is written (``line``, ``column`` 0-based;
    ``token_end`` after its marks, ``end`` after its glyph), with its ply,
    side, move number and depth (0 on the main line), the position before
    it and, when it could be played, the :class:`Move` and the position
    after it; ``prev`` is the move played before it (``None`` for the first
    move from the start), ``first`` that it opens its line of play."""

    node: MoveNode
    ply: int
    side: str
    number: int
    depth: int
    line: int
    column: int
    token_end: int
    end: int
    before: Position | None
    move: Move | None = None
    after: Position | None = None
    prev: MoveInfo | None = None
    first: bool = False
    problems: list[Problem] = field(default_factory=list)


class GameView:
    """A game of a document read again and replayed: its record, the
    :class:`~mancala_cli.Report` of :func:`mancala_cli.check`, the rules
    (``None`` when it cannot be replayed), its start, its coordinate style,
    and every move (:class:`MoveInfo`) in the order written, with the
    walk's events (``move``, ``begin`` and ``end`` of variations)."""

    def __init__(self, doc: Document, game: Game) -> None:
        self.game = game
        self.record = doc.record_of(game)
        self.report: Report = check(self.record)
        self.rules: Rules | None = self.report.game
        self.start: Position | None = self.report.positions[0].position if self.report.positions else None
        style = self.record.tag("Coordinates")
        self.style = style if style in STYLES else "algebraic"
        self.moves: list[MoveInfo] = []
        self.events: list[tuple[str, MoveInfo]] = []
        self._replay(doc)
        self._keys = [(info.line, info.column) for info in self.moves]

    def _replay(self, doc: Document) -> None:
        at: dict[tuple[int | None, int | None], list[Problem]] = {}
        for problem in self.report.problems:
            if problem.ply is not None:
                at.setdefault((problem.line, problem.column), []).append(problem)
        rules, start = self.rules, self.start
        side, number = (start.side, start.move_number) if start is not None else ("S", 1)
        current: Line | None = Line(rules, start) if rules is not None and start is not None else None
        prev: MoveInfo | None = None
        first = True
        branches: dict[int, tuple[Line | None, MoveInfo | None]] = {}
        stack: list[tuple[Line | None, MoveInfo | None]] = []
        infos: dict[int, MoveInfo] = {}
        for step in walk(self.record, side=side, number=number):
            node = step.node
            if step.kind == "move":
                line0 = (node.line or 1) - 1
                column0 = (node.column or 1) - 1
                written = doc.line(line0)
                found = _MOVE.match(written, column0)
                stop = found.end() if found else token_end(written, column0)
                glyph = _GLYPH.match(written, stop)
                info = MoveInfo(node, step.ply, step.side, step.number, step.depth, line0, column0, stop,
                                glyph.end() if glyph else stop, current.position if current is not None else None,
                                prev=prev, first=first, problems=at.get((node.line, node.column), []))
                first = False
                if node.variations:
                    branches[id(node)] = (cast(Line, current.copy()) if current is not None else None, prev)
                if current is not None:
                    if any(p.severity == "error" and p.code not in _PLAYABLE for p in info.problems):
                        current = None
                    else:
                        try:
                            info.move = current.play(node.hole)
                            info.after = current.position
                        except MancalaError:
                            current = None
                infos[id(node)] = info
                self.moves.append(info)
                self.events.append(("move", info))
                prev = info
            elif step.kind == "begin":
                stack.append((current, prev))
                branch, prev = branches[id(node)]
                current = cast(Line, branch.copy()) if branch is not None else None
                first = True
                self.events.append(("begin", infos[id(node)]))
            else:
                current, prev = stack.pop()
                first = False
                self.events.append(("end", infos[id(node)]))

    def move_at(self, line0: int, column0: int) -> MoveInfo | None:
        """The move whose token (glyph included) holds the place, or ends there."""
        index = bisect.bisect_right(self._keys, (line0, column0)) - 1
        if index >= 0:
            info = self.moves[index]
            if info.line == line0 and info.column <= column0 <= info.end:
                return info
        return None

    def line_after(self, info: MoveInfo | None) -> Line | None:
        """The game played from its start up to ``info`` (``None``: the start
        itself), the repetition history counted; ``None`` when a move on the
        way cannot be played."""
        if self.rules is None or self.start is None:
            return None
        path = []
        while info is not None:
            path.append(info)
            info = info.prev
        line = Line(self.rules, self.start)
        for step in reversed(path):
            if step.move is None:
                return None
            line.play(step.move.origin)
        return line


def view(doc: Document, game: Game) -> GameView:
    """The :class:`GameView` of ``game``, kept until the document changes."""
    key = id(game)
    found = doc.views.get(key)
    if isinstance(found, GameView) and found.game is game:
        return found
    made = GameView(doc, game)
    if len(doc.views) >= 8:
        doc.views.pop(next(iter(doc.views)))
    doc.views[key] = made
    return made


# -- hover -------------------------------------------------------------------------------

def _marks(rules: Rules, move: Move) -> list[str]:
    """What the move's outcome marks say, with the rules behind them."""
    out = []
    if move.captured:
        n = move.captured
        if rules.id == "kingulu":
            out.append(f"`x{n}`: the lap ended in an empty hole of the mover's row: the {n} seed{_s(n)} of the "
                       "facing hole and the capturing seed go to the store (KG-5)")
        elif rules.id == "kimasai-mackay":
            out.append(f"`x{n}`: cattle raids took {n} seed{_s(n)} in all from the opponent's holes facing "
                       "the laps' ends, sown on from there (KM-8)")
        elif rules.id == "kimasai-klamroth":
            what = "the opposite front stone" if n == 1 else "the opposite front stone and the one behind it"
            out.append(f"`x{n}`: stepping into the front row captured {what} (KK-3)")
        else:
            out.append(f"`x{n}`: the move took {n}")
    if move.reserved:
        out.append("`^`: the lap ended in an unreserved hole of the opponent that held 3 seeds: it is reserved "
                   "(kuweka mtoto): never lifted again, its seeds the mover's (KG-4, KG-6)")
    if not out:
        out.append("no outcome mark: the move takes nothing" + (" and reserves no hole" if rules.has_reserved_holes
                                                                 else ""))
    return out


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def _board(rules: Rules, position: Position, move: Move | None, title: str, markdown: bool,
           images: bool) -> list[str]:
    board = str(text(GamePosition(rules, position), last_move=move))
    if not markdown:
        return [f"{title}:", board, ""]
    out = [f"**{title}**", "", "```text", board, "```", ""]
    if images:
        picture = str(svg(GamePosition(rules, position), last_move=move, title=title))
        encoded = base64.b64encode(picture.encode("utf-8")).decode("ascii")
        out += [f"![{title}](data:image/svg+xml;base64,{encoded})", ""]
    return out


def hover(doc: Document, line0: int, column0: int, *, markdown: bool = True, images: bool = True) -> HoverInfo | None:
    """What hovering at the place shows: for a move, the move (number, side,
    ply), its outcome marks explained with their rule ids, its problems
    (rule ids and messages), and the positions before and after it as text
    boards (and, with ``markdown`` and ``images``, as SVG diagrams)."""
    if doc.too_large:
        return None
    game = doc.game_at(line0)
    if game is None:
        return None
    seen = view(doc, game)
    info = seen.move_at(line0, column0)
    if info is None:
        return None
    rules = seen.rules
    written = info.node.text
    label = move_label(info.number, info.side)
    who = "South" if info.side == "S" else "North"
    where = "main line" if info.depth == 0 else f"variation, depth {info.depth}"
    bold = "**" if markdown else ""
    out = [f"{bold}{label} {written}{bold} — {who}'s move, ply {info.ply} ({where})", ""]
    if rules is not None and info.move is not None:
        played = str(Line(rules, info.before).token(info.move, seen.style,
                                                   long_form=info.node.destination is not None))
        if played != written:
            out += [f"written {written}, but the move is {played}", ""]
        out += [f"- {line}" if markdown else f"- {line}".replace("`", "") for line in _marks(rules, info.move)]
        if rules.id != "kimasai-klamroth":
            out.append(f"- sown in {info.move.laps} lap{_s(info.move.laps)}")
        out.append("")
    for problem in info.problems:
        out += [f"- {bold}{problem.code}{bold} ({problem.severity}): {problem_message(problem)}"]
    if info.problems:
        out.append("")
    if rules is not None and info.before is not None:
        out += _board(rules, info.before, None, "Before", markdown, images)
    if rules is not None and info.after is not None:
        out += _board(rules, info.after, info.move, "After", markdown, images)
        ended = GamePosition(rules, info.after).outcome()
        if ended is not None:
            out.append(f"The game ends: {ended.result} ({ended.reason}: {ended.message})")
    return HoverInfo("\n".join(out).rstrip() + "\n", Span(info.line, info.column, info.line, info.end), markdown)


# -- completion --------------------------------------------------------------------------

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


def _movetext_brackets(doc: Document, game: Game, line0: int, column0: int) -> list[tuple[int, int, str]] | None:
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
    index = bisect.bisect_left(seen._keys, (line0, column0)) - 1
    if index < 0:
        return seen.line_after(None)
    last = seen.moves[index]
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
    after the result, a game that cannot be replayed, or a move on the way
    that cannot be played). The place is before what is typed there: a
    move token that starts at it is not played."""
    if doc.too_large or doc.line(line0).lstrip().startswith("["):
        return None
    game = doc.game_at(line0)
    if game is None:
        return None
    seen = view(doc, game)
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
    for index, move in enumerate(line.legal_moves()):
        token = str(line.token(move, seen.style))
        after = GamePosition(rules, line.position).play(move)
        detail = "; ".join(_marks(rules, move)).replace("`", "")
        out.append(Completion(token, "move", detail, _replacing(line0, start, column0, token), f"{index:03d}",
                              documentation=f"position after: {after}"))
    ended = line.outcome()
    if not out and ended is not None:
        out.append(Completion(ended.result, "result", f"the game is over: {ended.reason}: {ended.message}",
                              _replacing(line0, start, column0, ended.result), "000"))
    return out


# -- formatting ----------------------------------------------------------------------------

def _canonical(doc: Document, game: Game) -> str:
    """The game as ``mancala convert --to pmn`` writes it (in its own
    coordinate style), without the last line end."""
    record = doc.record_of(game)
    style = record.tag("Coordinates")
    written = write(record, coords=style if style in STYLES else "algebraic")
    assert written is not None
    return written.rstrip("\n")


def _break(doc: Document) -> str:
    return "\r\n" if doc.lines[0].endswith("\r\n") else "\n"


def _game_edit(doc: Document, game: Game) -> TextEdit | None:
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


# -- quick fixes ---------------------------------------------------------------------------

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
            fixes += _problem_fixes(doc, view(doc, game), line0, end_line0)
        fixes += [_fix_missing_number(doc, diagnostic, hint) for diagnostic, hint in doc.hints(game)
                  if line0 <= diagnostic.line <= end_line0]
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


# -- the outline ---------------------------------------------------------------------------

def symbol_name(game: Game, index: int) -> str:
    """``Event, Round: South – North`` from the game's tags, as many parts
    as it has (``Game N`` when it has none)."""
    head = ", ".join(value for value in (game.tag("Event"), game.tag("Round")) if value)
    south, north = game.tag("South"), game.tag("North")
    players = f"{south or '?'} – {north or '?'}" if south or north else ""
    name = f"{head}: {players}" if head and players else head or players
    return name.strip() or f"Game {index}"


def symbols(doc: Document) -> list[Symbol]:
    """One symbol per game, in order: its name from its tags, the game id
    (``Game`` tag) and result as detail, its lines as range."""
    if doc.too_large:
        return []
    out = []
    for index, game in enumerate(doc.all_games(), 1):
        last = game.end - 1
        detail = " ".join(part for part in (game.game or game.tag("Game") or "unknown game", game.result) if part)
        first = game.start - 1
        out.append(Symbol(symbol_name(game, index), detail, Span(first, 0, last, len(doc.line(last))),
                          Span(first, 0, first, len(doc.line(first)))))
    return out

