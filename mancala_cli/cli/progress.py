"""What a command shows on standard error while it runs, on a terminal
alone: rich's progress bar of the commands that read records
(:class:`Progress`), and a status line written over each time
(:class:`StatusLine`): the search of ``solve`` here or on a cluster, and
``annotate``."""
from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from ..files.reports import counted


class StatusLine:
    """One line of standard error (a terminal), written over each time."""

    def __init__(self) -> None:
        self.shown = False

    def write(self, text: str) -> None:
        sys.stderr.write(f"\r\x1b[K{text}")
        sys.stderr.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.shown = False


LineT = TypeVar("LineT", bound=StatusLine)


@contextlib.contextmanager
def on_terminal(line: type[LineT]) -> Iterator[LineT | None]:
    """A new status line of the class ``line`` while standard error is a
    terminal, cleared on leaving (so before an error's message is written),
    else ``None``."""
    if not sys.stderr.isatty():
        yield None
        return
    shown = line()
    try:
        yield shown
    finally:
        shown.clear()


class Progress:
    """A progress bar on standard error, only when it is a terminal."""

    def __init__(self) -> None:
        # (rich's progress bar, for a terminal alone: docs/performance.md, 'Start-up')
        from rich import console, progress

        self.bar = progress.Progress(progress.TextColumn("{task.description}"), progress.BarColumn(),
                                     progress.TextColumn("{task.percentage:>3.0f}%"), progress.TimeRemainingColumn(),
                                     console=console.Console(stderr=True), transient=True)

    @staticmethod
    def wanted(quiet: bool) -> bool:
        return not quiet and sys.stderr.isatty()

    def start(self, path: str) -> Any:
        total = os.path.getsize(path) if path != "-" and os.path.isfile(path) else None
        return self.bar.add_task(os.path.basename(path), total=total)

    def advance(self, task: Any, amount: int) -> None:
        self.bar.advance(task, amount)

    def advancer(self, path: str) -> Callable[[int], None]:
        """What a file's batches tell the characters they hold: its bar
        appears with its first batch done, and advances with each."""
        tasks: list[Any] = []

        def advance(size: int) -> None:
            if not tasks:
                tasks.append(self.start(path))
            self.advance(tasks[0], size)
        return advance

    def __enter__(self) -> Progress:
        self.bar.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.bar.__exit__(*exc)


class SolveProgress(StatusLine):
    """The search under way, on one line of standard error (a terminal),
    written over: the deepest complete iteration, the positions searched and
    the time taken."""

    def __call__(self, depth: int, nodes: int, seconds: float) -> None:
        done = f"depth {depth} done, " if depth else ""
        self.write(f"solving: {done}{counted(nodes, 'node', grouped=True)}, {seconds:.1f} s")


class ClusterProgress(StatusLine):
    """``solve --scheduler`` under way: the tasks done, the positions they
    searched and the time taken."""

    def __call__(self, done: int, total: int, nodes: int, seconds: float) -> None:
        self.write(f"solving on the cluster: {done}/{counted(total, 'task')} done, "
                   f"{counted(nodes, 'node', grouped=True)}, {seconds:.1f} s")
