"""``mancala lsp``: the PMN language server on standard input and output
(:mod:`mancala_cli.lsp`; it needs pygls, the ``lsp`` extra)."""
# (No ``from __future__ import annotations``: typer reads the command's
# signature at every start.)

import signal

import typer

from ..files import STOP_SIGNALS
from .streams import end_now
from .values import usage_error


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
        from ..lsp.server import serve  # (pygls, the optional lsp extra: imported only to run the server)
    except ImportError:
        raise usage_error("the language server needs pygls: pip install 'mancala[lsp]'") from None

    stopped: list[int] = []

    def stop(signum: int, frame: object) -> None:
        stopped.append(signum)
        raise KeyboardInterrupt

    for signum in STOP_SIGNALS:
        signal.signal(signum, stop)
    code = serve()
    # At once: the thread that reads standard input may be blocked in a read
    # (the client said exit but keeps the pipe open, or a signal came), and
    # the interpreter would wait for it at its exit.
    end_now(128 + stopped[0] if stopped else code)
