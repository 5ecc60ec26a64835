"""``mancala lsp``: the PMN language server on standard input and output
(:mod:`mancala_cli.lsp`; it needs pygls, the ``lsp`` extra)."""
# (No ``from __future__ import annotations``: typer reads the command's
# signature at every start.)

import typer

from .streams import CommandError


def lsp(
    stdio: bool = typer.Option(False, "--stdio", help="Talk over standard input and output (the only way; "
                                                      "accepted because editors pass it)."),
) -> None:
    """Run the language server for PMN files (.pmn): diagnostics as you type
    (every problem validate reports), hover on a move (positions before and
    after it), completion of legal moves, tags and game ids, formatting,
    quick fixes and an outline of the games. It speaks the Language Server
    Protocol on standard input and output; start it from your editor (see
    docs/lsp.md). Needs pygls: pip install 'mancala[lsp]'.

    Example: mancala lsp
    """
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
    except ImportError:
        raise CommandError("the language server needs pygls: pip install 'mancala[lsp]'") from None
    import os
    import sys

    from ..lsp.server import serve

    code = serve()
    # The server closes standard output when the client says exit: the
    # interpreter's last flush must find a stream it can flush.
    if sys.stdout is None or sys.stdout.closed:
        sys.stdout = open(os.devnull, "w")
    if code:
        raise typer.Exit(code)
