"""What a solve finds (:class:`SearchResult`), and the values the search
gives a position for the side to move: win 1, draw 0, loss -1
(:mod:`.search`)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from ..rules.game import Move, Outcome
from ..rules.position import Position, PositionKey

WIN: Final = 1
DRAW_VALUE: Final = 0
LOSS: Final = -1
#: The longest line searched: deeper, a line is left unknown (and the
#: interpreter's stack is safe).
MAX_PLIES: Final = 400

#: A progress callback: the deepest complete iteration (plies; 0 before the
#: first, and for a search without limits, which is one iteration), the
#: positions searched and the seconds since the start.
Progress = Callable[[int, int, float], None]

#: A key of the search's table (:meth:`Solver.key`): the position's holes,
#: side, banks, reserved holes and whether it is the first move of all, and
#: in ``kimasai-klamroth`` the earlier positions that can recur.
TableKey = tuple[Any, ...]

#: How often (in nodes) the clock is read.
CLOCK_EVERY: Final = 1024

RESULT_NAMES: Final = {WIN: "win", DRAW_VALUE: "draw", LOSS: "loss"}


def result_name(low: int, high: int) -> str:
    """``win``, ``draw`` or ``loss`` for a proven value, else ``unknown``."""
    return RESULT_NAMES[low] if low == high else "unknown"


#: Why a search stopped before its end (:attr:`SearchResult.stopped`).
STOP_REASONS: Final = ("depth", "nodes", "time", "interrupted")


class SearchResult:
    """What :meth:`Solver.solve` found for the side to move.

    ``result`` is ``win``, ``draw``, ``loss`` or ``unknown``, and ``bounds``
    the interval that holds the true result, ``(low, high)`` as result names
    (``("draw", "win")``: at least a draw); ``moves`` every legal move with
    its result for the mover, and ``move_bounds`` their intervals in the same
    order; ``best`` the moves that achieve the proven result (none while it
    is unknown); ``nodes`` the positions searched, ``seconds`` the time
    taken; ``depth`` the moves searched ahead: the deepest complete iteration
    or, where every line was searched to its end, the longest line searched
    (0 for a finished position); ``stopped`` what stopped the search before
    its end (``depth``, ``nodes``, ``time`` or ``interrupted``), ``None``
    when it ran to its end, and ``complete`` says the same: every move's
    result is final (proven, or unknown only because its lines never end
    within :data:`MAX_PLIES`). ``outcome`` is the rules' end of the game
    when the position is finished (no moves).
    """

    def __init__(self, result: str, moves: list[tuple[Move, str]], best: list[Move], nodes: int,
                 seconds: float, depth: int, *, bounds: tuple[str, str] | None = None,
                 move_bounds: list[tuple[str, str]] | None = None, stopped: str | None = None,
                 outcome: Outcome | None = None) -> None:
        self.result = result
        self.moves = moves
        self.best = best
        self.nodes = nodes
        self.seconds = seconds
        self.depth = depth
        self.bounds = bounds if bounds is not None else \
            ((result, result) if result != "unknown" else ("loss", "win"))
        self.move_bounds = move_bounds if move_bounds is not None else \
            [(r, r) if r != "unknown" else ("loss", "win") for _, r in moves]
        self.stopped = stopped
        self.outcome = outcome

    @property
    def complete(self) -> bool:
        """Whether the search ran to its end (no limit stopped it)."""
        return self.stopped is None

    def __repr__(self) -> str:
        low, high = self.bounds
        interval = "" if low == high or (low, high) == ("loss", "win") else f" ({low} to {high})"
        stopped = "" if self.stopped is None else f", stopped: {self.stopped}"
        return (f"<Solution {self.result}{interval}: {len(self.moves)} moves, {len(self.best)} best, "
                f"depth {self.depth}, {self.nodes} nodes{stopped}>")


@dataclass(eq=False)
class SearchState:
    """Everything one :meth:`~.search.Solver.solve` changes, in one place:
    the solver makes a new one for each solve and gives it to the parts
    that search (:class:`~.alpha_beta.AlphaBeta`,
    :class:`~.proof_numbers.ProofNumbers`, :class:`~.table_file.TableFile`)
    and to the native search (``rules/native.py``), which read and change
    it."""

    #: The table: bounds ``(low, high, best origin)`` by key (:meth:`~.search.Solver.store`).
    table: dict[TableKey, tuple[int, int, int]] = field(default_factory=dict)
    #: The proof-number search's numbers, by key: two slots (a goal and its dual share one) of
    #: (goal, phi, delta), of positions in the table.
    numbers: dict[TableKey, list[tuple[int, int, int] | None]] = field(default_factory=dict)
    #: The history heuristic's cut-offs, by (side, origin).
    cutoffs: dict[tuple[str, int], int] = field(default_factory=dict)
    #: The keys of the line being searched (games without a repetition rule: one that recurs is endless).
    path: set[TableKey] = field(default_factory=set)
    #: The bytes the table's entries (and numbers) cost so far.
    used: int = 0
    #: The cost at which the table next looks for memory left (:meth:`~.search.Solver.grown`).
    next_look: int = 0
    #: The positions searched, and the longest line (plies).
    nodes: int = 0
    longest: int = 0
    #: The limits: nodes (-1: none) and the deadline on the monotonic clock (-1: none), from ``started``.
    node_limit: int = -1
    deadline: float = -1.0
    started: float = 0.0
    #: Whether the search stopped, whether :meth:`~.search.Solver.stop` stopped it, and why it stopped.
    stopped: bool = False
    interrupted: bool = False
    stop_reason: str | None = None
    #: Who hears of the search under way, and the deepest complete iteration so far.
    progress: Progress | None = None
    reached: int = 0
    #: The iteration under way (plies), which a table file keeps: a search
    #: that goes on from one goes on from that iteration.
    iteration: int = 0
    #: The positions a table file brought (0 without one).
    loaded: int = 0
    #: The native search of the solve, where the game runs on the native kernel.
    kernel: Any = None


class SearchSteps(Protocol):
    """The steps of :class:`~.search.Solver` that its parts
    (:class:`~.alpha_beta.AlphaBeta`, :class:`~.proof_numbers.ProofNumbers`,
    :class:`~.table_file.TableFile`) are given and call."""

    def key(self, position: Position, past: frozenset[PositionKey]) -> TableKey: ...

    def child_history(self, position: Position, after: Position,
                      past: frozenset[PositionKey]) -> frozenset[PositionKey]: ...

    def expand(self, position: Position, key: TableKey,
               past: frozenset[PositionKey]) -> list[tuple[Move, Position]] | int: ...

    def store(self, key: TableKey, low: int, high: int, best: int) -> bool: ...

    def grown(self, cost: int) -> None: ...

    def out_of_time(self) -> bool: ...

    def after_kernel(self) -> None: ...
