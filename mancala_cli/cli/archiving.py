"""What ``filter``, ``split`` and ``stats`` share on the command line: every
game's answer of a task (:mod:`mancala_cli.archives`) in input order, the
problems found while reading on standard error, and games written in the
chosen format to a file that appears whole or not at all."""
from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import typer

from ..archives import XML_TAIL, Picked, xml_head
from .inputs import atomic_output, open_source
from .pipeline import Task, task_results
from .reporters import problem_line, sorted_problems

if TYPE_CHECKING:
    from .cluster import Cluster


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


class GameOutput:
    """Games written one after another as ``convert`` writes them: PMN a
    blank line apart, JSON Lines, or one XML archive; atomically to a file,
    or to standard output (``None`` or ``-``)."""

    def __init__(self, path: str | None, target: str) -> None:
        self.path, self.target = path, target
        self.games = 0
        self._stack = contextlib.ExitStack()
        self._stream: Any = None

    def __enter__(self) -> GameOutput:
        self._stream = self._stack.enter_context(atomic_output(self.path, binary=self.target == "xml"))
        if self.target == "xml":
            self._stream.write(xml_head())
        return self

    def add(self, picked: Picked) -> None:
        if self.target == "xml":
            self._stream.write(picked.xml)
        else:
            if self.target == "pmn" and self.games:
                self._stream.write("\n")
            self._stream.write(picked.out)
        self.games += 1

    def __exit__(self, *exc: Any) -> bool | None:
        if exc[0] is None and self.target == "xml":
            self._stream.write(XML_TAIL)
        return self._stack.__exit__(*exc)
