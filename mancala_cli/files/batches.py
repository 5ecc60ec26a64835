"""Reading many games: an input cut into batches that end at game
boundaries, the records of a batch, every record of an input.

The input is cut into games at the one boundary the PMN reader always
honours (a blank line followed by a line that starts with ``[``), or, for
games without tags, where the reader is between games (:class:`_Between`
follows it). A batch is plain data: it can be read in this process or in a
worker process (:func:`process_batch`) with the same records as a result.
:func:`read_records` reads one input so, record by record.
"""
from __future__ import annotations

import bisect
import contextlib
import gc
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from notation import grammar
from notation.grammar import TAG_LINE_RE
from notation.pmn_reader import MAX_GAME_LINES, MAX_GAME_TEXT, after_tag_line, read_games
from notation.record import GameRecord, Problem

from .reports import counted
from .sources import MAX_ENCODING_PROBLEMS, STDIN_NAME, Source, cap_encoding_problems, open_source, sniff

#: Lines of PMN per batch (about 100 games of typical length).
BATCH_LINES = 600
#: Characters per batch: a batch is also full when its lines hold this many.
BATCH_CHARS = 1 << 20


@dataclass(slots=True)
class Batch:
    """Lines of one input (``pmn`` or ``json``) that hold whole games."""

    kind: str
    file: str
    first_line: int
    lines: list[str]
    problems: list[Problem]
    size: int = 0


def batches(lines: Iterable[str], kind: str, file: str, pending: list[Problem],
            size: int = BATCH_LINES) -> Iterator[Batch]:
    """Cut decoded lines into batches that end at a game boundary.

    ``pending`` is the list the decoder appends its problems to; each batch
    takes the problems found while its lines were read. A PMN batch ends
    before a ``[`` line that follows a blank line; when no such line comes
    within ``size`` more lines (games without tags), before the first line
    where the reader is between games (see :class:`_Between`).
    """
    return _Cutter(kind, file, pending, size).run(lines)


class _Cutter:
    """The state of :func:`batches` between two lines."""

    def __init__(self, kind: str, file: str, pending: list[Problem], size: int) -> None:
        self.kind, self.file, self.pending, self.size = kind, file, pending, size
        self.pmn = kind == "pmn"
        self.chunk: list[str] = []
        self.chars = 0
        self.first = 1
        self.number = 0
        self.blank_before = True
        self.between: _Between | None = None
        self.passing: _Passing | None = None  # the rest of a game too long, passed over
        self.raw = 0  # lines as the decoder counts them (for its problems: it takes no CR for a line end)
        self.game_line = 1  # where the game being read starts, so counted (known while between is followed)
        self.thin_at = _FEW_PROBLEMS  # the pending problems are thinned when there are more
        # Past these the reader is followed (PMN only): a game may be too
        # long, or hold very many problems.
        never = sys.maxsize
        self.text_limit = MAX_GAME_TEXT if self.pmn else never
        self.lines_limit = MAX_GAME_LINES if self.pmn else never
        self.problems_limit = _FEW_PROBLEMS if self.pmn else never

    def run(self, lines: Iterable[str]) -> Iterator[Batch]:
        for line in lines:
            self.number += 1
            self.raw += 1
            if (self.passing is not None or not self.chunk) and self.passed_over(line):
                continue
            if len(self.chunk) >= self.size or self.chars >= BATCH_CHARS:
                batch, kept = self.cut_before(line)
                if batch is not None:
                    yield batch
                if not kept:
                    continue
            self.chunk.append(line)
            self.chars += len(line)
            self.blank_before = not line.strip()
            if self.between is not None or self.chars > self.text_limit or len(self.chunk) > self.lines_limit \
                    or len(self.pending) > self.problems_limit:
                self.follow(line)
            if "\r" in line and self.pmn:  # the reader counts a CR inside a line as a line end
                self.number += _extra_lines(line)
            if self.passing is not None:
                yield self.take()
        if self.chunk or self.pending:  # a first line too long to read leaves only its problem
            yield _batch(self.kind, self.file, self.first, self.chunk, self.pending)

    def passed_over(self, line: str) -> bool:
        """Whether ``line``, at the start of a batch or while the rest of a
        game too long is passed over, is left out of the batches (PMN only)."""
        if not self.pmn:
            return False
        passing = self.passing
        if passing is not None and not passing.resumes(line):
            # The reader passes these lines over: they are not kept
            # (their encoding problems are the game's, which has its error).
            if self.pending:
                self.pending[:] = [p for p in self.pending if p.code != "encoding"]
            if "\r" in line:
                self.number += _extra_lines(line)
            return True
        if passing is None and not line.strip() and "\r" not in line and line[:1] != "\ufeff":
            # blank lines between games are not kept either
            self.first = self.number + 1
            self.blank_before = True
            return True
        if passing is not None:
            self.passing = None
            self.first = self.number
            self.blank_before = True
        elif self.number > 1 and line[:1] == "\ufeff":
            # (a reader drops a BOM from the first line of a batch only:
            # the blank line passed over before it comes first)
            self.chunk.append("\n")
            self.first = self.number - 1
        return False

    def cut_before(self, line: str) -> tuple[Batch | None, bool]:
        """A full batch, ended before ``line`` where a game may start there
        (else, past twice the size, the reader is followed from now on), and
        whether ``line`` is kept (not a blank line between games)."""
        if not self.pmn or _game_starts(line, self.blank_before, self.between):
            batch = self.take()
            self.first = self.number
            if self.pmn and not line.strip() and "\r" not in line:  # (blank lines between games are not kept)
                self.first = self.number + 1
                self.blank_before = True
                return batch, False
            return batch, True
        if self.between is None and (len(self.chunk) >= 2 * self.size or self.chars >= 2 * BATCH_CHARS):
            self.between = _Between()
            for old in self.chunk:
                self.between.feed(old)
        return None, True

    def follow(self, line: str) -> None:
        """Follow the reader through ``line`` (from the batch's start when it
        was not followed yet): where a game starts, where the rest of a game
        too long is passed over, and the problems of its last game thinned."""
        between = self.between
        if between is not None:
            games = between.games
            between.feed(line)
            if between.games != games:
                self.game_line = self.raw
        else:
            between = self.between = _Between()  # (a game may be too long, or hold very many problems)
            self.game_line = k = self.raw - len(self.chunk) + 1
            for old in self.chunk:
                games = between.games
                between.feed(old)
                if between.games != games:
                    self.game_line = k
                k += 1
        if between.over:  # the reader passes the rest of this game over: the batch ends here
            self.passing = _Passing(between.prev_blank)
        if len(self.pending) > self.thin_at:
            _thin(self.pending, self.game_line)
            self.thin_at = len(self.pending) + _FEW_PROBLEMS

    def take(self) -> Batch:
        """The batch of the lines so far; a new one begins."""
        batch = _batch(self.kind, self.file, self.first, self.chunk, self.pending)
        self.chunk = []
        self.chars = 0
        self.between = None
        self.thin_at = _FEW_PROBLEMS
        return batch


#: Decoding problems held for a batch before those of its last game are
#: thinned (a game reports at most MAX_ENCODING_PROBLEMS of them).
_FEW_PROBLEMS = 4 * MAX_ENCODING_PROBLEMS


def _thin(pending: list[Problem], game_line: int) -> None:
    """Keep, of the encoding problems on the lines of the game that starts
    on line ``game_line`` (as the decoder counts lines; the last problems:
    they come in line order), the first ones that game reports (and the
    one that says there are more)."""
    k = len(pending)
    while k and (pending[k - 1].line or 0) >= game_line:
        k -= 1
    seen = 0
    kept = []
    for problem in pending[k:]:
        if problem.code == "encoding":
            seen += 1
            if seen > MAX_ENCODING_PROBLEMS + 1:
                continue
        kept.append(problem)
    pending[k:] = kept


def _extra_lines(line: str) -> int:
    """The lines the reader counts in ``line`` but one (it takes a CR inside a line for a line end)."""
    return len(re.split(_LINE_BREAK, _without_end(line))) - 1 if "\r" in line else 0


class _Passing:
    """Follows the reader while it passes over the rest of a game too long
    (notation.pmn.MAX_GAME_TEXT): up to a line that starts with ``[`` after
    a blank line."""

    def __init__(self, prev_blank: bool) -> None:
        self.prev_blank = prev_blank

    def resumes(self, raw: str) -> bool:
        """Whether the reader reads ``raw`` (a new game starts in it)."""
        if "\r" not in raw and "[" not in raw:  # (most lines: only whether it is blank matters)
            self.prev_blank = not raw.strip()
            return False
        text = _without_end(raw)
        for line in (re.split(_LINE_BREAK, text) if "\r" in text or "\n" in text else (text,)):
            if not line.strip():
                self.prev_blank = True
                continue
            if self.prev_blank and _TAG_START(line):
                return True
            self.prev_blank = False
        return False


def _game_starts(line: str, blank_before: bool, between: _Between | None) -> bool:
    """Whether a PMN batch may end before ``line``: a ``[`` line after a blank
    line, or a line where the reader (followed by ``between``) is between games."""
    if blank_before and line.lstrip().startswith("["):
        return True
    return between is not None and between.clean and line[0] != "\ufeff"


_TAG_START = re.compile(r"\s*\[").match
_TAG_LINE = TAG_LINE_RE.match
#: A line end inside a line, as the reader splits lines (compiled by :mod:`re`,
#: and kept in its cache, when first used: few inputs have a CR). The movetext
#: tokens are read by ``notation.grammar.TOKEN_RE``, compiled when first used.
_LINE_BREAK = r"\r\n|\r|\n"
#: Movetext without these characters opens no comment and holds no result token.
_NOTHING_TO_SEE = re.compile(r"[^{;*-]*\Z").match


def _without_end(line: str) -> str:
    """``line`` without its line end, as the reader splits lines (notation.pmn._lines)."""
    return line[:-2] if line.endswith("\r\n") else line[:-1] if line.endswith(("\n", "\r")) else line


class _Between:
    """Follows the PMN reader's state from the start of a batch (where it is
    between games) just far enough to know where it is between games again:
    after a blank line that follows a result token outside comments, as the
    reader ends a game there. Cutting there gives the same games as reading
    on. It also counts the text of the game being read as the reader does,
    to know where the reader passes the rest of a game too long over
    (notation.pmn.MAX_GAME_TEXT): ``over``."""

    def __init__(self) -> None:
        self.phase = "between"  # between | tags | moves | done
        self.comment = False
        self.prev_blank = False
        self.first = True
        self.lost = False
        self.size = 0  # the game's characters before the line before
        self.nlines = 0  # and its lines
        self.last = 0  # the line before's, with its line end
        self.over = False
        self.games = 0  # games started

    @property
    def clean(self) -> bool:
        return self.phase == "between" and not self.comment and not self.lost and not self.over

    def _new_game(self) -> None:
        self.size = self.nlines = 0
        self.games += 1

    def feed(self, raw: str) -> None:
        text = _without_end(raw)
        if self.first:
            self.first = False
            text = text.removeprefix("\ufeff")
        for line in (re.split(_LINE_BREAK, text) if "\r" in text or "\n" in text else (text,)):
            self._line(line)

    def _line(self, line: str) -> None:
        # (as notation.pmn._Reader.run counts a game's text)
        if self.phase != "between" and self._passed_over(line):
            return
        self.last = len(line) + 1
        if self.comment:
            self._in_comment(line)
            return
        if not line.strip():
            if self.phase == "done":
                self.phase = "between"
            self.prev_blank = True
            return
        is_tag = _TAG_START(line) is not None
        if self.phase == "between":
            self.phase = "tags" if is_tag else "moves"
            self._new_game()
        elif is_tag and (self.phase != "tags" or self.prev_blank):
            self.phase = "tags"
            self._new_game()
        elif self.phase == "tags" and not is_tag:
            self.phase = "moves"
        self.prev_blank = False
        if self.phase == "tags":
            self._tags(line)
        else:
            self._movetext(line, 0)

    def _passed_over(self, line: str) -> bool:
        """Count ``line`` in the game's text; whether it is passed over as
        the rest of a game too long (the line that starts the next game is
        read here)."""
        if not self.over:
            self.size += self.last
            self.nlines += 1
            self.over = self.size > MAX_GAME_TEXT or self.nlines > MAX_GAME_LINES
        if not self.over:
            return False
        if not line.strip():
            self.prev_blank = True
            return True
        if not (self.prev_blank and _TAG_START(line)):
            self.prev_blank = False
            return True
        self.over = self.comment = False
        self.last = len(line) + 1
        self._tag_game(line)
        return True

    def _in_comment(self, line: str) -> None:
        """A line inside a comment: a tag line after a blank line starts a
        game (the reader's recovery), a ``}`` ends the comment."""
        if not line.strip():
            self.prev_blank = True
            return
        if self.prev_blank and _TAG_START(line):
            self.comment = False
            self._tag_game(line)
            return
        self.prev_blank = False
        close = line.find("}")
        if close >= 0:
            self.comment = False
            self._movetext(line, close + 1)

    def _tag_game(self, line: str) -> None:
        """A game that starts with the tag line ``line``."""
        self.phase = "tags"
        self._new_game()
        self.prev_blank = False
        self._tags(line)

    def _tags(self, line: str) -> None:
        # A line that is not one well-formed tag pair may end in movetext
        # (the reader's careful scanner): the reader's own scanner says.
        if _TAG_LINE(line) is None:
            # what the reader makes of it (tags, then perhaps movetext), as it reads it
            self.phase, self.comment = after_tag_line(line)

    def _movetext(self, line: str, pos: int) -> None:
        if _NOTHING_TO_SEE(line, pos):  # no comment, no result: nothing changes
            return
        for m in grammar.TOKEN_RE.finditer(line, pos):
            kind = m.lastgroup
            if kind == "RESULT":
                self.phase = "done"
            elif kind == "OPENCOMMENT":
                self.comment = True
                return
            elif kind == "LINECOMMENT":
                return


def _batch(kind: str, file: str, first: int, chunk: list[str], pending: list[Problem]) -> Batch:
    taken = list(pending)
    pending.clear()
    return Batch(kind, file, first, chunk, taken, sum(map(len, chunk)))


def _attach(records: list[GameRecord], problems: list[Problem]) -> None:
    """Give each decoding problem to the game whose lines hold it (before
    the game's own problems), at most :data:`MAX_ENCODING_PROBLEMS` encoding
    problems a game."""
    starts = [record.line for record in records]
    owned: dict[int, list[Problem]] = {}
    for problem in problems:
        owner = max(0, bisect.bisect_right(starts, problem.line or 0) - 1)
        owned.setdefault(owner, []).append(problem)
    for k, mine in owned.items():
        records[k].problems[:0] = cap_encoding_problems(mine)


def batch_records(batch: Batch) -> list[GameRecord]:
    """The records of a batch, with the batch's decoding problems attached."""
    if batch.kind == "json":
        # (local: the JSON Lines reader and json load only for JSON input;
        # validate of PMN, whose start-up is measured, loads this module:
        # docs/performance.md, 'Start-up')
        from notation.jsonl import json_records

        records = list(json_records(batch.lines, batch.file, batch.first_line))
    else:
        records = list(read_games(batch.lines, batch.file, batch.first_line))
    if batch.problems:
        if not records:
            records = [GameRecord(file=batch.file, line=batch.first_line)]
        _attach(records, batch.problems)
    return records


class Task(Protocol):
    """Work of a command on every game (:class:`Options` for validate and
    convert, ``filter``, ``stats``, ``annotate``): plain data, sent to the
    workers, whose ``process`` gives each game's answer."""

    def process(self, record: GameRecord) -> Any: ...


def process_batch(task: Task, batch: Batch) -> list[Any]:
    """Every game of a batch read and given to ``task``."""
    return [task.process(record) for record in batch_records(batch)]


def read_records(source: Source, kind: str | None = None) -> Iterator[GameRecord]:
    """Every record of one input (XML, JSON Lines or PMN: ``kind``, or by
    content), read as validate and convert read them, numbered from 1
    (``index``). Raises InputError or XMLArchiveError."""
    kind = kind or sniff(source)
    if kind == "xml":
        from notation.xml_reader import read_archive  # (local: lxml loads only for XML archives)

        records: Iterable[GameRecord] = read_archive(source.stream, file=source.name)
    else:
        records = (record for batch in batches(source.lines(), kind, source.name, source.problems)
                   for record in batch_records(batch))
    for n, record in enumerate(records, 1):
        record.index = n
        yield record


def read_input(path: str, encoding: str = "utf-8") -> Iterator[GameRecord]:
    """Every record of the input at ``path`` (``-``: standard input), as
    :func:`read_records` reads them. Raises InputError or XMLArchiveError."""
    with open_source(path, encoding) as source:
        yield from read_records(source)


class NoSuchGame(LookupError):
    """An input with fewer games than the number asked for: ``index``,
    and ``count``, the games it has."""

    def __init__(self, name: str, index: int, count: int) -> None:
        super().__init__(f"{name}: has no game number {index} (it has {counted(count, 'game')})")
        self.index = index
        self.count = count


def read_game_number(path: str, index: int, encoding: str = "utf-8") -> GameRecord:
    """Game ``index`` (from 1) of the input at ``path`` (``-``: standard
    input), read no further. Raises :class:`NoSuchGame` (the input named as
    ``validate`` names it), InputError or XMLArchiveError."""
    count = 0
    for count, record in enumerate(read_input(path, encoding), 1):
        if count == index:
            return record
    raise NoSuchGame(STDIN_NAME if path == "-" else path, index, count)


#: Allocations between two collections of the youngest generation of
#: objects while games are processed (Python's default is 700).
YOUNG_COLLECTIONS = 10_000


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Fewer runs of the collector of reference cycles while games are
    processed, as before afterwards: the objects alive at the start (the
    modules, the rules) are left out of its scans, and the youngest
    generation is collected every :data:`YOUNG_COLLECTIONS` allocations.
    A game makes a few objects per move, in no cycle (reference counting
    frees them); with Python's defaults the collector's scans took a tenth
    of validate's time. Workers forked meanwhile inherit the setting."""
    threshold = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(threshold[0], YOUNG_COLLECTIONS), *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()
