"""Reading PMN (docs/notation.md, "A record"): the games of a text, one at
a time.

:class:`Reader` is the last link of the PMN reader's chain
(:mod:`notation.pmn_tags` → :mod:`notation.pmn_movetext` →
:mod:`notation.pmn_reader`): it cuts the lines into games, starts and
finishes each record, and bounds the text of one game. :func:`read_games`
and :func:`read_game` are its public face (also in :mod:`notation.pmn`).
"""
from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from typing import TextIO

from .pmn_movetext import MovetextReader
from .pmn_tags import BETWEEN, DONE, MOVES, TAGS
from .record import GameRecord, Problem

__all__ = ["MAX_GAME_TEXT", "MAX_GAME_LINES", "Reader", "read_games", "read_game", "after_tag_line"]

#: The longest text of one game, in characters, each line counted with one
#: for its line end (as long as the longest line, 4 MiB): past it the game
#: gets the error ``game-too-long`` and the rest of its text is passed over
#: up to the next line that starts with ``[`` after a blank line, so that
#: memory stays bounded whatever the input (docs/notation.md).
MAX_GAME_TEXT = 4 << 20
#: The most lines of one game (each line costs memory of its own, however
#: short): past them, as past :data:`MAX_GAME_TEXT`.
MAX_GAME_LINES = 100_000

_TAG_START = re.compile(r"\s*\[").match
#: A line end inside a line (compiled by :mod:`re`, and kept in its cache,
#: when first used: few inputs have a CR).
_LINE_BREAK = r"\r\n|\r|\n"

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
            yield from re.split(_LINE_BREAK, raw)
        else:
            yield raw


class Reader(MovetextReader):
    """The state of the game being read (one at a time)."""

    def __init__(self, file: str | None):
        self.file = file
        self.index = 0
        self.phase = BETWEEN
        self.comment = None
        self.over = False  # past MAX_GAME_TEXT: the rest of the game is passed over

    # -- game start and end

    def new_game_at_tag(self, line: str, lineno: int) -> None:
        """A tag line after a blank line ends the game being passed over (too
        long, or inside an unclosed comment): the next game starts with it."""
        self.start(lineno)
        self.phase = TAGS
        self.tag_line(line, lineno)
        self.end = (lineno, len(line.rstrip()) + 1)

    def start(self, lineno: int) -> None:
        """A game starts at line ``lineno``."""
        self.index += 1
        self.rec = GameRecord(file=self.file, index=self.index, line=lineno)
        self.cur = self.rec.moves  # the line of play being read
        # one frame per open "(": (outer line, owner move, line, column, outer pending comment)
        self.stack = []
        self.before = None  # comments waiting for the next move
        self.attach = False  # a comment now belongs to cur[-1]
        # comments of one move are gathered in a list and joined once (a
        # movetext of 100,000 comments must not take quadratic time)
        self.cnode = None
        self.cparts = []
        self.number = None  # (n, dots, line, column) waiting for its move
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
        """The game read, its open comment, variations and numbers closed."""
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
        """``rec``, its problems in order of place; the reader is between games."""
        if len(rec.problems) > 1:
            rec.problems.sort(key=lambda p: (p.line or 0, p.column or 0))
        del self.rec  # (the reader keeps no finished game)
        self.phase = BETWEEN
        return rec

    def too_long(self, lineno: int) -> None:
        """The game's text went past :data:`MAX_GAME_TEXT` or :data:`MAX_GAME_LINES` at line ``lineno``."""
        self.over = True
        what = f"{MAX_GAME_TEXT:,} characters" if self.size > MAX_GAME_TEXT else f"{MAX_GAME_LINES:,} lines"
        self.rec.problems.append(Problem(
            "error", "game-too-long", f"the game's text is longer than {what}; the rest "
            "of it, up to a line that starts with '[' after a blank line, is not read", lineno, 1))

    # -- lines

    def run(self, lines: Iterable[str], first_line: int = 1) -> Iterator[GameRecord]:
        """The games of ``lines``, the first of them line ``first_line``."""
        prev_blank = False
        last = 0  # the characters of the line before, with its line end
        for lineno, line in enumerate(lines, first_line):
            if self.phase != BETWEEN and not self.over:
                # the line before belongs to this game (read as it is)
                self.size += last
                self.nlines += 1
                if self.size > MAX_GAME_TEXT or self.nlines > MAX_GAME_LINES:
                    self.too_long(lineno - 1)
            last = len(line) + 1
            if self.over or self.comment is not None:
                finished = self.held_line(line, lineno, prev_blank)
                prev_blank = not line.strip()
                if finished is not None:
                    yield finished
                continue
            text = line.rstrip()
            if not text:
                if self.phase == DONE:
                    yield self.finish()
                prev_blank = True
                continue
            first = text[0]
            is_tag = first == "[" or (first.isspace() and text.lstrip()[0] == "[")
            if self.phase != (TAGS if is_tag else MOVES) or (is_tag and prev_blank):
                finished = self.next_phase(is_tag, lineno, prev_blank)
                if finished is not None:
                    yield finished
            prev_blank = False
            self.end = (lineno, len(text) + 1)
            if self.phase == TAGS:
                self.tag_line(line, lineno)
            else:
                self.movetext(line, lineno, 0)
        if self.phase != BETWEEN:
            yield self.last_game(last, lineno)

    def next_phase(self, is_tag: bool, lineno: int, prev_blank: bool) -> GameRecord | None:
        """A line that is (``is_tag``) or is not a tag line, after a blank
        line or not: a game starts, or the game read goes on in its
        movetext, or it ends (returned) and a new one starts with the line."""
        phase = self.phase
        if phase == BETWEEN:
            self.start(lineno)
            self.phase = TAGS if is_tag else MOVES
        elif is_tag and (phase != TAGS or prev_blank):
            finished = self.finish()
            self.start(lineno)
            self.phase = TAGS
            return finished
        elif phase == TAGS and not is_tag:
            self.phase = MOVES
        return None

    def held_line(self, line: str, lineno: int, prev_blank: bool) -> GameRecord | None:
        """A line read while the game is passed over (too long) or inside a
        ``{`` comment spanning lines: a tag line after a blank line ends the
        game (returned) and starts the next one."""
        if not line.strip():
            if self.comment is not None and not self.over:
                self.comment[2].append(line)
            return None
        if prev_blank and _TAG_START(line):
            finished = self.finish()
            self.new_game_at_tag(line, lineno)
            return finished
        if self.over or self.comment is None:
            return None
        self.end = (lineno, len(line.rstrip()) + 1)
        close = line.find("}")
        if close < 0:
            self.comment[2].append(line)
            return None
        parts = self.comment[2]
        parts.append(line[:close])
        self.comment = None
        if not self.skipping:
            self.add_comment("\n".join(parts))
        self.movetext(line, lineno, close + 1)
        return None

    def last_game(self, last: int, lineno: int) -> GameRecord:
        """The game the input ends in, its last line ``lineno`` of ``last`` characters."""
        if not self.over:
            self.size += last
            self.nlines += 1
            if self.size > MAX_GAME_TEXT or self.nlines > MAX_GAME_LINES:
                self.too_long(lineno)
        return self.finish()


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
    return Reader(file).run(_lines(source), first_line)


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
        games = Reader(file).run(_lines(source))
        try:
            setattr(source, "_pmn_games", games)
        except AttributeError:  # a stream without attributes reads one game per call
            pass
    return next(games, None)


def after_tag_line(line: str) -> tuple[str, bool]:
    """What the reader makes of ``line`` read as a line of a tag section (in
    one game of its own): the phase the game is left in (``"tags"``,
    ``"moves"`` after movetext, ``"done"`` after a result token), and
    whether a ``{`` comment is left open. The cutter of a file into batches
    of whole games (``mancala_cli.files.batches``) follows the reader with it.

        >>> after_tag_line('[Event "x"]'), after_tag_line('[Event "x"] 1. c1 {a')
        (('tags', False), ('moves', True))
    """
    reader = Reader(None)
    reader.start(1)
    reader.phase = TAGS
    reader.careful_tag_line(line, 1)
    return {TAGS: "tags", MOVES: "moves", DONE: "done"}[reader.phase], reader.comment is not None
