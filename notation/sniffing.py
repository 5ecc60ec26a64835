"""Telling the formats apart by their first bytes, without loading a reader
(the XML reader needs lxml).
"""
from __future__ import annotations

__all__ = ["binary_reason", "is_xml"]


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
