"""How the commands that read records run: the worker processes or the
cluster that process them (``--jobs``, ``--scheduler``) and the progress
bar shown meanwhile."""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import typer

from ..batch.lifetime import ClusterError
from ..batch.pipeline import usable_cores
from ..batch.runs import connected_cluster
from .options import fail
from .typer_adapter import current_context, given_on_command_line

if TYPE_CHECKING:
    from ..batch.dask_executor import Cluster


def workers_for(jobs: int, scheduler: Optional[str] = None, timeout: float = 10.0) -> int | Cluster:
    """``--jobs``: ``auto`` (0) is the usable cores (:func:`check_workers`
    checks the options). ``--scheduler``: the cluster, connected and checked
    now, before any output is opened, and closed with the command."""
    check_workers(jobs, scheduler)
    if scheduler is not None:
        return _connected(scheduler, timeout)
    return usable_cores() if jobs == 0 else jobs


def check_workers(jobs: int, scheduler: Optional[str]) -> None:
    """``--jobs`` far more than the usable cores is a warning (the pipeline
    never starts more workers than cores, and none for an input of one
    batch); ``--scheduler`` goes with neither ``--jobs`` nor an empty
    address, and ``--scheduler-timeout`` needs it. (A command that leaves
    the connecting to the library checks this alone: the cluster is then
    connected when the run starts, and closed when it ends.)"""
    if scheduler is not None:
        _check_scheduler(scheduler)
        return
    no_scheduler_timeout()
    cores = usable_cores()
    if jobs > 4 * cores:
        typer.echo(f"mancala: warning: --jobs {jobs} is more than 4 × the {cores} usable "
                   f"core{'s' if cores != 1 else ''}; using {cores}", err=True)


def _check_scheduler(address: str) -> None:
    """``--scheduler ADDRESS`` given with ``--jobs``, or empty: a usage error."""
    if given_on_command_line("jobs"):
        fail("give --jobs or --scheduler, not both")
    if not address.strip():
        fail("--scheduler: empty address")


def no_scheduler_timeout() -> None:
    """``--scheduler-timeout`` without ``--scheduler`` is a usage error."""
    if given_on_command_line("scheduler_timeout"):
        fail("--scheduler-timeout needs --scheduler")


def cluster_for(address: str, timeout: float) -> Cluster:
    """``--scheduler ADDRESS``: the cluster, connected within ``timeout``
    seconds and closed with the command (not with ``--jobs``)."""
    _check_scheduler(address)
    return _connected(address, timeout)


def _connected(address: str, timeout: float) -> Cluster:
    """The cluster of ``address``, closed with the command; one that cannot run the batches ends it in one line."""
    try:
        connected: Cluster = current_context().with_resource(connected_cluster(address, timeout=timeout))
    except ClusterError as error:
        fail(str(error))
    return connected


