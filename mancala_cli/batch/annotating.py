"""``annotate``'s run as a library function: every game of many files
written back with the engine's proven results
(:class:`~mancala_cli.solving.engine_facts.AnnotateTask`, in this process,
on worker processes or on a Dask cluster) to one output, in input order.

    >>> import os, tempfile
    >>> from mancala_cli import annotate_files
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     output = os.path.join(folder, "annotated.pmn")
    ...     totals = annotate_files(["examples/kingulu-village-match.pmn"], output, nodes=2000, time=60)
    ...     written = open(output, encoding="utf-8").read()
    >>> totals.games, totals.errors, totals.searched, totals.proven > 0, written.startswith('[Game "kingulu"]')
    (1, 0, 23, True, True)
"""
from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from notation.notation_errors import XMLArchiveError
from notation.record import Problem

from ..archives.tasks import Picked
from ..errors import library_error
from ..files import InputError
from ..files.formats import target_format
from ..files.output import refuse_damaged_input
from ..files.reports import counted, problem_line, sorted_problems, unwritable_line
from ..files.writing import RecordWriter, open_writer
from ..rules.game import Game
from ..rules.registry import game_id
from ..solving.engine_facts import Annotated, AnnotateTask, Limits, knowledge
from ..solving.engine_files import check_limits, proof_paths, unreadable
from .runs import answers, paths_of, tell_stderr, workers

if TYPE_CHECKING:
    from .dask_executor import Cluster

__all__ = ["AnnotateTotals", "AnnotateWatch", "Annotation", "Watcher", "annotate_files"]


class Watcher(Protocol):
    """What shows an annotation run under way (``annotate``'s progress line)."""

    def file(self, path: str) -> None:
        """The run starts on input ``path``."""

    def game(self, number: int, picked: Picked, totals: AnnotateTotals) -> None:
        """Game ``number`` of the input came back (``picked``: its answer;
        ``totals``: the run's so far, with it)."""

    def clear(self) -> None:
        """Lines are about to be told: the display out of their way."""


class Annotation:
    """One ``annotate`` run: its inputs read and annotated game by game, the
    games written in input order, the problems told to ``tell`` (after
    ``watcher.clear()``, when a watcher shows the work under way) and
    counted in :attr:`totals`."""

    def __init__(self, task: AnnotateTask, paths: list[str], encoding: str, jobs: int | Cluster, *,
                 tell: Callable[[str], None] = tell_stderr, watcher: Watcher | None = None) -> None:
        self.task, self.paths, self.encoding, self.jobs = task, paths, encoding, jobs
        self.totals = AnnotateTotals()
        self.tell = tell
        self.progress = watcher

    def write(self, output: str | None, force: bool) -> None:
        """Every game of every input to ``output`` (atomically; not when an
        input with errors would be replaced, unless ``force``)."""
        with open_writer(output, self.task.target) as out:
            for path in self.paths:
                self.one_input(path, out)
            refuse_damaged_input(output, self.paths, self.totals.errors, force)  # (inside the block: the temporary file is dropped)

    def one_input(self, path: str, out: RecordWriter) -> None:
        found = 0
        if self.progress is not None:
            self.progress.file(path)
        # (held by a name: see filtering._write_picked)
        games = answers([path], self.task, encoding=self.encoding, jobs=self.jobs)
        for name, index, picked in games:
            found += 1
            self.one_game(name, index, picked, out)
        if not found:
            name = "<stdin>" if path == "-" else path
            self._tell(problem_line(name, Problem("error", "no-games", "no game in the input", 1, 1)))
            self.totals.errors += 1

    def one_game(self, name: str, index: int, picked: Picked, out: RecordWriter) -> None:
        self.totals.add(picked)
        if self.progress is not None:
            self.progress.game(index, picked, self.totals)
        problems = [problem_line(name, problem) for problem in sorted_problems(picked.problems)]
        self.totals.errors += sum(problem.severity == "error" or problem.code == "pmn-inexact"
                                  for problem in picked.problems)
        if picked.unwritable is not None:
            problems.append(unwritable_line(name, index, picked.unwritable))
            self.totals.errors += 1
        if problems:
            self._tell("\n".join(problems))
        if picked.game is not None and picked.unwritable is None:
            out.add(picked.game)

    def _tell(self, lines: str) -> None:
        """Lines told, the watcher's display cleared first."""
        if self.progress is not None:
            self.progress.clear()
        self.tell(lines)


@dataclasses.dataclass(slots=True)
class AnnotateTotals:
    """What an annotation run did so far (for ``annotate``'s progress line
    and summary): the games, the positions searched and proven, the marks
    added, the nodes searched, and the errors found in the games read."""

    games: int = 0
    searched: int = 0
    proven: int = 0
    marks: int = 0
    nodes: int = 0
    errors: int = 0

    def add(self, picked: Any) -> None:
        self.games += 1
        self.searched += getattr(picked, "searched", 0)
        self.proven += getattr(picked, "proven", 0)
        self.marks += getattr(picked, "marks", 0)
        self.nodes += getattr(picked, "nodes", 0)

    def summary(self) -> str:
        """``annotate``'s summary line: ``2 games, 16 positions searched
        (4,021 nodes), 15 proven, 9 marks added``."""
        return (f"{counted(self.games, 'game')}, {counted(self.searched, 'position')} searched "
                f"({counted(self.nodes, 'node', grouped=True)}), {self.proven} proven, "
                f"{counted(self.marks, 'mark')} added")


class AnnotateWatch:
    """What an annotation run under way has done, as a line for a
    :class:`Watcher` to show (:meth:`show`, ``annotate``'s progress line):
    the input and game being annotated, the position being searched when
    the work is done in this process (:meth:`position`, given to
    :func:`~mancala_cli.solving.engine_facts.watch_positions`), the positions
    searched and proven and the marks added, and the time taken.

        >>> watch = AnnotateWatch()
        >>> watch.file("examples/kingulu-village-match.pmn")
        >>> watch.position(1, 8, Annotated(None, None, searched=1, proven=1, marks=0))
        >>> watch.line("game 1").rpartition(", ")[0]
        'annotating: game 1; 1 position searched, 1 proven, 0 marks'
    """

    def __init__(self) -> None:
        self.totals = AnnotateTotals()  # (the run's, as the last game come back told them)
        self.started = time.monotonic()
        self.name = ""
        self.started_games = 0
        # Searched, proven and marks of the games annotated in this process
        # (told position by position) whose answers have not come back yet:
        # a batch's games are all annotated before the first is written.
        self.pending = [0, 0, 0]
        self.current = [0, 0, 0]  # of the game being annotated, so far

    def file(self, path: str) -> None:
        self.name = "<stdin>" if path == "-" else os.path.basename(path)
        self.started_games = 0

    def position(self, done: int, total: int, so_far: Annotated) -> None:
        """Told by the annotation of each position solved in this process,
        with the game's counts so far: they count in the line at once."""
        if done == 1:
            self.started_games += 1
            self.current = [0, 0, 0]
        now = [so_far.searched, so_far.proven, so_far.marks]
        self.pending = [p + n - c for p, n, c in zip(self.pending, now, self.current)]
        self.current = now
        self.show(self.line(f"{self.name} game {self.started_games}, position {done} of {total}"))

    def game(self, number: int, picked: Picked, totals: AnnotateTotals) -> None:
        """Game ``number`` came back (its counts now in the run's ``totals``)."""
        self.totals = totals
        back = (getattr(picked, "searched", 0), getattr(picked, "proven", 0), getattr(picked, "marks", 0))
        self.pending = [max(0, p - b) for p, b in zip(self.pending, back)]
        self.show(self.line(f"{self.name}, {counted(number, 'game')} done"))

    def line(self, doing: str) -> str:
        """The line that shows the run: what it is ``doing``, then its counts and time."""
        totals = self.totals
        searched, proven, marks = (t + p for t, p in zip((totals.searched, totals.proven, totals.marks),
                                                         self.pending))
        return (f"annotating: {doing}; {counted(searched, 'position', grouped=True)} searched, "
                f"{proven:,} proven, {counted(marks, 'mark', grouped=True)}, {time.monotonic() - self.started:.1f} s")

    def show(self, line: str) -> None:
        """Show ``line``, the run's state now: a display's to do (nothing here)."""



def annotate_files(sources: str | os.PathLike[str] | Iterable[str | os.PathLike[str]], output: str | None = None,
                   *, to: str | None = None, depth: int | None = None, nodes: int | None = None,
                   time: float | None = 1.0, game: Game | str | None = None,
                   tablebase: str | os.PathLike[str] | None = None,
                   proofs: str | os.PathLike[str] | Sequence[str | os.PathLike[str]] = (),
                   encoding: str = "utf-8", jobs: int = 1, scheduler: str | None = None,
                   scheduler_timeout: float = 10.0, force: bool = False,
                   tell: Callable[[str], None] = tell_stderr, watcher: Watcher | None = None) -> AnnotateTotals:
    """Every game of the files ``sources`` annotated as ``mancala
    annotate`` does (each position searched within ``depth`` plies,
    ``nodes`` positions and ``time`` seconds; ``tablebase`` and ``proofs``:
    the files of endgame tables and proofs the searches use, as
    :func:`~mancala_cli.annotate` takes them) and written to ``output`` (a
    path, written atomically; ``None`` or ``-``: standard output) as ``to``
    (none: as ``output``'s extension says, as ``-o`` does, else ``pmn``),
    run as :func:`~mancala_cli.check_files` runs them (``jobs``,
    ``scheduler``). The problems of the games are told to ``tell``; invalid
    games are written unannotated. Returns the totals (``errors``: the
    errors found). An output that is an input with errors is not replaced
    unless ``force``; a file that cannot be read at all raises
    :class:`UnreadableInput` or :class:`BadArchive`, and no output is
    written. The limits are checked as :func:`~mancala_cli.annotate` checks
    them (:class:`ValueError`), and the tables and proofs are read once
    first: one that cannot be read raises :class:`UnreadableInput`."""
    to = target_format(to, output)
    check_limits(time=time, depth=depth, nodes=nodes)
    default = None if game is None else game_id(game)
    table, paths = None if tablebase is None else os.fspath(tablebase), proof_paths(proofs)
    try:
        knowledge(table, paths)  # (read once here; each worker process reads them from their paths)
    except OSError as error:
        raise unreadable(error) from None
    task = AnnotateTask(to, Limits(depth, nodes, time), default, table, paths)
    with workers(jobs=jobs, scheduler=scheduler, timeout=scheduler_timeout) as running:
        run = Annotation(task, paths_of(sources), encoding, running, tell=tell, watcher=watcher)
        try:
            run.write(output, force)
        except (InputError, XMLArchiveError) as error:
            raise library_error(error) from None
    return run.totals
