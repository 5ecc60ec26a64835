"""The formats the commands write, and the one a command writes: given
(``--to``, ``--format``) or named by ``-o``'s extension, by the rule the
library's writers follow too (:func:`mancala_cli.files.formats.chosen_format`)."""
from __future__ import annotations

from typing import Optional

from ..files.formats import FormatChoiceError, chosen_format
from .options import fail

#: The format a file name's extension stands for in drawings (render); the
#: records' table (convert, filter, annotate) is the library's.
DRAWING_EXTENSIONS = {".svg": "svg", ".txt": "text", ".png": "png", ".html": "html", ".htm": "html"}


def output_format(given: Optional[str], output: Optional[str], extensions: dict[str, str], *,
                  option: str, default: Optional[str]) -> str:
    """The format to write: ``given`` (``--format``/``--to``) or, when it is
    not given, the one ``-o``'s extension stands for, else ``default`` (with
    no default, the option is missing). A given format that another format's
    extension contradicts is a usage error: ``-o board.png --format svg``."""
    try:
        return chosen_format(given, output, extensions, option=option, default=default)
    except FormatChoiceError as error:
        fail(str(error))
