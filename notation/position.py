"""Position strings (PMN §3), the FEN of these games::

    <rows> <side> <south-bank>-<north-bank> <move-number>

    >>> from mancala_cli import get_game
    >>> game = get_game("kingulu")
    >>> position = parse_position(game, "1,0,6,6,0,1/6,6,2,7,0,6 N 7-0 1")
    >>> position.banks, position.side
    ((7, 0), 'N')
    >>> parse_position(game, "4,4/4,4 S 0-0 1")
    Traceback (most recent call last):
    ...
    mancala_cli.core.InvalidPosition: 2 rows of holes, kingulu has 2 rows of 6: rank 2 has 2 holes
"""
from __future__ import annotations

import re

from mancala_cli.core import Game, InvalidPosition, Position

_CELL = re.compile(r"([0-9]+)(\*?)\Z")
_BANKS = re.compile(r"([0-9]+)-([0-9]+)\Z")
#: Fields are separated by blanks (spaces or tabs), nothing else.
_BLANKS = re.compile(r"[ \t]+")
_OTHER_SPACE = re.compile(r"[^\S \t]")
_MAX_DIGITS = 12


def _number(text: str, what: str) -> int:
    if len(text) > _MAX_DIGITS:
        raise InvalidPosition(f"{what} {text[:15]}… is far too large")
    return int(text)


def parse_position(game: Game, text: str) -> Position:
    """Parse and check a position string of ``game``.

    Raises :class:`~mancala_cli.core.InvalidPosition` naming what is wrong:
    shape, a negative or non-numeric count, ``*`` misuse, more than one stone
    in a ``kimasai-klamroth`` hole, or seeds that do not add up.
    """
    board = game.board
    fields = _BLANKS.split(text.strip(" \t"))
    if len(fields) != 4:
        other = _OTHER_SPACE.search(text)
        if other:
            raise InvalidPosition(f"a position string has 4 fields (rows, side, banks, move number) "
                                  f"separated by spaces, not U+{ord(other.group()):04X}")
        raise InvalidPosition(f"a position string has 4 fields (rows, side, banks, move number), "
                              f"not {len(fields)}")
    rows_text, side, banks_text, number_text = fields
    rows = rows_text.split("/")
    shape = f"{game.id} has {board.ranks} rows of {board.files}"
    if len(rows) != board.ranks:
        raise InvalidPosition(f"{len(rows)} rows of holes, {shape}")
    holes = [0] * board.size
    reserved = set()
    for r, row in enumerate(rows):
        rank = board.ranks - r
        cells = row.split(",")
        if len(cells) != board.files:
            raise InvalidPosition(f"{len(rows)} rows of holes, {shape}: rank {rank} has {len(cells)} holes")
        for f, cell in enumerate(cells):
            hole = (rank - 1) * board.files + f
            match = _CELL.match(cell)
            if not match:
                if cell.startswith("-") and _CELL.match(cell[1:]):
                    raise InvalidPosition(f"negative count {cell!r} in {board.name(hole)}")
                raise InvalidPosition(f"count {cell!r} in {board.name(hole)} is not a number")
            holes[hole] = _number(match.group(1), f"count in {board.name(hole)}")
            if match.group(2):
                if game.id != "kingulu":
                    raise InvalidPosition(f"'*' (reserved hole) in {board.name(hole)}: "
                                          f"only kingulu has reserved holes")
                reserved.add(hole)
            if game.id == "kimasai-klamroth" and holes[hole] > 1:
                raise InvalidPosition(f"{holes[hole]} stones in {board.name(hole)}: "
                                      f"a kimasai-klamroth hole holds at most one")
    if side not in ("S", "N"):
        raise InvalidPosition(f"side to move must be S or N, not {side!r}")
    match = _BANKS.match(banks_text)
    if not match:
        raise InvalidPosition(f"banks {banks_text!r} must be two counts as S-N, e.g. 0-0")
    banks = (_number(match.group(1), "bank"), _number(match.group(2), "bank"))
    if not number_text.isdigit() or not number_text.isascii():
        raise InvalidPosition(f"move number {number_text!r} is not a number")
    number = _number(number_text, "move number")
    position = Position(tuple(holes), side, banks, number, frozenset(reserved))
    game.validate(position)
    return position


def format_position(game: Game, position: Position) -> str:
    """The position string of ``position`` (canonical: no leading zeros, one space)."""
    board = game.board
    files = board.files
    holes = position.holes
    reserved = position.reserved
    rows = []
    for rank in range(board.ranks, 0, -1):
        start = (rank - 1) * files
        if reserved:
            rows.append(",".join(f"{holes[h]}*" if h in reserved else str(holes[h])
                                 for h in range(start, start + files)))
        else:
            rows.append(",".join(map(str, holes[start:start + files])))
    return f"{'/'.join(rows)} {position.side} {position.banks[0]}-{position.banks[1]} {position.move_number}"
