"""What the commands share: their common options and the parsers of their
values, usage errors in one line, the rules and position asked for, the
format to write and the files to read."""
from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, NoReturn, Optional

import typer

from ..files import InputError
from ..files.encodings import check_encoding
from ..files.formats import FORMATS
from ..files.output import file_name_problem
from ..positions import parse_position
from ..rules.game import Game, InvalidPosition
from ..rules.position import Position
from ..rules.registry import GAME_IDS, UnknownGame, get_game
from .values import choice, choices_metavar, completion, integer, jobs as jobs_parser, seconds, usage_error

#: The deepest search asked for (plies): ``solve --depth``, ``annotate --depth``.
MAX_SOLVE_DEPTH = 400


def choice_option(default: Any, *names: str, values: tuple[str, ...], help: str) -> Any:
    """An option of one of ``values``, checked and completed by the command line."""
    return typer.Option(default, *names, parser=choice(names[0], values), metavar=choices_metavar(values),
                        autocompletion=completion(values), help=help)


def int_option(default: Any, *names: str, low: int, high: int | None = None, help: str) -> Any:
    """A whole-number option from ``low`` to ``high``."""
    return typer.Option(default, *names, parser=integer(names[0], low, high), metavar="N", help=help)


def output_file(option: str) -> Callable[[Any], str]:
    """A parser for an option that names a file to write (``-o``,
    ``--table``, ``--duplicates``): not a name that ends in ``/``, which
    names a folder (:func:`mancala_cli.files.output.file_name_problem`)."""
    def parse(value: Any) -> str:
        text = str(value)
        problem = file_name_problem(text)
        if problem is not None:
            raise usage_error(f"{option} {text}: {problem}")
        return text
    return parse


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

FILES_ARGUMENT = typer.Argument(None, metavar="[FILE]...", help="Input files (PMN, JSON Lines or XML); '-' or none: standard input.")

ENCODING_OPTION = typer.Option("utf-8", "--encoding", metavar="NAME", help="Text encoding of PMN and JSON input (a BOM is ignored).")

TARGETS = FORMATS


def input_paths(files: Optional[list[str]]) -> list[str]:
    """The files given, or standard input (``-``) when it is not a terminal."""
    if files:
        return files
    if sys.stdin.isatty() or not hasattr(sys.stdin, "buffer"):
        fail("no input: give a file, or '-' to read standard input")
    return ["-"]


def checked_encoding(name: str) -> str:
    """``name`` when it is a text encoding records can be read in (an unknown
    name is reported per file)."""
    if name == "utf-8":  # the default, which can
        return name
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


#: The help of --where (filter, split, stats, validate).
WHERE_HELP = ("Only the games that match this expression: fields, comparisons, and/or/not, parentheses "
              "(docs/commands/filter.md, \"Choosing games: --where\").")
WHERE_OPTION = typer.Option(None, "--where", metavar="EXPR", help=WHERE_HELP)

SPLIT_TO_OPTION = typer.Option("pmn", "--to", "-t", parser=choice("--to", TARGETS), metavar=choices_metavar(TARGETS),
                               autocompletion=completion(TARGETS),
                               help="Format of the games written (canonical, as convert writes them).")
TO_OPTION = typer.Option(None, "--to", "-t", parser=choice("--to", TARGETS), metavar=choices_metavar(TARGETS),
                         autocompletion=completion(TARGETS),
                         help="Format of the games written (canonical, as convert writes them; default: "
                              "from -o's extension, else pmn).")


def read_failed(error: Exception) -> NoReturn:
    """An input that cannot be read at all: exit 2 for I/O, 1 for a broken XML archive."""
    fail(str(error), 2 if isinstance(error, InputError) else 1)


