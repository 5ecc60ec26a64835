"""``render`` of records: a ply of a game (``--ply``, the last by default),
every ply (``--all``), a game sheet (``--sheet``) and a file of position
strings (``--positions``): the record read and replayed, its plies'
titles and captions from :class:`~mancala_cli.diagrams.plies.Plies`, each
diagram written through :class:`~.render_output.Drawing`. ``render`` loads
this module only for these (a position's diagram reads no record)."""
from __future__ import annotations

import os

import typer

from notation.notation_errors import XMLArchiveError

from ..checking import Replay, replay
from ..diagrams.plies import Plies
from ..diagrams.sheet import DEFAULT_COLUMNS, sheet_svg
from ..files import InputError
from ..files.batches import NoSuchGame, read_game_number
from ..files.reports import counted, error_lines, problem_line
from ..files.sources import STDIN_NAME, LineNumbers, numbered_lines, open_source
from ..positions import position_lines
from .options import checked_encoding, fail, game_rules, input_paths
from .out_dir import make_out_dir, remove_stale
from .render_checks import check_positions, check_record, ply_list
from .render_output import Drawing, RenderOptions

#: The width of the line number in the names ``render --positions`` gives
#: (more digits from line 10,000 on).
POSITION_NAME_DIGITS = 4


def draw_plies(o: RenderOptions) -> None:
    """``render FILE [--ply N]``, ``render FILE --all --out-dir DIR``: one ply
    of a record (the last by default), or every one."""
    check_record(o)
    checked_encoding(o.encoding)
    drawing = o.drawing()
    name, report, plies = _replayed(o, drawing)
    if o.all_plies and o.out_dir is not None:  # (--all needs --out-dir)
        write_every_ply(drawing, plies, o.out_dir, drawing.source or "-")
    else:
        k = plies.last if o.ply is None else o.ply
        if k > plies.last:
            fail(f"the record has {counted(plies.last, 'playable move')}, no ply {k}")
        drawing.write(o.output, _draw(drawing, plies, k))
    _report_errors(name, report)


def draw_sheet(o: RenderOptions) -> None:
    """``render FILE --sheet --plies N,N… | --every N``: one game sheet of
    the chosen plies."""
    check_record(o)
    asked = None if o.plies is None else ply_list(o.plies)
    checked_encoding(o.encoding)
    drawing = o.drawing()
    name, report, plies = _replayed(o, drawing)
    try:
        diagrams = plies.sheet_diagrams(plies=asked, every=o.every)
    except ValueError as error:
        fail(str(error))
    drawing.write(o.output, sheet_svg(plies.rules, diagrams, header=plies.header, flip=drawing.flip, style=drawing.css,
                                      columns=DEFAULT_COLUMNS if o.columns is None else o.columns))
    _report_errors(name, report)


def _replayed(o: RenderOptions, drawing: Drawing) -> tuple[str, Replay, Plies]:
    """Game ``--index`` of the record FILE (standard input by default),
    replayed: the name problems give the file, the replay and its plies
    (exit 1 when the record cannot be drawn at all)."""
    if o.game is not None:
        game_rules(o.game)
    path = drawing.source = o.file or input_paths(None)[0]
    try:
        record = read_game_number(path, o.index or 1, o.encoding)
    except (InputError, XMLArchiveError, NoSuchGame) as error:
        fail(str(error))
    name = STDIN_NAME if path == "-" else path  # as validate names it
    report = replay(record, o.game)
    if report.game is None or report.start is None:
        fail(problem_line(name, report.stopped_by), 1)
    return name, report, Plies.of(report, caption=o.caption)


def _report_errors(name: str, report: Replay) -> None:
    """The errors of a record that was drawn up to its first illegal move: exit 1."""
    if not report.valid:
        for line in error_lines(name, report.problems):
            typer.echo(line, err=True)
        raise typer.Exit(1)


def _draw(drawing: Drawing, plies: Plies, k: int) -> str:
    """The diagram of ply ``k``, with its title and caption."""
    pos, last = plies.states[k]
    return drawing.draw(plies.rules, pos, last, plies.title(k), plies.outcome_at(k), plies.caption(k))


def write_every_ply(drawing: Drawing, plies: Plies, out_dir: str, path: str) -> None:
    """``render --all --out-dir DIR``: ``ply-000.svg`` … for every position,
    then the diagrams of an earlier run that this one did not write removed."""
    make_out_dir(out_dir)
    width = max(3, len(str(plies.last)))
    written = set()
    for k in range(plies.last + 1):
        name = f"ply-{k:0{width}d}.{drawing.suffix}"
        drawing.write(os.path.join(out_dir, name), _draw(drawing, plies, k))
        written.add(name)
    # Diagrams of an earlier run (a longer game, the other format) would
    # pass for this game's: remove them, now that every new one is written.
    remove_stale(out_dir, rf"ply-[0-9]{{3,}}\.{drawing.stale}", written.__contains__, path)


def draw_positions(o: RenderOptions) -> None:
    """``render --positions FILE --game G --out-dir DIR``: the diagram of the
    position string on line N in ``pos-000N.svg`` (blank lines skipped), one
    at a time; a line that is no position of the game is reported and drawn
    nowhere (exit 1 once the others are drawn). Then the diagrams of an
    earlier run that this one did not write are removed."""
    check_positions(o)
    checked_encoding(o.encoding)
    drawing = o.drawing()
    assert o.game is not None and o.positions is not None and o.out_dir is not None  # (checked)
    rules, path, out_dir = game_rules(o.game), o.positions, o.out_dir
    suffix = drawing.suffix
    drawn = LineNumbers()
    bad = 0
    try:
        with open_source(path) as source:
            drawing.source = path
            make_out_dir(out_dir)
            for number, pos, why in position_lines(rules, numbered_lines(source)):
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
