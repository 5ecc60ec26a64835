"""What ``filter``, ``split`` and ``annotate`` share on the command line:
the problems found while reading, on standard error (every game's answer
of their task comes from :func:`mancala_cli.batch.runs.answers`)."""
from __future__ import annotations

import typer

from ..archives import Picked
from ..files.reports import problem_line, sorted_problems


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
