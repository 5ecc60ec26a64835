"""``convert``'s run as a library function: every game of many files
replayed (in this process, on worker processes or on a Dask cluster) and
written in input order to one output, canonical PMN, JSON Lines or one XML
archive (:class:`~mancala_cli.files.writing.RecordWriter`), with the
problems found on the way told line by line.

    >>> import os, tempfile
    >>> from mancala_cli import write_files
    >>> told = []
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     output = os.path.join(folder, "games.jsonl")
    ...     status = write_files(["examples/kingulu-village-match.pmn"], output, to="json", jobs=2, tell=told.append)
    ...     written = open(output, encoding="utf-8").read()
    >>> status, told, written.count("\\n"), written.startswith('{"game": "kingulu"')
    (0, [], 1, True)
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from notation.notation_errors import XMLArchiveError

from ..files import InputError
from ..files.formats import target_format
from ..files.output import refuse_damaged_input
from ..files.reports import unwritable_line
from ..files.writing import RecordWriter, open_writer
from ..rules.game import Game, MancalaError
from ..rules.registry import game_id
from .pipeline import GameResult, Options
from .runs import Advancing, game_results, tell_stderr, workers

if TYPE_CHECKING:
    from .dask_executor import Cluster

__all__ = ["Conversion", "NotWritten", "write_files"]


class NotWritten(MancalaError):
    """The output was left as it was: an input could not be read (to its
    end), the output names an input with errors, or it cannot be written.
    ``status`` is ``convert``'s exit status for it (1: problems in the
    input, 2: an input or the output that cannot be read or written)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class Conversion:
    """The games of a ``convert`` run as they are written to ``output``
    (``None`` or ``-``: standard output), and the errors counted on the way,
    each game's problems told to ``tell`` as a line (``FILE:LINE:COL:
    error: ...``), as ``convert`` prints them on standard error."""

    def __init__(self, paths: list[str], options: Options, *, encoding: str, jobs: int | Cluster,
                 progress: Advancing | None, output: str | None, force: bool, tell: Callable[[str], None]) -> None:
        self.paths, self.encoding, self.options, self.jobs = paths, encoding, options, jobs
        self.progress, self.output, self.force, self.tell = progress, output, force, tell
        self.errors = 0
        #: Inputs that could not be read (2) or were broken XML (1), as exit statuses.
        self.unreadable: list[int] = []

    def status(self) -> int:
        """The exit status so far: 2 when an input could not be read, 1 for
        problems (a broken XML document among them), else 0."""
        return max(self.unreadable, default=1 if self.errors else 0)

    def results(self) -> Iterator[GameResult]:
        """Every game's result; an input that cannot be read is told in one
        line (as validate tells it) and the next input is read."""
        for _, result in game_results(self.paths, self.options, encoding=self.encoding, jobs=self.jobs,
                                      progress=self.progress):
            if isinstance(result, Exception):
                self.unreadable.append(2 if isinstance(result, InputError) else 1)
                self.tell(f"mancala: error: {result}")
                continue
            self.errors += result.errors
            for line in result.diagnostics:
                self.tell(line)
            yield result

    def keep_damaged_input(self) -> None:
        """Raised inside the output block, so the temporary file is dropped:
        ``output`` is not written when an input could not be read (to its
        end), nor replaces an input with errors."""
        if self.unreadable and self.output not in (None, "-"):
            raise NotWritten(f"{self.output}: not written, as an input could not be read", self.status())
        refuse_damaged_input(self.output, self.paths, self.errors, self.force)

    def write(self) -> int:
        """Every game that can be written, in input order: PMN games a blank
        line apart, JSON Lines, or one XML archive, which leaves out a game
        it cannot hold (counted as an error). Returns :meth:`status`; raises
        :class:`NotWritten` when the output is left as it was."""
        # (held by a name, the results outlive an error that ends the run
        # until its workers are stopped: a signal then interrupts nothing)
        results = self.results()
        try:
            with open_writer(self.output, self.options.target) as writer:
                for result in results:
                    self.add(writer, result)
                self.keep_damaged_input()
        except (InputError, XMLArchiveError) as error:
            raise NotWritten(str(error), max(self.status(), 2 if isinstance(error, InputError) else 1)) from None
        return self.status()

    def add(self, writer: RecordWriter, result: GameResult) -> None:
        written = result.written
        if written is None:  # (an input without games)
            return
        if written.unwritable is not None:
            self.errors += 1  # the game is left out, the others are written
            self.tell(unwritable_line(result.file or "-", result.index, written.unwritable))
            return
        writer.add(written)


def write_files(sources: Iterable[str], output: str | None = None, *, to: str | None = None, coords: str | None = None,
                positions: bool = False, game: Game | str | None = None, encoding: str = "utf-8", jobs: int = 1,
                scheduler: str | None = None, scheduler_timeout: float = 10.0, force: bool = False,
                progress: Advancing | None = None, tell: Callable[[str], None] = tell_stderr) -> int:
    """Convert every game of the files ``sources`` as ``mancala convert``
    does and write them to ``output`` (a path, written atomically; ``None``
    or ``-``: standard output) as ``to`` (``pmn``, ``json`` or ``xml``;
    none: as ``output``'s extension says, as ``-o`` does, else ``pmn``),
    moves in ``coords`` (as written when ``None``) and, with
    ``positions``, the position after every move (JSON, XML). The games run
    as :func:`~mancala_cli.check_files` runs them (``jobs``, ``scheduler``);
    the problems found are told to ``tell`` line by line (standard error
    by default) and the games are written all the same. Returns the exit
    status of ``convert``: 0, 1 (problems) or 2 (an input that cannot be
    read); raises :class:`NotWritten` when ``output`` is left as it was (an
    input could not be read, or ``output`` is an input with errors and
    ``force`` is not given)."""
    to = target_format(to, output)
    options = Options("convert", to, None if game is None else game_id(game), False, coords, positions)
    with workers(jobs=jobs, scheduler=scheduler, timeout=scheduler_timeout) as running:
        conversion = Conversion(list(sources), options, encoding=encoding, jobs=running, progress=progress,
                                output=output, force=force, tell=tell)
        return conversion.write()
