"""Reading XML archives: :func:`read_archive` streams the games of a
document (:func:`lxml.etree.iterparse` over the ``<game>`` elements, each
cleared once read) and validates every game against the schema's ``game``
definition, and the root element and whatever lies between the games
against the whole schema. No DTD, no entity, no network. Memory stays
bounded whatever the input: a line holds at most :data:`MAX_LINE` bytes, and
a game, or what lies between two games, at most :data:`MAX_GAME_BYTES` bytes
and :data:`MAX_GAME_MARKUP` ``<`` and ``=``.
"""
from __future__ import annotations

import io
import os
import re
from collections.abc import Iterator
from typing import Any, BinaryIO, cast

from lxml import etree

from .notation_errors import XMLArchiveError
from .record import MAX_VARIATION_DEPTH, GameRecord, Problem
from .xml_damage import MAX_ATTRIBUTES, MAX_PRUNES, Where, first_damage, prune, source_line as _line
from .xml_records import BadGame, game_record
from .xml_schema import SAFE_PARSING, game_schema, schema, validation_error
from .xml_starts import MoveStarts

__all__ = ["MAX_LINE", "MAX_GAME_BYTES", "MAX_GAME_MARKUP", "CHUNK", "read_archive"]

#: The longest line read, in bytes with its line end, as for PMN and JSON
#: Lines: a longer line ends the document before libxml2 sees it, so that
#: a document of one huge line is never held in memory.
MAX_LINE = 4 << 20
#: Bytes handed to the parser at a time (less than :data:`MAX_LINE`).
CHUNK = 32768
#: The most bytes of one ``<game>`` of the root, and of the input between two
#: such games (or before the first, or after the last: the root's start tag,
#: comments, processing instructions, white space, anything out of place):
#: past it, reading stops with an :class:`XMLArchiveError` at that game (the
#: games before it have been read), so that memory stays bounded whatever
#: the input. Text costs about a byte of memory a byte.
MAX_GAME_BYTES = 16 << 20
#: The most ``<`` and ``=`` characters in the same stretch (every tag,
#: comment and processing instruction starts with ``<``, every attribute has
#: an ``=``): what costs memory in a parsed document is its nodes, a few
#: hundred bytes each (the records of its moves more), however many a line
#: holds. Past it, as past :data:`MAX_GAME_BYTES`.
MAX_GAME_MARKUP = 500_000

_AT = re.compile(r",? line \d+, column \d+\s*$")
#: The first :data:`~notation.xml_damage.MAX_ATTRIBUTES` attributes of an element (the root's are read so).
_FIRST_ATTRIBUTES = etree.XPath(f"@*[position() <= {MAX_ATTRIBUTES}]")


def read_archive(source: str | os.PathLike[str] | bytes | BinaryIO, file: str | None = None) -> Iterator[GameRecord]:
    """The games of an XML archive, in order, read as they are met.

    ``source`` is a path, the document's bytes or a binary file; ``file``
    names it in records and errors (a path names itself). Every game is
    validated against the schema before it is yielded; a move's ``line`` and
    ``column`` (from 1, in characters) are those of the ``<`` of its
    ``<move>`` start tag (:class:`~notation.xml_starts.MoveStarts`).

    A game that does not validate, or holds a value no record can (a count
    of more than :data:`~notation.record.MAX_DIGITS` digits, a move that is
    no hole token, a control character in a comment), is yielded as a record
    of what comes before the first such element (tags, moves, variations,
    comments) holding one ``syntax`` problem at the ``<`` of that element
    (line and column from 1), and reading goes on with the next game; a
    bad tag (its name not letters, digits and ``_``, its value too long or
    holding a control character) is left out with a ``bad-tag`` problem
    (at its ``<tag``) and the rest of the game is read.

    Raises :class:`XMLArchiveError` (with the line, the column when the
    parser gives one, and the parser's or the validator's reason) where the
    document is not well-formed, has a DTD, or its root element or what lies
    between the games does not validate; the games before that point have
    been yielded. So it does, without reading further, at a line longer than
    :data:`MAX_LINE` bytes, and at a game (at its line), or a stretch
    between games (at its first comment, processing instruction or element),
    longer than :data:`MAX_GAME_BYTES` bytes or holding more than
    :data:`MAX_GAME_MARKUP` ``<`` and ``=``: these are checked after each
    :data:`CHUNK` of input, on the chunks read wholly within the game or
    the stretch, so that one within the bounds is always read and the parser
    never holds much more than them.
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
    :data:`MAX_LINE` bytes raises :class:`XMLArchiveError` at its line.
    ``size`` is the length of the last chunk and ``markup`` the number of
    its ``<`` and ``=`` (for :data:`MAX_GAME_BYTES` and :data:`MAX_GAME_MARKUP`)."""

    def __init__(self, handle: BinaryIO, file: str | None) -> None:
        self.handle, self.file = handle, file
        self.lines = 0      # the line ends read
        self.run = 0        # the bytes read since the last line end
        self.end = b""      # the line end: b"\n", or UTF-16's in its byte order
        self.carry = b""    # (UTF-16) the odd byte of a chunk, kept for the next
        self.size = 0       # the bytes of the last chunk
        self.markup = 0     # and its < and =
        self.marks = (b"<", b"=")  # (their code units in UTF-16)
        self.data = b""     # the last chunk
        self.open: list[bytes] = []  # the bytes of the line being read (since the last line end)
        self.before: tuple[list[bytes], int] = ([], 1)  # the same before the last chunk, and its line
        self.kept: list[bytes] | None = None  # the input since :meth:`keep` (then :meth:`text`)
        self.kept_line = 1  # the line where it starts
        self.starts = MoveStarts()  # where the <move> start tags start

    def read(self, size: int = -1) -> bytes:
        """The next bytes, at least one unless the input has ended (a pipe
        may give one byte at a time: a byte kept for the next code unit,
        or for telling the encoding, is never taken for the end)."""
        while True:
            more = self.handle.read(size if size is not None and 0 < size <= CHUNK else CHUNK)
            data = self.carry + more
            if more and not self.end and len(data) < 2:  # too little to tell UTF-16 by
                self.carry = data
                continue
            if not self.end and data:
                self.end = (b"\n\0" if data[:2] in (b"\xff\xfe", b"<\0") else
                            b"\0\n" if data[:2] in (b"\xfe\xff", b"\0<") else b"\n")
                if len(self.end) == 2:
                    self.marks = (b"<\0", b"=\0") if self.end == b"\n\0" else (b"\0<", b"\0=")
            if len(self.end) == 2 and more:  # whole code units, so that a line end is never cut
                cut = len(data) - len(data) % 2
                data, self.carry = data[:cut], data[cut:]
            else:
                self.carry = b""
            if data or not more:
                break
        self.before = (self.open, self.lines + 1)
        self._count(data)
        self.size, self.markup = len(data), data.count(self.marks[0]) + data.count(self.marks[1])
        self.data = data
        self.starts.feed(data, self._codec())
        if self.kept is not None:
            self.kept.append(data)
        return data

    def keep(self) -> None:
        """Keep the input from the start of the line where the last chunk
        starts on (at most a line, :data:`MAX_LINE`, and the input read
        until :meth:`release`): where the ``<game>`` whose start has just
        been read starts, so that :class:`~notation.xml_damage.Where` can find its elements."""
        parts, line = self.before
        self.kept, self.kept_line = [*parts, self.data], line

    def release(self) -> None:
        self.kept = None

    def text(self) -> str:
        """The input kept, decoded (UTF-16 as told by its first bytes, else
        as the XML declaration says); a byte order mark left out."""
        text = b"".join(self.kept or ()).decode(self._codec() or self.starts.codec, "replace")
        return text[1:] if self.kept_line == 1 and text.startswith("\ufeff") else text

    def _codec(self) -> str | None:
        """UTF-16's codec if the input is UTF-16."""
        return "utf-16-le" if self.end == b"\n\0" else "utf-16-be" if self.end == b"\0\n" else None

    @property
    def line(self) -> int:
        """The line of the last byte read (1 before any)."""
        return max(1, self.lines + (self.run > 0))

    def _count(self, data: bytes) -> None:
        first, last, count = self._ends(data)
        if count:
            self._check(self.run + first + len(self.end), 0)
            self.run = len(data) - last - len(self.end)
            self.open = [data[last + len(self.end):]]
        else:
            self.run += len(data)
            self.open = [*self.open, data]  # (a new list: self.before keeps the old one)
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


#: What :func:`_pulled_events` yields after the events of each chunk.
_FED = ("fed", None)


def _pulled_events(handle: BinaryIO, parser: etree.XMLPullParser,
                   closed: list[etree._Element]) -> Iterator[tuple[str, Any]]:
    """The parser's events, chunk by chunk, each chunk's followed by
    :data:`_FED`; at a syntax error, the events before it first (libxml2
    2.14 parses a whole chunk before it reports any of it, so the games
    before a break in the same chunk are kept this way), then the error.
    ``closed`` gets the root once the input has ended."""
    while True:
        data = handle.read(CHUNK)
        try:
            if data:
                parser.feed(data)
            else:
                closed.append(parser.close())
        except etree.XMLSyntaxError:
            if data:  # (at the end of the input, what is left open is the error itself)
                yield from cast("Iterator[tuple[str, Any]]", parser.read_events())
            raise
        yield from cast("Iterator[tuple[str, Any]]", parser.read_events())
        if not data:
            return
        yield _FED


class _Stretch:
    """A ``<game>`` of the root being read, or the input since one ended (or
    since the input started) up to the next: the bytes and the ``<`` and
    ``=`` of the chunks read wholly within it (the chunks where it starts
    and where it ends hold some of what lies around it, and are left out),
    so that a stretch within the bounds is never refused. One past them
    raises :class:`XMLArchiveError` after the chunk that takes it there, so
    that no stretch takes more than the bounds and two chunks."""

    def __init__(self, game: etree._Element | None = None, number: int = 0, fresh: bool = False) -> None:
        self.game = game        # the <game> being read, or None between games
        self.number = number    # its number, or the number of the game before (0: none yet)
        self.fresh = fresh      # started in the chunk just read
        self.size = self.markup = 0

    def fed(self, feeder: _BoundedLines, root: etree._Element | None, before: etree._Element | None) -> None:
        """Count the chunk just read; ``before`` is the game that ended last (if still in the tree)."""
        if self.fresh:
            self.fresh = False
            return
        self.size += feeder.size
        self.markup += feeder.markup
        if self.size <= MAX_GAME_BYTES and self.markup <= MAX_GAME_MARKUP:
            return
        what = (f"is longer than {MAX_GAME_BYTES:,} bytes" if self.size > MAX_GAME_BYTES else
                f"has more than {MAX_GAME_MARKUP:,} tags and attributes")
        rest = "the rest of the input is not read"
        if self.game is not None:
            raise XMLArchiveError(f"game {self.number} {what}; {rest}", _line(self.game), None, feeder.file)
        # between games: at the first comment, processing instruction or element of the stretch
        first = (before.getnext() if before is not None else
                 next(root.iterchildren(), None) if root is not None else None)
        line = (_line(first) if first is not None else None) or feeder.line
        if self.number:
            raise XMLArchiveError(f"the input after game {self.number} {what} without another game; {rest}",
                                  line, None, feeder.file)
        raise XMLArchiveError(f"the input before the first game {what}; {rest}", line, None, feeder.file)


def _read(handle: BinaryIO, file: str | None) -> Iterator[GameRecord]:
    feeder = _BoundedLines(handle, file)
    parser = etree.XMLPullParser(events=("start", "end"), tag=("mancala", "game"), **SAFE_PARSING,
                                 huge_tree=True, remove_blank_text=False)
    closed: list[etree._Element] = []
    events = _pulled_events(cast(BinaryIO, feeder), parser, closed)
    root = None
    checked = False  # the root is checked at the event after its start: a start
    # tag cut short by the end of the input is then reported as badly formed
    index = 0
    validator = game_schema()
    stretch = _Stretch()
    last: etree._Element | None = None  # the game read last
    games_on_line = (0, 0)  # the line where the start tag of the last game ends, and the games ending there
    nth = 1
    try:
        for event, element in events:
            if element is None:  # (_FED)
                stretch.fed(feeder, root, last)
                continue
            if root is None:
                root = element.getroottree().getroot()
                _check_dtd(root, file)
                continue
            if not checked:
                _check_root(root, file)
                checked = True
            if element is root or element.getparent() is not root:
                continue  # a <game> out of place is reported with what holds it
            if event == "start":
                stretch = _Stretch(element, index + 1, fresh=True)
                line = _line(element) or 0
                nth = games_on_line[1] + 1 if line == games_on_line[0] else 1
                games_on_line = (line, nth)
                feeder.keep()
                continue
            _check_between(root, element, file)
            index += 1
            starts = feeder.starts
            first = starts.seek(_line(element) or 1)
            record, count = _valid_record(element, validator, file, index, Where(feeder, element, nth),
                                          (starts.lines, starts.columns), first)
            starts.taken(count)
            feeder.release()
            element.clear(keep_tail=True)
            previous = element.getprevious()
            while previous is not None:
                root.remove(previous)
                previous = element.getprevious()
            stretch, last = _Stretch(None, index, fresh=True), element
            yield record
        if root is None:
            root = closed[0]
        if not checked:
            _check_root(root, file)
        _check_between(root, None, file)
    except etree.XMLSyntaxError as exc:
        raise _syntax_error(exc, file) from None


def _valid_record(game: etree._Element, validator: etree.RelaxNG, file: str | None, index: int,
                  where: Where, starts: tuple[list[int], list[int]], first: int) -> tuple[GameRecord, int]:
    """The record of a ``<game>``. A game the schema refuses, or holding a
    value no record can, is read up to the first such element (what comes
    before it in the document: its tags, moves, variations and comments; a
    bad ``<tag>`` alone is left out) with one ``syntax`` problem at that
    element's ``<``, as a damaged PMN game keeps what precedes the damage.
    ``starts``: the lines and the columns where each ``move`` of the game
    (in any namespace) starts, in document order, from ``first`` on (those
    of the games after it following); with the record, the number of
    ``move`` elements the game holds."""
    damage: list[Problem] = []  # a problem for each place pruned; the first in the document is reported
    moves: list[etree._Element] = []  # (of a damaged game, as read: kept, so that their ids stay theirs)
    placed: dict[int, tuple[int, int]] = {}  # and their starts
    for pruned in range(MAX_PRUNES):
        found = first_damage(game, validator)
        if found is None:
            if pruned:
                starts, first = _left(game, placed), 0
            try:
                record, count = game_record(game, file, index, where, starts, first)
            except BadGame as bad:
                element, code, message = bad.element, bad.code, bad.message
            else:
                if damage:
                    record.problems.append(min(damage, key=lambda p: (p.line or 0, p.column or 0)))
                    record.problems.sort(key=lambda p: (p.line or 0, p.column or 0))
                return record, len(moves) if pruned else count
        else:
            element, code, message = found[0], "syntax", f"not valid against the archive schema: {found[1]}"
        if not pruned:
            moves, placed = _placed(game, starts, first)
        damage.append(Problem("error", code, message, *where(element)))
        if not prune(game, element, alone=pruned < MAX_PRUNES // 2):
            break
    problem = min(damage, key=lambda p: (p.line or 0, p.column or 0))
    return GameRecord(file=file, index=index, line=_line(game) or 1, problems=[problem]), len(moves)


def _placed(game: etree._Element, starts: tuple[list[int], list[int]],
            first: int) -> tuple[list[etree._Element], dict[int, tuple[int, int]]]:
    """The ``move`` elements of a game about to be pruned (in any namespace:
    to be kept while it is read, so that their ids stay theirs), and where
    each starts by its ``id``."""
    moves = list(game.iter("{*}move"))
    end = first + len(moves)
    return moves, {id(move): start for move, start in zip(moves, zip(starts[0][first:end], starts[1][first:end]))}


def _left(game: etree._Element, placed: dict[int, tuple[int, int]]) -> tuple[list[int], list[int]]:
    """The lines and the columns of the moves left in a pruned game, in document order."""
    left = [placed[id(move)] for move in game.iter("move") if id(move) in placed]
    return [line for line, _ in left], [column for _, column in left]


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
        raise validation_error(full, _line(root), file)


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
    raise validation_error(full, line, file)
