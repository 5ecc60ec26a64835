"""``mancala moves``: the legal moves of a position."""
from __future__ import annotations

from typing import Optional

import typer

from notation.coords import STYLES, format_move

from .options import GAME_OPTION, POSITION_OPTION, choice_option, game_rules, position_of


def moves(
    game: str = GAME_OPTION,
    position: Optional[str] = POSITION_OPTION,
    coords: str = choice_option("algebraic", "--coords", values=STYLES, help="Coordinate style of the moves."),
) -> None:
    """Print the legal moves, one per line, with their outcome marks (c1x6, e2^).

    Example: mancala moves --game kingulu --position "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1"
    """
    rules = game_rules(game)
    start = position_of(rules, position)
    legal = rules.legal_moves(start)
    for move in legal:
        typer.echo(format_move(rules.board, move, coords, start.side))
    if not legal:
        outcome = rules.outcome(start, moves=legal)
        if outcome is not None:
            typer.echo(f"the game is over: {outcome.result} ({outcome.reason}: {outcome.message})", err=True)
