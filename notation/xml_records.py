"""The record of a valid ``<game>`` element of an XML archive
(:func:`game_record`), each move at the ``<`` of its start tag; a value no
record can hold raises :class:`BadGame`. Used by :mod:`notation.xml_reader`.
"""
from __future__ import annotations

import re
from typing import cast

from lxml import etree

from .grammar import HOLE
from .record import MAX_DIGITS, MAX_PROBLEMS, GameRecord, MoveNode, Problem, bad_character, tag_problem
from .xml_damage import Where, source_line as _line

__all__ = ["BadGame", "game_record"]

_HOLE = re.compile(HOLE)
_COUNT = re.compile(r"\s*\+?0*([0-9]+)\s*\Z")


class BadGame(Exception):
    """A value of a game that no record can hold, in ``element``: the game is
    read up to that element (:func:`~notation.xml_damage.prune`)."""

    def __init__(self, message: str, element: etree._Element, code: str = "syntax") -> None:
        super().__init__(message)
        self.message, self.element, self.code = message, element, code


def _text(element: etree._Element) -> str:
    if len(element) == 0:
        return element.text or ""
    return "".join(cast("list[str]", element.xpath("text()")))  # around XML comments or processing instructions


def game_record(game: etree._Element, file: str | None, index: int, where: Where,
            starts: tuple[list[int], list[int]], first: int) -> tuple[GameRecord, int]:
    """The record of a valid ``<game>`` and the number of its moves (each
    at ``starts[0][first + k]``, column ``starts[1][first + k]``, for the
    ``k``-th in document order)."""
    record = GameRecord(file=file, index=index, line=_line(game) or 1)
    count = 0
    for child in game:
        tag = child.tag
        if tag == "tags":
            bad = 0
            for tag_element in child.iterchildren("tag"):
                name, value = tag_element.get("name", ""), _text(tag_element)  # (valid: it has a name)
                problem = tag_problem(name, value)
                if problem is None:
                    record.tags.append((name, value))
                    continue
                bad += 1  # reported as the PMN reader reports syntax errors: 100 at most
                if bad > MAX_PROBLEMS + 1:
                    continue
                if bad > MAX_PROBLEMS:
                    problem = f"more than {MAX_PROBLEMS} bad tags in this game; the others are not reported"
                record.problems.append(Problem("error", "bad-tag", problem, *where(tag_element)))
        elif tag == "comment":
            record.comment = _checked(child, "game comment")
        elif tag == "moves":
            record.moves, count = _moves(child, starts, first)
        elif tag == "result":
            record.result = _text(child).strip()
    return record, count


def _moves(container: etree._Element, starts: tuple[list[int], list[int]], first: int) -> tuple[list[MoveNode], int]:
    """The moves under ``container``, with their variations, read in
    document order (so iteratively), and how many; the ``k``-th is at line
    ``starts[0][first + k]``, column ``starts[1][first + k]`` (as
    :class:`~notation.xml_starts.MoveStarts` found them): a line after the
    one where lxml says its start tag ends is none, and a move without one
    is at that line, column 1."""
    moves: list[MoveNode] = []
    is_hole = _HOLE.fullmatch
    # the move lists by the elements that hold them (kept here, so lxml gives the same objects again)
    lists: dict[etree._Element | None, list[MoveNode]] = {container: moves}
    at = first
    lines, columns = starts
    for element in container.iter("move"):
        target = lists.get(element.getparent())
        if target is None:  # pragma: no cover - a valid game holds moves in <moves> and <variation> only
            continue
        get = element.get
        hole = get("hole", "")  # (valid: it has one)
        if not is_hole(hole):
            _hole(element, "hole")
        end: int = element.sourceline  # type: ignore[assignment]  # (see _line; libxml2 gives every element one)
        try:
            line, column = lines[at], columns[at]
        except IndexError:
            line, column = end, 1
        else:
            if line > end:
                line, column = end, 1
        at += 1
        node = MoveNode(hole, line=line, column=column)
        value = get("destination")
        if value is not None:
            node.destination = value if is_hole(value) else _hole(element, "destination")
        value = get("captured")
        if value is not None:  # (valid, so int() reads it when it is short)
            node.captured = int(value) if len(value) <= MAX_DIGITS else _count(element, "captured", value)
        value = get("reserved")
        if value is not None:
            node.reserved = value.strip() == "true"
        value = get("number")
        if value is not None:
            node.number = int(value) if len(value) <= MAX_DIGITS else _count(element, "number", value)
        value = get("dots")
        if value is not None:
            node.dots = value.strip()
        value = get("position")
        if value is not None:
            node.position = value
        if len(element):
            _annotations(node, element, lists)
        target.append(node)
    return moves, at - first


def _annotations(node: MoveNode, element: etree._Element,
                 lists: dict[etree._Element | None, list[MoveNode]]) -> None:
    """What a ``<move>`` holds: glyphs, NAGs, comments, and its variations
    (each an empty list in ``node`` and in ``lists``, filled later)."""
    for child in element:
        tag = child.tag
        if tag == "glyph":
            node.glyphs.append(_text(child).strip())
        elif tag == "nag":
            node.nags.append(_count(child, "NAG", _text(child)))
        elif tag == "comment":
            node.comment = _checked(child, f"comment after move {node.hole!r}")
        elif tag == "before":
            node.before = _checked(child, f"comment before move {node.hole!r}")
        elif tag == "variation":
            variation: list[MoveNode] = []
            node.variations.append(variation)
            lists[child] = variation


def _hole(element: etree._Element, name: str) -> str:
    value = element.get(name, "")
    if not _HOLE.fullmatch(value):
        raise BadGame(f"move {value!r}: {name} {value!r} is not a hole" if name == "destination"
                       else f"move {value!r} is not a hole", element)
    return value


def _count(element: etree._Element, name: str, value: str) -> int:
    """A count as the schema allows it (blanks, ``+``, leading zeros), of at
    most :data:`~notation.record.MAX_DIGITS` digits."""
    match = _COUNT.match(value)
    digits = match.group(1) if match else value
    if len(digits) > MAX_DIGITS:
        holder = element if element.tag == "move" else element.getparent()
        hole = None if holder is None else holder.get("hole")
        raise BadGame(f"move {hole!r}: {name} {digits[:12]}... has more than {MAX_DIGITS} digits", element)
    return int(digits)


def _checked(element: etree._Element, what: str) -> str:
    text = _text(element)
    bad = bad_character(text)
    if bad:
        raise BadGame(f"{what}: {bad}", element)
    return text
