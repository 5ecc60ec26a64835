"""``mancala edit``: the terminal editor of records (:mod:`mancala_cli.editor`;
it needs Textual, the ``edit`` extra)."""
# (No ``from __future__ import annotations``: typer reads the command's
# signature at every start.)

import sys
from typing import Optional

import typer

from .options import GAME_COMPLETION, fail, int_option


def edit(
    file: Optional[str] = typer.Argument(None, metavar="[FILE]", help="The file to edit (PMN, JSON Lines or XML); "
                                                                     "one that does not exist is a new game."),
    game: Optional[str] = typer.Option(None, "--game", "-g", metavar="GAME", autocompletion=GAME_COMPLETION,
                                       help="The game of a new record (or of records without a Game tag)."),
    index: Optional[int] = int_option(None, "--index", "-n", low=1,
                                      help="The game of an archive to edit (from 1; default: the games are offered)."),
    position: Optional[str] = typer.Option(None, "--position", "-p", metavar="POSITION",
                                           help="The start of a new game (a position string; default: the standard start)."),
) -> None:
    """Edit a record in the terminal: the board (click a hole or type a
    move, with completion), the movetext with variations, comments, NAGs and
    tags, undo and redo, the engine on demand; saved as canonical PMN (or
    the file's own format), every change kept at once in a recovery file.
    Needs Textual: pip install 'mancala[edit]'. Keys: docs/commands/edit.md.

    Example: mancala edit --game kingulu game.pmn
    """
    try:
        from ..editor.run import run  # (Textual, the optional edit extra: imported only to edit)
    except ImportError as error:
        if (error.name or "").split(".")[0] != "textual":
            raise
        fail("mancala edit needs Textual: pip install 'mancala[edit]'")
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        fail("mancala edit needs a terminal: standard input and output are not one")
    status, message = run(file, game=game, index=index, position=position)
    if message:
        fail(message, status)
    raise typer.Exit(status)
