"""The alpha-beta search of a solve: :class:`AlphaBeta`, which searches a
position to a depth, given the solve's state and the solver's steps.

Negamax with alpha-beta over the three values (win 1, draw 0, loss -1),
whose every answer is an interval ``(low, high)`` that holds the true
value; the table (:meth:`~.search.Solver.store`) keeps such bounds and the
best move found. The moves are searched best first: the table's best move,
then captures, larger first, then (:data:`HISTORY`) the moves that caused
most cut-offs so far; before any move is searched (:data:`ETC`), the
table's entries of all the children may already decide the position. On
the native kernel (``rules/native.py``) each search runs there, step for
step the same, node counts included.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ..rules.game import Move
from ..rules.position import Position, PositionKey
from .search_result import LOSS, MAX_PLIES, WIN, SearchState, SearchSteps, TableKey

#: What the search adds to plain alpha-beta (:attr:`~.search.Solver.features`, a
#: bit set): enhanced transposition cutoffs (before searching any move, the
#: table's entries of all the children may already decide the position) and
#: the history heuristic (after the table's best move and the captures, the
#: moves that caused most cut-offs so far, per side and origin, first).
ETC: Final = 1
HISTORY: Final = 2
#: The largest cut-off count the history heuristic keeps per move.
HISTORY_MAX: Final = (1 << 20) - 1


class AlphaBeta:
    """The alpha-beta search of one solve: it reads and changes the solve's
    ``state`` (the table, the cut-offs, the line, the node count, the stop)
    and calls the solver's ``steps`` (the table's keys, the moves, storing,
    the limits); ``tablebase``, ``features`` and ``history_game`` are the
    solver's settings (:class:`~.search.Solver`)."""

    def __init__(self, state: SearchState, steps: SearchSteps, *, tablebase: Any, features: int,
                 history_game: bool) -> None:
        self.state = state
        self.tablebase = tablebase
        self.features = features
        self.history_game = history_game
        # The steps, bound once: the search calls them at every position.
        self.key: Callable[[Position, frozenset[PositionKey]], TableKey] = steps.key
        self.child_history: Callable[[Position, Position, frozenset[PositionKey]],
                                     frozenset[PositionKey]] = steps.child_history
        self.expand: Callable[[Position, TableKey, frozenset[PositionKey]],
                              list[tuple[Move, Position]] | int] = steps.expand
        self.store: Callable[[TableKey, int, int, int], bool] = steps.store
        self.out_of_time: Callable[[], bool] = steps.out_of_time
        self.after_kernel: Callable[[], None] = steps.after_kernel

    def search(self, position: Position, depth: int, alpha: int, beta: int, past: frozenset[PositionKey],
               ply: int) -> tuple[int, int]:
        """Bounds ``(low, high)`` of the value of ``position`` for the side to
        move; the search may stop once it knows the value is at most ``alpha``
        or at least ``beta``."""
        state = self.state
        if state.kernel is not None:  # the same search, native (rules/native.py)
            return self._native_search(position, depth, alpha, beta, past, ply)
        if state.stopped or self.out_of_time():
            state.stopped = True
            return LOSS, WIN
        state.nodes += 1
        if ply > state.longest:
            state.longest = ply
        key = self.key(position, past)
        entry = state.table.get(key)
        hint = -1
        known_low = LOSS
        known_high = WIN
        if entry is not None:
            known_low, known_high, hint = entry
            if known_low == known_high or known_low >= beta or known_high <= alpha:
                return known_low, known_high
        if self.tablebase is not None:
            told = self.tablebase.bounds(position, past)
            if told is not None:
                known_low, known_high = max(known_low, told[0]), min(known_high, told[1])
                if known_low == known_high or known_low >= beta or known_high <= alpha:
                    return known_low, known_high
        on_path = not self.history_game
        if on_path:
            if key in state.path:
                return LOSS, WIN  # an endless line: no result
        children = self.expand(position, key, past)
        if isinstance(children, int):
            return children, children
        if depth <= 0 or ply >= MAX_PLIES:
            return known_low, known_high
        return self._search_moves(position, key, children, depth, alpha, beta, past, ply, known_low, known_high,
                                  hint)

    def _native_search(self, position: Position, depth: int, alpha: int, beta: int, past: frozenset[PositionKey],
                       ply: int) -> tuple[int, int]:
        """:meth:`search` on the native kernel (rules/native.py)."""
        state = self.state
        bounds: tuple[int, int] = state.kernel.search(position, depth, alpha, beta, past, ply, state.nodes)
        self.after_kernel()
        return bounds

    def _search_moves(self, position: Position, key: TableKey, children: list[tuple[Move, Position]], depth: int,
                      alpha: int, beta: int, past: frozenset[PositionKey], ply: int, known_low: int,
                      known_high: int, hint: int) -> tuple[int, int]:
        """:meth:`search` of a position with moves, not decided by what is
        known of it (``known_low``, ``known_high``, the table's best move
        ``hint``): its moves, best first, and the bounds stored."""
        state = self.state
        features = self.features
        # Each move with the earlier positions that can recur after it (made once: memory is the pure core's bound).
        moves = [(move, after, self.child_history(position, after, past)) for move, after in children]
        if features & ETC:
            cut = self.transposition_cutoff(key, moves, alpha, beta, known_low, known_high, hint)
            if cut is not None:
                return cut
        side = position.side
        cutoffs = state.cutoffs if features & HISTORY else {}
        moves.sort(key=lambda child: 2 ** 30 if child[0].origin == hint else
                      (child[0].captured << 20) + cutoffs.get((side, child[0].origin), 0), reverse=True)
        on_path = not self.history_game
        if on_path:
            state.path.add(key)
        low = LOSS
        high = LOSS
        best = -1
        searched = 0
        for move, after, child_past in moves:
            floor = alpha if alpha > low else low
            child_low, child_high = self.search(after, depth - 1, -beta, -floor, child_past, ply + 1)
            searched += 1
            if best < 0 or -child_high > low:
                best = move.origin
            if -child_high > low:
                low = -child_high
            if -child_low > high:
                high = -child_low
            if state.stopped:
                break
            if low >= beta:
                if features & HISTORY:
                    count = cutoffs.get((side, move.origin), 0)
                    if count < HISTORY_MAX:
                        cutoffs[(side, move.origin)] = count + 1
                break
        if searched < len(children):
            high = WIN
        if on_path:
            state.path.discard(key)
        low = max(low, known_low)
        high = min(high, known_high)
        self.store(key, low, high, best)
        return low, high

    def transposition_cutoff(self, key: TableKey, moves: list[tuple[Move, Position, frozenset[PositionKey]]],
                             alpha: int, beta: int, known_low: int, known_high: int, hint: int) -> tuple[int, int] | None:
        """Enhanced transposition cutoffs: the bounds that the table's
        entries of the children give ``position`` (stored), when they decide
        it within ``alpha``, ``beta``; ``None`` when it must be searched."""
        table = self.state.table
        etc_low = LOSS
        etc_high = LOSS
        best = -1
        all_known = True
        for move, after, child_past in moves:
            entry = table.get(self.key(after, child_past))
            if entry is None:
                all_known = False
                continue
            if -entry[1] > etc_low:
                etc_low = -entry[1]
                best = move.origin
            if -entry[0] > etc_high:
                etc_high = -entry[0]
        low = max(etc_low, known_low)
        high = min(etc_high, known_high) if all_known else known_high
        if low == high or low >= beta or high <= alpha:
            self.store(key, low, high, best if best >= 0 else hint)
            return low, high
        return None
