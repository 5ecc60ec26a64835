"""Connecting to a Dask cluster (``--scheduler``): its scheduler probed
within a time and a size, its workers asked which project they run
(:func:`~.cluster.stamp`), the :class:`~.cluster.Cluster` made. This module
imports Dask distributed (the ``dask`` extra) and asyncio:
:func:`mancala_cli.batch.runs.connected_cluster` loads it only for a run with a
scheduler, and says in one line when Dask is not installed."""
from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import distributed
from distributed.comm import tcp
from distributed.comm.addressing import get_address_host_port
from distributed.comm.core import CommClosedError, connect as comm_connect

from .dask_executor import CONNECTING_BYTES, HANDSHAKE_BYTES, Cluster, one_line, stamp, worker_stamp
from .lifetime import ClusterError

__all__ = ["connect"]


def connect(address: str, timeout: float) -> Cluster:
    """A :class:`Cluster` at ``address`` whose every worker runs this very
    project. Raises :class:`ClusterError`: Dask not installed, no scheduler
    answering within ``timeout`` seconds, no worker within that time, or a
    worker without the project or with another version of it. The whole
    connection (the probe, the client, the first worker, the workers'
    stamps) takes ``timeout`` seconds at most, and no message read while it
    lasts may announce more than :data:`CONNECTING_BYTES` (nor the
    handshake more than :data:`HANDSHAKE_BYTES`)."""
    # The command's errors are its own lines; Dask's log would add others
    # (Dask gives some of its loggers levels of their own).
    for name in ["distributed", "tornado", *logging.root.manager.loggerDict]:
        if name.split(".")[0] in ("distributed", "tornado"):
            logging.getLogger(name).setLevel(logging.CRITICAL)

    own = stamp()
    if not address.isprintable():
        raise ClusterError(f"--scheduler {address!r}: not a scheduler address (it holds a control character)")
    try:
        host, port = get_address_host_port(address)
    except (ValueError, TypeError) as error:
        raise ClusterError(f"--scheduler {address}: not a scheduler address ({one_line(error)})") from None
    if not 0 < port < 65536:
        raise ClusterError(f"--scheduler {address}: not a scheduler address (port {port} is not in 1-65535)")
    deadline = time.monotonic() + timeout

    def left() -> float:
        return max(deadline - time.monotonic(), 0.001)

    with _bounded_frames(HANDSHAKE_BYTES, "more than a Dask handshake's {:,}", total=True):
        _probe(address, timeout)
    try:
        with _bounded_frames(CONNECTING_BYTES, "more than {:,}, the most a scheduler's answer may have while connecting"), \
                _bounded_reads(deadline):
            cluster = _connected(address, timeout, left, own)
    except _NotDask as error:
        raise ClusterError(f"--scheduler {address}: what answered is not a Dask scheduler ({error})") from None
    return cluster


def _connected(address: str, timeout: float, left: Callable[[], float], own: str) -> Cluster:
    """:func:`connect`'s client, its first worker and their stamps checked,
    each step within what is ``left`` of the time."""
    try:
        client = _client(distributed, address, left())
    except _NotDask:
        raise
    except (OSError, TimeoutError, ValueError, TypeError):
        raise ClusterError(f"--scheduler {address}: no Dask scheduler answered within {timeout:g} s") from None
    except Exception as error:  # noqa: BLE001 (whatever else the peer's answers make Dask raise)
        raise ClusterError(f"--scheduler {address}: the Dask scheduler failed ({one_line(error)})") from None
    try:
        try:
            client.wait_for_workers(1, timeout=left())
        except (TimeoutError, OSError):
            raise ClusterError(f"--scheduler {address}: no worker joined within {timeout:g} s") from None
        answers = _ask_workers(client, left(), timeout)
        for worker, answer in sorted(answers.items()):
            if isinstance(answer, BaseException):
                raise ClusterError(f"worker {worker} cannot load the project ({one_line(answer)}); "
                                   f"install mancala on every worker")
            if answer != own:
                raise ClusterError(f"worker {worker} runs {answer}, this command {own}; "
                                   f"install the same version on every worker")
        threads = sum(info.get("nthreads", 1) for info in client.scheduler_info()["workers"].values())
    except BaseException:
        client.close(timeout=5)
        raise
    return Cluster(client, address, threads, own)


def _client(distributed: Any, address: str, timeout: float) -> Any:
    """A Dask client of the scheduler at ``address`` (Dask's classes carry
    no annotations: the client is ``Any``)."""
    return distributed.Client(address, timeout=timeout, set_as_default=False)


class _NotDask(Exception):
    """What answered at the address is not a Dask scheduler (the message says why)."""


@contextmanager
def _bounded_frames(limit: int, bound: str, *, total: bool = False) -> Iterator[None]:
    """Dask's TCP reads, while this lasts, refuse a message that announces
    more than ``limit`` bytes (``total``: all of them together) with
    :class:`_NotDask` (``bound`` says the limit, ``{:,}`` in it): Dask's reader (``read_bytes_rw``) takes every
    frame's size from the peer and allocates it before reading a byte. (It
    bounds every Dask connection of the process the while: a command has no
    other.)"""
    read_frame: Callable[..., Any] = tcp.read_bytes_rw
    announced = [0]

    async def bounded_read(stream: Any, size: int) -> Any:
        announced[0] = announced[0] + size if total else size
        if announced[0] > limit:
            raise _NotDask(f"it announces a message of {announced[0]:,} bytes, {bound.format(limit)}")
        return await read_frame(stream, size)

    setattr(tcp, "read_bytes_rw", bounded_read)  # (restored below)
    try:
        yield
    finally:
        setattr(tcp, "read_bytes_rw", read_frame)


@contextmanager
def _bounded_reads(deadline: float) -> Iterator[None]:
    """Every message read over Dask's TCP connections, while this lasts,
    ends by ``deadline`` (:func:`time.monotonic`) with :class:`TimeoutError`:
    Dask waits for a connection's handshake without a bound in time (the
    client's, once the probe's was answered). A read begun while this lasts
    that is still waiting at the deadline, once this is over, waits on (the
    client's stream of reports, say)."""
    read: Callable[..., Any] = tcp.TCP.read
    connecting = [True]

    async def bounded_read(comm: Any, *args: Any, **kwargs: Any) -> Any:
        task = asyncio.ensure_future(read(comm, *args, **kwargs))
        try:
            return await asyncio.wait_for(asyncio.shield(task), max(deadline - time.monotonic(), 0))
        except (TimeoutError, asyncio.TimeoutError):
            if connecting[0]:
                task.cancel()
                raise
            return await task
        except asyncio.CancelledError:
            task.cancel()
            raise

    setattr(tcp.TCP, "read", bounded_read)  # (restored below)
    try:
        yield
    finally:
        connecting[0] = False
        setattr(tcp.TCP, "read", read)


def _probe(address: str, timeout: float) -> None:
    """Connect to ``address`` and read its Dask handshake, all within
    ``timeout`` seconds (Dask's own connection waits for the handshake
    without a bound in time, and a peer that is not a Dask scheduler, a web
    server say, can make it raise anything; the size of what it reads is
    bounded by :func:`connect`). Raises :class:`ClusterError`."""
    open_comm: Callable[..., Any] = comm_connect  # (Dask's functions carry no annotations)

    async def probe() -> None:
        try:
            comm = await open_comm(address, timeout=timeout)
        except CommClosedError:  # (connected, then closed by the peer)
            raise _NotDask("it closed the connection without a Dask handshake") from None
        await comm.close()

    async def bounded() -> None:
        await asyncio.wait_for(probe(), timeout)

    try:
        asyncio.run(bounded())
    except _NotDask as error:
        raise ClusterError(f"--scheduler {address}: what answered is not a Dask scheduler ({error})") from None
    except (OSError, TimeoutError, asyncio.TimeoutError):
        raise ClusterError(f"--scheduler {address}: no Dask scheduler answered within {timeout:g} s") from None
    except Exception as error:  # noqa: BLE001 (MemoryError, OverflowError, ... from reading what is not Dask's)
        name, text = type(error).__name__, one_line(error)
        raise ClusterError(f"--scheduler {address}: what answered is not a Dask scheduler "
                           f"({name if text == name else f'{name}: {text}'})") from None


def _ask_workers(client: Any, within: float, timeout: float) -> dict[str, Any]:
    """Every worker's :func:`stamp`, or the error it gave (``within`` seconds;
    ``timeout``: the whole connection's, as the message says)."""
    async def ask() -> Any:
        return await asyncio.wait_for(client._run(worker_stamp, on_error="return"), within)

    try:
        answers: dict[str, Any] = client.sync(ask)
    except (TimeoutError, asyncio.TimeoutError, OSError):
        raise ClusterError(f"--scheduler {client.scheduler.address}: the workers did not answer "
                           f"within {timeout:g} s") from None
    return answers
