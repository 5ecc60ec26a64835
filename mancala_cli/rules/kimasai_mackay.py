"""Bao la Kimasai, two-phase, as recorded by MacKay (docs/rules.md, ``kimasai-mackay``; rules ``KM-*``).

4 × 8 board; each player sows clockwise around his own 16 holes, relaying
from every occupied hole; in phase 2 a lap that ends in an occupied hole of
the inner row raids the opposite hole (the cattle raid)::

    >>> game = KimasaiMackay()
    >>> move, after = game.play(game.start(), game.board.index_of("c2"))
    >>> game.board.name(move.end), move.laps
    ('g1', 4)
"""
from __future__ import annotations

from collections.abc import Collection

from .board import NORTH, SOUTH, Board, other
from .game import LAP_LIMIT, WATCH_FROM, Game, Move, Outcome, sow, win
from .position import MutablePosition, Position, PositionKey

RESERVE = 24


class KimasaiMackay(Game):
    id = "kimasai-mackay"
    name = "Bao la Kimasai (MacKay)"
    board = Board(4, 8)
    total = 64
    source = "D. MacKay 2001, from Moinget Ole Kuney"
    sowing = "clockwise, multi-lap relay; cattle raids in phase 2"
    bank_name = "reserve"
    can_draw = False  # KM-9: every end is a win

    def __init__(self) -> None:
        board = self.board
        # KM-2: each player's own 16 holes, clockwise.
        self.circuits = {side: board.circuit(side, clockwise=True) for side in (SOUTH, NORTH)}
        self.places = {side: {h: i for i, h in enumerate(c)} for side, c in self.circuits.items()}
        self.inner = {side: frozenset(board.front_row(side)) for side in (SOUTH, NORTH)}
        files = board.files
        # The inner rows as slices of the hole tuple (ranks 2 and 3).
        self.inner_slice = {SOUTH: slice(files, 2 * files), NORTH: slice(2 * files, 3 * files)}
        self.opposites = [board.opposite(h) for h in range(board.size)]

    def start(self) -> Position:
        """KM-1: one seed in every hole of ranks 2 and 3, 24 in each reserve."""
        files = self.board.files
        holes = (0,) * files + (1,) * (2 * files) + (0,) * files
        return Position(holes, SOUTH, (RESERVE, RESERVE), 1)

    @staticmethod
    def phase(position: Position | MutablePosition) -> int:
        """KM-3: phase 1 while either player holds a reserve seed."""
        return 1 if position.banks[0] or position.banks[1] else 2

    def _ended(self, position: Position | MutablePosition, history: Collection[PositionKey]) -> Outcome | None:
        """KM-9: a player without a seed in his inner row ends the game."""
        # The same rule, native (docs/native.md): native_rules.c, native_ended,
        # which the kernel's search, its runs of moves and native.py's
        # _KernelEnd ask; the "no legal move" half (_no_moves) is
        # native_rules.c, native_no_moves.
        holes = position.holes
        mover = position.side
        if not any(holes[self.inner_slice[mover]]):
            return Outcome(win(other(mover)), "KM-9",
                           f"{mover} to move has no seed in his inner row")
        if not any(holes[self.inner_slice[other(mover)]]):
            return Outcome(win(mover), "KM-9",
                           f"{other(mover)} emptied his own inner row")
        return None

    def _no_moves(self, position: Position) -> Outcome:
        # The same rule: native_rules.c, native_no_moves.
        return Outcome(win(other(position.side)), "KM-9",
                       f"{position.side} to move has no legal move")

    def _move(self, now: MutablePosition, origin: int, position: Position | None = None) -> Move:
        self.check_origin(now, origin, "KM", position)
        side = now.side
        holes = now.holes
        banks = now.banks
        mine = 0 if side == SOUTH else 1
        phase = self.phase(now)
        first_turn = now.move_number == 1 and side == SOUTH  # (native.h, native_first_turn)
        if phase == 1 and not first_turn and banks[mine]:
            # KM-4: introduce one reserve seed, then lift (KM-4a, KM-4b: none).
            holes[origin] += 1
            banks[mine] -= 1
        circuit = self.circuits[side]
        places = self.places[side]
        inner = self.inner[side]
        opposites = self.opposites
        seen: dict[tuple[tuple[int, ...], int], int] = {}
        watch = min(WATCH_FROM, LAP_LIMIT)  # no lap before this one can be endless
        raided = 0
        laps = 0
        # The first lap starts with the hole after the origin.
        hand = holes[origin]
        holes[origin] = 0
        place = places[origin] + 1
        while True:
            laps += 1
            last_place = sow(holes, circuit, place, hand)
            hole = circuit[last_place]
            if holes[hole] == 1:                       # KM-5: empty before: the move ends
                break
            # The lap ended in an occupied hole: the move goes on (relay or raid).
            if laps >= watch:
                self.going_on(position, origin, laps, holes, hole, seen, LAP_LIMIT)
            facing = opposites[hole]
            if phase == 2 and hole in inner and holes[facing]:
                # KM-8: cattle raid, the first raided seed falls into the hole itself.
                hand = holes[facing]
                holes[facing] = 0
                raided += hand
                place = last_place
            else:
                # KM-5 relay (KM-6: always in phase 1).
                hand = holes[hole]
                holes[hole] = 0
                place = last_place + 1
        now.pass_turn()
        return Move(origin, hole, raided, False, laps)
