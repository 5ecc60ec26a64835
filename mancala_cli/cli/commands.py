"""The ``mancala`` command line: the typer app, assembled. Each command
lives in a module of its own (``cli/validate.py``, ``cli/render.py``, …),
which parses its options and calls the library; :data:`COMMANDS` names
them, and a run imports and registers the command it names alone
(:func:`app_for`), the whole app only when it needs every command (its
help, completion, a misspelt name). Exit status: 0 success, 1 the input
was read but has problems, 2 usage or I/O error."""
from __future__ import annotations

import gc
import importlib
import sys

import typer

from .running import MancalaGroup, install_signal_handlers
from .streams import end_now, prepare_streams, version_line
from .typer_adapter import adjust_typer


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
    adjust_typer()
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
    ("edit", "edit", "edit", "Edit a record in the terminal: board, moves, variations."),
)


#: The groups of commands: (name, module, the module's typer app, short help),
#: added to the app (:func:`whole`) only when a run may need them.
GROUPS = (("tablebase", "tablebase", "tablebase_app", "Build endgame tables (kimasai-klamroth)."),)


def _add_command(target: typer.Typer, name: str, module: str, function: str, short_help: str) -> None:
    """Command ``name`` (``function`` of ``mancala_cli.cli.MODULE``, imported now) added to ``target``."""
    target.command(name, short_help=short_help)(getattr(importlib.import_module(f".{module}", __package__), function))


def _add_group(target: typer.Typer, name: str, module: str, attribute: str, short_help: str) -> None:
    """Group ``name`` (the typer app ``attribute`` of ``mancala_cli.cli.MODULE``) added to ``target``."""
    group: typer.Typer = getattr(importlib.import_module(f".{module}", __package__), attribute)
    target.add_typer(group, name=name, short_help=short_help)


#: The whole app, once :func:`whole` has made it.
_whole: typer.Typer | None = None


def whole() -> typer.Typer:
    """The whole app: every command and group, their modules imported (made once)."""
    global _whole
    if _whole is None:
        made = _new_app()
        for row in COMMANDS:
            _add_command(made, *row)
        for row in GROUPS:
            _add_group(made, *row)
        _whole = made
    return _whole


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
        for row in COMMANDS:
            if row[0] == args[0]:
                alone = _new_app(add_completion=False)
                _add_command(alone, *row)
                return alone
        for row in GROUPS:
            if row[0] == args[0]:
                alone = _new_app(add_completion=False)
                _add_group(alone, *row)
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
    # The command is done, its files closed and its output written. What is
    # left is the interpreter's exit, whose collections of reference cycles
    # would scan every object the process made (typer's, the rules'...),
    # a good share of a short command's time (docs/performance.md, 'Start-up');
    # nothing of ours waits for them. The objects alive now are left out of those scans; exit
    # handlers still run and the standard streams are still flushed.
    gc.freeze()
    sys.exit(code)
