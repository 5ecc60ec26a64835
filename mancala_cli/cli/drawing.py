"""How ``render`` draws and writes its diagrams (the options are checked in
:mod:`.render`): one diagram, one per ply of a record (``--all``), one per
line of position strings (``--positions``), and a game sheet."""
from __future__ import annotations

import dataclasses
import os
import re
import sys
from collections.abc import Iterator
from typing import Optional

import typer

from notation.coords import format_move, move_label
from notation.errors import XMLArchiveError
from notation.record import GameRecord

from ..checking import Replay, replay
from ..diagrams.png import svg_to_png
from ..diagrams.sheet import choose_plies, game_diagrams, header_line, sheet_svg
from ..diagrams.svg import board_svg
from ..diagrams.text import FROM_POSITION, FromPosition, board_text, outcome_of, state_words
from ..files.batches import read_records
from ..files.output import atomic_output, names_input
from ..files.reports import problem_line
from ..files.sources import STDIN_NAME, InputError, numbered_lines, open_source
from ..positions import parse_position
from ..rules.core import Game, InvalidPosition, Move, Outcome, Position, side_name
from .options import counted, fail
from .out_dir import make_out_dir, remove_stale

#: PNG pixels per SVG unit, unless told.
DEFAULT_SCALE = 2.0
#: The longest ``--style`` file read, in bytes.
MAX_STYLE = 1 << 20
#: The width of the line number in the names ``render --positions`` gives
#: (more digits from line 10,000 on).
POSITION_NAME_DIGITS = 4


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


def caption_state(pos: Position, over: Optional[Outcome]) -> str:
    """``North to move``, or ``game over`` (the result strip below the board gives the result)."""
    return "game over" if over is not None else f"{side_name(pos.side)} to move"


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


def read_for_render(path: str, index: int, encoding: str, game: Optional[str]) -> tuple[str, Replay]:
    """Game ``index`` of ``path`` replayed: the name problems give the file,
    and the replay (exit 1 when the record cannot be drawn at all)."""
    try:
        record = None
        count = 0  # the games of the file, when it has no game number index
        for count, candidate in enumerate(read_input(path, encoding), 1):
            if count == index:
                record = candidate
                break
    except (InputError, XMLArchiveError) as error:
        fail(str(error))
    name = STDIN_NAME if path == "-" else path  # as validate names it
    if record is None:
        fail(f"{name}: has no game number {index} (it has {counted(count, 'game')})")
    report = replay(record, game)
    if report.game is None or report.start is None:
        problem = next(p for p in report.problems if p.severity == "error")
        fail(problem_line(name, problem), 1)
    return name, report


class Plies:
    """The positions of a replayed record, ply 0 (the start) first, with the
    move that led to each and the title of its diagram."""

    def __init__(self, report: Replay) -> None:
        assert report.game is not None and report.start is not None  # (checked by read_for_render)
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
        return [*self.caption_head, f"{where}, {caption_state(pos, self.outcome_at(k))}"]

    def draw(self, drawing: Drawing, k: int) -> str:
        pos, last = self.states[k]
        return drawing.draw(self.rules, pos, last, self.title(k), self.outcome_at(k), self.caption(k))


def caption_head(rules: Game, tags: list[tuple[str, str]]) -> list[str]:
    """A caption's first line: the game, the players, event, site, date and round."""
    return [header_line(rules, [(name, value) for name, value in tags
                                if name in ("South", "North", "Event", "Site", "Date", "Round")])]


def write_ply(drawing: Drawing, plies: Plies, ply: Optional[int], output: Optional[str]) -> None:
    """``render [--ply N]``: the diagram of one ply (the last by default)."""
    last = len(plies.states) - 1
    k = last if ply is None else ply
    if k > last:
        fail(f"the record has {last} playable moves, no ply {k}")
    drawing.write(output, plies.draw(drawing, k))


def write_every_ply(drawing: Drawing, plies: Plies, out_dir: str, path: str) -> None:
    """``render --all --out-dir DIR``: ``ply-000.svg`` … for every position,
    then the diagrams of an earlier run that this one did not write removed."""
    make_out_dir(out_dir)
    suffix = drawing.suffix
    width = max(3, len(str(len(plies.states) - 1)))
    written = set()
    for k in range(len(plies.states)):
        name = f"ply-{k:0{width}d}.{suffix}"
        drawing.write(os.path.join(out_dir, name), plies.draw(drawing, k))
        written.add(name)
    # Diagrams of an earlier run (a longer game, the other format) would
    # pass for this game's: remove them, now that every new one is written.
    remove_stale(out_dir, rf"ply-[0-9]{{3,}}\.{drawing.stale}", written.__contains__, path)


def write_sheet(drawing: Drawing, plies: Plies, report: Replay, *, plies_asked: Optional[list[int]],
                every: Optional[int], columns: int, output: Optional[str]) -> None:
    """``render FILE --sheet``: the chosen plies in one game sheet."""
    last = len(plies.states) - 1
    try:
        chosen = choose_plies(last, plies=plies_asked, every=every)
    except ValueError as error:
        fail(str(error))
    assert report.start is not None  # (checked by read_for_render)
    diagrams = game_diagrams(plies.rules, report.start, [pos for pos, _ in plies.states[1:]], report.moves,
                             chosen, outcome=plies.outcome)
    drawing.write(output, sheet_svg(plies.rules, diagrams, header=header_line(plies.rules, report.record.tags),
                                    columns=columns, flip=drawing.flip, style=drawing.css))


def write_positions(drawing: Drawing, rules: Game, path: str, out_dir: str) -> None:
    """``render --positions FILE --out-dir DIR``: the diagram of the position
    string on line N in ``pos-000N.svg`` (blank lines skipped), one at a time;
    a line that is no position of ``rules`` is reported and drawn nowhere
    (exit 1 once the others are drawn). Then the diagrams of an earlier run
    that this one did not write are removed."""
    suffix = drawing.suffix
    drawn = LineNumbers()
    bad = 0
    try:
        with open_source(path) as source:
            drawing.source = path
            make_out_dir(out_dir)
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
    remove_stale(out_dir, rf"pos-[0-9]{{4,}}\.{drawing.stale}", kept, path)
    if bad:
        raise typer.Exit(1)


class LineNumbers:
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


def read_input(path: str, encoding: str) -> Iterator[GameRecord]:
    """Every record of one input, numbered, with the decoding problems attached
    to the records whose lines they fall on. Raises InputError or XMLArchiveError."""
    with open_source(path, encoding) as source:
        yield from read_records(source)


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
