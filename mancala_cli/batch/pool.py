"""The worker processes of ``--jobs N``: children of the command's process,
each given batches over a socket pair, and stopped with the command
whichever way it ends (:class:`WorkerPool`). Loaded only when a run starts
workers (:func:`.pipeline.process_pool`).

A worker is forked from a process that runs one thread (the command line's
case: the child starts at once, with every module loaded), and started as a
new interpreter (``fork`` then ``exec``, as ``subprocess`` does) from one that
runs several (a program that uses the library from threads, a test runner):
forking a threaded process copies locks that other threads may hold, and
the child can deadlock on them."""
from __future__ import annotations

import contextlib
import ctypes
import os
import pickle
import queue
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from multiprocessing.connection import Connection, Pipe, wait
from typing import Any, NoReturn

from ..files import STOP_SIGNALS
from .lifetime import BatchError, live

#: Calls a worker holds at a time: the one it works on and the next.
AHEAD = 2


class WorkerPool:
    """Worker processes started from this one, each given at most two batches
    at a time (the one it works on and the next) over a socket pair; the part of ``concurrent.futures.Executor`` the
    pipeline uses (``submit``, ``shutdown``), without its threads and
    queues, so that every way out is under this process's control:

    - :meth:`shutdown` (at the end of :func:`run`, and for any pool still
      alive when the command ends, :func:`.lifetime.stop_live`) kills the
      busy workers with SIGKILL and waits for them, within a bound: an
      interrupt ends the command within a second, whatever the workers are
      doing.
    - A worker that dies (a signal, the out-of-memory killer) ends the
      command with one line naming it (:class:`.lifetime.BatchError`,
      exit status 2), not with a traceback or a hang.
    - A worker whose parent dies (SIGKILL, the out-of-memory killer) ends
      too: on Linux the kernel kills it (``PR_SET_PDEATHSIG``), elsewhere
      a thread that watches the parent's process id ends it within a second.
    - Workers ignore Ctrl-C (SIGINT goes to the whole process group; the
      main process stops them); SIGTERM and SIGHUP end a worker at once.
    """

    def __init__(self, workers: int) -> None:
        self._workers: list[_Worker] = []
        self._queue: deque[tuple[_Answer, tuple[Any, ...]]] = deque()
        self._closed = False
        parent = os.getpid()
        # Signals wait while the workers start: one in the middle of a fork
        # would reach the child's copy of this process's handlers. (A new
        # interpreter inherits the mask, and its worker unblocks them.)
        held = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            live.add(self)
            fork = threads_running() == 1
            for _ in range(workers):
                mine, theirs = Pipe(duplex=True)
                if fork:
                    pid = os.fork()
                    if pid == 0:  # the worker; it never returns from _serve
                        _serve(theirs, parent, [worker.conn.fileno() for worker in self._workers] + [mine.fileno()])
                else:
                    pid = _start_interpreter(theirs.fileno(), parent)
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
        raise BatchError(f"worker process {pid} {how}; the command stopped")

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


def threads_running() -> int:
    """How many threads this process runs (all of them, the interpreter's
    and native ones, where the system tells: Linux; else Python's own)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return threading.active_count()


def _start_interpreter(fd: int, parent: int) -> int:
    """Start a worker as a new interpreter that serves the socket ``fd``
    (given to it as descriptor 3, or 4 where ``fd`` is 3): its process id.
    The interpreter finds this package where this process found it."""
    home = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [home, env.get("PYTHONPATH")]))
    # (dup2 onto another number clears close-on-exec, which the socket has)
    given = 3 if fd != 3 else 4
    code = f"from mancala_cli.batch.pool import serve_socket; serve_socket({given}, {parent})"
    return os.posix_spawn(sys.executable, [sys.executable, "-c", code], env,
                          file_actions=[(os.POSIX_SPAWN_DUP2, fd, given)])


def serve_socket(fd: int, parent: int) -> NoReturn:
    """A worker started as a new interpreter: serve the socket ``fd``."""
    _serve(Connection(fd), parent, [])


def _serve(conn: Any, parent: int, others: list[int]) -> NoReturn:
    """A worker's life: batches in, answers out, until its socket closes."""
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
        _watch(parent)
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
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)
    except (OSError, AttributeError, ImportError):
        return False


#: How often a worker that watches its parent looks (seconds).
WATCH_EVERY = 0.5


def _watch(parent: int) -> None:
    """End this worker within a second of its parent's death (where the
    kernel cannot be asked to): every :data:`WATCH_EVERY` seconds a timer's
    signal has the worker's main thread look at its parent. The main thread
    runs it between two steps of Python and within a native search, which
    checks the signals as often as its clock; a thread of its own would
    wait for the interpreter's lock that a long native search holds, and
    could let the worker outlive its parent as long as the search."""
    def look(signum: int, frame: object) -> None:
        if os.getppid() != parent:
            os._exit(1)

    signal.signal(signal.SIGALRM, look)
    signal.setitimer(signal.ITIMER_REAL, WATCH_EVERY, WATCH_EVERY)
