"""A document as the language server knows it: its lines, the games they
hold and what checking each game found, kept up to date edit by edit.

Games are read by the PMN reader (:func:`notation.pmn.read_games`) and
checked by :func:`mancala_cli.check`, exactly as ``mancala validate`` reads
and checks a file, so the diagnostics are validate's problems at the same
places; besides them, the server's own hints (:class:`.hints.Hint`,
severity ``hint``, code ``no-move-number``, at most 100 of a game) where a
game without errors has no move number before a move that canonical
writing numbers (:func:`notation.pmn_writer.numbered_moves`), found with
the game's check.
Lines are counted as the protocol counts them (LF, CRLF and CR end a
line); lines and columns here are those of the reader, 1-based, except where
a name says ``line0``/``column0`` (0-based, as in the protocol, in code
points: :mod:`.server` converts them to the client's position encoding).

Incremental checking rests on one property of the reader: a game that
starts at line N is read the same whatever came before it (the reader
starts each game afresh, and decides where a game ends from the lines up to
the next game's first line). So each game keeps the line where it starts
and the line where the next one starts (``next_start``); an edit of lines
A..B keeps the games whose ``next_start`` is before A as they are, sets the
games after B aside (moved by the lines the edit added or removed), and
reading starts again at the first game the edit touched. As soon as the
reader starts a game at a line where a game set aside starts, the rest is
that game and those after it: reading stops there. A one-character edit
near the end of a 10,000-game file re-reads and re-checks one game.

Reading is a generator that stops between games (:meth:`Document.advance`,
with a time budget), so a large document is checked in steps while the
server goes on answering; an edit in the middle throws away only the game
being read.
"""
from __future__ import annotations

import bisect
import itertools
import re
import time
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from notation.pmn_reader import read_games
from notation.record import MAX_PROBLEMS, GameRecord, Problem

from .. import check
from ..files.reports import move_place, position_note
from ..files.sources import MAX_LINE
from .hints import NO_MOVE_NUMBER, Hint, capped, count_moves, missing_numbers

__all__ = ["MAX_DOCUMENT", "too_long", "line_too_long", "Diagnostic", "DocumentGame", "Document", "split_lines",
           "line_text", "problem_message", "token_end"]

#: The largest document checked, in characters: a larger one gets one
#: diagnostic that says so, and nothing else (memory and time stay bounded).
MAX_DOCUMENT = 32 << 20

_BREAK = re.compile(r"(\r\n|\r|\n)")


def too_long(line: str) -> bool:
    """Whether ``line`` (with its line end) is longer than validate reads:
    :data:`~mancala_cli.files.sources.MAX_LINE` bytes of UTF-8."""
    if len(line) <= MAX_LINE // 4:
        return False
    return len(line) > MAX_LINE or len(line.encode("utf-8", "surrogatepass")) > MAX_LINE


def line_too_long(line: int) -> Problem:
    """validate's problem for a line longer than it reads (line ``line``, 1-based)."""
    return Problem("error", "line-too-long", f"the line is longer than {MAX_LINE} bytes; "
                   "the rest of the input is not read", line, 1)


def split_lines(text: str) -> list[str]:
    """The lines of ``text``, each with its line end, as the protocol counts
    them (LF, CRLF or CR); a text that ends with a line end has an empty last
    line, and every text has at least one line.

        >>> split_lines("a\\r\\nb\\rc\\n")
        ['a\\r\\n', 'b\\r', 'c\\n', '']
    """
    parts = _BREAK.split(text)
    lines = [parts[i] + parts[i + 1] for i in range(0, len(parts) - 1, 2)]
    lines.append(parts[-1])
    return lines


def line_text(line: str) -> str:
    """A line of :func:`split_lines` without its line end."""
    return line.rstrip("\r\n")


#: What ends a problem's range: white space and the delimiters of movetext.
_WORD_END = re.compile(r"[\s(){};\[\]\"]")


def token_end(text: str, column0: int) -> int:
    """Where the token that starts at ``column0`` of the line ``text`` ends
    (0-based, exclusive): a delimiter is a token of one character, the end
    of a line a token of none."""
    if column0 >= len(text):
        return column0
    if _WORD_END.match(text, column0):
        return column0 + 1
    found = _WORD_END.search(text, column0)
    return len(text) if found is None else found.start()


def problem_message(problem: Problem) -> str:
    """The problem as ``mancala validate`` words it, without its place and
    code: ``4... c1: c1 is not one of N's holes [position …; legal: b2 d2]``."""
    return move_place(problem) + problem.message + position_note(problem)


@dataclass(frozen=True)
class Diagnostic:
    """A problem where the editor shows it: 0-based lines and code-point
    columns, ``end_column`` exclusive; ``severity`` ``error`` or
    ``warning`` (validate's problems) or ``hint`` (the server's own:
    :data:`NO_MOVE_NUMBER`); ``code`` validate's rule id or problem code,
    or the hint's."""

    line: int
    column: int
    end_line: int
    end_column: int
    severity: str
    code: str
    message: str


class DocumentGame:
    """One game of a document: where it is and what checking it found.

    ``start`` is the line where it starts, ``next_start`` the line where
    the next game starts (one past the last line at the end of the
    document), ``end`` its last line with text; ``problems`` are those of
    :func:`mancala_cli.check`, at the lines of the text when it was read,
    when the game started at line ``read_at`` (``start - read_at`` is what
    the edits since then have moved it by). ``tags``, ``game`` (the game's
    id, or ``None``), ``result`` (the engine's result where the rules ended
    the game, else the record's) and ``plies`` are for the outline.
    ``hints`` are the moves without the number canonical writing puts
    before them (:func:`missing_numbers`), at the lines of the text when it
    was read, like ``problems``; none for a game with an error (where
    reading may have gone astray, the places of numbers are not certain);
    at most :data:`~notation.record.MAX_PROBLEMS` and one that says there
    are more. ``moves`` counts its moves, those of variations with them
    (:func:`count_moves`).
    """

    __slots__ = ("start", "next_start", "end", "read_at", "problems", "tags", "game", "result", "plies", "valid",
                 "canonical", "hints", "moves", "_shown")

    def __init__(self, start: int, next_start: int, end: int, problems: list[Problem],
                 tags: list[tuple[str, str]], game: str | None, result: str | None, plies: int,
                 hints: list[Hint] | None = None, moves: int = 0) -> None:
        self.start = start
        self.next_start = next_start
        self.end = end
        self.read_at = start
        self.problems = problems
        self.tags = tags
        self.game = game
        self.result = result
        self.plies = plies
        self.valid = not any(p.severity == "error" for p in problems)
        self.hints = hints if hints is not None else []
        self.moves = moves
        self.canonical = False  # written as convert writes it (known once formatting found it so)
        self._shown: tuple[int, list[Diagnostic]] | None = None

    def __repr__(self) -> str:
        return (f"<Game lines {self.start}-{self.end} (next {self.next_start}): {self.game}, "
                f"{len(self.problems)} problems>")

    def tag(self, name: str) -> str | None:
        for key, value in self.tags:
            if key == name:
                return value
        return None

    def moved(self, delta: int) -> None:
        self.start += delta
        self.next_start += delta
        self.end += delta


def _next_start(game: DocumentGame) -> int:
    return game.next_start


def _start(game: DocumentGame) -> int:
    return game.start


class Document:
    """A document's text as lines (each with its line end) and its games.

    The text may be kept packed instead (:meth:`pack`: its UTF-8,
    compressed with zlib, and no analysis): the server packs the documents
    least recently used. :attr:`lines` unpacks it again when asked for.

    ``games`` are the games read and checked, in order, from the top;
    reading goes on at line ``resume`` (``None`` once the whole document is
    read); ``spare`` holds games read before an edit that lie after it,
    by the line where they now start, for reading to take up again where it
    meets one. Edits: :meth:`replace` (a range, as the protocol's
    incremental changes give it) and :meth:`set_text` (a whole text).
    """

    def __init__(self, text: str = "", *, max_size: int = MAX_DOCUMENT) -> None:
        self.max_size = max_size
        self._lines: list[str] | None = split_lines(text)
        self._packed: bytes | None = None
        self.size = len(text)
        self.games: list[DocumentGame] = []
        self.spare: dict[int, DocumentGame] = {}
        self.resume: int | None = 1
        self.checked = 0  # games read and checked, for the figures of benchmarks/lsp.py
        #: What the features worked out for a game (:func:`.replay.view`), until the next edit.
        self.views: dict[int, object] = {}
        self._work: Iterator[None] | None = None

    # -- the text

    @property
    def lines(self) -> list[str]:
        """The lines, each with its line end (unpacked first if the text is packed)."""
        if self._lines is None:
            self._lines = split_lines(self._unpacked())
            self._packed = None
        return self._lines

    @property
    def text(self) -> str:
        return self._unpacked() if self._lines is None else "".join(self._lines)

    @property
    def packed(self) -> bool:
        """Whether the text is kept packed (:meth:`pack`)."""
        return self._lines is None

    @property
    def footprint(self) -> int:
        """The bytes the packed text takes (0 when it is not packed)."""
        return len(self._packed) if self._packed is not None else 0

    def pack(self) -> None:
        """Keep the text as its UTF-8 compressed (zlib, fast level: PMN
        takes about a quarter of its size) and drop the analyses
        (:meth:`forget`); :attr:`lines` unpacks it when next asked for."""
        if self._lines is not None:
            self._packed = zlib.compress("".join(self._lines).encode("utf-8", "surrogatepass"), 1)
            self._lines = None
        self.forget()

    def _unpacked(self) -> str:
        assert self._packed is not None
        return zlib.decompress(self._packed).decode("utf-8", "surrogatepass")

    @property
    def too_large(self) -> bool:
        return self.size > self.max_size

    @property
    def complete(self) -> bool:
        """Every game of the document is read and checked."""
        return self.resume is None

    def line(self, line0: int) -> str:
        """The text of line ``line0`` (0-based) without its line end ('' past the end)."""
        return line_text(self.lines[line0]) if 0 <= line0 < len(self.lines) else ""

    def replace(self, line0: int, column0: int, end_line0: int, end_column0: int, text: str) -> None:
        """Replace the text from (``line0``, ``column0``) to (``end_line0``,
        ``end_column0``) (0-based, code points, the end exclusive) with
        ``text``: the protocol's incremental change. Places past the end of a
        line or of the document are taken as those ends."""
        lines = self.lines
        count = len(lines)
        if (end_line0, end_column0) < (line0, column0):
            line0, column0, end_line0, end_column0 = end_line0, end_column0, line0, column0
        if line0 >= count:
            line0, column0 = count - 1, len(line_text(lines[-1]))
        if end_line0 >= count:
            end_line0, end_column0 = count - 1, len(line_text(lines[-1]))
        line0, end_line0 = max(line0, 0), max(end_line0, 0)
        first = line_text(lines[line0])
        last = lines[end_line0]
        column0 = min(max(column0, 0), len(first))
        end_column0 = min(max(end_column0, 0), len(line_text(last)))
        segment = first[:column0] + text + last[end_column0:]
        start = line0
        if start > 0 and segment.startswith("\n") and lines[start - 1].endswith("\r"):
            start -= 1  # a CR that ended the line before and this LF are one line end now
            segment = lines[start] + segment
        new = split_lines(segment)
        if end_line0 < count - 1:
            new.pop()  # (the segment ends with the line end of end_line0: no line after it)
        self._splice(start, end_line0 + 1, new)

    def set_text(self, text: str) -> None:
        """Replace the whole text (a full-text change): only the lines that
        differ from the text before count as edited."""
        new = split_lines(text)
        old = self.lines
        if new == old:
            return
        limit = min(len(old), len(new))
        same = 0
        while same < limit and old[same] == new[same]:
            same += 1
        tail = 0
        while tail < limit - same and old[-1 - tail] == new[-1 - tail]:
            tail += 1
        self._splice(same, len(old) - tail, new[same:len(new) - tail])

    def _splice(self, start: int, stop: int, new: list[str]) -> None:
        """Lines ``start`` to ``stop`` (0-based, ``stop`` exclusive) become ``new``."""
        lines = self.lines
        self.size += sum(map(len, new)) - sum(map(len, itertools.islice(lines, start, stop)))
        lines[start:stop] = new
        self._edited(start + 1, stop, len(new) - (stop - start))

    def _edited(self, first: int, last: int, delta: int) -> None:
        """Lines ``first`` to ``last`` (1-based, of the text before; none when
        ``last < first``, an insertion before line ``first``) were replaced,
        and the document has ``delta`` more lines."""
        self._work = None  # (a reading under way read the text before the edit)
        self.views.clear()
        games = self.games
        kept = bisect.bisect_left(games, first, key=_next_start)
        if kept < len(games):
            restart = games[kept].start if kept else 1
        else:
            restart = self.resume if games and self.resume is not None else 1
        spare = self.spare
        for game in games[kept:]:
            spare[game.start] = game
        del games[kept:]
        self.spare = {}
        for game in spare.values():
            if game.next_start < first:
                self.spare[game.start] = game
            elif game.start > last:
                game.moved(delta)
                self.spare[game.start] = game
        self.resume = restart

    def forget(self) -> None:
        """Drop what reading and checking found (the text stays): the next
        :meth:`advance` reads the whole document again."""
        self.games = []
        self.spare = {}
        self.views.clear()
        self._work = None
        self.resume = 1

    # -- reading and checking

    def advance(self, budget: float | None = None, until_line: int | None = None) -> bool:
        """Read and check games: all that are left, or until ``budget``
        seconds have passed, or until the game that holds line ``until_line``
        (1-based) is read. Whether the whole document is read."""
        if self.too_large:
            self.games.clear()
            self.spare.clear()
            self.resume = 1
            self._work = None
            return True
        if self.resume is None:
            return True
        if until_line is not None and self.resume > until_line:
            return False
        if self._work is None:
            self._work = self._reading()
        deadline = None if budget is None else time.perf_counter() + budget
        for _ in self._work:
            if until_line is not None and self.resume is not None and self.resume > until_line:
                return False
            if deadline is not None and time.perf_counter() >= deadline:
                return self.resume is None
        self._work = None
        return True

    def _lines_from(self, line: int, stop: int | None = None,
                    long: list[int] | None = None) -> tuple[Iterable[str], int]:
        """The lines from ``line`` (1-based) to ``stop`` (exclusive; the end
        by default) for the reader, and the number it gives the first. The
        reader removes a byte-order mark from its first line: after the top,
        a blank line goes first. They stop before a line longer than
        validate reads (:func:`too_long`: validate stops there), whose
        number then goes in ``long``."""
        rest = self._short_lines(line, len(self.lines) + 1 if stop is None else min(stop, len(self.lines) + 1),
                                 [] if long is None else long)
        if line == 1:
            return rest, 1
        return itertools.chain(("",), rest), line - 1

    def _short_lines(self, line: int, stop: int, long: list[int]) -> Iterator[str]:
        lines = self.lines
        for index in range(line - 1, stop - 1):
            text = lines[index]
            if len(text) > MAX_LINE // 4 and too_long(text):
                long.append(index + 1)
                return
            yield text

    def _reading(self) -> Iterator[None]:
        """Read and check from line :attr:`resume` on, taking up the games set
        aside where the reader meets one; yields after each game read (the
        document is then as it would be if reading stopped there)."""
        while self.resume is not None:
            line = self.resume
            count = len(self.lines)
            if line > count:
                break
            reused = self.spare.pop(line, None)
            if reused is not None:
                self.games.append(reused)
                self.resume = reused.next_start
                continue
            pending: GameRecord | None = None
            long: list[int] = []
            lines, first = self._lines_from(line, long=long)
            met = None
            for record in read_games(lines, None, first):
                if pending is not None:
                    self.games.append(self._finish(pending, record.line))
                    self.resume = record.line
                    yield
                if record.line in self.spare:
                    met = record.line
                    break
                pending = record
            if met is not None:
                self.resume = met
                continue
            if long:
                # validate reads no further: the problem is the last game's
                # (a game of its own when none was being read), before its own
                pending = pending or GameRecord(line=long[0])
                pending.problems[:0] = [line_too_long(long[0])]
            if pending is not None:
                self.games.append(self._finish(pending, count + 1))
            break
        self.resume = None
        self.spare.clear()
        self._work = None

    def _finish(self, record: GameRecord, next_start: int) -> DocumentGame:
        """The game of ``record``, checked; the next game starts at ``next_start``."""
        self.checked += 1
        end = next_start - 1
        while end > record.line and not self.lines[end - 1].strip():
            end -= 1
        try:
            report = check(record)
            valid = not any(p.severity == "error" for p in report.problems)
            hints = capped(missing_numbers(record, limit=MAX_PROBLEMS + 1)) if valid else None
        except Exception as error:  # noqa: BLE001 (one game must not take the server down)
            problem = Problem("error", "internal", f"the game could not be checked: {type(error).__name__}: {error}",
                              record.line, 1)
            return DocumentGame(record.line, next_start, end, [problem], record.tags, record.tag("Game"), record.result, 0)
        return DocumentGame(record.line, next_start, end, report.problems, record.tags,
                    report.game.id if report.game is not None else record.tag("Game"), report.result, report.plies,
                    hints, count_moves(record))

    # -- what the features ask

    def all_games(self) -> list[DocumentGame]:
        """Every game, the whole document read first."""
        self.advance()
        return self.games

    def game_at(self, line0: int) -> DocumentGame | None:
        """The game whose lines hold line ``line0`` (0-based; the blank
        lines after a game are its own), read first if need be."""
        line = line0 + 1
        self.advance(until_line=line)
        games = self.games
        index = bisect.bisect_right(games, line, key=_start) - 1
        if index >= 0 and line < games[index].next_start:
            return games[index]
        return None

    def games_between(self, line0: int, end_line0: int) -> list[DocumentGame]:
        """The games whose lines meet lines ``line0`` to ``end_line0`` (0-based), read first if need be."""
        self.advance(until_line=end_line0 + 1)
        games = self.games
        first = max(bisect.bisect_right(games, line0 + 1, key=_start) - 1, 0)
        last = bisect.bisect_right(games, end_line0 + 1, key=_start)
        return [game for game in games[first:last] if game.next_start > line0 + 1]

    def record_of(self, game: DocumentGame) -> GameRecord:
        """The record of ``game``, read again from its lines (as they are now)."""
        lines, first = self._lines_from(game.start, game.next_start)
        for record in read_games(lines, None, first):
            return record
        return GameRecord(line=game.start)  # (not reached: a game has text)

    def diagnostics(self) -> list[Diagnostic]:
        """Every problem of the games read so far, and of those set aside
        after them while reading is under way, each game's hints after its
        problems; for a document without a game, validate's ``no-games``;
        for one too large, one diagnostic that says so."""
        if self.too_large:
            return [Diagnostic(0, 0, 0, 0, "warning", "too-large",
                               f"the document is {self.size:,} characters long: the language server checks "
                               f"documents of at most {self.max_size:,} characters")]
        out: list[Diagnostic] = []
        for game in self.games:
            out.extend(self.game_diagnostics(game))
        if self.resume is not None:
            for game in sorted(self.spare.values(), key=_start):
                out.extend(self.game_diagnostics(game))
        elif not self.games:
            out.append(Diagnostic(0, 0, 0, 0, "error", "no-games", "no game in the input"))
        return out

    def game_diagnostics(self, game: DocumentGame) -> list[Diagnostic]:
        """The problems of ``game`` where they are now, then its hints (in
        the order of ``game.hints``: :meth:`hints` pairs them)."""
        moved = game.start - game.read_at
        shown = game._shown
        if shown is not None and shown[0] == moved:
            return shown[1]
        out = []
        for problem in game.problems:
            out.append(self._placed(game, problem.line, problem.column, moved, problem.severity, problem.code,
                                    problem_message(problem)))
        for hint in game.hints:
            out.append(self._placed(game, hint.line, hint.column, moved, "hint", NO_MOVE_NUMBER, hint.message))
        game._shown = (moved, out)
        return out

    def _placed(self, game: DocumentGame, line: int | None, column: int | None, moved: int, severity: str, code: str,
                message: str) -> Diagnostic:
        """A diagnostic at the reader's ``line`` and ``column`` (as read;
        the game has moved by ``moved`` lines since), over the token there."""
        line0 = (line if line is not None else game.read_at) + moved - 1
        column0 = (column or 1) - 1
        if line0 == 0 and self.lines[0].startswith("\ufeff"):
            column0 += 1  # (the reader counts columns after the byte-order mark)
        return Diagnostic(line0, column0, line0, token_end(self.line(line0), column0), severity, code, message)

    def hints(self, game: DocumentGame) -> list[tuple[Diagnostic, Hint]]:
        """The hints of ``game``, each with its diagnostic where it is now."""
        if not game.hints:
            return []
        shown = self.game_diagnostics(game)
        return list(zip(shown[len(shown) - len(game.hints):], game.hints))
