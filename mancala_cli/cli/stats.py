"""``mancala stats``: the figures of an archive (:class:`mancala_cli.archives.Summary`)."""
from __future__ import annotations

import contextlib
import json as _json
import sys
from typing import Optional

import typer

from notation.notation_errors import XMLArchiveError

from ..batch.statistics import stats_files
from ..files import InputError
from .options import (
    ENCODING_OPTION,
    FILES_ARGUMENT,
    JOBS_OPTION,
    QUIET_OPTION,
    SCHEDULER_OPTION,
    SCHEDULER_TIMEOUT_OPTION,
    WHERE_OPTION,
    checked_encoding,
    choice_option,
    input_paths,
    int_option,
    read_failed,
)
from .progress import Progress
from .reading import check_workers
from .where import where_criteria, where_stops


def stats(
    files: Optional[list[str]] = FILES_ARGUMENT,
    depth: int = int_option(2, "--depth", "-d", low=0, high=100, help="Openings up to this many plies."),
    format: str = choice_option("text", "--format", "-f", values=("text", "json"),
                                 help="text (aligned tables), or json (one object)."),
    where: Optional[str] = WHERE_OPTION,
    encoding: str = ENCODING_OPTION,
    jobs: int = JOBS_OPTION,
    scheduler: Optional[str] = SCHEDULER_OPTION,
    scheduler_timeout: float = SCHEDULER_TIMEOUT_OPTION,
    quiet: bool = QUIET_OPTION,
) -> None:
    """Summarise an archive: games and invalid games; per game the plies
    (least, median, most, mean), the recorded results and the engine's
    endings of the valid games, and the openings up to DEPTH plies with
    South's score (a win 1, a draw ½, over finished games).

    Example: mancala stats examples/kingulu-tournament.pmn --depth 1
    """
    criteria = where_criteria(where)
    checked_encoding(encoding)
    paths = input_paths(files)
    check_workers(jobs, scheduler)
    progress = Progress() if Progress.wanted(quiet) else None
    try:
        with where_stops(), progress or contextlib.nullcontext():
            summary = stats_files(paths, depth=depth, where=criteria, encoding=encoding, jobs=jobs,
                                  scheduler=scheduler, scheduler_timeout=scheduler_timeout, progress=progress,
                                  tell=lambda line: typer.echo(line, err=True))
    except (InputError, XMLArchiveError) as error:
        read_failed(error)
    if format == "json":
        typer.echo(_json.dumps(summary.as_json()))
    else:
        sys.stdout.write(summary.as_text())
    if summary.invalid:
        raise typer.Exit(1)
