"""Input files of records: decoding with byte offsets for bad bytes (the
encodings themselves: :mod:`.encodings`), sniffing the format (PMN, JSON
Lines or XML), lines of position strings."""
from __future__ import annotations

import codecs
import contextlib
import io
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any, BinaryIO, NamedTuple

from notation.record import MAX_PROBLEMS, Problem
from notation.sniffing import (
    binary_line,
    binary_reason,
    is_xml,
    record_start,
    starts_with_records,
    tag_tail,
    utf16_hint,
)

from . import InputError
from .encodings import check_encoding, decode_marking, line_codec

#: Longest line read, in bytes with its line end; a longer line is an error
#: and ends the input (it is read in bounded pieces, never held whole).
MAX_LINE = 4 << 20
#: Encoding problems reported per game; after that one closing problem says so.
MAX_ENCODING_PROBLEMS = MAX_PROBLEMS
#: Bad bytes shown in one ``encoding`` problem (a longer run is counted).
_SHOWN_BYTES = 16
@dataclass(slots=True)
class Source:
    """One input: its display name and the problems found while decoding."""

    name: str
    stream: BinaryIO
    encoding: str = "utf-8"
    problems: list[Problem] = field(default_factory=list)

    def _peek(self, size: int = 1 << 16) -> bytes:
        if not hasattr(self.stream, "peek"):
            # (any stream with read() will do, though typeshed asks for a raw one)
            self.stream = io.BufferedReader(self.stream)  # type: ignore[type-var]
        head: bytes = self.stream.peek(size)
        return head[:size]

    def codec(self) -> tuple[str, int]:
        """The codec for one line and the length of the BOM (not consumed)."""
        try:
            check_encoding(self.encoding)
        except LookupError:
            raise InputError(f"{self.name}: unknown encoding {self.encoding!r}") from None
        return line_codec(self.encoding, self._peek(4))

    def lines(self) -> Iterator[str]:
        """Decoded lines with their line ends (split where the encoding writes
        LF, or CR in a file whose head has CR line ends and no LF); bad bytes
        become U+FFFD and a problem naming line, column and byte offset (one
        per run of bad bytes). A run of binary data (a line of it,
        :func:`notation.sniffing.binary_line`, and the lines after it up to
        one that starts a record or a tag pair that ends one) is one
        ``encoding`` problem on its first line, its lines given blank (their
        line ends kept, so that the lines after it keep their numbers): the
        games around it are read. A line longer than :data:`MAX_LINE` bytes
        is a ``line-too-long`` problem and ends the input."""
        codec, bom = self.codec()
        newline, cr = "\n".encode(codec), "\r".encode(codec)
        head = self._peek()
        if newline not in head and cr in head:
            newline = cr  # (CR line ends alone, as old Mac files have)
        stream = self.stream
        if bom:
            stream.read(bom)
        offset = bom
        number = 0
        raws = _split(stream, newline) if newline != b"\n" else iter(
            lambda: stream.readline(MAX_LINE + 1), b"")
        damage: _Damage | None = None  # the run of binary data being passed over
        for raw in raws:
            number += 1
            if len(raw) > MAX_LINE:
                if damage is not None:
                    self.problems.append(damage.problem())
                self.problems.append(Problem(
                    "error", "line-too-long", f"the line is longer than {MAX_LINE} bytes; "
                    "the rest of the input is not read", number, 1))
                return
            before = len(self.problems)
            try:
                text = raw.decode(codec)
            except UnicodeDecodeError:
                text = self._decode_reporting(raw, codec, number, offset)
            start = offset
            offset += len(raw)
            if damage is None and not binary_line(text):
                yield text
                continue
            if damage is None:
                damage = _Damage(number, start, utf16_hint(raw) if len(newline) == 1 else "")
            elif record_start(text):  # reading resumes here
                self.problems.append(damage.problem())
                damage = None
                yield text
                continue
            del self.problems[before:]  # (the line's bad bytes are the run's)
            text, ended = damage.passed_over(text, len(raw), codec)
            if ended:
                self.problems.append(damage.problem())
                damage = None
            yield text
        if damage is not None:
            self.problems.append(damage.problem())

    def _decode_reporting(self, raw: bytes, codec: str, number: int, offset: int) -> str:
        # One pass with an error handler that notes where the bad bytes are,
        # then the columns from the good pieces between them: linear time.
        text, spans = decode_marking(raw, codec)
        column = 1
        done = 0
        runs = []  # (start, end, column)
        for start, end in spans:
            column += len(raw[done:start].decode(codec, "replace"))
            runs.append((start, end, column))
            column += len(raw[start:end].decode(codec, "replace"))
            done = end
        for k, (start, end, col) in enumerate(runs):
            if k == MAX_ENCODING_PROBLEMS:
                self.problems.append(_too_many(number, col))
                break
            self.problems.append(Problem(
                "error", "encoding", f"{_bytes_text(raw[start:end])} at byte offset {offset + start} "
                f"are not valid {self.encoding}", number, col))
        return text


@dataclass(slots=True)
class _Damage:
    """A run of binary data in a text input: where it starts, its lines and bytes."""

    line: int
    offset: int
    hint: str
    lines: int = 0
    size: int = 0
    counted: tuple[int, int] = (0, 0)  # the lines and bytes up to its last line that is not blank

    def add(self, text: str, size: int) -> None:
        """One more line of the run, of ``size`` bytes."""
        self.lines += 1
        self.size += size
        if text.strip():
            self.counted = (self.lines, self.size)

    def passed_over(self, text: str, size: int, codec: str) -> tuple[str, bool]:
        """The damaged line ``text`` (``size`` bytes) as it is read, blank,
        and whether the run ends in it (a tag pair ends the line: reading
        resumes there, in its column)."""
        tail = tag_tail(text)
        if tail is None:
            self.add(text, size)
            return _blank(text), False
        self.add(text, size - len(text[tail:].encode(codec, "replace")))
        return _blank(text[:tail]) + text[tail:], True

    def problem(self) -> Problem:
        """The run's one problem, on its first line (the blank lines that end it not counted)."""
        count, size = self.counted
        lines = "1 line" if count == 1 else f"{count:,} lines"
        return Problem("error", "encoding", f"binary data, not records: {lines} ({size:,} bytes from byte "
                       f"offset {self.offset:,}) passed over{self.hint}", self.line, 1)


def _blank(text: str) -> str:
    """``text`` with all but its line breaks (CR, LF: the reader counts
    both) made spaces: a blank line of as many lines, the columns kept."""
    return re.sub(r"[^\r\n]+", " ", text)


def _bytes_text(bad: bytes) -> str:
    if len(bad) <= _SHOWN_BYTES:
        return f"bytes {bad.hex(' ')}"
    return f"{len(bad)} bytes {bad[:_SHOWN_BYTES].hex(' ')} ..."


def _too_many(line: int | None, column: int | None) -> Problem:
    return Problem("error", "encoding", f"more than {MAX_ENCODING_PROBLEMS} encoding errors in this game; "
                   "the others are not reported", line, column)


def cap_encoding_problems(problems: list[Problem]) -> list[Problem]:
    """``problems`` (in order) with at most :data:`MAX_ENCODING_PROBLEMS`
    ``encoding`` ones, then one closing problem where the next one was."""
    count = 0
    out = []
    for problem in problems:
        if problem.code == "encoding":
            count += 1
            if count > MAX_ENCODING_PROBLEMS:
                if count == MAX_ENCODING_PROBLEMS + 1:
                    out.append(_too_many(problem.line, problem.column))
                continue
        out.append(problem)
    return out


def _split(stream: BinaryIO, newline: bytes) -> Iterator[bytes]:
    """Raw lines ending with ``newline`` at a code-unit boundary (UTF-16 and
    UTF-32 write LF as 2 or 4 bytes); a piece longer than :data:`MAX_LINE`
    is given as it is and ends the lines."""
    unit = len(newline)
    buf = b""
    start = 0  # where the current line begins in buf
    scan = 0   # buf before this is searched (a code-unit boundary of the line)
    while True:
        i = buf.find(newline, scan)
        while i >= 0 and (i - start) % unit:
            i = buf.find(newline, i + 1)
        if i >= 0:
            end = i + unit
            yield buf[start:end]
            start = scan = end
            continue
        if len(buf) - start > MAX_LINE:
            yield buf[start:]
            return
        scan = start + (len(buf) - start) // unit * unit
        chunk = stream.read(1 << 16)
        if not chunk:
            if start < len(buf):
                yield buf[start:]
            return
        buf = buf[start:] + chunk
        scan -= start
        start = 0


#: Longest line of a list of position strings, in bytes with its line end (a
#: position string of the biggest board is about 100 bytes); a longer line is
#: an error on that line, skipped in bounded pieces, never held whole.
MAX_POSITION_LINE = 4096


class NumberedLine(NamedTuple):
    """A line of a text input: its number (from 1) and its text without the
    line end, or ``None`` and why the line cannot be read."""

    number: int
    text: str | None
    error: str = ""


def numbered_lines(source: Source, limit: int = MAX_POSITION_LINE) -> Iterator[NumberedLine]:
    """Every line of a UTF-8 ``source`` (split at LF; a CR before it and a
    BOM at the start are dropped). A line longer than ``limit`` bytes, one
    with bytes that are not UTF-8 and one with a NUL byte are given with
    their error, and the lines after them still come; a run of binary data
    (a line of it, :func:`notation.sniffing.binary_line`, and the lines
    after it up to one that begins as a position string does, with a
    number and a comma) is one line with one error, on its first. Raises
    :class:`InputError` when the input cannot be read."""
    first: NumberedLine | None = None  # the first line of a run of binary data, and the run's size
    start = count = size = 0
    for line, offset, length, binary in _numbered_lines(source, limit):
        if first is not None and (line.text is None or _POSITION_LIKE(line.text) is None):
            if line.text is None or line.text.strip(" \t"):  # (blank lines are not counted)
                count += 1
                size = offset + length - start
            continue
        if first is not None:
            yield first if count == 1 else NumberedLine(first.number, None, (
                f"binary data, not text: {count:,} lines ({size:,} bytes from byte offset {start:,}) passed over"))
            first = None
        if binary:
            first, start, count, size = line, offset, 1, length
            continue
        yield line
    if first is not None:
        yield first if count == 1 else NumberedLine(first.number, None, (
            f"binary data, not text: {count:,} lines ({size:,} bytes from byte offset {start:,}) passed over"))


#: A line that begins as a position string does: a number, a comma.
_POSITION_LIKE = re.compile(r"[ \t]*[0-9]+\*?[ \t]*,").match


def check_text(source: Source, what: str) -> None:
    """Raise :class:`InputError` when ``source`` is binary data (an
    executable, an image: :func:`notation.sniffing.binary_reason` of its
    first block, with no line of text before its first line of binary
    data), not lines of ``what``; nothing is consumed."""
    head = source._peek()
    text = head.decode("utf-8", "replace")
    binary = binary_reason(text)
    if binary is None:
        return
    for line in text.splitlines():
        if binary_line(line):
            break
        if line.strip() and "\ufffd" not in line:
            return
    raise InputError(f"{source.name}: binary data, not {what} ({binary}{utf16_hint(head)})")


def _numbered_lines(source: Source, limit: int) -> Iterator[tuple[NumberedLine, int, int, bool]]:
    """The lines of :func:`numbered_lines`, one by one, each with its byte
    offset, its size in bytes and whether it is binary data."""
    stream = source.stream
    offset = number = 0

    def read(size: int) -> bytes:
        try:
            return stream.readline(size)
        except OSError as error:
            raise InputError(f"{source.name}: cannot read: {error.strerror or error}") from None

    while raw := read(limit + 1):
        number += 1
        start = offset
        offset += len(raw)
        if len(raw) > limit:
            head = raw
            while not raw.endswith(b"\n") and (raw := read(1 << 16)):
                offset += len(raw)
            binary = b"\0" in head or binary_line(head.decode("utf-8", "replace"))
            yield NumberedLine(number, None, f"the line is longer than {limit} bytes; it is not read"), start, \
                offset - start, binary
            continue
        if number == 1 and raw.startswith(codecs.BOM_UTF8):
            raw = raw[len(codecs.BOM_UTF8):]
            start += len(codecs.BOM_UTF8)
        body = raw[:-1] if raw.endswith(b"\n") else raw
        body = body[:-1] if body.endswith(b"\r") else body
        nul = body.find(b"\0")
        if nul >= 0:
            yield NumberedLine(number, None, f"a NUL byte at byte offset {start + nul}: the line is not text"), \
                start, len(raw), True
            continue
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as error:
            yield NumberedLine(number, None, f"{_bytes_text(body[error.start:error.end])} at byte offset "
                                             f"{start + error.start} are not valid UTF-8"), start, len(raw), \
                binary_line(body.decode("utf-8", "replace"))
            continue
        yield NumberedLine(number, text), start, len(raw), binary_line(text)


class LineNumbers:
    """A set of line numbers in one bit each: memory stays small however
    long the input (``render --positions`` keeps the lines it drew)."""

    def __init__(self) -> None:
        self.bits = bytearray()

    def add(self, number: int) -> None:
        """Add ``number`` (from 0) to the set."""
        byte = number >> 3
        if byte >= len(self.bits):
            self.bits.extend(bytes(max(byte + 1 - len(self.bits), len(self.bits))))
        self.bits[byte] |= 1 << (number & 7)

    def __contains__(self, number: int) -> bool:
        byte = number >> 3
        return byte < len(self.bits) and bool(self.bits[byte] >> (number & 7) & 1)


@contextlib.contextmanager
def open_source(path: str, encoding: str = "utf-8") -> Iterator[Source]:
    """Open ``path`` (``-`` for standard input) as a :class:`Source`."""
    if path == "-":
        yield Source(STDIN_NAME, sys.stdin.buffer, encoding)
        return
    try:
        stream = open(path, "rb")
    except OSError as error:
        raise InputError(f"{path}: cannot open: {error.strerror or error}") from None
    with stream:
        if os.path.isdir(path):
            raise InputError(f"{path}: is a directory")
        yield Source(path, stream, encoding)


def sniff(source: Source) -> str:
    """The format of a source, without consuming anything: ``xml`` (its first
    character, after a BOM and white space, is ``<`` in UTF-8, UTF-16 or
    UTF-32), else ``json`` or ``pmn`` by the first non-blank character in
    the source's encoding. Raises :class:`InputError` for XML in UTF-32 and
    for binary data (:func:`notation.sniffing.binary_reason` of its first
    64 KiB: an executable or a compressed file is one error, not a problem
    per line)."""
    head = source._peek()
    if is_xml(head):
        if head.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, b"<\0\0\0", b"\0\0\0<")):
            raise InputError(f"{source.name}: XML in UTF-32 is not read (use UTF-8 or UTF-16)")
        return "xml"
    codec, bom = source.codec()
    text = codecs.getincrementaldecoder(codec)("replace").decode(head[bom:])
    binary = binary_reason(text)
    if binary is not None and not starts_with_records(text):
        hint = utf16_hint(head[bom:]) if codecs.lookup(codec).name not in _WIDE else ""
        raise InputError(f"{source.name}: binary data, not records ({binary}{hint})")
    body = text.lstrip("\ufeff \t\r\n")
    if body.startswith("{"):
        return "json"
    return "pmn"


#: Encodings whose code units are wider than a byte (no UTF-16 hint for them).
_WIDE = frozenset({"utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"})

#: How standard input is named in every message.
STDIN_NAME = "<stdin>"


def is_record_text(source: str) -> bool:
    """Whether the ``str`` ``source`` is record text rather than a path: it
    holds a line break, or it begins (after blanks) with ``[`` (a PMN tag),
    ``{`` (a JSON record or a PMN comment) or ``<`` (XML). Any other ``str``
    is a path; a path that begins so is given as a :class:`pathlib.Path`.

        >>> is_record_text('[Game "kingulu"] 1. c1x6 *'), is_record_text("games/a.pmn")
        (True, False)
    """
    return "\n" in source or "\r" in source or source.lstrip()[:1] in ("[", "{", "<")


@contextlib.contextmanager
def open_any(source: str | os.PathLike[str] | bytes | IO[Any], encoding: str = "utf-8") -> Iterator[Source]:
    """``source`` as a :class:`Source`: a path (``os.PathLike``, or a ``str``
    that :func:`is_record_text` does not take for text; :func:`open_source`),
    ``bytes``, a ``str`` of text, or a binary or text file object."""
    if isinstance(source, os.PathLike) or (isinstance(source, str) and not is_record_text(source)):
        with open_source(os.fspath(source), encoding) as opened:
            yield opened
        return
    name = "<string>" if isinstance(source, (str, bytes)) else str(getattr(source, "name", "<string>"))
    try:
        binary = _binary(source, encoding)
    except UnicodeEncodeError as error:  # (a lone surrogate, or a character the encoding lacks)
        raise InputError(f"{name}: character offset {error.start}: {error.object[error.start:error.end]!r} "
                         f"cannot be encoded in {encoding} ({error.reason})") from None
    yield Source(name, binary, encoding)


def _binary(source: object, encoding: str) -> BinaryIO:
    if isinstance(source, str):
        return io.BytesIO(source.encode(encoding))
    if isinstance(source, bytes):
        return io.BytesIO(source)
    if isinstance(source, io.TextIOBase) or hasattr(source, "encoding"):
        buffer: BinaryIO | None = getattr(source, "buffer", None)
        if buffer is not None:
            return buffer
        return io.BytesIO(source.read().encode(encoding))  # type: ignore[attr-defined]
    return source  # type: ignore[return-value]
