"""Reading PMN (docs/notation.md, "A record"): the games of a text, one at
a time.

:class:`Reader` composes the PMN reader's parts (the tags of
:mod:`notation.pmn_tags`, the movetext of :mod:`notation.pmn_movetext`,
given one shared :class:`~notation.pmn_tags.ReadingState`): it cuts the lines into games, starts and
finishes each record, and bounds the text of one game. :func:`read_games`
and :func:`read_game` are its public face (also in :mod:`notation.pmn`).
"""
from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from typing import TextIO

from .pmn_movetext import MovetextReader
from .pmn_tags import BETWEEN, DONE, MOVES, TAGS, ReadingState, TagReader
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


class Reader:
    """The games of a text, one at a time: the lines cut into games, each
    game's tag lines read by a :class:`~notation.pmn_tags.TagReader` and its
    movetext by a :class:`~notation.pmn_movetext.MovetextReader`, both
    given the reader's :class:`~notation.pmn_tags.ReadingState`."""

    def __init__(self, file: str | None):
        self.file = file
        self.index = 0
        self.state = state = ReadingState()
        self.movetext_reader = MovetextReader(state)
        self.tag_reader = TagReader(state, self.movetext_reader.movetext)
        # (bound once: called for every line)
        self.tag_line = self.tag_reader.tag_line
        self.movetext = self.movetext_reader.movetext
        self.over = False  # past MAX_GAME_TEXT: the rest of the game is passed over

    # -- game start and end

    def new_game_at_tag(self, line: str, lineno: int) -> None:
        """A tag line after a blank line ends the game being passed over (too
        long, or inside an unclosed comment): the next game starts with it."""
        self.start(lineno)
        self.state.phase = TAGS
        self.tag_line(line, lineno)
        self.end = (lineno, len(line.rstrip()) + 1)

    def start(self, lineno: int) -> None:
        """A game starts at line ``lineno``."""
        self.index += 1
        state = self.state
        state.record = record = GameRecord(file=self.file, index=self.index, line=lineno)
        state.comment = None
        state.errors = 0
        state.warnings = 0
        self.movetext_reader.start(record)
        self.end = (lineno, 1)  # just after the game's last text (for missing-result)
        self.size = 0  # the characters of the game's lines so far (MAX_GAME_TEXT)
        self.nlines = 0  # and its lines (MAX_GAME_LINES)
        self.over = False  # past MAX_GAME_TEXT: the rest of the game is passed over

    def finish(self) -> GameRecord:
        """The game read, its open comment, variations and numbers closed."""
        state = self.state
        record = state.record
        movetext = self.movetext_reader
        if self.over:  # one error says it all; what was open stays open
            state.comment = None
            movetext.stack = []
            movetext.skipping = 0
            movetext.number = None
            movetext.flush_before(None)
            movetext.flush_node()
            return self.close(record)
        if state.comment is not None:
            line, col, parts = state.comment
            state.comment = None
            while len(parts) > 1 and not parts[-1].strip():
                parts.pop()  # the blank lines that separate the games
            state.error("unterminated comment: '{' opened here is never closed", line, col, True)
            movetext.add_comment("\n".join(parts))
        if movetext.stack:
            movetext.unclosed()
        movetext.dangling_number()
        movetext.flush_before(None)
        movetext.flush_node()
        if record.result is None:
            state.problem("error", "missing-result",
                          "the movetext has no result token (1-0, 0-1, 1/2-1/2 or *)", *self.end)
        return self.close(record)

    def close(self, record: GameRecord) -> GameRecord:
        """``record``, its problems in order of place; the reader is between games."""
        if len(record.problems) > 1:
            record.problems.sort(key=lambda p: (p.line or 0, p.column or 0))
        del self.state.record  # (the reader keeps no finished game)
        self.state.phase = BETWEEN
        return record

    def too_long(self, lineno: int) -> None:
        """The game's text went past :data:`MAX_GAME_TEXT` or :data:`MAX_GAME_LINES` at line ``lineno``."""
        self.over = True
        what = f"{MAX_GAME_TEXT:,} characters" if self.size > MAX_GAME_TEXT else f"{MAX_GAME_LINES:,} lines"
        self.state.record.problems.append(Problem(
            "error", "game-too-long", f"the game's text is longer than {what}; the rest "
            "of it, up to a line that starts with '[' after a blank line, is not read", lineno, 1))

    # -- lines

    def run(self, lines: Iterable[str], first_line: int = 1) -> Iterator[GameRecord]:
        """The games of ``lines``, the first of them line ``first_line``."""
        state = self.state
        prev_blank = False
        last = 0  # the characters of the line before, with its line end
        for lineno, line in enumerate(lines, first_line):
            if state.phase != BETWEEN and not self.over:
                # the line before belongs to this game (read as it is)
                self.size += last
                self.nlines += 1
                if self.size > MAX_GAME_TEXT or self.nlines > MAX_GAME_LINES:
                    self.too_long(lineno - 1)
            last = len(line) + 1
            if self.over or state.comment is not None:
                finished = self.held_line(line, lineno, prev_blank)
                prev_blank = not line.strip()
                if finished is not None:
                    yield finished
                continue
            text = line.rstrip()
            if not text:
                if state.phase == DONE:
                    yield self.finish()
                prev_blank = True
                continue
            first = text[0]
            is_tag = first == "[" or (first.isspace() and text.lstrip()[0] == "[")
            if state.phase != (TAGS if is_tag else MOVES) or (is_tag and prev_blank):
                finished = self.next_phase(is_tag, lineno, prev_blank)
                if finished is not None:
                    yield finished
            prev_blank = False
            self.end = (lineno, len(text) + 1)
            if state.phase == TAGS:
                self.tag_line(line, lineno)
            else:
                self.movetext(line, lineno, 0)
        if state.phase != BETWEEN:
            yield self.last_game(last, lineno)

    def next_phase(self, is_tag: bool, lineno: int, prev_blank: bool) -> GameRecord | None:
        """A line that is (``is_tag``) or is not a tag line, after a blank
        line or not: a game starts, or the game read goes on in its
        movetext, or it ends (returned) and a new one starts with the line."""
        state = self.state
        phase = state.phase
        if phase == BETWEEN:
            self.start(lineno)
            state.phase = TAGS if is_tag else MOVES
        elif is_tag and (phase != TAGS or prev_blank):
            finished = self.finish()
            self.start(lineno)
            state.phase = TAGS
            return finished
        elif phase == TAGS and not is_tag:
            state.phase = MOVES
        return None

    def held_line(self, line: str, lineno: int, prev_blank: bool) -> GameRecord | None:
        """A line read while the game is passed over (too long) or inside a
        ``{`` comment spanning lines: a tag line after a blank line ends the
        game (returned) and starts the next one."""
        state = self.state
        if not line.strip():
            if state.comment is not None and not self.over:
                state.comment[2].append(line)
            return None
        if prev_blank and _TAG_START(line):
            finished = self.finish()
            self.new_game_at_tag(line, lineno)
            return finished
        if self.over or state.comment is None:
            return None
        self.end = (lineno, len(line.rstrip()) + 1)
        close = line.find("}")
        if close < 0:
            state.comment[2].append(line)
            return None
        parts = state.comment[2]
        parts.append(line[:close])
        state.comment = None
        if not self.movetext_reader.skipping:
            self.movetext_reader.add_comment("\n".join(parts))
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
    state = reader.state
    state.phase = TAGS
    reader.tag_reader.careful_tag_line(line, 1)
    return {TAGS: "tags", MOVES: "moves", DONE: "done"}[state.phase], state.comment is not None
