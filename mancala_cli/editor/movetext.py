"""The movetext of ``mancala edit``: numbered moves with variations in
parentheses, comments in braces and NAGs, as PMN shows them, each move a
link that goes to it, the cursor's move shown reversed."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from textual.binding import Binding
from textual.content import Content
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.style import Style
from textual.visual import Visual

from notation.record import walk

from .model import Address, EditedGame

__all__ = ["Movetext", "movetext_content", "address_of"]


DIM, BOLD, CURSOR = Style(dim=True), Style(bold=True), Style(reverse=True)


@lru_cache(maxsize=8192)
def _link(address: Address, style: Style | None) -> Style:
    """A move's style: a link that goes to it (``@click``, as markup writes it;
    made once for each move and style: a long game's movetext is made again
    at every change)."""
    link = Style.from_meta({"@click": f"app.goto('{'.'.join(map(str, address))}')"})
    return link if style is None else style + link


def movetext_content(edited: EditedGame) -> Content:
    """The movetext as Textual content: moves, numbers, variations, comments, NAGs."""
    record, ids = edited.record, edited._ids()
    parts: list[str | tuple[str, Style]] = []
    if not edited.cursor:
        parts += [("start", CURSOR), " "]
    if record.comment:
        parts += [(f"{{{record.comment}}}", DIM), " "]
    numbered = True
    for step in walk(record, side=edited.start.side, number=edited.start.move_number):
        node = step.node
        if step.kind == "begin":
            parts.append("(")
            numbered = True
            continue
        if step.kind == "end":
            if parts and parts[-1] == " ":
                parts.pop()
            parts += [")", " "]
            numbered = True
            continue
        if node.before:
            parts += [(f"{{{node.before}}}", DIM), " "]
            numbered = True
        address = ids[id(node)]
        if step.side == "S" or numbered:
            parts.append(f"{step.number}{'.' if step.side == 'S' else '...'} ")
        style = CURSOR if address == edited.cursor else BOLD if step.depth == 0 else None
        parts += [(node.text + "".join(node.glyphs), _link(address, style)), " "]
        parts += [part for nag in node.nags for part in (f"${nag}", " ")]
        numbered = False
        if node.comment:
            parts += [(f"{{{node.comment}}}", DIM), " "]
            numbered = True
    parts.append(record.result or record.tag("Result") or "*")
    return Content.assemble(*parts)


def address_of(key: str) -> Address:
    """The address a movetext link names (``0.1.2``; empty: the start)."""
    return tuple(int(part) for part in key.split(".")) if key else ()


class Movetext(ScrollView, can_focus=True):
    """The movetext, scrolled to the cursor; the arrow keys walk the game.

    Its lines are wrapped once a change (or a resize) and only the lines in
    view are drawn (Textual's line API), so that a move on a long game costs
    the lines on the screen, not the whole game's."""

    DEFAULT_CSS = "Movetext { height: 1fr; border: round $primary-darken-2; } Movetext:focus { border: round $accent; }"
    BINDINGS = [
        Binding("left", "app.step_back", "Back", show=False),
        Binding("right", "app.step_forward", "Forward", show=False),
        Binding("up", "app.step_back", "Back", show=False),
        Binding("down", "app.step_forward", "Forward", show=False),
    ]

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._content = Content("")
        self._lines: list[Content] = []
        self._strips: dict[int, Strip] = {}
        self._width = 0
        self._share = 0.0

    def show(self, edited: EditedGame) -> None:
        """The movetext drawn again, scrolled to show the cursor's move (about where it is)."""
        self._content = movetext_content(edited)
        moves = edited.addresses() if edited.cursor else []
        where = next((k for k, (address, *_) in enumerate(moves) if address == edited.cursor), 0)
        self._share = where / len(moves) if moves else 0.0
        self._wrap()

    def on_resize(self) -> None:
        self._wrap()

    def _wrap(self) -> None:
        """The lines at the widget's width (less the scrollbar's when they need one)."""
        width, height = self.size
        if width <= 0:
            return
        narrower = max(1, width - self.styles.scrollbar_size_vertical)
        # A paragraph of n cells takes at least n / width lines: when the
        # paragraphs cannot fit even at the whole width, the lines are
        # wrapped once, beside the scrollbar.
        fewest = sum(-(-max(1, Content(paragraph).cell_length) // width)
                     for paragraph in self._content.plain.split("\n"))
        if fewest > height:
            width = narrower
        lines = self._content.wrap(width)
        if len(lines) > height and width != narrower:
            width = narrower
            lines = self._content.wrap(width)
        self._lines, self._width, self._strips = lines, width, {}
        self.virtual_size = Size(width, len(lines))
        # (force: at once, even before Textual has shown the scrollbar the
        # new lines need; the scrollbar's thumb is set here for that case)
        self.scroll_to(y=max(0, self._share * len(lines) - 1), animate=False, force=True)
        self.vertical_scrollbar.position = self.scroll_y
        self.refresh()

    def render_line(self, y: int) -> Strip:
        index = y + self.scroll_offset.y
        if index >= len(self._lines):
            return Strip.blank(self.size.width, self.visual_style.rich_style)
        strip = self._strips.get(index)
        if strip is None:
            strip = Visual.to_strips(self, self._lines[index], self._width, 1, self.visual_style, pad=True)[0]
            self._strips[index] = strip
        return strip
