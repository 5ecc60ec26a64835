"""Checking and converting many games: batches of games
(:mod:`mancala_cli.files.batches`) processed in this process or over
several worker processes, with the output in input order.

Batches of games are read, replayed and formatted by
:func:`~mancala_cli.files.batches.process_batch`, in this process
(``jobs=1``) or in worker processes (:class:`WorkerPool`), and the results
are numbered (:func:`number`) and written in input order. Both paths run
the same code, so ``--jobs 2`` gives the same bytes as ``--jobs 1``. At
most ``2 × jobs`` batches are in flight, so memory stays flat whatever the
input size.
"""
from __future__ import annotations

import contextlib
import dataclasses
import itertools
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn

from notation.record import GameRecord, Problem

from ..checking import Replay, replay
from ..files import STOP_SIGNALS
from ..files.batches import Batch, Task, batches, fewer_collections, process_batch
from ..files.sources import Source, sniff
from .reporters import game_report, problem_line, report_line, sorted_problems
from .streams import CommandError, live

if TYPE_CHECKING:
    from ..archives import Criteria
    from ..files.writing import GameFormat, WrittenGame
    from .cluster import Cluster, DaskExecutor


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

    @property
    def writing(self) -> GameFormat:
        """How convert writes the games."""
        from ..files.writing import GameFormat

        return GameFormat(self.target, self.coords, self.positions)


@dataclass
class GameResult:
    """One game's output: validate's text for standard output, diagnostics,
    counts, and convert's game as written (``written``). ``index`` is the
    game's number in its input, given by :func:`number` in input order;
    validate's JSON line is finished there."""

    out: str
    diagnostics: list[str] = field(default_factory=list)
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
        from notation.xml import read_archive

        done: Iterable[Any] = (task.process(record) for record in read_archive(source.stream, file=source.name))
    else:
        done = _flat(run(task, batches(source.lines(), kind, source.name, source.problems), jobs), advance)
    with fewer_collections():
        yield from done


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
    or on the Dask cluster ``jobs`` (:mod:`.cluster`). However the run ends
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


#: Calls a worker holds at a time: the one it works on and the next.
AHEAD = 2


def process_pool(workers: int) -> WorkerPool:
    """The worker processes, started now."""
    return WorkerPool(workers)


class WorkerPool:
    """Worker processes forked from this one, each given at most two batches
    at a time (the one it works on and the next) over a socket pair; the part of ``concurrent.futures.Executor`` the
    pipeline uses (``submit``, ``shutdown``), without its threads and
    queues, so that every way out is under this process's control:

    - :meth:`shutdown` (at the end of :func:`run`, and for any pool still
      alive when the command ends, :func:`.streams.stop_live`) kills the
      busy workers with SIGKILL and waits for them, within a bound: an
      interrupt ends the command within a second, whatever the workers are
      doing.
    - A worker that dies (a signal, the out-of-memory killer) ends the
      command with one line naming it (:class:`.streams.CommandError`,
      exit status 2), not with a traceback or a hang.
    - A worker whose parent dies (SIGKILL, the out-of-memory killer) ends
      too: on Linux the kernel kills it (``PR_SET_PDEATHSIG``), elsewhere
      a thread that watches the parent's process id ends it within a second.
    - Workers ignore Ctrl-C (SIGINT goes to the whole process group; the
      main process stops them); SIGTERM and SIGHUP end a worker at once.
    """

    def __init__(self, workers: int) -> None:
        from multiprocessing.connection import Pipe

        self._workers: list[_Worker] = []
        self._queue: deque[tuple[_Answer, tuple[Any, ...]]] = deque()
        self._closed = False
        parent = os.getpid()
        # Signals wait while the workers are forked: one in the middle of a
        # fork would reach the child's copy of this process's handlers.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            live.add(self)
            for _ in range(workers):
                mine, theirs = Pipe(duplex=True)
                pid = os.fork()
                if pid == 0:  # the worker; it never returns from _serve
                    _serve(theirs, parent, [worker.conn.fileno() for worker in self._workers] + [mine.fileno()])
                theirs.close()
                self._workers.append(_Worker(pid, mine))
        except BaseException:
            self.shutdown()
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
            raise
        try:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)  # a held signal takes effect here
        except BaseException:
            self.shutdown()
            raise

    def submit(self, function: Callable[..., Any], *args: Any) -> _Answer:
        """``function(*args)`` in a worker, as soon as one is free."""
        answer = _Answer(self)
        self._queue.append((answer, (function, args)))
        self._dispatch()
        return answer

    def _dispatch(self) -> None:
        """Give queued calls to the workers, at most :data:`AHEAD` each (the
        next one waits in the worker while it works on one)."""
        while self._queue:
            worker = min(self._workers, key=lambda worker: len(worker.answers))
            if len(worker.answers) >= AHEAD:
                return
            answer, call = self._queue.popleft()
            try:
                worker.conn.send(call)
            except OSError:  # (the worker is gone)
                self._lost(worker)
            worker.answers.append(answer)

    def _wait(self) -> None:
        """Wait for the answer of at least one busy worker."""
        from multiprocessing.connection import wait

        if self._closed:
            raise RuntimeError("the worker processes are stopped")
        busy = {worker.conn: worker for worker in self._workers if worker.answers}
        for conn in wait(list(busy)):
            worker = busy[conn]
            try:
                ok, value = worker.conn.recv()
            except (EOFError, OSError):  # the worker died
                self._lost(worker)
            answer = worker.answers.popleft()
            answer.done, answer.ok, answer.value = True, ok, value
        self._dispatch()

    def _lost(self, worker: _Worker) -> NoReturn:
        status = _reap(worker.pid, 1.0)
        if status is None:
            how = "stopped answering"
        elif os.WIFSIGNALED(status):
            number = os.WTERMSIG(status)
            try:
                name = signal.Signals(number).name
            except ValueError:
                name = f"signal {number}"
            how = f"was killed by {name}"
        else:
            how = f"ended with status {os.waitstatus_to_exitcode(status)}"
        pid, worker.pid = worker.pid, 0  # (reaped)
        self.shutdown()
        raise CommandError(f"worker process {pid} {how}; the command stopped")

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop every worker: an idle one ends as its socket closes, a busy
        one is killed; then wait for them (at most about a second each)."""
        if self._closed:
            return
        self._closed = True
        held = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            for worker in self._workers:
                if worker.answers and worker.pid:
                    _kill(worker.pid)
                worker.conn.close()
            for worker in self._workers:
                if worker.pid and _reap(worker.pid, 1.0) is None:
                    _kill(worker.pid)
                    _reap(worker.pid, 1.0)
            self._queue.clear()
            live.discard(self)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)


class _Worker:
    """A worker process: its id, its end of the socket pair
    (``multiprocessing.connection.Connection``) and the answers of the calls
    it was given, in order."""

    __slots__ = ("pid", "conn", "answers")

    def __init__(self, pid: int, conn: Any) -> None:
        self.pid, self.conn = pid, conn
        self.answers: deque[_Answer] = deque()


class _Answer:
    """A batch's answer, once its worker gave it (``result()`` waits for it)."""

    def __init__(self, pool: WorkerPool) -> None:
        self.pool = pool
        self.done = False
        self.ok = True
        self.value: Any = None

    def result(self) -> Any:
        while not self.done:
            self.pool._wait()
        if not self.ok:
            raise self.value
        return self.value


def _kill(pid: int) -> None:
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)


def _reap(pid: int, within: float) -> int | None:
    """The wait status of the child ``pid`` once it ended (``None`` if it
    still runs after ``within`` seconds; 0 if it was reaped already)."""
    import time

    deadline = time.monotonic() + within
    pause = 0.0005
    while True:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return 0
        if done:
            return status
        if time.monotonic() >= deadline:
            return None
        time.sleep(pause)
        pause = min(2 * pause, 0.02)


def _serve(conn: Any, parent: int, others: list[int]) -> NoReturn:
    """A worker's life: batches in, answers out, until its socket closes."""
    import pickle

    code = 0
    try:
        _quiet_worker(parent)
        for fd in others:  # the main process's ends of the sockets
            with contextlib.suppress(OSError):
                os.close(fd)
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(null, 1)
        os.close(null)
        inbox = _inbox(conn)
        while (call := inbox.get()) is not None:
            function, args = call
            try:
                answer: tuple[bool, Any] = (True, function(*args))
            except Exception as error:  # noqa: BLE001 (given back to the main process, which raises it)
                answer = (False, error)
            try:
                conn.send(answer)
            except (pickle.PicklingError, TypeError, AttributeError) as error:
                conn.send((False, RuntimeError(f"a worker's answer cannot be sent back: {error}")))
    except BaseException:  # noqa: BLE001 (the main process sees the worker end)
        code = 1
    finally:
        os._exit(code)


def _inbox(conn: Any) -> Any:
    """The calls that come on ``conn``, read as they come by a thread of
    their own (so that the main process never waits to hand over the next
    one), then ``None``."""
    import queue
    import threading

    inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()

    def read() -> None:
        try:
            while True:
                inbox.put(conn.recv())
        except BaseException:  # noqa: BLE001 (EOF: the main process closed its end, or ended)
            inbox.put(None)

    threading.Thread(target=read, daemon=True).start()
    return inbox


def _quiet_worker(parent: int) -> None:
    """Workers leave interrupts to the main process, which stops them; a
    hang-up or SIGTERM sent to a worker ends it at once; a worker whose
    parent dies ends too."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    if not _die_with(parent):
        import threading

        threading.Thread(target=_watch, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # the parent died before the watch began
        os._exit(1)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


#: ``prctl`` option: the signal this process gets when its parent dies (Linux).
_PR_SET_PDEATHSIG = 1
#: Whether workers ask the kernel for that signal (else they watch the parent).
_USE_PDEATHSIG = True


def _die_with(parent: int) -> bool:
    """Ask the kernel to kill this process when its parent dies (Linux);
    whether it will."""
    if not (_USE_PDEATHSIG and sys.platform.startswith("linux")):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)
    except (OSError, AttributeError, ImportError):
        return False


def _watch(parent: int) -> None:
    """End this worker within a second of its parent's death (where the
    kernel cannot be asked to)."""
    import time

    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


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
