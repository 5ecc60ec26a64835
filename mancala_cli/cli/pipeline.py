"""Checking and converting many games: streaming in batches, optionally over
several processes, with the output in input order.

The input is cut into games at the one boundary the PMN reader always
honours (a blank line followed by a line that starts with ``[``), or, for
games without tags, where the reader is between games; batches of games
are read, replayed and formatted by :func:`process_batch`, in this process
(``jobs=1``) or in worker processes, and the results are numbered
(:func:`number`) and written in input order. Both paths run the same code,
so ``--jobs 2`` gives the same bytes as ``--jobs 1``. At most ``2 × jobs``
batches are in flight, so memory stays flat whatever the input size.
:func:`read_records` reads an input the same way for ``render``.
"""
from __future__ import annotations

import bisect
import contextlib
import dataclasses
import gc
import itertools
import os
import re
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from notation.grammar import TAG_LINE_RE, TOKEN_RE
from notation.pmn import read_games, write_game
from notation.position import format_position
from notation.record import GameRecord, Problem

from .inputs import STOP_SIGNALS, Source, cap_encoding_problems, sniff
from .reporters import game_report, problem_line, report_line, sorted_problems
from ..checking import Replay, replay

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from .cluster import Cluster, DaskExecutor
    from ..archives import Criteria

#: Lines of PMN per batch (about 100 games of typical length).
BATCH_LINES = 600
#: Characters per batch: a batch is also full when its lines hold this many.
BATCH_CHARS = 1 << 20


@dataclass(frozen=True)
class Options:
    """What to do with every game."""

    command: str                 # "validate" or "convert"
    target: str = "text"         # validate: text | json; convert: pmn | json | xml
    default_game: str | None = None
    strict: bool = False
    coords: str | None = None
    positions: bool = False
    #: validate: only the games that match (``--where``).
    where: Criteria | None = None

    def process(self, record: GameRecord) -> GameResult:
        """Replay one record and format what the command prints for it (the
        :class:`Task` of validate and convert)."""
        return process_record(self, record)


@dataclass
class GameResult:
    """One game's output: text for standard output, diagnostics, counts, and
    for XML the record. ``index`` is the game's number in its input, given by
    :func:`number` in input order; validate's JSON line is finished there."""

    out: str
    diagnostics: list[str] = field(default_factory=list)
    moves: int = 0
    errors: int = 0
    warnings: int = 0
    record: GameRecord | None = None
    start: str | None = None
    #: How many games this result stands for (0 for an input without games).
    record_count: int = 1
    index: int | None = None
    #: validate's JSON report, written as ``out`` once the game is numbered.
    report: dict[str, Any] | None = None
    ascii: bool = False
    #: Not one of the games asked for (``validate --where``): nothing to print or count.
    skipped: bool = False


@dataclass
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
    chunk: list[str] = []
    chars = 0
    first = 1
    number = 0
    blank_before = True
    pmn = kind == "pmn"
    between: _Between | None = None
    for line in lines:
        number += 1
        if len(chunk) >= size or chars >= BATCH_CHARS:
            if not pmn or _game_starts(line, blank_before, between):
                yield _batch(kind, file, first, chunk, pending)
                chunk = []
                chars = 0
                first = number
                between = None
            elif pmn and between is None and (len(chunk) >= 2 * size or chars >= 2 * BATCH_CHARS):
                between = _Between()
                for old in chunk:
                    between.feed(old)
        chunk.append(line)
        chars += len(line)
        blank_before = not line.strip()
        if between is not None:
            between.feed(line)
        if pmn and "\r" in line:  # the reader counts a CR inside a line as a line end
            number += len(_LINE_BREAK.split(_without_end(line))) - 1
    if chunk or pending:  # a first line too long to read leaves only its problem
        yield _batch(kind, file, first, chunk, pending)


def _game_starts(line: str, blank_before: bool, between: _Between | None) -> bool:
    """Whether a PMN batch may end before ``line``: a ``[`` line after a blank
    line, or a line where the reader (followed by ``between``) is between games."""
    if blank_before and line.lstrip().startswith("["):
        return True
    return between is not None and between.clean and bool(line.strip()) and line[0] != "\ufeff"


_TAG_START = re.compile(r"\s*\[").match
_TAG_LINE = TAG_LINE_RE.match
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_SCAN = TOKEN_RE.finditer
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
    on."""

    def __init__(self) -> None:
        self.phase = "between"  # between | tags | moves | done
        self.comment = False
        self.prev_blank = False
        self.first = True
        self.lost = False

    @property
    def clean(self) -> bool:
        return self.phase == "between" and not self.comment and not self.lost

    def feed(self, raw: str) -> None:
        text = _without_end(raw)
        if self.first:
            self.first = False
            text = text.removeprefix("\ufeff")
        for line in (_LINE_BREAK.split(text) if "\r" in text or "\n" in text else (text,)):
            self._line(line)

    def _line(self, line: str) -> None:
        if self.comment:
            if not line.strip():
                self.prev_blank = True
                return
            if self.prev_blank and _TAG_START(line):
                self.comment = False
                self.phase = "tags"
                self.prev_blank = False
                self._tags(line)
                return
            self.prev_blank = False
            close = line.find("}")
            if close >= 0:
                self.comment = False
                self._movetext(line, close + 1)
            return
        if not line.strip():
            if self.phase == "done":
                self.phase = "between"
            self.prev_blank = True
            return
        is_tag = _TAG_START(line) is not None
        if self.phase == "between":
            self.phase = "tags" if is_tag else "moves"
        elif is_tag and (self.phase != "tags" or self.prev_blank):
            self.phase = "tags"
        elif self.phase == "tags" and not is_tag:
            self.phase = "moves"
        self.prev_blank = False
        if self.phase == "tags":
            self._tags(line)
        else:
            self._movetext(line, 0)

    def _tags(self, line: str) -> None:
        # A line that is not one well-formed tag pair may end in movetext
        # (the reader's careful scanner); when that could open a comment or
        # hold a result, the state is not followed further (no cut until the
        # next ``[`` line after a blank line).
        if _TAG_LINE(line) is None and not _NOTHING_TO_SEE(line):
            self.lost = True

    def _movetext(self, line: str, pos: int) -> None:
        if _NOTHING_TO_SEE(line, pos):  # no comment, no result: nothing changes
            return
        for m in _SCAN(line, pos):
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
        from notation.xml import read_archive

        records: Iterable[GameRecord] = read_archive(source.stream, file=source.name)
    else:
        records = (record for batch in batches(source.lines(), kind, source.name, source.problems)
                   for record in batch_records(batch))
    for n, record in enumerate(records, 1):
        record.index = n
        yield record


def results(source: Source, options: Options, jobs: int | Cluster = 1,
            advance: Callable[[int], None] | None = None) -> Iterator[GameResult]:
    """Every game's result for one input, in input order and numbered
    (:func:`number`); an input without games gives the ``no-games`` result.
    ``advance`` is told the characters of every batch done. Raises
    InputError or XMLArchiveError."""
    count = 0
    for result in task_results(source, options, jobs, advance):
        count += 1
        yield number(result, count)
    if not count:
        yield number(no_games(options, source.name), 1)


def task_results(source: Source, task: Task, jobs: int | Cluster = 1,
                 advance: Callable[[int], None] | None = None) -> Iterator[Any]:
    """Every game's answer of ``task`` for one input, in input order (none
    for an input without games). Raises InputError or XMLArchiveError."""
    kind = sniff(source)
    if kind == "xml":
        from notation.xml import read_archive

        done: Iterable[Any] = (task.process(record) for record in read_archive(source.stream, file=source.name))
    else:
        done = _flat(run(task, batches(source.lines(), kind, source.name, source.problems), jobs), advance)
    with fewer_collections():
        yield from done


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


def _flat(work: Iterable[tuple[Batch, list[Any]]], advance) -> Iterator[Any]:
    for batch, done in work:
        if advance:
            advance(batch.size)
        yield from done


def number(result: GameResult, index: int) -> GameResult:
    """Give a result its game number: in the record (XML names games by it)
    and in validate's JSON line."""
    result.index = index
    if result.record is not None:
        result.record.index = index
    if result.report is not None:
        result.out = report_line(result.report, index, ensure_ascii=result.ascii)
        result.report = None
    return result


def process_record(options: Options, record: GameRecord) -> GameResult:
    """Replay one record and format what the command prints for it."""
    if options.where is not None:
        matched, report = options.where.judge(record, lambda record: replay_record(options, record))
        if not matched:
            return GameResult("", record_count=0, skipped=True)
        return format_result(options, record, report or replay_record(options, record))
    return format_result(options, record, replay_record(options, record))


def replay_record(options: Options, record: GameRecord) -> Replay:
    """Replay one record as the command asks (convert rewrites its moves)."""
    converting = options.command == "convert"
    return replay(record, options.default_game, fill_positions=converting and options.positions,
                  fill_marks=converting, coords=options.coords if converting else None)


def format_result(options: Options, record: GameRecord, report: Replay) -> GameResult:
    """What the command prints for one replayed record."""
    converting = options.command == "convert"
    if options.strict:
        report.problems = [dataclasses.replace(problem, severity="error") for problem in report.problems]
    problems = sorted_problems(report.problems)
    name = record.file or "-"
    result = GameResult("", moves=report.plies, errors=report.errors, warnings=report.warnings)
    if not converting:
        if options.target == "json":
            result.report = game_report(name, record.line, report.game.id if report.game else None,
                                        report.plies, report.result, report.valid, problems)
        else:
            result.out = "".join(problem_line(name, p) + "\n" for p in problems)
        return result
    result.diagnostics = [problem_line(name, p) for p in problems]
    if options.target == "pmn":
        result.out = write_game(record)
        return result
    start = format_position(report.game, report.start) if report.game and report.start else None
    if options.target == "json":
        from notation.jsonl import record_to_json

        result.out = record_to_json(record, report.game.id if report.game else None, start) + "\n"
    else:
        result.record = record
        result.start = start
    return result


def no_games(options: Options, file: str) -> GameResult:
    """The result for an input that holds no game at all (an error)."""
    problem = Problem("error", "no-games", "no game in the input", 1, 1)
    line = problem_line(file, problem)
    result = GameResult("", errors=1, record_count=0)
    if options.command == "convert":
        result.diagnostics = [line]
    elif options.target == "json":
        result.report = game_report(file, 1, None, 0, None, False, [problem])
        result.ascii = True
    else:
        result.out = line + "\n"
    return result


def usable_cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def run(task: Task, work: Iterable[Batch],
        jobs: int | Cluster = 1) -> Iterator[tuple[Batch, list[Any]]]:
    """Process batches in order, over worker processes when ``jobs`` is more
    than one: at most ``jobs``, the usable cores and the number of batches;
    or on the Dask cluster ``jobs`` (:mod:`.cluster`)."""
    work = iter(work)
    if not isinstance(jobs, int):
        cluster = jobs.executor()
        try:
            yield from _ordered(cluster, task, work, jobs.window)
        finally:
            cluster.shutdown(wait=False, cancel_futures=True)
        return
    ahead = list(itertools.islice(work, min(jobs, usable_cores())))
    workers = min(jobs, len(ahead))
    if workers <= 1:
        for batch in itertools.chain(ahead, work):
            yield batch, process_batch(task, batch)
        return
    # The workers are forked, and later stopped, with the stop signals held
    # back: a signal in the middle of a fork would be lost in the fork's own
    # handlers, and one in the middle of the shutdown would leave workers
    # behind. A held signal takes effect as soon as it is let through.
    held = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    pool = None
    try:
        pool = process_pool(workers)
        pool.submit(int).result()  # starts every worker now
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        yield from _ordered(pool, task, itertools.chain(ahead, work), 2 * workers)
    finally:
        signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            if pool is not None:
                # On an interrupt or a closed pipe, batches not yet started are dropped.
                pool.shutdown(wait=True, cancel_futures=True)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _quiet_worker() -> None:
    """Workers leave interrupts to the main process, which cleans up and
    exits; a hang-up or SIGTERM sent to a worker ends it at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


def process_pool(workers: int) -> Executor:
    """The worker processes (concurrent.futures loads only when a run needs them)."""
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(max_workers=workers, initializer=_quiet_worker)


def _ordered(pool: Executor | DaskExecutor, task: Task, work: Iterable[Batch], window: int):
    flight: deque = deque()
    for batch in work:
        flight.append((batch, pool.submit(process_batch, task, batch)))
        if len(flight) >= window:
            done, future = flight.popleft()
            yield done, future.result()
    while flight:
        done, future = flight.popleft()
        yield done, future.result()
