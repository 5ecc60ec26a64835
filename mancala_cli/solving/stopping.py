"""A solve that the process's signals stop early, as ``mancala solve`` runs
it: in this process (:func:`solve_here`) or split into tasks for a Dask
cluster (:func:`solve_on_cluster`), each signal stopping the search instead
of the process, so that what it found so far is its answer; the exit status
that says how it ended (:func:`exit_status`); and the limits and files a
cluster's solve does not take (:func:`cluster_conflict`).

    >>> from mancala_cli import get_game, parse_position
    >>> from mancala_cli.solving.search import Solver
    >>> game = get_game("kingulu")
    >>> start = parse_position(game, "0,0,0,0,3,2/1,0,0,0,0,2 S 20-20 12")
    >>> solved = solve_here(Solver(game), start, depth=1)
    >>> solved.solution.stopped, solved.signal, exit_status(solved.solution, solved.signal)
    ('depth', None, 3)
"""
from __future__ import annotations

import dataclasses
import os
import signal
from collections.abc import Callable, Collection
from types import FrameType
from typing import Any

from ..rules.position import Position
from .cluster_search import ClusterSolver, Progress as ClusterProgress
from .proofs import ProofBook
from .search import Solver
from .search_result import Progress

__all__ = ["SOLVE_STOPPED", "Solved", "StopSignals", "cluster_conflict", "exit_status", "solve_here",
           "solve_on_cluster"]

#: The exit status of ``solve`` when a limit stopped the search before its
#: end (what it found so far is printed, ``complete`` false).
SOLVE_STOPPED = 3


@dataclasses.dataclass(frozen=True, slots=True)
class Solved:
    """What a solve that signals could stop found (``solution``: a
    :class:`~.search_result.SearchResult`, or the cluster's
    :class:`~.cluster.ClusterSolution`), and the signal that stopped it
    (``None``: none did)."""

    solution: Any
    signal: int | None = None


class StopSignals:
    """While entered, each of ``signums`` calls ``stop`` (a search's
    :meth:`~.search.Solver.stop`) instead of ending the process, and is kept
    in :attr:`received`; the handlers before come back on leaving."""

    def __init__(self, stop: Callable[[], None], signums: Collection[int] = (signal.SIGINT,)) -> None:
        self.stop = stop
        self.signums = tuple(signums)
        self.received: list[int] = []
        self.previous: dict[int, Any] = {}

    def _stopped(self, signum: int, frame: FrameType | None) -> None:
        self.received.append(signum)
        self.stop()

    def __enter__(self) -> StopSignals:
        self.previous = {signum: signal.signal(signum, self._stopped) for signum in self.signums}
        return self

    def __exit__(self, *exc: object) -> None:
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)


def solve_here(solver: Solver, position: Position, *, depth: int | None = None, nodes: int | None = None,
               seconds: float | None = None, progress: Progress | None = None,
               table: str | os.PathLike[str] | None = None, proofs: ProofBook | None = None) -> Solved:
    """``solver``'s :meth:`~.search.Solver.solve` of ``position`` with its
    limits, ``progress`` and ``table``, in this process: SIGINT stops it,
    and with a table file SIGTERM and SIGHUP too, so that its table is
    saved. The solver's table is let go when it ends, whatever the search
    raised (:class:`~.table_file.TableFileError`, an ``OSError`` of the
    table file, ``MemoryError``). What the search leaves unknown is then
    taken from ``proofs`` where they prove it (:meth:`~.proofs.ProofBook.solution`,
    which raises :class:`~.proofs.ProofError`)."""
    signums = [signal.SIGINT] if table is None else [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]
    try:
        with StopSignals(solver.stop, signums) as stopping:
            solution = solver.solve(position, depth=depth, nodes=nodes, seconds=seconds, progress=progress,
                                    table=table)
    finally:
        solver.table = {}
    if proofs is not None:
        solution = proofs.solution(solver.game, position, solution)
    return Solved(solution, stopping.received[0] if stopping.received else None)


def solve_on_cluster(solver: ClusterSolver, position: Position, *, seconds: float | None = None,
                     progress: ClusterProgress | None = None) -> Solved:
    """``solver``'s solve of ``position`` on its cluster
    (:meth:`~.cluster.ClusterSolver.solve`, which raises
    :class:`~.cluster.ClusterSolveError`), SIGINT stopping it."""
    with StopSignals(solver.stop) as stopping:
        solution = solver.solve(position, seconds=seconds, progress=progress)
    return Solved(solution, stopping.received[0] if stopping.received else None)


def exit_status(solution: Any, signum: int | None = None) -> int:
    """How ``solve`` ends after ``solution``: 0 when the search ran to its
    end, 128 + the signal that interrupted it (``signum``, else SIGINT), or
    :data:`SOLVE_STOPPED` when a limit stopped it."""
    if solution.stopped == "interrupted":
        return 128 + (signal.SIGINT if signum is None else signum)
    return 0 if solution.stopped is None else SOLVE_STOPPED


def cluster_conflict(*, depth: int | None = None, nodes: int | None = None, tablebase: str | None = None,
                     table: str | None = None, proofs: Collection[str] | None = None) -> str | None:
    """Why these do not go with a solve on a cluster (``--scheduler``), the
    first reason found, or ``None`` when they do."""
    if depth is not None or nodes is not None:
        return ("--depth and --nodes do not go with --scheduler (its tasks have node budgets of their own); "
                "give --time")
    if tablebase is not None:
        return "--tablebase does not go with --scheduler (the workers would each need the file)"
    if table is not None:
        return "--table does not go with --scheduler (each task has a table of its own)"
    if proofs:
        return "--proof does not go with --scheduler"
    return None
