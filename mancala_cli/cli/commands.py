"""The ``mancala`` command line: a thin layer that wires the notation, the
rules engines and the exporters together. Exit status: 0 success, 1 the
input was read but has problems, 2 usage or I/O error."""
from __future__ import annotations

import copy
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional

import typer
import typer.main

from notation.coords import STYLES, format_move, move_label
from ..positions import format_position, parse_position

from ..diagrams.text import FROM_POSITION, _FromPosition
from ..rules.core import Game, InvalidPosition, Move, Outcome, Position, side_name
from ..rules.registry import GAME_IDS, all_games
from ..rules.perft import divide
from ..rules.solver import DEFAULT_MEMORY as DEFAULT_SOLVE_MEMORY
from ..rules.solver import DEFAULT_SECONDS as DEFAULT_SOLVE_SECONDS
from .options import ENCODING_OPTION, FILES_ARGUMENT, GAME_COMPLETION, JOBS_OPTION, MAX_SOLVE_DEPTH
from .options import SCHEDULER_OPTION, SCHEDULER_TIMEOUT_OPTION, WHERE_HELP, fail
from .options import StatusLine as _StatusLine
from .options import checked_encoding as _encoding
from .options import choice_option as _choice_option
from .options import counted as _counted
from .options import game_results as _results
from .options import game_rules as _game
from .options import input_paths as _inputs
from .options import int_option as _int_option
from .options import make_out_dir as _make_out_dir
from .options import Progress as _Progress
from .options import remove_stale as _remove_stale
from .options import seconds_parser as _seconds
from .options import where_criteria as _where
from .options import workers_for as _jobs
from .running import MancalaGroup, end_now, install_signal_handlers, prepare_streams, usage_error

if TYPE_CHECKING:
    from ..checking import Replay

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


def _position(game: Game, text: Optional[str]) -> Position:
    if text is None:
        return game.start()
    try:
        return parse_position(game, text)
    except InvalidPosition as error:
        fail(f"bad position for {game.id}: {error}")


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
) -> None:
    """Solve a position: the result with best play for the side to move (win,
    draw or loss; unknown where the limits leave it unproven), one line per
    move with its result, then the result and the best moves. On a terminal,
    standard error shows the search under way.

    A limit (--time, --nodes, --depth) or Ctrl-C prints what is known so far:
    each move's result or interval, the depth reached and why the search
    stopped. Exit status 0 when the search ran to its end, 3 when a limit
    stopped it, 130 after Ctrl-C.

    Example: mancala solve --game kingulu --position "0,0,0,0,3,2/1,0,0,0,0,2 S 20-20 12"
    """
    import signal

    from ..rules.solver import Solver

    rules = _game(game)
    start = _position(rules, position)
    progress = _SolveProgress() if sys.stderr.isatty() else None
    solver = Solver(rules, memory=memory)
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


def _records(path: str, encoding: str):
    """Every record of one input, numbered, with the decoding problems attached
    to the records whose lines they fall on. Raises InputError or XMLArchiveError."""
    from .inputs import open_source
    from ..files.batches import read_records

    with open_source(path, encoding) as source:
        yield from read_records(source)


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
        return f"{move_label(before.move_number, before.side)} {format_move(self.rules.board, move, 'algebraic', before.side)}"

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


app.command("filter", short_help="Write the games that match the criteria given.")(_later("filter", "filter_games"))


app.command(short_help="Write the games in files of N games each.")(_later("split", "split"))


app.command(short_help="Summarise an archive: lengths, results, openings.")(_later("stats", "stats"))
