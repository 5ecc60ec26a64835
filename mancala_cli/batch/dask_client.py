"""Connecting to a Dask cluster (``--scheduler``): its scheduler probed
within a time and a size, its workers asked which project they run
(:func:`~.cluster.stamp`), the :class:`~.cluster.Cluster` made. This module
imports Dask distributed (the ``dask`` extra) and asyncio:
:func:`mancala_cli.batch.runs.connected_cluster` loads it only for a run with a
scheduler, and says in one line when Dask is not installed."""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import distributed
from distributed.comm import tcp
from distributed.comm.addressing import get_address_host_port
from distributed.comm.core import CommClosedError, connect as comm_connect

from .dask_executor import HANDSHAKE_BYTES, Cluster, one_line, stamp, worker_stamp
from .lifetime import ClusterError

__all__ = ["connect"]


def connect(address: str, timeout: float) -> Cluster:
    """A :class:`Cluster` at ``address`` whose every worker runs this very
    project. Raises :class:`ClusterError`: Dask not installed, no scheduler
    answering within ``timeout`` seconds, no worker within that time, or a
    worker without the project or with another version of it."""
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
    _probe(address, timeout)
    try:
        client = _client(distributed, address, timeout)
    except (OSError, TimeoutError, ValueError, TypeError):
        raise ClusterError(f"--scheduler {address}: no Dask scheduler answered within {timeout:g} s") from None
    except Exception as error:  # noqa: BLE001 (whatever else the peer's answers make Dask raise)
        raise ClusterError(f"--scheduler {address}: the Dask scheduler failed ({one_line(error)})") from None
    try:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except (TimeoutError, OSError):
            raise ClusterError(f"--scheduler {address}: no worker joined within {timeout:g} s") from None
        answers = _ask_workers(client, timeout)
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


def _probe(address: str, timeout: float) -> None:
    """Connect to ``address`` and read its Dask handshake, all within
    ``timeout`` seconds and :data:`HANDSHAKE_BYTES` (Dask's own connection
    waits for the handshake without a bound in time, allocates whatever size
    the peer announces, and a peer that is not a Dask scheduler, a web server
    say, can make it raise anything). Raises :class:`ClusterError`."""
    open_comm: Callable[..., Any] = comm_connect  # (Dask's functions carry no annotations)
    read_frame: Callable[..., Any] = tcp.read_bytes_rw
    announced = [0]

    async def bounded_read(stream: Any, size: int) -> Any:
        # Dask's TCP reader takes every frame's size from the peer and then
        # allocates it (read_bytes_rw): the sizes are checked before that.
        announced[0] += size
        if announced[0] > HANDSHAKE_BYTES:
            raise _NotDask(f"it announces a message of {announced[0]:,} bytes, more than a Dask handshake's "
                           f"{HANDSHAKE_BYTES:,}")
        return await read_frame(stream, size)

    async def probe() -> None:
        try:
            comm = await open_comm(address, timeout=timeout)
        except CommClosedError:  # (connected, then closed by the peer)
            raise _NotDask("it closed the connection without a Dask handshake") from None
        await comm.close()

    async def bounded() -> None:
        await asyncio.wait_for(probe(), timeout)

    setattr(tcp, "read_bytes_rw", bounded_read)  # (for this probe only, restored below)
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
    finally:
        setattr(tcp, "read_bytes_rw", read_frame)


def _ask_workers(client: Any, timeout: float) -> dict[str, Any]:
    """Every worker's :func:`stamp`, or the error it gave (within ``timeout``)."""
    async def ask() -> Any:
        return await asyncio.wait_for(client._run(worker_stamp, on_error="return"), timeout)

    try:
        answers: dict[str, Any] = client.sync(ask)
    except (TimeoutError, asyncio.TimeoutError, OSError):
        raise ClusterError(f"--scheduler {client.scheduler.address}: the workers did not answer "
                           f"within {timeout:g} s") from None
    return answers
