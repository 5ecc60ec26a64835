"""``mancala split``: the games in files of N games each, written through
the library's record writer, the set whole or not at all (see
:mod:`mancala_cli.files.parts`)."""
from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING, Optional

import typer

from notation.notation_errors import XMLArchiveError

from ..archives.tasks import FilterTask
from ..batch.filtering import Problems
from ..batch.runs import answers
from ..files import InputError
from ..files.output import OutputError, make_folder, names_input
from ..files.parts import NewParts
from ..files.reports import counted
from ..files.writing import RecordWriter, open_writer
from .options import (
    ENCODING_OPTION,
    FILES_ARGUMENT,
    JOBS_OPTION,
    QUIET_OPTION,
    SCHEDULER_OPTION,
    SCHEDULER_TIMEOUT_OPTION,
    SPLIT_TO_OPTION,
    WHERE_OPTION,
    checked_encoding,
    fail,
    input_paths,
    int_option,
    read_failed,
)
from .progress import Progress
from .reading import workers_for
from .where import where_criteria, where_stops

if TYPE_CHECKING:
    from ..batch.dask_executor import Cluster

#: How split names its files: five digits at least, then the format's suffix.
SPLIT_SUFFIXES = {"pmn": "pmn", "json": "jsonl", "xml": "xml"}


def split(
    files: Optional[list[str]] = FILES_ARGUMENT,
    games: int = int_option(..., "--games", "-n", low=1, help="Games per file."),
    out_dir: str = typer.Option(..., "--out-dir", metavar="DIR", help="Folder of the files (created when missing)."),
    where: Optional[str] = WHERE_OPTION,
    to: str = SPLIT_TO_OPTION,
    encoding: str = ENCODING_OPTION,
    jobs: int = JOBS_OPTION,
    scheduler: Optional[str] = SCHEDULER_OPTION,
    scheduler_timeout: float = SCHEDULER_TIMEOUT_OPTION,
    quiet: bool = QUIET_OPTION,
) -> None:
    """Write the games in files of N games each: DIR/00001.pmn, DIR/00002.pmn …

    The new files replace those of the last split into DIR only once they are
    all written; of the earlier split's files, those not replaced are removed
    (they are listed in DIR/.mancala-split), and no other file. Problems found
    while reading go to standard error (exit 1).

    Example: mancala split examples/kingulu-tournament.pmn --games 2 --out-dir parts
    """
    if out_dir == "":
        fail("--out-dir: empty folder name")
    criteria = where_criteria(where)
    checked_encoding(encoding)
    paths = input_paths(files)
    workers = workers_for(jobs, scheduler, scheduler_timeout)
    progress = Progress() if Progress.wanted(quiet) else None
    try:
        make_folder(out_dir)
        parts = NewParts.begin(out_dir)
    except OutputError as error:
        fail(str(error))
    try:
        with where_stops():
            errors = write_parts(paths, encoding, FilterTask(criteria, target=to), workers, progress, games, parts)
        removed = parts.commit(kept=lambda name: names_input(os.path.join(out_dir, name), paths))
    except OutputError as error:
        fail(parts.shown(str(error)))
    except (InputError, XMLArchiveError) as error:
        read_failed(error)
    finally:
        parts.discard()
    if removed:
        shown = ", ".join(removed) if len(removed) <= 3 else f"{removed[0]} … {removed[-1]}"
        typer.echo(f"mancala: {out_dir}: removed {counted(len(removed), 'file')} of the earlier split ({shown})",
                   err=True)
    if errors:
        raise typer.Exit(1)


def write_parts(paths: list[str], encoding: str, task: FilterTask, jobs: int | Cluster,
                progress: Optional[Progress], games: int, parts: NewParts) -> int:
    """The games ``task`` picks, ``games`` to a file of the new set ``parts``
    (never one whose place in the folder is an input); the errors found."""
    problems = Problems(lambda line: typer.echo(line, err=True))
    with progress or contextlib.nullcontext(), contextlib.ExitStack() as stack:
        current: Optional[RecordWriter] = None
        # (held by a name: see mancala_cli.batch.filtering._write_picked)
        answered = answers(paths, task, encoding=encoding, jobs=jobs, progress=progress)
        for name, index, picked in answered:
            problems.report(name, index, picked)
            if not picked.selected or picked.game is None or picked.unwritable is not None:
                continue
            if current is None or current.games == games:
                stack.close()
                file_name = f"{len(parts.names) + 1:05d}.{SPLIT_SUFFIXES[task.target]}"
                path = os.path.join(parts.folder, file_name)
                if names_input(path, paths):
                    fail(f"{path}: is an input file; not replaced")
                current = stack.enter_context(open_writer(parts.path(file_name), task.target))
            current.add(picked.game)
    return problems.errors
