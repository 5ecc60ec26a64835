"""What a board diagram says of itself above the board: a caption's lines
(:func:`caption_lines`, broken to fit the diagram's width) and the legend
of the rings drawn round holes (:data:`RING_MEANINGS`, :func:`rings_drawn`,
:func:`add_legend`; :func:`legend_sample` for HTML), and
:func:`add_caption`, which puts both above a diagram.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..rules.board import NORTH, SOUTH, side_name
from ..rules.game import Game, Move
from ..rules.position import Position
from .fontwidths import text_width
from .layout import (
    CAPTION_LEADING,
    CAPTION_SIZE,
    LABEL,
    LEGEND_GAP,
    LEGEND_LEADING,
    LEGEND_SIZE,
    MARGIN,
    SAMPLE_R,
    SAMPLE_TEXT,
    add_element,
    viewbox_size,
)
from .style import CAPTION_FIRST, CAPTION_TEXT, END_COLOUR, HOLE_FILL, LEGEND_TEXT, ORIGIN_COLOUR, SIDE_COLOURS
from .tree import Element, tostring


# -- the caption ------------------------------------------------------------------
def caption_lines(game: Game, caption: Sequence[str]) -> list[str]:
    """The lines of ``caption`` as drawn: each broken at a `` · `` (or,
    for a part still too wide, at a space) into lines that fit the
    diagram's width (measured in DejaVu Sans Bold, never narrower)."""
    room = viewbox_size(game)[0] - 2 * MARGIN
    lines: list[str] = []
    for given in caption:
        start = len(lines)
        for part in given.split(" · "):
            for word in _words_that_fit(part, room):
                if len(lines) > start and text_width(f"{lines[-1]} · {word}", CAPTION_SIZE) <= room:
                    lines[-1] = f"{lines[-1]} · {word}"
                else:
                    lines.append(word)
        if len(lines) == start:
            lines.append("")
    return lines


def _words_that_fit(part: str, room: int) -> list[str]:
    """``part``, or the pieces of it broken at spaces where it is wider than ``room``."""
    if text_width(part, CAPTION_SIZE) <= room:
        return [part]
    pieces: list[str] = []
    for word in part.split(" "):
        if pieces and text_width(f"{pieces[-1]} {word}", CAPTION_SIZE) <= room:
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
    return SAMPLE_TEXT + text_width(RING_MEANINGS[kind], LEGEND_SIZE)


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


def add_caption(root: Element, game: Game, caption: Sequence[str], rings: Sequence[str] = ()) -> None:
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
