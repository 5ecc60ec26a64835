"""``mancala convert``: records rewritten in PMN, JSON Lines or XML
(:class:`mancala_cli.files.writing.RecordWriter`), each game replayed in
this process or in worker processes (:mod:`.pipeline`)."""
from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Optional

import typer

from notation.coords import STYLES
from notation.errors import XMLArchiveError

from ..batch.cluster import Cluster
from ..batch.pipeline import GameResult, Options
from ..files.output import refuse_damaged_input
from ..files.sources import InputError
from ..files.writing import RecordWriter, open_writer
from .options import (
    ENCODING_OPTION,
    FILES_ARGUMENT,
    JOBS_OPTION,
    QUIET_OPTION,
    RECORD_EXTENSIONS,
    RECORDS_GAME_OPTION,
    SCHEDULER_OPTION,
    SCHEDULER_TIMEOUT_OPTION,
    TARGETS,
    checked_encoding,
    choice_option,
    fail,
    game_rules,
    input_paths,
    output_format,
)
from .reading import Progress, game_results, workers_for


def convert(
    files: Optional[list[str]] = FILES_ARGUMENT,
    to: Optional[str] = choice_option(None, "--to", "-t", values=TARGETS,
                                      help="Target format (default: from -o's extension: .pmn, .json, .jsonl, "
                                           ".xml)."),
    coords: Optional[str] = choice_option(None, "--coords", values=STYLES,
                                          help="Rewrite the moves in this coordinate style."),
    positions: bool = typer.Option(False, "--positions", help="Add the position after every move (JSON, XML)."),
    output: Optional[str] = typer.Option(None, "--output", "-o", metavar="FILE", help="Write here (atomically) instead of stdout."),
    game: Optional[str] = RECORDS_GAME_OPTION,
    encoding: str = ENCODING_OPTION,
    jobs: int = JOBS_OPTION,
    scheduler: Optional[str] = SCHEDULER_OPTION,
    scheduler_timeout: float = SCHEDULER_TIMEOUT_OPTION,
    quiet: bool = QUIET_OPTION,
    force: bool = typer.Option(False, "--force", help="Replace an input that has errors when -o names it."),
) -> None:
    """Convert records between PMN, JSON Lines and XML (input recognised by content).

    Moves get their outcome marks; problems found on the way are reported on
    standard error (exit 1) and the output is still written.

    Example: mancala convert examples/kingulu-village-match.pmn --to json --positions
    """
    if game is not None:
        game_rules(game)
    if output == "":
        fail("--output: empty file name")
    to = output_format(to, output, RECORD_EXTENSIONS, option="--to", default=None)
    checked_encoding(encoding)
    workers = workers_for(jobs, scheduler, scheduler_timeout)
    options = Options("convert", to, game, False, coords, positions)
    paths = input_paths(files)
    progress = Progress() if Progress.wanted(quiet) else None
    conversion = Conversion(paths, encoding, options, workers, progress, output, force)
    try:
        with progress or contextlib.nullcontext():
            conversion.write()
    except NotWritten as error:
        fail(str(error), conversion.status())
    except (InputError, XMLArchiveError) as error:
        fail(str(error), max(conversion.status(), 2 if isinstance(error, InputError) else 1))
    if conversion.status():
        raise typer.Exit(conversion.status())


class NotWritten(Exception):
    """``convert -o FILE`` left FILE as it was, as an input could not be read."""


class Conversion:
    """The games of a ``convert`` run as they are written to ``output``, and
    the errors counted on the way (each game's problems on standard error)."""

    def __init__(self, paths: list[str], encoding: str, options: Options, jobs: int | Cluster,
                 progress: Optional[Progress], output: Optional[str], force: bool) -> None:
        self.paths, self.encoding, self.options, self.jobs = paths, encoding, options, jobs
        self.progress, self.output, self.force = progress, output, force
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
        for path, result in game_results(self.paths, self.encoding, self.options, self.jobs, self.progress):
            if isinstance(result, Exception):
                self.unreadable.append(2 if isinstance(result, InputError) else 1)
                typer.echo(f"mancala: error: {result}", err=True)
                continue
            self.errors += result.errors
            for line in result.diagnostics:
                typer.echo(line, err=True)
            yield result

    def keep_damaged_input(self) -> None:
        """Raised inside the output block, so the temporary file is dropped:
        ``-o`` is not written when an input could not be read (to its end),
        nor replaces an input with errors."""
        if self.unreadable and self.output not in (None, "-"):
            raise NotWritten(f"{self.output}: not written, as an input could not be read")
        refuse_damaged_input(self.output, self.paths, self.errors, self.force)

    def write(self) -> None:
        """Every game that can be written, in input order: PMN games a blank
        line apart, JSON Lines, or one XML archive, which leaves out a game
        it cannot hold (counted as an error)."""
        # (held by a name, the results outlive an error that ends the command
        # until its workers are stopped: a signal then interrupts nothing)
        results = self.results()
        with open_writer(self.output, self.options.target) as writer:
            for result in results:
                self.add(writer, result)
            self.keep_damaged_input()

    def add(self, writer: RecordWriter, result: GameResult) -> None:
        written = result.written
        if written is None:  # (an input without games)
            return
        if written.unwritable is not None:
            self.errors += 1  # the game is left out, the others are written
            line, reason = written.unwritable
            typer.echo(f"{result.file or '-'}:{line}:0: error: unwritable: game {result.index}: {reason}", err=True)
            return
        writer.add(written)

