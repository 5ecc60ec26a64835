"""What ``mancala --version`` prints, answered before the command line
(typer) loads."""
from __future__ import annotations


def version_line() -> str:
    """What ``mancala --version`` prints: the version and the core in use."""
    from .. import __version__
    from ..rules.selection import CORE

    return f"mancala {__version__} ({CORE} core)"
