"""The library's input and output files under the names the command line
has used for them (:mod:`mancala_cli.files.sources` and
:mod:`mancala_cli.files.output` hold them)."""
from __future__ import annotations

from ..files.output import OutputError, atomic_output, names_input, refuse_damaged_input
from ..files.sources import (
                             MAX_LINE,
                             MAX_POSITION_LINE,
                             STDIN_NAME,
                             InputError,
                             NumberedLine,
                             Source,
                             check_encoding,
                             numbered_lines,
                             open_source,
                             sniff,
)

__all__ = ["OutputError", "atomic_output", "names_input", "refuse_damaged_input", "MAX_LINE", "MAX_POSITION_LINE",
           "STDIN_NAME", "InputError", "NumberedLine", "Source", "check_encoding", "numbered_lines", "open_source",
           "sniff"]
