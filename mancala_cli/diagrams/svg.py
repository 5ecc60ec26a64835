"""SVG diagrams of a position (docs/commands/render.md).

:func:`board_svg` draws a :class:`~mancala_cli.rules.position.Position` of a game as a
standalone SVG document: every hole with its count (and its seeds as dots
when it holds a few), reserved holes, both banks, the side to move, file
letters and rank numbers, and the last move's origin and end::

    >>> from mancala_cli import get_game
    >>> game = get_game("kingulu")
    >>> svg = board_svg(game, game.start())
    >>> svg.startswith("<?xml") and 'viewBox="0 0 456 284"' in svg
    True
    >>> hole_centre(game, game.board.index_of("a1")), viewbox_size(game)
    ((68, 174), (456, 284))

The document is built with the small element tree of :mod:`.tree` (no XML
library to load) from a per-game template (copied, then filled in), uses only integers or one-decimal numbers,
fetches nothing from outside, and gives the same bytes for the same input.
Everything visual sits in an embedded ``<style>`` element, so a user can
restyle a diagram with CSS (the ``style`` argument appends a second
``<style>`` element). Hooks for CSS: hole groups ``<g id="hole-c2"
class="hole south front">`` (plus ``reserved``, ``last-origin``,
``last-end``), ``pit``, ``seeds``, ``count`` (``count many`` for a large
pile), ``reserved-ring``, ``reserver``, ``last-move``, ``bank south`` /
``bank north``, ``to-move``, ``label file``, ``label rank``, ``board``,
``divider``; a finished game's ``g#result`` (``result-box``,
``result-text``), an opt-in caption's ``g#caption`` (``diagram-caption``)
and the legend of the rings below it, ``g#legend`` (``legend-entry`` with
the ring's name as in :data:`RING_MEANINGS`, ``legend-pit``,
``legend-ring``, ``legend-text``), drawn with presentation attributes so
that the default style, and so every other diagram, stays the same.

This module is the writer: the per-game template and the filling in of a
position (:func:`board_svg`, :func:`board_element`, :func:`page_geometry`).
Where everything goes is :mod:`.layout`, the default look :mod:`.style`,
the caption and the legend of the rings :mod:`.caption`; their public
names are also names of this module.
"""
from __future__ import annotations

from collections.abc import Sequence

from notation.position_strings import format_position

from ..rules.board import FILES, NORTH, SIDES, SOUTH, Side, side_name
from ..rules.game import Game, Move, Outcome
from ..rules.position import Position
from .caption import (
    add_caption,
    rings_drawn,
)
from .layout import (
    BANK_GAP as BANK_GAP,
    BANK_H as BANK_H,
    CAPTION_LEADING as CAPTION_LEADING,
    CAPTION_SIZE as CAPTION_SIZE,
    CELL as CELL,
    CLUSTER_DY as CLUSTER_DY,
    COUNT_DY as COUNT_DY,
    DOT_LIMIT,
    DOT_R as DOT_R,
    DOTS,
    HALF_GAP as HALF_GAP,
    HOLE_R as HOLE_R,
    LABEL as LABEL,
    LEGEND_GAP as LEGEND_GAP,
    LEGEND_LEADING as LEGEND_LEADING,
    LEGEND_SIZE as LEGEND_SIZE,
    MANY_DY as MANY_DY,
    MARGIN as MARGIN,
    PAD as PAD,
    RESULT_H,
    SAMPLE_R as SAMPLE_R,
    SAMPLE_TEXT as SAMPLE_TEXT,
    add_element as add_element,
    board_box,
    file_x,
    hole_centre,
    rank_y,
    result_box,
    svg_number,
    viewbox_size,
)
from .style import (
    BOARD_EDGE as BOARD_EDGE,
    BOARD_FILL as BOARD_FILL,
    CAPTION_FIRST as CAPTION_FIRST,
    CAPTION_TEXT as CAPTION_TEXT,
    DEFAULT_STYLE as DEFAULT_STYLE,
    END_COLOUR as END_COLOUR,
    LEGEND_TEXT as LEGEND_TEXT,
    ORIGIN_COLOUR as ORIGIN_COLOUR,
    RESULT_BOX as RESULT_BOX,
    RESULT_TEXT as RESULT_TEXT,
)
from .text import FROM_POSITION, FromPosition, default_title, outcome_of, result_words
from .tree import SVG_NS as SVG_NS, Element, tostring

__all__ = ["board_svg", "board_element"]
# (A name imported ``NAME as NAME`` above is one this module has always had
# and its users import from it, whether or not it is used here.)


# -- the template --------------------------------------------------------------
class _Template:
    """A prebuilt diagram of one game, one orientation, without the position."""

    def __init__(self, game: Game, flip: bool) -> None:
        board = game.board
        width, height = viewbox_size(game)
        bx, by, bw, bh = board_box(game)
        root = Element("svg", {"version": "1.1", "width": str(width), "height": str(height),
                               "viewBox": f"0 0 {width} {height}", "class": f"mancala {game.id}"})
        add_element(root, "title")
        add_element(root, "desc")
        add_element(root, "style", {"type": "text/css"}, DEFAULT_STYLE)
        self.style_index = 3
        add_element(root, "rect", {"class": "background", "x": 0, "y": 0, "width": width, "height": height})
        self._banks(root, game, flip)
        add_element(root, "rect", {"class": "board", "x": bx, "y": by, "width": bw, "height": bh, "rx": 12})
        if board.ranks == 4:
            y = by + PAD + 2 * CELL + HALF_GAP // 2
            add_element(root, "line", {"class": "divider", "x1": bx + 6, "y1": y, "x2": bx + bw - 6, "y2": y})
        _labels(root, game, flip)
        self.holes_index = len(root)
        self._holes(root, game, flip)
        self.root = root
        self.translate = [f"translate({cx} {cy})" for cx, cy in self.centres]
        self.many_y = [svg_number(cy + MANY_DY) for _, cy in self.centres]

    def _banks(self, root: Element, game: Game, flip: bool) -> None:
        """The banks, the side at the top of the picture first."""
        bx, by, bw, bh = board_box(game)
        top, bottom = (SOUTH, NORTH) if flip else (NORTH, SOUTH)
        self.bank_index: dict[Side, int] = {}
        self.bank_box: dict[Side, tuple[int, int]] = {}
        for side, y in ((top, MARGIN), (bottom, by + bh + LABEL + BANK_GAP)):
            cls = side_name(side).lower()
            self.bank_index[side] = len(root)
            self.bank_box[side] = (bx, y)
            group = add_element(root, "g", {"id": f"bank-{cls}", "class": f"bank {cls}"})
            add_element(group, "rect", {"class": "bank-box", "x": bx, "y": y, "width": bw, "height": BANK_H,
                                "rx": 8})
            add_element(group, "circle", {"class": f"side-disc {cls}", "cx": bx + 18, "cy": y + BANK_H // 2,
                                  "r": 7})
            add_element(group, "text", {"class": "bank-side", "x": bx + 32, "y": y + 23}, side_name(side))
            add_element(group, "text", {"class": "bank-label", "x": bx + bw - 44, "y": y + 23}, game.bank_name)
            add_element(group, "text", {"class": "bank-count", "x": bx + bw - 12, "y": y + 24}, "0")

    def _holes(self, root: Element, game: Game, flip: bool) -> None:
        """A group per hole (its pit and a count of 0), and their centres."""
        board = game.board
        holes = add_element(root, "g", {"id": "holes"})
        self.centres: list[tuple[int, int]] = []
        for hole in range(board.size):
            cx, cy = hole_centre(game, hole, flip)
            self.centres.append((cx, cy))
            owner = board.owner(hole)
            row = "front" if board.is_front(hole, owner) else "back"
            cls = f"hole {side_name(owner).lower()} {row}"
            group = add_element(holes, "g", {"id": f"hole-{board.name(hole)}", "class": cls})
            add_element(group, "circle", {"class": "pit", "cx": cx, "cy": cy, "r": HOLE_R})
            add_element(group, "text", {"class": "count", "x": cx, "y": cy + COUNT_DY}, "0")


def _labels(root: Element, game: Game, flip: bool) -> None:
    """The file letters above and below the board, the rank numbers beside it."""
    board = game.board
    bx, by, bw, bh = board_box(game)
    labels = add_element(root, "g", {"id": "labels", "class": "labels"})
    for file in range(board.files):
        x = file_x(game, file, flip)
        letter = FILES[file]
        for y in (by - 6, by + bh + 15):
            add_element(labels, "text", {"class": "label file", "x": x, "y": y}, letter)
    for rank in range(1, board.ranks + 1):
        y = rank_y(game, rank, flip) + 5
        for x in (MARGIN + LABEL // 2, bx + bw + LABEL // 2):
            add_element(labels, "text", {"class": "label rank", "x": x, "y": y}, str(rank))


_TEMPLATES: dict[tuple[str, bool], _Template] = {}


def _template(game: Game, flip: bool) -> _Template:
    key = (game.id, flip)
    template = _TEMPLATES.get(key)
    if template is None:
        template = _TEMPLATES[key] = _Template(game, flip)
    return template


def board_svg(game: Game, position: Position, *, last_move: Move | None = None, flip: bool = False,
              title: str | None = None, style: str | None = None,
              outcome: Outcome | None | FromPosition = FROM_POSITION,
              caption: Sequence[str] | None = None, legend: bool = False) -> str:
    """A standalone SVG document of ``position`` (a ``str`` starting with ``<?xml``).

    ``last_move`` highlights its origin and the hole where it ended; ``flip``
    puts North at the bottom; ``title`` replaces the default ``<title>``
    (game name, move number, side to move); ``style`` is extra CSS, appended
    in a second ``<style>`` element after the default one. A position where
    the game has ended shows the result and its reason (``g#result``) instead
    of the side to move, in a strip below the board that belongs to neither
    side (the diagram is taller by :data:`RESULT_H`); ``outcome`` gives it
    when the position alone cannot tell (the default works it out from the
    position). ``caption`` is lines of text shown above the diagram
    (``g#caption``; each broken at a `` · `` or a space where it is wider
    than the diagram), the first in bold: what a picture shown on its own
    says of itself (the players, the move, the side to move). ``legend``
    adds below it what each kind of ring drawn means (the last move's
    origin and end, reserved holes), each after a sample of it, as many to
    a line as fit (``g#legend``; nothing for a diagram without rings):
    :func:`rings_drawn`, :data:`RING_MEANINGS`.
    """
    root = board_element(game, position, last_move=last_move, flip=flip, title=title, style=style,
                         outcome=outcome, caption=caption, legend=legend)
    return tostring(root)


def board_element(game: Game, position: Position, *, last_move: Move | None = None, flip: bool = False,
                  title: str | None = None, style: str | None = None,
                  outcome: Outcome | None | FromPosition = FROM_POSITION,
                  caption: Sequence[str] | None = None, result_strip: bool = True,
                  legend: bool = False) -> Element:
    """The ``<svg>`` element that :func:`board_svg` writes out (a new tree,
    the caller's to change: a game sheet places several side by side, and
    shows the result in a board's caption: ``result_strip=False``)."""
    over = outcome_of(game, position, outcome)
    template = _template(game, flip)
    root = template.root.copy()
    root[0].text = default_title(game, position, over) if title is None else title
    root[1].text = f"{game.id} position {format_position(game, position)}"
    _fill_banks(root, template, position, over)
    _fill_holes(root, template, game, position, last_move)
    if over is not None and result_strip:
        _add_result(root, game, result_words(over))
    rings = rings_drawn(game, position, last_move) if legend else []
    if caption or rings:
        add_caption(root, game, caption or (), rings)
    if style is not None:
        root.insert(template.style_index, Element("style", {"type": "text/css"}, style))  # last: the indices above stay valid
    return root


def _fill_banks(root: Element, template: _Template, position: Position, over: Outcome | None) -> None:
    """The banks' counts, and the side to move (or the result) by its bank."""
    for side in SIDES:
        root[template.bank_index[side]][4].text = str(position.bank(side))
    side = position.side
    group = root[template.bank_index[side]]
    x, y = template.bank_box[side]
    if over is None:
        marker = add_element(group, "g", {"id": "to-move", "class": f"to-move {side_name(side).lower()}"})
        add_element(marker, "polygon", {"points": f"{x + 92},{y + 11} {x + 92},{y + 25} {x + 104},{y + 18}"})
        add_element(marker, "text", {"x": x + 110, "y": y + 23}, "to move")


def _add_result(root: Element, game: Game, words: str) -> None:
    """The result strip ``g#result``, the diagram made taller to hold it."""
    width, height = viewbox_size(game)
    height += RESULT_H
    root.set("height", str(height))
    root.set("viewBox", f"0 0 {width} {height}")
    root[3].set("height", str(height))  # the background
    x, y, w, h = result_box(game)
    group = add_element(root, "g", {"id": "result", "class": "result"})
    add_element(group, "rect", {"class": "result-box", "x": x, "y": y, "width": w, "height": h, "rx": 8, **RESULT_BOX})
    add_element(group, "text", {"class": "result-text", "x": x + w // 2, "y": y + 24, **RESULT_TEXT}, words)


def _fill_holes(root: Element, template: _Template, game: Game, position: Position,
                last_move: Move | None) -> None:
    """Each hole's count and seeds, and the marks of reserved holes and of the last move."""
    holes = root[template.holes_index]
    counts = position.holes
    reserved = position.reserved
    origin: int | None = None
    end: int | None = None
    if last_move is not None:
        origin, end = last_move.origin, last_move.end
    for hole, n in enumerate(counts):
        group = holes[hole]
        text = group[1]
        text.text = str(n)
        if 0 < n <= DOT_LIMIT:
            group.insert(1, Element("path", {"class": "seeds", "transform": template.translate[hole],
                                             "d": DOTS[n]}))
        elif n > DOT_LIMIT:
            text.set("class", "count many")
            text.set("y", template.many_y[hole])
    moved = set() if last_move is None else {last_move.origin, last_move.end}
    for hole in reserved | moved:
        _mark(game, template, holes[hole], hole, hole in reserved, hole == origin, hole == end)


def _mark(game: Game, template: _Template, group: Element, hole: int, reserved: bool, origin: bool,
          end: bool) -> None:
    """Reserved ring and badge, last-move rings: classes on the hole group, marks inside."""
    classes = [group.get("class") or ""]
    cx, cy = template.centres[hole]
    if origin:
        classes.append("last-origin")
        add_element(group, "circle", {"id": "last-origin", "class": "last-move origin", "cx": cx, "cy": cy,
                              "r": HOLE_R})
    if end:
        classes.append("last-end")
        add_element(group, "circle", {"id": "last-end", "class": "last-move end", "cx": cx, "cy": cy,
                              "r": HOLE_R - 4 if origin else HOLE_R})
    if reserved:
        reserver = game.reserver(hole)
        side = side_name(reserver).lower()
        classes.append("reserved")
        classes.append(f"reserved-by-{side}")
        add_element(group, "circle", {"class": f"reserved-ring {side}", "cx": cx, "cy": cy, "r": HOLE_R + 4})
        add_element(group, "circle", {"class": f"reserver-badge {side}", "cx": cx + 21, "cy": cy - 21, "r": 7.5})
        add_element(group, "text", {"class": f"reserver {side}", "x": cx + 21, "y": cy - 17.5}, reserver)
    group.set("class", " ".join(classes))


def page_geometry(game: Game, flip: bool = False) -> dict[str, object]:
    """What a script needs to fill in the diagram of :func:`board_svg` as
    :func:`board_svg` does (the game page, :mod:`mancala_cli.diagrams.page`):
    each hole's name and centre, the baselines of its count, the seeds'
    paths, each bank's corner (South's first), the diagram's size and where
    a finished game's result strip goes."""
    template = _template(game, flip)
    return {
        "game": game.id,
        "names": [game.board.name(hole) for hole in range(game.board.size)],
        "centres": template.centres,
        "countY": [svg_number(cy + COUNT_DY) for _, cy in template.centres],
        "manyY": template.many_y,
        "dots": [""] + [DOTS[n] for n in range(1, DOT_LIMIT + 1)],
        "banks": [template.bank_box[SOUTH], template.bank_box[NORTH]],
        "marks": {"end": HOLE_R, "endInner": HOLE_R - 4, "ring": HOLE_R + 4},
        "size": viewbox_size(game),
        "result": {"box": result_box(game), "boxAttrs": RESULT_BOX, "textAttrs": RESULT_TEXT, "grow": RESULT_H},
    }
