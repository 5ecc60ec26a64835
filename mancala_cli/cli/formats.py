"""The formats the commands write, and the one a command writes: given
(``--to``, ``--format``) or named by ``-o``'s extension."""
from __future__ import annotations

import os
from typing import Optional

from .options import fail

#: The format a file name's extension stands for, by command family: records
#: (convert, filter, annotate) and drawings (render).
RECORD_EXTENSIONS = {".pmn": "pmn", ".json": "json", ".jsonl": "json", ".ndjson": "json", ".xml": "xml"}
DRAWING_EXTENSIONS = {".svg": "svg", ".txt": "text", ".png": "png", ".html": "html", ".htm": "html"}


def output_format(given: Optional[str], output: Optional[str], extensions: dict[str, str], *,
                  option: str, default: Optional[str]) -> str:
    """The format to write: ``given`` (``--format``/``--to``) or, when it is
    not given, the one ``-o``'s extension stands for, else ``default`` (with
    no default, the option is missing). A given format that another format's
    extension contradicts is a usage error: ``-o board.png --format svg``."""
    named = extensions.get(os.path.splitext(output)[1].lower()) if output else None
    if given is None:
        if named is not None:
            return named
        if default is None:
            fail(f"missing option {option} ({_listed(list(dict.fromkeys(extensions.values())))})")
        return default
    if named is not None and named != given:
        fail(f"-o {output} asks for {named}, but {option} is {given}: give one of them, or make them agree")
    return given


def _listed(names: list[str]) -> str:
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]
