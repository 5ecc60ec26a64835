"""XML archives of game records, validated against a RELAX NG schema shipped
in the package (``notation/schema/mancala.rng``).

One document holds every game of the input::

    <?xml version="1.0" encoding="UTF-8"?>
    <mancala version="1">
      <game>
        <tags>
          <tag name="Game">kingulu</tag>
          <tag name="Result">*</tag>
        </tags>
        <moves>
          <move hole="d1" captured="6" number="1" dots=".">
            <comment>empty-hole capture</comment>
            <variation>
              <move hole="c1"/>
            </variation>
          </move>
        </moves>
        <result>*</result>
      </game>
    </mancala>

Writing streams the document game by game (:class:`ArchiveWriter`: one
game's element tree in memory at a time), and checks every value the
schema restricts before a game is written, so that every document written
validates. Reading streams too (:func:`lxml.etree.iterparse` over the
``<game>`` elements, each cleared once read) and validates every game against
the schema's ``game`` definition, and the root element and whatever lies
between the games against the whole schema: memory stays constant however many
games a document holds, and every document is validated in full.

Reading is safe: no DTD (a document with a DOCTYPE is refused, so no entity
is ever expanded and nothing is fetched), no network.

    >>> import io
    >>> from .record import GameRecord, MoveNode
    >>> record = GameRecord(tags=[("Game", "kingulu")], moves=[MoveNode("d1", captured=0)], result="*")
    >>> out = io.BytesIO()
    >>> write_archive([record], out)
    >>> [(r.tags, r.moves[0].text, r.result) for r in read_archive(out.getvalue())]
    [([('Game', 'kingulu')], 'd1x0', '*')]

Limits: libxml2 refuses documents whose elements nest deeper than 2048, so an
archive holds variations nested at most :data:`MAX_VARIATION_DEPTH` (1000)
deep; :func:`write_archive` refuses deeper records and :func:`read_archive`
deeper documents with an :class:`XMLArchiveError`. XML 1.0 cannot hold most
control characters (U+0000-U+001F but tab, newline and carriage return;
U+FFFE, U+FFFF; lone surrogates): a record holding one is refused too.
"""
from __future__ import annotations

import copy
import io
import os
import re
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from importlib import resources
from typing import BinaryIO, Generic, TypedDict, TypeVar, cast

from lxml import etree

from .errors import NotationError, XMLArchiveError
from .sniffing import is_xml
from .grammar import HOLE
from .record import (GLYPHS, MAX_DIGITS, MAX_PROBLEMS, MAX_VARIATION_DEPTH, RESULTS, SKIP, GameRecord, MoveNode, Problem,
                     SkipType, Step, Visitor, bad_character, tag_problem, visit)

__all__ = ["ARCHIVE_HEAD", "ARCHIVE_TAIL", "MAX_VARIATION_DEPTH", "ArchiveWriter", "XMLArchiveError", "game_schema",
           "game_xml", "is_xml", "read_archive", "schema", "write_archive"]

#: The longest line read, in bytes with its line end, as for PMN and JSON
#: Lines: a longer line ends the document before libxml2 sees it, so that
#: a document of one huge line is never held in memory.
MAX_LINE = 4 << 20
#: Bytes handed to the parser at a time (less than :data:`MAX_LINE`).
_CHUNK = 1 << 16

#: The archive format's version, the root's ``version`` attribute.
VERSION = "1"
#: Pretty-printing indents two spaces a level, up to this level.
_MAX_INDENT = 40
_SubElement = etree.SubElement

_RNG = "{http://relaxng.org/ns/structure/1.0}"
_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
# What the schema allows (its patterns and choices), checked before writing.
_TOKEN = re.compile(r"[^ \t\n\r]+")
_POSITION = re.compile(r"[0-9*,/]+ [SN] [0-9]+-[0-9]+ [0-9]+")
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_AT = re.compile(r",? line \d+, column \d+\s*$")
_INDENTS = tuple("\n" + "  " * level for level in range(_MAX_INDENT + 1))
_HOLE = re.compile(HOLE)
_COUNT = re.compile(r"\s*\+?0*([0-9]+)\s*\Z")
#: No element of the schema has more attributes than this (``move`` has
#: seven); an element with more is refused before the validator sees it
#: (its time grows with the square of their number).
_MAX_ATTRIBUTES = 8
_TOO_MANY_ATTRIBUTES = etree.XPath(f"descendant-or-self::*[count(@*) > {_MAX_ATTRIBUTES}][1]")
_FIRST_ATTRIBUTES = etree.XPath(f"@*[position() <= {_MAX_ATTRIBUTES}]")


class _BadGame(Exception):
    """A value of a game that no record can hold: the game is reported, not read."""

    def __init__(self, message: str, line: int | None, code: str = "syntax") -> None:
        super().__init__(message)
        self.message, self.line, self.code = message, line, code


# -- the schema ------------------------------------------------------------------------------


class _Settings(TypedDict):
    resolve_entities: bool
    no_network: bool
    load_dtd: bool
    dtd_validation: bool


#: The parser settings for anything read: no entities, no DTD, no network.
_SAFE: _Settings = {"resolve_entities": False, "no_network": True, "load_dtd": False, "dtd_validation": False}


def _line(element: etree._Element) -> int | None:
    """The line where ``element`` starts (lxml-stubs 0.5 leave ``sourceline`` untyped)."""
    return element.sourceline  # type: ignore[return-value]


@lru_cache(maxsize=1)
def _schema_tree() -> etree._ElementTree:
    data = resources.files("notation").joinpath("schema", "mancala.rng").read_bytes()
    return etree.ElementTree(etree.fromstring(data, etree.XMLParser(**_SAFE)))


@lru_cache(maxsize=1)
def schema() -> etree.RelaxNG:
    """The archive schema (``notation/schema/mancala.rng``), compiled."""
    return etree.RelaxNG(_schema_tree())


@lru_cache(maxsize=1)
def game_schema() -> etree.RelaxNG:
    """The same schema with a ``<game>`` element as its start: what each game
    of a document is validated against while it is streamed."""
    tree = copy.deepcopy(_schema_tree())
    start = tree.getroot().find(_RNG + "start")
    assert start is not None  # (the schema has one)
    for child in list(start):
        start.remove(child)
    etree.SubElement(start, _RNG + "ref", name="game")
    return etree.RelaxNG(tree)


def _validation_error(validator: etree.RelaxNG, line: int | None = None,
                      file: str | None = None) -> XMLArchiveError:
    """The validator's messages about the first place it failed."""
    errors = list(validator.error_log)
    if not errors:
        return XMLArchiveError("does not validate against the archive schema", line, file=file)
    first = errors[0]
    messages: list[str] = []
    for error in errors:
        if error.line == first.line and error.message not in messages:
            messages.append(error.message)
    where = line if line is not None else (first.line or None)
    return XMLArchiveError("; ".join(messages[:3]), where, file=file)


# -- sniffing --------------------------------------------------------------------------------


# -- writing ---------------------------------------------------------------------------------


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
        if node.captured < 0:
            raise XMLArchiveError(f"move {node.hole!r}: negative capture mark {node.captured}")
        attrib["captured"] = str(int(node.captured))
    if node.reserved:
        attrib["reserved"] = "true"
    if node.number is not None:
        if node.number < 0:
            raise XMLArchiveError(f"move {node.hole!r}: negative move number {node.number}")
        attrib["number"] = str(int(node.number))
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


# -- reading ---------------------------------------------------------------------------------


def read_archive(source: str | os.PathLike | bytes | BinaryIO, file: str | None = None) -> Iterator[GameRecord]:
    """The games of an XML archive, in order, read as they are met.

    ``source`` is a path, the document's bytes or a binary file; ``file``
    names it in records and errors (a path names itself). Every game is
    validated against the schema before it is yielded; a move's ``line`` is
    the line of its ``<move>`` element (``column`` is ``None``).

    A game that does not validate, or holds a value no record can (a count
    of more than :data:`~notation.record.MAX_DIGITS` digits, a move that is
    no hole token, a control character in a comment), is yielded as a record
    holding only that problem (``syntax``, at the validator's line), and
    reading goes on with the next game; a bad tag (its name not letters,
    digits and ``_``, its value too long or holding a control character) is
    left out with a ``bad-tag`` problem and the rest of the game is read.

    Raises :class:`XMLArchiveError` (with the line, the column when the
    parser gives one, and the parser's or the validator's reason) where the
    document is not well-formed, has a DTD, or its root element or what lies
    between the games does not validate; the games before that point have
    been yielded.
    """
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        with open(path, "rb") as handle:
            yield from _read(handle, file if file is not None else path)
    elif isinstance(source, (bytes, bytearray, memoryview)):
        yield from _read(io.BytesIO(source), file)
    else:
        yield from _read(source, file)


class _BoundedLines:
    """The bytes of ``handle`` for the parser, a chunk at a time, counting
    lines (LF bytes, or LF code units in UTF-16): a line longer than
    :data:`MAX_LINE` bytes raises :class:`XMLArchiveError` at its line."""

    def __init__(self, handle: BinaryIO, file: str | None) -> None:
        self.handle, self.file = handle, file
        self.lines = 0      # the line ends read
        self.run = 0        # the bytes read since the last line end
        self.end = b""      # the line end: b"\n", or UTF-16's in its byte order
        self.carry = b""    # (UTF-16) the odd byte of a chunk, kept for the next

    def read(self, size: int = -1) -> bytes:
        more = self.handle.read(size if size is not None and 0 < size <= _CHUNK else _CHUNK)
        data = self.carry + more
        if not self.end and data:
            self.end = (b"\n\0" if data[:2] in (b"\xff\xfe", b"<\0") else
                        b"\0\n" if data[:2] in (b"\xfe\xff", b"\0<") else b"\n")
        if len(self.end) == 2 and more:  # whole code units, so that a line end is never cut
            cut = len(data) - len(data) % 2
            data, self.carry = data[:cut], data[cut:]
        else:
            self.carry = b""
        self._count(data)
        return data

    def _count(self, data: bytes) -> None:
        first, last, count = self._ends(data)
        if count:
            self._check(self.run + first + len(self.end), 0)
            self.run = len(data) - last - len(self.end)
        else:
            self.run += len(data)
        self._check(self.run, count)
        self.lines += count

    def _ends(self, data: bytes) -> tuple[int, int, int]:
        """Where the first and the last line end of ``data`` start, and how many there are."""
        end = self.end
        if len(end) == 1:
            return data.find(end), data.rfind(end), data.count(end)
        first = last = -1
        count = 0
        at = data.find(end)
        while at >= 0:
            if at % 2 == 0:  # (the start of a code unit: chunks are whole code units)
                first = at if first < 0 else first
                last = at
                count += 1
            at = data.find(end, at + 1)
        return first, last, count

    def _check(self, length: int, ended: int) -> None:
        if length > MAX_LINE:
            raise XMLArchiveError(f"the line is longer than {MAX_LINE} bytes; the rest of the input is not read",
                                  self.lines + ended + 1, None, self.file)


def _read(handle: BinaryIO, file: str | None) -> Iterator[GameRecord]:
    handle = cast(BinaryIO, _BoundedLines(handle, file))
    events = etree.iterparse(handle, events=("start", "end"), tag=("mancala", "game"), **_SAFE,
                             huge_tree=True, remove_blank_text=False)
    root = None
    checked = False  # the root is checked at the event after its start: a start
    # tag cut short by the end of the input is then reported as badly formed
    index = 0
    validator = game_schema()
    try:
        for event, element in events:
            if root is None:
                root = element.getroottree().getroot()
                _check_dtd(root, file)
                continue
            if not checked:
                _check_root(root, file)
                checked = True
            if event == "start" or element is root or element.getparent() is not root:
                continue  # a <game> out of place is reported with what holds it
            _check_between(root, element, file)
            index += 1
            record = _valid_record(element, validator, file, index)
            element.clear(keep_tail=True)
            previous = element.getprevious()
            while previous is not None:
                root.remove(previous)
                previous = element.getprevious()
            yield record
        if root is None:
            root = events.root
        if not checked:
            _check_root(root, file)
        _check_between(root, None, file)
    except etree.XMLSyntaxError as exc:
        raise _syntax_error(exc, file) from None


def _valid_record(game: etree._Element, validator: etree.RelaxNG, file: str | None, index: int) -> GameRecord:
    """The record of a ``<game>``, or a record holding only what is wrong with it."""
    line = _line(game) or 1
    crowded = cast("list[etree._Element]", _TOO_MANY_ATTRIBUTES(game))
    if crowded:
        count = cast(float, crowded[0].xpath("count(@*)"))
        reason = f"element {crowded[0].tag} has {int(count)} attributes"
        return _bad_game(file, index, line, "syntax",
                         f"not valid against the archive schema: {reason}", _line(crowded[0]))
    if not validator.validate(game):
        error = _validation_error(validator)
        return _bad_game(file, index, line, "syntax", f"not valid against the archive schema: {error.reason}",
                         error.line)
    try:
        return _record(game, file, index)
    except _BadGame as bad:
        return _bad_game(file, index, line, bad.code, bad.message, bad.line)


def _bad_game(file: str | None, index: int, line: int, code: str, message: str,
              at: int | None) -> GameRecord:
    return GameRecord(file=file, index=index, line=line,
                      problems=[Problem("error", code, message, at or line, None)])


def _syntax_error(exc: etree.XMLSyntaxError, file: str | None) -> XMLArchiveError:
    reason = _AT.sub("", exc.msg or str(exc))
    if "Excessive depth" in reason:
        reason = (f"elements nested deeper than libxml2 reads (2048): an XML archive holds variations nested "
                  f"at most {MAX_VARIATION_DEPTH} deep")
    line, column = exc.position if exc.position else (exc.lineno, None)
    return XMLArchiveError(f"not well-formed XML: {reason}", line or None, column or None, file)


def _check_dtd(root: etree._Element, file: str | None) -> None:
    docinfo = root.getroottree().docinfo
    doctype = docinfo.doctype  # type: ignore[attr-defined]  # (missing from lxml-stubs)
    if doctype or docinfo.internalDTD is not None or docinfo.externalDTD is not None:
        raise XMLArchiveError("DTDs are not allowed in an XML archive (a <!DOCTYPE …> was found): "
                              "refused without expanding any entity", file=file)


def _check_root(root: etree._Element, file: str | None) -> None:
    """No DTD; the root element and its attributes as the schema wants."""
    _check_dtd(root, file)
    shell = _shell(root)
    full = schema()
    if not full.validate(shell):
        raise _validation_error(full, _line(root), file)


def _check_between(root: etree._Element, game: etree._Element | None, file: str | None) -> None:
    """What lies in the root before ``game`` (or all of it when ``None``): only
    games (already read), comments, processing instructions and white space."""
    texts: list[tuple[str, int | None]] = []  # non-blank texts and the lines where they start

    def text_at(text: str | None, before: etree._Element, after: etree._Element | None) -> None:
        if text and not text.isspace():
            content = text.lstrip()
            if after is not None:
                texts.append((text, _line_plus(after, -content.count("\n"))))
            elif before is root:  # text in an empty root: count from its start tag
                texts.append((text, _line_plus(before, text[: len(text) - len(content)].count("\n"))))
            else:  # after the last element: somewhere after its start
                texts.append((text, _line(before)))

    others: list[etree._Element] = []
    previous, text = root, root.text
    for child in root:
        text_at(text, previous, child)
        if child is game:
            break
        if isinstance(child.tag, str) and child.tag != "game":
            others.append(child)
        previous, text = child, child.tail
    else:
        text_at(text, previous, None)
    # A stray element is reported before stray text; the first of either.
    if others:
        shell = _shell(root)
        etree.SubElement(shell, others[0].tag)
        _refuse(shell, _line(others[0]), file)
    if texts:
        text, line = texts[0]
        shell = _shell(root)
        shell.text = text
        _refuse(shell, line, file)


def _line_plus(element: etree._Element, lines: int) -> int | None:
    line = _line(element)
    return None if line is None else line + lines


def _shell(root: etree._Element) -> etree._Element:
    """The root element with its attributes and nothing inside (for the
    schema); the first few attributes only, so that a root with very many is
    refused at once (the first unknown one is named)."""
    # (attrib.items() takes time with the square of their number)
    first = cast("list[etree._ElementUnicodeResult]", _FIRST_ATTRIBUTES(root))
    return etree.Element(root.tag, {str(attribute.attrname): str(attribute) for attribute in first})


def _refuse(shell: etree._Element, line: int | None, file: str | None) -> None:
    full = schema()
    if full.validate(shell):  # pragma: no cover - the shell is invalid by construction
        raise XMLArchiveError("unexpected content in <mancala>", line, file=file)
    raise _validation_error(full, line, file)


def _text(element: etree._Element) -> str:
    if len(element) == 0:
        return element.text or ""
    return "".join(cast("list[str]", element.xpath("text()")))  # around XML comments or processing instructions


def _record(game: etree._Element, file: str | None, index: int) -> GameRecord:
    record = GameRecord(file=file, index=index, line=_line(game) or 1)
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
                record.problems.append(Problem("error", "bad-tag", problem, _line(tag_element), None))
        elif tag == "comment":
            record.comment = _checked(child, "game comment")
        elif tag == "moves":
            record.moves = _moves(child)
        elif tag == "result":
            record.result = _text(child).strip()
    return record


def _moves(container: etree._Element) -> list[MoveNode]:
    """The moves under ``container``, with their variations, iteratively."""
    moves: list[MoveNode] = []
    is_hole = _HOLE.fullmatch
    work = [(container, moves)]
    while work:
        parent, target = work.pop()
        for element in parent.iterchildren("move"):
            get = element.get
            hole = get("hole", "")  # (valid: it has one)
            if not is_hole(hole):
                _hole(element, "hole")
            node = MoveNode(hole, line=element.sourceline)  # type: ignore[arg-type]  # (see _line)
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
                        work.append((child, variation))
            target.append(node)
    return moves


def _hole(element: etree._Element, name: str) -> str:
    value = element.get(name, "")
    if not _HOLE.fullmatch(value):
        raise _BadGame(f"move {value!r}: {name} {value!r} is not a hole" if name == "destination"
                       else f"move {value!r} is not a hole", _line(element))
    return value


def _count(element: etree._Element, name: str, value: str) -> int:
    """A count as the schema allows it (blanks, ``+``, leading zeros), of at
    most :data:`~notation.record.MAX_DIGITS` digits."""
    match = _COUNT.match(value)
    digits = match.group(1) if match else value
    if len(digits) > MAX_DIGITS:
        holder = element if element.tag == "move" else element.getparent()
        hole = None if holder is None else holder.get("hole")
        raise _BadGame(f"move {hole!r}: {name} {digits[:12]}... has more than {MAX_DIGITS} digits",
                       _line(element))
    return int(digits)


def _checked(element: etree._Element, what: str) -> str:
    text = _text(element)
    bad = bad_character(text)
    if bad:
        raise _BadGame(f"{what}: {bad}", _line(element))
    return text
