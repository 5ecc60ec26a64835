"""The ``mancala`` command line: a thin layer that wires the notation, the
rules engines and the exporters together. Exit status: 0 success, 1 the
input was read but has problems, 2 usage or I/O error."""
from __future__ import annotations

import copy
import sys
from typing import TYPE_CHECKING, Any, Callable, Optional

import typer
import typer.main

from notation.coords import STYLES, format_move
from ..positions import format_position

from ..rules.core import Game, Move, Position
from ..rules.registry import GAME_IDS, all_games
from ..rules.perft import divide
from ..rules.solver import DEFAULT_MEMORY as DEFAULT_SOLVE_MEMORY
from ..rules.solver import DEFAULT_SECONDS as DEFAULT_SOLVE_SECONDS
from .options import RECORDS_GAME_OPTION, ENCODING_OPTION, FILES_ARGUMENT, GAME_COMPLETION, JOBS_OPTION, MAX_SOLVE_DEPTH
from .options import SCHEDULER_OPTION, SCHEDULER_TIMEOUT_OPTION, WHERE_HELP, fail
from .options import StatusLine as _StatusLine
from .options import checked_encoding as _encoding
from .options import choice_option as _choice_option
from .options import counted as _counted
from .options import game_results as _results
from .options import game_rules as _game
from .options import input_paths as _inputs
from .options import int_option as _int_option
from .options import Progress as _Progress
from .options import seconds_parser as _seconds
from .options import where_criteria as _where
from .options import workers_for as _jobs
from .options import _cluster, _no_scheduler_timeout
from .options import position_of as _position
from .options import size_parser as _size
from .options import tablebase_file as _tablebase_file
from .running import (MancalaGroup, end_now, install_signal_handlers,
                      prepare_streams, seconds)

if TYPE_CHECKING:
    pass

#: The deepest perft, the most random games and the longest random game asked for.
MAX_PERFT_DEPTH = 30
MAX_RANDOM_GAMES = 10_000_000
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


def _later(module: str, function: str) -> Callable[..., Any]:
    """What is registered for a command that lives in a module of its own
    (``convert``, ``annotate``, ``filter``, ``split``, ``stats``): a stand-in
    named as the command's function, replaced by it (:func:`loaded`) only
    when a run needs that command, so that the others start without loading
    its module."""
    def stand_in() -> None:
        raise RuntimeError(f"mancala_cli.cli.{module}.{function} was not loaded")

    stand_in.__name__ = function
    stand_in.later = module  # type: ignore[attr-defined]
    return stand_in


def loaded(infos: list[Any]) -> None:
    """The stand-ins of ``infos`` (typer's registered commands) replaced by
    their commands' functions, imported now."""
    import importlib

    for info in infos:
        module = getattr(info.callback, "later", None)
        if module is not None:
            info.callback = getattr(importlib.import_module(f".{module}", __package__), info.callback.__name__)


def _version(value: bool) -> None:
    if value:
        from .streams import version_line

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
    table: Optional[str] = typer.Option(None, "--table", metavar="FILE",
                                        help="Keep the search's table in FILE: start from it where it exists, "
                                             "save it every few minutes and when the search stops."),
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

    With --table FILE, a search cut short (a limit, Ctrl-C, SIGTERM) saves its
    table, and the next run with the same FILE goes on from there.

    Example: mancala solve --game kingulu --position "0,0,0,0,3,2/1,0,0,0,0,2 S 20-20 12"
    """
    import signal

    from ..rules.solver import Solver, TableFileError

    rules = _game(game)
    start = _position(rules, position)
    if scheduler is not None:
        if depth is not None or nodes is not None:
            fail("--depth and --nodes do not go with --scheduler (its tasks have node budgets of their own); "
                 "give --time")
        if tablebase is not None:
            fail("--tablebase does not go with --scheduler (the workers would each need the file)")
        if table is not None:
            fail("--table does not go with --scheduler (each task has a table of its own)")
        _solve_on_cluster(rules, start, scheduler, scheduler_timeout, time, memory, format)
        return
    _no_scheduler_timeout()
    progress = _SolveProgress() if sys.stderr.isatty() else None
    solver = Solver(rules, memory=memory, tablebase=_tablebase_file(tablebase))
    # With a table file, SIGTERM and SIGHUP stop the search as Ctrl-C does, so that its table is saved.
    stopping = [signal.SIGINT] if table is None else [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]
    received: list[int] = []

    def stop(signum: int, frame: Any) -> None:
        received.append(signum)
        solver.stop()

    try:
        previous = {signum: signal.signal(signum, stop) for signum in stopping}
        try:
            try:
                solution = solver.solve(start, depth=depth, nodes=nodes, seconds=time, progress=progress,
                                        table=table)
            except TableFileError as error:
                fail(f"{table}: {error}", 1)
            except OSError as error:
                fail(f"{table}: {error.strerror or error}")
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)
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
        raise typer.Exit(128 + (received[0] if received else signal.SIGINT))
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
                loaded(alone.registered_commands)
                return alone
    loaded(app.registered_commands)
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



@app.command(short_help="Check every game against the rules.")
def validate(
    files: Optional[list[str]] = FILES_ARGUMENT,
    game: Optional[str] = RECORDS_GAME_OPTION,
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

    from ..files.sources import InputError
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


app.command(short_help="Convert records between PMN, JSON Lines and XML.")(_later("convert", "convert"))


app.command(short_help="Add the engine's proven results to the games.")(_later("annotate", "annotate"))


app.command(short_help="Draw a position, a game sheet or a game page.")(_later("render", "render"))


# -- archives: filter, split, stats ------------------------------------------------


app.command("filter", short_help="Write the games that match the criteria given.")(_later("filter", "filter_games"))


app.command(short_help="Write the games in files of N games each.")(_later("split", "split"))


app.command(short_help="Summarise an archive: lengths, results, openings.")(_later("stats", "stats"))


from .tablebase import tablebase_app  # noqa: E402  (``mancala tablebase``, after the commands above)

app.add_typer(tablebase_app, name="tablebase", short_help="Build endgame tables (kimasai-klamroth).")
