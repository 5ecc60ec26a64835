"""Deprecated: moved to mancala_cli.solving.solution; this name stays for one release.

It only re-exports the public names of :mod:`mancala_cli.solving.solution`;
importing it warns of nothing."""
from ..solving.solution import (
    DRAW_VALUE,
    LOSS,
    MAX_PLIES,
    RESULT_NAMES,
    STOP_REASONS,
    WIN,
    Progress,
    Solution,
    TableKey,
    result_name,
)

__all__ = ["DRAW_VALUE", "LOSS", "MAX_PLIES", "RESULT_NAMES", "STOP_REASONS", "WIN", "Progress",
           "result_name", "Solution", "TableKey"]
