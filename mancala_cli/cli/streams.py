"""The standard streams and the exit statuses of the ``mancala`` process,
without the command line itself (``mancala --version`` uses this alone).

Exit statuses: 0 success, 1 the input was read but has problems, 2 a usage
or I/O error, 128 + N when signal N ended the command, and 141 when the
reader of standard output went away (SIGPIPE), as other Unix tools do.
"""
from __future__ import annotations

import errno
import os
import sys

from ..rules.selection import CORE
from ..version import TYPE_CHECKING, __version__

if TYPE_CHECKING:
    from typing import Any, NoReturn

#: Exit status after a broken pipe on standard output: 128 + SIGPIPE, which
#: is 13 wherever there is one. (Written out: the module :mod:`signal` makes
#: enums as it loads, a large share of ``mancala --version`` (measured:
#: docs/performance.md, 'Start-up'), which needs none of it;
#: tests/test_startup.py holds the figure to ``signal.SIGPIPE``.)
BROKEN_PIPE = 141




class _ClosedStream:
    """Stands in for a standard stream whose descriptor is closed: using it
    is an I/O error, reported in one line, not an AttributeError."""

    def __init__(self, name: str) -> None:
        self.name = name

    @property
    def buffer(self) -> "_ClosedStream":
        return self

    def _closed(self, *args: Any, **kwargs: Any) -> Any:
        raise OSError(errno.EBADF, f"{self.name} is closed")

    write = read = readline = fileno = peek = _closed

    def isatty(self) -> bool:
        return False

    def flush(self) -> None:
        pass


def silence(stream_fd: int) -> None:
    """Point a standard stream at /dev/null so that the interpreter's last
    flush cannot fail again."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream_fd)
        os.close(null)
    except OSError:
        pass


def os_error_text(error: OSError) -> str:
    """``FILE: cannot write: No space left on device``; an error that names
    no file came from a standard stream."""
    reason = error.strerror or str(error)
    if error.errno == errno.EBADF and not error.filename:
        return reason
    where = f"{error.filename}" if error.filename else "standard output"
    if error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG):
        return f"{where}: cannot write: {reason}"
    return f"{where}: {reason}"


def error_line(text: str) -> None:
    try:
        print(text, file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):
        pass


def end_now(code: int) -> NoReturn:
    """Exit at once with ``code``, after flushing what can still be flushed."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    os._exit(code)


def prepare_streams() -> None:
    """Closed standard streams become stand-ins that fail when used."""
    if sys.stdout is None:
        sys.stdout = _ClosedStream("standard output")
    if sys.stdin is None:
        sys.stdin = _ClosedStream("standard input")
    if sys.stderr is None:
        sys.stderr = _ClosedStream("standard error")


def write_stdout(text: str) -> int:
    """Write ``text`` on standard output; the exit status: 0, 141 when the
    reader went away, 2 (with one line on standard error) on another failure."""
    prepare_streams()
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except OSError as error:
        silence(1)
        if error.errno == errno.EPIPE:
            return BROKEN_PIPE
        error_line(f"mancala: error: {os_error_text(error)}")
        return 2
    return 0


def version_line() -> str:
    """What ``mancala --version`` prints: the version and the core in use."""
    return f"mancala {__version__} ({CORE} core)"
