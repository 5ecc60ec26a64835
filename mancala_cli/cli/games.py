"""``mancala games``: the games the rules know (:func:`mancala_cli.rules.registry.all_games`)."""
from __future__ import annotations

import json

import typer

from notation.position_strings import format_position

from ..rules.registry import all_games
from .options import choice_option


def games(
    format: str = choice_option("text", "--format", "-f", values=("text", "json"), help="Output format."),
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
    else:
        for row in rows:
            typer.echo(f"{row['id']:<17} {row['name']:<26} {row['board']:<5} {row['seeds']:>2} seeds  "
                       f"{row['sowing']}; {row['source']}")
