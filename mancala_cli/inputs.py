"""Reading input files: decoding with byte offsets for bad bytes, sniffing
the format (PMN, JSON Lines or XML), and atomic output files."""
from __future__ import annotations

import codecs
import contextlib
import errno
import io
import os
import re
import secrets
import stat
import sys
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
            record = GameRecord(problems=[Problem("error", "syntax", f"not a JSON game record: {error}",
                                                  number, 1)])
        record.file = file
        record.line = number
        stack = [record.moves]
        while stack:
            for node in stack.pop():
                node.line = number
                stack.extend(node.variations)
        yield record


class OutputError(InputError):
    """An output that cannot be written; an old file at that path is left as it was."""


_write = os.write  # the system call, named so that tests can make it fail


class _OutputFile(io.FileIO):
    """A file whose failing writes raise :class:`OutputError` naming ``display``."""

    def __init__(self, fd: int, display: str) -> None:
        super().__init__(fd, "wb", closefd=True)
        self.display = display

    def write(self, data) -> int:
        try:
            return _write(self.fileno(), data)
        except OSError as error:
            raise OutputError(f"{self.display}: cannot write: {error.strerror or error}") from None


def _cannot(path: str, error: OSError) -> OutputError:
    return OutputError(f"{path}: cannot write: {error.strerror or error}")


_FD_FOLDER = re.compile(r"/proc/(\d+)(?:/task/\d+)?/fd")


def _resolve(path: str) -> tuple[str, int | None]:
    """Where writing to ``path`` goes, following symbolic links as open()
    does: (the path that is no link, None), or (a /proc/PID/fd/N link, N when
    PID is this process, else -1): such a path names an open file, not a
    place in a folder."""
    hop = os.path.abspath(path)
    for _ in range(40):
        folder = _FD_FOLDER.fullmatch(os.path.realpath(os.path.dirname(hop)))
        if folder:
            mine = int(folder.group(1)) == os.getpid() and os.path.basename(hop).isdigit()
            return hop, int(os.path.basename(hop)) if mine else -1
        try:
            link = os.readlink(hop)
        except OSError:  # not a link (or not there): open() decides
            return hop, None
        hop = os.path.join(os.path.dirname(hop), link)
    raise _cannot(path, OSError(errno.ELOOP, os.strerror(errno.ELOOP)))


def _writable(path: str, info: os.stat_result) -> bool:
    """Whether ``>`` would be allowed to write the file; as root, only a file
    with a write permission bit for someone."""
    if os.geteuid() == 0:
        return bool(info.st_mode & 0o222)
    return os.access(path, os.W_OK, effective_ids=os.access in os.supports_effective_ids)


def _stream(raw: _OutputFile, binary: bool):
    buffered = io.BufferedWriter(raw)
    return buffered if binary else io.TextIOWrapper(buffered, encoding="utf-8", newline="\n")


def _finish(stream, raw: _OutputFile) -> None:
    stream.flush()
    try:
        raw.close()
    except OSError as error:
        raise _cannot(raw.display, error) from None


def _temporary(folder: str, path: str) -> tuple[int, str]:
    """A new empty file ``.mancala-*.tmp`` in ``folder``, created with mode
    0666 so that the umask (and a default ACL) applies as to any new file."""
    for _ in range(100):
        name = os.path.join(folder, f".mancala-{secrets.token_hex(4)}.tmp")
        try:
            return os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666), name
        except FileExistsError:
            continue
        except OSError as error:
            raise _cannot(path, error) from None
    raise _cannot(path, FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST)))


@contextlib.contextmanager
def atomic_output(path: str | None, binary: bool = False):
    """Standard output, or a temporary file renamed over ``path`` only when the
    block succeeds (on error the old file stays untouched).

    Like ``>``: a symbolic link is followed (its target is replaced, the link
    stays), a new file gets mode 0666 less the umask, a replaced one keeps its
    mode, and a file nobody may write is refused. What is not a regular file
    (a device, a FIFO, an open file named as /dev/stdout or /proc/self/fd/N)
    is written in place. Raises :class:`OutputError` (a directory, a missing
    folder, a failing write).
    """
    if path is None or path == "-":
        if binary:
            yield sys.stdout.buffer
            sys.stdout.buffer.flush()
        else:
            yield sys.stdout
            sys.stdout.flush()
        return
    if not path:
        raise OutputError("empty output file name")
    target, descriptor = _resolve(path)
    try:
        info = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise _cannot(path, error) from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise OutputError(f"{path}: is a directory")
    if descriptor is not None or (info is not None and not stat.S_ISREG(info.st_mode)):
        try:
            if descriptor is not None and descriptor >= 0:
                if descriptor == 1:
                    sys.stdout.flush()
                fd = os.dup(descriptor)
            else:
                fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o666)
        except OSError as error:
            raise _cannot(path, error) from None
        raw = _OutputFile(fd, path)
        try:
            stream = _stream(raw, binary)
            yield stream
            _finish(stream, raw)
        finally:
            with contextlib.suppress(OSError):
                raw.close()
        return
    if info is not None and not _writable(target, info):
        raise _cannot(path, PermissionError(errno.EACCES, os.strerror(errno.EACCES)))
    fd, temporary = _temporary(os.path.dirname(target), path)
    raw = _OutputFile(fd, path)
    try:
        if info is not None:
            if (info.st_uid, info.st_gid) != (os.geteuid(), os.getegid()):
                with contextlib.suppress(OSError):
                    os.fchown(fd, info.st_uid, info.st_gid)
            os.fchmod(fd, stat.S_IMODE(info.st_mode))
        stream = _stream(raw, binary)
        yield stream
        _finish(stream, raw)
        try:
            os.replace(temporary, target)
        except OSError as error:
            raise _cannot(path, error) from None
    except BaseException:
        with contextlib.suppress(OSError):
            raw.close()
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
