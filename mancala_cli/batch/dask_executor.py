"""Batches on a Dask cluster (``--scheduler ADDRESS``): the executor-like
object that :func:`.pipeline.run` takes in place of its local worker
processes, and the checks that make a cluster fail in one line rather than
hang or give other bytes.

:func:`.dask_client.connect` reaches the scheduler within a timeout, waits for a worker
and asks every worker for its :func:`stamp` (the project's version and a
digest of its sources): a worker without the project, or with another
version of it, is an error before any output is opened. Every batch carries
the client's stamp too (:func:`checked`), so a worker that joins later is
caught as well. The batches are submitted in input order and their results
taken in that order, as from the local pool; a worker that dies is
replaced by Dask, which reruns its batches elsewhere.

``distributed`` is imported only by :mod:`.dask_client`: ``import`` of this
module costs nothing, and workers import it to run :func:`checked`.
"""
from __future__ import annotations

import os
import pickle
from collections.abc import Callable
from hashlib import sha256
from typing import Any

from ..files.batches import fewer_collections
from ..version import __version__
from .lifetime import BatchError

#: What ``--scheduler`` without Dask installed says to run.

#: The most bytes a scheduler's first message (its handshake, a few hundred
#: bytes) may announce before :func:`connect` takes the peer for no Dask
#: scheduler: Dask's own reader allocates whatever a peer announces.
HANDSHAKE_BYTES = 1 << 20

#: The most bytes a message may announce while :func:`connect` is connecting
#: (the scheduler's answers: who it is, its workers, their stamps; a few
#: kilobytes a worker): past it the peer is taken for no Dask scheduler.
CONNECTING_BYTES = 16 << 20

#: This process's stamp, once worked out (see :func:`stamp`).
_stamp: str | None = None


class ProjectMismatch(RuntimeError):
    """Raised on a worker whose project is not the client's."""


def stamp() -> str:
    """The project's version and a digest of the sources that decide its
    output (the rules, the notation, the checks), the same for the native
    and the pure core, which give the same results (a differential test
    holds them together).

        >>> stamp().startswith("mancala 0.1.0 ")
        True
    """
    global _stamp
    if _stamp is None:
        digest = sha256()
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        for root in (here, os.path.join(os.path.dirname(here), "notation")):
            for folder, dirs, files in sorted(os.walk(root)):
                dirs.sort()
                for name in sorted(files):
                    if name.endswith(".py"):
                        path = os.path.join(folder, name)
                        digest.update(os.path.relpath(path, os.path.dirname(root)).encode())
                        with open(path, "rb") as source:
                            digest.update(sha256(source.read()).digest())
        _stamp = f"mancala {__version__} {digest.hexdigest()[:16]}"
    return _stamp


def checked(expected: str, function: Callable[..., Any], *args: Any) -> Any:
    """``function(*args)`` on a worker whose :func:`stamp` is ``expected``;
    raises :class:`ProjectMismatch` on another."""
    mine = stamp()
    if mine != expected:
        raise ProjectMismatch(f"a worker runs {mine}, this command {expected}")

    with fewer_collections():  # as local workers run (they inherit it from the command)
        return function(*args)


def worker_stamp() -> str:
    """What :func:`connect` asks every worker (through ``client.run``)."""
    return stamp()


class _Call:
    """``function(*args)``, run by unpickling it (see :meth:`DaskExecutor.submit`)."""

    def __init__(self, function: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self.function, self.args = function, args

    def __reduce__(self) -> tuple[Any, ...]:
        return self.function, self.args


class _Outcome:
    """A batch's future whose failure ends the command with one line
    (``mancala: error: …``, exit 2)."""

    def __init__(self, future: Any) -> None:
        self.future = future

    def result(self) -> Any:
        try:
            return self.future.result()
        except ProjectMismatch as error:
            message = f"{error}; install the same version on every worker"
        except (ImportError, AttributeError) as error:  # a worker without the project
            message = f"a worker cannot load the project ({one_line(error)}); install mancala on every worker"
        except Exception as error:  # noqa: BLE001 (a batch that failed on every worker it was given to)
            message = f"the cluster failed a batch: {one_line(error)}"
        raise BatchError(message)


class DaskExecutor:
    """The part of ``concurrent.futures.Executor`` the pipeline uses
    (``submit``, ``shutdown``), over a connected :class:`Cluster`.

    A batch is sent as a task that only the standard library runs:
    ``pickle.loads`` of bytes whose unpickling calls :func:`checked`. A
    worker that cannot import the project then fails that task (an error
    the command reports) instead of failing to decode the message that
    carries it, which kills the worker and leaves the batch waiting."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.futures: list[Any] = []

    def submit(self, function: Callable[..., Any], *args: Any) -> _Outcome:
        payload = pickle.dumps(_Call(checked, (self.cluster.stamp, function, *args)), pickle.HIGHEST_PROTOCOL)
        future = self.cluster.client.submit(pickle.loads, payload, pure=False)
        self.futures = [f for f in self.futures if not f.done()]
        self.futures.append(future)
        return _Outcome(future)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Drop the batches not yet done (on an interrupt, a closed pipe or an error)."""
        pending = [future for future in self.futures if not future.done()]
        self.futures = []
        if cancel_futures and pending:
            try:
                self.cluster.client.cancel(pending)
            except Exception:  # noqa: BLE001 (the scheduler may be gone already)
                pass


class Cluster:
    """A client connected to a Dask scheduler (from :func:`connect`)."""

    def __init__(self, client: Any, address: str, threads: int, own_stamp: str) -> None:
        self.client, self.address, self.threads, self.stamp = client, address, threads, own_stamp

    @property
    def window(self) -> int:
        """Batches in flight: four per worker thread (twice as many as for
        local workers, to cover the round trips), so memory stays flat."""
        return 4 * max(1, self.threads)

    def executor(self) -> DaskExecutor:
        return DaskExecutor(self)

    def close(self) -> None:
        try:
            self.client.close(timeout=5)
        except Exception:  # noqa: BLE001 (closing a client whose scheduler went away)
            pass


def one_line(error: BaseException) -> str:
    """An error's message on one line of at most 200 characters."""
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 200 else text[:197] + "..."
