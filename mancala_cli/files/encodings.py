"""The encodings records are read in: which ones can read records line by
line (:func:`check_encoding`), the codec of one line with its byte order
fixed (:func:`line_codec`), and a line decoded with the runs of its bad
bytes (:func:`decode_marking`), through codecs' error handler
``mancala-report``. It needs nothing of the record model: a program that
checks ``--encoding`` alone (a diagram of a position) loads no more."""
from __future__ import annotations

import codecs
import sys
import threading

from . import InputError

#: Runs of bad bytes kept per line: one more than the encoding problems
#: reported per game (``files.sources.MAX_ENCODING_PROBLEMS``), so that the
#: closing problem is given (tests/test_damaged.py holds the two together).
KEPT_RUNS = 101

_BOMS = {"utf-8": codecs.BOM_UTF8, "utf-16-le": codecs.BOM_UTF16_LE, "utf-16-be": codecs.BOM_UTF16_BE,
         "utf-32-le": codecs.BOM_UTF32_LE, "utf-32-be": codecs.BOM_UTF32_BE}
_LINE_ENDS = {1: None, 2: (b"\n\0", b"\0\n"), 4: (b"\n\0\0\0", b"\0\0\0\n")}


def check_encoding(name: str) -> codecs.CodecInfo:
    """The codec of ``name`` when it can read records line by line: a text
    encoding whose line end is one code unit of 1, 2 or 4 bytes. Raises
    :class:`InputError` (``LookupError`` for an unknown name)."""
    info = codecs.lookup(name)
    try:
        one, two = "\n".encode(info.name), "\n\n".encode(info.name)
        usable = (getattr(info, "_is_text_encoding", True) and two.startswith(one)
                  and _line_end(two[len(one):]) and two.decode(info.name) == "\n\n")
        if usable:  # bad bytes must be replaceable (idna cannot)
            line = line_codec(info.name, b"")[0]
            codecs.getincrementaldecoder(line)("replace").decode(b"\xff\xfe\n\x00", True)
            b"\xff\xfe\n\x00".decode(line, "mancala-report")  # (a codec that fails otherwise is refused)
            _RUNS.spans = []
    except (UnicodeError, LookupError, TypeError, ValueError):
        usable = False
    if not usable:
        raise InputError(f"{name!r} is not a text encoding")
    return info


def _line_end(newline: bytes) -> bool:
    ends = _LINE_ENDS.get(len(newline), ())
    return ends is None or newline in ends


def line_codec(name: str, head: bytes) -> tuple[str, int]:
    """The codec that decodes one line of ``name`` (UTF-16 and UTF-32 with
    their byte order fixed, from the BOM or else the platform's, as Python
    reads them) and the length of the BOM that starts ``head``."""
    name = codecs.lookup(name).name
    if name in ("utf-16", "utf-32"):
        if name == "utf-32" and head.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
            order = "le" if head.startswith(codecs.BOM_UTF32_LE) else "be"
        elif name == "utf-16" and head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            order = "le" if head.startswith(codecs.BOM_UTF16_LE) else "be"
        else:
            order = "le" if sys.byteorder == "little" else "be"
        name = f"{name}-{order}"
    elif name == "utf-8-sig":
        name = "utf-8"
    bom = _BOMS.get(name, b"")
    return name, len(bom) if bom and head.startswith(bom) else 0


class _Runs(threading.local):
    """The runs of bad bytes in the line that this thread decodes, as
    [start, end], kept by the error handler (each thread has its own)."""

    def __init__(self) -> None:
        self.spans: list[list[int]] = []


_RUNS = _Runs()


def _report_errors(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeDecodeError):  # registered for decoding only
        raise error
    # Only as many runs as are reported (and one more, so that the closing
    # problem is given) are kept.
    spans = _RUNS.spans
    if spans and spans[-1][1] == error.start:
        spans[-1][1] = error.end
    elif len(spans) < KEPT_RUNS:
        spans.append([error.start, error.end])
    return "\ufffd", error.end


codecs.register_error("mancala-report", _report_errors)


def decode_marking(raw: bytes, codec: str) -> tuple[str, list[list[int]]]:
    """``raw`` decoded with ``codec``, bad bytes replaced by U+FFFD as the
    ``replace`` handler does, and the runs of bad bytes (adjacent ones
    joined) as ``[start, end]`` byte offsets, the first :data:`KEPT_RUNS`;
    a codec that fails in another way makes the whole of ``raw`` one bad
    run. Threads may decode at once: each keeps its own runs."""
    _RUNS.spans = spans = []
    try:
        text = raw.decode(codec, "mancala-report")
    except UnicodeError:  # a codec that fails in other ways: the whole line is bad
        text, spans = "\ufffd", [[0, len(raw)]]
    finally:
        _RUNS.spans = []
    return text, spans
