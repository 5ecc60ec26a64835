"""The ``mancala`` command line: the typer app, assembled. Each command
lives in a module of its own (``cli/validate.py``, ``cli/render.py``, …),
which parses its options and calls the library; here each is registered by
a stand-in (:func:`later`) so that a run loads the module of its command
alone. Exit status: 0 success, 1 the input was read but has problems, 2
usage or I/O error."""
from __future__ import annotations

import importlib
import sys
from typing import Any, Callable

import typer
import typer.main

from .running import MancalaGroup, install_signal_handlers
from .streams import end_now, prepare_streams, version_line


def later(module: str, function: str) -> Callable[..., Any]:
    """What is registered for a command: a stand-in named as the command's
    function ``function`` of ``mancala_cli.cli.MODULE``, replaced by it
    (:func:`loaded`) only when a run needs that command, so that the others
    start without loading its module."""
    def stand_in() -> None:
        raise RuntimeError(f"mancala_cli.cli.{module}.{function} was not loaded")

    stand_in.__name__ = function
    setattr(stand_in, "later", module)
    return stand_in


def loaded(infos: list[Any]) -> None:
    """The stand-ins of ``infos`` (typer's registered commands) replaced by
    their commands' functions, imported now."""
    for info in infos:
        module = getattr(info.callback, "later", None)
        if module is not None:
            info.callback = getattr(importlib.import_module(f".{module}", __package__), info.callback.__name__)


def _version(value: bool) -> None:
    if value:
        typer.echo(version_line())
        raise typer.Exit()


def main_options(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Validate, convert and draw records of Bao la Kimasai and Bao Kingulu games."""


def _new_app(add_completion: bool = True) -> typer.Typer:
    """An app with the group, its options and its help, and no command yet."""
    new = typer.Typer(
        cls=MancalaGroup,
        add_completion=add_completion,
        context_settings={"help_option_names": ["-h", "--help"]},
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
        help="Validate, convert and draw records of Bao la Kimasai and Bao Kingulu games.",
    )
    new.callback()(main_options)
    return new


#: The whole app (its commands' functions loaded by :func:`whole`).
app = _new_app()


#: The commands in the order of ``mancala --help``: (name, module, function, short help).
COMMANDS = (
    ("games", "games", "games", "List the games: id, name, board, seeds and source."),
    ("moves", "moves", "moves", "Print the legal moves of a position."),
    ("perft", "perft", "perft", "Count the move sequences of a given depth."),
    ("solve", "solve", "solve", "Solve a position: win, draw or loss with best play."),
    ("random", "random_games", "random_games", "Write random legal games as PMN."),
    ("validate", "validate", "validate", "Check every game against the rules."),
    ("convert", "convert", "convert", "Convert records between PMN, JSON Lines and XML."),
    ("annotate", "annotate", "annotate", "Add the engine's proven results to the games."),
    ("render", "render", "render", "Draw a position, a game sheet or a game page."),
    ("filter", "filter", "filter_games", "Write the games that match the criteria given."),
    ("split", "split", "split", "Write the games in files of N games each."),
    ("stats", "stats", "stats", "Summarise an archive: lengths, results, openings."),
    ("lsp", "lsp", "lsp", "Run the language server for PMN files (editors)."),
)



def _register() -> None:
    for name, module, function, short_help in COMMANDS:
        app.command(name, short_help=short_help)(later(module, function))


_register()


#: The groups of commands: (name, module, the module's typer app, short help),
#: added to the app (:func:`whole`) only when a run may need them.
GROUPS = (("tablebase", "tablebase", "tablebase_app", "Build endgame tables (kimasai-klamroth)."),)


def _group(module: str, attribute: str) -> typer.Typer:
    group: typer.Typer = getattr(importlib.import_module(f".{module}", __package__), attribute)
    return group


def whole() -> typer.Typer:
    """The whole app: every command's function loaded, and the groups."""
    loaded(app.registered_commands)
    if not app.registered_groups:
        for name, module, attribute, short_help in GROUPS:
            app.add_typer(_group(module, attribute), name=name, short_help=short_help)
    return app


def app_for(args: list[str]) -> typer.Typer:
    """The app that runs ``mancala ARGS``: when the first argument names a
    command or a group, an app of that command or group alone (with the same
    options), as typer builds the click command of every registered command
    at each start and one is all a run uses; otherwise (no command, an
    option first, a misspelt name, completion) the whole app. Both behave
    the same for that command: its usage, help and errors."""
    if args:
        # (--install-completion and --show-completion go before a command's
        # name: an app run with one needs neither, and building them costs.)
        alone = _new_app(add_completion=False)
        for info in app.registered_commands:
            if (info.name or typer.main.get_command_name(info.callback.__name__)) == args[0]:  # type: ignore[union-attr]
                alone.registered_commands = [info]
                loaded(alone.registered_commands)
                return alone
        for name, module, attribute, short_help in GROUPS:
            if name == args[0]:
                alone.registered_commands = []
                alone.add_typer(_group(module, attribute), name=name, short_help=short_help)
                return alone
    return whole()


def main() -> None:
    """The console script: closed standard streams, signals (SIGINT, SIGTERM
    and SIGHUP leave output files as they were) and one-line errors."""
    prepare_streams()
    install_signal_handlers()
    code = app_for(sys.argv[1:])(standalone_mode=False)
    if isinstance(code, int) and code >= 128:
        # Ended by a signal or a closed pipe: everything is cleaned up
        # already; leave without the interpreter's exit hooks, which may
        # write to streams and pipes that are gone.
        end_now(code)
    sys.exit(code)
