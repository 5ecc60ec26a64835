"""The three coordinate styles of PMN (algebraic, numeric, relative).

The record layer knows a board only by its shape: anything with ``ranks``
(2 or 4) and ``files`` will do, such as a game's ``board``::

    >>> from mancala_cli import get_game
    >>> board = get_game("kimasai-mackay").board
    >>> format_hole(board, parse_hole(board, "h2"), "relative", "S")
    'S9'
    >>> format_hole(board, parse_hole(board, "N9", "relative", "N"))
    'a3'
    >>> format_hole(board, parse_hole(board, "a2"), "numeric")
    '9'

See ``docs/notation.md`` ("Coordinates").
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal, NamedTuple, Protocol

from .notation_errors import CoordinateError

__all__ = ["STYLES", "Side", "Shape", "format_hole", "parse_hole", "format_move", "move_token", "hole_names",
           "relative_numbers", "hole_table", "TokenParts", "parse_move_token", "move_label"]


#: A side of the board, as records write it: South (``"S"``, the first
#: player) or North (``"N"``). The same values as the rules' ``Side``.
Side = Literal["S", "N"]


class Shape(Protocol):
    """What the record layer needs of a board: its rows and columns."""

    @property
    def ranks(self) -> int: ...

    @property
    def files(self) -> int: ...


class _Played(Protocol):
    """What the record layer needs of a played move."""

    @property
    def origin(self) -> int: ...

    @property
    def end(self) -> int: ...

    @property
    def captured(self) -> int: ...

    @property
    def reserved(self) -> bool: ...


_FILES = "abcdefghijklmnopqrstuvwxyz"


@lru_cache(maxsize=None)
def hole_names(ranks: int, files: int) -> tuple[str, ...]:
    """The algebraic names of the holes by index: ``a1``, ``b1`` … (index =
    (rank - 1) × files + file)."""
    return tuple(f"{_FILES[i % files]}{i // files + 1}" for i in range(ranks * files))


@lru_cache(maxsize=None)
def _indices(ranks: int, files: int) -> dict[str, int]:
    return {name: i for i, name in enumerate(hole_names(ranks, files))}


@lru_cache(maxsize=None)
def relative_numbers(ranks: int, files: int, side: Side) -> tuple[int, ...]:
    """The player's own holes numbered counterclockwise from 1 at his
    back-row hole on his left: element ``k - 1`` is hole ``k`` (``relative``
    coordinates). On four rows South's holes are ranks 1–2, North's 3–4; on
    two rows each has one."""
    rows = [list(range(r * files, (r + 1) * files)) for r in range(ranks)]
    if ranks == 4:
        return tuple(rows[0] + rows[1][::-1]) if side == "S" else tuple(rows[3][::-1] + rows[2])
    return tuple(rows[0]) if side == "S" else tuple(rows[1][::-1])


STYLES = ("algebraic", "numeric", "relative")

# The patterns of the numeric and relative styles, compiled by :mod:`re`
# (and kept in its cache) when first used: a command that reads or draws
# algebraic holes only does not compile them at each start.
_NUMERIC = r"[0-9]+\Z"
_RELATIVE = r"([SN])([0-9]+)\Z"


def format_hole(board: Shape, hole: int, style: str = "algebraic", side: Side = "S") -> str:
    """The name of ``hole`` in ``style``; ``side`` is the mover (``relative`` only)."""
    if style == "algebraic":
        return hole_names(board.ranks, board.files)[hole]
    if style == "numeric":
        return str(hole + 1)
    if style == "relative":
        numbers = relative_numbers(board.ranks, board.files, side)
        try:
            return f"{side}{numbers.index(hole) + 1}"
        except ValueError:
            name = hole_names(board.ranks, board.files)[hole]
            raise CoordinateError(f"{name} is not one of {side}'s holes") from None
    raise CoordinateError(f"unknown coordinate style {style!r}")


def parse_hole(board: Shape, token: str, style: str = "algebraic", side: Side = "S") -> int:
    """The hole named by ``token`` in ``style``; :class:`CoordinateError` if none.

    ``side`` is the mover: a ``relative`` token must carry his letter.
    """
    if style == "algebraic":
        index = _indices(board.ranks, board.files).get(token)
        if index is None:
            raise CoordinateError(f"{token!r} is not a hole of the {board.ranks} × {board.files} board")
        return index
    if style == "numeric":
        size = board.ranks * board.files
        if not re.match(_NUMERIC, token) or not 1 <= int(token) <= size:
            raise CoordinateError(f"{token!r} is not a hole number of the {board.ranks} × {board.files} "
                                  f"board (1-{size})")
        return int(token) - 1
    if style == "relative":
        match = re.match(_RELATIVE, token)
        if not match:
            raise CoordinateError(f"{token!r} is not a relative coordinate (S1, N12 …)")
        letter, number = match.group(1), int(match.group(2))
        if letter != side:
            raise CoordinateError(f"{token!r} names a hole of {letter}, but {side} is to move")
        numbers = relative_numbers(board.ranks, board.files, side)
        if not 1 <= number <= len(numbers):
            raise CoordinateError(f"{token!r} is not a hole of {side} (1-{len(numbers)})")
        return numbers[number - 1]
    raise CoordinateError(f"unknown coordinate style {style!r}")


def hole_table(board: Shape, style: str, side: Side) -> dict[str, int]:
    """The hole of each token :func:`parse_hole` takes for ``side`` in
    ``style`` as :func:`format_hole` writes it (``c1``, ``3``, ``S3``): a
    token found here names that hole, any other goes through
    :func:`parse_hole` (another way of writing a hole, or an error).

        >>> from mancala_cli import get_game
        >>> table = hole_table(get_game("kingulu").board, "relative", "N")
        >>> table["N1"], "S1" in table, len(table)
        (11, False, 6)
    """
    return _hole_table(board.ranks, board.files, style, side)


@lru_cache(maxsize=None)
def _hole_table(ranks: int, files: int, style: str, side: Side) -> dict[str, int]:
    if style == "relative":
        return {f"{side}{k}": hole for k, hole in enumerate(relative_numbers(ranks, files, side), 1)}
    if style == "numeric":
        return {str(hole + 1): hole for hole in range(ranks * files)}
    if style == "algebraic":
        return dict(_indices(ranks, files))
    raise CoordinateError(f"unknown coordinate style {style!r}")


def move_token(hole: str, destination: str | None, captured: int | None, reserved: bool) -> str:
    """A move as PMN writes it: ``hole[-destination][xN][^]``, ``xN`` only
    when something was taken (``x0`` and no count are never written)."""
    text = hole if destination is None else f"{hole}-{destination}"
    if captured is not None and captured > 0:
        text += f"x{captured}"
    if reserved:
        text += "^"
    return text


def format_move(board: Shape, move: _Played, style: str = "algebraic", side: Side = "S", long_form: bool = False) -> str:
    """A played move (its ``origin``, ``end``, ``captured``, ``reserved``) with its outcome marks: ``c1x6``,
    ``e2^``; ``long_form`` adds the destination (``b2-a2x2``, Klamroth)."""
    destination = format_hole(board, move.end, style, side) if long_form else None
    return move_token(format_hole(board, move.origin, style, side), destination, move.captured,
                      move.reserved)


#: A move token in any coordinate style: the hole, Klamroth's
#: ``-destination``, then the marks ``xN`` and ``^`` if any (compiled by
#: :mod:`re` when first used, as the styles' patterns above).
_MOVE_TOKEN = (r"(?P<hole>[SN]?[0-9]+|[a-z][0-9]+)(?:-(?P<to>[SN]?[0-9]+|[a-z][0-9]+))?"
               r"(?:x(?P<taken>[0-9]{1,9}))?(?P<reserves>\^)?\Z")


class TokenParts(NamedTuple):
    """The parts of a move token as written: ``hole`` and ``destination``
    in the token's own coordinate ``style``, the marks ``captured`` (``xN``,
    ``None`` when not written) and ``reserved`` (``^``)."""

    hole: str
    destination: str | None
    captured: int | None
    reserved: bool

    @property
    def style(self) -> str:
        """The coordinate style the holes are written in (by the first one)."""
        first = self.hole[0]
        return "relative" if first in "SN" else "numeric" if first.isdigit() else "algebraic"


def parse_move_token(token: str) -> TokenParts | None:
    """The parts of ``token``, ``None`` when it is no move token (which
    holes exist is the board's to say: :func:`parse_hole`).

        >>> parse_move_token("b2-a2x2")
        TokenParts(hole='b2', destination='a2', captured=2, reserved=False)
        >>> parse_move_token("N3^").style, parse_move_token("c1 d2")
        ('relative', None)
    """
    match = re.match(_MOVE_TOKEN, token)
    if match is None:
        return None
    taken = match["taken"]
    return TokenParts(match["hole"], match["to"], None if taken is None else int(taken), bool(match["reserves"]))


def move_label(number: int | str, side: Side | str) -> str:
    """The move number as records write it before a move: ``12.`` before
    South's move, ``12...`` before North's.

        >>> move_label(12, "S"), move_label(12, "N")
        ('12.', '12...')
    """
    return f"{number}." if side == "S" else f"{number}..."
