"""The ``mancala`` command line: a thin layer that wires the notation, the
rules engines and the exporters together. Exit status: 0 success, 1 the
input was read but has problems, 2 usage or I/O error."""
from __future__ import annotations

import json
import random
import sys
from enum import Enum
from typing import NoReturn, Optional

import typer

from notation.coords import STYLES, format_move
from notation.position import format_position, parse_position

from . import __version__
from .core import Game, InvalidPosition, Position, side_name
from .games import GAME_IDS, UnknownGame, all_games, get_game
from .perft import divide

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Validate, convert and draw records of Bao la Kimasai and Bao Kingulu games.",
)


class Coords(str, Enum):
    algebraic = "algebraic"
    numeric = "numeric"
    relative = "relative"


assert tuple(c.value for c in Coords) == STYLES


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
        typer.echo(f"mancala {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Validate, convert and draw records of Bao la Kimasai and Bao Kingulu games."""


GAME_OPTION = typer.Option(..., "--game", "-g", help=f"Game id: {', '.join(GAME_IDS)}.")
POSITION_OPTION = typer.Option(None, "--position", "-p", help="A position string (default: the standard start).")


@app.command()
def games(
    format: str = typer.Option("text", "--format", "-f", help="text or json."),
) -> None:
    """List the games: id, name, board, seeds and source.

    Example: mancala games --format json
    """
    rows = [{"id": g.id, "name": g.name, "board": f"{g.board.ranks}x{g.board.files}",
             "seeds": g.total, "sowing": g.sowing, "source": g.source,
             "start": format_position(g, g.start())} for g in all_games()]
    if format == "json":
        for row in rows:
            typer.echo(json.dumps(row, ensure_ascii=False))
    elif format == "text":
        for row in rows:
            typer.echo(f"{row['id']:<17} {row['name']:<26} {row['board']:<5} {row['seeds']:>2} seeds  "
                       f"{row['sowing']}; {row['source']}")
    else:
        fail(f"unknown format {format!r} (text or json)")


@app.command()
def moves(
    game: str = GAME_OPTION,
    position: Optional[str] = POSITION_OPTION,
    coords: Coords = typer.Option(Coords.algebraic, "--coords", help="Coordinate style of the moves."),
) -> None:
    """Print the legal moves, one per line, with their outcome marks (c1x6, e2^).

    Example: mancala moves --game kingulu --position "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1"
    """
    rules = _game(game)
    start = _position(rules, position)
    legal = rules.legal_moves(start)
    for move in legal:
        typer.echo(format_move(rules.board, move, coords.value, start.side))
    if not legal:
        outcome = rules.outcome(start, moves=legal)
        if outcome is not None:
            typer.echo(f"the game is over: {outcome.result} ({outcome.reason}: {outcome.message})", err=True)


@app.command()
def perft(
    game: str = GAME_OPTION,
    depth: int = typer.Option(..., "--depth", "-d", min=0, help="Number of moves."),
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


@app.command("random")
def random_games(
    game: str = GAME_OPTION,
    n: int = typer.Option(1, "-n", "--number", min=0, help="How many games."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="Random seed (the same seed gives the same games)."),
    max_plies: Optional[int] = typer.Option(None, "--max-plies", min=1,
                                            help="Stop a game after this many moves (result '*')."),
) -> None:
    """Write N random legal games as canonical PMN.

    Example: mancala random --game kingulu -n 3 --seed 7
    """
    from notation.pmn import write_games

    from .randomgames import random_game

    rules = _game(game)
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    write_games((random_game(rules, rng, max_plies, event=f"random game {i + 1}, seed {seed}")
                 for i in range(n)), sys.stdout)


def _terminate(signum, frame) -> None:
    raise KeyboardInterrupt


def main() -> None:
    import signal
    # SIGTERM ends the command like Ctrl-C: output files are left as they were.
    signal.signal(signal.SIGTERM, _terminate)
    app()


# -- records: validate, convert, render ------------------------------------------

FILES_ARGUMENT = typer.Argument(None, help="Input files (PMN, JSON Lines or XML); '-' or none: standard input.")
ENCODING_OPTION = typer.Option("utf-8", "--encoding", help="Text encoding of PMN and JSON input (a BOM is ignored).")


class Target(str, Enum):
    pmn = "pmn"
    json = "json"
    xml = "xml"


def _inputs(files: Optional[list[str]]) -> list[str]:
    if files:
        return files
    if sys.stdin.isatty():
        fail("no input: give a file, or '-' to read standard input")
    return ["-"]


def _records(path: str, encoding: str):
    """Every record of one input, with the decoding problems attached to the
    records whose lines they fall on. Raises InputError or XMLArchiveError."""
    from notation.pmn import read_games

    from .inputs import json_records, open_source, sniff
    from .xmlarchive import read_archive

    with open_source(path, encoding) as source:
        kind = sniff(source)
        if kind == "xml":
            yield from read_archive(source.stream, file=source.name)
            return
        if kind == "json":
            records = json_records(source.lines(), source.name)
        else:
            records = read_games(source.lines(), file=source.name)
        for record in records:
            if source.problems:
                record.problems[:0] = source.problems
                source.problems.clear()
            yield record


JOBS_OPTION = typer.Option(1, "--jobs", "-j", min=1, help="Worker processes (output stays in input order).")


def _results(paths: list[str], encoding: str, options, jobs: int, progress):
    """Every game's result, in input order: (path, GameResult or the error that stopped the file)."""
    from .inputs import InputError, open_source, sniff
    from .pipeline import batches, no_games, process_record, run
    from .xmlarchive import XMLArchiveError, read_archive

    for path in paths:
        try:
            with open_source(path, encoding) as source:
                kind = sniff(source)
                count = 0
                if kind == "xml":
                    for record in read_archive(source.stream, file=source.name):
                        count += 1
                        yield path, process_record(options, record)
                else:
                    work = batches(source.lines(), kind, source.name, source.problems)
                    task = progress.start(path) if progress else None
                    for batch, results in run(options, work, jobs):
                        if progress:
                            progress.advance(task, batch.size)
                        for result in results:
                            count += 1
                            yield path, result
                if not count:
                    yield path, no_games(options, source.name)
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

    def __enter__(self):
        self.bar.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self.bar.__exit__(*exc)


@app.command()
def validate(
    files: Optional[list[str]] = FILES_ARGUMENT,
    game: Optional[str] = typer.Option(None, "--game", "-g", help="Game id for records without a Game tag."),
    strict: bool = typer.Option(False, "--strict", help="Treat warnings as errors."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the problems."),
    format: str = typer.Option("text", "--format", "-f", help="text, or json (one JSON object per game)."),
    encoding: str = ENCODING_OPTION,
    jobs: int = JOBS_OPTION,
) -> None:
    """Check every game: syntax, every move of the main line and the variations
    against the rules, outcome marks, move numbers, result and score.

    Prints FILE:LINE:COL: error: … per problem and a summary line; exit 1 when
    any game has an error.

    Example: mancala validate examples/kingulu-village-match.pmn
    """
    import contextlib

    from .inputs import InputError
    from .pipeline import Options, report_json

    if format not in ("text", "json"):
        fail(f"unknown format {format!r} (text or json)")
    if game is not None:
        _game(game)
    options = Options("validate", format, game, strict)
    totals = {"games": 0, "moves": 0, "errors": 0, "warnings": 0}
    io_failed = False
    out = sys.stdout
    index = {}
    progress = _Progress() if _Progress.wanted(quiet) else None
    with progress or contextlib.nullcontext():
        for path, result in _results(_inputs(files), encoding, options, jobs, progress):
            if isinstance(result, Exception):
                io_failed = io_failed or isinstance(result, InputError)
                totals["errors"] += 1
                if format == "json":
                    unreadable = {"severity": "error", "rule": "unreadable", "message": str(result)}
                    out.write(report_json(path, getattr(result, "line", None), None, 0, None, False,
                                          [unreadable]) + "\n")
                else:
                    out.flush()
                    typer.echo(f"mancala: error: {result}", err=True)
                continue
            totals["games"] += 1
            totals["moves"] += result.moves
            totals["errors"] += result.errors
            totals["warnings"] += result.warnings
            if format == "json":
                index[path] = index.get(path, 0) + 1
                out.write(result.out.replace('"index": null', f'"index": {index[path]}', 1) + "\n")
            else:
                out.write(result.out)
    if format == "text" and not quiet:
        out.write(f"{totals['games']} games, {totals['moves']} moves, {totals['errors']} errors, "
                  f"{totals['warnings']} warnings\n")
    out.flush()
    if io_failed:
        raise typer.Exit(2)
    if totals["errors"]:
        raise typer.Exit(1)


@app.command()
def convert(
    files: Optional[list[str]] = FILES_ARGUMENT,
    to: Target = typer.Option(..., "--to", "-t", help="Target format."),
    coords: Optional[Coords] = typer.Option(None, "--coords", help="Rewrite the moves in this coordinate style."),
    positions: bool = typer.Option(False, "--positions", help="Add the position after every move (JSON, XML)."),
    output: Optional[str] = typer.Option(None, "--output", "-o", help="Write here (atomically) instead of stdout."),
    game: Optional[str] = typer.Option(None, "--game", "-g", help="Game id for records without a Game tag."),
    encoding: str = ENCODING_OPTION,
    jobs: int = JOBS_OPTION,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """Convert records between PMN, JSON Lines and XML (input recognised by content).

    Moves get their outcome marks; problems found on the way are reported on
    standard error (exit 1) and the output is still written.

    Example: mancala convert examples/kingulu-village-match.pmn --to json --positions
    """
    import contextlib

    from .inputs import InputError, atomic_output
    from .pipeline import Options
    from .xmlarchive import XMLArchiveError, write_archive

    if game is not None:
        _game(game)
    options = Options("convert", to.value, game, False, coords.value if coords else None, positions)
    paths = _inputs(files)
    errors = 0
    progress = _Progress() if _Progress.wanted(quiet) else None

    def results():
        nonlocal errors
        for path, result in _results(paths, encoding, options, jobs, progress):
            if isinstance(result, Exception):
                raise result
            errors += result.errors
            for line in result.diagnostics:
                typer.echo(line, err=True)
            yield result

    try:
        with progress or contextlib.nullcontext():
            if to == Target.xml:
                starts: dict[int, Optional[str]] = {}

                def records():
                    for result in results():
                        if result.record is not None:
                            starts[id(result.record)] = result.start
                            yield result.record

                def refused(error: XMLArchiveError) -> None:
                    nonlocal errors
                    errors += 1  # the game is left out, the others are written
                    typer.echo(f"{error.file or '-'}:{error.line or 0}:0: error: unwritable: {error.reason}",
                               err=True)

                with atomic_output(output, binary=True) as stream:
                    write_archive(records(), stream, positions=positions,
                                  start=lambda record: starts.pop(id(record), None), refused=refused)
            else:
                with atomic_output(output) as stream:
                    first = True
                    for result in results():
                        if to == Target.pmn and not first:
                            stream.write("\n")
                        stream.write(result.out)
                        first = False
    except (InputError, XMLArchiveError) as error:
        fail(str(error), 2 if isinstance(error, InputError) else 1)
    if errors:
        raise typer.Exit(1)


@app.command()
def render(
    file: Optional[str] = typer.Argument(None, help="A record (PMN, JSON or XML); the first game is drawn."),
    ply: Optional[int] = typer.Option(None, "--ply", min=0, help="Draw the position after this many moves (0: start)."),
    all_plies: bool = typer.Option(False, "--all", help="Draw every position (needs --out-dir)."),
    out_dir: Optional[str] = typer.Option(None, "--out-dir", help="Folder for --all."),
    position: Optional[str] = typer.Option(None, "--position", "-p", help="Draw this position string (with --game)."),
    game: Optional[str] = typer.Option(None, "--game", "-g", help="Game id (for --position, or records without Game)."),
    index: int = typer.Option(1, "--index", min=1, help="Which game of the file to draw."),
    flip: bool = typer.Option(False, "--flip", help="North at the bottom."),
    format: str = typer.Option("svg", "--format", "-f", help="svg, or text for terminals."),
    style: Optional[str] = typer.Option(None, "--style", help="A CSS file added to the SVG."),
    output: Optional[str] = typer.Option(None, "--output", "-o", help="Write here (atomically) instead of stdout."),
    encoding: str = ENCODING_OPTION,
) -> None:
    """Draw a position as an SVG diagram or a plain-text board.

    Example: mancala render examples/kingulu-village-match.pmn --ply 4 -o board.svg
    """
    import os

    from .inputs import InputError, atomic_output
    from .pipeline import problem_line, sorted_problems
    from .replay import replay
    from .svg import board_svg
    from .text import board_text
    from .xmlarchive import XMLArchiveError

    if format not in ("svg", "text"):
        fail(f"unknown format {format!r} (svg or text)")
    css = None
    if style is not None:
        try:
            with open(style, encoding="utf-8") as handle:
                css = handle.read()
        except OSError as error:
            fail(f"{style}: cannot read: {error.strerror or error}")

    def draw(rules: Game, pos: Position, last, title: Optional[str]) -> str:
        if format == "text":
            return board_text(rules, pos, last_move=last, flip=flip) + "\n"
        return board_svg(rules, pos, last_move=last, flip=flip, title=title, style=css)

    def write(path: Optional[str], text: str) -> None:
        try:
            with atomic_output(path) as stream:
                stream.write(text)
        except InputError as error:
            fail(str(error))

    if position is not None:
        if game is None:
            fail("--position needs --game")
        if all_plies or ply is not None:
            fail("--all and --ply need a record, not --position")
        rules = _game(game)
        write(output, draw(rules, _position(rules, position), None, None))
        return
    if game is not None:
        _game(game)
    path = file or _inputs(None)[0]
    try:
        record = None
        for k, candidate in enumerate(_records(path, encoding), 1):
            if k == index:
                record = candidate
                break
    except (InputError, XMLArchiveError) as error:
        fail(str(error))
    if record is None:
        fail(f"{path}: has no game number {index}")
    report = replay(record, game)
    if report.game is None or report.start is None:
        problem = next(p for p in report.problems if p.severity == "error")
        fail(problem_line(path, problem), 1)
    rules = report.game
    states = [(report.start, None)] + list(zip(report.positions, report.moves))

    def title_of(k: int) -> str:
        pos = states[k][0]
        if k == 0:
            return f"{rules.name} — start, {side_name(pos.side)} to move"
        before = states[k - 1][0]
        move = states[k][1]
        number = f"{before.move_number}." if before.side == "S" else f"{before.move_number}..."
        return (f"{rules.name} — position after {number} {format_move(rules.board, move, 'algebraic', before.side)}, "
                f"{side_name(pos.side)} to move")

    if all_plies:
        if out_dir is None:
            fail("--all needs --out-dir")
        os.makedirs(out_dir, exist_ok=True)
        suffix = "svg" if format == "svg" else "txt"
        width = max(3, len(str(len(states) - 1)))
        for k, (pos, last) in enumerate(states):
            write(os.path.join(out_dir, f"ply-{k:0{width}d}.{suffix}"), draw(rules, pos, last, title_of(k)))
    else:
        k = len(states) - 1 if ply is None else ply
        if k > len(states) - 1:
            fail(f"the record has {len(states) - 1} playable moves, no ply {k}")
        write(output, draw(rules, states[k][0], states[k][1], title_of(k)))
    if not report.valid:
        for problem in sorted_problems(report.problems):
            if problem.severity == "error":
                typer.echo(problem_line(path, problem), err=True)
        raise typer.Exit(1)
