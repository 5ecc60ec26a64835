"""Bao la Kimasai, four rows, as recorded by Klamroth (docs/rules.md, ``kimasai-klamroth``; rules ``KK-*``).

4 × 12 board, never more than one stone in a hole. A stone steps one hole
counterclockwise along its owner's circuit into an empty hole; stepping into
the front row captures the opposite front stone and the one behind it::

    >>> game = KimasaiKlamroth()
    >>> [game.board.name(m.origin) for m in game.legal_moves(game.start())]
    ['b2']
    >>> game.legal_moves(game.start())[0].captured
    2
"""
from __future__ import annotations

from collections.abc import Collection

from .board import NORTH, SOUTH, Board, other
from .game import Game, IllegalMove, Move, Outcome, win
from .position import MutablePosition, Position, PositionKey


class KimasaiKlamroth(Game):
    id = "kimasai-klamroth"
    name = "Bao la Kimasai (Klamroth)"
    board = Board(4, 12)
    total = 46
    source = "M. Klamroth 1911"
    sowing = "single stones step counterclockwise"
    bank_name = "captured"
    uses_history = True
    hole_capacity: int | None = 1
    long_form_moves = True

    def __init__(self) -> None:
        board = self.board
        # KK-2: the hole after each hole along its owner's counterclockwise circuit.
        self.step = [0] * board.size
        for side in (SOUTH, NORTH):
            circuit = board.circuit(side)
            for i, hole in enumerate(circuit):
                self.step[hole] = circuit[(i + 1) % len(circuit)]
        half = board.size // 2
        #: Each side's two rows, as a slice of the holes.
        self.rows = {SOUTH: slice(0, half), NORTH: slice(half, board.size)}
        self.front = {side: frozenset(board.front_row(side)) for side in (SOUTH, NORTH)}
        # KK-3: for each front-row hole the facing front hole and the back hole behind that.
        self.facing = {hole: board.opposite(hole) for side in (SOUTH, NORTH) for hole in self.front[side]}
        self.behind = {hole: board.behind(hole) for hole in self.facing}

    def start(self) -> Position:
        """KK-1: a stone in every hole but ``a2`` and ``l3``."""
        holes = [1] * self.board.size
        holes[self.board.index_of("a2")] = 0
        holes[self.board.index_of("l3")] = 0
        return Position(tuple(holes), SOUTH, (0, 0), 1)

    def _ended(self, position: Position | MutablePosition, history: Collection[PositionKey]) -> Outcome | None:
        """KK-4 (a) no stone left, (b) repetition; (c) is :meth:`_no_moves`."""
        # The same rules, native (docs/native.md): (a) native_rules.c,
        # native_ended; (b) the kernel's callers, each on its own record of
        # the history (native_search.c, ended; _native.c, k_play_line). On the
        # endgame tables' encoding: (a) and (c) tablebase.py, _Layer.start
        # and native_tablebase.c, tb_layer_start.
        mover = position.side
        if not any(position.holes[self.rows[mover]]):
            return Outcome(win(other(mover)), "KK-4a", f"{mover} to move has no stone left")
        if history and position.key() in history:
            return Outcome("1/2-1/2", "KK-4b", "the position has occurred before: draw by repetition")
        return None

    def _no_moves(self, position: Position) -> Outcome:
        # The same rule: native_rules.c, native_no_moves.
        return Outcome(win(other(position.side)), "KK-4c",
                       f"{position.side} to move has no legal move")

    def _move(self, now: MutablePosition, origin: int, position: Position | None = None) -> Move:
        # KK-2 and KK-3, the same rules: native_rules.c, native_klamroth_move; on the
        # endgame tables' encoding, tablebase.py, _moves and
        # native_tablebase.c, tb_layer_start and tb_layer_pass.
        self.check_origin(now, origin, "KK", position)
        side = now.side
        holes = now.holes
        target = self.step[origin]
        if holes[target]:
            board = self.board
            raise IllegalMove("KK-BLOCKED",
                              f"{board.name(origin)} cannot step: {board.name(target)} is occupied",
                              position, origin)
        holes[origin] = 0
        holes[target] = 1
        captured = 0
        if target in self.front[side]:
            # KK-3: the opposite front stone, and then the back stone behind it.
            facing = self.facing[target]
            if holes[facing]:
                holes[facing] = 0
                captured = 1
                back = self.behind[facing]
                if holes[back]:
                    holes[back] = 0
                    captured = 2
                now.gain(side, captured)
        now.pass_turn()
        return Move(origin, target, captured)
