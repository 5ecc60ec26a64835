"""``mancala tablebase build``: the endgame tables of ``kimasai-klamroth``
(:mod:`mancala_cli.solving.endgame`), which ``solve`` and ``annotate`` read with
``--tablebase FILE``."""
from __future__ import annotations

import sys
import time as _time

import typer

from ..files.output import OutputError
from ..files.reports import counted
from ..solving.endgame import GAME, MAX_STONES, Tablebase, build_bytes, entries, work_bytes
from .options import GAME_COMPLETION, fail, int_option as _int_option, output_file
from .values import size_parser as _size

#: The memory a build may take when none is given (bytes).
DEFAULT_BUILD_MEMORY = 2 << 30

tablebase_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                            help="Endgame tables of kimasai-klamroth, for solve and annotate --tablebase.")


@tablebase_app.command("build", short_help="Build the table of every position with at most N stones.")
def build(
    game: str = typer.Option(GAME, "--game", "-g", metavar="GAME", autocompletion=GAME_COMPLETION,
                             help="The game: kimasai-klamroth (the only one whose tables pay; see docs/rules.md)."),
    stones: int = _int_option(..., "--stones", "-n", low=0, high=MAX_STONES,
                              help="Every position with at most this many stones on the board."),
    output: str = typer.Option(..., "--output", "-o", parser=output_file("--output"), metavar="FILE",
                               help="The table's file, written whole or not at all as > writes (a link's target "
                                    "replaced, its mode kept, a device or FIFO written in place; - is standard output)."),
    memory: int = typer.Option(DEFAULT_BUILD_MEMORY, "--memory", parser=_size("--memory"), metavar="SIZE",
                               show_default=False,
                               help=f"Refuse a build that needs more memory (default {DEFAULT_BUILD_MEMORY >> 30}G)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress line and no summary."),
) -> None:
    """Build the table of every kimasai-klamroth position with at most N
    stones on the board, by retrograde analysis: each position's value (win,
    draw or loss for the side to move) as a game started there. The file is
    written whole or not at all; the 7-stone table is 88 MB, and its build
    needs about 174 MB of memory (docs/rules.md, "Endgame tables").

    Example: mancala tablebase build --stones 6 -o kk6.tb
    """
    if game != GAME:
        fail(f"tables are built for {GAME} only, not {game!r}: in kimasai-mackay no seed leaves the board "
             "and kingulu has its stored solution (docs/rules.md)")
    if output == "":
        fail("--output: empty file name")
    needed = build_bytes(stones) + work_bytes(stones)
    if needed > memory:
        fail(f"a table of {stones} stones needs {needed:,} bytes of memory, more than --memory {memory:,}")
    progress = None
    if not quiet and sys.stderr.isatty():
        def progress(k: int, a: int, passes: int) -> None:
            sys.stderr.write(f"\r\033[Kbuilding: {k} stones, layer {a}-{k - a} done ({passes} passes)")
            sys.stderr.flush()
    started = _time.monotonic()
    try:
        table = Tablebase.build(stones, progress=progress)
    except MemoryError:
        fail(f"out of memory while building (a table of {stones} stones needs {needed:,} bytes)")
    finally:
        if progress is not None:
            sys.stderr.write("\r\033[K")
    try:
        table.write(output)
    except OutputError as error:
        fail(str(error))
    except OSError as error:
        fail(f"{output}: cannot write: {error.strerror or error}")
    if not quiet:
        typer.echo(f"{GAME}: {entries(stones):,} positions of at most {counted(stones, 'stone')}, "
                   f"{build_bytes(stones):,} bytes, in {_time.monotonic() - started:.1f} s: {output}", err=True)
