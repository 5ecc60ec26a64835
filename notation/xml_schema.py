"""The schema of XML archives (``notation/schema/mancala.rng``, RELAX NG)
and the parser settings for anything read.

The first link of the XML archive's modules (:mod:`notation.xml_schema` →
:mod:`notation.xml_writer`, :mod:`notation.xml_reader`).

    >>> schema().validate(etree.fromstring('<mancala version="1"/>'))
    True
"""
from __future__ import annotations

import copy
from functools import lru_cache
from importlib import resources
from typing import TypedDict

from lxml import etree

from .notation_errors import XMLArchiveError

__all__ = ["VERSION", "SAFE_PARSING", "ParserSettings", "schema", "game_schema", "validation_error"]

#: The archive format's version, the root's ``version`` attribute.
VERSION = "1"

_RNG = "{http://relaxng.org/ns/structure/1.0}"


class ParserSettings(TypedDict):
    """The settings of an :class:`lxml.etree.XMLParser` that make it safe."""

    resolve_entities: bool
    no_network: bool
    load_dtd: bool
    dtd_validation: bool


#: The parser settings for anything read: no entities, no DTD, no network.
SAFE_PARSING: ParserSettings = {"resolve_entities": False, "no_network": True, "load_dtd": False,
                                "dtd_validation": False}


@lru_cache(maxsize=1)
def _schema_tree() -> etree._ElementTree:
    data = resources.files("notation").joinpath("schema", "mancala.rng").read_bytes()
    return etree.ElementTree(etree.fromstring(data, etree.XMLParser(**SAFE_PARSING)))


@lru_cache(maxsize=1)
def schema() -> etree.RelaxNG:
    """The archive schema (``notation/schema/mancala.rng``), compiled."""
    return etree.RelaxNG(_schema_tree())


@lru_cache(maxsize=1)
def game_schema() -> etree.RelaxNG:
    """The same schema with a ``<game>`` element as its start: what each game
    of a document is validated against while it is streamed."""
    tree = copy.deepcopy(_schema_tree())
    start = tree.getroot().find(_RNG + "start")
    assert start is not None  # (the schema has one)
    for child in list(start):
        start.remove(child)
    etree.SubElement(start, _RNG + "ref", name="game")
    return etree.RelaxNG(tree)


def validation_error(validator: etree.RelaxNG, line: int | None = None,
                      file: str | None = None) -> XMLArchiveError:
    """The validator's messages about the first place it failed."""
    errors = list(validator.error_log)
    if not errors:
        return XMLArchiveError("does not validate against the archive schema", line, file=file)
    first = errors[0]
    messages: list[str] = []
    for error in errors:
        if error.line == first.line and error.message not in messages:
            messages.append(error.message)
    where = line if line is not None else (first.line or None)
    return XMLArchiveError("; ".join(messages[:3]), where, file=file)
