"""What several commands share: the one-line error exit, the game and
position of ``--game`` and ``--position``, the input files, the encoding
check, reading the records of one input, and output folders."""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, NoReturn, Optional

import typer

from ..positions import parse_position
from ..rules.core import Game, InvalidPosition, Position
from ..rules.registry import GAME_IDS, UnknownGame, get_game
from .running import choice, choices_metavar, completion, integer

if TYPE_CHECKING:
    from notation.record import GameRecord

#: Shell completion of ``--game``: the game ids.
GAME_COMPLETION = completion(GAME_IDS)
ENCODING_OPTION = typer.Option("utf-8", "--encoding", metavar="NAME", help="Text encoding of PMN and JSON input (a BOM is ignored).")


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
    try:
        return parse_position(game, text)
    except InvalidPosition as error:
        fail(f"bad position for {game.id}: {error}")


def input_files(files: Optional[list[str]]) -> list[str]:
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
    from .inputs import InputError, check_encoding

    try:
        check_encoding(name)
    except LookupError:
        pass
    except InputError as error:
        fail(str(error))
    return name


def read_input(path: str, encoding: str) -> Iterator[GameRecord]:
    """Every record of one input, numbered, with the decoding problems attached
    to the records whose lines they fall on. Raises InputError or XMLArchiveError."""
    from .inputs import open_source
    from .pipeline import read_records

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

    from .inputs import names_input

    try:
        stale = sorted(entry.path for entry in os.scandir(out_dir)
                       if re.fullmatch(pattern, entry.name) and not kept(entry.name)
                       and (entry.is_symlink() or entry.is_file())
                       and (path is None or not names_input(entry.path, [path])))
        for old in stale:
            os.unlink(old)
    except OSError as error:
        fail(f"{error.filename or out_dir}: cannot remove: {error.strerror or error}")
