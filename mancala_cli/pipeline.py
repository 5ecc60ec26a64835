"""Checking and converting many games: streaming in batches, optionally over
several processes, with the output in input order.

The input is cut into games at the one boundary the PMN reader always
honours (a blank line followed by a line that starts with ``[``); batches of
games are read, replayed and formatted by :func:`process_batch`, in this
process (``jobs=1``) or in worker processes, and the results are written in
input order. Both paths run the same code, so ``--jobs 2`` gives the same
bytes as ``--jobs 1``. At most ``2 × jobs`` batches are in flight, so memory
stays flat whatever the input size.
"""
from __future__ import annotations

import itertools
import json
import os
import signal
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field

from notation.jsonrec import record_to_json
from notation.pmn import read_games, write_game
from notation.position import format_position
from notation.record import GameRecord, Problem

from .inputs import json_records
from .replay import replay

#: Lines of PMN per batch (about 100 games of typical length).
BATCH_LINES = 600


@dataclass(frozen=True)
class Options:
    """What to do with every game."""

    command: str                 # "validate" or "convert"
    target: str = "text"         # validate: text | json; convert: pmn | json | xml
    default_game: str | None = None
    strict: bool = False
    coords: str | None = None
    positions: bool = False


@dataclass
class GameResult:
    """One game's output: text for standard output (``index`` filled in by the
    caller for validate's JSON), diagnostics, counts, and for XML the record."""

    out: str
    diagnostics: list[str] = field(default_factory=list)
    moves: int = 0
    errors: int = 0
    warnings: int = 0
    record: GameRecord | None = None
    start: str | None = None
    #: How many games this result stands for (0 for an input without games).
    record_count: int = 1


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
    takes the problems found while its lines were read.
    """
    chunk: list[str] = []
    first = 1
    number = 0
    blank_before = True
    pmn = kind == "pmn"
    for line in lines:
        number += 1
        if len(chunk) >= size and (not pmn or (blank_before and line.lstrip().startswith("["))):
            yield _batch(kind, file, first, chunk, pending)
            chunk = []
            first = number
        chunk.append(line)
        blank_before = not line.strip()
    if chunk:
        yield _batch(kind, file, first, chunk, pending)


def _batch(kind: str, file: str, first: int, chunk: list[str], pending: list[Problem]) -> Batch:
    taken = list(pending)
    pending.clear()
    return Batch(kind, file, first, chunk, taken, sum(map(len, chunk)))


def _attach(records: list[GameRecord], problems: list[Problem]) -> None:
    """Give each decoding problem to the game whose lines hold it (before
    the game's own problems)."""
    owned: dict[int, list[Problem]] = {}
    for problem in problems:
        owner = 0
        for k, record in enumerate(records):
            if record.line <= (problem.line or 0):
                owner = k
        owned.setdefault(owner, []).append(problem)
    for k, mine in owned.items():
        records[k].problems[:0] = reversed(mine)


def process_batch(options: Options, batch: Batch) -> list[GameResult]:
    """Read, replay and format every game of a batch."""
    if batch.kind == "json":
        records = list(json_records(batch.lines, batch.file, batch.first_line))
    else:
        records = list(read_games(batch.lines, batch.file, batch.first_line))
    if batch.problems:
        if not records:
            records = [GameRecord(file=batch.file, line=batch.first_line)]
        _attach(records, batch.problems)
    return [process_record(options, record) for record in records]


def sorted_problems(problems: list[Problem]) -> list[Problem]:
    return sorted(problems, key=lambda p: (p.line is None, p.line or 0, p.column or 0))


def problem_line(path: str, problem: Problem) -> str:
    """``FILE:LINE:COL: error: 4... c1: KG-ORIGIN: message [position …; legal: …]``."""
    where = ""
    if problem.ply is not None and problem.move is not None:
        fields = (problem.position or "").split()
        if len(fields) == 4:
            where = f"{fields[3]}{'.' if fields[1] == 'S' else '...'} {problem.move}: "
        else:
            where = f"ply {problem.ply} ({problem.move}): "
    text = (f"{path}:{problem.line or 0}:{problem.column or 0}: {problem.severity}: "
            f"{where}{problem.code}: {problem.message}")
    if problem.position is not None and problem.legal is not None:
        text += f" [position {problem.position}; legal: {' '.join(problem.legal) or 'none'}]"
    return text


def problem_json(problem: Problem) -> dict:
    out = {"severity": problem.severity, "line": problem.line, "column": problem.column,
           "ply": problem.ply, "move": problem.move, "rule": problem.code, "message": problem.message}
    if problem.position is not None:
        out["position"] = problem.position
    if problem.legal is not None:
        out["legal"] = problem.legal
    return out


def report_json(file: str, line: int | None, game: str | None, plies: int, result: str | None, valid: bool,
                problems: list[dict], ensure_ascii: bool = True) -> str:
    """One game's line of ``validate --format json`` (``index`` is numbered by the caller)."""
    return json.dumps({"file": file, "index": None, "line": line, "game": game, "plies": plies,
                       "result": result, "valid": valid, "problems": problems}, ensure_ascii=ensure_ascii)


def process_record(options: Options, record: GameRecord) -> GameResult:
    """Replay one record and format what the command prints for it."""
    converting = options.command == "convert"
    report = replay(record, options.default_game, fill_positions=converting and options.positions,
                    fill_marks=converting, coords=options.coords if converting else None)
    if options.strict:
        for problem in report.problems:
            problem.severity = "error"
    problems = sorted_problems(report.problems)
    name = record.file or "-"
    result = GameResult("", moves=report.plies, errors=report.errors, warnings=report.warnings)
    if not converting:
        if options.target == "json":
            result.out = report_json(name, record.line, report.game.id if report.game else None,
                                     report.plies, report.result, report.valid,
                                     [problem_json(p) for p in problems], ensure_ascii=False)
        else:
            result.out = "".join(problem_line(name, p) + "\n" for p in problems)
        return result
    result.diagnostics = [problem_line(name, p) for p in problems]
    if options.target == "pmn":
        result.out = write_game(record)
        return result
    start = format_position(report.game, report.start) if report.start else None
    if options.target == "json":
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
        result.out = report_json(file, 1, None, 0, None, False, [problem_json(problem)])
    else:
        result.out = line + "\n"
    return result


def usable_cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def run(options: Options, work: Iterable[Batch], jobs: int = 1) -> Iterator[tuple[Batch, list[GameResult]]]:
    """Process batches in order, over worker processes when ``jobs`` is more
    than one: at most ``jobs``, the usable cores and the number of batches."""
    work = iter(work)
    ahead = list(itertools.islice(work, min(jobs, usable_cores())))
    workers = min(jobs, usable_cores(), len(ahead))
    if workers <= 1:
        for batch in itertools.chain(ahead, work):
            yield batch, process_batch(options, batch)
        return
    # The workers are forked, and later stopped, with the stop signals held
    # back: a signal in the middle of a fork would be lost in the fork's own
    # handlers, and one in the middle of the shutdown would leave workers
    # behind. A held signal takes effect as soon as it is let through.
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    pool = None
    try:
        pool = ProcessPoolExecutor(max_workers=workers, initializer=_quiet_worker)
        pool.submit(int).result()  # starts every worker now
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        yield from _ordered(pool, options, itertools.chain(ahead, work), 2 * workers)
    finally:
        signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
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
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)


_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}


def _ordered(pool: Executor, options: Options, work: Iterable[Batch], window: int):
    flight: deque = deque()
    for batch in work:
        flight.append((batch, pool.submit(process_batch, options, batch)))
        if len(flight) >= window:
            done, future = flight.popleft()
            yield done, future.result()
    while flight:
        done, future = flight.popleft()
        yield done, future.result()
