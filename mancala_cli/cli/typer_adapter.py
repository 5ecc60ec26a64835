"""The one door to typer's internals: the only module of the command line
that imports ``typer._click`` (typer's vendored click), ``typer._coercion``
or ``typer.core`` (``tests/test_layers.py`` holds that). The others take
from here click's errors and classes (:mod:`.running`), whether an option was
given on the command line (:func:`given_on_command_line`), the running
command's context (:func:`current_context`), and what the command line
changes in typer, applied when the app is made (:func:`adjust_typer`, from
:mod:`.commands`), never at import:

- Help names an argument by its metavar alone (``[FILE]...``), not with its
  Python type (``<list[str]>``) after it, as it does for options with one.
- The usage line shows an argument whose metavar already says that it is
  optional and repeatable (``[FILE]...``) as it is, not as ``[[FILE]...]...``.
- Typer checks every option value once more after click has read it: it
  builds a pydantic TypeAdapter per parameter that calls the parameter's
  ``parser`` or checks that a string is a string. That loads pydantic at
  every command's start (``docs/performance.md``). Our parameters are flags, strings (one, or
  a list for ``[FILE]...``) and values with a parser of our own
  (:mod:`.values`), for which the same is done here without pydantic; a
  parameter of any other kind keeps typer's own check.

These rest on typer's private internals as typer 0.29 has them:
``pyproject.toml`` pins typer to that minor release (``<0.30``), and CI
runs the command line's tests on the newest typer too (``.ci/run``).
Without the third change, every command would start later by the time
pydantic takes to load: far more than a few milliseconds
(``docs/performance.md``, "Start-up"), so it stays, behind this door.
"""
from __future__ import annotations

from typing import Any, Optional

from typer import _click, _coercion as _typer_coercion, core as _typer_core
from typer._click.core import ParameterSource
from typer._click.globals import get_current_context
from typer.core import TyperArgument

__all__ = ["BadParameter", "ClickException", "Context", "MissingParameter", "NoArgsIsHelpError", "Parameter",
           "TyperGroup", "UsageError", "adjust_typer", "current_context", "given_on_command_line"]

#: click's classes, as the command line's errors and group use them.
ClickException = _click.ClickException
Context = _click.Context
#: typer's group of commands, which the command line's group extends.
TyperGroup = _typer_core.TyperGroup
Parameter = _click.Parameter
BadParameter = _click.exceptions.BadParameter
MissingParameter = _click.exceptions.MissingParameter
NoArgsIsHelpError = _click.exceptions.NoArgsIsHelpError
UsageError = _click.exceptions.UsageError

_PLAIN_ANNOTATIONS = frozenset({str, bool, Optional[str], Optional[bool], list[str], Optional[list[str]]})

#: Typer's own usage name of an argument, which :func:`_usage_display_name` falls back on.
_TYPER_USAGE_NAME = TyperArgument._usage_display_name
#: Whether this typer has the internals that :func:`_as_parsed` replaces.
_HAS_RUNTIME_PARAM = hasattr(_typer_core, "_TyperParameter") and hasattr(_typer_coercion, "RuntimeParam")


def _usage_display_name(self: TyperArgument) -> str:
    metavar = self.metavar or ""
    return metavar if metavar.startswith("[") else _TYPER_USAGE_NAME(self)


def _no_type(self: TyperArgument, ctx: Any) -> None:
    return None


if _HAS_RUNTIME_PARAM:

    class _AsParsed(_typer_coercion.RuntimeParam):
        """A parameter's value as click read it, through its parser if it has
        one. (A plain subclass of typer's frozen dataclass: making it a
        dataclass of its own would cost more at start-up than all it does.)"""

        is_list: bool

        def __init__(self, annotation: Any, parameter_info: Any, is_list: bool) -> None:
            super().__init__(parameter_info=parameter_info, annotation=annotation)
            object.__setattr__(self, "is_list", is_list)

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            parser = self.parameter_info.parser
            if self.is_list:
                items = value if isinstance(value, (list, tuple)) else [value]
                return [parser(item) for item in items] if parser is not None else list(items)
            return parser(value) if parser is not None else value

    _TYPER_CHECK = _typer_core._TyperParameter.get_runtime_param

    def _as_parsed(self: Any) -> Any:
        described = self.type_descriptor
        if described.parameter_info.parser is None and described.annotation not in _PLAIN_ANNOTATIONS:
            return _TYPER_CHECK(self)
        if self._runtime_param is None:
            self._runtime_param = _AsParsed(annotation=described.annotation, parameter_info=described.parameter_info,
                                            is_list=described.is_list)
        return self._runtime_param


def adjust_typer() -> None:
    """Make the changes above to typer's classes (again: nothing more)."""
    TyperArgument.display_type_rich = _no_type  # type: ignore[method-assign, assignment]
    TyperArgument._usage_display_name = _usage_display_name  # type: ignore[method-assign]
    if _HAS_RUNTIME_PARAM:
        setattr(_typer_core._TyperParameter, "get_runtime_param", _as_parsed)


def given_on_command_line(name: str) -> bool:
    """Whether the option of parameter ``name`` of the running command was
    given on the command line (not left at its default)."""
    context = get_current_context(silent=True)
    return context is not None and context.get_parameter_source(name) == ParameterSource.COMMANDLINE


def current_context() -> Context:
    """The running command's context (what it holds is closed with the command)."""
    return get_current_context()
