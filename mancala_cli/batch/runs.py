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

- :func:`check_files`: ``validate``'s run, the library's face of the above
  (exported by :mod:`mancala_cli`; the other commands' runs are in
  :mod:`.conversion`, :mod:`.filtering`, :mod:`.statistics` and
  :mod:`.annotating`).

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
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, Protocol

from notation.notation_errors import XMLArchiveError

from ..errors import BadArchive, UnreadableInput, input_error
from ..files import InputError
from ..files.batches import Task
from ..files.sources import open_source
from ..rules.game import Game
from ..rules.registry import game_id
from .lifetime import INSTALL, ClusterError
from .pipeline import GameResult, Options, results, task_results, usable_cores

if TYPE_CHECKING:
    from ..archives.criteria import Criteria
    from .dask_executor import Cluster

__all__ = ["Advancing", "MAX_TIMEOUT", "answers", "check_files", "check_run", "connected_cluster", "game_results",
           "paths_of", "tell_stderr", "workers"]

#: The most seconds a cluster is given to answer (``--scheduler-timeout``, ``scheduler_timeout=``): a day.
MAX_TIMEOUT = 86_400


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
    Raises :class:`~.lifetime.ClusterError` when the cluster cannot run the
    batches (a :class:`~mancala_cli.MancalaError`).

        >>> with workers(jobs=0) as running:
        ...     running >= 1
        True
    """
    check_run(jobs=jobs, timeout=timeout)
    if scheduler is None:
        yield usable_cores() if jobs == 0 else jobs
        return
    with connected_cluster(scheduler, timeout=timeout) as connected:
        yield connected


def check_run(*, jobs: int, timeout: float) -> None:
    """``jobs``, a whole number of worker processes (0: every usable core),
    and ``timeout``, the seconds a cluster has to answer (more than 0, at
    most a day, as ``--scheduler-timeout`` takes them); else
    :class:`ValueError` (:class:`TypeError` for what is no number).

        >>> check_run(jobs=2, timeout=float("nan"))
        Traceback (most recent call last):
        ...
        ValueError: scheduler_timeout must be more than 0 and at most 86400 seconds, not nan
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int):
        raise TypeError(f"jobs must be an int, not {type(jobs).__name__}")
    if jobs < 0:
        raise ValueError(f"jobs must be 0 (every usable core) or more, not {jobs!r}")
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
        raise TypeError(f"scheduler_timeout must be a number of seconds, not {type(timeout).__name__}")
    if not 0 < timeout <= MAX_TIMEOUT:  # (nan too)
        raise ValueError(f"scheduler_timeout must be more than 0 and at most {MAX_TIMEOUT} seconds, not {timeout!r}")


@contextlib.contextmanager
def connected_cluster(scheduler: str, *, timeout: float = 10.0) -> Iterator[Cluster]:
    """The Dask cluster of ``scheduler`` for the block (see :func:`workers`)."""
    try:
        from .dask_client import connect  # (Dask distributed, the optional dask extra; docs/performance.md, 'Start-up')
    except ImportError:  # (what it imports beyond this package is Dask's and the standard library's)
        raise ClusterError(f"--scheduler needs Dask distributed, which is not installed: {INSTALL}") from None
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


def check_files(sources: str | os.PathLike[str] | Iterable[str | os.PathLike[str]], *, game: Game | str | None = None,
                strict: bool = False, where: str | Criteria | None = None, format: str = "text",
                encoding: str = "utf-8", jobs: int = 1, scheduler: str | None = None,
                scheduler_timeout: float = 10.0,
                progress: Advancing | None = None) -> Iterator[tuple[str, GameResult | UnreadableInput | BadArchive]]:
    """Check every game of the files ``sources`` (paths; ``-`` is standard
    input) as ``mancala validate`` does, and yield ``(path, result)`` for
    each game in input order: ``result.out`` is what validate prints for
    the game (its lines, or its JSON line with ``format="json"``),
    ``result.errors``, ``result.warnings`` and ``result.moves`` its counts.
    A file that cannot be read at all gives ``(path, error)`` in its place
    (:class:`UnreadableInput`, or :class:`BadArchive` after the games
    before the break), and the next file is read.

    The games run on ``jobs`` worker processes (0: one per usable core; an
    input of one batch runs in this process), or with ``scheduler`` on that
    Dask cluster (``tcp://HOST:8786``, connected within
    ``scheduler_timeout`` seconds; :class:`~mancala_cli.batch.BatchError`
    if it cannot run them); the results are the same bytes whichever runs
    them. ``where`` keeps the games that match an expression (as
    ``--where``; :class:`BadQuery` if it is bad), ``game`` is the game of
    records without a ``Game`` tag, and ``strict`` makes warnings errors.

        >>> from mancala_cli import check_files
        >>> for path, result in check_files(["examples/kingulu-village-match.pmn"], jobs=2):
        ...     print(path, result.errors, result.warnings, result.moves)
        examples/kingulu-village-match.pmn 0 0 23
    """
    if format not in ("text", "json"):
        raise ValueError(f"format must be text or json, not {format!r}")
    game = None if game is None else game_id(game)
    paths = paths_of(sources)
    if isinstance(where, str):
        from ..archives.criteria import Criteria  # (the query language: docs/performance.md, 'Start-up')

        where = Criteria.where(where)
    options = Options("validate", format, game, strict, where=where)
    with workers(jobs=jobs, scheduler=scheduler, timeout=scheduler_timeout) as running:
        for path, result in game_results(paths, options, encoding=encoding, jobs=running, progress=progress):
            yield path, input_error(result) if isinstance(result, Exception) else result


def tell_stderr(line: str) -> None:
    """A line on standard error: where the runs tell their problems unless told otherwise."""
    sys.stderr.write(line + "\n")


def paths_of(sources: str | os.PathLike[str] | Iterable[str | os.PathLike[str]]) -> list[str]:
    """One path or many, as strings."""
    if isinstance(sources, (str, os.PathLike)):
        return [os.fspath(sources)]
    return [os.fspath(source) for source in sources]
