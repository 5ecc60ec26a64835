"""What the commands share: their common options, usage errors in one
line, the inputs and the worker processes they run on, the progress shown
while they run, and the folders they write files into."""
from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, Optional

import typer

from ..rules.core import Game, Position
from ..rules.registry import GAME_IDS, UnknownGame, get_game
from .running import choice, choices_metavar, completion, decimal, integer, jobs as jobs_parser, seconds, usage_error

if TYPE_CHECKING:
    from collections.abc import Iterator

    from notation.record import GameRecord

    from ..archives import Criteria
    from ..batch.cluster import Cluster
    from ..batch.pipeline import GameResult, Options
    from ..solving.proofs import ProofBook

#: The deepest search asked for (plies): ``solve --depth``, ``annotate --depth``.
MAX_SOLVE_DEPTH = 400


def choice_option(default: Any, *names: str, values: tuple[str, ...], help: str) -> Any:
    """An option of one of ``values``, checked and completed by the command line."""
    return typer.Option(default, *names, parser=choice(names[0], values), metavar=choices_metavar(values),
                        autocompletion=completion(values), help=help)


def int_option(default: Any, *names: str, low: int, high: int | None = None, help: str) -> Any:
    """A whole-number option from ``low`` to ``high``."""
    return typer.Option(default, *names, parser=integer(names[0], low, high), metavar="N", help=help)


def fail(message: str, code: int = 2) -> NoReturn:
    """One line on standard error, then exit (2: usage or I/O, 1: bad input)."""
    typer.echo(f"mancala: error: {message}", err=True)
    raise typer.Exit(code)


def game_rules(game_id: str) -> Game:
    """The rules of ``--game`` (an unknown id: the error exit)."""
    try:
        return get_game(game_id)
    except UnknownGame as error:
        fail(str(error))


def position_of(game: Game, text: Optional[str]) -> Position:
    """The position of ``--position`` (none: the start; a bad one: the error exit)."""
    if text is None:
        return game.start()
    from ..positions import parse_position
    from ..rules.core import InvalidPosition

    try:
        return parse_position(game, text)
    except InvalidPosition as error:
        fail(f"bad position for {game.id}: {error}")


#: Shell completion of ``--game``: the game ids.
GAME_COMPLETION = completion(GAME_IDS)
#: ``--game`` of the commands that take a position (moves, perft, solve, random).
GAME_OPTION = typer.Option(..., "--game", "-g", metavar="GAME", autocompletion=GAME_COMPLETION,
                           help=f"Game id: {', '.join(GAME_IDS)}.")
#: ``--position`` of the same commands.
POSITION_OPTION = typer.Option(None, "--position", "-p", metavar="POSITION",
                               help="A position string (default: the standard start).")


def seconds_parser(option: str) -> Callable[[Any], float]:
    """A parser for a time limit: a number of seconds > 0."""
    def parse(value: Any) -> float:
        if isinstance(value, float):
            return value
        number = decimal(str(value).strip())
        if number is None or not 0 < number < float("inf"):
            raise usage_error(f"{option} must be a number of seconds > 0 (got {str(value)!r})")
        return number
    return parse


class StatusLine:
    """One line of standard error (a terminal), written over each time."""

    def __init__(self) -> None:
        self.shown = False

    def write(self, text: str) -> None:
        sys.stderr.write(f"\r\x1b[K{text}")
        sys.stderr.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.shown = False


FILES_ARGUMENT = typer.Argument(None, metavar="[FILE]...", help="Input files (PMN, JSON Lines or XML); '-' or none: standard input.")


ENCODING_OPTION = typer.Option("utf-8", "--encoding", metavar="NAME", help="Text encoding of PMN and JSON input (a BOM is ignored).")


TARGETS = ("pmn", "json", "xml")

#: The format a file name's extension stands for, by command family: records
#: (convert, filter, annotate) and drawings (render).
RECORD_EXTENSIONS = {".pmn": "pmn", ".json": "json", ".jsonl": "json", ".ndjson": "json", ".xml": "xml"}
DRAWING_EXTENSIONS = {".svg": "svg", ".txt": "text", ".png": "png", ".html": "html", ".htm": "html"}


def output_format(given: Optional[str], output: Optional[str], extensions: dict[str, str], *,
                  option: str, default: Optional[str]) -> str:
    """The format to write: ``given`` (``--format``/``--to``) or, when it is
    not given, the one ``-o``'s extension stands for, else ``default`` (with
    no default, the option is missing). A given format that another format's
    extension contradicts is a usage error: ``-o board.png --format svg``."""
    named = extensions.get(os.path.splitext(output)[1].lower()) if output else None
    if given is None:
        if named is not None:
            return named
        if default is None:
            fail(f"missing option {option} ({_listed(list(dict.fromkeys(extensions.values())))})")
        return default
    if named is not None and named != given:
        fail(f"-o {output} asks for {named}, but {option} is {given}: give one of them, or make them agree")
    return given


def _listed(names: list[str]) -> str:
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]


def same_file(path: str, other: str) -> bool:
    """Whether two paths name one regular file (through links or other spellings)."""
    import os
    try:
        return os.path.isfile(path) and os.path.samefile(path, other)
    except (OSError, ValueError):
        return False


def input_paths(files: Optional[list[str]]) -> list[str]:
    """The files given, or standard input (``-``) when it is not a terminal."""
    if files:
        return files
    if sys.stdin.isatty() or not hasattr(sys.stdin, "buffer"):
        fail("no input: give a file, or '-' to read standard input")
    return ["-"]


def checked_encoding(name: str) -> str:
    """``name`` when it is a text encoding records can be read in (an unknown
    name is reported per file, as it always was)."""
    if name == "utf-8":  # the default, which can (and a command that reads no record need not load the reader)
        return name
    from ..files.sources import InputError, check_encoding

    try:
        check_encoding(name)
    except LookupError:
        pass
    except InputError as error:
        fail(str(error))
    return name


#: ``--quiet`` of the commands that show a progress bar.
QUIET_OPTION = typer.Option(False, "--quiet", "-q", help="No progress bar.")
#: ``--game`` of the commands that read records.
RECORDS_GAME_OPTION = typer.Option(None, "--game", "-g", metavar="GAME", autocompletion=GAME_COMPLETION,
                                   help="Game id for records without a Game tag.")

JOBS_OPTION = typer.Option("auto", "--jobs", "-j", parser=jobs_parser("--jobs"), metavar="N|auto",
                           help="Worker processes, at most the usable cores (default auto: all of them; "
                                "output stays in input order).")


SCHEDULER_OPTION = typer.Option(None, "--scheduler", metavar="ADDRESS",
                                help="Run the batches on the Dask cluster of this scheduler "
                                     "(tcp://HOST:8786; needs mancala[dask]); not with --jobs.")


SCHEDULER_TIMEOUT_OPTION = typer.Option(10.0, "--scheduler-timeout", parser=seconds("--scheduler-timeout"),
                                        metavar="SECONDS",
                                        help="How long to wait for the scheduler and its workers.")


def workers_for(jobs: int, scheduler: Optional[str] = None, timeout: float = 10.0) -> int | Cluster:
    """``--jobs``: ``auto`` (0) is the usable cores; far more than them is a
    warning (the pipeline never starts more workers than cores, and none for
    an input of one batch). ``--scheduler``: the cluster, connected and
    checked now, before any output is opened, and closed with the command."""
    from ..batch.pipeline import usable_cores

    if scheduler is not None:
        return cluster_for(scheduler, timeout)
    no_scheduler_timeout()
    cores = usable_cores()
    if jobs == 0:
        return cores
    if jobs > 4 * cores:
        typer.echo(f"mancala: warning: --jobs {jobs} is more than 4 × the {cores} usable "
                   f"core{'s' if cores != 1 else ''}; using {cores}", err=True)
    return jobs


def no_scheduler_timeout() -> None:
    """``--scheduler-timeout`` without ``--scheduler`` is a usage error."""
    from typer._click.core import ParameterSource
    from typer._click.globals import get_current_context

    context = get_current_context(silent=True)
    if context is not None and context.get_parameter_source("scheduler_timeout") == ParameterSource.COMMANDLINE:
        fail("--scheduler-timeout needs --scheduler")


def cluster_for(address: str, timeout: float) -> Cluster:
    """``--scheduler ADDRESS``: the cluster, connected within ``timeout``
    seconds and closed with the command (not with ``--jobs``)."""
    from typer._click.core import ParameterSource
    from typer._click.globals import get_current_context

    from ..batch.cluster import ClusterError, connect

    context = get_current_context()
    if context.get_parameter_source("jobs") == ParameterSource.COMMANDLINE:
        fail("give --jobs or --scheduler, not both")
    if not address.strip():
        fail("--scheduler: empty address")
    try:
        cluster = connect(address, timeout)
    except ClusterError as error:
        fail(str(error))
    context.call_on_close(cluster.close)
    return cluster


def game_results(paths: list[str], encoding: str, options: Options, jobs: int | Cluster,
                 progress: Progress | None) -> Iterator[tuple[str, GameResult | Exception]]:
    """Every game's result, in input order: (path, GameResult or the error that stopped the file)."""
    from notation.errors import XMLArchiveError

    from ..batch.pipeline import results
    from ..files.sources import InputError, open_source

    for path in paths:
        try:
            with open_source(path, encoding) as source:
                advance = progress.advancer(path) if progress else None
                for result in results(source, options, jobs, advance):
                    yield path, result
        except (InputError, XMLArchiveError) as error:
            yield path, error


class Progress:
    """A progress bar on standard error, only when it is a terminal."""

    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.percentage:>3.0f}%"),
                            TimeRemainingColumn(), console=Console(stderr=True), transient=True)

    @staticmethod
    def wanted(quiet: bool) -> bool:
        return not quiet and sys.stderr.isatty()

    def start(self, path: str) -> Any:
        import os
        total = os.path.getsize(path) if path != "-" and os.path.isfile(path) else None
        return self.bar.add_task(os.path.basename(path), total=total)

    def advance(self, task: Any, amount: int) -> None:
        self.bar.advance(task, amount)

    def advancer(self, path: str) -> Callable[[int], None]:
        """What a file's batches tell the characters they hold: its bar
        appears with its first batch done, and advances with each."""
        tasks: list[Any] = []

        def advance(size: int) -> None:
            if not tasks:
                tasks.append(self.start(path))
            self.advance(tasks[0], size)
        return advance

    def __enter__(self) -> Progress:
        self.bar.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.bar.__exit__(*exc)


#: The help of --where (filter, split, stats, validate).
WHERE_HELP = ("Only the games that match this expression: fields, comparisons, and/or/not, parentheses "
              "(docs/commands/filter.md, \"Choosing games: --where\").")
WHERE_OPTION = typer.Option(None, "--where", metavar="EXPR", help=WHERE_HELP)


def read_input(path: str, encoding: str) -> Iterator[GameRecord]:
    """Every record of one input, numbered, with the decoding problems attached
    to the records whose lines they fall on. Raises InputError or XMLArchiveError."""
    from ..files.batches import read_records
    from ..files.sources import open_source

    with open_source(path, encoding) as source:
        yield from read_records(source)


def counted(number: int, noun: str) -> str:
    """``1 game``, ``2 games``, ``0 errors``."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


def make_out_dir(out_dir: str) -> None:
    """``--out-dir``, created when missing (not its parent folders)."""
    import os

    if not os.path.isdir(out_dir):
        try:
            os.mkdir(out_dir)
        except FileExistsError:
            fail(f"{out_dir}: is not a directory")
        except OSError as error:
            fail(f"{out_dir}: cannot create: {error.strerror or error}")


def remove_stale(out_dir: str, pattern: str, kept: Callable[[str], bool], path: Optional[str]) -> None:
    """Remove the files of ``out_dir`` whose names match ``pattern`` and are
    not ``kept`` (never the input file ``path``, never a folder)."""
    import os
    import re

    from ..files.output import names_input

    try:
        stale = sorted(entry.path for entry in os.scandir(out_dir)
                       if re.fullmatch(pattern, entry.name) and not kept(entry.name)
                       and (entry.is_symlink() or entry.is_file())
                       and (path is None or not names_input(entry.path, [path])))
        for old in stale:
            os.unlink(old)
    except OSError as error:
        fail(f"{error.filename or out_dir}: cannot remove: {error.strerror or error}")


SPLIT_TO_OPTION = typer.Option("pmn", "--to", "-t", parser=choice("--to", TARGETS), metavar=choices_metavar(TARGETS),
                               autocompletion=completion(TARGETS),
                               help="Format of the games written (canonical, as convert writes them).")
TO_OPTION = typer.Option(None, "--to", "-t", parser=choice("--to", TARGETS), metavar=choices_metavar(TARGETS),
                         autocompletion=completion(TARGETS),
                         help="Format of the games written (canonical, as convert writes them; default: "
                              "from -o's extension, else pmn).")


def criterion(option: str, parse: Callable[..., Any], *args: Any) -> Any:
    """``parse(*args)``, with a bad criterion a usage error naming ``option``."""
    from ..archives import BadCriterion

    try:
        return parse(*args)
    except BadCriterion as error:
        fail(f"{option}: {error}")


def where_criteria(text: Optional[str]) -> Criteria:
    """The criteria of ``--where``, a bad expression a usage error."""
    from ..archives import Criteria
    from ..errors import BadQuery

    try:
        return Criteria.where(text) if text is not None else Criteria()
    except BadQuery as error:
        fail(f"--where: {error}")


@contextlib.contextmanager
def where_stops() -> Iterator[None]:
    """Around a command's reading: a ``--where`` regular expression that
    runs too long (:class:`~mancala_cli.archives.RegexTimeout`) ends it with
    one line, exit 2."""
    from ..archives import RegexTimeout

    try:
        yield
    except RegexTimeout as error:
        fail(f"--where: {error}")


def read_failed(error: Exception) -> NoReturn:
    """An input that cannot be read at all: exit 2 for I/O, 1 for a broken XML archive."""
    from ..files.sources import InputError

    fail(str(error), 2 if isinstance(error, InputError) else 1)


#: The units of a size (--memory): multiples of 1,024.
_SIZE_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def size_parser(option: str) -> Callable[[Any], int]:
    """A parser for a size in bytes: ``1073741824``, ``512M``, ``2G`` (K, M,
    G, T: multiples of 1,024; a trailing ``B`` or ``iB`` is allowed)."""
    import re

    def parse(value: Any) -> int:
        if isinstance(value, int):
            return value
        text = str(value).strip()
        match = re.fullmatch(r"([0-9]{1,15}(?:\.[0-9]{1,9})?)\s*([kKmMgGtT]?)(?:i?[bB])?", text)
        if match is None or (match[1].count(".") and not match[2]):
            raise usage_error(f"{option} must be a size in bytes such as 512M or 2G (got {str(value)!r})")
        number = int(float(match[1]) * _SIZE_UNITS[match[2].upper()])
        if number < 1 << 20:
            raise usage_error(f"{option} must be at least 1M (got {str(value)!r})")
        return number
    return parse


def tablebase_file(path: Optional[str]) -> Any:
    """The table of ``--tablebase FILE`` (None without one); one line and exit 1 if it is no table or a
    damaged one, 2 if it cannot be read."""
    if path is None:
        return None
    from ..solving.tablebase import Tablebase, TablebaseError

    try:
        return Tablebase.read(path)
    except TablebaseError as error:
        fail(str(error), 1)
    except MemoryError:
        fail(f"{path}: out of memory while reading the table")
    except OSError as error:
        fail(f"{path}: cannot read: {error.strerror or error}")


def proof_book(paths: Optional[list[str]]) -> ProofBook | None:
    """The proofs of ``--proof`` (None without one); one line and exit 2 if one cannot be read."""
    if not paths:
        return None
    from ..solving.proofs import ProofBook

    try:
        return ProofBook.read(list(paths))
    except ValueError as error:
        fail(str(error))
    except OSError as error:
        fail(f"{error.filename}: cannot read: {error.strerror or error}")


def proof_files(paths: Optional[list[str]]) -> tuple[str, ...]:
    """The files of ``--proof``, read once here so that a bad one is one line and exit 2
    (the worker processes read them again from their paths)."""
    proof_book(paths)
    return tuple(paths or ())
