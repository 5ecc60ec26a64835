"""The ``mancala`` command line: a thin layer that wires the notation, the
rules engines and the exporters together. Exit status: 0 success, 1 the
input was read but has problems, 2 usage or I/O error."""
from __future__ import annotations

import contextlib
import copy
import sys
from typing import TYPE_CHECKING, Any, Callable, NoReturn, Optional

import typer
import typer.main

from notation.coords import STYLES, format_move
from ..positions import format_position

from ..rules.core import Game, Move, Position
from ..rules.registry import GAME_IDS, all_games
from ..rules.perft import divide
from ..rules.solver import DEFAULT_MEMORY as DEFAULT_SOLVE_MEMORY
from ..rules.solver import DEFAULT_SECONDS as DEFAULT_SOLVE_SECONDS
from .running import (MancalaGroup, choice, choices_metavar, completion, decimal, end_now, install_signal_handlers,
                      prepare_streams, seconds, usage_error)
from .running import jobs as jobs_parser
from .common import ENCODING_OPTION, GAME_COMPLETION, fail
from .common import checked_encoding as _encoding
from .common import choice_option as _choice_option
from .common import counted as _counted
from .common import game_rules as _game
from .common import input_files as _inputs
from .common import int_option as _int_option
from .common import make_out_dir as _make_out_dir
from .common import position_of as _position
from .common import remove_stale as _remove_stale
from .render import render

if TYPE_CHECKING:
    from collections.abc import Iterator

    from notation.record import GameRecord

    from .cluster import Cluster
    from .pipeline import GameResult, Options

#: The deepest perft, the most random games and the longest random game asked for.
MAX_PERFT_DEPTH = 30
MAX_RANDOM_GAMES = 10_000_000
#: The deepest solve asked for (plies).
MAX_SOLVE_DEPTH = 400
MAX_RANDOM_PLIES = 1_000_000

app = typer.Typer(
    cls=MancalaGroup,
    add_completion=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Validate, convert and draw records of Bao la Kimasai and Bao Kingulu games.",
)


def _version(value: bool) -> None:
    if value:
        from . import version_line

        typer.echo(version_line())
        raise typer.Exit()


@app.callback()
def main_options(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Validate, convert and draw records of Bao la Kimasai and Bao Kingulu games."""


GAME_OPTION = typer.Option(..., "--game", "-g", metavar="GAME", autocompletion=GAME_COMPLETION,
                           help=f"Game id: {', '.join(GAME_IDS)}.")
POSITION_OPTION = typer.Option(None, "--position", "-p", metavar="POSITION", help="A position string (default: the standard start).")


@app.command(short_help="List the games: id, name, board, seeds and source.")
def games(
    format: str = _choice_option("text", "--format", "-f", values=("text", "json"), help="Output format."),
) -> None:
    """List the games: id, name, board, seeds and source.

    Example: mancala games --format json
    """
    import json as _json

    rows = [{"id": g.id, "name": g.name, "board": f"{g.board.ranks}x{g.board.files}",
             "seeds": g.total, "sowing": g.sowing, "source": g.source,
             "start": format_position(g, g.start())} for g in all_games()]
    if format == "json":
        for row in rows:
            typer.echo(_json.dumps(row, ensure_ascii=False))
    else:
        for row in rows:
            typer.echo(f"{row['id']:<17} {row['name']:<26} {row['board']:<5} {row['seeds']:>2} seeds  "
                       f"{row['sowing']}; {row['source']}")


@app.command(short_help="Print the legal moves of a position.")
def moves(
    game: str = GAME_OPTION,
    position: Optional[str] = POSITION_OPTION,
    coords: str = _choice_option("algebraic", "--coords", values=STYLES, help="Coordinate style of the moves."),
) -> None:
    """Print the legal moves, one per line, with their outcome marks (c1x6, e2^).

    Example: mancala moves --game kingulu --position "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1"
    """
    rules = _game(game)
    start = _position(rules, position)
    legal = rules.legal_moves(start)
    for move in legal:
        typer.echo(format_move(rules.board, move, coords, start.side))
    if not legal:
        outcome = rules.outcome(start, moves=legal)
        if outcome is not None:
            typer.echo(f"the game is over: {outcome.result} ({outcome.reason}: {outcome.message})", err=True)


@app.command(short_help="Count the move sequences of a given depth.")
def perft(
    game: str = GAME_OPTION,
    depth: int = _int_option(..., "--depth", "-d", low=0, high=MAX_PERFT_DEPTH, help="Number of moves."),
    position: Optional[str] = POSITION_OPTION,
) -> None:
    """Count the legal move sequences of exactly DEPTH moves (the count is printed last).

    Each first move is listed with its own count before the total.

    Example: mancala perft --game kingulu --depth 4
    """
    rules = _game(game)
    start = _position(rules, position)
    if depth == 0:
        typer.echo("1")
        return
    total = 0
    for move, count in divide(rules, start, depth):
        typer.echo(f"{format_move(rules.board, move, 'algebraic', start.side)}: {count}")
        total += count
    typer.echo(str(total))


def _seconds(option: str):
    """A parser for a time limit: a number of seconds > 0."""
    def parse(value: Any) -> float:
        if isinstance(value, float):
            return value
        number = decimal(str(value).strip())
        if number is None or not 0 < number < float("inf"):
            raise usage_error(f"{option} must be a number of seconds > 0 (got {str(value)!r})")
        return number
    return parse


class _StatusLine:
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


class _SolveProgress(_StatusLine):
    """The search under way, on one line of standard error (a terminal),
    written over: the deepest complete iteration, the positions searched and
    the time taken."""

    def __call__(self, depth: int, nodes: int, seconds: float) -> None:
        done = f"depth {depth} done, " if depth else ""
        self.write(f"solving: {done}{nodes:,} nodes, {seconds:.1f} s")


#: The exit status of ``solve`` when a limit stopped the search before its
#: end (what it found so far is printed, ``complete`` false).
SOLVE_STOPPED = 3
#: The multiples a size (``--memory``) may be given in.
_SIZE_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def _size(option: str):
    """A parser for a size in bytes: ``1073741824``, ``512M``, ``2G`` (K, M,
    G, T: multiples of 1,024; a trailing ``B`` or ``iB`` is allowed)."""
    import re

    def parse(value: Any) -> int:
        if isinstance(value, int):
            return value
        text = str(value).strip()
        match = re.fullmatch(r"([0-9]{1,15}(?:\.[0-9]{1,9})?)\s*([kKmMgGtT]?)(?:i?[bB])?", text)
        if match is None or (match[1].count(".") and not match[2]):
            raise usage_error(f"{option} must be a size in bytes such as 512M or 2G (got {str(value)!r})")
        number = int(float(match[1]) * _SIZE_UNITS[match[2].upper()])
        if number < 1 << 20:
            raise usage_error(f"{option} must be at least 1M (got {str(value)!r})")
        return number
    return parse


def _interval(low: str, high: str) -> str:
    """A result as ``solve`` writes it: ``win``, or ``unknown`` with what is
    known of it (``unknown (draw or win)``)."""
    if low == high:
        return low
    if (low, high) == ("loss", "win"):
        return "unknown"
    return f"unknown ({low} or {high})"


_STOPPED_TEXT = {"time": "stopped by the time limit", "nodes": "stopped by the node limit",
                 "depth": "stopped at the depth limit", "interrupted": "interrupted"}


@app.command(short_help="Solve a position: win, draw or loss with best play.")
def solve(
    game: str = GAME_OPTION,
    position: Optional[str] = POSITION_OPTION,
    depth: Optional[int] = _int_option(None, "--depth", "-d", low=1, high=MAX_SOLVE_DEPTH,
                                       help="Search at most this many moves deep."),
    nodes: Optional[int] = _int_option(None, "--nodes", low=1, help="Search at most this many positions."),
    time: float = typer.Option(DEFAULT_SOLVE_SECONDS, "--time", parser=_seconds("--time"), metavar="SECONDS",
                               show_default=False,
                               help=f"Search for at most this many seconds (default: {DEFAULT_SOLVE_SECONDS:g}), "
                                    "then print what is known so far."),
    memory: int = typer.Option(DEFAULT_SOLVE_MEMORY, "--memory", parser=_size("--memory"), metavar="SIZE",
                               show_default=False,
                               help="Memory for the search's table, in bytes or as 512M, 2G (default: "
                                    f"{DEFAULT_SOLVE_MEMORY >> 30}G); once it is full, the search goes on, slower."),
    format: str = _choice_option("text", "--format", "-f", values=("text", "json"), help="Output format."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", metavar="ADDRESS",
                                            help="Split the search into tasks for the Dask cluster of this "
                                                 "scheduler (tcp://HOST:8786; needs mancala[dask]); --memory is "
                                                 "per task, --time for the whole search."),
    scheduler_timeout: float = typer.Option(10.0, "--scheduler-timeout", parser=seconds("--scheduler-timeout"),
                                            metavar="SECONDS",
                                            help="How long to wait for the scheduler and its workers."),
    tablebase: Optional[str] = typer.Option(None, "--tablebase", metavar="FILE",
                                            help="Endgame tables the search asks (mancala tablebase build)."),
) -> None:
    """Solve a position: the result with best play for the side to move (win,
    draw or loss; unknown where the limits leave it unproven), one line per
    move with its result, then the result and the best moves. On a terminal,
    standard error shows the search under way.

    A limit (--time, --nodes, --depth) or Ctrl-C prints what is known so far:
    each move's result or interval, the depth reached and why the search
    stopped. Exit status 0 when the search ran to its end, 3 when a limit
    stopped it, 130 after Ctrl-C.

    With --scheduler the tree is split into tasks for a Dask cluster, with
    the same results (docs/scale-out.md).

    Example: mancala solve --game kingulu --position "0,0,0,0,3,2/1,0,0,0,0,2 S 20-20 12"
    """
    import signal

    from ..rules.solver import Solver

    rules = _game(game)
    start = _position(rules, position)
    if scheduler is not None:
        if depth is not None or nodes is not None:
            fail("--depth and --nodes do not go with --scheduler (its tasks have node budgets of their own); "
                 "give --time")
        if tablebase is not None:
            fail("--tablebase does not go with --scheduler (the workers would each need the file)")
        _solve_on_cluster(rules, start, scheduler, scheduler_timeout, time, memory, format)
        return
    _no_scheduler_timeout()
    progress = _SolveProgress() if sys.stderr.isatty() else None
    solver = Solver(rules, memory=memory, tablebase=_tablebase_file(tablebase))
    try:
        previous = signal.signal(signal.SIGINT, lambda signum, frame: solver.stop())
        try:
            solution = solver.solve(start, depth=depth, nodes=nodes, seconds=time, progress=progress)
        finally:
            signal.signal(signal.SIGINT, previous)
            solver.table = {}
            if progress is not None:
                progress.clear()
        _write_solution(rules, start, solution, format)
    except (MemoryError, SystemError):
        # (Under an address-space limit, CPython reports some failed
        # allocations deep in the search as a SystemError, "error return
        # without exception set", instead of a MemoryError.)
        solver.table = {}
        fail(f"out of memory while solving (the table may use {memory:,} bytes; --memory gives it less)")
    if solution.stopped == "interrupted":
        raise typer.Exit(128 + signal.SIGINT)
    if solution.stopped is not None:
        raise typer.Exit(SOLVE_STOPPED)


class _ClusterProgress(_StatusLine):
    """``solve --scheduler`` under way: the tasks done, the positions they
    searched and the time taken."""

    def __call__(self, done: int, total: int, nodes: int, seconds: float) -> None:
        self.write(f"solving on the cluster: {done}/{total} tasks done, {nodes:,} nodes, {seconds:.1f} s")


def _solve_on_cluster(rules: Game, start: Position, address: str, timeout: float, time: float, memory: int,
                      format: str) -> None:
    """``solve --scheduler``: the search split into tasks for the cluster
    (:class:`mancala_cli.spread_solve.ClusterSolver`), exit status as without."""
    import signal

    from ..spread_solve import ClusterSolveError, ClusterSolver

    cluster = _cluster(address, timeout)
    progress = _ClusterProgress() if sys.stderr.isatty() else None
    solver = ClusterSolver(cluster.client, rules, memory=memory)
    previous = signal.signal(signal.SIGINT, lambda signum, frame: solver.stop())
    try:
        solution = solver.solve(start, seconds=time, progress=progress)
    except ClusterSolveError as error:
        fail(str(error))
    finally:
        signal.signal(signal.SIGINT, previous)
        if progress is not None:
            progress.clear()
    _write_solution(rules, start, solution, format)
    if solution.stopped == "interrupted":
        raise typer.Exit(128 + signal.SIGINT)
    if solution.stopped is not None:
        raise typer.Exit(SOLVE_STOPPED)
def _tablebase_file(path: Optional[str]) -> Any:
    """The table of ``--tablebase FILE`` (None without one); one line and exit 2 if it cannot be read."""
    if path is None:
        return None
    from ..tablebase import Tablebase, TablebaseError

    try:
        return Tablebase.read(path)
    except TablebaseError as error:
        fail(str(error))
    except OSError as error:
        fail(f"{path}: cannot read: {error.strerror or error}")


def _proof_files(paths: Optional[list[str]]) -> tuple[str, ...]:
    """The files of ``--proof``, read once here so that a bad one is one line and exit 2."""
    if not paths:
        return ()
    from ..proof import ProofBook

    try:
        ProofBook.read(list(paths))
    except ValueError as error:
        fail(str(error))
    except OSError as error:
        fail(f"{error.filename}: cannot read: {error.strerror or error}")
    return tuple(paths)


def _write_solution(rules: Game, start: Position, solution: Any, format: str) -> None:
    """``solve``'s output: the moves and the result line, or one JSON object."""
    def text(move: Move) -> str:
        return format_move(rules.board, move, "algebraic", start.side)

    over = solution.outcome
    if format == "json":
        import json as _json

        low, high = solution.bounds
        typer.echo(_json.dumps({
            "game": rules.id, "position": format_position(rules, start), "result": solution.result,
            "best": [text(move) for move in solution.best],
            "moves": [{"move": text(move), "result": result, "low": bounds[0], "high": bounds[1]}
                      for (move, result), bounds in zip(solution.moves, solution.move_bounds)],
            "nodes": solution.nodes, "seconds": round(solution.seconds, 3),
            "low": low, "high": high, "complete": solution.complete, "stopped": solution.stopped,
            "depth": solution.depth,
            "over": None if over is None else {"result": over.result, "reason": over.reason,
                                               "message": over.message},
            **({} if not hasattr(solution, "tasks") else
               {"pv": [text(move) for move in solution.pv], "tasks": solution.tasks, "split": solution.split})},
            ensure_ascii=False))
        return
    for (move, result), bounds in zip(solution.moves, solution.move_bounds):
        typer.echo(f"{text(move)}: {_interval(*bounds)}")
    if over is not None:
        typer.echo(f"{solution.result} (the game is over: {over.result}, {over.reason}: {over.message})")
        return
    parts = []
    if solution.best:
        parts.append("best: " + " ".join(text(move) for move in solution.best))
    if solution.stopped is not None:
        parts.append(_STOPPED_TEXT[solution.stopped])
    elif solution.result == "unknown":
        parts.append("unproven: lines that never end")
    else:
        parts.append("proven")
    if hasattr(solution, "tasks"):  # (solve --scheduler)
        if solution.pv:
            parts.append("pv: " + " ".join(text(move) for move in solution.pv))
        parts.append(f"{solution.tasks} task{'' if solution.tasks == 1 else 's'} at {solution.split} "
                     f"pl{'y' if solution.split == 1 else 'ies'}")
    nodes = solution.nodes
    parts.append(f"depth {solution.depth}, {nodes:,} node{'' if nodes == 1 else 's'}, {solution.seconds:.2f} s")
    typer.echo(f"{_interval(*solution.bounds)} ({'; '.join(parts)})")


@app.command("random", short_help="Write random legal games as PMN.")
def random_games(
    game: str = GAME_OPTION,
    n: int = _int_option(1, "-n", "--number", low=0, high=MAX_RANDOM_GAMES, help="How many games."),
    seed: Optional[int] = _int_option(None, "--seed", "-s", low=-(2**128), high=2**128,
                                      help="Random seed (the same seed gives the same games)."),
    max_plies: Optional[int] = _int_option(None, "--max-plies", low=1, high=MAX_RANDOM_PLIES,
                                           help="Stop a game after this many moves (result '*')."),
) -> None:
    """Write N random legal games as canonical PMN.

    Example: mancala random --game kingulu -n 3 --seed 7
    """
    import random as _random

    from notation.pmn import write_games

    from ..records import random_game

    rules = _game(game)
    if seed is None:
        seed = _random.SystemRandom().randrange(2**32)
    rng = _random.Random(seed)
    write_games((random_game(rules, rng, max_plies, event=f"random game {i + 1}, seed {seed}")
                 for i in range(n)), sys.stdout)


def app_for(args: list[str]) -> typer.Typer:
    """The app that runs ``mancala ARGS``: when the first argument names a
    command, an app of that command alone (with the same group and options),
    as typer builds the click command of every registered command at each
    start and one is all a run uses; otherwise (no command, an option first,
    a misspelt name, completion) the whole app. Both behave the same for
    that command: its usage, help and errors."""
    if args:
        for info in app.registered_commands:
            if (info.name or typer.main.get_command_name(info.callback.__name__)) == args[0]:  # type: ignore[union-attr]
                alone = copy.copy(app)
                alone.registered_commands = [info]
                return alone
    return app


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


# -- records: validate, convert, render ------------------------------------------

FILES_ARGUMENT = typer.Argument(None, metavar="[FILE]...", help="Input files (PMN, JSON Lines or XML); '-' or none: standard input.")


TARGETS = ("pmn", "json", "xml")


def _same_file(path: str, other: str) -> bool:
    """Whether two paths name one regular file (through links or other spellings)."""
    import os
    try:
        return os.path.isfile(path) and os.path.samefile(path, other)
    except (OSError, ValueError):
        return False


JOBS_OPTION = typer.Option("auto", "--jobs", "-j", parser=jobs_parser("--jobs"), metavar="N|auto",
                           help="Worker processes, at most the usable cores (default auto: all of them; "
                                "output stays in input order).")


SCHEDULER_OPTION = typer.Option(None, "--scheduler", metavar="ADDRESS",
                                help="Run the batches on the Dask cluster of this scheduler "
                                     "(tcp://HOST:8786; needs mancala[dask]); not with --jobs.")
SCHEDULER_TIMEOUT_OPTION = typer.Option(10.0, "--scheduler-timeout", parser=seconds("--scheduler-timeout"),
                                        metavar="SECONDS",
                                        help="How long to wait for the scheduler and its workers.")


def _jobs(jobs: int, scheduler: Optional[str] = None, timeout: float = 10.0) -> int | Cluster:
    """``--jobs``: ``auto`` (0) is the usable cores; far more than them is a
    warning (the pipeline never starts more workers than cores, and none for
    an input of one batch). ``--scheduler``: the cluster, connected and
    checked now, before any output is opened, and closed with the command."""
    from .pipeline import usable_cores

    if scheduler is not None:
        return _cluster(scheduler, timeout)
    _no_scheduler_timeout()
    cores = usable_cores()
    if jobs == 0:
        return cores
    if jobs > 4 * cores:
        typer.echo(f"mancala: warning: --jobs {jobs} is more than 4 × the {cores} usable "
                   f"core{'s' if cores != 1 else ''}; using {cores}", err=True)
    return jobs


def _no_scheduler_timeout() -> None:
    """``--scheduler-timeout`` without ``--scheduler`` is a usage error."""
    from typer._click.core import ParameterSource
    from typer._click.globals import get_current_context

    context = get_current_context(silent=True)
    if context is not None and context.get_parameter_source("scheduler_timeout") == ParameterSource.COMMANDLINE:
        fail("--scheduler-timeout needs --scheduler")


def _cluster(address: str, timeout: float) -> Cluster:
    from typer._click.core import ParameterSource
    from typer._click.globals import get_current_context

    from .cluster import ClusterError, connect

    context = get_current_context()
    if context.get_parameter_source("jobs") == ParameterSource.COMMANDLINE:
        fail("give --jobs or --scheduler, not both")
    if not address.strip():
        fail("--scheduler: empty address")
    try:
        cluster = connect(address, timeout)
    except ClusterError as error:
        fail(str(error))
    context.call_on_close(cluster.close)
    return cluster


def _results(paths: list[str], encoding: str, options, jobs: int | Cluster, progress):
    """Every game's result, in input order: (path, GameResult or the error that stopped the file)."""
    from .inputs import InputError, open_source
    from .pipeline import results
    from notation.errors import XMLArchiveError

    for path in paths:
        try:
            with open_source(path, encoding) as source:
                advance = progress.advancer(path) if progress else None
                for result in results(source, options, jobs, advance):
                    yield path, result
        except (InputError, XMLArchiveError) as error:
            yield path, error


class _Progress:
    """A progress bar on standard error, only when it is a terminal."""

    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.percentage:>3.0f}%"),
                            TimeRemainingColumn(), console=Console(stderr=True), transient=True)

    @staticmethod
    def wanted(quiet: bool) -> bool:
        return not quiet and sys.stderr.isatty()

    def start(self, path: str):
        import os
        total = os.path.getsize(path) if path != "-" and os.path.isfile(path) else None
        return self.bar.add_task(os.path.basename(path), total=total)

    def advance(self, task, amount: int) -> None:
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

    def __enter__(self):
        self.bar.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self.bar.__exit__(*exc)


#: The help of --where (filter, split, stats, validate).
WHERE_HELP = ("Only the games that match this expression: fields, comparisons, and/or/not, parentheses "
              "(docs/commands.md, \"Choosing games: --where\").")


@app.command(short_help="Check every game against the rules.")
def validate(
    files: Optional[list[str]] = FILES_ARGUMENT,
    game: Optional[str] = typer.Option(None, "--game", "-g", metavar="GAME", autocompletion=GAME_COMPLETION,
                                         help="Game id for records without a Game tag."),
    strict: bool = typer.Option(False, "--strict", help="Treat warnings as errors."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the problems."),
    format: str = _choice_option("text", "--format", "-f", values=("text", "json"),
                                 help="text, or json (one JSON object per game)."),
    where: Optional[str] = typer.Option(None, "--where", metavar="EXPR", help=WHERE_HELP),
    encoding: str = ENCODING_OPTION,
    jobs: int = JOBS_OPTION,
    scheduler: Optional[str] = SCHEDULER_OPTION,
    scheduler_timeout: float = SCHEDULER_TIMEOUT_OPTION,
) -> None:
    """Check every game: syntax, every move of the main line and the variations
    against the rules, outcome marks, move numbers, result and score.

    Prints FILE:LINE:COL: error: … per problem and a summary line; exit 1 when
    any game has an error.

    Example: mancala validate examples/kingulu-village-match.pmn
    """
    import contextlib

    from .inputs import InputError
    from .pipeline import Options

    if game is not None:
        _game(game)
    criteria = _where(where) if where is not None else None
    _encoding(encoding)
    workers = _jobs(jobs, scheduler, scheduler_timeout)
    options = Options("validate", format, game, strict, where=criteria)
    totals = {"games": 0, "moves": 0, "errors": 0, "warnings": 0}
    io_failed = False
    out = sys.stdout
    progress = _Progress() if _Progress.wanted(quiet) else None
    with progress or contextlib.nullcontext():
        for path, result in _results(_inputs(files), encoding, options, workers, progress):
            if isinstance(result, Exception):
                io_failed = io_failed or isinstance(result, InputError)
                totals["errors"] += 1
                _unreadable(path, result, format)
                continue
            if result.skipped:  # (not one of --where's games)
                continue
            totals["games"] += result.record_count
            totals["moves"] += result.moves
            totals["errors"] += result.errors
            totals["warnings"] += result.warnings
            if format == "json":
                out.write(result.out + "\n")
            else:
                out.write(result.out)
    if format == "text" and not quiet:
        out.write(", ".join(_counted(totals[key], key[:-1]) for key in totals) + "\n")
    out.flush()
    if io_failed:
        raise typer.Exit(2)
    if totals["errors"]:
        raise typer.Exit(1)


def _unreadable(path: str, error: Exception, format: str) -> None:
    """Report an input that could not be read at all."""
    from .reporters import report_json

    if format == "json":
        unreadable = {"severity": "error", "rule": "unreadable", "message": str(error)}
        sys.stdout.write(report_json(path, getattr(error, "line", None), None, 0, None, False, [unreadable]) + "\n")
    else:
        sys.stdout.flush()
        typer.echo(f"mancala: error: {error}", err=True)


@app.command(short_help="Convert records between PMN, JSON Lines and XML.")
def convert(
    files: Optional[list[str]] = FILES_ARGUMENT,
    to: str = _choice_option(..., "--to", "-t", values=TARGETS, help="Target format."),
    coords: Optional[str] = _choice_option(None, "--coords", values=STYLES,
                                           help="Rewrite the moves in this coordinate style."),
    positions: bool = typer.Option(False, "--positions", help="Add the position after every move (JSON, XML)."),
    output: Optional[str] = typer.Option(None, "--output", "-o", metavar="FILE", help="Write here (atomically) instead of stdout."),
    game: Optional[str] = typer.Option(None, "--game", "-g", metavar="GAME", autocompletion=GAME_COMPLETION,
                                         help="Game id for records without a Game tag."),
    encoding: str = ENCODING_OPTION,
    jobs: int = JOBS_OPTION,
    scheduler: Optional[str] = SCHEDULER_OPTION,
    scheduler_timeout: float = SCHEDULER_TIMEOUT_OPTION,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    force: bool = typer.Option(False, "--force", help="Replace an input that has errors when -o names it."),
) -> None:
    """Convert records between PMN, JSON Lines and XML (input recognised by content).

    Moves get their outcome marks; problems found on the way are reported on
    standard error (exit 1) and the output is still written.

    Example: mancala convert examples/kingulu-village-match.pmn --to json --positions
    """
    import contextlib

    from .inputs import InputError
    from .pipeline import Options
    from notation.errors import XMLArchiveError

    if game is not None:
        _game(game)
    if output == "":
        fail("--output: empty file name")
    _encoding(encoding)
    workers = _jobs(jobs, scheduler, scheduler_timeout)
    options = Options("convert", to, game, False, coords, positions)
    paths = _inputs(files)
    progress = _Progress() if _Progress.wanted(quiet) else None
    conversion = _Conversion(paths, encoding, options, workers, progress, output, force)
    try:
        with progress or contextlib.nullcontext():
            if to == "xml":
                conversion.write_xml(positions)
            else:
                conversion.write_text(to)
    except _NotWritten as error:
        fail(str(error), conversion.status())
    except (InputError, XMLArchiveError) as error:
        fail(str(error), max(conversion.status(), 2 if isinstance(error, InputError) else 1))
    if conversion.status():
        raise typer.Exit(conversion.status())


@app.command(short_help="Add the engine's proven results to the games.")
def annotate(
    files: Optional[list[str]] = FILES_ARGUMENT,
    depth: Optional[int] = _int_option(None, "--depth", "-d", low=1, high=MAX_SOLVE_DEPTH,
                                       help="Search at most this many moves deep per move."),
    nodes: Optional[int] = _int_option(None, "--nodes", low=1, help="Search at most this many positions per move."),
    time: float = typer.Option(1.0, "--time", parser=_seconds("--time"), metavar="SECONDS",
                               help="Search for at most this many seconds per move."),
    to: str = _choice_option("pmn", "--to", "-t", values=TARGETS, help="Format of the games written."),
    output: Optional[str] = typer.Option(None, "--output", "-o", metavar="FILE",
                                         help="Write here (atomically) instead of stdout."),
    game: Optional[str] = typer.Option(None, "--game", "-g", metavar="GAME", autocompletion=GAME_COMPLETION,
                                         help="Game id for records without a Game tag."),
    encoding: str = ENCODING_OPTION,
    jobs: int = JOBS_OPTION,
    scheduler: Optional[str] = SCHEDULER_OPTION,
    scheduler_timeout: float = SCHEDULER_TIMEOUT_OPTION,
    force: bool = typer.Option(False, "--force", help="Replace an input that has errors when -o names it."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress line and no summary."),
    tablebase: Optional[str] = typer.Option(None, "--tablebase", metavar="FILE",
                                            help="Endgame tables the searches ask (mancala tablebase build)."),
    proof: Optional[list[str]] = typer.Option(None, "--proof", metavar="FILE",
                                              help="A proof file (docs/kingulu-proof*.txt.xz) whose results "
                                                   "fill in what the searches leave unknown; repeatable."),
) -> None:
    """Write every game back with the engine's facts for its main line: the
    start's proven result as a comment; ? or ?? and a move that keeps the
    result where a move throws a proven win or draw away; ! for the only
    move that keeps a win. What the limits leave unproven is left alone.

    Invalid games are reported as validate reports them (standard error,
    exit 1) and written unannotated; so is an input without a game. Each
    move is searched for at most --time seconds, so a game of N moves takes
    at most about N times that. On a terminal, standard error shows the
    work under way; at the end, a summary line: the positions searched, the
    proven ones and the marks added.

    Example: mancala annotate examples/kingulu-village-match.pmn --time 0.5
    """
    from notation.errors import XMLArchiveError

    from ..annotating import AnnotateTask, Limits, watch_positions
    from .archiving import GameOutput, answers
    from .inputs import InputError, refuse_damaged_input
    from .reporters import problem_line, sorted_problems

    if output == "":
        fail("--output: empty file name")
    if game is not None:
        _game(game)
    _encoding(encoding)
    paths = _inputs(files)
    workers = _jobs(jobs, scheduler, scheduler_timeout)
    _tablebase_file(tablebase)
    task = AnnotateTask(to, Limits(depth, nodes, time), game, tablebase, _proof_files(proof))
    errors = 0
    totals = _AnnotateTotals()
    progress = _AnnotateProgress(totals) if not quiet and sys.stderr.isatty() else None
    try:
        if progress is not None:
            watch_positions(progress.position)
        with GameOutput(output, to) as out:
            for path in paths:
                found = 0
                if progress is not None:
                    progress.file(path)
                for name, index, picked in answers([path], encoding, task, workers):
                    found += 1
                    totals.add(picked)
                    if progress is not None:
                        progress.game(index)
                    problems = [problem_line(name, problem) for problem in sorted_problems(picked.problems)]
                    errors += sum(problem.severity == "error" or problem.code == "pmn-inexact"
                                  for problem in picked.problems)
                    if picked.unwritable is not None:
                        line, reason = picked.unwritable
                        problems.append(f"{name}:{line}:0: error: unwritable: game {index}: {reason}")
                        errors += 1
                    if problems:
                        _above(progress, "\n".join(problems))
                    if picked.unwritable is None:
                        out.add(picked)
                if not found:
                    from notation.record import Problem

                    name = "<stdin>" if path == "-" else path
                    _above(progress, problem_line(name, Problem("error", "no-games", "no game in the input", 1, 1)))
                    errors += 1
            refuse_damaged_input(output, paths, errors, force)  # (inside the block: the temporary file is dropped)
    except (InputError, XMLArchiveError) as error:
        if progress is not None:
            progress.clear()
        _read_failed(error)
    finally:
        if progress is not None:
            watch_positions(None)
            progress.clear()
    if not quiet:
        typer.echo(totals.summary(), err=True)
    if errors:
        raise typer.Exit(1)


class _NotWritten(Exception):
    """``convert -o FILE`` left FILE as it was, as an input could not be read."""


class _AnnotateTotals:
    """What ``annotate`` did so far, for its progress line and summary."""

    def __init__(self) -> None:
        self.games = self.searched = self.proven = self.marks = self.nodes = 0

    def add(self, picked: Any) -> None:
        self.games += 1
        self.searched += getattr(picked, "searched", 0)
        self.proven += getattr(picked, "proven", 0)
        self.marks += getattr(picked, "marks", 0)
        self.nodes += getattr(picked, "nodes", 0)

    def summary(self) -> str:
        """``2 games, 16 positions searched (4,021 nodes), 15 proven, 9 marks added``."""
        return (f"{_counted(self.games, 'game')}, {_counted(self.searched, 'position')} searched "
                f"({self.nodes:,} node{'' if self.nodes == 1 else 's'}), {self.proven} proven, "
                f"{_counted(self.marks, 'mark')} added")


class _AnnotateProgress(_StatusLine):
    """``annotate`` under way, on one line of standard error (a terminal),
    written over: the input and game being annotated, the position being
    searched when the work is done in this process, and the totals."""

    def __init__(self, totals: _AnnotateTotals) -> None:
        import time

        super().__init__()
        self.totals = totals
        self.started = time.monotonic()
        self.name = ""
        self.started_games = 0

    def file(self, path: str) -> None:
        import os

        self.name = "<stdin>" if path == "-" else os.path.basename(path)
        self.started_games = 0

    def position(self, done: int, total: int) -> None:
        """Told by the annotation, in this process (the games of a batch are
        annotated before any is written)."""
        if done == 1:
            self.started_games += 1
        self.show(f"{self.name} game {self.started_games}, position {done} of {total}")

    def game(self, number: int) -> None:
        self.show(f"{self.name}, {_counted(number, 'game')} done")

    def show(self, doing: str) -> None:
        import time

        totals = self.totals
        self.write(f"annotating: {doing}; {totals.searched:,} positions searched, "
                   f"{totals.proven:,} proven, {totals.marks:,} marks, {time.monotonic() - self.started:.1f} s")


def _above(progress: Optional[_AnnotateProgress], lines: str) -> None:
    """Lines on standard error, above the progress line if there is one."""
    if progress is not None:
        progress.clear()
    typer.echo(lines, err=True)


class _Conversion:
    """The games of a ``convert`` run as they are written to ``output``, and
    the errors counted on the way (each game's problems on standard error)."""

    def __init__(self, paths: list[str], encoding: str, options: Options, jobs: int | Cluster,
                 progress: Optional[_Progress], output: Optional[str], force: bool) -> None:
        self.paths, self.encoding, self.options, self.jobs = paths, encoding, options, jobs
        self.progress, self.output, self.force = progress, output, force
        self.errors = 0
        #: Inputs that could not be read (2) or were broken XML (1), as exit statuses.
        self.unreadable: list[int] = []

    def status(self) -> int:
        """The exit status so far: 2 when an input could not be read, 1 for
        problems (a broken XML document among them), else 0."""
        return max(self.unreadable, default=1 if self.errors else 0)

    def results(self) -> Iterator[GameResult]:
        """Every game's result; an input that cannot be read is told in one
        line (as validate tells it) and the next input is read."""
        from .inputs import InputError

        for path, result in _results(self.paths, self.encoding, self.options, self.jobs, self.progress):
            if isinstance(result, Exception):
                self.unreadable.append(2 if isinstance(result, InputError) else 1)
                typer.echo(f"mancala: error: {result}", err=True)
                continue
            self.errors += result.errors
            for line in result.diagnostics:
                typer.echo(line, err=True)
            yield result

    def keep_damaged_input(self) -> None:
        """Raised inside the output block, so the temporary file is dropped:
        ``-o`` is not written when an input could not be read (to its end),
        nor replaces an input with errors."""
        from .inputs import refuse_damaged_input

        if self.unreadable and self.output not in (None, "-"):
            raise _NotWritten(f"{self.output}: not written, as an input could not be read")
        refuse_damaged_input(self.output, self.paths, self.errors, self.force)

    def write_text(self, to: str) -> None:
        """PMN (games a blank line apart) or JSON Lines."""
        from .inputs import atomic_output

        with atomic_output(self.output) as stream:
            first = True
            for result in self.results():
                if to == "pmn" and not first:
                    stream.write("\n")
                stream.write(result.out)
                first = False
            self.keep_damaged_input()

    def write_xml(self, positions: bool) -> None:
        """One XML archive; a game it cannot hold is left out and counted as an error."""
        from notation.xml import XMLArchiveError, write_archive

        from .inputs import atomic_output

        starts: dict[int, Optional[str]] = {}

        def records() -> Iterator[GameRecord]:
            for result in self.results():
                if result.record is not None:
                    starts[id(result.record)] = result.start
                    yield result.record

        def refused(error: XMLArchiveError) -> None:
            self.errors += 1  # the game is left out, the others are written
            typer.echo(f"{error.file or '-'}:{error.line or 0}:0: error: unwritable: {error.reason}",
                       err=True)

        with atomic_output(self.output, binary=True) as stream:
            write_archive(records(), stream, positions=positions,
                          start=lambda record: starts.pop(id(record), None), refused=refused)
            self.keep_damaged_input()


app.command(short_help="Draw a position, a game sheet or a game page.")(render)


# -- archives: filter, split, stats ------------------------------------------------

TO_OPTION = typer.Option("pmn", "--to", "-t", parser=choice("--to", TARGETS), metavar=choices_metavar(TARGETS),
                         autocompletion=completion(TARGETS), help="Format of the games written (canonical, as convert writes them).")


def _criterion(option: str, parse: Callable[..., Any], *args: Any) -> Any:
    """``parse(*args)``, with a bad criterion a usage error naming ``option``."""
    from ..archives import BadCriterion

    try:
        return parse(*args)
    except BadCriterion as error:
        fail(f"{option}: {error}")


def _where(text: Optional[str]):
    """The criteria of ``--where``, a bad expression a usage error."""
    from ..archives import Criteria
    from ..errors import BadQuery

    try:
        return Criteria.where(text) if text is not None else Criteria()
    except BadQuery as error:
        fail(f"--where: {error}")


def _read_failed(error: Exception) -> NoReturn:
    """An input that cannot be read at all: exit 2 for I/O, 1 for a broken XML archive."""
    from .inputs import InputError

    fail(str(error), 2 if isinstance(error, InputError) else 1)


@app.command("filter", short_help="Write the games that match the criteria given.")
def filter_games(
    files: Optional[list[str]] = FILES_ARGUMENT,
    game: Optional[str] = typer.Option(None, "--game", "-g", metavar="GAME", autocompletion=GAME_COMPLETION,
                                       help="Games of this game id (Game tag)."),
    tag: Optional[list[str]] = typer.Option(None, "--tag", metavar="NAME=REGEX",
                                            help="The tag's value matches REGEX (Python re.search); repeatable, "
                                                 "all must match."),
    result: Optional[str] = _choice_option(None, "--result", values=("1-0", "0-1", "1/2-1/2", "*"),
                                           help="The recorded result."),
    min_plies: Optional[int] = _int_option(None, "--min-plies", low=0, help="At least N main-line moves."),
    max_plies: Optional[int] = _int_option(None, "--max-plies", low=0, help="At most N main-line moves."),
    reaches: Optional[list[str]] = typer.Option(None, "--reaches", metavar="POSITION",
                                                help="The start or a main-line position has these holes, "
                                                     "reserved holes, side to move and banks (the move number "
                                                     "is ignored); repeatable, any may match."),
    opening: Optional[str] = typer.Option(None, "--opening", metavar="MOVES",
                                          help="The main line starts with these moves (\"c1 b2 d1\", any "
                                               "coordinate style, marks optional)."),
    valid: bool = typer.Option(False, "--valid", help="Games validate finds no error in."),
    invalid: bool = typer.Option(False, "--invalid", help="Games validate finds an error in."),
    where: Optional[str] = typer.Option(None, "--where", metavar="EXPR", help=WHERE_HELP),
    dedupe: bool = typer.Option(False, "--dedupe", help="Drop a game whose game id, start position and "
                                                        "main-line moves equal an earlier written game's."),
    duplicates: Optional[str] = typer.Option(None, "--duplicates", metavar="FILE",
                                             help="Write the games --dedupe drops here (atomically)."),
    invert: bool = typer.Option(False, "--invert", "-v", help="Write the games that do not match."),
    count: bool = typer.Option(False, "--count", "-c", help="Print only the number of games that would be written."),
    to: str = TO_OPTION,
    output: Optional[str] = typer.Option(None, "--output", "-o", metavar="FILE", help="Write here (atomically) instead of stdout."),
    encoding: str = ENCODING_OPTION,
    jobs: int = JOBS_OPTION,
    scheduler: Optional[str] = SCHEDULER_OPTION,
    scheduler_timeout: float = SCHEDULER_TIMEOUT_OPTION,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    force: bool = typer.Option(False, "--force", help="Replace an input that has errors when -o or --duplicates "
                                                      "names it."),
) -> None:
    """Write the games that match every criterion given, in input order.

    Problems found while reading go to standard error (exit 1); games are
    judged and written all the same.

    Example: mancala filter examples/kingulu-tournament.pmn --where 'tag.South ~ "^Amani" and result = "0-1"'
    """
    from ..archives import BadCriterion, Criteria, DigestSet, FilterTask, RegexTimeout, known_game
    from ..errors import BadQuery
    from .archiving import GameOutput, Problems, answers

    for option, value in (("--output", output), ("--duplicates", duplicates)):
        if value == "":
            fail(f"{option}: empty file name")
    if game is not None:
        _criterion("--game", known_game, game)
    if valid and invalid:
        fail("give --valid or --invalid, not both")
    if min_plies is not None and max_plies is not None and min_plies > max_plies:
        fail(f"--min-plies {min_plies} is more than --max-plies {max_plies}")
    if duplicates is not None and not dedupe:
        fail("--duplicates needs --dedupe")
    if count and output is not None:
        fail("--count prints a number: give --count or -o, not both")
    if duplicates is not None and output not in (None, "-") and (duplicates == output or _same_file(duplicates, output)):
        fail("--duplicates and -o name the same file")
    if duplicates == "-" and output in (None, "-"):
        fail(f"--duplicates - and the {'count' if count else 'games written'} would both go to standard output: "
             f"give --duplicates FILE{'' if count else ' or -o FILE'}")
    try:
        criteria = Criteria.from_options(game=game, tags=tag or (), result=result, min_plies=min_plies,
                                         max_plies=max_plies, reaches=reaches or (), opening=opening,
                                         valid=True if valid else False if invalid else None, where=where)
    except BadCriterion as error:
        fail(str(error))
    except BadQuery as error:
        fail(f"--where: {error}")
    _encoding(encoding)
    task = FilterTask(criteria, to, invert, dedupe, write=not count or duplicates is not None)
    paths = _inputs(files)
    workers = _jobs(jobs, scheduler, scheduler_timeout)
    problems = Problems()
    seen = DigestSet()
    written = 0
    from notation.errors import XMLArchiveError

    from .inputs import InputError, refuse_damaged_input

    progress = _Progress() if _Progress.wanted(quiet) else None
    try:
        with contextlib.ExitStack() as stack:
            out = None if count else stack.enter_context(GameOutput(output, to))
            dropped = None if duplicates is None else stack.enter_context(GameOutput(duplicates, to))
            if progress is not None:
                stack.enter_context(progress)
            for name, index, picked in answers(paths, encoding, task, workers, progress):
                problems.report(name, index, picked)
                if not picked.selected or picked.unwritable is not None:
                    continue
                if picked.digest is not None and not seen.add(picked.digest):  # (with --dedupe)
                    if dropped is not None:
                        dropped.add(picked)
                    continue
                written += 1
                if out is not None:
                    out.add(picked)
            # (inside the blocks: their temporary files are dropped)
            for target in (output, duplicates):
                refuse_damaged_input(target, paths, problems.errors, force)
    except (InputError, XMLArchiveError) as error:
        _read_failed(error)
    except RegexTimeout as error:
        fail(f"{'--where' if where is not None and not tag else '--tag'}: {error}")
    if count:
        typer.echo(str(written))
    if problems.errors:
        raise typer.Exit(1)


#: How split names its files: five digits at least, then the format's suffix.
SPLIT_SUFFIXES = {"pmn": "pmn", "json": "jsonl", "xml": "xml"}


@app.command(short_help="Write the games in files of N games each.")
def split(
    files: Optional[list[str]] = FILES_ARGUMENT,
    games: int = _int_option(..., "--games", "-n", low=1, help="Games per file."),
    out_dir: str = typer.Option(..., "--out-dir", metavar="DIR", help="Folder of the files (created when missing)."),
    where: Optional[str] = typer.Option(None, "--where", metavar="EXPR", help=WHERE_HELP),
    to: str = TO_OPTION,
    encoding: str = ENCODING_OPTION,
    jobs: int = JOBS_OPTION,
    scheduler: Optional[str] = SCHEDULER_OPTION,
    scheduler_timeout: float = SCHEDULER_TIMEOUT_OPTION,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """Write the games in files of N games each: DIR/00001.pmn, DIR/00002.pmn …

    The files of an earlier split into DIR that this one did not write are
    removed. Problems found while reading go to standard error (exit 1).

    Example: mancala split examples/kingulu-tournament.pmn --games 2 --out-dir parts
    """
    import os

    from notation.errors import XMLArchiveError

    from ..archives import FilterTask
    from .archiving import GameOutput, Problems, answers
    from .inputs import InputError, names_input

    if out_dir == "":
        fail("--out-dir: empty folder name")
    criteria = _where(where)
    _encoding(encoding)
    paths = _inputs(files)
    workers = _jobs(jobs, scheduler, scheduler_timeout)
    suffix = SPLIT_SUFFIXES[to]
    problems = Problems()
    written: set[str] = set()
    _make_out_dir(out_dir)
    progress = _Progress() if _Progress.wanted(quiet) else None
    try:
        with progress or contextlib.nullcontext(), contextlib.ExitStack() as stack:
            current: Optional[GameOutput] = None
            for name, index, picked in answers(paths, encoding, FilterTask(criteria, target=to), workers, progress):
                problems.report(name, index, picked)
                if not picked.selected or picked.unwritable is not None:
                    continue
                if current is None or current.games == games:
                    stack.close()
                    file_name = f"{len(written) + 1:05d}.{suffix}"
                    path = os.path.join(out_dir, file_name)
                    if names_input(path, paths):
                        fail(f"{path}: is an input file; not replaced")
                    current = stack.enter_context(GameOutput(path, to))
                    written.add(file_name)
                current.add(picked)
    except (InputError, XMLArchiveError) as error:
        _read_failed(error)
    def kept(name: str) -> bool:  # written now, or an input
        return name in written or names_input(os.path.join(out_dir, name), paths)

    _remove_stale(out_dir, r"[0-9]{5,}\.(?:pmn|jsonl|xml)", kept, None)
    if problems.errors:
        raise typer.Exit(1)


@app.command(short_help="Summarise an archive: lengths, results, openings.")
def stats(
    files: Optional[list[str]] = FILES_ARGUMENT,
    depth: int = _int_option(2, "--depth", "-d", low=0, high=100, help="Openings up to this many plies."),
    format: str = _choice_option("text", "--format", "-f", values=("text", "json"),
                                 help="text (aligned tables), or json (one object)."),
    where: Optional[str] = typer.Option(None, "--where", metavar="EXPR", help=WHERE_HELP),
    encoding: str = ENCODING_OPTION,
    jobs: int = JOBS_OPTION,
    scheduler: Optional[str] = SCHEDULER_OPTION,
    scheduler_timeout: float = SCHEDULER_TIMEOUT_OPTION,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """Summarise an archive: games and invalid games; per game the plies
    (least, median, most, mean), the recorded results and the engine's
    endings of the valid games, and the openings up to DEPTH plies with
    South's score (a win 1, a draw ½, over finished games).

    Example: mancala stats examples/kingulu-tournament.pmn --depth 1
    """
    import json as _json

    from notation.errors import XMLArchiveError

    from ..archives import StatsTask, Summary
    from .archiving import answers
    from .inputs import InputError

    criteria = _where(where)
    _encoding(encoding)
    paths = _inputs(files)
    workers = _jobs(jobs, scheduler, scheduler_timeout)
    summary = Summary()
    progress = _Progress() if _Progress.wanted(quiet) else None
    try:
        with progress or contextlib.nullcontext():
            for _, _, figures in answers(paths, encoding, StatsTask(depth, criteria), workers, progress):
                summary.add(figures)
    except (InputError, XMLArchiveError) as error:
        _read_failed(error)
    if format == "json":
        typer.echo(_json.dumps(summary.as_json()))
    else:
        sys.stdout.write(summary.as_text())


from . import tablebase as _tablebase  # noqa: E402,F401  (registers ``mancala tablebase``)
