"""A damaged game of an XML archive: where its elements start in the input
(:class:`Where`), the first element the schema refuses (:func:`first_damage`)
and what is left of the game without it (:func:`prune`), so that
:mod:`notation.xml_reader` reads a damaged game up to the damage, as the PMN
reader does. Between :mod:`notation.xml_schema` and :mod:`notation.xml_reader`.
"""
from __future__ import annotations

import re
from typing import Protocol, cast

from lxml import etree

from .xml_schema import validation_error

__all__ = ["MAX_ATTRIBUTES", "MAX_PRUNES", "KeptInput", "Where", "first_damage", "prune", "source_line"]

#: No element of the schema has more attributes than this (``move`` has
#: seven); an element with more is refused before the validator sees it
#: (its time grows with the square of their number).
MAX_ATTRIBUTES = 8
_TOO_MANY_ATTRIBUTES = etree.XPath(f"descendant-or-self::*[count(@*) > {MAX_ATTRIBUTES}][1]")
#: A start tag (its name in group 1), or what else starts with ``<`` (a
#: comment, CDATA section, processing instruction, end tag), in the text of
#: a document: what :class:`Where` counts the elements by.
_MARKUP = re.compile(r"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>|</[^>]*+>"
                     r"|<([^\s/>!?]++)(?:[^>\"']++|\"[^\"]*+\"|'[^']*+')*+>", re.S)
#: The most places of one game that are pruned (:func:`prune`) before it is
#: given up (read as an empty record holding the first problem found); past
#: half of them, a bad ``<tag>`` is pruned with all that follows it.
MAX_PRUNES = 10


class KeptInput(Protocol):
    """The input kept since a game started (``xml_reader``'s line counter)."""

    #: The line where the input kept starts (at the start of that line).
    kept_line: int

    def text(self) -> str:
        """The input kept, decoded."""
        ...


def source_line(element: etree._Element) -> int | None:
    """The line where ``element``'s start tag ends (lxml-stubs 0.5 leave ``sourceline`` untyped)."""
    return element.sourceline  # type: ignore[return-value]


_line = source_line


class Where:
    """Where the elements of one ``<game>`` start in the input: the line and
    the column (1-based, in characters) of the ``<`` of an element's start
    tag. lxml gives only the line where a start tag ends, so the input kept
    since the game started (:class:`KeptInput`, from the start of a line) is
    read again, once, when first asked: the game's own start tag is the ``nth`` ``<game …>``
    ending on the game's line, and its elements follow it in document order.
    Where that cannot be told (a start tag spanning lines across the input
    read before the game's, say), an element is at the line lxml gives and
    column 1.

    First asked before the game is pruned (:func:`prune`): it then holds the
    game's elements as read, which keeps them the same objects after."""

    def __init__(self, feeder: KeptInput, game: etree._Element, nth: int) -> None:
        self.feeder, self.game, self.nth = feeder, game, nth
        self.elements: list[etree._Element] | None = None
        self.index: dict[int, int] = {}
        self.starts: list[tuple[int, int]] = []  # (line, column) of each element's <, in document order

    def __call__(self, element: etree._Element) -> tuple[int, int]:
        if self.elements is None:
            self.elements = list(self.game.iter(tag=etree.Element))
            self.index = {id(known): k for k, known in enumerate(self.elements)}  # (the list keeps the ids)
            self.starts = self._starts(self.elements)
        index = self.index.get(id(element))
        if self.starts and index is not None:
            return self.starts[index]
        return _line(element) or _line(self.game) or 1, 1

    def _starts(self, elements: list[etree._Element]) -> list[tuple[int, int]]:
        """The start of each element, or none where the input does not match them."""
        text = self.feeder.text()
        game_line = _line(self.game)
        starts: list[tuple[int, int]] = []
        line, line_start, at = self.feeder.kept_line, 0, 0  # the line at ``at`` and where it starts
        seen = 0  # the start tags of games ending on the game's line
        for match in _MARKUP.finditer(text):
            name = match.group(1)
            if name is None:
                continue
            for to in (match.start(), match.end()):
                breaks = text.count("\n", at, to)
                if breaks:
                    line += breaks
                    line_start = text.rfind("\n", at, to) + 1
                at = to
                if to == match.start():
                    start = (line, to - line_start + 1)
                if starts:
                    break  # (after the game's start tag, only where each starts)
            if not starts:
                if name != "game" or line != game_line:
                    continue
                seen += 1
                if seen < self.nth:
                    continue
            element = elements[len(starts)]
            tag = element.tag
            local = etree.QName(element).localname if isinstance(tag, str) and tag.startswith("{") else tag
            if name.rpartition(":")[2] != local:
                return []
            starts.append(start)
            if len(starts) == len(elements):
                return starts
        return []


def first_damage(game: etree._Element, validator: etree.RelaxNG) -> tuple[etree._Element, str] | None:
    """The first element of ``game`` that the schema refuses, and why; ``None`` if it is valid."""
    crowded = cast("list[etree._Element]", _TOO_MANY_ATTRIBUTES(game))
    if crowded:
        count = cast(float, crowded[0].xpath("count(@*)"))
        return crowded[0], f"element {crowded[0].tag} has {int(count)} attributes"
    if validator.validate(game):
        return None
    errors = list(validator.error_log)
    reason = validation_error(validator).reason
    first = errors[0] if errors else None
    path = first.path if first is not None else None
    found: object = None
    if path == "/game":
        found = game
    elif path and path.startswith("/game/"):
        try:
            found = game.xpath(path[len("/game/"):])
        except etree.XPathError:  # (a step with a namespace prefix, say)
            found = None
    if isinstance(found, list):
        found = found[0] if found else None
    if isinstance(found, etree._Element) and (found is game or any(a is game for a in found.iterancestors())):
        return found, reason
    line = first.line if first is not None else None  # the first element on the validator's line
    on_line = (element for element in game.iter(tag=etree.Element) if element is not game and _line(element) == line)
    return next(on_line, game), reason


def prune(game: etree._Element, bad: etree._Element, *, alone: bool = True) -> bool:
    """Leave out of ``game`` the element ``bad`` and all that follows it in the
    document, so that what comes before it can be read (and a variation it
    leaves empty); with ``alone``, a ``<tag>`` is left out alone (as a bad tag
    is). For the game itself, its attributes and text (what the schema can
    refuse in it) are dropped. False when nothing changed."""
    if bad is game:
        changed = bool(game.attrib) or bool(game.text and game.text.strip())
        game.attrib.clear()
        game.text = None
        for child in game:
            changed = changed or bool(child.tail and child.tail.strip())
            child.tail = None
        return changed
    parent = bad.getparent()
    if parent is None:  # pragma: no cover - bad is in the game
        return False
    if alone and bad.tag == "tag" and parent.tag == "tags" and parent.getparent() is game:
        parent.remove(bad)
        return True
    node: etree._Element = bad
    while node is not game:
        holder = node.getparent()
        assert holder is not None  # (node is in the game)
        for later in list(node.itersiblings()):
            holder.remove(later)
        node = holder
    parent.remove(bad)
    if parent.tag == "variation" and len(parent) == 0:
        holder = parent.getparent()
        assert holder is not None  # (a variation is in a move)
        holder.remove(parent)
    return True

