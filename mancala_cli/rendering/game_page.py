"""A render as HTML: the game page of a record's games
(:mod:`mancala_cli.diagrams.page`), with its checks of the options."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from notation.notation_errors import XMLArchiveError

from ..diagrams.page import PageTooLarge, check_page_budget, game_page, record_positions, record_text
from ..errors import RenderError
from ..files import InputError
from ..files.batches import NoSuchGame, read_input
from ..files.reports import error_lines
from ..files.sources import STDIN_NAME
from ..rules.registry import get_game
from .diagram_files import Drawing
from .settings import RenderOptions, checked_encoding, record_path


def check_page(o: RenderOptions) -> None:
    """HTML draws a whole record: the options of one diagram, of an image
    and of a sheet do not go with it."""
    if o.caption:
        raise RenderError("--caption does not go with --format html (the page names the game and the move)")
    for given, option in ((o.ply is not None, "--ply"), (o.all_plies, "--all"), (o.out_dir is not None, "--out-dir"),
                          (o.position is not None, "--position"), (o.positions is not None, "--positions"),
                          (o.style is not None, "--style"), (o.scale is not None, "--scale"), (o.sheet, "--sheet"),
                          (o.plies is not None, "--plies"), (o.every is not None, "--every"),
                          (o.columns is not None, "--columns")):
        if given:
            raise RenderError(f"{option} does not go with --format html (the page holds every position of the game)")
    checked_encoding(o.codec)


def draw_page(o: RenderOptions, report: Callable[[str], None]) -> list[str]:
    """The game page of every game of the record (a chooser when there are
    several), or of game ``index``, written; then the errors of the games
    reported. A game that cannot be replayed at all is left out (its error
    reported); none left: no page. The files written."""
    if o.game is not None:
        get_game(o.game)
    path = record_path(o.file)
    name = STDIN_NAME if path == "-" else path
    numbered = _page_records(path, name, o)
    page = game_page((record for _, record in numbered), default_game=o.game, flip=o.flip,
                     numbers=[k for k, _ in numbered])
    found = list(page.unplayable)
    for page_game in page.games:
        found += page_game.report.problems
    drawing = Drawing("html", o.flip, None, o.force, source=path)
    if page.games:
        drawing.write(o.output, page.html)
    for line in error_lines(name, found):
        report(line)
    return drawing.written


def _page_records(path: str, name: str, o: RenderOptions) -> list[tuple[int, Any]]:
    """The records of the page, numbered as in the file: all, or game ``index``."""
    index = o.index
    records: list[tuple[int, Any]] = []
    total = text = 0
    count = 0  # the games of the file read so far
    try:
        for k, record in enumerate(read_input(path, o.codec), 1):
            count = k
            if index is not None and k != index:
                continue
            # Counted as read, before any is played: an archive too large for one page stops here.
            total += record_positions(record)
            text += record_text(record)
            try:
                check_page_budget(k, total, text, not records)
            except PageTooLarge as error:
                one = "" if index is not None else ": give --index N for the page of one game"
                raise RenderError(f"{name}: {error}{one}") from None
            records.append((k, record))
            if index is not None:
                break
    except (InputError, XMLArchiveError) as error:
        raise RenderError(str(error)) from None
    if not records:
        raise RenderError(str(NoSuchGame(name, index, count)) if index is not None else f"{name}: has no game")
    return records
