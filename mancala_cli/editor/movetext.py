"""The movetext of ``mancala edit``: numbered moves with variations in
parentheses, comments in braces and NAGs, as PMN shows them, each move a
link that goes to it, the cursor's move shown reversed."""
from __future__ import annotations

from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.style import Style
from textual.widgets import Static

from notation.record import walk

from .model import Address, EditedGame

__all__ = ["Movetext", "movetext_content", "address_of"]


DIM, BOLD, CURSOR = Style(dim=True), Style(bold=True), Style(reverse=True)


def _link(address: Address, style: Style | None) -> Style:
    """A move's style: a link that goes to it (``@click``, as markup writes it)."""
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


class Movetext(VerticalScroll, can_focus=True):
    """The movetext, scrolled to the cursor; the arrow keys walk the game."""

    DEFAULT_CSS = "Movetext { height: 1fr; border: round $primary-darken-2; } Movetext:focus { border: round $accent; }"
    BINDINGS = [
        Binding("left", "app.step_back", "Back", show=False),
        Binding("right", "app.step_forward", "Forward", show=False),
        Binding("up", "app.step_back", "Back", show=False),
        Binding("down", "app.step_forward", "Forward", show=False),
    ]

    def compose(self):  # type: ignore[no-untyped-def]
        yield Static("", id="moves")

    def show(self, edited: EditedGame) -> None:
        """The movetext drawn again, scrolled to show the cursor's move (about where it is)."""
        self.query_one("#moves", Static).update(movetext_content(edited))
        moves = edited.addresses() if edited.cursor else []
        where = next((k for k, (address, *_) in enumerate(moves) if address == edited.cursor), 0)
        share = where / len(moves) if moves else 0.0
        self.call_after_refresh(lambda: self.scroll_to(y=max(0, share * self.virtual_size.height - 1),
                                                       animate=False))
