"""``mancala filter``: the games that match the criteria
(:class:`mancala_cli.archives.Criteria`, built in the library from the
options), written through the library's record writer."""
from __future__ import annotations

import contextlib
from typing import Any, Optional

import typer

from notation.notation_errors import XMLArchiveError

from ..archives.criteria import Criteria, RegexTimeout
from ..archives.texts import BadCriterion, known_game
from ..batch.filtering import filter_conflict, filter_files
from ..errors import BadQuery
from ..files import InputError
from ..files.formats import RECORD_EXTENSIONS
from .options import (
    ENCODING_OPTION,
    FILES_ARGUMENT,
    GAME_COMPLETION,
    JOBS_OPTION,
    QUIET_OPTION,
    SCHEDULER_OPTION,
    SCHEDULER_TIMEOUT_OPTION,
    TO_OPTION,
    WHERE_OPTION,
    checked_encoding,
    choice_option,
    fail,
    input_paths,
    int_option,
    output_file,
    read_failed,
)
from .output_formats import output_format
from .progress import Progress
from .reading import check_workers
from .where import criterion


def filter_games(
    files: Optional[list[str]] = FILES_ARGUMENT,
    game: Optional[str] = typer.Option(None, "--game", "-g", metavar="GAME", autocompletion=GAME_COMPLETION,
                                       help="Games of this game id (Game tag)."),
    tag: Optional[list[str]] = typer.Option(None, "--tag", metavar="NAME=REGEX",
                                            help="The tag's value matches REGEX (Python re.search); repeatable, "
                                                 "all must match."),
    result: Optional[str] = choice_option(None, "--result", values=("1-0", "0-1", "1/2-1/2", "*"),
                                           help="The recorded result."),
    min_plies: Optional[int] = int_option(None, "--min-plies", low=0, help="At least N main-line moves."),
    max_plies: Optional[int] = int_option(None, "--max-plies", low=0, help="At most N main-line moves."),
    reaches: Optional[list[str]] = typer.Option(None, "--reaches", metavar="POSITION",
                                                help="The start or a main-line position has these holes, "
                                                     "reserved holes, side to move and banks (the move number "
                                                     "is ignored); repeatable, any may match."),
    opening: Optional[str] = typer.Option(None, "--opening", metavar="MOVES",
                                          help="The main line starts with these moves (\"c1 b2 d1\", any "
                                               "coordinate style, marks optional)."),
    valid: bool = typer.Option(False, "--valid", help="Games validate finds no error in."),
    invalid: bool = typer.Option(False, "--invalid", help="Games validate finds an error in."),
    where: Optional[str] = WHERE_OPTION,
    dedupe: bool = typer.Option(False, "--dedupe", help="Drop a game whose game id, start position and "
                                                        "main-line moves equal an earlier written game's."),
    duplicates: Optional[str] = typer.Option(None, "--duplicates", parser=output_file("--duplicates"),
                                             metavar="FILE", help="Write the games --dedupe drops here (atomically)."),
    invert: bool = typer.Option(False, "--invert", "-v", help="Write the games that do not match."),
    count: bool = typer.Option(False, "--count", "-c", help="Print only the number of games that would be written."),
    to: Optional[str] = TO_OPTION,
    output: Optional[str] = typer.Option(None, "--output", "-o", parser=output_file("--output"), metavar="FILE", help="Write here (atomically) instead of stdout."),
    encoding: str = ENCODING_OPTION,
    jobs: int = JOBS_OPTION,
    scheduler: Optional[str] = SCHEDULER_OPTION,
    scheduler_timeout: float = SCHEDULER_TIMEOUT_OPTION,
    quiet: bool = QUIET_OPTION,
    force: bool = typer.Option(False, "--force", help="Replace an input that has errors when -o or --duplicates "
                                                      "names it."),
) -> None:
    """Write the games that match every criterion given, in input order.

    Problems found while reading go to standard error (exit 1); games are
    judged and written all the same.

    Example: mancala filter examples/kingulu-tournament.pmn --where 'tag.South ~ "^Amani" and result = "0-1"'
    """
    check_options(game=game, valid=valid, invalid=invalid, min_plies=min_plies, max_plies=max_plies, dedupe=dedupe,
                  duplicates=duplicates, count=count, output=output)
    criteria = criteria_of(game=game, tags=tag or (), result=result, min_plies=min_plies, max_plies=max_plies,
                           reaches=reaches or (), opening=opening, valid=valid or (False if invalid else None), where=where)
    checked_encoding(encoding)
    to = output_format(to, output, RECORD_EXTENSIONS, option="--to", default="pmn")
    check_workers(jobs, scheduler)
    regex_option = "--where" if where is not None and not tag else "--tag"
    written, errors = _picked(regex_option, quiet, input_paths(files), output, where=criteria, to=to, invert=invert,
                              dedupe=dedupe, duplicates=duplicates, count=count, force=force, encoding=encoding,
                              jobs=jobs, scheduler=scheduler, scheduler_timeout=scheduler_timeout)
    if count:
        typer.echo(str(written))
    if errors:
        raise typer.Exit(1)


def _picked(regex_option: str, quiet: bool, paths: list[str], output: Optional[str], **options: Any) -> tuple[int, int]:
    """:func:`~mancala_cli.batch.filtering.filter_files` with its progress bar
    and its problems on standard error: the games written and the errors
    found. An input that cannot be read and a regular expression that runs
    too long (``regex_option`` gave it) end the command."""
    progress = Progress() if Progress.wanted(quiet) else None
    try:
        with progress or contextlib.nullcontext():
            picked = filter_files(paths, output, progress=progress, tell=lambda line: typer.echo(line, err=True),
                                  **options)
    except (InputError, XMLArchiveError) as error:
        read_failed(error)
    except RegexTimeout as error:
        fail(f"{regex_option}: {error}")
    return picked.written, picked.errors


def criteria_of(**options: Any) -> Criteria:
    """The criteria of ``filter``'s options (:meth:`Criteria.from_options`);
    a bad one is a usage error, and its warnings are said."""
    try:
        criteria = Criteria.from_options(**options)
    except BadCriterion as error:
        fail(str(error))
    except BadQuery as error:
        fail(f"--where: {error}")
    for note in criteria.warnings:  # (an --opening's names its flag; the others are of --where)
        typer.echo(f"mancala: warning: {'' if note.startswith('--') else '--where: '}{note}", err=True)
    return criteria


def check_options(*, game: Optional[str], valid: bool, invalid: bool, min_plies: Optional[int],
                  max_plies: Optional[int], dedupe: bool, duplicates: Optional[str], count: bool,
                  output: Optional[str]) -> None:
    """The usage errors of ``filter``'s options, the first one found."""
    for option, value in (("--output", output), ("--duplicates", duplicates)):
        if value == "":
            fail(f"{option}: empty file name")
    if game is not None:
        criterion("--game", known_game, game)
    conflict = filter_conflict(valid=valid, invalid=invalid, min_plies=min_plies, max_plies=max_plies, dedupe=dedupe,
                               duplicates=duplicates, count=count, output=output)
    if conflict is not None:
        fail(conflict)
