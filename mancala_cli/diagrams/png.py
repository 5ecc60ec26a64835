"""PNG images: an SVG diagram or game sheet rasterised with resvg.

:func:`svg_to_png` draws an SVG document (as :mod:`.svg` and :mod:`.sheet`
write them) at ``scale`` pixels per SVG unit, with resvg (the ``resvg-py``
wheel of the ``png`` extra: ``pip install 'mancala[png]'``)::

    >>> from mancala_cli import get_game
    >>> from mancala_cli.diagrams.svg import board_svg
    >>> game = get_game("kingulu")
    >>> data = svg_to_png(board_svg(game, game.start()), scale=1)
    >>> data[:8] == PNG_SIGNATURE, png_size(data)
    (True, (456, 284))

The labels are drawn with the DejaVu Sans fonts shipped beside this module
(``fonts/``, with their licence); the system's fonts are never looked at, so
the same document gives the same bytes on every machine and every run, and
text renders where no font is installed.
"""
from __future__ import annotations

import math
import os
import re
import struct

from ..errors import BadImage, PngUnavailable

__all__ = ["svg_to_png", "png_size", "PNG_SIGNATURE", "FONT_FILES", "MIN_SCALE", "MAX_SCALE", "MAX_PIXELS"]

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
FONT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fonts")
FONT_FAMILY = "DejaVu Sans"
#: Regular, bold and oblique: the styles the diagrams' CSS asks for.
FONT_FILES = tuple(os.path.join(FONT_DIR, name)
                   for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf"))
#: The scales accepted (pixels per SVG unit), and the largest image drawn.
MIN_SCALE = 0.1
MAX_SCALE = 10.0
MAX_PIXELS = 100_000_000


def svg_to_png(svg: str, *, scale: float = 2.0) -> bytes:
    """The PNG image of the SVG document ``svg``, ``scale`` pixels per unit
    (its width and height rounded up). Raises :class:`PngUnavailable`
    without resvg, :class:`BadImage` for a scale out of range, an image
    above :data:`MAX_PIXELS` or a document resvg cannot draw."""
    if not MIN_SCALE <= scale <= MAX_SCALE:
        raise BadImage(f"scale must be between {MIN_SCALE:g} and {MAX_SCALE:g} (got {scale:g})")
    try:
        import resvg_py  # (local: the png extra, an optional dependency)
    except ImportError:
        raise PngUnavailable() from None
    width, height = _svg_size(svg)
    columns, rows = math.ceil(width * scale), math.ceil(height * scale)
    if columns * rows > MAX_PIXELS:
        raise BadImage(f"{columns:,} × {rows:,} pixels is more than the {MAX_PIXELS:,} drawn at most")
    try:
        return bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=scale, skip_system_fonts=True,
                                           font_files=list(FONT_FILES), font_family=FONT_FAMILY,
                                           sans_serif_family=FONT_FAMILY))
    except ValueError as error:
        raise BadImage(f"resvg cannot draw the document: {error}") from None


def _svg_size(svg: str) -> tuple[float, float]:
    """The ``width`` and ``height`` of the document's root (plain numbers, as
    this package writes them)."""
    head = svg[:svg.find(">", svg.find("<svg")) + 1]
    sizes = []
    for name in ("width", "height"):
        found = re.search(rf'\s{name}="([0-9.]+)(?:px)?"', head)
        if found is None:
            raise BadImage(f"the SVG document has no {name} in pixels")
        sizes.append(float(found.group(1)))
    return sizes[0], sizes[1]


def png_size(data: bytes) -> tuple[int, int]:
    """The width and height of a PNG image (from its header)."""
    if data[:8] != PNG_SIGNATURE or data[12:16] != b"IHDR":
        raise ValueError("not a PNG image")
    width, height = struct.unpack(">II", data[16:24])
    return width, height
