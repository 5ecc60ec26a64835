"""What ``filter``, ``split``, ``stats`` and ``annotate`` share on the
command line: every game's answer of a task (:mod:`mancala_cli.archives`)
in input order, and the problems found while reading on standard error."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import typer

from ..archives import Picked
from ..batch.cluster import Cluster
from ..batch.pipeline import task_results
from ..files.batches import Task
from ..files.reports import problem_line, sorted_problems
from ..files.sources import open_source


def answers(paths: list[str], encoding: str, task: Task, jobs: int | Cluster,
            progress: Any = None) -> Iterator[tuple[str, int, Any]]:
    """``(input name, game number in it, answer)`` for every game of every
    input, in input order; ``progress``, the command's progress bar, if
    any, advances with the batches. Raises InputError or XMLArchiveError
    for an input that cannot be read at all."""
    for path in paths:
        with open_source(path, encoding) as source:
            advance = progress.advancer(path) if progress is not None else None
            for index, answer in enumerate(task_results(source, task, jobs, advance), 1):
                yield source.name, index, answer


class Problems:
    """Counts the games whose reading found errors, each error told on
    standard error (``FILE:LINE:COL: error: …``) as ``convert`` tells it."""

    def __init__(self) -> None:
        self.errors = 0

    def report(self, name: str, index: int, picked: Picked) -> None:
        """The problems of game ``index`` of input ``name``."""
        for problem in sorted_problems(picked.problems):
            typer.echo(problem_line(name, problem), err=True)
        self.errors += len(picked.problems)
        if picked.unwritable is not None:
            line, reason = picked.unwritable
            typer.echo(f"{name}:{line}:0: error: unwritable: game {index}: {reason}", err=True)
            self.errors += 1
