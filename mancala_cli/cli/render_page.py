"""``mancala render --format html``: the game page of a record's games
(:mod:`mancala_cli.diagrams.page`), with its checks of the options."""
# (No ``from __future__ import annotations``, as in the other command modules.)

from typing import Any

import typer

from notation.notation_errors import XMLArchiveError

from ..diagrams.page import PageTooLarge, check_page_budget, game_page, record_positions, record_text
from ..files import InputError
from ..files.batches import NoSuchGame, read_input
from ..files.reports import error_lines
from ..files.sources import STDIN_NAME
from .options import checked_encoding, fail, game_rules, input_paths
from .render_output import Drawing, RenderOptions


def _check_page(o: RenderOptions) -> None:
    """``--format html`` draws a whole record: the options of one diagram, of
    an image and of a sheet do not go with it."""
    if o.caption:
        fail("--caption does not go with --format html (the page names the game and the move)")
    for given, option in ((o.ply is not None, "--ply"), (o.all_plies, "--all"), (o.out_dir is not None, "--out-dir"),
                          (o.position is not None, "--position"), (o.positions is not None, "--positions"),
                          (o.style is not None, "--style"), (o.scale is not None, "--scale"), (o.sheet, "--sheet"),
                          (o.plies is not None, "--plies"), (o.every is not None, "--every"),
                          (o.columns is not None, "--columns")):
        if given:
            fail(f"{option} does not go with --format html (the page holds every position of the game)")
    checked_encoding(o.encoding)


def draw_page(o: RenderOptions) -> None:
    """``render --format html``: the game page of every game of FILE (a chooser
    when there are several), or of game ``--index``; then the errors of the
    games, exit 1 if any. A game that cannot be replayed at all is left out
    (its error reported); none left: no page, exit 1."""
    _check_page(o)
    if o.game is not None:
        game_rules(o.game)
    path = o.file or input_paths(None)[0]
    name = STDIN_NAME if path == "-" else path
    numbered = _page_records(path, name, o)
    page = game_page((record for _, record in numbered), default_game=o.game, flip=o.flip,
                     numbers=[k for k, _ in numbered])
    found = list(page.unplayable)
    for page_game in page.games:
        found += page_game.report.problems
    errors = error_lines(name, found)
    if page.games:
        Drawing("html", o.flip, None, o.force, source=path).write(o.output, page.html)
    for line in errors:
        typer.echo(line, err=True)
    if errors:
        raise typer.Exit(1)


def _page_records(path: str, name: str, o: RenderOptions) -> list[tuple[int, Any]]:
    """The records of the page, numbered as in the file: all, or game ``--index``."""
    index = o.index
    records: list[tuple[int, Any]] = []
    total = text = 0
    count = 0  # the games of the file read so far
    try:
        for k, record in enumerate(read_input(path, o.encoding), 1):
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
                fail(f"{name}: {error}{one}")
            records.append((k, record))
            if index is not None:
                break
    except (InputError, XMLArchiveError) as error:
        fail(str(error))
    if not records:
        fail(str(NoSuchGame(name, index, count)) if index is not None else f"{name}: has no game")
    return records
