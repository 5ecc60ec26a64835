"""``mancala render``: its options, and one function per thing it draws,
each checking the options that go with it: a diagram (of ``--position``,
or of a ply of a record), many diagrams (``--positions``, or ``--all`` the
plies of a record), a game sheet (``--sheet``), and a game page
(``--format html``); an image (``--format png``) is one of the first three
rasterised. :mod:`.drawing` draws and writes them.

The checks keep one order of precedence whatever is drawn: empty names
first, then what the thing drawn needs and does not go with, then the
style, PNG and sheet options, then ``--caption``, ``--plies`` and the
encoding, so that the first mistake of a command line is the one reported.
"""
# (No ``from __future__ import annotations``: typer reads the command's
# signature at every start, and annotations given as strings would each be
# compiled and evaluated then.)

import codecs
import re
import sys
from typing import Any, Optional

import typer

from ..diagrams.png import MAX_SCALE, MIN_SCALE, PngUnavailable
from ..files.reports import problem_line, sorted_problems
from .drawing import (
    Drawing,
    Plies,
    RenderOptions,
    caption_head,
    read_for_render,
    write_every_ply,
    write_ply,
    write_positions,
    write_sheet,
)
from .options import (
    DRAWING_EXTENSIONS,
    ENCODING_OPTION,
    GAME_COMPLETION,
    checked_encoding,
    choice_option,
    fail,
    game_rules,
    input_paths,
    int_option,
    output_format,
    position_of,
)
from .running import usage_error

#: The boards in a row of a game sheet, unless told.
DEFAULT_COLUMNS = 3


def _scale(value: Any) -> float:
    """``--scale``: a plain decimal number in the range PNG images are drawn at."""
    if isinstance(value, float):
        return value
    text = str(value).strip()
    if not re.fullmatch(r"[0-9]{1,6}(?:\.[0-9]{0,6})?|\.[0-9]{1,6}", text):
        raise usage_error(f"--scale must be a number (got {str(value)!r})")
    number = float(text)
    if not MIN_SCALE <= number <= MAX_SCALE:
        raise usage_error(f"--scale must be between {MIN_SCALE:g} and {MAX_SCALE:g} (got {text})")
    return number


def render(
    file: Optional[str] = typer.Argument(None, metavar="[FILE]", help="A record (PMN, JSON or XML); the first game is drawn."),
    ply: Optional[int] = int_option(None, "--ply", low=0, help="Draw the position after this many moves (0: start)."),
    all_plies: bool = typer.Option(False, "--all", help="Draw every position (needs --out-dir)."),
    out_dir: Optional[str] = typer.Option(None, "--out-dir", metavar="DIR", help="Folder for --all or --positions."),
    position: Optional[str] = typer.Option(None, "--position", "-p", metavar="POSITION", help="Draw this position string (with --game)."),
    positions: Optional[str] = typer.Option(None, "--positions", metavar="FILE",
                                            help="Draw every position string of FILE, one a line ('-': standard "
                                                 "input), into --out-dir (with --game)."),
    game: Optional[str] = typer.Option(None, "--game", "-g", metavar="GAME", autocompletion=GAME_COMPLETION,
                                       help="Game id (for --position and --positions, or records without Game)."),
    index: Optional[int] = int_option(None, "--index", low=1,
                                      help="Which game of the file to draw (default: the first; for html, all)."),
    flip: bool = typer.Option(False, "--flip", help="North at the bottom."),
    format: Optional[str] = choice_option(None, "--format", "-f", values=("svg", "text", "png", "html"),
                                          help="svg, text for terminals, png (the png extra), or html: a page to "
                                               "play through the game (default: from -o's extension: .svg, .txt, "
                                               ".png, .html; else svg)."),
    style: Optional[str] = typer.Option(None, "--style", metavar="FILE", help="A CSS file added to the SVG."),
    output: Optional[str] = typer.Option(None, "--output", "-o", metavar="FILE", help="Write here (atomically) instead of stdout."),
    encoding: str = ENCODING_OPTION,
    force: bool = typer.Option(False, "--force", help="Write over the input file when -o or a diagram names it."),
    scale: Optional[float] = typer.Option(None, "--scale", parser=_scale, metavar="X",
                                          help="PNG pixels per SVG unit (default 2, for sharp screens)."),
    sheet: bool = typer.Option(False, "--sheet", help="One game sheet of chosen plies in a grid (with --plies or --every)."),
    plies: Optional[str] = typer.Option(None, "--plies", metavar="N,N,…",
                                        help="The plies a --sheet shows (0: the start)."),
    every: Optional[int] = int_option(None, "--every", low=1, help="A --sheet of ply 0, every N-th ply and the last."),
    columns: Optional[int] = int_option(None, "--columns", low=1, high=100, help="Boards in a row of a --sheet (default 3)."),
    caption: bool = typer.Option(False, "--caption", help="Name the game, the players and the move above an SVG or PNG diagram."),
) -> None:
    """Draw a position as an SVG diagram, a PNG image or a plain-text board,
    a game sheet of several positions, or a whole game as an HTML page.

    Example: mancala render examples/kingulu-village-match.pmn --ply 4 -o board.svg

    A sheet as PNG: mancala render examples/kingulu-village-match.pmn --sheet --every 6 -f png -o sheet.png
    """
    format = output_format(format, output, DRAWING_EXTENSIONS, option="--format", default="svg")
    options = RenderOptions(file=file, ply=ply, all_plies=all_plies, out_dir=out_dir, position=position,
                            positions=positions, game=game, index=index, flip=flip, format=format, style=style,
                            output=output, encoding=encoding, force=force, scale=scale, sheet=sheet, plies=plies,
                            every=every, columns=columns, caption=caption)
    for option, value, what in (("--output", output, "file"), ("--out-dir", out_dir, "folder"),
                                ("--style", style, "file"), ("--positions", positions, "file")):
        if value == "":
            fail(f"{option}: empty {what} name")
    if format == "html":
        from .page import draw_page  # (the page, its scripts and styles: 12 ms of start-up, for html alone)

        draw_page(options)
    elif positions is not None:
        draw_positions(options)
    elif position is not None:
        draw_position(options)
    elif sheet:
        draw_sheet(options)
    else:
        draw_plies(options)


# -- what each thing drawn needs and does not go with -------------------------------

def _check_position(o: RenderOptions) -> None:
    """``--position``: a position string of ``--game``, one diagram."""
    if o.game is None:
        fail("--position needs --game")
    if o.file is not None:
        fail("give a record FILE or --position, not both")
    if o.all_plies or o.ply is not None:
        fail("--all and --ply need a record, not --position")
    if o.out_dir is not None:
        fail("--out-dir needs --all or --positions")
    _check_picture(o)


def _check_positions(o: RenderOptions) -> None:
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
    if (o.index or 1) != 1:
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
    _check_picture(o)


def _check_record(o: RenderOptions) -> None:
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
    _check_picture(o)


def _check_picture(o: RenderOptions) -> None:
    """What every diagram and sheet checks after what it needs: the style
    (not of a text board), the sheet's options, the image's, the caption."""
    if o.style is not None and o.format == "text":
        fail("--style styles SVG diagrams: it does not go with --format text")
    if o.scale is not None and o.format != "png":
        fail("--scale sizes PNG images: it needs --format png")
    _check_sheet(o)
    if o.format == "png":
        _check_image(o)
    if o.caption and o.format == "text":
        fail("--caption captions SVG and PNG diagrams: a text board names the game and the move already")
    if o.caption and o.sheet:
        fail("--caption captions one diagram: a --sheet has its header and captions already")


def _check_sheet(o: RenderOptions) -> None:
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


def _check_image(o: RenderOptions) -> None:
    """``--format png`` needs its extra, and is never written to a terminal."""
    try:
        import resvg_py  # noqa: F401  (the png extra)
    except ImportError:
        fail(str(PngUnavailable()))
    if (o.output is None or o.output == "-") and not o.all_plies and o.positions is None and _stdout_is_terminal():
        fail("PNG is binary: not written to a terminal (give -o FILE or redirect standard output)")


def _stdout_is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _ply_list(text: str) -> list[int]:
    """``--plies 0,10,20``: ply numbers, a comma between."""
    parts = [part.strip() for part in text.split(",")]
    if not all(part.isascii() and part.isdigit() and len(part) <= 9 for part in parts):
        fail(f"--plies must be ply numbers with a comma between, like 0,10,20 (got {text!r})")
    return [int(part) for part in parts]


# -- what is drawn ---------------------------------------------------------------------

def draw_position(o: RenderOptions) -> None:
    """``render --position P --game G``: the diagram of a position string."""
    _check_position(o)
    checked_encoding(o.encoding)
    drawing = o.drawing()
    assert o.game is not None  # (checked)
    rules = game_rules(o.game)
    drawing.write(o.output, drawing.draw(rules, position_of(rules, o.position), None, None))


def draw_positions(o: RenderOptions) -> None:
    """``render --positions FILE --game G --out-dir DIR``: a diagram of each line."""
    _check_positions(o)
    checked_encoding(o.encoding)
    drawing = o.drawing()
    assert o.game is not None and o.positions is not None and o.out_dir is not None  # (checked)
    write_positions(drawing, game_rules(o.game), o.positions, o.out_dir)


def draw_plies(o: RenderOptions) -> None:
    """``render FILE [--ply N]``, ``render FILE --all --out-dir DIR``: one ply
    of a record (the last by default), or every one."""
    _check_record(o)
    checked_encoding(o.encoding)
    drawing = o.drawing()
    name, report, states = _replayed(o, drawing)
    if o.all_plies and o.out_dir is not None:  # (--all needs --out-dir)
        write_every_ply(drawing, states, o.out_dir, drawing.source or "-")
    else:
        write_ply(drawing, states, o.ply, o.output)
    _report_errors(name, report)


def draw_sheet(o: RenderOptions) -> None:
    """``render FILE --sheet --plies N,N… | --every N``: one game sheet."""
    _check_record(o)
    asked = None if o.plies is None else _ply_list(o.plies)
    checked_encoding(o.encoding)
    drawing = o.drawing()
    name, report, states = _replayed(o, drawing)
    write_sheet(drawing, states, report, plies_asked=asked, every=o.every,
                columns=DEFAULT_COLUMNS if o.columns is None else o.columns, output=o.output)
    _report_errors(name, report)


def _replayed(o: RenderOptions, drawing: "Drawing") -> "tuple[str, Any, Plies]":
    """Game ``--index`` of the record FILE (standard input by default), replayed."""
    if o.game is not None:
        game_rules(o.game)
    path = drawing.source = o.file or input_paths(None)[0]
    name, report = read_for_render(path, o.index or 1, o.encoding, o.game)
    states = Plies(report)
    if o.caption:
        states.caption_head = caption_head(states.rules, report.record.tags)
    return name, report, states


def _report_errors(name: str, report: Any) -> None:
    """The errors of a record that was drawn up to its first illegal move: exit 1."""
    if not report.valid:
        for problem in sorted_problems(report.problems):
            if problem.severity == "error":
                typer.echo(problem_line(name, problem), err=True)
        raise typer.Exit(1)
