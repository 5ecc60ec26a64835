"""Rendering to files, as ``mancala render`` does: :func:`render` draws a
position string, a ply of a record, every ply of it into a folder, a file of
position strings into a folder, a game sheet or a game page, and writes
them (to standard output, or atomically to files). ``docs/library.md``,
"Rendering to files", has the guide; :mod:`mancala_cli.drawing` draws
one picture in memory.

    >>> import os, tempfile
    >>> from mancala_cli import render
    >>> folder = os.path.join(tempfile.mkdtemp(), "diagrams")
    >>> done = render("examples/kingulu-village-match.pmn", all_plies=True, out_dir=folder)
    >>> len(done.written), done.written[0] == os.path.join(folder, "ply-000.svg"), done.problems
    (24, True, [])
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Optional, Union

from ..errors import RenderError
from ..positions import parse_position
from ..rules.game import InvalidPosition
from ..rules.registry import get_game
from .diagram_files import DEFAULT_SCALE, Drawing, read_style
from .settings import Rendered, RenderOptions, check_position, check_positions, checked_encoding

#: The formats :func:`render` writes.
FORMATS = ("svg", "text", "png", "html")


def render(file: Optional[str] = None, *, ply: Optional[int] = None, all_plies: bool = False,
           out_dir: Optional[str] = None, position: Optional[str] = None, positions: Optional[str] = None,
           game: Optional[str] = None, index: Optional[int] = None, flip: bool = False, format: str = "svg",
           style: Optional[str] = None, output: Optional[str] = None, encoding: Optional[str] = None,
           force: bool = False, scale: Optional[float] = None, sheet: bool = False,
           plies: Union[str, Sequence[int], None] = None, every: Optional[int] = None, columns: Optional[int] = None,
           caption: bool = False, report: Optional[Callable[[str], None]] = None) -> Rendered:
    """Draw and write what ``mancala render`` does, with its options by their
    long names (``all_plies`` is ``--all``): a record ``file`` (``None``:
    standard input, unless it is a terminal; ``-`` too), a ``position``
    string or a file of ``positions`` (with ``game``), ``format`` one of
    :data:`FORMATS`, written to ``output`` (``None`` or ``-``: standard
    output) or into the folder ``out_dir``. ``report`` is called with each
    problem line of the input as it is found (they are in the result's
    ``problems`` too).

    Returns what was written and removed (:class:`Rendered`); raises
    :class:`~mancala_cli.errors.RenderError` (its ``status``: 2 for options
    that do not go together and files that cannot be read or written, 1 for
    a record that cannot be drawn) or :class:`~mancala_cli.rules.registry.UnknownGame`,
    with the message ``mancala render`` prints, before anything is written
    where it can be."""
    if format not in FORMATS:
        raise RenderError(f"format must be one of {', '.join(FORMATS)} (got {format!r})")
    o = RenderOptions(file=file, ply=ply, all_plies=all_plies, out_dir=out_dir, position=position,
                      positions=positions, game=game, index=index, flip=flip, format=format, style=style,
                      output=output, encoding=encoding, force=force, scale=scale, sheet=sheet, plies=plies,
                      every=every, columns=columns, caption=caption)
    for option, value, what in (("--output", output, "file"), ("--out-dir", out_dir, "folder"),
                                ("--style", style, "file"), ("--positions", positions, "file")):
        if value == "":
            raise RenderError(f"{option}: empty {what} name")
    done = Rendered()

    def problem(line: str) -> None:
        done.problems.append(line)
        if report is not None:
            report(line)

    if format == "html":
        from .game_page import check_page, draw_page  # (the page, its scripts and styles: for html alone)

        check_page(o)
        done.written = draw_page(o, problem)
        return done
    if position is not None and positions is None:
        drawing = _position(o)
    else:
        from .records import check_plies, draw_plies, draw_positions, draw_sheet  # (what a position does without)

        if positions is not None:
            check_positions(o)
            drawing = _drawing(o)
            done.removed = draw_positions(o, drawing, problem)
        else:
            check_plies(o)
            drawing = _drawing(o)
            done.removed = (draw_sheet if sheet else draw_plies)(o, drawing, problem)
    done.written = drawing.written
    return done


def _drawing(o: RenderOptions) -> Drawing:
    """How each diagram is drawn and written (reads ``style``)."""
    return Drawing(o.format, o.flip, read_style(o.style), o.force,
                   scale=DEFAULT_SCALE if o.scale is None else o.scale, caption=o.caption)


def _position(o: RenderOptions) -> Drawing:
    """The diagram of a position string, written."""
    check_position(o)
    checked_encoding(o.codec)
    drawing = _drawing(o)
    assert o.game is not None and o.position is not None  # (checked)
    rules = get_game(o.game)
    try:
        pos = parse_position(rules, o.position)
    except InvalidPosition as error:
        raise RenderError(f"bad position for {rules.id}: {error}") from None
    drawing.write(o.output, drawing.draw(rules, pos, None, None))
    return drawing


__all__ = ["FORMATS", "render"]
