"""Telling the formats apart by their first bytes, without loading a reader
(the XML reader needs lxml).
"""
from __future__ import annotations

__all__ = ["is_xml"]


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
