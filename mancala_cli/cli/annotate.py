"""``mancala annotate``: every game written back with the engine's proven
results (:class:`mancala_cli.solving.engine_facts.AnnotateTask`, in this process or
in worker processes), through the library's record writer."""
from __future__ import annotations

import contextlib
from typing import Any, Optional

import typer

from notation.notation_errors import XMLArchiveError

from ..batch.annotating import AnnotateTotals, AnnotateWatch, annotate_files
from ..documents import proof_glob
from ..files import InputError
from ..files.formats import RECORD_EXTENSIONS
from ..solving.engine_facts import watch_positions
from ..solving.proofs import proofs_among
from .engine_options import proof_files, tablebase_file
from .options import (
    ENCODING_OPTION,
    FILES_ARGUMENT,
    JOBS_OPTION,
    MAX_SOLVE_DEPTH,
    RECORDS_GAME_OPTION,
    SCHEDULER_OPTION,
    SCHEDULER_TIMEOUT_OPTION,
    TARGETS,
    checked_encoding,
    choice_option,
    fail,
    game_rules,
    input_paths,
    int_option,
    output_file,
    read_failed,
)
from .output_formats import output_format
from .progress import StatusLine, on_terminal
from .reading import check_workers
from .values import seconds_parser

TIME_OPTION = typer.Option(1.0, "--time", parser=seconds_parser("--time"), metavar="SECONDS",
                           help="Search for at most this many seconds per move.")
OUTPUT_OPTION = typer.Option(None, "--output", "-o", parser=output_file("--output"), metavar="FILE", help="Write here (atomically) instead of stdout.")
TABLEBASE_OPTION = typer.Option(None, "--tablebase", metavar="FILE",
                                help="Endgame tables the searches ask (mancala tablebase build).")
PROOF_OPTION = typer.Option(None, "--proof", metavar="FILE",
                            help=f"A proof file (the kingulu start's: {proof_glob()}) whose results fill in what "
                                 "the searches leave unknown; repeatable, and the input files that are proofs are "
                                 "taken as proofs too (--proof FILE... game.pmn).")


def annotate(
    files: Optional[list[str]] = FILES_ARGUMENT,
    depth: Optional[int] = int_option(None, "--depth", "-d", low=1, high=MAX_SOLVE_DEPTH,
                                      help="Search at most this many moves deep per move."),
    nodes: Optional[int] = int_option(None, "--nodes", low=1, help="Search at most this many positions per move."),
    time: float = TIME_OPTION,
    to: Optional[str] = choice_option(None, "--to", "-t", values=TARGETS,
                                      help="Format of the games written (default: from -o's extension, else pmn)."),
    output: Optional[str] = OUTPUT_OPTION,
    game: Optional[str] = RECORDS_GAME_OPTION,
    encoding: str = ENCODING_OPTION,
    jobs: int = JOBS_OPTION,
    scheduler: Optional[str] = SCHEDULER_OPTION,
    scheduler_timeout: float = SCHEDULER_TIMEOUT_OPTION,
    force: bool = typer.Option(False, "--force", help="Replace an input that has errors when -o names it."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress line and no summary."),
    tablebase: Optional[str] = TABLEBASE_OPTION,
    proof: Optional[list[str]] = PROOF_OPTION,
) -> None:
    """Write every game back with the engine's facts for its main line: the
    start's proven result as a comment; ? or ?? and a move that keeps the
    result where a move throws a proven win or draw away; ! for the only
    move that keeps a win. What the limits leave unproven is left alone.

    Invalid games are reported as validate reports them (standard error,
    exit 1) and written unannotated; so is an input without a game. Each
    move is searched for at most --time seconds, so a game of N moves takes
    at most about N times that. On a terminal, standard error shows the
    work under way; at the end, a summary line: the positions searched, the
    proven ones and the marks added.

    Example: mancala annotate examples/kingulu-village-match.pmn --time 0.5
    """
    if output == "":
        fail("--output: empty file name")
    if game is not None:
        game_rules(game)
    checked_encoding(encoding)
    if proof and files:
        files, proof = proofs_among(files, proof)
    paths = input_paths(files)
    check_workers(jobs, scheduler)
    tablebase_file(tablebase)
    to = output_format(to, output, RECORD_EXTENSIONS, option="--to", default="pmn")
    totals = _annotated(paths, output, quiet, to=to, depth=depth, nodes=nodes, time=time, game=game,
                        tablebase=tablebase, proofs=proof_files(proof), encoding=encoding, jobs=jobs,
                        scheduler=scheduler, scheduler_timeout=scheduler_timeout, force=force)
    if not quiet:
        typer.echo(totals.summary(), err=True)
    if totals.errors:
        raise typer.Exit(1)


def _annotated(paths: list[str], output: Optional[str], quiet: bool, **options: Any) -> AnnotateTotals:
    """:func:`~mancala_cli.batch.annotating.annotate_files` with its progress
    line (on a terminal, unless ``quiet``) and its problems on standard
    error; an input that cannot be read ends the command."""
    try:
        with (contextlib.nullcontext() if quiet else on_terminal(AnnotateProgress)) as progress:
            if progress is not None:
                watch_positions(progress.position)
            try:
                return annotate_files(paths, output, tell=lambda lines: typer.echo(lines, err=True),
                                      watcher=progress, **options)
            finally:
                if progress is not None:
                    watch_positions(None)
    except (InputError, XMLArchiveError) as error:
        read_failed(error)


class AnnotateProgress(StatusLine, AnnotateWatch):
    """``annotate`` under way, on one line of standard error (a terminal),
    written over: :class:`~mancala_cli.batch.annotating.AnnotateWatch`'s line."""

    def __init__(self) -> None:
        StatusLine.__init__(self)
        AnnotateWatch.__init__(self)

    def show(self, line: str) -> None:
        self.write(line)
