"""SVG diagrams of a position (docs/commands/render.md).

:func:`board_svg` draws a :class:`~mancala_cli.rules.core.Position` of a game as a
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
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from notation.position import format_position

from ..rules.core import FILES, NORTH, SIDES, SOUTH, Game, Move, Outcome, Position, Side, side_name
from .text import FROM_POSITION, FromPosition, default_title, outcome_of, result_words
from .tree import SVG_NS, Element, tostring  # noqa: F401  (SVG_NS: the namespace, named here as before)

__all__ = ["board_svg", "board_element", "default_title", "hole_centre", "viewbox_size", "HOLE_FILL", "BACKGROUND", "SEED_FILL",
           "SIDE_COLOURS", "DOT_LIMIT", "RESULT_H", "result_box", "caption_lines", "RING_MEANINGS", "rings_drawn",
           "legend_rows", "legend_height", "add_legend", "legend_sample"]

# -- geometry (viewBox units = CSS pixels at width/height) -------------------
CELL = 64          # one hole's square
HOLE_R = 25        # the pit's radius
MARGIN = 8         # around everything
BANK_H = 36        # a bank strip
BANK_GAP = 6       # between a bank strip and the file labels
LABEL = 20         # the rank-label column / the file-label row
PAD = 8            # board edge to the first hole's square
HALF_GAP = 14      # four rows: the gap between South's rows and North's
DOT_R = 2.8        # a seed
DOT_LIMIT = 12     # seeds are drawn as dots up to this count
CLUSTER_DY = -6    # the dots' centre, relative to the hole centre
COUNT_DY = 19      # the count's baseline, relative to the hole centre
MANY_DY = 6        # the baseline of a large pile's (centred) count
RESULT_H = BANK_GAP + BANK_H  # a finished game's result strip, below the bottom bank
CAPTION_SIZE = 14  # px, a caption line (opt-in, above the diagram)
CAPTION_LEADING = 20  # from one caption line to the next
LEGEND_SIZE = 12   # px, the words of a legend of the rings
LEGEND_LEADING = 18  # from one row of the legend to the next
LEGEND_GAP = 16    # between two entries of a row
SAMPLE_R = 6       # a legend's sample ring
SAMPLE_TEXT = 18   # from the left of a sample ring to its words

# -- colours (the default style; the browser test reads them) ----------------
BACKGROUND = "#fbf7ef"
BOARD_FILL = "#d4a466"
BOARD_EDGE = "#8a5a2b"
HOLE_FILL = "#5c3b1e"
SEED_FILL = "#f6ecd4"
SIDE_COLOURS = {SOUTH: "#1f5fa8", NORTH: "#b0302a"}
ORIGIN_COLOUR = "#18a047"
END_COLOUR = "#f4b400"

DEFAULT_STYLE = f"""
svg {{ font-family: sans-serif; }}
.background {{ fill: {BACKGROUND}; }}
.board {{ fill: {BOARD_FILL}; stroke: {BOARD_EDGE}; stroke-width: 2; }}
.divider {{ stroke: {BOARD_EDGE}; stroke-width: 2; stroke-dasharray: 6 4; }}
.pit {{ fill: {HOLE_FILL}; stroke: #3a2410; stroke-width: 1.5; }}
.seeds {{ fill: {SEED_FILL}; }}
.count {{ fill: #fff3d6; font-size: 11px; text-anchor: middle; }}
.count.many {{ font-size: 17px; font-weight: bold; }}
.label {{ fill: #5b4630; font-size: 13px; text-anchor: middle; }}
.reserved-ring {{ fill: none; stroke-width: 3; }}
.reserver {{ font-size: 10px; font-weight: bold; text-anchor: middle; fill: #ffffff; }}
.reserver-badge {{ stroke: #ffffff; stroke-width: 1; }}
.reserved-ring.south {{ stroke: {SIDE_COLOURS[SOUTH]}; }}
.reserved-ring.north {{ stroke: {SIDE_COLOURS[NORTH]}; }}
.reserver-badge.south, .side-disc.south, .to-move.south polygon {{ fill: {SIDE_COLOURS[SOUTH]}; }}
.reserver-badge.north, .side-disc.north, .to-move.north polygon {{ fill: {SIDE_COLOURS[NORTH]}; }}
.last-move {{ fill: none; stroke-width: 3.5; }}
.last-move.origin {{ stroke: {ORIGIN_COLOUR}; stroke-dasharray: 5 3; }}
.last-move.end {{ stroke: {END_COLOUR}; }}
.bank-box {{ fill: #efe1c6; stroke: {BOARD_EDGE}; stroke-width: 1.5; }}
.bank-side {{ fill: #3b2a18; font-size: 14px; font-weight: bold; }}
.bank-label {{ fill: #5b4630; font-size: 12px; text-anchor: end; }}
.bank-count {{ fill: #3b2a18; font-size: 18px; font-weight: bold; text-anchor: end; }}
.to-move text {{ fill: #3b2a18; font-size: 13px; font-style: italic; }}
"""


#: The look of the result strip and of a caption: presentation attributes,
#: not rules of the default style (which stays the same for every diagram);
#: CSS of ``style`` overrides them (``.result-box``, ``.result-text``,
#: ``.diagram-caption``).
RESULT_BOX = {"fill": "#3b2a18"}
RESULT_TEXT = {"fill": "#fff3d6", "font-size": "16px", "font-weight": "bold", "text-anchor": "middle"}
CAPTION_TEXT = {"fill": "#3b2a18", "font-size": f"{CAPTION_SIZE}px"}
CAPTION_FIRST = {**CAPTION_TEXT, "font-weight": "bold"}


def _num(value: float) -> str:
    """A coordinate as text: an integer, or one decimal (never ``-0``)."""
    value = round(value, 1)
    if value == int(value):
        return str(int(value))
    return f"{value:.1f}"


def add_element(parent: Element, name: str, attrs: dict[str, str | float] | None = None, text: str | None = None) -> Element:
    """A new last child of ``parent``: numbers among ``attrs`` written as :func:`_num` writes them."""
    return parent.add(name, None if not attrs else
                      {key: value if isinstance(value, str) else _num(value) for key, value in attrs.items()}, text)


# -- geometry ----------------------------------------------------------------
#: The top left corner of the board rectangle (the same for every game).
_BOARD_X = MARGIN + LABEL
_BOARD_Y = MARGIN + BANK_H + BANK_GAP + LABEL


def _board_box(game: Game) -> tuple[int, int, int, int]:
    """x, y, width, height of the board rectangle."""
    board = game.board
    width = 2 * PAD + board.files * CELL
    height = 2 * PAD + board.ranks * CELL + (HALF_GAP if board.ranks == 4 else 0)
    return _BOARD_X, _BOARD_Y, width, height


def viewbox_size(game: Game) -> tuple[int, int]:
    """The diagram's width and height (the viewBox, and the width/height in px)."""
    x, y, width, height = _board_box(game)
    return x + width + LABEL + MARGIN, y + height + LABEL + BANK_GAP + BANK_H + MARGIN


def _column(game: Game, file: int, flip: bool) -> int:
    return game.board.files - 1 - file if flip else file


def _row(game: Game, rank: int, flip: bool) -> int:
    """The row counted from the top of the picture."""
    return rank - 1 if flip else game.board.ranks - rank


def _column_x(column: int) -> int:
    return _BOARD_X + PAD + column * CELL + CELL // 2


def _row_y(game: Game, row: int) -> int:
    gap = HALF_GAP if game.board.ranks == 4 and row >= 2 else 0
    return _BOARD_Y + PAD + row * CELL + CELL // 2 + gap


def hole_centre(game: Game, hole: int, flip: bool = False) -> tuple[int, int]:
    """The centre of ``hole``'s pit in viewBox units (South at the bottom unless ``flip``)."""
    board = game.board
    return (_column_x(_column(game, board.file(hole), flip)),
            _row_y(game, _row(game, board.rank(hole), flip)))


def _ring(count: int, radius: float, start: float) -> list[tuple[float, float]]:
    return [(radius * math.cos(math.radians(start + k * 360 / count)),
             radius * math.sin(math.radians(start + k * 360 / count))) for k in range(count)]


def _polygon(count: int, radius: float) -> list[tuple[float, float]]:
    """``count`` points around a centre, a vertex up (an edge up when even)."""
    return _ring(count, radius, -90 + (180 / count if count % 2 == 0 else 0))


def _dot_offsets(n: int) -> list[tuple[float, float]]:
    """Where the seeds of a hole holding ``n`` (1–12) lie, around the cluster centre."""
    if n == 1:
        return [(0.0, 0.0)]
    if n <= 6:
        radius = {2: 5, 3: 5.5, 4: 6, 5: 7, 6: 7.5}[n]
        return _polygon(n, radius)
    outer = {7: 6, 8: 7, 9: 8, 10: 8, 11: 8, 12: 9}[n]
    inner = n - outer
    if inner == 1:
        centre = [(0.0, 0.0)]
    else:
        centre = _polygon(inner, {2: 3.5, 3: 4, 4: 4.5}[inner])
    return centre + _ring(outer, 10, -90)


def _dots_path(n: int) -> str:
    """One path drawing ``n`` seeds as discs (relative to the hole centre)."""
    r = _num(DOT_R)
    d = _num(2 * DOT_R)
    parts = []
    for dx, dy in _dot_offsets(n):
        parts.append(f"M{_num(dx - DOT_R)} {_num(dy + CLUSTER_DY)}a{r} {r} 0 1 0 {d} 0a{r} {r} 0 1 0 -{d} 0z")
    return "".join(parts)


_DOTS = {n: _dots_path(n) for n in range(1, DOT_LIMIT + 1)}


# -- the template --------------------------------------------------------------
class _Template:
    """A prebuilt diagram of one game, one orientation, without the position."""

    def __init__(self, game: Game, flip: bool) -> None:
        board = game.board
        width, height = viewbox_size(game)
        bx, by, bw, bh = _board_box(game)
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
        self.many_y = [_num(cy + MANY_DY) for _, cy in self.centres]

    def _banks(self, root: Element, game: Game, flip: bool) -> None:
        """The banks, the side at the top of the picture first."""
        bx, by, bw, bh = _board_box(game)
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
    bx, by, bw, bh = _board_box(game)
    labels = add_element(root, "g", {"id": "labels", "class": "labels"})
    for file in range(board.files):
        x = _column_x(_column(game, file, flip))
        letter = FILES[file]
        for y in (by - 6, by + bh + 15):
            add_element(labels, "text", {"class": "label file", "x": x, "y": y}, letter)
    for rank in range(1, board.ranks + 1):
        y = _row_y(game, _row(game, rank, flip)) + 5
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
        _add_caption(root, game, caption or (), rings)
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


def result_box(game: Game) -> tuple[int, int, int, int]:
    """x, y, width, height of a finished game's result strip (below the
    bottom bank, the same width: it belongs to neither side)."""
    bx, by, bw, bh = _board_box(game)
    return bx, by + bh + LABEL + BANK_GAP + BANK_H + BANK_GAP, bw, BANK_H


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


def caption_lines(game: Game, caption: Sequence[str]) -> list[str]:
    """The lines of ``caption`` as drawn: each broken at a `` · `` (or,
    for a part still too wide, at a space) into lines that fit the
    diagram's width (measured in DejaVu Sans Bold, never narrower)."""
    from .fontwidths import text_width as _text_width

    room = viewbox_size(game)[0] - 2 * MARGIN
    lines: list[str] = []
    for given in caption:
        start = len(lines)
        for part in given.split(" · "):
            for word in _words_that_fit(part, room):
                if len(lines) > start and _text_width(f"{lines[-1]} · {word}", CAPTION_SIZE) <= room:
                    lines[-1] = f"{lines[-1]} · {word}"
                else:
                    lines.append(word)
        if len(lines) == start:
            lines.append("")
    return lines


def _words_that_fit(part: str, room: int) -> list[str]:
    """``part``, or the pieces of it broken at spaces where it is wider than ``room``."""
    from .fontwidths import text_width as _text_width

    if _text_width(part, CAPTION_SIZE) <= room:
        return [part]
    pieces: list[str] = []
    for word in part.split(" "):
        if pieces and _text_width(f"{pieces[-1]} {word}", CAPTION_SIZE) <= room:
            pieces[-1] = f"{pieces[-1]} {word}"
        else:
            pieces.append(word)
    return pieces


# -- the legend of the rings ------------------------------------------------------
#: The rings a diagram draws round a hole, named by the class they give the
#: hole's group, in the order a legend lists them, with what each means.
RING_MEANINGS = {
    "last-origin": "dashed green ring: where the last move started",
    "last-end": "yellow ring: where the last move ended",
    "reserved-by-south": "blue ring, S: a hole South reserved (its seeds are South's)",
    "reserved-by-north": "red ring, N: a hole North reserved (its seeds are North's)",
}
#: How a legend draws each ring (presentation attributes, as the diagram's style draws it).
_SAMPLE_RING = {
    "last-origin": {"stroke": ORIGIN_COLOUR, "stroke-dasharray": "3 2"},
    "last-end": {"stroke": END_COLOUR},
    "reserved-by-south": {"stroke": SIDE_COLOURS[SOUTH]},
    "reserved-by-north": {"stroke": SIDE_COLOURS[NORTH]},
}
LEGEND_TEXT = {"fill": "#3b2a18", "font-size": f"{LEGEND_SIZE}px"}


def rings_drawn(game: Game, position: Position, last_move: Move | None = None) -> list[str]:
    """The rings the diagram of ``position`` (``last_move`` marked) draws,
    as keys of :data:`RING_MEANINGS`, in its order::

        >>> from mancala_cli import get_game
        >>> game = get_game("kingulu")
        >>> rings_drawn(game, game.start())
        []
        >>> move, after = game.play(game.start(), game.board.index_of("c1"))
        >>> rings_drawn(game, after, move)
        ['last-origin', 'last-end']
    """
    drawn: set[str] = set()
    if last_move is not None:
        drawn.update(("last-origin", "last-end"))
    drawn.update(f"reserved-by-{side_name(game.reserver(hole)).lower()}" for hole in position.reserved)
    return [kind for kind in RING_MEANINGS if kind in drawn]


def _entry_width(kind: str) -> int:
    from .fontwidths import text_width as _text_width

    return SAMPLE_TEXT + _text_width(RING_MEANINGS[kind], LEGEND_SIZE)


def legend_rows(kinds: Sequence[str], room: int) -> list[list[tuple[str, int]]]:
    """The entries of a legend of ``kinds`` in rows no wider than ``room``
    (an entry wider than that on a row of its own), each with its left
    edge, counted from the legend's."""
    rows: list[list[tuple[str, int]]] = []
    right = 0
    for kind in kinds:
        width = _entry_width(kind)
        if rows and right + LEGEND_GAP + width <= room:
            rows[-1].append((kind, right + LEGEND_GAP))
            right += LEGEND_GAP + width
        else:
            rows.append([(kind, 0)])
            right = width
    return rows


def legend_height(kinds: Sequence[str], room: int) -> int:
    """The height of the legend of ``kinds`` in ``room`` (0 for no ring)."""
    return len(legend_rows(kinds, room)) * LEGEND_LEADING


def _add_sample(parent: Element, kind: str, cx: float, cy: float) -> None:
    """A small pit and ``kind``'s ring round it."""
    add_element(parent, "circle", {"class": "legend-pit", "cx": cx, "cy": cy, "r": SAMPLE_R - 1, "fill": HOLE_FILL})
    add_element(parent, "circle", {"class": "legend-ring", "cx": cx, "cy": cy, "r": SAMPLE_R, "fill": "none",
                                   "stroke-width": 2, **_SAMPLE_RING[kind]})


def add_legend(parent: Element, kinds: Sequence[str], x: int, y: int, room: int) -> Element | None:
    """The legend ``g#legend`` of the rings ``kinds`` (what each means, after
    a sample of it) in rows from ``x``, ``y`` (the top of the first row), no
    wider than ``room``; ``None`` (nothing drawn) for no ring."""
    if not kinds:
        return None
    group = add_element(parent, "g", {"id": "legend", "class": "legend"})
    for k, row in enumerate(legend_rows(kinds, room)):
        top = y + k * LEGEND_LEADING
        for kind, left in row:
            entry = add_element(group, "g", {"class": f"legend-entry {kind}"})
            _add_sample(entry, kind, x + left + SAMPLE_R, top + 9)
            add_element(entry, "text", {"class": "legend-text", "x": x + left + SAMPLE_TEXT, "y": top + 13,
                                        **LEGEND_TEXT}, RING_MEANINGS[kind])
    return group


def legend_sample(kind: str) -> str:
    """``kind``'s sample ring as an ``<svg>`` element of its own (for HTML)."""
    size = 2 * SAMPLE_R + 4
    root = Element("svg", {"class": "legend-sample", "width": str(size), "height": str(size),
                           "viewBox": f"0 0 {size} {size}", "aria-hidden": "true"})
    _add_sample(root, kind, size / 2, size / 2)
    return tostring(root, declaration=False, pretty=False)


def _add_caption(root: Element, game: Game, caption: Sequence[str], rings: Sequence[str] = ()) -> None:
    """The caption ``g#caption`` above the diagram, then the legend of its
    ``rings`` (``g#legend``); the diagram moves down to make room."""
    lines = caption_lines(game, caption) if caption else []
    legend_room = viewbox_size(game)[0] - 2 * MARGIN - LABEL
    shift = MARGIN + len(lines) * CAPTION_LEADING + legend_height(rings, legend_room)
    width = int(root.get("width") or "0")
    height = int(root.get("height") or "0") + shift
    root.set("height", str(height))
    root.set("viewBox", f"0 0 {width} {height}")
    root[3].set("height", str(height))  # the background
    drawing = Element("g", {"id": "drawing", "transform": f"translate(0 {shift})"})
    drawing.children = root.children[4:]
    del root.children[4:]
    if lines:
        group = add_element(root, "g", {"id": "caption", "class": "caption"})
        for k, line in enumerate(lines):
            add_element(group, "text", {"class": "diagram-caption first" if k == 0 else "diagram-caption",
                                "x": MARGIN + LABEL, "y": MARGIN + 15 + k * CAPTION_LEADING,
                                **(CAPTION_FIRST if k == 0 else CAPTION_TEXT)}, line)
    add_legend(root, rings, MARGIN + LABEL, MARGIN + len(lines) * CAPTION_LEADING, legend_room)
    root.append(drawing)


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
                                             "d": _DOTS[n]}))
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
        "countY": [_num(cy + COUNT_DY) for _, cy in template.centres],
        "manyY": template.many_y,
        "dots": [""] + [_DOTS[n] for n in range(1, DOT_LIMIT + 1)],
        "banks": [template.bank_box[SOUTH], template.bank_box[NORTH]],
        "marks": {"end": HOLE_R, "endInner": HOLE_R - 4, "ring": HOLE_R + 4},
        "size": viewbox_size(game),
        "result": {"box": result_box(game), "boxAttrs": RESULT_BOX, "textAttrs": RESULT_TEXT, "grow": RESULT_H},
    }
