"""What each thing ``render`` draws needs and does not go with: the checks
of its options, each a usage error in one line, before anything is read."""
# (No ``from __future__ import annotations``, as in the other command modules.)

import codecs
import sys

from typer._click.core import ParameterSource
from typer._click.globals import get_current_context

from ..errors import PngUnavailable
from .options import fail
from .render_output import RenderOptions


def check_position(o: RenderOptions) -> None:
    """``--position``: a position string of ``--game``, one diagram. The
    options of a record (``--index``, ``--encoding``, ``--force``) do not go
    with it: none is silently ignored."""
    if o.file is not None:
        fail("give a record FILE or --position, not both")
    if o.game is None:
        fail("--position needs --game")
    if o.all_plies or o.ply is not None:
        fail("--all and --ply need a record, not --position")
    if o.out_dir is not None:
        fail("--out-dir needs --all or --positions")
    if o.index is not None:
        fail("--index picks a game of a record, not of --position")
    if o.encoding != "utf-8" or given_on_command_line("encoding"):
        fail("--encoding is for records: --position is read as given")
    if o.force:
        fail("--force writes over the input file: --position has none")
    check_picture(o)


def given_on_command_line(name: str) -> bool:
    """Whether the option of parameter ``name`` was given (not its default)."""
    context = get_current_context(silent=True)
    return context is not None and context.get_parameter_source(name) == ParameterSource.COMMANDLINE


def check_positions(o: RenderOptions) -> None:
    """``--positions``: a file of position strings of ``--game``, one diagram
    a line into ``--out-dir``."""
    if o.game is None:
        fail("--positions needs --game")
    if o.file is not None:
        fail("give a record FILE or --positions, not both")
    if o.position is not None:
        fail("give --position or --positions, not both")
    if o.all_plies or o.ply is not None:
        fail("--all and --ply need a record, not --positions")
    if o.index is not None:
        fail("--index picks a game of a record, not of --positions")
    if o.output is not None:
        fail("--positions writes into --out-dir: give --positions or -o, not both")
    if o.out_dir is None:
        fail("--positions needs --out-dir")
    try:
        utf8 = codecs.lookup(o.encoding).name == "utf-8"
    except LookupError:
        utf8 = False
    if not utf8:
        fail("--positions reads UTF-8: --encoding is for records")
    check_picture(o)


def check_record(o: RenderOptions) -> None:
    """A record's plies: one (``--ply``, the last by default), all of them
    into ``--out-dir`` (``--all``), or a ``--sheet``."""
    if o.out_dir is not None and not o.all_plies:
        fail("--out-dir needs --all or --positions")
    if o.all_plies:
        if o.out_dir is None:
            fail("--all needs --out-dir")
        if o.ply is not None:
            fail("--all draws every ply: give --all or --ply, not both")
        if o.output is not None:
            fail("--all writes into --out-dir: give --all or -o, not both")
    check_picture(o)


def check_picture(o: RenderOptions) -> None:
    """What every diagram and sheet checks after what it needs: the style
    (not of a text board), the sheet's options, the image's, the caption."""
    if o.style is not None and o.format == "text":
        fail("--style styles SVG diagrams: it does not go with --format text")
    if o.scale is not None and o.format != "png":
        fail("--scale sizes PNG images: it needs --format png")
    check_sheet(o)
    if o.format == "png":
        check_image(o)
    if o.caption and o.format == "text":
        fail("--caption captions SVG and PNG diagrams: a text board names the game and the move already")
    if o.caption and o.sheet:
        fail("--caption captions one diagram: a --sheet has its header and captions already")


def check_sheet(o: RenderOptions) -> None:
    """``--plies``, ``--every`` and ``--columns`` are a ``--sheet``'s, which
    draws plies of a record as SVG or PNG."""
    if not o.sheet:
        for option, value in (("--plies", o.plies), ("--every", o.every), ("--columns", o.columns)):
            if value is not None:
                fail(f"{option} needs --sheet")
        return
    if o.plies is None and o.every is None:
        fail("--sheet needs --plies or --every")
    if o.plies is not None and o.every is not None:
        fail("give --plies or --every, not both")
    for option, given in (("--position", o.position is not None), ("--positions", o.positions is not None),
                          ("--all", o.all_plies), ("--ply", o.ply is not None)):
        if given:
            fail(f"--sheet draws plies of a record: it does not go with {option}")
    if o.format == "text":
        fail("--sheet draws SVG or PNG: it does not go with --format text")


def check_image(o: RenderOptions) -> None:
    """``--format png`` needs its extra, and is never written to a terminal."""
    try:
        import resvg_py  # noqa: F401  (the png extra)
    except ImportError:
        fail(str(PngUnavailable()))
    if (o.output is None or o.output == "-") and not o.all_plies and o.positions is None and stdout_is_terminal():
        fail("PNG is binary: not written to a terminal (give -o FILE or redirect standard output)")


def stdout_is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def ply_list(text: str) -> list[int]:
    """``--plies 0,10,20``: ply numbers, a comma between."""
    parts = [part.strip() for part in text.split(",")]
    if not all(part.isascii() and part.isdigit() and len(part) <= 9 for part in parts):
        fail(f"--plies must be ply numbers with a comma between, like 0,10,20 (got {text!r})")
    return [int(part) for part in parts]
