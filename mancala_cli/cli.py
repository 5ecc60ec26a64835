"""The ``mancala`` command line: a thin layer that wires the notation, the
rules engines and the exporters together. Exit status: 0 success, 1 the
input was read but has problems, 2 usage or I/O error."""
from __future__ import annotations

import json
import random
import sys
from enum import Enum
from typing import NoReturn, Optional

import typer

from notation.coords import STYLES, format_move
from notation.position import format_position, parse_position

from . import __version__
from .core import Game, InvalidPosition, Line, Position
from .games import GAME_IDS, UnknownGame, all_games, get_game
from .perft import divide

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Validate, convert and draw records of Bao la Kimasai and Bao Kingulu games.",
)


class Coords(str, Enum):
    algebraic = "algebraic"
    numeric = "numeric"
    relative = "relative"


assert tuple(c.value for c in Coords) == STYLES


def fail(message: str, code: int = 2) -> NoReturn:
    """One line on standard error, then exit (2: usage or I/O, 1: bad input)."""
    typer.echo(f"mancala: error: {message}", err=True)
    raise typer.Exit(code)


def _game(game_id: str) -> Game:
    try:
        return get_game(game_id)
    except UnknownGame as error:
        fail(str(error))


def _position(game: Game, text: Optional[str]) -> Position:
    if text is None:
        return game.start()
    try:
        return parse_position(game, text)
    except InvalidPosition as error:
        fail(f"bad position for {game.id}: {error}")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"mancala {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Validate, convert and draw records of Bao la Kimasai and Bao Kingulu games."""


GAME_OPTION = typer.Option(..., "--game", "-g", help=f"Game id: {', '.join(GAME_IDS)}.")
POSITION_OPTION = typer.Option(None, "--position", "-p", help="A position string (default: the standard start).")


@app.command()
def games(
    format: str = typer.Option("text", "--format", "-f", help="text or json."),
) -> None:
    """List the games: id, name, board, seeds and source.

    Example: mancala games --format json
    """
    rows = [{"id": g.id, "name": g.name, "board": f"{g.board.ranks}x{g.board.files}",
             "seeds": g.total, "sowing": g.sowing, "source": g.source,
             "start": format_position(g, g.start())} for g in all_games()]
    if format == "json":
        for row in rows:
            typer.echo(json.dumps(row, ensure_ascii=False))
    elif format == "text":
        for row in rows:
            typer.echo(f"{row['id']:<17} {row['name']:<26} {row['board']:<5} {row['seeds']:>2} seeds  "
                       f"{row['sowing']}; {row['source']}")
    else:
        fail(f"unknown format {format!r} (text or json)")


@app.command()
def moves(
    game: str = GAME_OPTION,
    position: Optional[str] = POSITION_OPTION,
    coords: Coords = typer.Option(Coords.algebraic, "--coords", help="Coordinate style of the moves."),
) -> None:
    """Print the legal moves, one per line, with their outcome marks (c1x6, e2^).

    Example: mancala moves --game kingulu --position "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1"
    """
    rules = _game(game)
    start = _position(rules, position)
    legal = rules.legal_moves(start)
    for move in legal:
        typer.echo(format_move(rules.board, move, coords.value, start.side))
    if not legal:
        outcome = rules.outcome(start)
        if outcome is not None:
            typer.echo(f"the game is over: {outcome.result} ({outcome.reason}: {outcome.message})", err=True)


@app.command()
def perft(
    game: str = GAME_OPTION,
    depth: int = typer.Option(..., "--depth", "-d", min=0, help="Number of moves."),
    position: Optional[str] = POSITION_OPTION,
) -> None:
    """Count the legal move sequences of exactly DEPTH moves (the count is printed last).

    Each first move is listed with its own count before the total.

    Example: mancala perft --game kingulu --depth 4
    """
    rules = _game(game)
    start = _position(rules, position)
    if depth == 0:
        typer.echo("1")
        return
    total = 0
    for move, count in divide(rules, start, depth):
        typer.echo(f"{format_move(rules.board, move, 'algebraic', start.side)}: {count}")
        total += count
    typer.echo(str(total))


@app.command("random")
def random_games(
    game: str = GAME_OPTION,
    n: int = typer.Option(1, "-n", "--number", min=0, help="How many games."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="Random seed (the same seed gives the same games)."),
    max_plies: Optional[int] = typer.Option(None, "--max-plies", min=1,
                                            help="Stop a game after this many moves (result '*')."),
) -> None:
    """Write N random legal games as canonical PMN.

    Example: mancala random --game kingulu -n 3 --seed 7
    """
    from notation.pmn import write_game

    from .randomgames import random_game

    rules = _game(game)
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    out = sys.stdout
    for i in range(n):
        record = random_game(rules, rng, max_plies, event=f"random game {i + 1}, seed {seed}")
        if i:
            out.write("\n")
        out.write(write_game(record))


def main() -> None:
    app()
