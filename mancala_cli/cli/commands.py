"""The ``mancala`` command line: a thin layer that wires the notation, the
rules engines and the exporters together. Exit status: 0 success, 1 the
input was read but has problems, 2 usage or I/O error."""
from __future__ import annotations

import contextlib
import copy
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, NoReturn, Optional

import typer
import typer.main

from notation.coords import STYLES, format_move
from ..positions import format_position, parse_position

from ..diagrams.text import FROM_POSITION, _FromPosition
from ..rules.core import Game, InvalidPosition, Move, Outcome, Position, side_name
from ..rules.registry import GAME_IDS, UnknownGame, all_games, get_game
from ..rules.perft import divide
from ..rules.solver import DEFAULT_MEMORY as DEFAULT_SOLVE_MEMORY
from ..rules.solver import DEFAULT_SECONDS as DEFAULT_SOLVE_SECONDS
from .running import (MancalaGroup, choice, choices_metavar, completion, decimal, end_now, install_signal_handlers,
                      integer, prepare_streams, seconds, usage_error)
from .running import jobs as jobs_parser

if TYPE_CHECKING:
    from collections.abc import Iterator

    from notation.record import GameRecord

    from ..checking import Replay
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


def _choice_option(default, *names: str, values: tuple[str, ...], help: str):
    return typer.Option(default, *names, parser=choice(names[0], values), metavar=choices_metavar(values),
                        autocompletion=completion(values), help=help)


def _int_option(default, *names: str, low: int, high: int | None = None, help: str):
    return typer.Option(default, *names, parser=integer(names[0], low, high), metavar="N", help=help)


def fail(message: str, code: int = 2) -> NoReturn:
    """One line on standard error, then exit (2: usage or I/O, 1: bad input)."""
    typer.echo(f"mancala: error: {message}", err=True)
    raise typer.Exit(code)


def _game(game_id: str) -> Game:
    try:
        return get_game(game_id)
    except UnknownGame as error:
        fail(str(error))


def _position(game: Game, text: Optional[str]) -> Position:
    if text is None:
        return game.start()
    try:
        return parse_position(game, text)
    except InvalidPosition as error:
        fail(f"bad position for {game.id}: {error}")


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


#: Shell completion of ``--game``: the game ids.
GAME_COMPLETION = completion(GAME_IDS)
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

    With --table FILE, a search cut short (a limit, Ctrl-C, SIGTERM) saves its
    table, and the next run with the same FILE goes on from there.

    Example: mancala solve --game kingulu --position "0,0,0,0,3,2/1,0,0,0,0,2 S 20-20 12"
    """
    import signal

    from ..rules.solver import Solver, TableFileError

    rules = _game(game)
    start = _position(rules, position)
    progress = _SolveProgress() if sys.stderr.isatty() else None
    solver = Solver(rules, memory=memory)
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
                                               "message": over.message}}, ensure_ascii=False))
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
ENCODING_OPTION = typer.Option("utf-8", "--encoding", metavar="NAME", help="Text encoding of PMN and JSON input (a BOM is ignored).")


TARGETS = ("pmn", "json", "xml")


def _same_file(path: str, other: str) -> bool:
    """Whether two paths name one regular file (through links or other spellings)."""
    import os
    try:
        return os.path.isfile(path) and os.path.samefile(path, other)
    except (OSError, ValueError):
        return False


def _inputs(files: Optional[list[str]]) -> list[str]:
    if files:
        return files
    if sys.stdin.isatty() or not hasattr(sys.stdin, "buffer"):
        fail("no input: give a file, or '-' to read standard input")
    return ["-"]


def _encoding(name: str) -> str:
    """``name`` when it is a text encoding records can be read in (an unknown
    name is reported per file, as it always was)."""
    from .inputs import InputError, check_encoding

    try:
        check_encoding(name)
    except LookupError:
        pass
    except InputError as error:
        fail(str(error))
    return name


def _records(path: str, encoding: str):
    """Every record of one input, numbered, with the decoding problems attached
    to the records whose lines they fall on. Raises InputError or XMLArchiveError."""
    from .inputs import open_source
    from .pipeline import read_records

    with open_source(path, encoding) as source:
        yield from read_records(source)


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


def _counted(number: int, noun: str) -> str:
    """``1 game``, ``2 games``, ``0 errors``."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


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
    task = AnnotateTask(to, Limits(depth, nodes, time), game)
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


def _check_render_options(file: Optional[str], *, ply: Optional[int], all_plies: bool, out_dir: Optional[str],
                          position: Optional[str], positions: Optional[str], game: Optional[str], index: int,
                          format: str, style: Optional[str], output: Optional[str], encoding: str) -> None:
    """Options that cannot work together are usage errors, never ignored."""
    if positions is not None:
        _check_positions_options(file, ply=ply, all_plies=all_plies, out_dir=out_dir, position=position,
                                 game=game, index=index, output=output, encoding=encoding)
    if position is not None:
        if game is None:
            fail("--position needs --game")
        if file is not None:
            fail("give a record FILE or --position, not both")
        if all_plies or ply is not None:
            fail("--all and --ply need a record, not --position")
    if out_dir is not None and not all_plies and positions is None:
        fail("--out-dir needs --all or --positions")
    if all_plies:
        if out_dir is None:
            fail("--all needs --out-dir")
        if ply is not None:
            fail("--all draws every ply: give --all or --ply, not both")
        if output is not None:
            fail("--all writes into --out-dir: give --all or -o, not both")
    if style is not None and format == "text":
        fail("--style styles SVG diagrams: it does not go with --format text")


def _check_positions_options(file: Optional[str], *, ply: Optional[int], all_plies: bool, out_dir: Optional[str],
                             position: Optional[str], game: Optional[str], index: int, output: Optional[str],
                             encoding: str) -> None:
    """What ``--positions`` needs and what it does not go with."""
    import codecs

    if game is None:
        fail("--positions needs --game")
    if file is not None:
        fail("give a record FILE or --positions, not both")
    if position is not None:
        fail("give --position or --positions, not both")
    if all_plies or ply is not None:
        fail("--all and --ply need a record, not --positions")
    if index != 1:
        fail("--index picks a game of a record, not of --positions")
    if output is not None:
        fail("--positions writes into --out-dir: give --positions or -o, not both")
    if out_dir is None:
        fail("--positions needs --out-dir")
    try:
        utf8 = codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        utf8 = False
    if not utf8:
        fail("--positions reads UTF-8: --encoding is for records")


#: PNG pixels per SVG unit, and the boards in a row of a game sheet, unless told.
DEFAULT_SCALE = 2.0
DEFAULT_COLUMNS = 3


def _scale(value: Any) -> float:
    """``--scale``: a plain decimal number in the range PNG images are drawn at."""
    import re

    from ..diagrams.png import MAX_SCALE, MIN_SCALE

    if isinstance(value, float):
        return value
    text = str(value).strip()
    if not re.fullmatch(r"[0-9]{1,6}(?:\.[0-9]{0,6})?|\.[0-9]{1,6}", text):
        raise usage_error(f"--scale must be a number (got {str(value)!r})")
    number = float(text)
    if not MIN_SCALE <= number <= MAX_SCALE:
        raise usage_error(f"--scale must be between {MIN_SCALE:g} and {MAX_SCALE:g} (got {text})")
    return number


def _ply_list(text: str) -> list[int]:
    """``--plies 0,10,20``: ply numbers, a comma between."""
    parts = [part.strip() for part in text.split(",")]
    if not all(part.isascii() and part.isdigit() and len(part) <= 9 for part in parts):
        fail(f"--plies must be ply numbers with a comma between, like 0,10,20 (got {text!r})")
    return [int(part) for part in parts]


def _check_image_options(*, format: str, scale: Optional[float], sheet: bool, plies: Optional[str],
                         every: Optional[int], columns: Optional[int], ply: Optional[int], all_plies: bool,
                         position: Optional[str], positions: Optional[str], output: Optional[str]) -> None:
    """PNG and game-sheet options that cannot work together are usage errors;
    PNG needs its extra and is never written to a terminal."""
    if scale is not None and format != "png":
        fail("--scale sizes PNG images: it needs --format png")
    if not sheet:
        for option, value in (("--plies", plies), ("--every", every), ("--columns", columns)):
            if value is not None:
                fail(f"{option} needs --sheet")
    else:
        if plies is None and every is None:
            fail("--sheet needs --plies or --every")
        if plies is not None and every is not None:
            fail("give --plies or --every, not both")
        for option, given in (("--position", position is not None), ("--positions", positions is not None),
                              ("--all", all_plies), ("--ply", ply is not None)):
            if given:
                fail(f"--sheet draws plies of a record: it does not go with {option}")
        if format == "text":
            fail("--sheet draws SVG or PNG: it does not go with --format text")
    if format == "png":
        try:
            import resvg_py  # noqa: F401  (the png extra)
        except ImportError:
            from ..diagrams.png import PngUnavailable

            fail(str(PngUnavailable()))
        if (output is None or output == "-") and not all_plies and positions is None and _stdout_is_terminal():
            fail("PNG is binary: not written to a terminal (give -o FILE or redirect standard output)")


def _stdout_is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


@app.command(short_help="Draw a position, a game sheet or a game page.")
def render(
    file: Optional[str] = typer.Argument(None, metavar="[FILE]", help="A record (PMN, JSON or XML); the first game is drawn."),
    ply: Optional[int] = _int_option(None, "--ply", low=0, help="Draw the position after this many moves (0: start)."),
    all_plies: bool = typer.Option(False, "--all", help="Draw every position (needs --out-dir)."),
    out_dir: Optional[str] = typer.Option(None, "--out-dir", metavar="DIR", help="Folder for --all or --positions."),
    position: Optional[str] = typer.Option(None, "--position", "-p", metavar="POSITION", help="Draw this position string (with --game)."),
    positions: Optional[str] = typer.Option(None, "--positions", metavar="FILE",
                                            help="Draw every position string of FILE, one a line ('-': standard "
                                                 "input), into --out-dir (with --game)."),
    game: Optional[str] = typer.Option(None, "--game", "-g", metavar="GAME", autocompletion=GAME_COMPLETION,
                                       help="Game id (for --position and --positions, or records without Game)."),
    index: Optional[int] = _int_option(None, "--index", low=1,
                                       help="Which game of the file to draw (default: the first; for html, all)."),
    flip: bool = typer.Option(False, "--flip", help="North at the bottom."),
    format: str = _choice_option("svg", "--format", "-f", values=("svg", "text", "png", "html"),
                                 help="svg, text for terminals, png (the png extra), or html: a page to "
                                      "play through the game."),
    style: Optional[str] = typer.Option(None, "--style", metavar="FILE", help="A CSS file added to the SVG."),
    output: Optional[str] = typer.Option(None, "--output", "-o", metavar="FILE", help="Write here (atomically) instead of stdout."),
    encoding: str = ENCODING_OPTION,
    force: bool = typer.Option(False, "--force", help="Write over the input file when -o or a diagram names it."),
    scale: Optional[float] = typer.Option(None, "--scale", parser=_scale, metavar="X",
                                          help="PNG pixels per SVG unit (default 2, for sharp screens)."),
    sheet: bool = typer.Option(False, "--sheet", help="One game sheet of chosen plies in a grid (with --plies or --every)."),
    plies: Optional[str] = typer.Option(None, "--plies", metavar="N,N,…",
                                        help="The plies a --sheet shows (0: the start)."),
    every: Optional[int] = _int_option(None, "--every", low=1, help="A --sheet of ply 0, every N-th ply and the last."),
    columns: Optional[int] = _int_option(None, "--columns", low=1, high=100, help="Boards in a row of a --sheet (default 3)."),
    caption: bool = typer.Option(False, "--caption", help="Name the game, the players and the move above an SVG or PNG diagram."),
) -> None:
    """Draw a position as an SVG diagram, a PNG image or a plain-text board,
    a game sheet of several positions, or a whole game as an HTML page.

    Example: mancala render examples/kingulu-village-match.pmn --ply 4 -o board.svg

    A sheet as PNG: mancala render examples/kingulu-village-match.pmn --sheet --every 6 -f png -o sheet.png
    """
    for option, value, what in (("--output", output, "file"), ("--out-dir", out_dir, "folder"),
                                ("--style", style, "file"), ("--positions", positions, "file")):
        if value == "":
            fail(f"{option}: empty {what} name")
    if format == "html":
        if caption:
            fail("--caption does not go with --format html (the page names the game and the move)")
        _check_page_options(ply=ply, all_plies=all_plies, out_dir=out_dir, position=position, positions=positions,
                            style=style, scale=scale, sheet=sheet, plies=plies, every=every, columns=columns)
        _encoding(encoding)
        _render_page(file, index=index, game=game, flip=flip, output=output, encoding=encoding, force=force)
        return
    _check_render_options(file, ply=ply, all_plies=all_plies, out_dir=out_dir, position=position,
                          positions=positions, game=game, index=index or 1, format=format, style=style, output=output,
                          encoding=encoding)
    _check_image_options(format=format, scale=scale, sheet=sheet, plies=plies, every=every, columns=columns,
                         ply=ply, all_plies=all_plies, position=position, positions=positions, output=output)
    if caption and format == "text":
        fail("--caption captions SVG and PNG diagrams: a text board names the game and the move already")
    if caption and sheet:
        fail("--caption captions one diagram: a --sheet has its header and captions already")
    asked = None if plies is None else _ply_list(plies)
    _encoding(encoding)
    drawing = _Drawing(format, flip, _read_style(style), force, scale=DEFAULT_SCALE if scale is None else scale,
                       caption=caption)
    if position is not None and game is not None:  # (--position needs --game)
        _render_position(drawing, _game(game), position, output)
        return
    if positions is not None and game is not None and out_dir is not None:  # (--positions needs both)
        _render_positions(drawing, _game(game), positions, out_dir)
        return
    if game is not None:
        _game(game)
    path = drawing.source = file or _inputs(None)[0]
    name, report = _read_for_render(path, index or 1, encoding, game)
    states = _Plies(report)
    if caption:
        states.caption_head = _caption_head(states.rules, report.record.tags)
    if sheet:
        _render_sheet(drawing, states, report, plies_asked=asked, every=every,
                      columns=DEFAULT_COLUMNS if columns is None else columns, output=output)
    elif all_plies and out_dir is not None:  # (--all needs --out-dir)
        _render_every_ply(drawing, states, out_dir, path)
    else:
        _render_ply(drawing, states, ply, output)
    if not report.valid:
        from .reporters import problem_line, sorted_problems

        for problem in sorted_problems(report.problems):
            if problem.severity == "error":
                typer.echo(problem_line(name, problem), err=True)
        raise typer.Exit(1)


def _check_page_options(*, ply: Optional[int], all_plies: bool, out_dir: Optional[str], position: Optional[str],
                        positions: Optional[str], style: Optional[str], scale: Optional[float], sheet: bool,
                        plies: Optional[str], every: Optional[int], columns: Optional[int]) -> None:
    """``--format html`` draws a whole record: the options of one diagram, of
    an image and of a sheet do not go with it."""
    for given, option in ((ply is not None, "--ply"), (all_plies, "--all"), (out_dir is not None, "--out-dir"),
                          (position is not None, "--position"), (positions is not None, "--positions"),
                          (style is not None, "--style"), (scale is not None, "--scale"), (sheet, "--sheet"),
                          (plies is not None, "--plies"), (every is not None, "--every"),
                          (columns is not None, "--columns")):
        if given:
            fail(f"{option} does not go with --format html (the page holds every position of the game)")


def _render_page(file: Optional[str], *, index: Optional[int], game: Optional[str], flip: bool,
                 output: Optional[str], encoding: str, force: bool) -> None:
    """``render --format html``: the game page of every game of FILE (a chooser
    when there are several), or of game ``--index``; then the errors of the
    games, exit 1 if any. A game that cannot be replayed at all is left out
    (its error reported); none left: no page, exit 1."""
    from notation.errors import XMLArchiveError

    from ..diagrams.page import MAX_PAGE_POSITIONS, PageTooLarge, game_page, record_positions
    from .inputs import STDIN_NAME, InputError
    from .reporters import problem_line, sorted_problems

    if game is not None:
        _game(game)
    path = file or _inputs(None)[0]
    name = STDIN_NAME if path == "-" else path
    records: list[tuple[int, Any]] = []
    total = 0
    count = 0  # the games of the file read so far
    try:
        for k, record in enumerate(_records(path, encoding), 1):
            count = k
            if index is not None and k != index:
                continue
            # Counted as read, before any is played: an archive too large for one page stops here.
            total += record_positions(record)
            if total > MAX_PAGE_POSITIONS:
                one = "" if index is not None else ": give --index N for the page of one game"
                fail(f"{name}: {PageTooLarge(k, total, single=not records)}{one}")
            records.append((k, record))
            if index is not None:
                break
    except (InputError, XMLArchiveError) as error:
        fail(str(error))
    if not records:
        fail(f"{name}: has no game number {index} (it has {_counted(count, 'game')})" if index is not None
             else f"{name}: has no game")
    page = game_page((record for _, record in records), default_game=game, flip=flip,
                     numbers=[k for k, _ in records])
    found = list(page.unplayable)
    for page_game in page.games:
        found += [problem for problem in page_game.report.problems if problem.severity == "error"]
    errors = [problem_line(name, problem) for problem in sorted_problems(found)]  # (in file order)
    if page.games:
        _Drawing("html", flip, None, force, source=path).write(output, page.html)
    for line in errors:
        typer.echo(line, err=True)
    if errors:
        raise typer.Exit(1)


#: The longest ``--style`` file read, in bytes.
MAX_STYLE = 1 << 20


def _read_style(style: Optional[str]) -> Optional[str]:
    """The CSS of ``--style`` (UTF-8, line ends made ``\\n``), or ``None``: at
    most :data:`MAX_STYLE` bytes of characters an SVG (XML) can hold."""
    import re

    if style is None:
        return None
    try:
        with open(style, "rb") as handle:
            data = handle.read(MAX_STYLE + 1)
    except OSError as error:
        fail(f"{style}: cannot read: {error.strerror or error}")
    if len(data) > MAX_STYLE:
        fail(f"{style}: cannot read: longer than {MAX_STYLE:,} bytes")
    try:
        decoded = data.decode("utf-8")
    except UnicodeDecodeError as error:
        fail(f"{style}: cannot read: bytes {data[error.start:error.end].hex(' ')} "
             f"at byte offset {error.start} are not valid UTF-8")
    bad = re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]", decoded)
    if bad is not None:
        fail(f"{style}: cannot read: the character U+{ord(bad.group()):04X} at byte offset "
             f"{len(decoded[:bad.start()].encode('utf-8'))} cannot be written in an SVG (XML)")
    text = decoded.replace("\r\n", "\n").replace("\r", "\n")
    return text


@dataclass
class _Drawing:
    """How ``render`` draws and writes a diagram: the options every diagram shares."""

    format: str
    flip: bool
    css: Optional[str]
    force: bool
    source: Optional[str] = None  # the record file, once known
    scale: float = DEFAULT_SCALE  # PNG pixels per SVG unit
    caption: bool = False  # --caption: lines above each SVG or PNG diagram

    @property
    def suffix(self) -> str:
        """The file name ending of ``--all`` and ``--positions`` diagrams."""
        return {"svg": "svg", "text": "txt", "png": "png"}[self.format]

    @property
    def stale(self) -> str:
        """The endings of an earlier run's diagrams that this run removes: SVG
        and text runs remove each other's, a PNG run its own (PNG files were
        never this command's before it wrote them, and stay a user's)."""
        return "png" if self.format == "png" else "(?:svg|txt)"

    def draw(self, rules: Game, pos: Position, last: Optional[Move], title: Optional[str],
             outcome: Optional[Outcome] | _FromPosition = FROM_POSITION,
             caption: Optional[list[str]] = None) -> str:
        from ..diagrams.svg import board_svg
        from ..diagrams.text import board_text, outcome_of

        if self.format == "text":
            return board_text(rules, pos, last_move=last, flip=self.flip, outcome=outcome) + "\n"
        if self.caption and caption is None:  # a position without a record: the game and the move
            over = outcome_of(rules, pos, outcome)
            caption = [rules.name, f"Move {pos.move_number}, {_caption_state(pos, over)}"]
        return board_svg(rules, pos, last_move=last, flip=self.flip, title=title, style=self.css, outcome=outcome,
                         caption=caption if self.caption else None)

    def write(self, path: Optional[str], text: str) -> None:
        """Write a drawing (rasterised first for ``--format png``)."""
        from .inputs import InputError, atomic_output, names_input

        source = self.source
        if not self.force and source is not None and names_input(path, [source]):
            fail(f"{path}: is the input file; not replaced (--force replaces it)")
        data: str | bytes = text
        if self.format == "png":
            from ..diagrams.png import svg_to_png

            try:
                data = svg_to_png(text, scale=self.scale)
            except ValueError as error:
                fail(f"cannot draw the PNG image: {error}")
        try:
            with atomic_output(path, binary=isinstance(data, bytes)) as stream:
                stream.write(data)
        except InputError as error:
            fail(str(error))


def _render_position(drawing: _Drawing, rules: Game, position: str, output: Optional[str]) -> None:
    """``render --position``: the diagram of a position string."""
    drawing.write(output, drawing.draw(rules, _position(rules, position), None, None))


def _read_for_render(path: str, index: int, encoding: str, game: Optional[str]) -> tuple[str, Replay]:
    """Game ``index`` of ``path`` replayed: the name problems give the file,
    and the replay (exit 1 when the record cannot be drawn at all)."""
    from notation.errors import XMLArchiveError

    from ..checking import replay
    from .inputs import STDIN_NAME, InputError
    from .reporters import problem_line

    try:
        record = None
        count = 0  # the games of the file, when it has no game number index
        for count, candidate in enumerate(_records(path, encoding), 1):
            if count == index:
                record = candidate
                break
    except (InputError, XMLArchiveError) as error:
        fail(str(error))
    name = STDIN_NAME if path == "-" else path  # as validate names it
    if record is None:
        fail(f"{name}: has no game number {index} (it has {_counted(count, 'game')})")
    report = replay(record, game)
    if report.game is None or report.start is None:
        problem = next(p for p in report.problems if p.severity == "error")
        fail(problem_line(name, problem), 1)
    return name, report


class _Plies:
    """The positions of a replayed record, ply 0 (the start) first, with the
    move that led to each and the title of its diagram."""

    def __init__(self, report: Replay) -> None:
        assert report.game is not None and report.start is not None  # (checked by _read_for_render)
        self.rules: Game = report.game
        self.outcome = report.outcome
        self.states: list[tuple[Position, Optional[Move]]] = [(report.start, None)]
        self.states += zip(report.positions, report.moves)
        #: The first lines of a ``--caption`` (the game, the players, the event), or None.
        self.caption_head: Optional[list[str]] = None

    def outcome_at(self, k: int) -> Optional[Outcome]:
        """The engine's verdict where the record's last position ends the game."""
        return self.outcome if k == len(self.states) - 1 else None

    def title(self, k: int) -> str:
        from ..diagrams.text import state_words

        rules = self.rules
        pos, move = self.states[k]
        if move is None:
            return f"{rules.name} — start, {state_words(pos, self.outcome_at(k))}"
        return f"{rules.name} — position after {self.move_words(k)}, {state_words(pos, self.outcome_at(k))}"

    def move_words(self, k: int) -> str:
        """``12... c2x4``: the move that led to ply ``k`` (not 0)."""
        pos, move = self.states[k]
        assert move is not None
        before = self.states[k - 1][0]
        number = f"{before.move_number}." if before.side == "S" else f"{before.move_number}..."
        return f"{number} {format_move(self.rules.board, move, 'algebraic', before.side)}"

    def caption(self, k: int) -> Optional[list[str]]:
        """The ``--caption`` of ply ``k``: the game and the players, then the
        move and the side to move (``game over``: the result strip says the rest)."""
        if self.caption_head is None:
            return None
        pos, move = self.states[k]
        where = "Start" if move is None else f"After {self.move_words(k)}"
        return [*self.caption_head, f"{where}, {_caption_state(pos, self.outcome_at(k))}"]

    def draw(self, drawing: _Drawing, k: int) -> str:
        pos, last = self.states[k]
        return drawing.draw(self.rules, pos, last, self.title(k), self.outcome_at(k), self.caption(k))


def _caption_head(rules: Game, tags: list[tuple[str, str]]) -> list[str]:
    """A caption's first line: the game, the players, event, site, date and round."""
    from ..diagrams.sheet import header_line

    return [header_line(rules, [(name, value) for name, value in tags
                                if name in ("South", "North", "Event", "Site", "Date", "Round")])]


def _caption_state(pos: Position, over: Optional[Outcome]) -> str:
    """``North to move``, or ``game over`` (the result strip below the board gives the result)."""
    from ..rules.core import side_name

    return "game over" if over is not None else f"{side_name(pos.side)} to move"


def _render_ply(drawing: _Drawing, plies: _Plies, ply: Optional[int], output: Optional[str]) -> None:
    """``render [--ply N]``: the diagram of one ply (the last by default)."""
    last = len(plies.states) - 1
    k = last if ply is None else ply
    if k > last:
        fail(f"the record has {last} playable moves, no ply {k}")
    drawing.write(output, plies.draw(drawing, k))


def _render_every_ply(drawing: _Drawing, plies: _Plies, out_dir: str, path: str) -> None:
    """``render --all --out-dir DIR``: ``ply-000.svg`` … for every position,
    then the diagrams of an earlier run that this one did not write removed."""
    import os

    _make_out_dir(out_dir)
    suffix = drawing.suffix
    width = max(3, len(str(len(plies.states) - 1)))
    written = set()
    for k in range(len(plies.states)):
        name = f"ply-{k:0{width}d}.{suffix}"
        drawing.write(os.path.join(out_dir, name), plies.draw(drawing, k))
        written.add(name)
    # Diagrams of an earlier run (a longer game, the other format) would
    # pass for this game's: remove them, now that every new one is written.
    _remove_stale(out_dir, rf"ply-[0-9]{{3,}}\.{drawing.stale}", written.__contains__, path)


def _render_sheet(drawing: _Drawing, plies: _Plies, report: Replay, *, plies_asked: Optional[list[int]],
                  every: Optional[int], columns: int, output: Optional[str]) -> None:
    """``render FILE --sheet``: the chosen plies in one game sheet."""
    from ..diagrams.sheet import choose_plies, game_diagrams, header_line, sheet_svg

    last = len(plies.states) - 1
    try:
        chosen = choose_plies(last, plies=plies_asked, every=every)
    except ValueError as error:
        fail(str(error))
    assert report.start is not None  # (checked by _read_for_render)
    diagrams = game_diagrams(plies.rules, report.start, [pos for pos, _ in plies.states[1:]], report.moves,
                             chosen, outcome=plies.outcome)
    drawing.write(output, sheet_svg(plies.rules, diagrams, header=header_line(plies.rules, report.record.tags),
                                    columns=columns, flip=drawing.flip, style=drawing.css))


def _make_out_dir(out_dir: str) -> None:
    """``--out-dir``, created when missing (not its parent folders)."""
    import os

    if not os.path.isdir(out_dir):
        try:
            os.mkdir(out_dir)
        except FileExistsError:
            fail(f"{out_dir}: is not a directory")
        except OSError as error:
            fail(f"{out_dir}: cannot create: {error.strerror or error}")


def _remove_stale(out_dir: str, pattern: str, kept: Callable[[str], bool], path: Optional[str]) -> None:
    """Remove the files of ``out_dir`` whose names match ``pattern`` and are
    not ``kept`` (never the input file ``path``, never a folder)."""
    import os
    import re

    from .inputs import names_input

    try:
        stale = sorted(entry.path for entry in os.scandir(out_dir)
                       if re.fullmatch(pattern, entry.name) and not kept(entry.name)
                       and (entry.is_symlink() or entry.is_file())
                       and (path is None or not names_input(entry.path, [path])))
        for old in stale:
            os.unlink(old)
    except OSError as error:
        fail(f"{error.filename or out_dir}: cannot remove: {error.strerror or error}")


#: The width of the line number in the names ``render --positions`` gives
#: (more digits from line 10,000 on).
POSITION_NAME_DIGITS = 4


def _render_positions(drawing: _Drawing, rules: Game, path: str, out_dir: str) -> None:
    """``render --positions FILE --out-dir DIR``: the diagram of the position
    string on line N in ``pos-000N.svg`` (blank lines skipped), one at a time;
    a line that is no position of ``rules`` is reported and drawn nowhere
    (exit 1 once the others are drawn). Then the diagrams of an earlier run
    that this one did not write are removed."""
    import os

    from .inputs import InputError, numbered_lines, open_source

    suffix = drawing.suffix
    drawn = _LineNumbers()
    bad = 0
    try:
        with open_source(path) as source:
            drawing.source = path
            _make_out_dir(out_dir)
            for number, text, why in numbered_lines(source):
                if text is not None and not text.strip(" \t"):
                    continue
                pos = None
                if text is not None:
                    try:
                        pos = parse_position(rules, text)
                    except InvalidPosition as error:
                        why = f"bad position for {rules.id}: {error}"
                if pos is None:
                    bad += 1
                    typer.echo(f"{source.name}:{number}: error: {why}", err=True)
                    continue
                name = f"pos-{number:0{POSITION_NAME_DIGITS}d}.{suffix}"
                drawing.write(os.path.join(out_dir, name), drawing.draw(rules, pos, None, None))
                drawn.add(number)
    except InputError as error:
        fail(str(error))

    def kept(name: str) -> bool:  # (a name of the pattern below)
        digits, end = name[4:].split(".")
        return end == suffix and f"{int(digits):0{POSITION_NAME_DIGITS}d}" == digits and int(digits) in drawn

    # Diagrams of an earlier run (a longer list, a line that is bad now,
    # the other format) would pass for this run's: remove them.
    _remove_stale(out_dir, rf"pos-[0-9]{{4,}}\.{drawing.stale}", kept, path)
    if bad:
        raise typer.Exit(1)


class _LineNumbers:
    """A set of line numbers in one bit each: memory stays small however
    long the input."""

    def __init__(self) -> None:
        self.bits = bytearray()

    def add(self, number: int) -> None:
        byte = number >> 3
        if byte >= len(self.bits):
            self.bits.extend(bytes(max(byte + 1 - len(self.bits), len(self.bits))))
        self.bits[byte] |= 1 << (number & 7)

    def __contains__(self, number: int) -> bool:
        byte = number >> 3
        return byte < len(self.bits) and bool(self.bits[byte] >> (number & 7) & 1)


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
