"""Reading input files: decoding with byte offsets for bad bytes, sniffing
the format (PMN, JSON Lines or XML), and atomic output files."""
from __future__ import annotations

import codecs
import contextlib
import io
import os
import sys
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from notation.jsonrec import JSONRecordError, json_line_to_record
from notation.record import GameRecord, Problem


class InputError(Exception):
    """A file that cannot be read at all (missing, unreadable, unknown encoding)."""


@dataclass
class Source:
    """One input: its display name and the problems found while decoding."""

    name: str
    stream: BinaryIO
    encoding: str = "utf-8"
    problems: list[Problem] = field(default_factory=list)

    def lines(self) -> Iterator[str]:
        """Decoded lines with their line ends; bad bytes become U+FFFD and a
        problem naming line, column and byte offset."""
        try:
            codecs.lookup(self.encoding)
        except LookupError:
            raise InputError(f"{self.name}: unknown encoding {self.encoding!r}") from None
        offset = 0
        number = 0
        bom = codecs.BOM_UTF8 if self.encoding.replace("_", "-").lower() in ("utf-8", "utf8") else b""
        stream = self.stream
        while True:
            raw = stream.readline()
            if not raw:
                return
            if number == 0 and bom and raw.startswith(bom):
                raw = raw[len(bom):]
                offset += len(bom)
            number += 1
            try:
                text = raw.decode(self.encoding)
            except UnicodeDecodeError:
                text = self._decode_reporting(raw, number, offset)
            offset += len(raw)
            yield text

    def _decode_reporting(self, raw: bytes, number: int, offset: int) -> str:
        # A view, not slices: each attempt decodes from ``start`` only up to
        # the next bad byte, so a line full of them takes linear time.
        view = memoryview(raw)
        out = []
        length = 0  # characters decoded so far
        start = 0
        while start < len(raw):
            try:
                out.append(codecs.decode(view[start:], self.encoding))
                break
            except UnicodeDecodeError as error:
                good = codecs.decode(view[start:start + error.start], self.encoding, "replace")
                out.append(good)
                length += len(good)
                bad = raw[start + error.start:start + error.end]
                self.problems.append(Problem(
                    "error", "encoding",
                    f"bytes {bad.hex(' ')} at byte offset {offset + start + error.start} "
                    f"are not valid {self.encoding}", number, length + 1))
                out.append("\ufffd")
                length += 1
                start += error.end
        return "".join(out)


@contextlib.contextmanager
def open_source(path: str, encoding: str = "utf-8") -> Iterator[Source]:
    """Open ``path`` (``-`` for standard input) as a :class:`Source`."""
    if path == "-":
        yield Source("<stdin>", sys.stdin.buffer, encoding)
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
    """The format of a source by its first non-blank byte, without consuming
    anything: ``xml``, ``json`` or ``pmn``."""
    if not hasattr(source.stream, "peek"):
        source.stream = io.BufferedReader(source.stream)
    head = source.stream.peek(1 << 16)
    body = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if body.startswith(b"<"):
        return "xml"
    if body.startswith(b"{"):
        return "json"
    return "pmn"


def json_records(lines: Iterable[str], file: str, first_line: int = 1) -> Iterator[GameRecord]:
    """Records from JSON Lines; a bad line gives a record holding only its problem."""
    for number, text in enumerate(lines, first_line):
        if not text.strip():
            continue
        try:
            record = json_line_to_record(text)
        except (ValueError, JSONRecordError) as error:
            record = GameRecord(problems=[Problem("error", getattr(error, "code", "syntax"),
                                                  f"not a JSON game record: {error}",
                                                  number, 1)])
        record.file = file
        record.line = number
        stack = [record.moves]
        while stack:
            for node in stack.pop():
                node.line = number
                stack.extend(node.variations)
        yield record


@contextlib.contextmanager
def atomic_output(path: str | None, binary: bool = False):
    """Standard output, or a temporary file renamed over ``path`` only when the
    block succeeds (on error the old file stays untouched)."""
    if path is None or path == "-":
        if binary:
            yield sys.stdout.buffer
            sys.stdout.buffer.flush()
        else:
            yield sys.stdout
            sys.stdout.flush()
        return
    directory = os.path.dirname(os.path.abspath(path))
    try:
        handle, temporary = tempfile.mkstemp(prefix=".mancala-", suffix=".tmp", dir=directory)
    except OSError as error:
        raise InputError(f"{path}: cannot write: {error.strerror or error}") from None
    try:
        with os.fdopen(handle, "wb") as raw:
            stream = raw if binary else io.TextIOWrapper(raw, encoding="utf-8", newline="\n")
            yield stream
            stream.flush()
            if not binary:
                stream.detach()
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
