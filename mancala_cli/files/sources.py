"""Input files of records: decoding with byte offsets for bad bytes (the
encodings themselves: :mod:`.encodings`), sniffing the format (PMN, JSON
Lines or XML), lines of position strings."""
from __future__ import annotations

import codecs
import contextlib
import io
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any, BinaryIO, NamedTuple

from notation.record import MAX_PROBLEMS, Problem
from notation.sniffing import binary_reason, is_xml

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
        per run of bad bytes). A line longer than :data:`MAX_LINE` bytes is a
        ``line-too-long`` problem and ends the input."""
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
        for raw in raws:
            number += 1
            if len(raw) > MAX_LINE:
                self.problems.append(Problem(
                    "error", "line-too-long", f"the line is longer than {MAX_LINE} bytes; "
                    "the rest of the input is not read", number, 1))
                return
            try:
                text = raw.decode(codec)
            except UnicodeDecodeError:
                text = self._decode_reporting(raw, codec, number, offset)
            offset += len(raw)
            yield text

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
    their error, and the lines after them still come. Raises
    :class:`InputError` when the input cannot be read."""
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
            while not raw.endswith(b"\n") and (raw := read(1 << 16)):
                offset += len(raw)
            yield NumberedLine(number, None, f"the line is longer than {limit} bytes; it is not read")
            continue
        if number == 1 and raw.startswith(codecs.BOM_UTF8):
            raw = raw[len(codecs.BOM_UTF8):]
            start += len(codecs.BOM_UTF8)
        body = raw[:-1] if raw.endswith(b"\n") else raw
        body = body[:-1] if body.endswith(b"\r") else body
        nul = body.find(b"\0")
        if nul >= 0:
            yield NumberedLine(number, None, f"a NUL byte at byte offset {start + nul}: the line is not text")
            continue
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as error:
            yield NumberedLine(number, None, f"{_bytes_text(body[error.start:error.end])} at byte offset "
                                             f"{start + error.start} are not valid UTF-8")
            continue
        yield NumberedLine(number, text)


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
    if binary is not None:
        raise InputError(f"{source.name}: binary data, not records ({binary})")
    body = text.lstrip("\ufeff \t\r\n")
    if body.startswith("{"):
        return "json"
    return "pmn"


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
