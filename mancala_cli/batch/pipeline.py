"""Checking and converting many games: batches of games
(:mod:`mancala_cli.files.batches`) processed in this process or over
several worker processes, with the output in input order.

Batches of games are read, replayed and formatted by
:func:`~mancala_cli.files.batches.process_batch`, in this process
(``jobs=1``) or in worker processes (:class:`.workers.WorkerPool`), and the results
are numbered (:func:`number`) and written in input order. Both paths run
the same code, so ``--jobs 2`` gives the same bytes as ``--jobs 1``. At
most ``2 × jobs`` batches are in flight, so memory stays flat whatever the
input size.
"""
from __future__ import annotations

import dataclasses
import itertools
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from notation.record import GameRecord, Problem

from ..checking import Replay, replay
from ..files.batches import Batch, Task, batches, fewer_collections, process_batch
from ..files.reports import game_report, problem_line, report_line, sorted_problems
from ..files.sources import Source, sniff

if TYPE_CHECKING:
    from ..archives.criteria import Criteria
    from ..files.writing import GameFormat, WrittenGame
    from .dask_executor import Cluster, DaskExecutor
    from .pool import WorkerPool


@dataclasses.dataclass(frozen=True, slots=True)
class Options:
    """What to do with every game (sent to the worker processes with each batch)."""

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

    @property
    def writing(self) -> GameFormat:
        """How convert writes the games."""
        from ..files.writing import GameFormat  # (validate does without: docs/performance.md, 'Start-up')

        return GameFormat(self.target, self.coords, self.positions)


@dataclasses.dataclass(slots=True)
class GameResult:
    """One game's output: validate's text for standard output, diagnostics,
    counts, and convert's game as written (``written``). ``index`` is the
    game's number in its input, given by :func:`number` in input order;
    validate's JSON line is finished there."""

    out: str
    diagnostics: list[str] = dataclasses.field(default_factory=list)
    moves: int = 0
    errors: int = 0
    warnings: int = 0
    written: WrittenGame | None = None
    #: The input the game comes from (convert: its records' file).
    file: str | None = None
    #: How many games this result stands for (0 for an input without games).
    record_count: int = 1
    index: int | None = None
    #: validate's JSON report, written as ``out`` once the game is numbered.
    report: dict[str, Any] | None = None
    ascii: bool = False
    #: Not one of the games asked for (``validate --where``): nothing to print or count.
    skipped: bool = False


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
        from notation.xml_reader import read_archive  # (lxml: not for PMN input; docs/performance.md, 'Start-up')

        records = read_archive(source.stream, file=source.name)
        done: Iterable[Any] = _read_through(source, task, records, advance)
    else:
        done = _flat(run(task, batches(source.lines(), kind, source.name, source.problems), jobs), advance)
    with fewer_collections():
        yield from done


def _read_through(source: Source, task: Task, records: Iterable[GameRecord],
                  advance: Callable[[int], None] | None) -> Iterator[Any]:
    """The answers of the records of an XML archive, ``advance`` told after
    each the bytes the parser has read of the input since (so a progress bar
    follows an archive as it does the batches of a PMN file)."""
    if advance is None:
        yield from (task.process(record) for record in records)
        return
    read = _bytes_read(source)
    for record in records:
        answer = task.process(record)
        now = _bytes_read(source)
        advance(now - read)
        read = now
        yield answer


def _bytes_read(source: Source) -> int:
    """How far into its input ``source`` has been read (0 where its stream
    cannot tell: a pipe, which has no bar total either)."""
    try:
        return source.stream.tell()
    except (OSError, ValueError):
        return 0


def _flat(work: Iterable[tuple[Batch, list[Any]]], advance: Callable[[int], None] | None) -> Iterator[Any]:
    for batch, done in work:
        if advance:
            advance(batch.size)
        yield from done


def number(result: GameResult, index: int) -> GameResult:
    """Give a result its game number (validate's JSON line shows it)."""
    result.index = index
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
    if options.command == "convert":
        return options.writing.replay(record, options.default_game)
    return replay(record, options.default_game)


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
    result.written = options.writing.game(record, report)
    result.file = record.file
    inexact = result.written.problems
    if inexact:  # what PMN cannot hold: said, and the exit status is 1
        result.diagnostics += [problem_line(name, p) for p in inexact]
        result.errors += len(inexact)
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
    or on the Dask cluster ``jobs`` (:mod:`.dask_executor`). However the run ends
    (done, an error, an interrupt, a closed pipe), the workers end with it."""
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
    pool = process_pool(workers)
    try:
        yield from _ordered(pool, task, itertools.chain(ahead, work), 2 * workers)
    finally:
        # Batches not yet done are dropped: busy workers are killed at once.
        pool.shutdown(wait=False, cancel_futures=True)


def process_pool(workers: int) -> WorkerPool:
    """The worker processes, started now (:class:`.pool.WorkerPool`)."""
    from .pool import WorkerPool  # (a run without workers does without it; docs/performance.md, 'Start-up')

    return WorkerPool(workers)


def _ordered(pool: WorkerPool | DaskExecutor, task: Task, work: Iterable[Batch],
             window: int) -> Iterator[tuple[Batch, Any]]:
    """The batches of ``work`` and their answers, in order, with at most
    ``window`` batches in flight."""
    flight: deque[tuple[Batch, Any]] = deque()
    for batch in work:
        flight.append((batch, pool.submit(process_batch, task, batch)))
        if len(flight) >= window:
            done, future = flight.popleft()
            yield done, future.result()
    while flight:
        done, future = flight.popleft()
        yield done, future.result()
