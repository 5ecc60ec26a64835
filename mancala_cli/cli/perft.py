"""``mancala perft``: the number of move sequences of a given depth (:func:`mancala_cli.rules.counting.divide`)."""
from __future__ import annotations

from typing import Optional

import typer

from notation.coords import format_move

from ..rules.counting import divide
from .options import GAME_OPTION, POSITION_OPTION, game_rules, int_option, position_of

#: The deepest perft asked for.
MAX_PERFT_DEPTH = 30


def perft(
    game: str = GAME_OPTION,
    depth: int = int_option(..., "--depth", "-d", low=0, high=MAX_PERFT_DEPTH, help="Number of moves."),
    position: Optional[str] = POSITION_OPTION,
) -> None:
    """Count the legal move sequences of exactly DEPTH moves (the count is printed last).

    Each first move is listed with its own count before the total.

    Example: mancala perft --game kingulu --depth 4
    """
    rules = game_rules(game)
    start = position_of(rules, position)
    if depth == 0:
        typer.echo("1")
        return
    total = 0
    for move, count in divide(rules, start, depth):
        typer.echo(f"{format_move(rules.board, move, 'algebraic', start.side)}: {count}")
        total += count
    typer.echo(str(total))
