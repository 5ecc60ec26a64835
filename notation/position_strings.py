"""Position strings, the FEN of these games (``docs/notation.md``,
"Position strings")::

    <rows> <side> <south-bank>-<north-bank> <move-number>

The record layer reads and writes them as plain data, knowing of a game only
its :class:`BoardFacts`; whether the seeds add up is the rules' business
(``mancala_cli.parse_position`` asks both)::

    >>> from mancala_cli import get_game
    >>> game = get_game("kingulu")
    >>> fields = parse_position(game, "1,0,6,6,0,1/6,6,2,7,0,6 N 7-0 1")
    >>> fields.banks, fields.side
    ((7, 0), 'N')
    >>> parse_position(game, "4,4/4,4 S 0-0 1")
    Traceback (most recent call last):
    ...
    notation.notation_errors.PositionError: 2 rows of holes, kingulu has 2 rows of 6: rank 2 has 2 holes
"""
from __future__ import annotations

import re
from typing import NamedTuple, Protocol

from .coords import Shape, Side, hole_names
from .notation_errors import PositionError

__all__ = ["BoardFacts", "PositionFields", "parse_position", "format_position"]


class BoardFacts(Shape, Protocol):
    """What the record layer knows of a game: its shape (rows and columns)
    and a few plain facts, no rules."""

    @property
    def id(self) -> str: ...

    @property
    def has_reserved_holes(self) -> bool: ...

    @property
    def hole_capacity(self) -> int | None: ...


class PositionFields(NamedTuple):
    """A position string's fields, in the order of the rules' ``Position``."""

    holes: tuple[int, ...]
    side: Side
    banks: tuple[int, int]
    move_number: int
    reserved: frozenset[int]


class _Position(Protocol):
    @property
    def holes(self) -> tuple[int, ...]: ...

    @property
    def side(self) -> Side: ...

    @property
    def banks(self) -> tuple[int, int]: ...

    @property
    def move_number(self) -> int: ...

    @property
    def reserved(self) -> frozenset[int]: ...


_CELL = re.compile(r"([0-9]+)(\*?)\Z")
_BANKS = re.compile(r"([0-9]+)-([0-9]+)\Z")
#: Fields are separated by blanks (spaces or tabs), nothing else.
_BLANKS = re.compile(r"[ \t]+")
_OTHER_SPACE = re.compile(r"[^\S \t]")
_MAX_DIGITS = 12


def _number(text: str, what: str) -> int:
    if len(text) > _MAX_DIGITS:
        raise PositionError(f"{what} {text[:15]}… is far too large")
    return int(text)


def parse_position(game: BoardFacts, text: str) -> PositionFields:
    """Parse a position string of ``game``.

    Raises :class:`~notation.notation_errors.PositionError` naming what is wrong:
    shape, a negative or non-numeric count, ``*`` misuse, or more stones in a
    hole than it can hold (``kimasai-klamroth``).
    """
    fields = _BLANKS.split(text.strip(" \t"))
    if len(fields) != 4:
        other = _OTHER_SPACE.search(text)
        if other:
            raise PositionError(f"a position string has 4 fields (rows, side, banks, move number) "
                                f"separated by spaces, not U+{ord(other.group()):04X}")
        raise PositionError(f"a position string has 4 fields (rows, side, banks, move number), "
                            f"not {len(fields)}")
    rows_text, side_text, banks_text, number_text = fields
    holes, reserved = _rows(game, rows_text)
    if side_text not in ("S", "N"):
        raise PositionError(f"side to move must be S or N, not {side_text!r}")
    side: Side = "S" if side_text == "S" else "N"
    match = _BANKS.match(banks_text)
    if not match:
        raise PositionError(f"banks {banks_text!r} must be two counts as S-N, e.g. 0-0")
    banks = (_number(match.group(1), "bank"), _number(match.group(2), "bank"))
    if not number_text.isdigit() or not number_text.isascii():
        raise PositionError(f"move number {number_text!r} is not a number")
    return PositionFields(holes, side, banks, _number(number_text, "move number"), reserved)


def _rows(game: BoardFacts, text: str) -> tuple[tuple[int, ...], frozenset[int]]:
    """The holes and the reserved holes of the rows field (top rank first)."""
    ranks, files = game.ranks, game.files
    rows = text.split("/")
    shape = f"{game.id} has {ranks} rows of {files}"
    if len(rows) != ranks:
        raise PositionError(f"{len(rows)} rows of holes, {shape}")
    names = hole_names(ranks, files)
    holes = [0] * (ranks * files)
    reserved = set()
    for r, row in enumerate(rows):
        rank = ranks - r
        cells = row.split(",")
        if len(cells) != files:
            raise PositionError(f"{len(rows)} rows of holes, {shape}: rank {rank} has {len(cells)} holes")
        for f, cell in enumerate(cells):
            hole = (rank - 1) * files + f
            holes[hole], starred = _cell(game, cell, names[hole])
            if starred:
                reserved.add(hole)
    return tuple(holes), frozenset(reserved)


def _cell(game: BoardFacts, cell: str, name: str) -> tuple[int, bool]:
    """One hole's count, and whether it is marked reserved (``*``)."""
    match = _CELL.match(cell)
    if not match:
        if cell.startswith("-") and _CELL.match(cell[1:]):
            raise PositionError(f"negative count {cell!r} in {name}")
        raise PositionError(f"count {cell!r} in {name} is not a number")
    count = _number(match.group(1), f"count in {name}")
    if match.group(2) and not game.has_reserved_holes:
        raise PositionError(f"'*' (reserved hole) in {name}: only kingulu has reserved holes")
    capacity = game.hole_capacity
    if capacity is not None and count > capacity:
        raise PositionError(f"{count} stones in {name}: a {game.id} hole holds at most one")
    return count, bool(match.group(2))


def format_position(game: BoardFacts, position: _Position) -> str:
    """The position string of ``position`` (canonical: no leading zeros, one space)."""
    files = game.files
    holes = position.holes
    reserved = position.reserved
    rows = []
    for rank in range(game.ranks, 0, -1):
        start = (rank - 1) * files
        if reserved:
            rows.append(",".join(f"{holes[h]}*" if h in reserved else str(holes[h])
                                 for h in range(start, start + files)))
        else:
            rows.append(",".join(map(str, holes[start:start + files])))
    return f"{'/'.join(rows)} {position.side} {position.banks[0]}-{position.banks[1]} {position.move_number}"
