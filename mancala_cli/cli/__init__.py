"""The ``mancala`` command line: the typer app and its commands (:mod:`.commands`), how the
process starts and ends (:mod:`.running`), input files and atomic output
files (:mod:`.inputs`), the batch pipeline (:mod:`.pipeline`) and the
reporters that turn checks into lines (:mod:`.reporters`).

Only this subpackage imports typer and rich, and only when the command line
runs: ``import mancala_cli`` loads none of it.
"""
from __future__ import annotations

TYPE_CHECKING = False  # (typing itself is not loaded for this: start-up counts)
if TYPE_CHECKING:
    from typing import Any


def main() -> None:
    """The console script ``mancala``. ``mancala --version`` alone is
    answered before the command line (typer) loads."""
    import sys

    if sys.argv[1:] == ["--version"]:
        from .streams import end_now, version_line, write_stdout

        end_now(write_stdout(version_line() + "\n"))
    from .commands import main as run
    run()


def __getattr__(name: str) -> Any:
    if name == "app":  # the typer app (every command loaded), for typer's test runner
        from .commands import whole

        return whole()
    raise AttributeError(name)
