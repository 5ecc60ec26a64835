"""Writing XML archives: :class:`ArchiveWriter` writes a document game by
game (one game's element tree in memory at a time) and checks every value
the schema restricts before a game is written, so that every document
written validates.

    >>> game_xml(GameRecord(tags=[("Game", "kingulu")], result="*")).decode().splitlines()[:3]
    ['', '  <game>', '    <tags>']
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import BinaryIO, Generic, TypeVar

from lxml import etree

from .grammar import HOLE
from .notation_errors import XMLArchiveError
from .record import (
    GLYPHS,
    MAX_DIGITS,
    MAX_VARIATION_DEPTH,
    RESULTS,
    SKIP,
    GameRecord,
    MoveNode,
    SkipType,
    Step,
    Visitor,
    bad_character,
    tag_problem,
    visit,
)
from .xml_schema import VERSION

__all__ = ["ARCHIVE_HEAD", "ARCHIVE_TAIL", "ArchiveWriter", "FaultT", "game_xml", "write_archive"]

#: Pretty-printing indents two spaces a level, up to this level.
_MAX_INDENT = 40
_SubElement = etree.SubElement

_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
# What the schema allows (its patterns and choices), checked before writing.
_TOKEN = re.compile(r"[^ \t\n\r]+")
_POSITION = re.compile(r"[0-9*,/]+ [SN] [0-9]+-[0-9]+ [0-9]+")
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_INDENTS = tuple("\n" + "  " * level for level in range(_MAX_INDENT + 1))
_HOLE = re.compile(HOLE)


#: How every archive starts: the declaration and the root's start tag.
ARCHIVE_HEAD = f'<?xml version="1.0" encoding="UTF-8"?>\n<mancala version="{VERSION}">'.encode()
#: How every archive ends, after its last game.
ARCHIVE_TAIL = b"\n</mancala>\n"


def game_xml(record: GameRecord, *, positions: bool = False, start: str | None = None) -> bytes:
    """The bytes one game adds to an archive, indented as the root's child:
    :data:`ARCHIVE_HEAD`, the games' bytes in order and :data:`ARCHIVE_TAIL`
    are the document :func:`write_archive` writes. Raises
    :class:`XMLArchiveError` (the reason starting ``game N:``, ``N`` the
    record's ``index``) for a game an archive cannot hold."""
    return b"\n  " + etree.tostring(_game_element(record, positions, start), encoding="utf-8")


class ArchiveWriter:
    """An archive written to ``out`` game by game: the head at once, each
    game as it comes (:meth:`write`, or :meth:`write_bytes` for the bytes of
    :func:`game_xml` made elsewhere), the tail at :meth:`close`. One game's
    element tree is in memory at a time.

        >>> import io
        >>> out = io.BytesIO()
        >>> writer = ArchiveWriter(out)
        >>> writer.write(GameRecord(tags=[("Game", "kingulu")], result="*"))
        >>> writer.close()
        >>> out.getvalue().decode().splitlines()[1:4]
        ['<mancala version="1">', '  <game>', '    <tags>']
    """

    def __init__(self, out: BinaryIO) -> None:
        self.out = out
        out.write(ARCHIVE_HEAD)

    def write(self, record: GameRecord, *, positions: bool = False, start: str | None = None) -> None:
        """Add ``record``; raises :class:`XMLArchiveError` (nothing written) for a game an archive cannot hold."""
        self.out.write(game_xml(record, positions=positions, start=start))

    def write_bytes(self, game: bytes) -> None:
        """Add a game's bytes from :func:`game_xml`."""
        self.out.write(game)

    def close(self) -> None:
        """End the document."""
        self.out.write(ARCHIVE_TAIL)


def write_archive(records: Iterable[GameRecord], out: BinaryIO, *, positions: bool = False,
                  start: Callable[[GameRecord], str | None] | None = None,
                  refused: Callable[[XMLArchiveError], None] | None = None) -> None:
    """Write one XML document holding every game of ``records`` to ``out``
    (through :class:`ArchiveWriter`).

    UTF-8, pretty-printed (two spaces a level), the same bytes for the same
    records. Streamed game by game: ``records`` may be a generator over a huge
    input. With ``positions``, a move's ``position`` (filled by replay) is
    written as its ``position`` attribute. ``start``, when given, names the
    position a record starts from (written as the game's ``start`` attribute;
    it is not read back, as a record has no field for it: it follows from the
    ``Game`` and ``Setup`` tags).

    Raises :class:`XMLArchiveError` before writing a game that the schema
    or a reader cannot hold (a glyph, NAG, result, move number or mark out
    of range, a bad tag, a control character, variations nested too deep);
    the games before it have been written by then. With ``refused``, such a
    game is given to it instead and left out, and the games after it are
    written.
    """
    writer = ArchiveWriter(out)
    for record in records:
        try:
            writer.write(record, positions=positions, start=start(record) if start else None)
        except XMLArchiveError as error:
            if refused is None:
                raise
            refused(error)
    writer.close()


def _game_element(record: GameRecord, positions: bool, start: str | None) -> etree._Element:
    try:
        return _build_game(record, positions, start)
    except XMLArchiveError as exc:
        exc.reason = f"game {record.index}: {exc.reason}"
        exc.line, exc.file = record.line, record.file
        raise
    except ValueError as exc:  # lxml refuses strings XML cannot hold
        raise XMLArchiveError(f"game {record.index}: {_unwritable_text(record) or exc}",
                              record.line, file=record.file) from None


def _build_game(record: GameRecord, positions: bool, start: str | None) -> etree._Element:
    game = etree.Element("game")
    if start is not None:
        if not _POSITION.fullmatch(start):
            raise XMLArchiveError(f"start position {start!r} is not a position string")
        game.set("start", start)
    inner = _INDENTS[2]
    game.text = inner
    tags = etree.SubElement(game, "tags")
    tags.tail = inner
    if record.tags:
        tags.text = _INDENTS[3]
        tag = None
        for name, value in record.tags:
            problem = tag_problem(name, value)
            if problem:
                raise XMLArchiveError(problem)
            tag = etree.SubElement(tags, "tag", name=name)
            _set_text(tag, value)
            tag.tail = _INDENTS[3]
        if tag is not None:
            tag.tail = inner
    if record.comment is not None:
        comment = etree.SubElement(game, "comment")
        _set_text(comment, _writable(record.comment, "game comment"))
        comment.tail = inner
    moves = etree.SubElement(game, "moves")
    moves.tail = inner
    _build_moves(moves, record.moves, positions)
    if record.result is not None:
        if record.result not in RESULTS:
            raise XMLArchiveError(f"result {record.result!r} is not one of {', '.join(RESULTS)}")
        result = etree.SubElement(game, "result")
        result.text = record.result
        result.tail = inner
    game[-1].tail = _INDENTS[1]
    return game


FaultT = TypeVar("FaultT")


class _FirstFault(Visitor["FaultT | None"], Generic[FaultT]):
    """What is wrong with a record's moves, found along :func:`~notation.record.walk`.

    A line's first fault ends it (its later moves and the variations of its
    moves are skipped). Of the faults of all lines, :meth:`result` gives the
    one found first by a walk that takes a whole line and then its
    variations, the last one first: that of the last line to end (the main
    line ends last). Subclasses call :meth:`found` and skip a move when
    :attr:`faults` holds one for its depth.
    """

    def __init__(self) -> None:
        #: Per depth: the first fault of the line being walked.
        self.faults: list[FaultT | None] = [None]
        self.fault: FaultT | None = None

    def found(self, step: Step, fault: FaultT) -> None:
        self.faults[step.depth] = fault

    def begin_variation(self, step: Step) -> SkipType | None:
        depth = step.depth
        if self.faults[depth - 1] is not None:
            return SKIP
        if depth == len(self.faults):
            self.faults.append(None)
        else:
            self.faults[depth] = None
        return None

    def end_variation(self, step: Step) -> None:
        fault = self.faults[step.depth]
        if fault is not None:
            self.fault = fault

    def result(self) -> FaultT | None:
        if self.faults[0] is not None:
            self.fault = self.faults[0]
        return self.fault


class _Moves(_FirstFault[Exception]):
    """Builds the ``move`` and ``variation`` elements of a record under its
    ``<moves>`` (at level 2, a variation's moves two levels deeper than its
    move) along :func:`~notation.record.walk`; :meth:`result` raises the
    error that makes the record unwritable, if any."""

    def __init__(self, container: etree._Element, positions: bool) -> None:
        super().__init__()
        self.positions = positions
        #: Per depth: the element holding the line's moves with the indents
        #: after a move and inside it, the line's last move element, and the
        #: variation elements of that move not yet begun.
        self.parents = [(container, _INDENTS[3], _INDENTS[4])]
        self.last: list[etree._Element | None] = [None]
        self.branches: list[list[etree._Element]] = [[]]

    def visit_move(self, step: Step) -> None:
        depth = step.depth
        if self.faults[depth] is not None:
            return
        parent, inner, inmost = self.parents[depth]
        if self.last[depth] is None:
            parent.text = inner
        node = step.node
        try:
            self.last[depth] = element = _SubElement(parent, "move", _move_attributes(node, self.positions))
            element.tail = inner
            if (node.before is not None or node.glyphs or node.nags or node.comment is not None
                    or node.variations):
                element.text = inmost
                _move_children(element, node, inmost)
                if node.variations:
                    branches = self.branches[depth] = []
                    for _ in node.variations:
                        branch = _SubElement(element, "variation")
                        branch.tail = inmost
                        branches.append(branch)
                    branches.reverse()
                element[-1].tail = inner
        except (XMLArchiveError, ValueError) as fault:  # lxml refuses strings XML cannot hold
            self.found(step, fault)

    def begin_variation(self, step: Step) -> SkipType | None:
        if super().begin_variation(step) is SKIP:
            return SKIP
        depth = step.depth
        branch = self.branches[depth - 1].pop()
        if depth > MAX_VARIATION_DEPTH:
            self.fault = XMLArchiveError(
                f"variations nested more than {MAX_VARIATION_DEPTH} deep: an XML archive holds at most "
                f"{MAX_VARIATION_DEPTH} levels (libxml2 reads at most 2048 nested elements)")
            return SKIP
        level = 2 + 2 * depth
        line = (branch, _INDENTS[min(level + 1, _MAX_INDENT)], _INDENTS[min(level + 2, _MAX_INDENT)])
        if depth == len(self.parents):
            self.parents.append(line)
            self.last.append(None)
            self.branches.append([])
        else:
            self.parents[depth] = line
            self.last[depth] = None
        return None

    def end_variation(self, step: Step) -> None:
        super().end_variation(step)
        self.close(step.depth)

    def close(self, depth: int) -> None:
        last = self.last[depth]
        if last is not None and self.faults[depth] is None:
            last.tail = _INDENTS[min(2 + 2 * depth, _MAX_INDENT)]

    def result(self) -> Exception | None:
        self.close(0)
        fault = super().result()
        if fault is not None:
            raise fault
        return None


def _build_moves(container: etree._Element, moves: list[MoveNode], positions: bool) -> None:
    """Add ``moves`` and their variations under ``container`` (``<moves>``, at
    level 2), iteratively: variations may nest deep."""
    visit(moves, _Moves(container, positions))


def _count(node: MoveNode, what: str, count: int) -> str:
    """``count`` as the archive writes it: not negative and at most
    :data:`~notation.record.MAX_DIGITS` digits, as every reader takes (so
    that what is written reads back)."""
    if count < 0:
        raise XMLArchiveError(f"move {node.hole!r}: negative {what} {count}")
    digits = str(int(count))
    if len(digits) > MAX_DIGITS:
        raise XMLArchiveError(f"move {node.hole!r}: {what} {digits[:12]}... has more than {MAX_DIGITS} digits")
    return digits


def _move_attributes(node: MoveNode, positions: bool) -> dict[str, str]:
    """The attributes of ``node``'s ``move`` element, checked against the schema."""
    attrib = {"hole": node.hole}
    if not _TOKEN.fullmatch(node.hole):
        raise XMLArchiveError(f"move {node.hole!r}: a hole is written without white space")
    if not _HOLE.fullmatch(node.hole):
        raise XMLArchiveError(f"move {node.hole!r} is not a hole")
    if node.destination is not None:
        if not _TOKEN.fullmatch(node.destination):
            raise XMLArchiveError(f"move {node.text!r}: a hole is written without white space")
        if not _HOLE.fullmatch(node.destination):
            raise XMLArchiveError(f"move {node.hole!r}: destination {node.destination!r} is not a hole")
        attrib["destination"] = node.destination
    if node.captured is not None:
        attrib["captured"] = _count(node, "capture mark", node.captured)
    if node.reserved:
        attrib["reserved"] = "true"
    if node.number is not None:
        attrib["number"] = _count(node, "move number", node.number)
    if node.dots is not None:
        if node.dots not in (".", "..."):
            raise XMLArchiveError(f"move {node.hole!r}: move number dots {node.dots!r}, not . or ...")
        attrib["dots"] = node.dots
    if positions and node.position is not None:
        if not _POSITION.fullmatch(node.position):
            raise XMLArchiveError(f"move {node.text!r}: {node.position!r} is not a position string")
        attrib["position"] = node.position
    return attrib


def _move_children(element: etree._Element, node: MoveNode, inmost: str) -> None:
    """The ``before``, ``glyph``, ``nag`` and ``comment`` elements of ``node``, checked."""
    if node.before is not None:
        _text_child(element, "before", _writable(node.before, f"comment before move {node.hole!r}"), inmost)
    for glyph in node.glyphs:
        if glyph not in GLYPHS:
            raise XMLArchiveError(f"move {node.text!r}: glyph {glyph!r} is not one of {' '.join(GLYPHS)}")
        _text_child(element, "glyph", glyph, inmost)
    for nag in node.nags:
        if not 0 <= nag <= 255:
            raise XMLArchiveError(f"move {node.text!r}: NAG ${nag} is not in 0-255")
        _text_child(element, "nag", str(int(nag)), inmost)
    if node.comment is not None:
        _text_child(element, "comment", _writable(node.comment, f"comment after move {node.hole!r}"), inmost)


def _set_text(element: etree._Element, text: str) -> None:
    element.text = text
    # Mark white space that a pretty-printer could change as significant.
    if text and (text[0] in " \t\n\r" or text[-1] in " \t\n\r" or "  " in text
                 or "\n" in text or "\t" in text or "\r" in text):
        element.set(_XML_SPACE, "preserve")


def _writable(text: str, what: str) -> str:
    """``text``, when a reader accepts it back (no control character …)."""
    bad = bad_character(text)
    if bad:
        raise XMLArchiveError(f"{what}: {bad}")
    return text


def _text_child(parent: etree._Element, name: str, text: str, tail: str) -> None:
    """Append ``<name>text</name>`` followed by ``tail`` (the indent)."""
    child = etree.SubElement(parent, name)
    _set_text(child, text)
    child.tail = tail


class _Unwritable(_FirstFault[str]):
    """Which text of a record's moves holds a character XML cannot, if any."""

    def visit_move(self, step: Step) -> None:
        if self.faults[step.depth] is not None:
            return
        node = step.node
        move = f"move {node.hole!r}"
        for what, text in (("move", node.hole), (move, node.destination), (f"comment before {move}", node.before),
                           (f"comment after {move}", node.comment), (f"position after {move}", node.position)):
            match = None if text is None else _NOT_XML.search(text)
            if match:
                self.found(step, f"{what}: character U+{ord(match.group()):04X} cannot be written in XML")
                return


def _unwritable_text(record: GameRecord) -> str | None:
    """Which text of ``record`` holds a character XML cannot, if any."""
    texts: list[tuple[str, str]] = []
    for name, value in record.tags:
        texts += [(f"tag name {name!r}", name), (f"tag {name}", value)]
    if record.comment is not None:
        texts.append(("game comment", record.comment))
    for what, text in texts:
        match = _NOT_XML.search(text)
        if match:
            return f"{what}: character U+{ord(match.group()):04X} cannot be written in XML"
    return visit(record, _Unwritable())
