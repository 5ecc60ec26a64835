"""Bao Kingulu, as recorded by Klamroth (docs/rules.md, ``kingulu``; rules ``KG-*``).

2 × 6 board, one circuit around the whole board, counterclockwise, with
relay laps, the empty-hole capture and reserved holes (*kuweka mtoto*)::

    >>> game = Kingulu()
    >>> move, after = game.play(game.start(), game.board.index_of("c1"))
    >>> move.captured, after.banks
    (6, (7, 0))
"""
from __future__ import annotations

from .board import SIDES, SOUTH, Board, other
from .game import DRAW, LAP_LIMIT, WATCH_FROM, Game, IllegalMove, Move, Outcome, sow, win
from .position import MutablePosition, Position


class Kingulu(Game):
    id = "kingulu"
    name = "Bao Kingulu"
    board = Board(2, 6)
    total = 48
    source = "M. Klamroth 1911"
    sowing = "counterclockwise, multi-lap relay; reserved holes"
    bank_name = "store"
    has_reserved_holes = True

    def __init__(self) -> None:
        board = self.board
        self.circuit = board.circuit(SOUTH)            # a1 … f1 f2 … a2
        self.places = {h: i for i, h in enumerate(self.circuit)}
        self.opposites = [board.opposite(h) for h in range(board.size)]

    def start(self) -> Position:
        """KG-1: four seeds in every hole, both stores empty."""
        return Position((4,) * self.board.size, SOUTH, (0, 0), 1)

    def score(self, position: Position) -> tuple[int, int]:
        """KG-7: store + own unreserved holes + holes reserved by the player."""
        totals = {side: position.bank(side) for side in SIDES}
        for hole, seeds in enumerate(position.holes):
            owner = self.board.owner(hole)
            holder = other(owner) if hole in position.reserved else owner
            totals[holder] += seeds
        return totals["S"], totals["N"]

    def _no_moves(self, position: Position) -> Outcome:
        # KG-7, the same rule: native_rules.c, native_no_moves.
        south, north = self.score(position)
        if south == north:
            result = DRAW
        else:
            result = win("S" if south > north else "N")
        return Outcome(result, "KG-7", f"{position.side} to move has no legal move; "
                       f"score {south}-{north}", (south, north))

    def _origins(self, position: Position) -> list[int]:
        holes = position.holes
        reserved = position.reserved
        return [h for h in self.board.holes_in_order(position.side) if holes[h] and h not in reserved]

    def _move(self, now: MutablePosition, origin: int, position: Position | None = None) -> Move:
        board = self.board
        self.check_origin(now, origin, "KG", position)
        reserved = now.reserved
        if origin in reserved:
            raise IllegalMove("KG-RESERVED", f"origin {board.name(origin)} is reserved by the opponent",
                              position, origin)
        side = now.side
        mine = board.holes_of(side)
        holes = now.holes
        circuit = self.circuit
        seen: dict[tuple[tuple[int, ...], int], int] = {}
        watch = min(WATCH_FROM, LAP_LIMIT)  # no lap before this one can be endless
        captured = 0
        reserves = False
        laps = 0
        hand = holes[origin]
        holes[origin] = 0
        place = self.places[origin] + 1
        while True:
            laps += 1
            last_place = sow(holes, circuit, place, hand)
            hole = circuit[last_place]
            before = holes[hole] - 1
            # KG-4: exactly one case applies.
            if hole in reserved:                               # 1. reserved: the move ends
                break
            if hole not in mine and before == 3:              # 2. kuweka mtoto (KG-6)
                if hand >= 2:
                    holes[circuit[last_place - 1]] -= 1
                    holes[hole] += 1
                now.reserved = reserved | {hole}
                reserves = True
                break
            if before == 0:                                    # 3. empty: the move ends
                facing = self.opposites[hole]
                if hole in mine and facing not in reserved and holes[facing]:
                    # KG-5: the opposite seeds and the capturing seed go to the store.
                    captured = holes[facing]
                    holes[facing] = 0
                    holes[hole] = 0
                    now.gain(side, captured + 1)
                break
            if laps == 1 and hole in mine:                     # 4. first lap, own row
                raise IllegalMove("KG-FIRSTLAP",
                                  f"{board.name(origin)}: the first lap ends in {board.name(hole)}, "
                                  f"an occupied hole of {side}'s own row", position, origin)
            if laps >= watch:
                self.going_on(position, origin, laps, holes, hole, seen, LAP_LIMIT)
            hand = holes[hole]                                 # relay
            holes[hole] = 0
            place = last_place + 1
        now.pass_turn()
        return Move(origin, hole, captured, reserves, laps)
