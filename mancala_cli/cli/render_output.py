"""How ``render`` draws and writes its diagrams (the options are checked in
:mod:`.render`): one diagram, one per ply of a record (``--all``), one per
line of position strings (``--positions``), and a game sheet."""
from __future__ import annotations

import dataclasses
import re
import sys
from typing import Optional

from ..diagrams.png import svg_to_png
from ..diagrams.svg import board_svg
from ..diagrams.text import FROM_POSITION, FromPosition, board_text, caption_state, outcome_of
from ..files import InputError
from ..files.output import atomic_output, names_input
from ..rules.game import Game, Move, Outcome
from ..rules.position import Position
from .options import fail

#: PNG pixels per SVG unit, unless told.
DEFAULT_SCALE = 2.0
#: The longest ``--style`` file read, in bytes.
MAX_STYLE = 1 << 20


def read_style(style: Optional[str]) -> Optional[str]:
    """The CSS of ``--style`` (UTF-8, line ends made ``\\n``), or ``None``: at
    most :data:`MAX_STYLE` bytes of characters an SVG (XML) can hold."""
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


class Drawing:
    """How ``render`` draws and writes a diagram: the options every diagram
    shares (a plain class: start-up counts, and a dataclass costs some)."""

    def __init__(self, format: str, flip: bool, css: Optional[str], force: bool, source: Optional[str] = None,
                 scale: float = DEFAULT_SCALE, caption: bool = False) -> None:
        self.format = format
        self.flip = flip
        self.css = css
        self.force = force
        self.source = source  # the record file, once known
        self.scale = scale  # PNG pixels per SVG unit
        self.caption = caption  # --caption: lines above each SVG or PNG diagram

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
             outcome: Optional[Outcome] | FromPosition = FROM_POSITION,
             caption: Optional[list[str]] = None) -> str:
        if self.format == "text":
            return board_text(rules, pos, last_move=last, flip=self.flip, outcome=outcome) + "\n"
        if self.caption and caption is None:  # a position without a record: the game and the move
            over = outcome_of(rules, pos, outcome)
            caption = [rules.name, f"Move {pos.move_number}, {caption_state(pos, over)}"]
        return board_svg(rules, pos, last_move=last, flip=self.flip, title=title, style=self.css, outcome=outcome,
                         caption=caption if self.caption else None, legend=self.caption)

    def write(self, path: Optional[str], text: str) -> None:
        """Write a drawing (rasterised first for ``--format png``): to
        standard output, or atomically to a file."""
        to_stdout = path is None or path == "-"
        if not to_stdout and not self.force and self.source is not None:
            if names_input(path, [self.source]):
                fail(f"{path}: is the input file; not replaced (--force replaces it)")
        data: str | bytes = text
        if self.format == "png":
            try:
                data = svg_to_png(text, scale=self.scale)
            except ValueError as error:
                fail(f"cannot draw the PNG image: {error}")
        if to_stdout:  # (flushed here, as for any output of a command)
            stream = sys.stdout.buffer if isinstance(data, bytes) else sys.stdout
            stream.write(data)  # type: ignore[arg-type]
            stream.flush()
            return

        try:
            with atomic_output(path, binary=isinstance(data, bytes)) as stream:
                stream.write(data)
        except InputError as error:
            fail(str(error))


@dataclasses.dataclass(frozen=True, slots=True)
class RenderOptions:
    """The options of one ``render`` command line, as given."""

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
    encoding: str
    force: bool
    scale: Optional[float]
    sheet: bool
    plies: Optional[str]
    every: Optional[int]
    columns: Optional[int]
    caption: bool

    def drawing(self) -> Drawing:
        """How each diagram is drawn and written (reads ``--style``)."""
        return Drawing(self.format, self.flip, read_style(self.style), self.force,
                       scale=DEFAULT_SCALE if self.scale is None else self.scale, caption=self.caption)
