"""Exact game values: who wins a position with best play.

A :class:`Solver` runs negamax with alpha-beta over the three values a game
can have for the side to move (win 1, draw 0, loss -1), with a transposition
table and move ordering (the table's last best move, then captures, larger
first). Every search returns an *interval* ``(low, high)`` that holds the
true value: where a limit (depth, nodes, time) stops the search, the interval
is wider, and only a one-point interval is a proven result::

    >>> from mancala_cli.rules.registry import get_game
    >>> game = get_game("kingulu")
    >>> end = Position((0, 0, 0, 0, 0, 1) + (0, 0, 0, 0, 0, 1), "S", (23, 23), 20)
    >>> solution = Solver(game).solve(end)
    >>> solution.result, [(game.board.name(m.origin), r) for m, r in solution.moves]
    ('loss', [('f1', 'loss')])

Since a bound is sound however it was found, the table keeps bounds, not
depths: a deeper search only narrows them. A search with a depth limit
deepens one ply at a time until every first move is proven or a limit is
reached. A search limited in time or positions only deepens as long as that
is cheap (each iteration until one has used :data:`DEEPENING_SHARE` of the
node limit, or without one, of the time limit, or :data:`DEEPENING_NODES`
positions), then runs a proof-number
search (df-pn, :meth:`.ProofNumbers.prove`, :mod:`.proof_numbers`) until :data:`PROOF_SHARE` of the limit
is used, reads what it proved of each first move from the table, then
searches every line to its end, as a search without limits does: deepening
alone would not prove a position whose lines are long.
Whatever stops a search, what it found so far is its answer: the interval
of each move, the deepest complete iteration, and why it stopped.

The table is bounded in bytes (``memory``, :data:`DEFAULT_MEMORY`): each
entry is charged what it costs in memory (:data:`ENTRY_BYTES`, measured for
each game, plus its earlier positions in ``kimasai-klamroth``), and once the
budget is spent, new positions are searched again rather than stored.

Two details of the games:

- KK-4b makes a position on the current line a draw, so in
  ``kimasai-klamroth`` a value depends on the line that led to it (the
  graph-history problem). The table's key then holds the earlier positions
  that can still recur: in that game stones only leave the board, so after
  a capture no earlier position with more stones can come back, and the
  line forgets it.
- The other games have no repetition rule. A position that recurs on the
  current line would be an endless game; the search leaves it unknown.

``ENDLESS`` moves are illegal (the rules never generate them), so they are
never searched. A solver keeps nothing from one :meth:`Solver.solve` to the
next: results do not depend on the order in which positions are asked.

This module holds the solve itself (deepening, the limits, the answer) and
the steps both searches share (the table's keys and entries). A solve's
state is one :class:`~.search_result.SearchState`, which the solver gives its
parts with its steps: the alpha-beta search (:class:`~.alpha_beta.AlphaBeta`),
the proof-number search (:class:`~.proof_numbers.ProofNumbers`) and the
table file (:class:`~.table_file.TableFile`).
"""
from __future__ import annotations

import mmap
import os
import sys
import time
from collections.abc import Collection
from typing import Any, Final

from ..rules.board import SOUTH
from ..rules.game import DRAW, Game, Move
from ..rules.position import Position, PositionKey
from .alpha_beta import ETC, HISTORY, AlphaBeta
from .proof_numbers import PN, ProofNumbers
from .search_result import (
    CLOCK_EVERY,
    DRAW_VALUE,
    LOSS,
    MAX_PLIES,
    RESULT_NAMES,
    WIN,
    Progress,
    SearchResult,
    SearchState,
    TableKey,
    result_name,
)
from .table_file import SAVE_EVERY, TableFile

__all__ = ["Solver", "DEFAULT_MEMORY", "DEFAULT_SECONDS", "ENTRY_BYTES", "OTHER_ENTRY_BYTES", "DEEPENING_SHARE",
           "DEEPENING_NODES", "PROGRESS_EVERY", "ALL_FEATURES"]

#: The table's memory when none is given (bytes): once it is spent,
#: positions not in the table are searched again rather than stored, so
#: memory stays bounded however long a search runs.
DEFAULT_MEMORY: Final = 1 << 30
#: The time limit of :func:`mancala_cli.solve` and ``mancala solve`` when
#: none is given (seconds): meant to prove the kingulu start on either core
#: (docs/commands.md, "Limits, and what is known so far").
DEFAULT_SECONDS: Final = 300.0
#: What one table entry costs in memory, in bytes, by game: the key (with
#: the position's holes, banks and reserved holes, which the table keeps
#: alive), the value and the table's own slot. Measured with tracemalloc
#: (``benchmarks/solver_memory.py``) over searches from the start and from
#: positions 4 to 60 moves into random games (the figures:
#: docs/performance.md, 'Search'); kimasai-klamroth's frozensets of earlier
#: positions are charged apart, at their own size. Each value here is above
#: the measured one, for the table's growth (a dict grows by doubling).
ENTRY_BYTES: Final = {"kingulu": 460, "kimasai-mackay": 580, "kimasai-klamroth": 1150}
#: The cost of an entry of a game not listed above.
OTHER_ENTRY_BYTES: Final = 1200
#: The address space a growing table makes sure is left (:meth:`Solver.grown`),
#: and how often, in bytes of the table's growth, it looks.
HEADROOM: Final = 16 << 20
LOOK_EVERY: Final = 1 << 20
#: The share of a time or node limit after which a search stops deepening
#: and searches every line to its end.
DEEPENING_SHARE: Final = 1 / 32
#: The positions after which a search limited in time or positions stops
#: deepening, whatever its limit: with no value at the horizon, deepening a
#: long search for a thirty-second of a long limit only delays the
#: proof-number search (measured on the kingulu start: docs/performance.md,
#: 'Search').
DEEPENING_NODES: Final = 1 << 20
#: How often (in nodes) a progress callback hears of a search under way.
PROGRESS_EVERY: Final = 1 << 15

#: Everything the search adds to plain alpha-beta (:attr:`Solver.features`):
#: :data:`ETC` and :data:`HISTORY` (:mod:`.alpha_beta`), :data:`PN`
#: (:mod:`.proof_numbers`).
ALL_FEATURES: Final = ETC | HISTORY | PN


class Solver:
    """Solves positions of one game. Each :meth:`solve` starts from an empty
    table and an empty node count; the table costs at most ``memory`` bytes
    (:data:`DEFAULT_MEMORY`; see :data:`ENTRY_BYTES`).

        >>> from mancala_cli.rules.registry import get_game
        >>> Solver(get_game("kingulu"), memory=64 << 20)
        <Solver kingulu, table of at most 67,108,864 bytes>

    A solve's state is one :class:`~.search_result.SearchState` (:attr:`state`,
    new for each solve), which the solver gives its parts with its steps
    (:meth:`key`, :meth:`child_history`, :meth:`expand`, :meth:`store`,
    :meth:`grown`, :meth:`out_of_time`, :meth:`after_kernel`): the
    alpha-beta search (:attr:`alpha_beta`, :mod:`.alpha_beta`), the
    proof-number search (:attr:`proof_numbers`, :mod:`.proof_numbers`) and
    the table file (:attr:`table_file`, :mod:`.table_file`).
    """

    def __init__(self, game: Game, *, memory: int = DEFAULT_MEMORY, tablebase: Any = None,
                 features: int = ALL_FEATURES) -> None:
        if memory < 0:
            raise ValueError(f"memory must be a number of bytes >= 0, not {memory!r}")
        self.game = game
        self.memory = memory
        #: The endgame tables the search asks (:class:`~.tablebase.Tablebase`), where they are of this game.
        self.tablebase: Any = tablebase if tablebase is not None and tablebase.game == game.id else None
        #: What the search adds to plain alpha-beta (:data:`ETC`, :data:`HISTORY`, :data:`PN`).
        self.features = features
        #: How often (seconds) a search with a table file saves its table.
        self.save_every = SAVE_EVERY
        self.entry_bytes: int = ENTRY_BYTES.get(game.id, OTHER_ENTRY_BYTES)
        self.history_game = game.uses_history
        #: The table file of the solve under way (``None``: none).
        self.table_file: TableFile | None = None
        self._begin(SearchState())

    def _begin(self, state: SearchState) -> None:
        """Give the parts of a solve its ``state``, and the steps of this solver."""
        #: The state of the solve under way (or the last one).
        self.state = state
        self.alpha_beta = AlphaBeta(state, self, tablebase=self.tablebase, features=self.features,
                                    history_game=self.history_game)
        self.proof_numbers = ProofNumbers(state, self, game=self.game, tablebase=self.tablebase,
                                          history_game=self.history_game, memory=self.memory)

    # -- what a solve leaves (read by tests, benchmarks and the cluster's tasks)
    @property
    def table(self) -> dict[TableKey, tuple[int, int, int]]:
        """The table of the solve under way (or the last one)."""
        return self.state.table

    @table.setter
    def table(self, table: dict[TableKey, tuple[int, int, int]]) -> None:
        self.state.table = table

    @property
    def used(self) -> int:
        """The bytes the table's entries cost."""
        return self.state.used

    @property
    def loaded(self) -> int:
        """The positions the table file brought (0 without one)."""
        return self.state.loaded

    @property
    def kernel(self) -> Any:
        """The native search of the solve, where the game runs on the native kernel."""
        return self.state.kernel

    def __repr__(self) -> str:
        return f"<Solver {self.game.id}, table of at most {self.memory:,} bytes>"

    # -- the public API ----------------------------------------------------
    def stop(self) -> None:
        """Stop the search under way (from a signal handler or another
        thread): :meth:`solve` returns what it found so far, ``stopped``
        ``interrupted``."""
        state = self.state
        state.interrupted = True
        state.stopped = True
        if state.kernel is not None:  # (a signal handler runs between the native search's steps)
            state.kernel.stopped = True

    def solve(self, position: Position, *, depth: int | None = None, nodes: int | None = None,
              seconds: float | None = None, history: Collection[PositionKey] = (),
              progress: Progress | None = None, table: str | os.PathLike[str] | None = None) -> SearchResult:
        """Solve ``position`` for the side to move, within the limits given
        (``depth`` plies, ``nodes`` positions, ``seconds``); ``history`` holds
        the keys of earlier positions of the game (KK-4b). ``progress`` is
        called after every complete iteration and every
        :data:`PROGRESS_EVERY` positions (see :data:`Progress`).

        ``table`` names a file that keeps the search's table between runs:
        where it exists, the search starts from the table it holds (a file
        of another game, position, format version or core raises
        :class:`TableFileError`); the table is saved to it every
        :attr:`save_every` seconds and when the search ends, whatever
        stopped it, each time by an atomic replace."""
        started = time.monotonic()
        state = self._reset(started, progress, table, nodes, seconds)
        game = self.game
        past: frozenset[PositionKey] = frozenset()
        if self.history_game:
            stones = sum(position.holes)
            past = frozenset(key for key in history if sum(key[0]) <= stones)
        children = list(game.successors(position, history=past))
        if not children:
            outcome = game.outcome(position, history=past, moves=[])
            value = DRAW_VALUE if outcome is None else self.value_of(outcome.result, position)
            state.nodes = 1
            return SearchResult(RESULT_NAMES[value], [], [], 1, time.monotonic() - started, 0, outcome=outcome)
        state.nodes = 1
        bounds = [(LOSS, WIN) for _ in children]
        limited = depth is not None or nodes is not None or seconds is not None
        deepest = MAX_PLIES if depth is None else min(depth, MAX_PLIES)
        iteration = 1 if limited else deepest
        state.iteration = iteration
        root_key = self.key(position, past)
        if not self.history_game:
            state.path.add(root_key)
        search_kernel = getattr(game, "search_kernel", None)
        state.kernel = None if search_kernel is None else search_kernel(self, position, MAX_PLIES)
        if self.table_file is not None:
            iteration = self._open_table(position, past, iteration, deepest, depth)
        reached = self._deepen(position, past, children, bounds, iteration, deepest, depth)
        return self._answer(children, bounds, reached)

    # -- a solve's steps ---------------------------------------------------
    def _reset(self, started: float, progress: Progress | None, table: str | os.PathLike[str] | None,
               nodes: int | None, seconds: float | None) -> SearchState:
        """A new solve's state (an empty table, no positions searched yet, its
        limits) given to its parts: the state."""
        state = SearchState(started=started, progress=progress, node_limit=-1 if nodes is None else nodes,
                            deadline=-1.0 if seconds is None else started + seconds)
        self._begin(state)
        self.table_file = None if table is None else TableFile(
            os.fspath(table), state, self, game=self.game, history_game=self.history_game,
            save_every=self.save_every)
        return state

    def _open_table(self, position: Position, past: frozenset[PositionKey], iteration: int, deepest: int,
                    depth: int | None) -> int:
        """Start from the table file's table, where there is one: the iteration to go on from."""
        table_file = self.table_file
        assert table_file is not None
        table_file.expected = table_file.identity(position, past)
        table_file.check_table_file(table_file.path)  # (a place it cannot be saved fails now, not later)
        resumed = table_file.load_table(table_file.path)
        table_file.saved_at = time.monotonic()
        if resumed:
            # The table holds what deepening would find again: without a
            # depth limit, every line to its end at once; with one, from
            # the iteration that was under way.
            iteration = deepest if depth is None else max(iteration, min(resumed, deepest))
            self.state.iteration = iteration
        return iteration

    def _deepen(self, position: Position, past: frozenset[PositionKey], children: list[tuple[Move, Position]],
                bounds: list[tuple[int, int]], iteration: int, deepest: int, depth: int | None) -> int:
        """Search the first moves (narrowing ``bounds``), one iteration after
        the other, until each is proven or a limit is reached: the deepest
        complete iteration."""
        state = self.state
        reached = 0
        proved = False
        while True:
            self._first_moves(position, past, children, bounds, iteration - 1)
            if state.stopped:
                break
            reached = iteration
            state.reached = iteration
            if state.progress is not None:
                state.progress(iteration, state.nodes, time.monotonic() - state.started)
            if all(low == high for low, high in bounds):
                break
            if iteration >= deepest:
                if depth is not None and depth < MAX_PLIES:
                    state.stop_reason = "depth"
                break
            stop_deepening = self.spent(DEEPENING_SHARE) or state.nodes >= DEEPENING_NODES
            iteration = deepest if depth is None and stop_deepening else iteration + 1
            state.iteration = iteration
            if iteration == deepest and depth is None and self.features & PN and not proved:
                proved = True
                self.proof_numbers.phase(position, past)
                if state.stopped:
                    break
                # what the proof numbers proved of each first move, read from
                # the table (a search of depth 0) before any is searched to
                # its end, which may run out first
                self._first_moves(position, past, children, bounds, 0)
                if state.stopped:
                    break
        return reached

    def _first_moves(self, position: Position, past: frozenset[PositionKey], children: list[tuple[Move, Position]],
                     bounds: list[tuple[int, int]], depth: int) -> None:
        """Search each first move not yet proven to ``depth`` (narrowing
        ``bounds``), until a limit stops the search."""
        search = self.alpha_beta.search
        for i, (move, after) in enumerate(children):
            low, high = bounds[i]
            if low == high:
                continue
            child_low, child_high = search(after, depth, LOSS, WIN, self.child_history(position, after, past), 1)
            bounds[i] = (max(low, -child_high), min(high, -child_low))
            if self.state.stopped:
                break

    def _answer(self, children: list[tuple[Move, Position]], bounds: list[tuple[int, int]],
                reached: int) -> SearchResult:
        """The solution: each first move's interval, and the table saved where there is a file."""
        state = self.state
        if state.stopped:
            state.stop_reason = "interrupted" if state.interrupted else state.stop_reason or "time"
        low = max(b[0] for b in bounds)
        high = max(b[1] for b in bounds)
        result = result_name(low, high)
        moves = [(move, result_name(b[0], b[1])) for (move, _), b in zip(children, bounds)]
        best = [move for (move, _), b in zip(children, bounds) if low == high and b[0] == b[1] == low]
        if reached == MAX_PLIES:
            reached = min(state.longest, MAX_PLIES)
        if self.table_file is not None:
            self.table_file.save_table(self.table_file.path)
        return SearchResult(result, moves, best, state.nodes, time.monotonic() - state.started, reached,
                        bounds=(RESULT_NAMES[low], RESULT_NAMES[high]),
                        move_bounds=[(RESULT_NAMES[b[0]], RESULT_NAMES[b[1]]) for b in bounds],
                        stopped=state.stop_reason)

    # -- the limits --------------------------------------------------------
    def spent(self, share: float) -> bool:
        """Whether the search has used ``share`` of its node limit, or where
        it has none, of its time limit (so that a search with a node limit
        takes the same path on every machine, whatever its time limit)."""
        state = self.state
        if state.node_limit >= 0:
            return state.nodes >= share * state.node_limit
        if state.deadline >= 0.0:
            now = time.monotonic()
            return now - state.started >= share * (state.deadline - state.started)
        return False

    def out_of_time(self) -> bool:
        """Whether a limit stops the search now (its reason kept); every
        :data:`PROGRESS_EVERY` positions, progress is told and the table saved
        where it is due."""
        state = self.state
        nodes = state.nodes
        if state.node_limit >= 0 and nodes >= state.node_limit:
            state.stop_reason = "nodes"
            return True
        if nodes % CLOCK_EVERY == 0:
            if nodes % PROGRESS_EVERY == 0:
                if state.progress is not None:
                    state.progress(state.reached, nodes, time.monotonic() - state.started)
                self.checkpoint()
            if state.deadline >= 0.0 and time.monotonic() >= state.deadline:
                state.stop_reason = "time"
                return True
        return False

    def checkpoint(self) -> None:
        """Save the table where a table file is in use and a save is due (:meth:`.TableFile.checkpoint`)."""
        if self.table_file is not None:
            self.table_file.checkpoint()

    # -- positions and the table (both searches) ---------------------------
    def value_of(self, result: str, position: Position) -> int:
        """The value of a finished game's ``result`` for the side to move."""
        if result == DRAW:
            return DRAW_VALUE
        return WIN if (result == "1-0") == (position.side == SOUTH) else LOSS

    def key(self, position: Position, past: frozenset[PositionKey]) -> TableKey:
        """The table's key: all that decides the rest of the game (the first
        move of all is special in ``kimasai-mackay``, KM-4), with the earlier
        positions that can recur where the game has a repetition rule."""
        first = position.move_number == 1 and position.side == SOUTH
        if self.history_game:
            return (position.holes, position.side, position.banks, position.reserved, first, past)
        return (position.holes, position.side, position.banks, position.reserved, first)

    def child_history(self, position: Position, after: Position,
                      past: frozenset[PositionKey]) -> frozenset[PositionKey]:
        """The earlier positions that can recur after the move from ``position``
        to ``after`` (``kimasai-klamroth``: none with more stones than ``after``)."""
        if not self.history_game:
            return past
        stones = sum(after.holes)
        if stones != sum(position.holes):
            return frozenset(key for key in past if sum(key[0]) <= stones)
        return past | {position.key()}

    def expand(self, position: Position, key: TableKey,
               past: frozenset[PositionKey]) -> list[tuple[Move, Position]] | int:
        """The moves of ``position`` with the positions they lead to; where it
        ends the game (an end condition, or no legal move), the end's value
        for the side to move instead, stored in the table."""
        game = self.game
        children = list(game.successors(position, history=past))
        if children:
            return children
        outcome = game.outcome(position, history=past, moves=[])
        value = DRAW_VALUE if outcome is None else self.value_of(outcome.result, position)
        self.store(key, value, value, -1)
        return value

    def after_kernel(self) -> None:
        """The node count, the longest line and why it stopped, from the native search just run."""
        state = self.state
        kernel = state.kernel
        state.nodes, state.stopped = kernel.nodes, kernel.stopped
        state.longest = max(state.longest, kernel.longest)
        if state.stopped and state.stop_reason is None and not state.interrupted:
            state.stop_reason = "nodes" if 0 <= state.node_limit <= state.nodes else "time"

    def store(self, key: TableKey, low: int, high: int, best: int) -> bool:
        """Keep what was found of ``key`` (a bound is sound however it was
        found, so one left out costs a search again, never a wrong result):
        a new position only while its cost fits in the memory budget.
        Whether it is kept."""
        table = self.state.table
        if key in table:
            table[key] = (low, high, best)
            return True
        cost = self.entry_bytes
        if self.history_game:
            earlier = key[-1]
            if earlier:
                cost += sys.getsizeof(earlier)
        if self.state.used + cost <= self.memory:
            table[key] = (low, high, best)
            self.grown(cost)
            return True
        return False

    def grown(self, cost: int) -> None:
        """Count ``cost`` more bytes of the table; every :data:`LOOK_EVERY`
        bytes, make sure that :data:`HEADROOM` bytes of address space are
        still to be had, else raise ``MemoryError`` here, where the
        interpreter can raise it cleanly: a search that used up the last of
        a limited address space (``ulimit -v``) would fail in some small
        allocation, where CPython may abort instead of raising."""
        state = self.state
        state.used += cost
        if state.used < state.next_look:
            return
        state.next_look = state.used + LOOK_EVERY
        try:
            mmap.mmap(-1, HEADROOM).close()  # (reserved, never touched)
        except OSError as error:
            raise MemoryError(f"less than {HEADROOM:,} bytes of address space left") from error
