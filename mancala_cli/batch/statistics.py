"""``stats``' run as a library function: the figures of the games of
many files (:class:`~mancala_cli.archives.Summary`), run as
:func:`~mancala_cli.check_files` runs them (``jobs``, ``scheduler``)."""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable

from notation.notation_errors import XMLArchiveError

from ..archives.criteria import Criteria
from ..archives.tasks import StatsTask, Summary
from ..errors import library_error
from ..files import InputError
from ..files.reports import problem_line, sorted_problems
from .runs import Advancing, answers, paths_of, workers

__all__ = ["stats_files"]


def stats_files(sources: str | os.PathLike[str] | Iterable[str | os.PathLike[str]], *, depth: int = 2,
                where: str | Criteria | None = None, encoding: str = "utf-8", jobs: int = 1,
                scheduler: str | None = None, scheduler_timeout: float = 10.0, progress: Advancing | None = None,
                tell: Callable[[str], None] | None = None) -> Summary:
    """The figures of the games of the files ``sources`` as ``mancala
    stats`` gives them (a :class:`~mancala_cli.archives.Summary`:
    ``as_text()``, ``as_json()``), openings up to ``depth`` plies, of the
    games that match ``where`` (all without it), run as :func:`check_files`
    runs them (``jobs``, ``scheduler``). The errors that make a game
    invalid are told to ``tell`` line by line (``FILE:LINE:COL: error:
    ...``), if given. A file that cannot be read at all raises
    :class:`UnreadableInput` or :class:`BadArchive`.

        >>> from mancala_cli import stats_files
        >>> summary = stats_files(["examples/kingulu-tournament.pmn"], depth=1, jobs=2)
        >>> summary.as_json()["games"], summary.invalid
        (4, 0)
    """
    paths = paths_of(sources)
    task = StatsTask(depth, Criteria.given(where))
    summary = Summary()
    with workers(jobs=jobs, scheduler=scheduler, timeout=scheduler_timeout) as running:
        try:
            # (held by a name: see filtering._write_picked)
            games = answers(paths, task, encoding=encoding, jobs=running, progress=progress)
            for name, _, figures in games:
                if tell is not None:
                    for problem in sorted_problems(figures.errors):  # (what makes an invalid game invalid)
                        tell(problem_line(name, problem))
                summary.add(figures)
        except (InputError, XMLArchiveError) as error:
            raise library_error(error) from None
    return summary
