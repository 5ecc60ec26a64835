"""The folders the commands write files into (``--out-dir`` of render and
split): made when missing, and cleared of the files of an earlier run."""
from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Optional

from ..files.output import names_input
from .options import fail


def make_out_dir(out_dir: str) -> None:
    """``--out-dir``, created when missing (not its parent folders)."""
    if not os.path.isdir(out_dir):
        try:
            os.mkdir(out_dir)
        except FileExistsError:
            fail(f"{out_dir}: is not a directory")
        except OSError as error:
            fail(f"{out_dir}: cannot create: {error.strerror or error}")


def remove_stale(out_dir: str, pattern: str, kept: Callable[[str], bool], path: Optional[str]) -> None:
    """Remove the files of ``out_dir`` whose names match ``pattern`` and are
    not ``kept`` (never the input file ``path``, never a folder)."""
    try:
        stale = sorted(entry.path for entry in os.scandir(out_dir)
                       if re.fullmatch(pattern, entry.name) and not kept(entry.name)
                       and (entry.is_symlink() or entry.is_file())
                       and (path is None or not names_input(entry.path, [path])))
        for old in stale:
            os.unlink(old)
    except OSError as error:
        fail(f"{error.filename or out_dir}: cannot remove: {error.strerror or error}")
