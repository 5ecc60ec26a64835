"""Positions: :class:`Position`, everything that decides the rest of a
game as an immutable tuple, and :class:`MutablePosition`, its twin that a
move changes in place; :data:`PositionKey`, what a repetition history
holds of each position.
"""
from __future__ import annotations

from typing import NamedTuple

from .board import NORTH, SOUTH, Side

#: What a repetition history holds: the key of each earlier position
#: (:meth:`Position.key`, KK-4(b)).
PositionKey = tuple[tuple[int, ...], Side]


class Position(NamedTuple):
    """Everything that decides the rest of a game (except repetition history).

    ``holes`` lists seed counts by hole index; ``banks`` is ``(south, north)``:
    reserves (``kimasai-mackay``), stores (``kingulu``) or captured stones
    (``kimasai-klamroth``); ``reserved`` holds the indices of reserved holes
    (``kingulu``; a reserved hole belongs to the opponent of its row's owner).
    A position is an immutable, hashable tuple.
    """

    holes: tuple[int, ...]
    side: Side = SOUTH
    banks: tuple[int, int] = (0, 0)
    move_number: int = 1
    reserved: frozenset[int] = frozenset()

    def bank(self, side: Side) -> int:
        """The seeds in ``side``'s bank."""
        return self.banks[0 if side == SOUTH else 1]

    def key(self) -> tuple[tuple[int, ...], Side]:
        """What KK-4(b) compares: every hole and the side to move."""
        return (self.holes, self.side)

    def seeds(self) -> int:
        """Every seed of the position: in the holes and in both banks."""
        return sum(self.holes) + self.banks[0] + self.banks[1]


_new_position = tuple.__new__


class MutablePosition:
    """A position being played: the mutable twin of :class:`Position` that a
    move changes in place. Replaying a game needs only one of these, where
    :class:`Position` makes a new tuple per ply::

        >>> from mancala_cli.rules.registry import get_game
        >>> game = get_game("kingulu")
        >>> now = MutablePosition(game.start())
        >>> game.move(now, game.board.index_of("c1")).captured
        6
        >>> now.frozen().banks, now.side
        ((7, 0), 'N')
    """

    __slots__ = ("holes", "side", "banks", "move_number", "reserved")

    def __init__(self, position: Position) -> None:
        self.holes = list(position.holes)
        self.side: Side = position.side
        self.banks = list(position.banks)
        self.move_number = position.move_number
        self.reserved = position.reserved

    def __repr__(self) -> str:
        return (f"MutablePosition(holes={self.holes!r}, side={self.side!r}, banks={self.banks!r}, "
                f"move_number={self.move_number!r}, reserved={self.reserved!r})")

    def key(self) -> tuple[tuple[int, ...], Side]:
        """The same key as :meth:`Position.key`."""
        return (tuple(self.holes), self.side)

    def gain(self, side: Side, seeds: int) -> None:
        """Add ``seeds`` to the bank of ``side``."""
        self.banks[0 if side == SOUTH else 1] += seeds

    def pass_turn(self) -> None:
        """The mover's turn is over: the other side moves (North's move ends a move number)."""
        if self.side == NORTH:
            self.side = SOUTH
            self.move_number += 1
        else:
            self.side = NORTH

    def frozen(self) -> Position:
        """The :class:`Position` this is now."""
        banks = self.banks
        # tuple.__new__ skips the named tuple's argument handling: one new
        # position per ply is the engine's hottest allocation.
        return _new_position(Position, (tuple(self.holes), self.side, (banks[0], banks[1]),
                                        self.move_number, self.reserved))
