"""The one line of a usage error (an unknown option, a missing or bad
value), in our words where click's are not ours: the option's long name,
the values it takes, how to quote a position string."""
from __future__ import annotations

import shlex
from collections.abc import Sequence

from .typer_adapter import BadParameter, ClickException, Context, MissingParameter, Parameter, UsageError
from .values import UsageProblem


def usage_line(error: ClickException, args: Sequence[str]) -> str:
    """``mancala: error: …`` for a usage error of the command line ``args``."""
    return f"mancala: error: {_message(error)}{_quoting_hint(error, args)}"


def _message(error: ClickException) -> str:
    if isinstance(error, UsageProblem):
        return error.message
    if isinstance(error, MissingParameter) and error.param is not None:
        return _missing(error.param, error.ctx)
    if isinstance(error, BadParameter) and error.param is not None:
        name = "/".join(getattr(error.param, "opts", []) or [error.param.name or "value"])
        return f"{name}: {error.message}"
    return error.format_message().strip().splitlines()[0]


def _missing(param: Parameter, ctx: Context | None) -> str:
    """``missing option --to (pmn, json or xml)``: the option's long name,
    and its values when it takes one of a few (those its completion offers)."""
    names = getattr(param, "opts", None) or [param.name or "value"]
    name = next((n for n in names if n.startswith("--")), names[0])
    kind = param.param_type_name  # option or argument
    values = []
    if ctx is not None:
        values = [item.value for item in param.shell_complete(ctx, "")]
    if not values:
        return f"missing {kind} {name}"
    listed = ", ".join(values[:-1]) + " or " + values[-1] if len(values) > 1 else values[0]
    return f"missing {kind} {name} ({listed})"


def _quoting_hint(error: ClickException, args: Sequence[str]) -> str:
    """After click's ``Got unexpected extra argument(s) (7-11 4)`` on a
    command line with ``--position``: the words of an unquoted position
    string were read as arguments, so say how to quote it (with its value
    and the words after it, at most the four fields of a position string)."""
    if not (isinstance(error, UsageError) and error.message.startswith("Got unexpected extra argument")):
        return ""
    for k, word in enumerate(args):
        if word == "--":
            break
        if word in ("--position", "-p") and k + 1 < len(args):
            words, rest = [args[k + 1]], args[k + 2:]
        elif word.startswith("--position="):
            words, rest = [word.partition("=")[2]], args[k + 1:]
        else:
            continue
        for more in rest[:3]:
            if more.startswith("-"):
                break
            words.append(more)
        return f"; a position string with spaces must be quoted: --position {shlex.quote(' '.join(words))}"
    return ""
