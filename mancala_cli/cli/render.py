"""``mancala render``: its options. It draws a diagram (of ``--position``,
or of a ply of a record), many diagrams (``--positions``, or ``--all`` the
plies of a record), a game sheet (``--sheet``), and a game page
(``--format html``); an image (``--format png``) is one of the first three
rasterised. The library's :func:`mancala_cli.rendering.render` checks the
options, draws and writes them; this module reads the command line, and
turns its errors into one line and an exit status.
"""
# (No ``from __future__ import annotations``: typer reads the command's
# signature at every start, and annotations given as strings would each be
# compiled and evaluated then.)

import os
import re
from typing import Any, Optional

import typer

from ..diagrams.png import MAX_SCALE, MIN_SCALE
from ..errors import RenderError
from ..rendering import render as draw
from ..rules.registry import UnknownGame
from .options import (
    ENCODING_OPTION,
    GAME_COMPLETION,
    choice_option,
    fail,
    int_option,
    output_file,
)
from .output_formats import DRAWING_EXTENSIONS, output_format
from .typer_adapter import given_on_command_line
from .values import usage_error


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


def _check_output_name(output: str) -> None:
    """``-o x.pdf`` without ``--format``: a name whose extension is no format
    ``render`` writes is a usage error, not an SVG under that name. (A name
    without an extension gets SVG; ``--format`` names the format of any name.)"""
    extension = os.path.splitext(output)[1]
    if len(extension) > 1 and extension.lower() not in DRAWING_EXTENSIONS:
        fail(f"-o {output}: render writes .svg, .txt, .png or .html files, not {extension} "
             f"(give --format to write one under this name)")


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
    output: Optional[str] = typer.Option(None, "--output", "-o", parser=output_file("--output"), metavar="FILE", help="Write here (atomically) instead of stdout."),
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
    if format is None and output is not None:
        _check_output_name(output)
    format = output_format(format, output, DRAWING_EXTENSIONS, option="--format", default="svg")
    # (None: the default, not given; --position refuses an --encoding given)
    asked = None if encoding == "utf-8" and not given_on_command_line("encoding") else encoding
    try:
        done = draw(file, ply=ply, all_plies=all_plies, out_dir=out_dir, position=position, positions=positions,
                    game=game, index=index, flip=flip, format=format, style=style, output=output, encoding=asked,
                    force=force, scale=scale, sheet=sheet, plies=plies, every=every, columns=columns,
                    caption=caption, report=lambda line: typer.echo(line, err=True))
    except RenderError as error:
        fail(str(error), error.status)
    except UnknownGame as error:
        fail(str(error))
    if done.problems:
        raise typer.Exit(1)
