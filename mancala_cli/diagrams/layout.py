"""Where everything of a board diagram goes, in viewBox units (CSS pixels
at the diagram's width and height): the sizes (:data:`CELL`,
:data:`HOLE_R`, :data:`MARGIN` …), the board's box and the diagram's size
(:func:`board_box`, :func:`viewbox_size`, :func:`result_box`), the centres
of the holes and the places of the labels (:func:`hole_centre`,
:func:`file_x`, :func:`rank_y`), where a hole's seeds lie as dots
(:data:`DOTS`), and how a number is written (:func:`svg_number`,
:func:`add_element`)::

    >>> from mancala_cli import get_game
    >>> game = get_game("kingulu")
    >>> hole_centre(game, game.board.index_of("a1")), viewbox_size(game)
    ((68, 174), (456, 284))
"""
from __future__ import annotations

import math

from ..rules.game import Game
from .tree import Element

# -- sizes (viewBox units = CSS pixels at width/height) ----------------------
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


# -- numbers as written ----------------------------------------------------------
def svg_number(value: float) -> str:
    """A coordinate as text: an integer, or one decimal (never ``-0``)."""
    value = round(value, 1)
    if value == int(value):
        return str(int(value))
    return f"{value:.1f}"


def add_element(parent: Element, name: str, attrs: dict[str, str | float] | None = None, text: str | None = None) -> Element:
    """A new last child of ``parent``: numbers among ``attrs`` written as :func:`svg_number` writes them."""
    return parent.add(name, None if not attrs else
                      {key: value if isinstance(value, str) else svg_number(value) for key, value in attrs.items()}, text)


# -- the board's places ----------------------------------------------------------
#: The top left corner of the board rectangle (the same for every game).
_BOARD_X = MARGIN + LABEL
_BOARD_Y = MARGIN + BANK_H + BANK_GAP + LABEL


def board_box(game: Game) -> tuple[int, int, int, int]:
    """x, y, width, height of the board rectangle."""
    board = game.board
    width = 2 * PAD + board.files * CELL
    height = 2 * PAD + board.ranks * CELL + (HALF_GAP if board.ranks == 4 else 0)
    return _BOARD_X, _BOARD_Y, width, height


def viewbox_size(game: Game) -> tuple[int, int]:
    """The diagram's width and height (the viewBox, and the width/height in px)."""
    x, y, width, height = board_box(game)
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


def file_x(game: Game, file: int, flip: bool) -> int:
    """The x of the centre of ``file``'s column (South at the bottom unless ``flip``)."""
    return _column_x(_column(game, file, flip))


def rank_y(game: Game, rank: int, flip: bool) -> int:
    """The y of the centre of ``rank``'s row (South at the bottom unless ``flip``)."""
    return _row_y(game, _row(game, rank, flip))


def hole_centre(game: Game, hole: int, flip: bool = False) -> tuple[int, int]:
    """The centre of ``hole``'s pit in viewBox units (South at the bottom unless ``flip``)."""
    board = game.board
    return file_x(game, board.file(hole), flip), rank_y(game, board.rank(hole), flip)


def result_box(game: Game) -> tuple[int, int, int, int]:
    """x, y, width, height of a finished game's result strip (below the
    bottom bank, the same width: it belongs to neither side)."""
    bx, by, bw, bh = board_box(game)
    return bx, by + bh + LABEL + BANK_GAP + BANK_H + BANK_GAP, bw, BANK_H


# -- seeds as dots ----------------------------------------------------------------
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
    r = svg_number(DOT_R)
    d = svg_number(2 * DOT_R)
    parts = []
    for dx, dy in _dot_offsets(n):
        parts.append(f"M{svg_number(dx - DOT_R)} {svg_number(dy + CLUSTER_DY)}"
                     f"a{r} {r} 0 1 0 {d} 0a{r} {r} 0 1 0 -{d} 0z")
    return "".join(parts)


#: The path of the seeds of a hole holding 1 to :data:`DOT_LIMIT` (relative to its centre).
DOTS = {n: _dots_path(n) for n in range(1, DOT_LIMIT + 1)}
