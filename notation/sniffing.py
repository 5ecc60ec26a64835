"""Telling the formats apart by their first bytes, without loading a reader
(the XML reader needs lxml).
"""
from __future__ import annotations

import re

__all__ = ["binary_reason", "binary_line", "is_xml", "record_start", "starts_with_records", "tag_tail", "utf16_hint"]


def is_xml(first_bytes: bytes) -> bool:
    """Whether input starting with ``first_bytes`` is an XML document: its first
    character after an optional byte order mark (UTF-8, UTF-16 or UTF-32) and
    white space is ``<``
    (``<?xml``, ``<mancala``, a comment or a DOCTYPE — refused later, but as XML).
    No PMN or JSON text starts with ``<``.

    >>> is_xml(b'\\xef\\xbb\\xbf  <?xml version="1.0"?>'), is_xml(b'[Game "kingulu"]'), is_xml(b'{"game": 1}')
    (True, False, False)
    """
    data = bytes(first_bytes)
    for bom, codec, unit in ((b"\xef\xbb\xbf", None, 1), (b"\xff\xfe\x00\x00", "utf-32-le", 4),
                             (b"\x00\x00\xfe\xff", "utf-32-be", 4), (b"\xff\xfe", "utf-16-le", 2),
                             (b"\xfe\xff", "utf-16-be", 2)):
        if data.startswith(bom):
            data = data[len(bom):]
            if codec:
                data = data[: len(data) // unit * unit].decode(codec, "replace").encode("utf-8", "replace")
            break
    else:
        if data[:4] in (b"<\x00\x00\x00", b"\x00\x00\x00<"):  # UTF-32 without a byte order mark
            return True
        if data[:2] in (b"<\x00", b"\x00<"):  # UTF-16 without a byte order mark
            return True
    return data.lstrip(b" \t\r\n").startswith(b"<")


#: C0 control characters that no text of records holds (tab, line feed, form
#: feed and carriage return are text).
_NOT_TEXT = frozenset(chr(c) for c in range(32) if chr(c) not in "\t\n\f\r")


def binary_reason(head: str) -> str | None:
    """Why input whose first block decodes to ``head`` is binary data (an
    executable, an archive, an image) rather than text with some bad bytes,
    or None: a NUL character in its first line, or more than one character
    in sixteen of the block a control character that no text holds (in
    random bytes, one in nine is). Bytes that are not valid in the encoding
    do not count: a text with bad bytes is text, its bad bytes reported
    where they are.

    >>> binary_reason(bytes(range(8)).decode()), binary_reason('[Game "kingulu"]' + chr(10) + chr(0))
    ('a NUL character in its first line', None)
    >>> binary_reason(b"PNG\\r\\n".decode("unicode_escape") + chr(26) * 3 + "IHDR")
    '3 of its first 12 characters are control characters'
    """
    if "\x00" in head.partition("\n")[0]:
        return "a NUL character in its first line"
    bad = sum(1 for character in head if character in _NOT_TEXT)
    if bad * 16 > len(head):
        return f"{bad:,} of its first {len(head):,} characters are control characters"
    return None


#: The control characters of :data:`_NOT_TEXT`, as a class (a line without
#: one is text: one search in C, most lines).
_CONTROL = re.compile("[\x00-\x08\x0b\x0e-\x1f]")


def binary_line(line: str) -> bool:
    """Whether one decoded line is binary data rather than text with a stray
    character: it holds a NUL, or at least 4 control characters that no text
    holds, more than one character in sixteen.

    >>> binary_line("1. c1x6 d2 *"), binary_line("ELF" + chr(0) + "x"), binary_line("{bad " + chr(1) + " char}")
    (False, True, False)
    """
    if _CONTROL.search(line) is None:
        return False
    if "\x00" in line:
        return True
    bad = len(_CONTROL.findall(line))
    return bad >= 4 and bad * 16 > len(line)


#: A line that starts a record: a PMN tag (``[Name "``) or a JSON object
#: with a key (``{"``), after blanks.
_RECORD_START = re.compile(r'[ \t]*(?:\[[A-Za-z0-9_]+[ \t]*"|\{[ \t]*")')


def record_start(line: str) -> bool:
    """Whether ``line`` starts a record (a PMN tag line, a JSON object):
    where reading resumes after binary data.

    >>> record_start('[Game "kingulu"]'), record_start('{"game": "kingulu"}'), record_start("1. c1x6 *")
    (True, True, False)
    """
    return _RECORD_START.match(line) is not None


#: A tag pair that ends a line of binary data (the file after it was
#: appended without a line break in between).
_TAG_TAIL = re.compile(r'\[[A-Za-z0-9_]+[ \t]*"[^"\x00-\x08\x0b\x0e-\x1f]*"\][ \t]*(?:\r\n|\r|\n)?\Z')


def tag_tail(line: str) -> int | None:
    """Where a tag pair that ends the binary ``line`` begins, or None.

    >>> tag_tail(chr(0) * 3 + '[Game "kingulu"]' + chr(10)), tag_tail(chr(0) * 3)
    (3, None)
    """
    if "[" not in line:
        return None
    match = _TAG_TAIL.search(line)
    return None if match is None else match.start()


def utf16_hint(raw: bytes) -> str:
    """A hint for bytes read in an encoding of single bytes that have a NUL
    every other byte (UTF-16 text of ASCII characters), else ``""``.

    >>> utf16_hint('[Game "kingulu"]'.encode("utf-16-le")), utf16_hint(bytes(8))
    ('; a NUL every other byte is UTF-16: try --encoding utf-16', '')
    """
    half = len(raw) // 2
    if half < 2:
        return ""
    even, odd = raw[0:2 * half:2].count(0), raw[1:2 * half:2].count(0)
    many, few = max(even, odd), min(even, odd)
    if many * 10 >= half * 9 and few * 50 <= half:
        return "; a NUL every other byte is UTF-16: try --encoding utf-16"
    return ""


def starts_with_records(head: str) -> bool:
    """Whether the decoded ``head`` of an input has a line that starts a
    record (:func:`record_start`) before its first line of binary data:
    text with damage later, read line by line, not binary data."""
    for line in head.splitlines():
        if binary_line(line):
            return False
        if record_start(line):
            return True
    return False
