"""The three coordinate styles of PMN (algebraic, numeric, relative).

    >>> from mancala_cli import get_game
    >>> board = get_game("kimasai-mackay").board
    >>> format_hole(board, board.index_of("h2"), "relative", "S")
    'S9'
    >>> board.name(parse_hole(board, "N9", "relative", "N"))
    'a3'
    >>> format_hole(board, board.index_of("a2"), "numeric")
    '9'
"""
from __future__ import annotations

import re

from mancala_cli.core import Board

STYLES = ("algebraic", "numeric", "relative")

_ALGEBRAIC = re.compile(r"[a-z][0-9]+\Z")
_NUMERIC = re.compile(r"[0-9]+\Z")
_RELATIVE = re.compile(r"([SN])([0-9]+)\Z")


class CoordinateError(ValueError):
    """A token that names no hole in the given style (a notation error)."""


def format_hole(board: Board, hole: int, style: str = "algebraic", side: str = "S") -> str:
    """The name of ``hole`` in ``style``; ``side`` is the mover (``relative`` only)."""
    if style == "algebraic":
        return board.names[hole]
    if style == "numeric":
        return str(hole + 1)
    if style == "relative":
        numbers = board.relative_numbers(side)
        try:
            return f"{side}{numbers.index(hole) + 1}"
        except ValueError:
            raise CoordinateError(f"{board.names[hole]} is not one of {side}'s holes") from None
    raise CoordinateError(f"unknown coordinate style {style!r}")


def parse_hole(board: Board, token: str, style: str = "algebraic", side: str = "S") -> int:
    """The hole named by ``token`` in ``style``; :class:`CoordinateError` if none.

    ``side`` is the mover: a ``relative`` token must carry his letter.
    """
    if style == "algebraic":
        index = board._by_name.get(token)
        if index is None:
            raise CoordinateError(f"{token!r} is not a hole of the {board.ranks} × {board.files} board")
        return index
    if style == "numeric":
        if not _NUMERIC.match(token) or not 1 <= int(token) <= board.size:
            raise CoordinateError(f"{token!r} is not a hole number of the {board.ranks} × {board.files} "
                                  f"board (1-{board.size})")
        return int(token) - 1
    if style == "relative":
        match = _RELATIVE.match(token)
        if not match:
            raise CoordinateError(f"{token!r} is not a relative coordinate (S1, N12 …)")
        letter, number = match.group(1), int(match.group(2))
        if letter != side:
            raise CoordinateError(f"{token!r} names a hole of {letter}, but {side} is to move")
        numbers = board.relative_numbers(side)
        if not 1 <= number <= len(numbers):
            raise CoordinateError(f"{token!r} is not a hole of {side} (1-{len(numbers)})")
        return numbers[number - 1]
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


def format_move(board: Board, move, style: str = "algebraic", side: str = "S", long_form: bool = False) -> str:
    """A played :class:`~mancala_cli.core.Move` with its outcome marks: ``c1x6``,
    ``e2^``; ``long_form`` adds the destination (``b2-a2x2``, Klamroth)."""
    destination = format_hole(board, move.end, style, side) if long_form else None
    return move_token(format_hole(board, move.origin, style, side), destination, move.captured,
                      move.reserved)
