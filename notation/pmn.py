"""Reading and writing PMN (docs/notation.md: "A record", "Canonical writing").

:func:`read_games` streams the games of a file one at a time, holding only
the current game; it never raises on bad input: every syntax problem becomes
a :class:`~notation.record.Problem` (``code="syntax"``, 1-based line and
column) of the game where it was found, and reading resynchronises at the
next game. :func:`write_game` gives the canonical text of a record.

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
"""
from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from typing import TextIO

from .coords import Side, move_label, move_token
from .grammar import PLAIN_LINE_RE, TAG_LINE_RE, TOKEN_RE, escape, unescape
from .record import (MAX_PROBLEMS, MAX_TAG_NAME, MAX_TAG_VALUE, MAX_VARIATION_DEPTH, MOVE, SEVEN_TAGS, GameRecord,
                     MoveNode, Problem, Step, Visitor, visit, walk)
from .tokenizer import kernel as _kernel

__all__ = ["read_games", "read_game", "write_game", "write_games", "unheld", "WIDTH", "MAX_PROBLEMS", "MAX_TAG_VALUE",
           "MAX_GAME_TEXT", "MAX_GAME_LINES"]

#: The longest text of one game, in characters, each line counted with one
#: for its line end (as long as the longest line, 4 MiB): past it the game
#: gets the error ``game-too-long`` and the rest of its text is passed over
#: up to the next line that starts with ``[`` after a blank line, so that
#: memory stays bounded whatever the input (docs/notation.md).
MAX_GAME_TEXT = 4 << 20
#: The most lines of one game (each line costs memory of its own, however
#: short): past them, as past :data:`MAX_GAME_TEXT`.
MAX_GAME_LINES = 100_000

#: Canonical movetext lines are at most this long (docs/notation.md, "Canonical writing").
WIDTH = 79

_TOKEN = TOKEN_RE
_PLAIN_LINE = PLAIN_LINE_RE.finditer
#: The native scanner of plain movetext (notation.tokenizer), or None.
_SCAN = None if _kernel is None else _kernel.scan
_TAG_LINE = TAG_LINE_RE.match
_TAG_START = re.compile(r"\s*\[").match
_TAG_NAME = re.compile(r"[A-Za-z0-9_]+")
_PLAIN_VALUE = re.compile(r'[^"\\]*+')
_SPACE = re.compile(r"\s*")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_DIGITS = re.compile(r"[0-9]{1,9}\Z")
#: Longest digit string read as a number (capture counts, NAGs, move numbers).
_MAX_DIGITS = 9

_BETWEEN, _TAGS, _MOVES, _DONE = range(4)

#: A "(" being read: the line it interrupts, the move it replaces, its line
#: and column, and the comments that were waiting for the next move.
_Frame = tuple[list[MoveNode], "MoveNode | None", int, int, "list[str] | None"]


# ---------------------------------------------------------------- reading


def _lines(source: TextIO | Iterable[str] | str) -> Iterator[str]:
    """The lines of ``source`` without their line ends (LF, CRLF or CR), BOM removed."""
    if isinstance(source, str):
        source = io.StringIO(source, newline="")
    first = True
    for raw in source:
        if first:
            first = False
            if raw.startswith("\ufeff"):
                raw = raw[1:]
        if raw.endswith("\n"):
            raw = raw[:-2] if raw.endswith("\r\n") else raw[:-1]
        elif raw.endswith("\r"):
            raw = raw[:-1]
        if "\r" in raw or "\n" in raw:
            yield from _LINE_BREAK.split(raw)
        else:
            yield raw


def _short(token: str) -> str:
    return repr(token if len(token) <= 40 else token[:37] + "...")


def _skip_space(line: str, p: int) -> int:
    """Where the white space of ``line`` from ``p`` on ends."""
    m = _SPACE.match(line, p)
    return m.end() if m else p


class _Reader:
    """The state of the game being read (one at a time)."""

    def __init__(self, file: str | None):
        self.file = file
        self.index = 0
        self.rec: GameRecord  # the game being read, while phase is not _BETWEEN
        self.phase = _BETWEEN
        # open multi-line comment: (line, column, parts)
        self.comment: tuple[int, int, list[str]] | None = None

    # -- game start and end

    def new_game_at_tag(self, line: str, lineno: int) -> None:
        """A tag line after a blank line ends the game being passed over (too
        long, or inside an unclosed comment): the next game starts with it."""
        self.start(lineno)
        self.phase = _TAGS
        self.tag_line(line, lineno)
        self.end = (lineno, len(line.rstrip()) + 1)

    def start(self, lineno: int) -> None:
        self.index += 1
        self.rec = GameRecord(file=self.file, index=self.index, line=lineno)
        self.cur: list[MoveNode] = self.rec.moves  # the line of play being read
        # one frame per open "(": (outer line, owner move, line, column, outer pending comment)
        self.stack: list[_Frame] = []
        self.before: list[str] | None = None  # comments waiting for the next move
        self.attach = False  # a comment now belongs to cur[-1]
        # comments of one move are gathered in a list and joined once (a
        # movetext of 100,000 comments must not take quadratic time)
        self.cnode: MoveNode | None = None
        self.cparts: list[str] = []
        self.number: tuple[int, str, int, int] | None = None  # (n, dots, line, column) waiting for its move
        self.comment = None
        self.after_result = False  # "text after the result token" reported
        self.too_deep = False  # "variations nested deeper than …" reported
        # "(" opened inside a variation nested too deep: skipped, only counted
        self.skipping = 0
        self.nproblems = 0
        self.nwarnings = 0
        self.end = (lineno, 1)  # just after the game's last text (for missing-result)
        self.size = 0  # the characters of the game's lines so far (MAX_GAME_TEXT)
        self.nlines = 0  # and its lines (MAX_GAME_LINES)
        self.over = False  # past MAX_GAME_TEXT: the rest of the game is passed over

    def finish(self) -> GameRecord:
        rec = self.rec
        if self.over:  # one error says it all; what was open stays open
            self.comment = None
            self.stack = []
            self.skipping = 0
            self.number = None
            self.flush_before(None)
            self.flush_node()
            return self.close(rec)
        if self.comment is not None:
            line, col, parts = self.comment
            self.comment = None
            while len(parts) > 1 and not parts[-1].strip():
                parts.pop()  # the blank lines that separate the games
            self.error("unterminated comment: '{' opened here is never closed", line, col, True)
            self.add_comment("\n".join(parts))
        if self.stack:
            self.unclosed()
        self.dangling_number()
        self.flush_before(None)
        self.flush_node()
        if rec.result is None:
            self.problem("error", "missing-result",
                         "the movetext has no result token (1-0, 0-1, 1/2-1/2 or *)", *self.end)
        return self.close(rec)

    def close(self, rec: GameRecord) -> GameRecord:
        if len(rec.problems) > 1:
            rec.problems.sort(key=lambda p: (p.line or 0, p.column or 0))
        del self.rec  # (the reader keeps no finished game)
        self.phase = _BETWEEN
        return rec

    # -- problems

    def problem(self, severity: str, code: str, message: str, line: int, col: int) -> None:
        """A problem other than a syntax error; after :data:`MAX_PROBLEMS`
        warnings one closing warning says so and the others are dropped."""
        if severity == "warning":
            self.nwarnings += 1
            if self.nwarnings > MAX_PROBLEMS:
                if self.nwarnings == MAX_PROBLEMS + 1:
                    self.rec.problems.append(Problem(
                        "warning", code, f"more than {MAX_PROBLEMS} warnings in this game; "
                        "the others are not reported", line, col))
                return
        self.rec.problems.append(Problem(severity, code, message, line, col))

    def error(self, message: str, line: int, col: int, always: bool = False) -> None:
        """A syntax error; after :data:`MAX_PROBLEMS` only the ``always`` ones
        (an unterminated comment or variation) are still reported."""
        self.nproblems += 1
        if self.nproblems <= MAX_PROBLEMS or always:
            self.rec.problems.append(Problem("error", "syntax", message, line, col))
        elif self.nproblems == MAX_PROBLEMS + 1:
            self.rec.problems.append(Problem(
                "error", "syntax", f"more than {MAX_PROBLEMS} syntax errors in this game; "
                "the others are not reported", line, col))

    def text_after_result(self, token: str, line: int, col: int) -> None:
        if not self.after_result:
            self.after_result = True
            self.error(f"text after the result token: {_short(token)}", line, col)

    def dangling_number(self) -> None:
        if self.number is not None:
            n, dots, line, col = self.number
            self.number = None
            self.problem("warning", "move-number", f"move number {n}{dots} is not followed by a move",
                         line, col)

    # -- comments and variations

    def add_comment(self, text: str) -> None:
        if self.attach:
            node = self.cur[-1]
            if node is not self.cnode:
                self.flush_node()
                self.cnode = node
                self.cparts = [] if node.comment is None else [node.comment]
            self.cparts.append(text)
        elif self.before is None:
            self.before = [text]
        else:
            self.before.append(text)

    def flush_node(self) -> None:
        if self.cnode is not None:
            self.cnode.comment = " ".join(self.cparts)
            self.cnode = None

    def flush_before(self, owner: MoveNode | None) -> None:
        """Comments waiting for a move that never came: they go to the line's
        last move, else to the variation's move, else to the record."""
        if self.before is None:
            return
        text = " ".join(self.before)
        self.before = None
        node = self.cur[-1] if self.cur else owner
        if node is None:
            rec = self.rec
            rec.comment = text if rec.comment is None else rec.comment + " " + text
        else:
            self.flush_node()
            node.comment = text if node.comment is None else node.comment + " " + text

    def close_variation(self, report_empty: bool) -> None:
        outer, owner, line, col, before = self.stack.pop()
        self.dangling_number()
        self.flush_before(owner)
        if self.cur:
            if owner is not None:
                owner.variations.append(self.cur)
        elif report_empty and owner is not None:
            self.error("empty variation", line, col)
        self.cur = outer
        self.before = before
        self.attach = False

    def unclosed(self) -> None:
        _, _, line, col, _ = self.stack[0]
        more = len(self.stack) - 1 + self.skipping
        self.skipping = 0
        self.error("unterminated variation: '(' opened here is never closed"
                   + (f" ({more} more inside it)" if more else ""), line, col, True)
        while self.stack:
            self.close_variation(False)

    # -- lines

    def tag_line(self, line: str, lineno: int) -> None:
        m = _TAG_LINE(line)
        if m is not None:
            if (m.end("value") - m.start("value") > MAX_TAG_VALUE
                    or m.end("name") - m.start("name") > MAX_TAG_NAME):
                self.long_tag(m.group("name") if m.end("name") - m.start("name") <= MAX_TAG_NAME else None,
                              m.start("name"), m.start("value"), m.end("value"), line, lineno)
                return
            name, value = m.group("name", "value")
            rec = self.rec
            rec.tags.append((name, unescape(value)))
            if name not in rec.tag_at:
                rec.tag_at[name] = (lineno, m.start("value") + 1)
            return
        self.careful_tag_line(line, lineno)

    def long_tag(self, name: str | None, name_at: int, start: int, end: int, line: str, lineno: int) -> None:
        """A tag whose name or written value is longer than the limits: an
        error unless the value, unescaped, is short enough after all."""
        if name is None:
            self.error(f"tag name longer than {MAX_TAG_NAME} characters: the tag is skipped", lineno,
                       name_at + 1)
            return
        if end - start <= 2 * MAX_TAG_VALUE:
            value = unescape(line[start:end])
            if len(value) <= MAX_TAG_VALUE:
                self.rec.tags.append((name, value))
                self.rec.tag_at.setdefault(name, (lineno, start + 1))
                return
        self.error(f"tag value longer than {MAX_TAG_VALUE} characters: the tag is skipped", lineno, start + 1)

    def careful_tag_line(self, line: str, lineno: int) -> None:
        """Tag pairs one by one, reporting exactly what is wrong; text after
        the last tag is movetext."""
        n = len(line)
        p: int | None = _skip_space(line, 0)
        while p is not None and p < n:
            if line[p] != "[":
                self.phase = _MOVES
                self.movetext(line, lineno, p)
                return
            p = self.careful_tag(line, lineno, p)

    def careful_tag(self, line: str, lineno: int, p: int) -> int | None:
        """The tag pair whose ``[`` is at ``p``: where the text after it
        starts, or ``None`` when an error ends the line's tags."""
        n = len(line)
        open_col = p + 1
        p = _skip_space(line, p + 1)
        m = _TAG_NAME.match(line, p)
        if m is None:
            if p >= n:
                self.error("unterminated tag: '[' opened here is never closed", lineno, open_col)
            else:
                self.error(f"tag name expected, found {line[p]!r}", lineno, p + 1)
            return None
        if m.end() - p > MAX_TAG_NAME:
            self.error(f"tag name longer than {MAX_TAG_NAME} characters: the tag is skipped", lineno, p + 1)
            return None
        name = m.group()
        p = _skip_space(line, m.end())
        if p >= n:
            self.error(f"unterminated tag: '[' opened here is never closed (no value for {name})",
                       lineno, open_col)
            return None
        if line[p] != '"':
            self.error(f"the value of tag {name} must be a double-quoted string", lineno, p + 1)
            return None
        quote_col = p + 1
        value, p = self.quoted_value(line, lineno, p + 1)
        if p >= n:
            self.unterminated_value(name, value, lineno, quote_col)
            return None
        self.careful_tag_value(name, value, lineno, quote_col)
        p = _skip_space(line, p + 1)
        if p >= n:
            self.error("unterminated tag: '[' opened here is never closed", lineno, open_col)
            return None
        if line[p] != "]":
            self.error(f"']' expected after the value of tag {name}, found {line[p]!r}",
                       lineno, p + 1)
            return None
        return _skip_space(line, p + 1)

    def quoted_value(self, line: str, lineno: int, p: int) -> tuple[str, int]:
        """The value of a tag from just after its ``"``, unescaped, and where
        it stops (its closing ``"``, or the line's end). Runs of plain
        characters are a match each; only the first MAX_TAG_VALUE + 1
        characters are kept."""
        n = len(line)
        chars: list[str] = []
        kept = 0
        while True:
            m = _PLAIN_VALUE.match(line, p)
            run = m.end() if m else p
            if run > p and kept <= MAX_TAG_VALUE:
                chars.append(line[p:min(run, p + MAX_TAG_VALUE + 1 - kept)])
                kept += len(chars[-1])
            p = run
            if p >= n or line[p] == '"':
                return "".join(chars), p
            # a backslash
            if p + 1 < n and line[p + 1] in '"\\':
                c = line[p + 1]
                p += 2
            else:
                self.error('invalid escape in a tag value (only \\" and \\\\)', lineno, p + 1)
                c = "\\"
                p += 1
            if kept <= MAX_TAG_VALUE:
                chars.append(c)
                kept += 1

    def unterminated_value(self, name: str, value: str, lineno: int, quote_col: int) -> None:
        """A tag value whose ``"`` is never closed: an error, and the value up
        to the line's end is kept (without a last ``]``) when not too long."""
        self.error("unterminated string: '\"' opened here is never closed", lineno, quote_col)
        value = value.rstrip()
        if value.endswith("]"):
            value = value[:-1]
        self.careful_tag_value(name, value, lineno, quote_col)

    def careful_tag_value(self, name: str, value: str, lineno: int, quote_col: int) -> None:
        if len(value) > MAX_TAG_VALUE:
            self.error(f"tag value longer than {MAX_TAG_VALUE} characters: the tag is skipped", lineno,
                       quote_col + 1)
            return
        self.rec.tags.append((name, value))
        self.rec.tag_at.setdefault(name, (lineno, quote_col + 1))

    def movetext(self, line: str, lineno: int, pos: int) -> None:
        end = len(line)
        if end and line[-1].isspace():  # finditer would rescan trailing blanks at every position
            end = len(line.rstrip())
        if self.skipping:
            resumed = self.skip(line, lineno, pos, end)
            if resumed is None:
                return
            pos = resumed
        at: int | None = pos
        if self.number is None and self.before is None and self.phase != _DONE:
            at = self.plain_moves(line, lineno, pos, end)
        while at is not None:
            at = self.tokens(line, lineno, at, end)
            if at is not None:
                at = self.skip(line, lineno, at, end)

    def skip(self, line: str, lineno: int, pos: int, end: int) -> int | None:
        """Pass over the text of a variation nested too deep, counting ``(``
        and ``)``; where normal reading resumes, or ``None`` at the line's end."""
        for m in _TOKEN.finditer(line, pos, end):
            kind = m.lastgroup
            if kind == "OPEN":
                self.skipping += 1
            elif kind == "CLOSE":
                self.skipping -= 1
                if not self.skipping:
                    return m.end()
            elif kind == "RESULT":
                self.result_token(m.group(kind), lineno, m.start(kind) + 1)
                return m.end()
            elif kind == "OPENCOMMENT":
                self.comment = (lineno, m.start(kind) + 1, [line[m.start("otext"):]])
        return None

    def result_token(self, token: str, lineno: int, col: int) -> None:
        if self.stack:
            self.unclosed()
        self.dangling_number()
        rec = self.rec
        rec.result = token
        rec.result_at = (lineno, col)
        self.phase = _DONE

    def tokens(self, line: str, lineno: int, pos: int, end: int) -> int | None:
        """Read the tokens of a line from ``pos``; ``None`` at its end, or
        where a variation nested too deep opens (to be skipped)."""
        for m in _TOKEN.finditer(line, pos, end):
            kind = m.lastgroup or "UNKNOWN"  # (every token is a named group)
            if kind == "COMMENT":
                self.add_comment(m.group("ctext"))
            elif kind == "OPENCOMMENT":
                self.comment = (lineno, m.start(kind) + 1, [line[m.start("otext"):]])
            elif kind == "LINECOMMENT":
                self.add_comment(line[m.start("ltext"):])
            elif self.phase == _DONE:
                self.text_after_result(m.group(kind), lineno, m.start(kind) + 1)
            elif kind == "MOVE":
                self.move_token(m, lineno)
            elif kind == "NUMBER":
                self.number_token(m, lineno)
            elif kind == "OPEN":
                if self.open_variation(lineno, m.start(kind) + 1):
                    return m.end()
            elif kind == "CLOSE":
                if not self.stack:
                    self.error("')' without '('", lineno, m.start(kind) + 1)
                else:
                    self.close_variation(True)
            elif kind == "RESULT":
                self.result_token(m.group(kind), lineno, m.start(kind) + 1)
            elif kind == "NAG":
                self.nag_token(m, lineno)
            elif kind == "STRAY":
                self.error("'}' without '{'", lineno, m.start(kind) + 1)
            else:  # UNKNOWN
                self.error(f"unknown token {_short(m.group(kind))}", lineno, m.start(kind) + 1)
        return None

    def move_token(self, m: re.Match[str], lineno: int) -> None:
        hole, dest, cap, res, glyph = m.group("hole", "dest", "cap", "res", "glyph")
        col = m.start("MOVE") + 1
        captured = None
        if cap is not None:
            if len(cap) > _MAX_DIGITS:
                self.error(f"capture count too large: x{cap[:12]}...", lineno,
                           col + m.start("cap") - m.start("MOVE"))
            else:
                captured = int(cap)
        num = self.number
        if num is None:
            number = dots = None
        else:
            number, dots = num[0], num[1]
            self.number = None
        before = None
        if self.before is not None:
            before = " ".join(self.before)
            self.before = None
        # positional: the fields in MoveNode's order (faster than keywords)
        self.cur.append(MoveNode(hole, dest, captured, res is not None, [glyph] if glyph else [], [],
                                 before, None, [], number, dots, lineno, col))
        self.attach = True

    def number_token(self, m: re.Match[str], lineno: int) -> None:
        self.dangling_number()
        num = m.group("num")
        if len(num) > _MAX_DIGITS:
            self.error(f"move number too large: {_short(num)}", lineno, m.start("NUMBER") + 1)
        else:
            self.number = (int(num), m.group("dots"), lineno, m.start("NUMBER") + 1)

    def open_variation(self, lineno: int, col: int) -> bool:
        """A ``(``: a variation of the last move starts; ``True`` when it is
        nested too deep (then its text is to be skipped)."""
        self.dangling_number()
        owner = self.cur[-1] if self.cur else None
        if owner is None:
            self.error("variation with no preceding move", lineno, col)
        if len(self.stack) >= MAX_VARIATION_DEPTH:
            # Kept out of the record (every format holds this depth), reported once;
            # its text is passed over up to its ")" (memory stays flat).
            if not self.too_deep:
                self.too_deep = True
                self.error(f"variations nested deeper than {MAX_VARIATION_DEPTH} levels: "
                           f"the deeper ones are skipped", lineno, col)
            self.skipping = 1
            return True
        self.stack.append((self.cur, owner, lineno, col, self.before))
        self.cur = []
        self.before = None
        self.attach = False
        return False

    def nag_token(self, m: re.Match[str], lineno: int) -> None:
        col = m.start("NAG") + 1
        value = m.group("nag")
        if not self.cur:
            self.error(f"NAG {m.group('NAG')} without a move", lineno, col)
        elif len(value) > 3 or int(value) > 255:
            self.error(f"NAG out of range (0-255): {_short(m.group('NAG'))}", lineno, col)
        else:
            self.cur[-1].nags.append(int(value))

    def plain_moves(self, line: str, lineno: int, pos: int, end: int) -> int | None:
        """Read the plain moves (:data:`~notation.grammar.PLAIN_MOVE`) from
        ``pos`` on, and a result token that ends the line, in one scan
        (:data:`~notation.grammar.PLAIN_LINE`), as the token loop would;
        return where the first other token starts, ``None`` when the line is
        read. Called with no move number or comment waiting. The native
        tokenizer's scan does the same in one call (no match per move)."""
        cur = self.cur
        if _SCAN is not None:
            count, other, result, col = _SCAN(line, pos, end, lineno, cur)
            if count:
                self.attach = True
            if result is not None:
                self.result_token(result, lineno, col)
                return None
            return other if other >= 0 else None
        read = False
        for m in _PLAIN_LINE(line, pos, end):
            number, dots, hole, cap, res, result, other = m.groups()
            if hole is not None:
                # positional: the fields in MoveNode's order (faster than keywords)
                cur.append(MoveNode(hole, None, None if cap is None else int(cap), res is not None, [], [],
                                    None, None, [], None if number is None else int(number), dots,
                                    lineno, m.start(3) + 1))
                read = True
                continue
            if read:
                self.attach = True
            if result is not None:
                self.result_token(result, lineno, m.start(6) + 1)
                return None
            return m.start(7)
        if read:
            self.attach = True
        return None

    def too_long(self, lineno: int) -> None:
        """The game's text went past :data:`MAX_GAME_TEXT` or :data:`MAX_GAME_LINES` at line ``lineno``."""
        self.over = True
        what = f"{MAX_GAME_TEXT:,} characters" if self.size > MAX_GAME_TEXT else f"{MAX_GAME_LINES:,} lines"
        self.rec.problems.append(Problem(
            "error", "game-too-long", f"the game's text is longer than {what}; the rest "
            "of it, up to a line that starts with '[' after a blank line, is not read", lineno, 1))

    def run(self, lines: Iterable[str], first_line: int = 1) -> Iterator[GameRecord]:
        prev_blank = False
        last = 0  # the characters of the line before, with its line end
        for lineno, line in enumerate(lines, first_line):
            if self.phase != _BETWEEN:
                if not self.over:
                    # the line before belongs to this game (read as it is)
                    self.size += last
                    self.nlines += 1
                    if self.size > MAX_GAME_TEXT or self.nlines > MAX_GAME_LINES:
                        self.too_long(lineno - 1)
                if self.over:  # passing over the rest of a game too long
                    if not line.strip():
                        prev_blank = True
                        continue
                    if not (prev_blank and _TAG_START(line)):
                        prev_blank = False
                        continue
                    yield self.finish()
                    self.new_game_at_tag(line, lineno)
                    prev_blank = False
                    last = len(line) + 1
                    continue
            last = len(line) + 1
            if self.comment is not None:  # inside a { comment spanning lines
                if not line.strip():
                    self.comment[2].append(line)
                    prev_blank = True
                    continue
                if prev_blank and _TAG_START(line):
                    yield self.finish()
                    self.new_game_at_tag(line, lineno)
                    prev_blank = False
                    continue
                prev_blank = False
                self.end = (lineno, len(line.rstrip()) + 1)
                close = line.find("}")
                if close < 0:
                    self.comment[2].append(line)
                    continue
                parts = self.comment[2]
                parts.append(line[:close])
                self.comment = None
                if not self.skipping:
                    self.add_comment("\n".join(parts))
                self.movetext(line, lineno, close + 1)
                continue
            text = line.rstrip()
            if not text:
                if self.phase == _DONE:
                    yield self.finish()
                prev_blank = True
                continue
            first = text[0]
            is_tag = first == "[" or (first.isspace() and text.lstrip()[0] == "[")
            phase = self.phase
            if phase == _BETWEEN:
                self.start(lineno)
                self.phase = _TAGS if is_tag else _MOVES
            elif is_tag and (phase != _TAGS or prev_blank):
                yield self.finish()
                self.start(lineno)
                self.phase = _TAGS
            elif phase == _TAGS and not is_tag:
                self.phase = _MOVES
            prev_blank = False
            self.end = (lineno, len(text) + 1)
            if self.phase == _TAGS:
                self.tag_line(line, lineno)
            else:
                self.movetext(line, lineno, 0)
        if self.phase != _BETWEEN:
            if not self.over:
                self.size += last
                self.nlines += 1
                if self.size > MAX_GAME_TEXT or self.nlines > MAX_GAME_LINES:
                    self.too_long(lineno)
            yield self.finish()


def read_games(source: TextIO | Iterable[str], file: str | None = None,
               first_line: int = 1) -> Iterator[GameRecord]:
    """Stream the games of ``source`` (a text stream, an iterable of lines, or
    a whole text as one ``str``) one at a time.

    Never raises on bad input: every syntax problem becomes a
    ``Problem(severity="error", code="syntax")`` of that game, with the 1-based
    line and column in the file; a game without a result token gets the
    error ``missing-result``, a move number with no move after it the
    warning ``move-number``. ``file`` is copied into each record;
    ``first_line`` is the line number of the first line of ``source`` (a
    part of a larger file).
    """
    return _Reader(file).run(_lines(source), first_line)


def read_game(source: TextIO | str, file: str | None = None) -> GameRecord | None:
    """The next game of ``source``, or ``None`` when there is none.

    For a whole text (``str``) that is its first game. A text stream is
    read game after game by repeated calls, with lines counted across the
    calls (``line`` and ``index`` are those in the whole stream); the
    reader keeps what it read past a game (the first line of the next one)
    for the next call, so read the stream through ``read_game`` only.
    """
    if isinstance(source, str):
        return next(iter(read_games(source, file)), None)
    games = getattr(source, "_pmn_games", None)
    if games is None:
        games = _Reader(file).run(_lines(source))
        try:
            setattr(source, "_pmn_games", games)
        except AttributeError:  # a stream without attributes reads one game per call
            pass
    return next(games, None)


# ---------------------------------------------------------------- writing

_NL = None  # a forced line break in the writer's unit stream


class _Goes(str):
    """A word of a ``{…}`` comment that another word of the same comment
    follows on the same line of its text. A line broken after it closes the
    comment there and opens it again on the next line (``{a b}`` becomes
    ``{a}`` and ``{b}``): a reader joins neighbouring comments with one
    space, so the text reads back exactly as it was."""


def _ordered_tags(tags: list[tuple[str, str]]) -> list[tuple[str, str]]:
    order = SEVEN_TAGS + ("Setup",)
    out = [tag for name in order for tag in tags if tag[0] == name]
    out.extend(tag for tag in tags if tag[0] not in order)
    return out


def _start(record: GameRecord) -> tuple[Side, int]:
    """The side to move and the move number where the record starts."""
    setup = record.tag("Setup")
    if setup:
        fields = setup.split()
        side: Side = "N" if len(fields) > 1 and fields[1] == "N" else "S"
        number = int(fields[3]) if len(fields) > 3 and _DIGITS.match(fields[3]) else 1
        return side, number
    return "S", 1


def _no_tag_section(text: str) -> str:
    """``text`` with no blank line followed by a line starting with ``[`` (which
    a reader takes for the next game's tags): such line breaks become spaces."""
    out: list[str] = []
    for line in text.split("\n"):
        while len(out) >= 2 and not out[-1].strip() and line.lstrip().startswith("["):
            line = out.pop() + " " + line
        out.append(line)
    return "\n".join(out)


def _comment_units(text: str, units: list) -> None:
    """Append the units of one comment: ``{…}`` broken at its spaces (a line
    break in the text is kept). A text that holds ``}`` is cut at spaces into
    ``{…}`` parts (those with line breaks) and ``;`` parts (the stretches that
    hold a ``}``), each ``;`` part ending its line: a reader joins consecutive
    comments with one space, so the text reads back the same. (A word that
    holds both ``}`` and a line break cannot be written: its line break is
    written as a space.)"""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\n" in text:
        text = _no_tag_section(text)
    if "}" not in text:
        _brace_units(text, units)
        return
    words = text.split(" ")
    if any("}" in w and "\n" in w for w in words):
        words = " ".join(w.replace("\n", " ") if "}" in w else w for w in words).split(" ")
    for is_line, part in _comment_parts(words):
        if is_line:
            units.append(";" + " ".join(part))
            units.append(_NL)
        else:
            _brace_units(" ".join(part), units)


def _comment_parts(words: list[str]) -> list[tuple[bool, list[str]]]:
    """The words of a comment that holds ``}`` in parts: (is a ``;`` part,
    its words). A ``;`` part is a run of words without line breaks that
    holds a ``}``; the words between such runs make ``{…}`` parts."""
    parts: list[tuple[bool, list[str]]] = []
    run: list[str] = []
    for w in words + [None]:
        if w is not None and "\n" not in w:
            run.append(w)
            continue
        # a word with a line break (or the end): close the run before it
        if run:
            if any("}" in r for r in run):
                parts.append((True, run))
            elif parts and not parts[-1][0]:
                parts[-1][1].extend(run)
            else:
                parts.append((False, run))
            run = []
        if w is not None:
            if parts and not parts[-1][0]:
                parts[-1][1].append(w)
            else:
                parts.append((False, [w]))
    return parts


def _brace_units(text: str, units: list) -> None:
    lines = text.split("\n")
    last = len(lines) - 1
    for i, hard in enumerate(lines):
        words = hard.split(" ")
        if i == 0:
            words[0] = "{" + words[0]
        else:
            units.append(_NL)
        if i == last:
            words[-1] += "}"
        units.extend(_Goes(w) for w in words[:-1])
        units.append(words[-1])


#: The numeric glyphs of the six glyphs (as in PGN), for a second glyph of a move.
_GLYPH_NAGS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}


def _move_text(node: MoveNode) -> str:
    """The move token: hole, destination, marks (``x0`` never) and its glyph."""
    out = move_token(node.hole, node.destination, node.captured, node.reserved)
    if node.glyphs:
        glyph = node.glyphs[0]
        if glyph in _GLYPH_NAGS:
            out += glyph
    return out


class _Movetext(Visitor[list]):
    """The units of a record's movetext (a move with its number, a piece of
    a comment, ``_NL``), built along :func:`~notation.record.walk`; an empty
    variation is not written."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.units: list = []
        self.opener = ""  # "(" waiting to be glued to the next unit
        self.force = True  # a North move is written with its number
        self.opening = False  # a variation has begun and has no move yet
        # The record's comment and the first move's "before" comment would read
        # back as one comment (the reader joins neighbours with a space): they
        # are written as one, at the start.
        self.joined: MoveNode | None = None
        if record.comment is not None:
            first = record.moves[0] if record.moves else None
            before = first.before if first is not None else None
            _comment_units(record.comment if before is None else record.comment + " " + before, self.units)
            self.joined = first

    def begin_variation(self, step: Step) -> None:
        self.opening = True

    def end_variation(self, step: Step) -> None:
        if self.opening:  # an empty variation
            self.opening = False
            return
        units = self.units
        if units and units[-1] is not _NL:
            units[-1] += ")"
        else:
            units.append(")")
        self.force = True

    def visit_move(self, step: Step) -> None:
        node = step.node
        units = self.units
        if self.opening:
            self.opening = False
            self.opener += "("
            self.force = True
        if node.before is not None and node is not self.joined:
            mark = len(units)
            _comment_units(node.before, units)
            if self.opener:
                glued = self.opener + units[mark]
                units[mark] = _Goes(glued) if isinstance(units[mark], _Goes) else glued
                self.opener = ""
            self.force = True
        move = _move_text(node)
        if step.side == "S" or self.force:
            move = f"{move_label(step.number, step.side)} {move}"
        if self.opener:
            move = self.opener + move
            self.opener = ""
        units.append(move)
        if len(node.glyphs) > 1:  # one glyph fits after the move: the others as NAGs
            units.extend(f"${_GLYPH_NAGS[g]}" for g in node.glyphs[1:] if g in _GLYPH_NAGS)
        for nag in node.nags:
            units.append(f"${nag}")
        self.force = node.comment is not None or bool(node.variations and any(node.variations))
        if node.comment is not None:
            _comment_units(node.comment, units)

    def result(self) -> list:
        self.units.append(self.opener + (self.record.result or "*"))
        return self.units


def _movetext_units(record: GameRecord) -> list:
    side, number = _start(record)
    return visit(record, _Movetext(record), side=side, number=number)


def _wrap(units: list, width: int = WIDTH) -> list[str]:
    """Greedy filling: a unit goes on the current line when it fits, else
    starts a new one; ``_NL`` forces a break.

    A break never leaves a blank line, since a blank line followed by ``[``
    would start a new game: no break while the line is still blank, nor
    before an empty or white-space piece of a comment (two spaces in a row,
    a tab) when no text follows it on its line.
    """
    lines: list[str] = []
    cur = ""
    blank = True  # cur is white space only
    fresh = True  # nothing placed on cur yet
    text_follows: list[bool] | None = None
    glued = _glued_spaces(units) if any(u is not _NL and not u.strip() for u in units) else None
    inside = False  # the unit placed last is a _Goes: a comment goes on
    for i, unit in enumerate(units):
        if unit is _NL:
            lines.append(cur)
            cur = ""
            blank = fresh = True
            inside = False
            continue
        goes = isinstance(unit, _Goes)  # room is kept for a "}" after it
        if fresh:
            cur = unit
            fresh = False
        elif len(cur) + 1 + len(unit) + goes + (glued[i] if glued else 0) <= width or blank:
            cur += " " + unit
        elif inside:  # a break inside a comment: "}" here, "{" on the next line
            lines.append(cur + "}")
            cur = "{" + unit
            blank = False
            inside = goes
            continue
        elif not unit.strip():
            if text_follows is None:
                text_follows = _text_follows(units)
            if text_follows[i]:
                lines.append(cur)
                cur = unit
                blank = True
            else:
                cur += " " + unit  # a break here would leave a blank line
            inside = goes
            continue
        else:
            lines.append(cur)
            cur = unit
            blank = True
        if blank and unit.strip():
            blank = False
        inside = goes
    if not fresh:
        lines.append(cur)
    return lines


def _glued_spaces(units: list) -> list[int]:
    """For each unit: the spaces that will be written right after it (empty
    comment pieces that end their line with no text after them), so that a
    word is only placed where those spaces fit too."""
    out = [0] * len(units)
    empties = 0
    text_after = False
    for i in range(len(units) - 1, -1, -1):
        unit = units[i]
        if unit is _NL:
            empties, text_after = 0, False
        elif unit.strip():
            out[i] = 0 if text_after else empties
            empties, text_after = 0, True
        elif unit and text_after:  # white space before text: a line may break before it
            out[i] = 0
            empties = 0
        else:  # empty, or white space that ends its line: written on the line before
            empties += 1 + len(unit)
    return out


def _text_follows(units: list) -> list[bool]:
    """For each unit: does a non-blank unit follow it on its line?"""
    out = [False] * len(units)
    seen = False
    for i in range(len(units) - 1, -1, -1):
        out[i] = seen
        unit = units[i]
        if unit is _NL:
            seen = False
        elif unit.strip():
            seen = True
    return out


def write_game(record: GameRecord, coords: str | None = None) -> str:
    """The canonical PMN text of ``record`` (PMN §5), ending with one ``\\n``.

    * Tags in the order ``Game Event Site Date Round South North Result``,
      then ``Setup``, then the others as they are in the record; none is
      added. A line break in a value is written as a space.
    * A blank line, then the movetext filled greedily into lines of at most
      :data:`WIDTH` characters; a move number and its move are one unit.
    * ``N.`` before every South move, ``N...`` before a North move that
      opens the movetext or a variation or follows a comment or a
      variation; numbers are counted from the ``Setup`` tag's side and move
      number (else South, 1), the move numbers stored in the nodes are not
      used.
    * Per move: its ``before`` comment, the number, the move with its marks
      (``xN`` only for N > 0, ``^``) and first glyph, NAGs (a second glyph
      as its NAG, ``!`` = ``$1`` … ``?!`` = ``$6``), its comment, its
      variations; then ``record.result`` or ``*``. ``record.comment`` comes
      first (a reader gives it back as ``record.comment`` when there are no
      moves, else as the first move's ``before``).
    * A long comment is broken at its spaces into ``{…}`` pieces, one per
      line (``{a b}`` as ``{a}`` and ``{b}``; a reader joins neighbouring
      comments with one space, so it reads back as it was; a line break in
      the text is written as one, inside a piece); a comment holding ``}`` is written with ``;`` comments
      for the parts that hold it. A line break inside a comment never leaves
      a blank line followed by ``[`` (that would start a new game).

    Reading canonical text and writing it again gives the same bytes.
    Purely textual: moves are written as stored; ``coords`` is accepted for
    the callers' convenience and ignored (converting coordinates is done
    before writing).
    """
    out = []
    for name, value in _ordered_tags(record.tags):
        if "\n" in value or "\r" in value:
            value = _LINE_BREAK.sub(" ", value)
        out.append(f'[{name} "{escape(value)}"]')
    if out:
        out.append("")
    out.extend(_wrap(_movetext_units(record)))
    return "\n".join(out) + "\n"


def write_games(records: Iterable[GameRecord], out: TextIO, coords: str | None = None) -> int:
    """Write ``records`` to ``out`` as canonical PMN, one blank line between
    games; returns how many were written."""
    count = 0
    for record in records:
        if count:
            out.write("\n")
        out.write(write_game(record, coords))
        count += 1
    return count


# ---------------------------------------------------------------- what PMN cannot hold


def _comment_change(text: str) -> str | None:
    """How :func:`write_game` changes a comment's text, or ``None`` when it
    reads back as it is."""
    if "\r" in text:
        return "its carriage returns are written as line breaks"
    if "\n" not in text:
        return None
    if _no_tag_section(text) != text:
        return "a blank line followed by '[' (a new game to a reader) is written with a space instead of its line break"
    if "}" in text and any("}" in w and "\n" in w for w in text.split(" ")):
        return "a line break in a word that holds '}' is written as a space"
    return None


def unheld(record: GameRecord) -> list[Problem]:
    """What canonical PMN cannot hold exactly in ``record``: one
    ``warning`` (code ``pmn-inexact``) per tag or comment whose text
    :func:`write_game` changes, naming it (PMN has no escape for a line
    break in a tag value, a carriage return in a comment, …; see
    docs/notation.md, "What PMN cannot hold"). Empty for a record read
    from PMN, but where an empty variation was dropped between a move and
    a comment.

        >>> record = read_game('[Game "kingulu"]\\n\\n1. c1 *\\n')
        >>> record.tags.append(("Event", "a\\nb"))
        >>> [p.message for p in unheld(record)]
        ['the Event tag: its line breaks are written as spaces (a tag value is one line)']
    """
    found: list[Problem] = []
    for name, value in record.tags:
        if "\n" in value or "\r" in value:
            line, column = record.tag_at.get(name, (record.line, None))
            found.append(Problem("warning", "pmn-inexact", f"the {name} tag: its line breaks are written as "
                                 "spaces (a tag value is one line)", line, column))
    if record.comment is not None:
        why = _comment_change(record.comment)
        if why is None and record.moves:
            why = "it is written as (and reads back as) the comment before the first move"
        if why is not None:
            found.append(Problem("warning", "pmn-inexact", f"the comment before the moves: {why}", record.line, None))
    if not record.moves:
        return found
    # A comment before a move that follows another move (not a variation) is
    # read back as that move's comment: PMN has one place between two moves.
    merged = set()
    todo = [record.moves]
    while todo:
        seq = todo.pop()
        for k, node in enumerate(seq):
            if k and node.before is not None and not any(seq[k - 1].variations):
                merged.add(id(node))
            todo.extend(node.variations)
    side, number = _start(record)
    for step in walk(record, side=side, number=number):
        if step.kind != MOVE:
            continue
        node = step.node
        for where, text in (("before", node.before), ("after", node.comment)):
            if text is None:
                continue
            why = _comment_change(text)
            if why is None and where == "before" and id(node) in merged:
                why = "it reads back as the comment after the move before it (PMN has one place between two moves)"
            if why is not None:
                found.append(Problem("warning", "pmn-inexact",
                                     f"the comment {where} {move_label(step.number, step.side)} {node.text}: {why}",
                                     node.line, node.column))
    return found
