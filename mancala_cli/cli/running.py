"""How the ``mancala`` process starts and ends: one-line usage errors,
exit statuses for signals and broken pipes, and closed standard streams
(the option values are read in :mod:`.values`, usage errors worded in
:mod:`.usage_lines`).

Exit statuses: 0 success, 1 the input was read but has problems, 2 a usage
or I/O error, 128 + N when signal N ended the command (130 for Ctrl-C, 143
for SIGTERM, 129 for SIGHUP) and 141 when the reader of standard output went
away (SIGPIPE), as other Unix tools do.
"""
from __future__ import annotations

import errno
import signal
import sys
from collections.abc import Sequence
from typing import Any

import typer

from ..batch.lifetime import BatchError, stop_live
from ..files import STOP_SIGNALS
from .streams import BROKEN_PIPE, error_line, os_error_text, silence
from .typer_adapter import ClickException, Context, NoArgsIsHelpError, TyperGroup
from .usage_lines import usage_line

#: The signal that is ending the command, if any (set by :func:`_on_signal`).
_signalled: int | None = None
#: Whether the command is ending (an error, an interrupt or a closed pipe
#: left it): a stop signal then interrupts nothing (the cleanup runs on).
_ending = False

def _on_signal(signum: int, frame: object) -> None:
    """A stop signal ends the command (KeyboardInterrupt); one that comes
    once it is ending is noted and interrupts nothing, so that the cleanup
    (workers stopped, temporary files removed) runs to its end."""
    global _signalled, _ending
    if _ending:
        if _signalled is None:
            _signalled = signum
        return
    _signalled = signum
    _ending = True
    raise KeyboardInterrupt


def install_signal_handlers() -> None:
    """SIGTERM and SIGHUP end the command as Ctrl-C does (workers stop, the
    old output files stay as they were), each with its own exit status."""
    for signum in STOP_SIGNALS:
        signal.signal(signum, _on_signal)


class _StreamFailure(Exception):
    """An ``OSError`` carried past typer's own handling of broken pipes."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


class MancalaGroup(TyperGroup):
    """The command group, whose errors are one line on standard error."""

    def invoke(self, ctx: Context) -> Any:
        global _ending
        try:
            return super().invoke(ctx)
        except OSError as error:
            _ending = True
            raise _StreamFailure(error) from None
        except BaseException:
            # From here on, what the command left behind is cleaned up (its
            # generators are closed, its workers stopped) undisturbed.
            _ending = True
            raise

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, windows_expand_args: bool = True,
             **extra: Any) -> Any:
        code = self._run(args, prog_name, complete_var, windows_expand_args=windows_expand_args, **extra)
        if standalone_mode:
            sys.exit(code)
        return code

    def _run(self, args: Sequence[str] | None, prog_name: str | None, complete_var: str | None,
             **extra: Any) -> int:
        global _signalled, _ending
        _signalled = None
        _ending = False
        try:
            return self._outcome(args, prog_name, complete_var, **extra)
        finally:
            _ending = True  # (until the process ends, or the next run)
            stop_live()  # workers of a run whose generators are still alive

    def _outcome(self, args: Sequence[str] | None, prog_name: str | None, complete_var: str | None,
                 **extra: Any) -> int:
        global _ending
        try:
            rv = super().main(args, prog_name or "mancala", complete_var, standalone_mode=False, **extra)
            code = rv if isinstance(rv, int) else 0
            _flush()
            if code == 130 and _signalled is not None:  # (an interrupt, as click reports it)
                return 128 + _signalled
            return code
        except BaseException as error:
            _ending = True  # (a signal that comes now interrupts none of this)
            return _failure(error, sys.argv[1:] if args is None else list(args))


def _failure(error: BaseException, args: Sequence[str] = ()) -> int:
    """The exit status for what ended the command, after its one line."""
    if isinstance(error, NoArgsIsHelpError):
        error.show()
        return 2
    if isinstance(error, ClickException):
        error_line(usage_line(error, args))
        return 2
    if isinstance(error, BatchError):
        error_line(f"mancala: error: {error}")
        return 2
    if isinstance(error, (OSError, _StreamFailure)):
        os_error = error.error if isinstance(error, _StreamFailure) else error
        silence(1)
        if os_error.errno == errno.EPIPE:
            return BROKEN_PIPE
        error_line(f"mancala: error: {os_error_text(os_error)}")
        return 2
    if isinstance(error, (typer.Abort, KeyboardInterrupt)):
        return 128 + _signalled if _signalled is not None else 130
    raise error


def _flush() -> None:
    """Flush standard output now, so that a failure is reported as ours."""
    if sys.stdout is not None:
        sys.stdout.flush()
