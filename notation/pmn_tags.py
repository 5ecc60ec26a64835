"""The tag section of a PMN game (docs/notation.md, "A record"), read line
by line, and the problems of the game being read.

:class:`TagReader` is one part of the PMN reader
(:class:`~notation.pmn_reader.Reader`, which composes it with the
:class:`~notation.pmn_movetext.MovetextReader`, both given one
:class:`ReadingState`: the record being read, its problems); a tag line that is one well-formed tag pair is read in one match,
any other is read tag by tag, reporting exactly what is wrong, and the text
after its last tag is movetext (given to the movetext reader).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .grammar import TAG_LINE_RE, unescape
from .record import MAX_PROBLEMS, MAX_TAG_NAME, MAX_TAG_VALUE, GameRecord, Problem

__all__ = ["BETWEEN", "TAGS", "MOVES", "DONE", "ReadingState", "TagReader", "short_repr"]

#: The phases of the reader: between games, in a tag section, in a movetext,
#: after the result token.
BETWEEN, TAGS, MOVES, DONE = range(4)

_TAG_LINE = TAG_LINE_RE.match
_TAG_NAME = re.compile(r"[A-Za-z0-9_]+")
_PLAIN_VALUE = re.compile(r'[^"\\]*+')
_SPACE = re.compile(r"\s*")


def short_repr(token: str) -> str:
    """``token`` quoted for a message, cut to 40 characters."""
    return repr(token if len(token) <= 40 else token[:37] + "...")


def _skip_space(line: str, p: int) -> int:
    """Where the white space of ``line`` from ``p`` on ends."""
    m = _SPACE.match(line, p)
    return m.end() if m else p


@dataclass(eq=False)
class ReadingState:
    """What the parts of the PMN reader share (:class:`TagReader`,
    :class:`~notation.pmn_movetext.MovetextReader`, owned by
    :class:`~notation.pmn_reader.Reader`): the game being read, the
    phase, an open multi-line comment, and the problems found."""

    #: The phase: :data:`BETWEEN`, :data:`TAGS`, :data:`MOVES` or :data:`DONE`.
    phase: int = BETWEEN
    #: An open multi-line comment: (line, column, parts).
    comment: tuple[int, int, list[str]] | None = None
    #: The syntax errors and the warnings of the game so far.
    errors: int = 0
    warnings: int = 0
    #: The game being read, while :attr:`phase` is not :data:`BETWEEN`.
    record: GameRecord = field(init=False)

    def problem(self, severity: str, code: str, message: str, line: int, col: int) -> None:
        """A problem other than a syntax error; after :data:`MAX_PROBLEMS`
        warnings one closing warning says so and the others are dropped."""
        if severity == "warning":
            self.warnings += 1
            if self.warnings > MAX_PROBLEMS:
                if self.warnings == MAX_PROBLEMS + 1:
                    self.record.problems.append(Problem(
                        "warning", code, f"more than {MAX_PROBLEMS} warnings in this game; "
                        "the others are not reported", line, col))
                return
        self.record.problems.append(Problem(severity, code, message, line, col))

    def error(self, message: str, line: int, col: int, always: bool = False) -> None:
        """A syntax error; after :data:`MAX_PROBLEMS` only the ``always`` ones
        (an unterminated comment or variation) are still reported."""
        self.errors += 1
        if self.errors <= MAX_PROBLEMS or always:
            self.record.problems.append(Problem("error", "syntax", message, line, col))
        elif self.errors == MAX_PROBLEMS + 1:
            self.record.problems.append(Problem(
                "error", "syntax", f"more than {MAX_PROBLEMS} syntax errors in this game; "
                "the others are not reported", line, col))


class TagReader:
    """The tag lines of the game being read, into the shared ``state``; the
    text after a line's last tag goes to ``movetext`` (the movetext reader's)."""

    def __init__(self, state: ReadingState, movetext: Callable[[str, int, int], None]) -> None:
        self.state = state
        self.movetext = movetext
        self.error = state.error

    def tag_line(self, line: str, lineno: int) -> None:
        m = _TAG_LINE(line)
        if m is not None:
            if (m.end("value") - m.start("value") > MAX_TAG_VALUE
                    or m.end("name") - m.start("name") > MAX_TAG_NAME):
                self.long_tag(m.group("name") if m.end("name") - m.start("name") <= MAX_TAG_NAME else None,
                              m.start("name"), m.start("value"), m.end("value"), line, lineno)
                return
            name, value = m.group("name", "value")
            record = self.state.record
            record.tags.append((name, unescape(value)))
            if name not in record.tag_at:
                record.tag_at[name] = (lineno, m.start("value") + 1)
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
                self.state.record.tags.append((name, value))
                self.state.record.tag_at.setdefault(name, (lineno, start + 1))
                return
        self.error(f"tag value longer than {MAX_TAG_VALUE} characters: the tag is skipped", lineno, start + 1)

    def careful_tag_line(self, line: str, lineno: int) -> None:
        """Tag pairs one by one, reporting exactly what is wrong; text after
        the last tag is movetext."""
        n = len(line)
        p: int | None = _skip_space(line, 0)
        while p is not None and p < n:
            if line[p] != "[":
                self.state.phase = MOVES
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
        self.state.record.tags.append((name, value))
        self.state.record.tag_at.setdefault(name, (lineno, quote_col + 1))
