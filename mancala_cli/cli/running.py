"""How the ``mancala`` process starts and ends: one-line usage errors,
option values checked in our own words, exit statuses for signals and
broken pipes, and closed standard streams.

Exit statuses: 0 success, 1 the input was read but has problems, 2 a usage
or I/O error, 128 + N when signal N ended the command (130 for Ctrl-C, 143
for SIGTERM, 129 for SIGHUP) and 141 when the reader of standard output went
away (SIGPIPE), as other Unix tools do.
"""
from __future__ import annotations

import errno
import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

import typer
from typer import _click
from typer.core import TyperArgument, TyperGroup

from .inputs import STOP_SIGNALS

#: The signal that is ending the command, if any (set by :func:`_on_signal`).
_signalled: int | None = None

#: Exit status after a broken pipe on standard output (128 + SIGPIPE).
BROKEN_PIPE = 128 + signal.SIGPIPE


# Help names an argument by its metavar alone (``[FILE]...``), not with its
# Python type (``<list[str]>``) after it, as it does for options with one.
TyperArgument.display_type_rich = lambda self, ctx: None  # type: ignore[method-assign]


class UsageProblem(typer.BadParameter):
    """A bad option value, told in one line of our own."""


def usage_error(message: str) -> UsageProblem:
    return UsageProblem(message)


def choice(option: str, values: Sequence[str]) -> Callable[[str], str]:
    """A parser for an option that takes one of ``values``."""
    def parse(value: Any) -> str:
        text = str(getattr(value, "value", value))
        if text not in values:
            raise usage_error(f"{option} must be one of {', '.join(values)} (got {text!r})")
        return text
    return parse


def integer(option: str, low: int, high: int | None = None) -> Callable[[str], int]:
    """A parser for an integer option in ``low..high``."""
    def parse(value: Any) -> int:
        if isinstance(value, int):
            number = value
        else:
            text = str(value).strip()
            if not text.lstrip("+-").isdigit() or len(text) > 40:
                raise usage_error(f"{option} must be a whole number (got {str(value)!r})")
            number = int(text)
        if number < low:
            raise usage_error(f"{option} must be ≥ {low} (got {number})")
        if high is not None and number > high:
            raise usage_error(f"{option} must be ≤ {high:,} (got {number})")
        return number
    return parse


def choices_metavar(values: Sequence[str]) -> str:
    return "[" + "|".join(values) + "]"


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


def _on_signal(signum: int, frame: object) -> None:
    global _signalled
    _signalled = signum
    raise KeyboardInterrupt


def install_signal_handlers() -> None:
    """SIGTERM and SIGHUP end the command as Ctrl-C does (workers stop, the
    old output files stay as they were), each with its own exit status."""
    for signum in STOP_SIGNALS:
        signal.signal(signum, _on_signal)


def _silence(stream_fd: int) -> None:
    """Point a standard stream at /dev/null so that the interpreter's last
    flush cannot fail again."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream_fd)
        os.close(null)
    except OSError:
        pass


def _message(error: _click.ClickException) -> str:
    if isinstance(error, UsageProblem):
        return error.message
    if isinstance(error, _click.exceptions.BadParameter) and error.param is not None:
        name = "/".join(getattr(error.param, "opts", []) or [error.param.name or "value"])
        return f"{name}: {error.message}"
    return error.format_message().strip().splitlines()[0]


class _StreamFailure(Exception):
    """An ``OSError`` carried past typer's own handling of broken pipes."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


class MancalaGroup(TyperGroup):
    """The command group, whose errors are one line on standard error."""

    def invoke(self, ctx: _click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except OSError as error:
            raise _StreamFailure(error) from None

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, windows_expand_args: bool = True,
             **extra: Any) -> Any:
        code = self._run(args, prog_name, complete_var, windows_expand_args=windows_expand_args, **extra)
        if standalone_mode:
            sys.exit(code)
        return code

    def _run(self, args: Sequence[str] | None, prog_name: str | None, complete_var: str | None,
             **extra: Any) -> int:
        global _signalled
        _signalled = None
        try:
            rv = super().main(args, prog_name or "mancala", complete_var, standalone_mode=False, **extra)
            code = rv if isinstance(rv, int) else 0
            _flush()
        except _click.exceptions.NoArgsIsHelpError as error:
            error.show()
            return 2
        except _click.ClickException as error:
            _error_line(f"mancala: error: {_message(error)}")
            return 2
        except typer.Abort:
            code = 130
        except (OSError, _StreamFailure) as failure:
            os_error = failure.error if isinstance(failure, _StreamFailure) else failure
            _silence(1)
            if os_error.errno == errno.EPIPE:
                return BROKEN_PIPE
            _error_line(f"mancala: error: {_os_error(os_error)}")
            return 2
        except KeyboardInterrupt:
            code = 130
        if code == 130 and _signalled is not None:
            code = 128 + _signalled
        return code


def _os_error(error: OSError) -> str:
    """``FILE: cannot write: No space left on device``; an error that names
    no file came from a standard stream."""
    reason = error.strerror or str(error)
    if error.errno == errno.EBADF and not error.filename:
        return reason
    where = f"{error.filename}" if error.filename else "standard output"
    if error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG):
        return f"{where}: cannot write: {reason}"
    return f"{where}: {reason}"


def _flush() -> None:
    """Flush standard output now, so that a failure is reported as ours."""
    if sys.stdout is not None:
        sys.stdout.flush()


def _error_line(text: str) -> None:
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
