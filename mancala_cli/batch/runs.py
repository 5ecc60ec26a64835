"""Runs over the games of many files, in this process, on worker processes
(``jobs``) or on a Dask cluster (``scheduler``): what ``validate``,
``convert``, ``filter``, ``split``, ``stats`` and ``annotate`` run, as
library functions that the commands call.

- :func:`workers`: what runs the batches, ready (the cluster connected and
  checked) and closed at the end;
- :func:`game_results`: every game's :class:`~.pipeline.GameResult` of
  ``validate`` or ``convert`` (:class:`~.pipeline.Options`), in input order;
- :func:`answers`: every game's answer of any task (``FilterTask``,
  ``StatsTask``, ``AnnotateTask``...), in input order.

The public faces of these are :func:`mancala_cli.check_files` and
:func:`mancala_cli.write_files` (:mod:`mancala_cli.api`).

    >>> from mancala_cli.batch.pipeline import Options
    >>> from mancala_cli.batch.runs import game_results, workers
    >>> with workers(jobs=2) as running:
    ...     checked = [(path, result.errors) for path, result in
    ...                game_results(["examples/kingulu-village-match.pmn"], Options("validate"), jobs=running)]
    >>> checked
    [('examples/kingulu-village-match.pmn', 0)]
"""
from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol

from notation.errors import XMLArchiveError

from ..files.batches import Task
from ..files.sources import InputError, open_source
from .cluster import Cluster, connect
from .pipeline import GameResult, Options, results, task_results, usable_cores

__all__ = ["Advancing", "answers", "cluster", "game_results", "workers"]


class Advancing(Protocol):
    """A progress display: told of each input's batches as they are done."""

    def advancer(self, path: str) -> Callable[[int], None]:
        """What each batch of ``path`` done calls with the characters it held."""


@contextlib.contextmanager
def workers(*, jobs: int = 1, scheduler: str | None = None, timeout: float = 10.0) -> Iterator[int | Cluster]:
    """What runs the batches, for the block: ``jobs`` worker processes (0:
    one per usable core; a run never starts more than the cores, and none
    for an input of one batch), or, with ``scheduler`` (an address such as
    ``tcp://127.0.0.1:8786``), the Dask cluster of that scheduler, connected
    and checked within ``timeout`` seconds and closed when the block ends.
    Raises :class:`~.cluster.ClusterError` when the cluster cannot run the
    batches (a :class:`~mancala_cli.MancalaError`).

        >>> with workers(jobs=0) as running:
        ...     running >= 1
        True
    """
    if jobs < 0:
        raise ValueError(f"jobs must be 0 (every usable core) or more, not {jobs!r}")
    if scheduler is None:
        yield usable_cores() if jobs == 0 else jobs
        return
    with cluster(scheduler, timeout=timeout) as connected:
        yield connected


@contextlib.contextmanager
def cluster(scheduler: str, *, timeout: float = 10.0) -> Iterator[Cluster]:
    """The Dask cluster of ``scheduler`` for the block (see :func:`workers`)."""
    connected = connect(scheduler, timeout)
    try:
        yield connected
    finally:
        connected.close()


def game_results(paths: Iterable[str], options: Options, *, encoding: str = "utf-8", jobs: int | Cluster = 1,
                 progress: Advancing | None = None) -> Iterator[tuple[str, GameResult | InputError | XMLArchiveError]]:
    """Every game's result of ``validate`` or ``convert`` (``options``), in
    input order, as ``(path, result)``. An input that cannot be read at all
    gives ``(path, error)`` in its place (:class:`InputError`, or
    :class:`XMLArchiveError` for an XML archive broken before its end, after
    the games before the break), and the next input is read."""
    for path in paths:
        try:
            with open_source(path, encoding) as source:
                advance = progress.advancer(path) if progress else None
                for result in results(source, options, jobs, advance):
                    yield path, result
        except (InputError, XMLArchiveError) as error:
            yield path, error


def answers(paths: Iterable[str], task: Task, *, encoding: str = "utf-8", jobs: int | Cluster = 1,
            progress: Advancing | None = None) -> Iterator[tuple[str, int, Any]]:
    """``(input name, game number in it, answer)`` for every game of every
    input, in input order, the answer being ``task.process(record)``;
    ``progress`` advances with the batches. Raises :class:`InputError` or
    :class:`XMLArchiveError` for an input that cannot be read at all."""
    for path in paths:
        with open_source(path, encoding) as source:
            advance = progress.advancer(path) if progress is not None else None
            for index, answer in enumerate(task_results(source, task, jobs, advance), 1):
                yield source.name, index, answer
