"""A render of records: a ply of a game (``ply``, the last by default),
every ply (``all_plies``), a game sheet (``sheet``) and a file of position
strings (``positions``): the record read and replayed, its plies' titles
and captions from :class:`~mancala_cli.diagrams.plies.Plies`, each diagram
written through :class:`~.diagram_files.Drawing`. A position's diagram
reads no record, and loads none of this."""
from __future__ import annotations

import os
from collections.abc import Callable

from notation.notation_errors import XMLArchiveError

from ..checking import Replay, replay
from ..diagrams.plies import Plies
from ..diagrams.sheet import DEFAULT_COLUMNS, sheet_svg
from ..errors import RenderError
from ..files import InputError
from ..files.batches import NoSuchGame, read_game_number
from ..files.reports import counted, error_lines, problem_line
from ..files.sources import STDIN_NAME, check_text, numbered_lines, open_source
from ..positions import position_lines
from ..rules.registry import get_game
from .diagram_files import DiagramFolder, Drawing
from .settings import RenderOptions, check_record, checked_encoding, ply_list, record_path

#: The width of the line number in the names of the diagrams of ``positions``
#: (more digits from line 10,000 on).
POSITION_NAME_DIGITS = 4
#: Bad lines of ``positions`` told one by one; one more line says that there
#: are more (they are still counted).
MAX_BAD_LINES = 100

Report = Callable[[str], None]


def draw_plies(o: RenderOptions, drawing: Drawing, report: Report) -> list[str]:
    """One ply of a record (the last by default), or every one into
    ``out_dir``; the diagrams removed."""
    name, replayed, plies = _replayed(o, drawing)
    removed = []
    if o.all_plies and o.out_dir is not None:  # (all_plies needs out_dir)
        removed = write_every_ply(drawing, plies, o.out_dir)
    else:
        k = plies.last if o.ply is None else o.ply
        if k > plies.last:
            raise RenderError(f"the record has {counted(plies.last, 'playable move')}, no ply {k}")
        drawing.write(o.output, _draw(drawing, plies, k))
    _report_errors(name, replayed, report)
    return removed


def draw_sheet(o: RenderOptions, drawing: Drawing, report: Report) -> list[str]:
    """One game sheet of the chosen plies."""
    name, replayed, plies = _replayed(o, drawing)
    try:
        diagrams = plies.sheet_diagrams(plies=None if o.plies is None else ply_list(o.plies), every=o.every)
    except ValueError as error:
        raise RenderError(str(error)) from None
    drawing.write(o.output, sheet_svg(plies.rules, diagrams, header=plies.header, flip=drawing.flip,
                                      style=drawing.css, columns=DEFAULT_COLUMNS if o.columns is None else o.columns))
    _report_errors(name, replayed, report)
    return []


def check_plies(o: RenderOptions) -> None:
    """The checks of a record's plies and sheet, then of the sheet's plies and the encoding."""
    check_record(o)
    if o.sheet and o.plies is not None:
        ply_list(o.plies)
    checked_encoding(o.codec)


def _replayed(o: RenderOptions, drawing: Drawing) -> tuple[str, Replay, Plies]:
    """Game ``index`` of the record (standard input by default), replayed:
    the name problems give the file, the replay and its plies (status 1 when
    the record cannot be drawn at all)."""
    if o.game is not None:
        get_game(o.game)
    path = drawing.source = record_path(o.file)
    try:
        record = read_game_number(path, o.index or 1, o.codec)
    except (InputError, XMLArchiveError, NoSuchGame) as error:
        raise RenderError(str(error)) from None
    name = STDIN_NAME if path == "-" else path  # as validate names it
    replayed = replay(record, o.game)
    if replayed.game is None or replayed.start is None:
        raise RenderError(problem_line(name, replayed.stopped_by), 1)
    return name, replayed, Plies.of(replayed, caption=o.caption)


def _report_errors(name: str, replayed: Replay, report: Report) -> None:
    """The errors of a record that was drawn up to its first illegal move."""
    if not replayed.valid:
        for line in error_lines(name, replayed.problems):
            report(line)


def _draw(drawing: Drawing, plies: Plies, k: int) -> str:
    """The diagram of ply ``k``, with its title and caption."""
    pos, last = plies.states[k]
    return drawing.draw(plies.rules, pos, last, plies.title(k), plies.outcome_at(k), plies.caption(k))


def write_every_ply(drawing: Drawing, plies: Plies, out_dir: str) -> list[str]:
    """``ply-000.svg`` … for every position, then the diagrams of an earlier
    render that this one did not write removed; the names removed."""
    folder = DiagramFolder(out_dir, "ply-")
    width = max(3, len(str(plies.last)))
    for k in range(plies.last + 1):
        name = f"ply-{k:0{width}d}.{drawing.suffix}"
        drawing.write(folder.path(name), _draw(drawing, plies, k))
        folder.added(name)
    return folder.finish(drawing.source)


def draw_positions(o: RenderOptions, drawing: Drawing, report: Report) -> list[str]:
    """The diagram of the position string on line N of ``positions`` in
    ``pos-000N.svg`` (blank lines skipped), one at a time; a line that is no
    position of the game is reported and drawn nowhere. Then the diagrams of
    an earlier render that this one did not write are removed; the names removed."""
    assert o.game is not None and o.positions is not None and o.out_dir is not None  # (checked)
    rules, path = get_game(o.game), o.positions
    bad = 0
    try:
        with open_source(path) as source:
            drawing.source = path
            check_text(source, "position strings")
            folder = DiagramFolder(o.out_dir, "pos-")
            for number, pos, why in position_lines(rules, numbered_lines(source)):
                if pos is None:
                    bad += 1
                    if bad <= MAX_BAD_LINES:
                        report(f"{source.name}:{number}: error: {why}")
                    elif bad == MAX_BAD_LINES + 1:
                        report(f"{source.name}:{number}: error: more than {MAX_BAD_LINES} bad lines; "
                               "the others are not reported")
                    continue
                name = f"pos-{number:0{POSITION_NAME_DIGITS}d}.{drawing.suffix}"
                drawing.write(os.path.join(o.out_dir, name), drawing.draw(rules, pos, None, None))
                folder.added(name)
    except InputError as error:
        raise RenderError(str(error)) from None
    return folder.finish(path)

