"""``filter``'s run as a library function: the games of many files that
match criteria (:class:`~mancala_cli.archives.Criteria`), written in input
order to one output, the duplicates dropped to another, run as
:func:`~mancala_cli.check_files` runs them (``jobs``, ``scheduler``).

    >>> import os, tempfile
    >>> from mancala_cli import filter_files
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     output = os.path.join(folder, "long.pmn")
    ...     picked = filter_files(["examples/kingulu-tournament.pmn"], output, where="plies > 30", jobs=2)
    ...     games = open(output, encoding="utf-8").read().count("[Game ")
    >>> picked, games
    (FilterCounts(written=2, errors=0), 2)
"""
from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from notation.notation_errors import XMLArchiveError

from ..archives.criteria import Criteria
from ..archives.tasks import DigestSet, FilterTask, Picked
from ..errors import library_error
from ..files import InputError
from ..files.formats import target_format
from ..files.output import refuse_damaged_input, same_file
from ..files.reports import problem_line, sorted_problems, unwritable_line
from ..files.writing import open_writer
from .runs import Advancing, answers, paths_of, tell_stderr, workers

if TYPE_CHECKING:
    from .dask_executor import Cluster

__all__ = ["FilterCounts", "Problems", "filter_conflict", "filter_files"]


@dataclasses.dataclass(frozen=True, slots=True)
class FilterCounts:
    """What :func:`filter_files` did: the games written (or counted) and the
    errors found while reading."""

    written: int
    errors: int


class Problems:
    """Counts the problems of the games read, each told to ``tell`` as a line
    (``FILE:LINE:COL: error: ...``), as ``convert`` tells them."""

    def __init__(self, tell: Callable[[str], None] = tell_stderr) -> None:
        self.errors = 0
        self.tell = tell

    def report(self, name: str, index: int, picked: Picked) -> None:
        """The problems of game ``index`` of input ``name``."""
        for problem in sorted_problems(picked.problems):
            self.tell(problem_line(name, problem))
        self.errors += len(picked.problems)
        if picked.unwritable is not None:
            self.tell(unwritable_line(name, index, picked.unwritable))
            self.errors += 1


def filter_files(sources: str | os.PathLike[str] | Iterable[str | os.PathLike[str]], output: str | None = None, *,
                 where: str | Criteria | None = None, to: str | None = None, invert: bool = False, dedupe: bool = False,
                 duplicates: str | None = None, count: bool = False, force: bool = False, encoding: str = "utf-8",
                 jobs: int = 1, scheduler: str | None = None, scheduler_timeout: float = 10.0,
                 progress: Advancing | None = None, tell: Callable[[str], None] = tell_stderr) -> FilterCounts:
    """The games of the files ``sources`` that match ``where`` (an
    expression of ``--where``, or :class:`~mancala_cli.archives.Criteria`,
    such as ``Criteria.from_options(result="1-0")``; none: every game), or
    with ``invert`` those that do not, written as ``mancala filter`` writes
    them to ``output`` (a path, written atomically; ``None`` or ``-``:
    standard output) as ``to`` (``pmn``, ``json`` or ``xml``; none: as
    ``output``'s extension says, as ``-o`` does, else ``pmn``); with
    ``count``, only counted. ``dedupe`` drops a game equal to an earlier
    written one (game, start, main line), written to ``duplicates`` if
    given. The problems found while reading are told to ``tell``; an output
    that is an input with errors is not replaced unless ``force``. A file
    that cannot be read at all raises :class:`UnreadableInput` or
    :class:`BadArchive`, a regular expression that runs too long
    :class:`~mancala_cli.archives.RegexTimeout`, and no output is written.
    Options that ``mancala filter`` refuses together (``duplicates``
    without ``dedupe`` or naming ``output``, ``count`` with an ``output``)
    raise :class:`ValueError` with the command's message."""
    to = target_format(to, output)
    conflict = filter_conflict(dedupe=dedupe, duplicates=duplicates, count=count, output=output)
    if conflict is not None:
        raise ValueError(conflict)
    criteria = Criteria.given(where)
    task = FilterTask(criteria, to, invert, dedupe, write=not count or duplicates is not None)
    paths = paths_of(sources)
    with workers(jobs=jobs, scheduler=scheduler, timeout=scheduler_timeout) as running:
        try:
            return _write_picked(paths, encoding, task, running, progress, output=output, duplicates=duplicates,
                                 count=count, force=force, tell=tell)
        except (InputError, XMLArchiveError) as error:
            raise library_error(error) from None


def filter_conflict(*, valid: bool = False, invalid: bool = False, min_plies: int | None = None,
                    max_plies: int | None = None, dedupe: bool = False, duplicates: str | None = None,
                    count: bool = False, output: str | None = None) -> str | None:
    """Why ``filter``'s options do not go together, the first reason found
    (``--valid`` with ``--invalid``, more ``--min-plies`` than
    ``--max-plies``, ``--duplicates`` without ``--dedupe``, ``--count`` with
    ``-o``, ``--duplicates`` and ``-o`` naming one file or both standard
    output), or ``None`` when they do.

        >>> filter_conflict(dedupe=True, duplicates="-")
        '--duplicates - and the games written would both go to standard output: give --duplicates FILE or -o FILE'
    """
    if valid and invalid:
        return "give --valid or --invalid, not both"
    if min_plies is not None and max_plies is not None and min_plies > max_plies:
        return f"--min-plies {min_plies} is more than --max-plies {max_plies}"
    if duplicates is not None and not dedupe:
        return "--duplicates needs --dedupe"
    if count and output is not None:
        return "--count prints a number: give --count or -o, not both"
    if duplicates is not None and output not in (None, "-") and (duplicates == output or same_file(duplicates, output)):
        return "--duplicates and -o name the same file"
    if duplicates == "-" and output in (None, "-"):
        return (f"--duplicates - and the {'count' if count else 'games written'} would both go to standard output: "
                f"give --duplicates FILE{'' if count else ' or -o FILE'}")
    return None


def _write_picked(paths: list[str], encoding: str, task: FilterTask, jobs: int | Cluster,
                  progress: Advancing | None, *, output: str | None, duplicates: str | None, count: bool,
                  force: bool, tell: Callable[[str], None]) -> FilterCounts:
    """:func:`filter_files`' work."""
    problems = Problems(tell)
    seen = DigestSet()
    written = 0
    with contextlib.ExitStack() as stack:
        out = None if count else stack.enter_context(open_writer(output, task.target))
        dropped = None if duplicates is None else stack.enter_context(open_writer(duplicates, task.target))
        # (held by a name, the answers outlive an error that ends the run until
        # its workers are stopped, after the command line has seen the error: a
        # signal then interrupts nothing; a for loop's own iterator is dropped
        # as the error leaves the frame)
        games = answers(paths, task, encoding=encoding, jobs=jobs, progress=progress)
        for name, index, picked in games:
            problems.report(name, index, picked)
            if not picked.selected or picked.unwritable is not None:
                continue
            game = picked.game  # (None when only counted)
            if picked.digest is not None and not seen.add(picked.digest):  # (with --dedupe)
                if dropped is not None and game is not None:
                    dropped.add(game)
                continue
            written += 1
            if out is not None and game is not None:
                out.add(game)
        # (inside the blocks: their temporary files are dropped)
        for target in (output, duplicates):
            refuse_damaged_input(target, paths, problems.errors, force)
    return FilterCounts(written, problems.errors)
