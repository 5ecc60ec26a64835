"""Sides and the board's geometry: which side is which (:data:`SOUTH`,
:data:`NORTH`, :func:`other`, :func:`side_name`) and :class:`Board`, the
holes of a board by name and index, who owns them, and the circuits the
seeds are sown around. Not a position (:mod:`.position`) and not the
rules (:mod:`.game`).

Holes are plain integers: ``index = (rank - 1) * files + file`` with files
and ranks counted from 0 and 1 respectively, so ``a1`` is 0 and the index is
one less than the hole's ``numeric`` coordinate::

    >>> board = Board(2, 6)
    >>> board.index_of("a1"), board.name(11), board.owner(11)
    (0, 'f2', 'N')
"""
from __future__ import annotations

from typing import Final, Literal

#: A side of the board, as position strings and records write it: South
#: (``"S"``, the first player) or North (``"N"``).
Side = Literal["S", "N"]
Side.__doc__ = """A side: ``"S"`` (South, who moves first) or ``"N"`` (North)."""
SOUTH: Final[Side] = "S"
NORTH: Final[Side] = "N"
SIDES: Final[tuple[Side, Side]] = (SOUTH, NORTH)

FILES = "abcdefghijklmnopqrstuvwxyz"


def other(side: Side) -> Side:
    """The opponent of ``side``."""
    return NORTH if side == SOUTH else SOUTH


def side_name(side: Side) -> str:
    """The side's name in words: ``South`` or ``North``."""
    return "South" if side == SOUTH else "North"


class Board:
    """The geometry of a board — rows, ownership, circuits; not a position
    (see :class:`Position`) and not the rules (see :class:`Game`).

    A board has ``ranks`` × ``files`` holes. A four-row board gives each player two rows (South ranks 1–2, North
    ranks 3–4) and a circuit of his own; a two-row board gives each player one
    row and one circuit around the whole board.
    """

    def __init__(self, ranks: int, files: int) -> None:
        if ranks not in (2, 4):
            raise ValueError("a board has two or four rows")
        self.ranks = ranks
        self.files = files
        self.size = ranks * files
        self.names = tuple(f"{FILES[i % files]}{i // files + 1}" for i in range(self.size))
        self._by_name = {name: i for i, name in enumerate(self.names)}
        rows = [list(range(r * files, (r + 1) * files)) for r in range(ranks)]
        if ranks == 4:
            self._own = {SOUTH: frozenset(rows[0] + rows[1]), NORTH: frozenset(rows[2] + rows[3])}
            self._front = {SOUTH: tuple(rows[1]), NORTH: tuple(rows[2])}
            self._back = {SOUTH: tuple(rows[0]), NORTH: tuple(rows[3])}
            # Counterclockwise, starting from the player's back-row hole at his left.
            self._circuit = {
                SOUTH: tuple(rows[0] + rows[1][::-1]),
                NORTH: tuple(rows[3][::-1] + rows[2]),
            }
        else:
            self._own = {SOUTH: frozenset(rows[0]), NORTH: frozenset(rows[1])}
            self._front = {SOUTH: tuple(rows[0]), NORTH: tuple(rows[1])}
            self._back = self._front
            whole = tuple(rows[0] + rows[1][::-1])
            self._circuit = {SOUTH: whole, NORTH: whole[files:] + whole[:files]}

        self._own_sorted = {side: tuple(sorted(self._own[side])) for side in SIDES}

    def __repr__(self) -> str:
        return f"Board({self.ranks}, {self.files})"

    # -- names -------------------------------------------------------------
    def name(self, hole: int) -> str:
        """The algebraic name of a hole: ``board.name(0) == "a1"``."""
        return self.names[hole]

    def index_of(self, name: str) -> int:
        """The hole called ``name`` in algebraic style; KeyError if none."""
        return self._by_name[name]

    def rank(self, hole: int) -> int:
        """The row of ``hole``, counted from 1 at South's back row."""
        return hole // self.files + 1

    def file(self, hole: int) -> int:
        """The column of ``hole``, counted from 0."""
        return hole % self.files

    # -- ownership and rows ------------------------------------------------
    def owner(self, hole: int) -> Side:
        """The side whose row holds ``hole``."""
        return SOUTH if hole in self._own[SOUTH] else NORTH

    def holes_of(self, side: Side) -> frozenset[int]:
        """The holes ``side`` owns."""
        return self._own[side]

    def holes_in_order(self, side: Side) -> tuple[int, ...]:
        """The player's holes by index (``a1`` first)."""
        return self._own_sorted[side]

    def front_row(self, side: Side) -> tuple[int, ...]:
        """The player's inner (front) row, from file ``a``; his only row on two rows."""
        return self._front[side]

    def back_row(self, side: Side) -> tuple[int, ...]:
        """The holes of ``side``'s back row, in index order."""
        return self._back[side]

    def is_front(self, hole: int, side: Side) -> bool:
        """Whether ``hole`` is in ``side``'s front row."""
        return hole in self._front[side]

    def opposite(self, hole: int) -> int:
        """The hole of the same file in the facing row (front row ↔ front row).

        On four rows only front-row holes face each other; the opposite of a
        back-row hole is the front-row hole of the same file of the other side.
        """
        rank = self.rank(hole)
        if self.ranks == 2:
            facing = 3 - rank
        else:
            facing = {1: 3, 2: 3, 3: 2, 4: 2}[rank]
        return (facing - 1) * self.files + self.file(hole)

    def behind(self, hole: int) -> int:
        """The back-row hole behind a front-row hole on four rows (``x3`` → ``x4``)."""
        rank = self.rank(hole)
        back = {2: 1, 3: 4}.get(rank)
        if back is None or self.ranks != 4:
            raise ValueError(f"{self.name(hole)} is not a front-row hole of a four-row board")
        return (back - 1) * self.files + self.file(hole)

    # -- circuits ----------------------------------------------------------
    def circuit(self, side: Side, clockwise: bool = False) -> tuple[int, ...]:
        """The holes the player sows around, in sowing order.

        Counterclockwise it starts at the player's back-row hole on his left
        (``a1`` for South, ``h4`` for North on 4 × 8); on two rows it is the
        whole board. Clockwise is the reverse order.
        """
        circuit = self._circuit[side]
        return circuit[::-1] if clockwise else circuit
