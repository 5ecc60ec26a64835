"""The look of a board diagram by default: its colours, the embedded
style sheet every diagram carries (:data:`DEFAULT_STYLE`, whose classes
a user's CSS can restyle), and the presentation attributes of what is
drawn with them instead, so that the default style stays the same for
every diagram: the result strip, a caption and a legend's words.
"""
from __future__ import annotations

from ..rules.board import NORTH, SOUTH
from .layout import CAPTION_SIZE, LEGEND_SIZE

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


#: The look of the result strip, of a caption and of a legend's words:
#: presentation attributes, not rules of the default style (which stays the
#: same for every diagram); CSS of ``style`` overrides them (``.result-box``,
#: ``.result-text``, ``.diagram-caption``, ``.legend-text``).
RESULT_BOX = {"fill": "#3b2a18"}
RESULT_TEXT = {"fill": "#fff3d6", "font-size": "16px", "font-weight": "bold", "text-anchor": "middle"}
CAPTION_TEXT = {"fill": "#3b2a18", "font-size": f"{CAPTION_SIZE}px"}
CAPTION_FIRST = {**CAPTION_TEXT, "font-weight": "bold"}
LEGEND_TEXT = {"fill": "#3b2a18", "font-size": f"{LEGEND_SIZE}px"}
