"""``mancala validate``: every game checked against the rules, a line per
problem and a summary (:mod:`.pipeline` runs the checks, in batches)."""
# (No ``from __future__ import annotations``: typer reads the command's
# signature at every start, and annotations given as strings would each be
# compiled and evaluated then.)

import contextlib
import sys
from typing import Any, Optional

import typer

from ..batch.runs import check_files
from ..files import InputError
from ..files.reports import counted, report_json
from .options import (
    ENCODING_OPTION,
    FILES_ARGUMENT,
    JOBS_OPTION,
    RECORDS_GAME_OPTION,
    SCHEDULER_OPTION,
    SCHEDULER_TIMEOUT_OPTION,
    WHERE_OPTION,
    checked_encoding,
    choice_option,
    game_rules,
    input_paths,
)
from .progress import Progress
from .reading import check_workers


def validate(
    files: Optional[list[str]] = FILES_ARGUMENT,
    game: Optional[str] = RECORDS_GAME_OPTION,
    strict: bool = typer.Option(False, "--strict", help="Treat warnings as errors."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the problems."),
    format: str = choice_option("text", "--format", "-f", values=("text", "json"),
                                help="text, or json (one JSON object per game)."),
    where: Optional[str] = WHERE_OPTION,
    encoding: str = ENCODING_OPTION,
    jobs: int = JOBS_OPTION,
    scheduler: Optional[str] = SCHEDULER_OPTION,
    scheduler_timeout: float = SCHEDULER_TIMEOUT_OPTION,
) -> None:
    """Check every game: syntax, every move of the main line and the variations
    against the rules, outcome marks, move numbers, result and score.

    Prints FILE:LINE:COL: error: … per problem and a summary line; exit 1 when
    any game has an error.

    Example: mancala validate examples/kingulu-village-match.pmn
    """
    if game is not None:
        game_rules(game)
    criteria, stops = _where(where)
    checked_encoding(encoding)
    check_workers(jobs, scheduler)
    totals = {"games": 0, "moves": 0, "errors": 0, "warnings": 0}
    io_failed = False
    out = sys.stdout
    progress = Progress() if Progress.wanted(quiet) else None
    checked = check_files(input_paths(files), game=game, strict=strict, where=criteria, format=format,
                          encoding=encoding, jobs=jobs, scheduler=scheduler, scheduler_timeout=scheduler_timeout,
                          progress=progress)
    with stops, progress or contextlib.nullcontext():
        for path, result in checked:
            if isinstance(result, Exception):
                io_failed = io_failed or isinstance(result, InputError)
                totals["errors"] += 1
                _unreadable(path, result, format)
                continue
            if result.skipped:  # (not one of --where's games)
                continue
            totals["games"] += result.record_count
            totals["moves"] += result.moves
            totals["errors"] += result.errors
            totals["warnings"] += result.warnings
            out.write(result.out + "\n" if format == "json" else result.out)
    if format == "text" and not quiet:
        out.write(", ".join(counted(totals[key], key[:-1]) for key in totals) + "\n")
    out.flush()
    if io_failed:
        raise typer.Exit(2)
    if totals["errors"]:
        raise typer.Exit(1)


def _where(where: Optional[str]) -> tuple[Any, contextlib.AbstractContextManager[None]]:
    """The games ``--where`` chooses (``None``: all) and what ends the
    command in one line when its pattern runs too long."""
    if where is None:
        return None, contextlib.nullcontext()
    from .where import where_criteria, where_stops  # (--where alone: docs/performance.md, 'Start-up')

    return where_criteria(where), where_stops()


def _unreadable(path: str, error: Exception, format: str) -> None:
    """Report an input that could not be read at all."""
    if format == "json":
        unreadable = {"severity": "error", "rule": "unreadable", "message": str(error)}
        sys.stdout.write(report_json(path, getattr(error, "line", None), None, 0, None, False, [unreadable]) + "\n")
    else:
        sys.stdout.flush()
        typer.echo(f"mancala: error: {error}", err=True)
