"""Deprecated: moved to mancala_cli.solving.tablebase; this name stays for one release.

It only re-exports the public names of :mod:`mancala_cli.solving.tablebase`;
importing it warns of nothing."""
from .solving.tablebase import (
    FORMAT,
    GAME,
    MAX_STONES,
    RULES,
    Tablebase,
    TablebaseError,
    build_bytes,
    entries,
    work_bytes,
)

__all__ = ["FORMAT", "GAME", "MAX_STONES", "RULES", "build_bytes", "entries", "Tablebase", "TablebaseError",
           "work_bytes"]
