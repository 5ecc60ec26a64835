"""The messages of the Language Server Protocol's base protocol, cut out of
a byte stream with bounds, and resynchronised after a bad header.

A message is header lines (``Name: value``, each ending in CRLF), an empty
line, and a body of exactly ``Content-Length`` bytes. :class:`MessageReader`
reads them with bounded memory: a header line of at most
:data:`MAX_HEADER_LINE` bytes, at most :data:`MAX_HEADERS` header lines a
message, a body of at most :data:`MAX_MESSAGE` bytes.

The rule after a bad header (a line over the bound, a line that is no
``Name: value``, too many lines, no ``Content-Length``, or one that is not
a decimal number of at most :data:`MAX_MESSAGE`): the length of the body is
unknown, so the reader skips the input, in pieces of bounded size, up to the
next ``Content-Length:`` and reads headers from there. Inside a JSON body a
raw CR or LF cannot follow the digits of such a text (JSON escapes them in
strings), so a message body is never taken for a header for long: a false
start is one more bad header, and skipping goes on. Each bad header is one
:class:`Bad` (the server logs it in one line); the end of the input ends
the reading (``None``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import BinaryIO

__all__ = ["MAX_MESSAGE", "MAX_HEADER_LINE", "MAX_HEADERS", "Bad", "MessageReader"]

#: The longest message body read, in bytes; a longer Content-Length is a bad header.
MAX_MESSAGE = 256 << 20
#: The longest header line, in bytes with its line end.
MAX_HEADER_LINE = 1 << 12
#: The most header lines of one message (the protocol defines two).
MAX_HEADERS = 32
#: What skipping after a bad header looks for.
_RESYNC = b"Content-Length:"
_HEADER = re.compile(rb"([!-9;-~]+):[ \t]*(.*?)[ \t]*\r?\n", re.S)
_PIECE = 1 << 16


@dataclass(frozen=True)
class Bad:
    """A bad header at byte ``offset`` of the input: what was wrong."""

    offset: int
    reason: str

    @property
    def message(self) -> str:
        return f"bad message header at byte {self.offset}: {self.reason}; skipped to the next Content-Length header"


class MessageReader:
    """The message bodies of a byte stream (:meth:`next`), with bounds."""

    def __init__(self, stream: BinaryIO, *, max_message: int = MAX_MESSAGE) -> None:
        self.stream = stream
        self.max_message = max_message
        self.buffer = b""
        self.offset = 0  # of the buffer's first byte in the input
        self.ended = False

    def _fill(self) -> bool:
        """More input in the buffer; whether there was any."""
        if self.ended:
            return False
        read = getattr(self.stream, "read1", None) or self.stream.read
        piece = read(_PIECE)
        if not piece:
            self.ended = True
            return False
        self.buffer += piece
        return True

    def _take(self, size: int) -> bytes:
        taken, self.buffer = self.buffer[:size], self.buffer[size:]
        self.offset += len(taken)
        return taken

    def _line(self) -> bytes | None:
        """The next line (with its LF; at most :data:`MAX_HEADER_LINE` bytes,
        a longer one is given cut there), ``b""`` at the end of the input."""
        while True:
            end = self.buffer.find(b"\n", 0, MAX_HEADER_LINE)
            if end >= 0:
                return self._take(end + 1)
            if len(self.buffer) >= MAX_HEADER_LINE:
                return None
            if not self._fill():
                return self._take(len(self.buffer))

    def _resync(self) -> bool:
        """Skip the input up to the next ``Content-Length:``; whether one came."""
        while True:
            found = self.buffer.find(_RESYNC)
            if found >= 0:
                self._take(found)
                return True
            self._take(max(len(self.buffer) - len(_RESYNC) + 1, 0))
            if not self._fill():
                self._take(len(self.buffer))  # (the input ends: the rest is skipped too)
                return False

    def next(self) -> bytes | Bad | None:
        """The next message's body, a :class:`Bad` header (the input is then
        skipped to the next ``Content-Length:``), or ``None`` at the end."""
        start = self.offset
        length: int | None = None
        count = 0
        while True:
            at = self.offset
            line = self._line()
            if line is None:
                return self._bad(at, f"a header line longer than {MAX_HEADER_LINE} bytes")
            if not line:
                return None  # (the end of the input, perhaps inside the headers: reading ends)
            if line in (b"\r\n", b"\n"):
                if length is None:
                    if count == 0:
                        start = self.offset
                        continue  # (blank lines between messages)
                    return self._bad(start, "no Content-Length header")
                return self._body(length)
            count += 1
            if count > MAX_HEADERS:
                return self._bad(start, f"more than {MAX_HEADERS} header lines")
            found = _HEADER.fullmatch(line)
            if found is None:
                return self._bad(at, f"not a header: {_shown(line)}")
            if found[1].lower() == b"content-length":
                value = found[2]
                if not value.isdigit() or len(value) > 12 or int(value) > self.max_message:
                    return self._bad(at, f"Content-Length {_shown(value)} is not a number of bytes from 0 to "
                                         f"{self.max_message}")
                length = int(value)

    def _body(self, length: int) -> bytes | None:
        if len(self.buffer) < length:
            rest = self.stream.read(length - len(self.buffer))  # (a buffered stream reads them all)
            if len(self.buffer) + len(rest) < length:
                self.ended = True
                return None  # (the input ends inside the body: so does reading)
            self.buffer, rest = b"", self.buffer + rest
            self.offset += length
            return rest
        return self._take(length)

    def _bad(self, offset: int, reason: str) -> Bad:
        self._resync()
        return Bad(offset, reason)


def _shown(text: bytes) -> str:
    shown = text.rstrip(b"\r\n")
    return repr(shown[:40].decode("utf-8", "replace")) + (" …" if len(shown) > 40 else "")
