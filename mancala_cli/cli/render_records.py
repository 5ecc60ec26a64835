"""``render`` of records: a ply of a game (``--ply``, the last by default),
every ply (``--all``), a game sheet (``--sheet``) and a file of position
strings (``--positions``): the record read and replayed, each diagram
written through :class:`~.render_output.Drawing`. ``render`` loads this
module only for these (a position's diagram reads no record)."""
from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any, Optional

import typer

from notation.coords import format_move, move_label
from notation.errors import XMLArchiveError
from notation.record import GameRecord

from ..checking import Replay, replay
from ..diagrams.sheet import choose_plies, game_diagrams, header_line, sheet_svg
from ..diagrams.text import state_words
from ..files.batches import read_records
from ..files.reports import problem_line, sorted_problems
from ..files.sources import STDIN_NAME, InputError, numbered_lines, open_source
from ..positions import parse_position
from ..rules.core import Game, InvalidPosition, Move, Outcome, Position
from .options import checked_encoding, counted, fail, game_rules, input_paths
from .out_dir import make_out_dir, remove_stale
from .render_checks import check_positions, check_record, ply_list
from .render_output import Drawing, RenderOptions, caption_state

#: The boards in a row of a game sheet, unless told.
DEFAULT_COLUMNS = 3
#: The width of the line number in the names ``render --positions`` gives
#: (more digits from line 10,000 on).
POSITION_NAME_DIGITS = 4


def draw_records(o: RenderOptions) -> None:
    """What ``render`` draws of records: ``--positions``, a ``--sheet`` or plies."""
    if o.positions is not None:
        draw_positions(o)
    elif o.sheet:
        draw_sheet(o)
    else:
        draw_plies(o)


def draw_positions(o: RenderOptions) -> None:
    """``render --positions FILE --game G --out-dir DIR``: a diagram of each line."""
    check_positions(o)
    checked_encoding(o.encoding)
    drawing = o.drawing()
    assert o.game is not None and o.positions is not None and o.out_dir is not None  # (checked)
    write_positions(drawing, game_rules(o.game), o.positions, o.out_dir)


def draw_plies(o: RenderOptions) -> None:
    """``render FILE [--ply N]``, ``render FILE --all --out-dir DIR``: one ply
    of a record (the last by default), or every one."""
    check_record(o)
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
    check_record(o)
    asked = None if o.plies is None else ply_list(o.plies)
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
