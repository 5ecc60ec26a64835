"""The movetext of ``mancala edit``: numbered moves with variations in
parentheses, comments in braces and NAGs, as PMN shows them, each move a
link that goes to it, the cursor's move shown reversed."""
from __future__ import annotations

from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from notation.record import walk

from .model import Address, EditedGame

__all__ = ["Movetext", "movetext_markup"]


def _escape(text: str) -> str:
    return text.replace("[", r"\[")


def movetext_markup(edited: EditedGame) -> str:
    """The movetext as Textual content markup."""
    record, ids = edited.record, edited._ids()
    parts: list[str] = []
    if record.comment:
        parts.append(f"[dim]{{{_escape(record.comment)}}}[/]")
    numbered = True
    for step in walk(record, side=edited.start.side, number=edited.start.move_number):
        node = step.node
        if step.kind == "begin":
            parts.append("(")
            numbered = True
            continue
        if step.kind == "end":
            parts[-1] += ")"
            numbered = True
            continue
        if node.before:
            parts.append(f"[dim]{{{_escape(node.before)}}}[/]")
            numbered = True
        address = ids[id(node)]
        label = f"{step.number}." if step.side == "S" else f"{step.number}..." if numbered else ""
        text = node.text + "".join(node.glyphs)
        key = ".".join(map(str, address))
        style = "reverse" if address == edited.cursor else "bold" if step.depth == 0 else ""
        parts.append((f"{label} " if label else "") + f"[{style} @click=app.goto('{key}')]{_escape(text)}[/]")
        parts.extend(f"${nag}" for nag in node.nags)
        numbered = False
        if node.comment:
            parts.append(f"[dim]{{{_escape(node.comment)}}}[/]")
            numbered = True
    result = record.result or record.tag("Result") or "*"
    parts.append(_escape(result))
    start = "[reverse]start[/] " if not edited.cursor else ""
    return start + " ".join(parts)


def address_of(key: str) -> Address:
    """The address a movetext link names (``0.1.2``; empty: the start)."""
    return tuple(int(part) for part in key.split(".")) if key else ()


class Movetext(VerticalScroll, can_focus=True):
    """The movetext, scrolled to the cursor; the arrow keys walk the game."""

    DEFAULT_CSS = "Movetext { height: 1fr; border: round $primary-darken-2; } Movetext:focus { border: round $accent; }"
    BINDINGS = [
        Binding("left", "app.back", "Back", show=False),
        Binding("right", "app.forward", "Forward", show=False),
        Binding("up", "app.back", "Back", show=False),
        Binding("down", "app.forward", "Forward", show=False),
    ]

    def compose(self):  # type: ignore[no-untyped-def]
        yield Static("", id="moves")

    def show(self, edited: EditedGame) -> None:
        self.query_one("#moves", Static).update(movetext_markup(edited))
