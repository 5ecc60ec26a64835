"""What a run over many games leaves running, and how it fails.

Worker pools and cluster connections add themselves to :data:`live` while
they run and remove themselves when shut down; whoever ends the run (the
command line, at its end however it ends) calls :func:`stop_live`, so no
worker process outlives its command. A run that cannot go on (a worker
process that died, a batch the cluster failed) raises :class:`BatchError`,
one line of text.
"""
from __future__ import annotations

from typing import Any

from ..rules.game import MancalaError

__all__ = ["INSTALL", "BatchError", "ClusterError", "live", "stop_live"]

#: How to install what ``--scheduler`` needs.
INSTALL = "pip install 'mancala[dask]'"


class BatchError(MancalaError):
    """A run over many games that cannot go on, in one line: ``worker
    process 12345 was killed by SIGKILL; the command stopped``, ``the
    cluster failed a batch: …`` (the command line prints it as ``mancala:
    error: …``, exit status 2)."""


class ClusterError(BatchError):
    """The cluster cannot run the batches (no scheduler answered, a bad
    address); the message is one line."""


#: What must end with the run however it ends: pools of worker processes
#: (anything with ``shutdown()``), added and removed by their owners.
live: set[Any] = set()


def stop_live() -> None:
    """Stop whatever of :data:`live` is still running (at the run's end)."""
    while live:
        thing = live.pop()
        try:
            thing.shutdown()
        except Exception:  # noqa: BLE001 (the run is ending; nothing to report)
            pass
