"""``mancala convert``: records rewritten in PMN, JSON Lines or XML
(:class:`mancala_cli.files.writing.RecordWriter`), each game replayed in
this process or in worker processes (:mod:`.pipeline`)."""
from __future__ import annotations

import contextlib
from typing import Optional

import typer

from notation.coords import STYLES

from ..batch.conversion import NotWritten, write_files
from ..files.formats import RECORD_EXTENSIONS
from .options import (
    ENCODING_OPTION,
    FILES_ARGUMENT,
    JOBS_OPTION,
    QUIET_OPTION,
    RECORDS_GAME_OPTION,
    SCHEDULER_OPTION,
    SCHEDULER_TIMEOUT_OPTION,
    TARGETS,
    checked_encoding,
    choice_option,
    fail,
    game_rules,
    input_paths,
    output_file,
)
from .output_formats import output_format
from .progress import Progress
from .reading import check_workers


def convert(
    files: Optional[list[str]] = FILES_ARGUMENT,
    to: Optional[str] = choice_option(None, "--to", "-t", values=TARGETS,
                                      help="Target format (default: from -o's extension: .pmn, .json, .jsonl, "
                                           ".ndjson, .xml)."),
    coords: Optional[str] = choice_option(None, "--coords", values=STYLES,
                                          help="Rewrite the moves in this coordinate style."),
    positions: bool = typer.Option(False, "--positions", help="Add the position after every move (JSON, XML)."),
    output: Optional[str] = typer.Option(None, "--output", "-o", parser=output_file("--output"), metavar="FILE", help="Write here (atomically) instead of stdout."),
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
    check_workers(jobs, scheduler)
    paths = input_paths(files)
    progress = Progress() if Progress.wanted(quiet) else None
    try:
        with progress or contextlib.nullcontext():
            status = write_files(paths, output, to=to, coords=coords, positions=positions, game=game,
                                 encoding=encoding, jobs=jobs, scheduler=scheduler,
                                 scheduler_timeout=scheduler_timeout, force=force, progress=progress,
                                 tell=lambda line: typer.echo(line, err=True))
    except NotWritten as error:
        fail(str(error), error.status)
    if status:
        raise typer.Exit(status)
