"""What :func:`~mancala_cli.rendering.render` is asked to draw
(:class:`RenderOptions`), what it did (:class:`Rendered`), and the checks
of the options, each a :class:`~mancala_cli.errors.RenderError` in one line
before anything is read.

The checks keep one order of precedence whatever is drawn: what the thing
drawn needs and does not go with, then the style, PNG and sheet options,
then ``caption``, the plies and the encoding, so that the first mistake is
the one reported. The messages name the options as ``mancala render`` has
them (``all_plies`` is ``--all``, ``out_dir`` is ``--out-dir``)."""
from __future__ import annotations

import codecs
import dataclasses
import sys
from collections.abc import Sequence
from typing import Optional, Union

from ..errors import PngUnavailable, RenderError
from ..files import InputError
from ..files.encodings import check_encoding


@dataclasses.dataclass(frozen=True, slots=True)
class RenderOptions:
    """The options of one render, as given (see :func:`~mancala_cli.rendering.render`)."""

    file: Optional[str]
    ply: Optional[int]
    all_plies: bool
    out_dir: Optional[str]
    position: Optional[str]
    positions: Optional[str]
    game: Optional[str]
    index: Optional[int]
    flip: bool
    format: str
    style: Optional[str]
    output: Optional[str]
    encoding: Optional[str]  # (None: UTF-8, not asked for)
    force: bool
    scale: Optional[float]
    sheet: bool
    plies: Union[str, Sequence[int], None]
    every: Optional[int]
    columns: Optional[int]
    caption: bool

    @property
    def codec(self) -> str:
        """The encoding records are read in."""
        return self.encoding or "utf-8"


@dataclasses.dataclass
class Rendered:
    """What a render did: the files ``written`` (``-`` for standard output),
    in order; the earlier diagrams of ``out_dir`` it ``removed``; and the
    ``problems`` of its input, one line each (a record drawn up to its first
    illegal move, a bad line of position strings): ``mancala render`` exits
    with status 1 when there are any."""

    written: list[str] = dataclasses.field(default_factory=list)
    removed: list[str] = dataclasses.field(default_factory=list)
    problems: list[str] = dataclasses.field(default_factory=list)


def checked_encoding(name: str) -> None:
    """An encoding records can be read in (an unknown name is reported when the file is read)."""
    if name == "utf-8":
        return
    try:
        check_encoding(name)
    except LookupError:
        pass
    except InputError as error:
        raise RenderError(str(error)) from None


def check_position(o: RenderOptions) -> None:
    """``position``: a position string of ``game``, one diagram. The options
    of a record (``index``, ``encoding``, ``force``) do not go with it: none
    is silently ignored."""
    if o.file is not None:
        raise RenderError("give a record FILE or --position, not both")
    if o.game is None:
        raise RenderError("--position needs --game")
    if o.all_plies or o.ply is not None:
        raise RenderError("--all and --ply need a record, not --position")
    if o.out_dir is not None:
        raise RenderError("--out-dir needs --all or --positions")
    if o.index is not None:
        raise RenderError("--index picks a game of a record, not of --position")
    if o.encoding is not None:
        raise RenderError("--encoding is for records: --position is read as given")
    if o.force:
        raise RenderError("--force writes over the input file: --position has none")
    check_picture(o)


def check_positions(o: RenderOptions) -> None:
    """``positions``: a file of position strings of ``game``, one diagram a
    line into ``out_dir``."""
    if o.game is None:
        raise RenderError("--positions needs --game")
    if o.file is not None:
        raise RenderError("give a record FILE or --positions, not both")
    if o.position is not None:
        raise RenderError("give --position or --positions, not both")
    if o.all_plies or o.ply is not None:
        raise RenderError("--all and --ply need a record, not --positions")
    if o.index is not None:
        raise RenderError("--index picks a game of a record, not of --positions")
    if o.output is not None:
        raise RenderError("--positions writes into --out-dir: give --positions or -o, not both")
    if o.out_dir is None:
        raise RenderError("--positions needs --out-dir")
    try:
        utf8 = codecs.lookup(o.codec).name == "utf-8"
    except LookupError:
        utf8 = False
    if not utf8:
        raise RenderError("--positions reads UTF-8: --encoding is for records")
    check_picture(o)


def check_record(o: RenderOptions) -> None:
    """A record's plies: one (``ply``, the last by default), all of them
    into ``out_dir`` (``all_plies``), or a ``sheet``."""
    if o.out_dir is not None and not o.all_plies:
        raise RenderError("--out-dir needs --all or --positions")
    if o.all_plies:
        if o.out_dir is None:
            raise RenderError("--all needs --out-dir")
        if o.ply is not None:
            raise RenderError("--all draws every ply: give --all or --ply, not both")
        if o.output is not None:
            raise RenderError("--all writes into --out-dir: give --all or -o, not both")
    check_picture(o)


def check_picture(o: RenderOptions) -> None:
    """What every diagram and sheet checks after what it needs: the style
    (not of a text board), the sheet's options, the image's, the caption."""
    if o.style is not None and o.format == "text":
        raise RenderError("--style styles SVG diagrams: it does not go with --format text")
    if o.scale is not None and o.format != "png":
        raise RenderError("--scale sizes PNG images: it needs --format png")
    check_sheet(o)
    if o.format == "png":
        check_image(o)
    if o.caption and o.format == "text":
        raise RenderError("--caption captions SVG and PNG diagrams: a text board names the game and the move already")
    if o.caption and o.sheet:
        raise RenderError("--caption captions one diagram: a --sheet has its header and captions already")


def check_sheet(o: RenderOptions) -> None:
    """``plies``, ``every`` and ``columns`` are a ``sheet``'s, which draws
    plies of a record as SVG or PNG."""
    if not o.sheet:
        for option, value in (("--plies", o.plies), ("--every", o.every), ("--columns", o.columns)):
            if value is not None:
                raise RenderError(f"{option} needs --sheet")
        return
    if o.plies is None and o.every is None:
        raise RenderError("--sheet needs --plies or --every")
    if o.plies is not None and o.every is not None:
        raise RenderError("give --plies or --every, not both")
    for option, given in (("--position", o.position is not None), ("--positions", o.positions is not None),
                          ("--all", o.all_plies), ("--ply", o.ply is not None)):
        if given:
            raise RenderError(f"--sheet draws plies of a record: it does not go with {option}")
    if o.format == "text":
        raise RenderError("--sheet draws SVG or PNG: it does not go with --format text")


def check_image(o: RenderOptions) -> None:
    """PNG needs its extra, and is never written to a terminal."""
    try:
        import resvg_py  # noqa: F401  (the png extra)
    except ImportError:
        raise RenderError(str(PngUnavailable())) from None
    if (o.output is None or o.output == "-") and not o.all_plies and o.positions is None and stdout_is_terminal():
        raise RenderError("PNG is binary: not written to a terminal (give -o FILE or redirect standard output)")


def stdout_is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def ply_list(plies: Union[str, Sequence[int]]) -> list[int]:
    """The plies of a sheet: numbers, or a text of them with a comma between (``0,10,20``)."""
    if not isinstance(plies, str):
        return list(plies)
    parts = [part.strip() for part in plies.split(",")]
    if not all(part.isascii() and part.isdigit() and len(part) <= 9 for part in parts):
        raise RenderError(f"--plies must be ply numbers with a comma between, like 0,10,20 (got {plies!r})")
    return [int(part) for part in parts]


def record_path(file: Optional[str]) -> str:
    """The record to read: ``file``, or standard input (``-``) when it is not a terminal."""
    if file is not None:
        return file
    if sys.stdin is None or sys.stdin.isatty() or not hasattr(sys.stdin, "buffer"):
        raise RenderError("no input: give a file, or '-' to read standard input")
    return "-"
