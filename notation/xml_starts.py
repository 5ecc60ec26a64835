"""Where each ``<move>`` of an XML archive starts: :class:`MoveStarts` scans
the input once, a chunk at a time as :mod:`notation.xml_reader` hands it to
the parser, for the ``<`` of every ``move`` start tag (comments, CDATA
sections and processing instructions skipped), so that a move read from XML
has a line and a column (1-based, in characters) as a move read from PMN
has. lxml gives only the line where a start tag ends.
"""
from __future__ import annotations

import codecs
import re
from itertools import accumulate, repeat
from operator import sub

__all__ = ["MoveStarts"]

#: The start of a comment, a CDATA section or a processing instruction
#: (skipped to its end: a ``<move`` in one is none), and its end.
_SPECIAL = re.compile(r"<(?:!--|!\[CDATA\[|\?)")
_ENDS = {"<!--": "-->", "<![CDATA[": "]]>", "<?": "?>"}
#: The start tag of a ``move``; with a namespace prefix too where a
#: stretch holds ``:move``, so that the tags found are the ``{*}move``
#: elements of the document, one for one.
_MOVE = re.compile(r"<move(?=[\s/>])")
_ANY_MOVE = re.compile(r"<(?:[^\s/>!?:<]+:)?move(?=[\s/>])")
#: A ``<`` at the end of the text read so far that may yet become one of
#: those: held until more input comes (at most :data:`_HELD` characters of it).
_UNDECIDED = re.compile(r"<(?:!(?:-|\[C?D?A?T?A?)?|[^\s/>!?<]*)\Z")
_HELD = 256
#: The encoding an XML declaration names (after a UTF-8 byte order mark).
_DECLARED = re.compile(rb"(?:\xef\xbb\xbf)?<\?xml\s[^>]*?\bencoding\s*=\s*[\"']([A-Za-z][A-Za-z0-9._-]*)[\"']")


def _declared(head: bytes) -> str:
    """The codec of a document that is not UTF-16, by its first bytes."""
    found = _DECLARED.match(head)
    name = found.group(1).decode("ascii").lower() if found else "utf-8"
    return "utf-8" if name.startswith(("utf-16", "utf-32", "ucs")) else name


class MoveStarts:
    """The line and column of the ``<`` of each ``move`` start tag, in
    document order (:attr:`lines`, :attr:`columns`: ints, not tuples, which
    the garbage collector would walk): :meth:`feed` every chunk of the input;
    as each game is read, :meth:`seek` its first and say how many it has
    (:meth:`taken`).

    Every ``<`` outside comments, CDATA sections and processing
    instructions starts a tag (none can be in an attribute value or in
    text), so in a well-formed document the starts found are those of its
    ``move`` elements, one for one. The cost is a scan of each chunk (in C)
    and a few steps for each ``<move`` found.
    """

    def __init__(self) -> None:
        self.raw: list[bytes] | None = []  # the input before the codec is known
        self.codec = "utf-8"  # (until then)
        self.decoder: codecs.IncrementalDecoder | None = None
        self.held = ""        # the end of the text read so far, not scanned yet
        self.line = 1         # the line where ``held`` starts
        self.column0 = 0      # and the characters before it on that line
        self.skip: str | None = None  # the end of the comment, CDATA or PI being skipped
        self.first = True     # (a byte order mark is left out)
        self.at = (1, 0, 0)   # (for _plain, while a text is scanned)
        self.lines: list[int] = []    # the line of each <move found
        self.columns: list[int] = []  # and its column
        self.next = 0         # the first of them not taken yet

    def feed(self, data: bytes, utf16: str | None = None) -> None:
        """Scan the next chunk of the input (``b""`` at its end). The codec is
        ``utf16`` (``"utf-16-le"`` or ``"utf-16-be"``, as the line counter
        tells by the first bytes), else the encoding the XML declaration
        names, else UTF-8: the input is kept as bytes until the declaration
        is read (its ``>``, or 1,024 bytes)."""
        if self.raw is not None:
            self.raw.append(data)
            joined = b"".join(self.raw)
            if not (utf16 or b">" in joined or len(joined) >= 1024 or not data):
                return
            self.raw = None
            self.codec = utf16 or _declared(joined)
            try:
                self.decoder = codecs.getincrementaldecoder(self.codec)("replace")
            except LookupError:  # (a name libxml2 knows and Python does not)
                self.codec = "utf-8"
                self.decoder = codecs.getincrementaldecoder(self.codec)("replace")
            data = joined
        assert self.decoder is not None
        text = self.decoder.decode(data)
        if self.first and text:
            self.first = False
            if text.startswith("\ufeff"):
                text = text[1:]
        if text:
            self._scan(self.held + text)

    def seek(self, game_line: int) -> int:
        """The index in :attr:`lines` of the first ``move`` of the game that
        has just been read, whose start tag ends on ``game_line``. The starts
        found before that line are dropped first: none are unless the scan
        lost its way (input it cannot follow, which a well-formed document
        never is), and the next game is found again so."""
        lines, at = self.lines, self.next
        while at < len(lines) and lines[at] < game_line:
            at += 1
        self.next = at
        return at

    def taken(self, count: int) -> None:
        """Forget the starts of the game's ``count`` ``move`` elements (in any namespace)."""
        self.next = min(self.next + count, len(self.lines))
        if self.next > 4096 and self.next * 2 > len(self.lines):
            del self.lines[:self.next]
            del self.columns[:self.next]
            self.next = 0

    def _scan(self, text: str) -> None:
        """Scan ``text`` (what was held, then the new input): the plain
        stretches between comments, CDATA sections and processing
        instructions a whole stretch at a time."""
        self.at = (self.line, -self.column0, 0)
        pos, size = 0, len(text)
        while True:
            if self.skip is not None:
                end = text.find(self.skip, pos)
                if end < 0:  # (its last characters may be the start of the end)
                    hold = max(pos, size - len(self.skip) + 1)
                    break
                pos, self.skip = end + len(self.skip), None
            special = _SPECIAL.search(text, pos)
            if special is None:
                lt = text.rfind("<", pos)
                hold = lt if lt >= 0 and size - lt <= _HELD and _UNDECIDED.match(text, lt) else size
                self._plain(text, pos, hold)
                break
            self._plain(text, pos, special.start())
            self.skip, pos = _ENDS[special.group()], special.end()
        line, line_start, counted = self.at
        breaks = text.count("\n", counted, hold)
        if breaks:
            line += breaks
            line_start = text.rfind("\n", counted, hold) + 1
        self.held, self.line, self.column0 = text[hold:], line, hold - line_start

    def _plain(self, text: str, pos: int, stop: int) -> None:
        """The starts of the ``<move`` in ``text[pos:stop]``, where no comment,
        CDATA or processing instruction is, each with its line: a few calls
        in C for a stretch where each is on a line of its own, a few steps
        each otherwise. ``self.at``: the line at ``counted`` and where it
        starts in ``text`` (before it when < 0)."""
        prefixed = text.find(":move", pos, stop) >= 0
        found = [match.start() for match in (_ANY_MOVE if prefixed else _MOVE).finditer(text, pos, stop)]
        if not found:
            return
        line, line_start, counted = self.at
        after = [counted, *found]  # (each is looked for after the one before)
        newlines = list(map(text.rfind, repeat("\n"), after, found))
        if -1 in newlines:  # two on a line, or one on the line of `counted`: one at a time
            for at, newline in zip(found, newlines):
                if newline >= 0:
                    line += text.count("\n", counted, at)
                    line_start = newline + 1
                counted = at
                self.lines.append(line)
                self.columns.append(at - line_start + 1)
        else:  # each on a line of its own: all at once
            lines = accumulate(map(text.count, repeat("\n"), after, found), initial=line)
            next(lines)
            self.lines.extend(lines)
            self.columns.extend(map(sub, found, newlines))
            line, line_start = self.lines[-1], newlines[-1] + 1
        self.at = (line, line_start, found[-1])
