"""The ``mancala`` command line: the typer app (:mod:`.commands`), one
module per command (``validate.py``, ``render.py``, ...), what the commands
share (:mod:`.options`, :mod:`.output_formats`, :mod:`.reading`,
:mod:`.engine_options`) and how the process starts and ends
(:mod:`.running`, :mod:`.streams`).

Only this subpackage imports typer, and only when the command line runs:
``import mancala_cli`` loads none of it. Here alone is laziness: ``main``
loads the app only when the command is more than ``--version``, and the app
loads the module of the one command a run names (:mod:`.commands`).
"""
from __future__ import annotations

import sys

from .streams import end_now, version_line, write_stdout


def main() -> None:
    """The console script ``mancala``. ``mancala --version`` alone is
    answered before the command line (typer) loads."""
    if sys.argv[1:] == ["--version"]:
        end_now(write_stdout(version_line() + "\n"))
    from .commands import main as run  # (the one laziness of the command line: typer and the app)
    run()

