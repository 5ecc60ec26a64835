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
search (df-pn, :meth:`Solver.prove`) until :data:`PROOF_SHARE` of the limit
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
"""
from __future__ import annotations

import os
import sys
import time
from collections.abc import Collection
from typing import Any, Final

from ..rules.core import DRAW, NORTH, SOUTH, Game, Move, Position, PositionKey, Side
from .solution import (
    DRAW_VALUE,
    LOSS,
    MAX_PLIES,
    RESULT_NAMES,
    STOP_REASONS,
    WIN,
    Progress,
    Solution,
    TableKey,
    result_name,
)
from .table_file import CHUNK_ENTRIES, SAVE_EVERY, TABLE_HEADER, TABLE_MAGIC, TABLE_VERSION, TableFile, TableFileError

__all__ = ["Solver", "Solution", "Progress", "TableKey", "TableFileError", "result_name", "RESULT_NAMES",
           "STOP_REASONS", "WIN", "DRAW_VALUE", "LOSS", "MAX_PLIES", "DEFAULT_MEMORY", "DEFAULT_SECONDS",
           "ENTRY_BYTES", "OTHER_ENTRY_BYTES", "DEEPENING_SHARE", "DEEPENING_NODES", "CLOCK_EVERY", "PROGRESS_EVERY", "ETC", "HISTORY",
           "PN", "ALL_FEATURES", "PROOF_SHARE", "PROOF_FIRST", "PN_INF", "NUMBERS_BYTES", "HISTORY_MAX", "SAVE_EVERY", "TABLE_MAGIC", "TABLE_VERSION", "TABLE_HEADER",
           "CHUNK_ENTRIES"]

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
#: positions 4 to 60 moves into random games: kingulu 367-393 bytes,
#: kimasai-mackay 527-550, kimasai-klamroth about 1,100 besides its
#: frozensets of earlier positions, which are charged apart, at their own
#: size; each figure here is some 5-30 % above, for the table's growth (a
#: dict grows by doubling).
ENTRY_BYTES: Final = {"kingulu": 460, "kimasai-mackay": 580, "kimasai-klamroth": 1150}
#: The cost of an entry of a game not listed above.
OTHER_ENTRY_BYTES: Final = 1200
#: The share of a time or node limit after which a search stops deepening
#: and searches every line to its end.
DEEPENING_SHARE: Final = 1 / 32
#: The positions after which a search limited in time or positions stops
#: deepening, whatever its limit: with no value at the horizon, deepening a
#: long search for a thirty-second of a long limit only delays the
#: proof-number search (the kingulu start with the default 300 s: 36.5
#: million positions and 15 s, against 7.3 million and 4.4 s with this).
DEEPENING_NODES: Final = 1 << 20
#: How often (in nodes) the clock is read.
CLOCK_EVERY: Final = 1024
#: How often (in nodes) a progress callback hears of a search under way.
PROGRESS_EVERY: Final = 1 << 15

#: What the search adds to plain alpha-beta (:attr:`Solver.features`, a
#: bit set): enhanced transposition cutoffs (before searching any move, the
#: table's entries of all the children may already decide the position) and
#: the history heuristic (after the table's best move and the captures, the
#: moves that caused most cut-offs so far, per side and origin, first).
ETC: Final = 1
HISTORY: Final = 2
#: A proof-number search (df-pn, :meth:`Solver.prove`) of the position's
#: value, once deepening stops and before every line is searched to its end
#: (in a search limited in time or positions, until :data:`PROOF_SHARE` of
#: the limit is used).
PN: Final = 4
ALL_FEATURES: Final = ETC | HISTORY | PN
#: The share of a time or node limit until which the proof-number search runs.
PROOF_SHARE: Final = 0.75
#: The positions the proof-number search first gives each of its goals; each
#: further run of a goal gets twice as many as its run before.
PROOF_FIRST: Final = 1024
#: A proof or disproof number that cannot be met (the native table keeps 24 bits).
PN_INF: Final = 0xFFFFFF
#: What a position's proof numbers cost the pure solver besides its entry
#: (bytes; the native table keeps them in the entry): the dict's slot (about
#: 80), the list of two slots (72) and, in each slot used, a tuple of three
#: (64) and its two numbers (28 each): 272 with one slot, 392 with both.
NUMBERS_BYTES: Final = 340
#: The largest cut-off count the history heuristic keeps per move.
HISTORY_MAX: Final = (1 << 20) - 1

class Solver(TableFile):
    """Solves positions of one game. Each :meth:`solve` starts from an empty
    table and an empty node count; the table costs at most ``memory`` bytes
    (:data:`DEFAULT_MEMORY`; see :data:`ENTRY_BYTES`).

        >>> from mancala_cli.rules.registry import get_game
        >>> Solver(get_game("kingulu"), memory=64 << 20)
        <Solver kingulu, table of at most 67,108,864 bytes>
    """

    def __init__(self, game: Game, *, memory: int = DEFAULT_MEMORY, tablebase: Any = None,
                 features: int = ALL_FEATURES) -> None:
        if memory < 0:
            raise ValueError(f"memory must be a number of bytes >= 0, not {memory!r}")
        self.game = game
        self.memory = memory
        #: The endgame tables the search asks (:class:`mancala_cli.solving.tablebase.Tablebase`), where they are of this game.
        self.tablebase: Any = tablebase if tablebase is not None and tablebase.game == game.id else None
        #: What the search adds to plain alpha-beta (:data:`ETC`, :data:`HISTORY`).
        self.features = features
        #: The history heuristic's cut-offs, by (side, origin).
        self.cutoffs: dict[tuple[str, int], int] = {}
        #: How often (seconds) a search with a table file saves its table.
        self.save_every = SAVE_EVERY
        self.table_file: str | None = None
        self.table_identity: dict[str, Any] = {}
        self.saved_at = 0.0
        #: The positions a table file brought (0 without one).
        self.loaded = 0
        #: The iteration under way (plies), which a table file keeps: a
        #: search that goes on from one goes on from that iteration.
        self.iteration = 0
        self.entry_bytes: int = ENTRY_BYTES.get(game.id, OTHER_ENTRY_BYTES)
        #: The bytes the table's entries cost so far.
        self.used = 0
        self.longest = 0
        self.interrupted = False
        self.stop_reason: str | None = None
        self.history_game = game.uses_history
        self.table: dict[TableKey, tuple[int, int, int]] = {}
        #: The proof-number search's numbers, by key: two slots (a goal and its dual share one) of
        #: (goal, phi, delta), of positions in the table.
        self.numbers: dict[TableKey, list[tuple[int, int, int] | None]] = {}
        #: The proof-number search under way: its attacker, the value it must reach, the goal's
        #: number, its own limits, and whether they stopped it.
        self.pn_attacker = SOUTH
        self.pn_target = WIN
        self.pn_tag = 0
        self.pn_dual = 0
        self.pn_slot = 0
        self.pn_node_limit = -1
        self.pn_deadline = -1.0
        self.pn_stopped = False
        self.path: set[TableKey] = set()
        self.nodes = 0
        self.node_limit = -1
        self.deadline = -1.0
        self.stopped = False
        self.progress: Progress | None = None
        self.started = 0.0
        self.reached = 0
        #: The native search of the solve under way, where the game runs on the native kernel.
        self.kernel: Any = None

    def __repr__(self) -> str:
        return f"<Solver {self.game.id}, table of at most {self.memory:,} bytes>"

    # -- the public API ----------------------------------------------------
    def stop(self) -> None:
        """Stop the search under way (from a signal handler or another
        thread): :meth:`solve` returns what it found so far, ``stopped``
        ``interrupted``."""
        self.interrupted = True
        self.stopped = True
        if self.kernel is not None:  # (a signal handler runs between the native search's steps)
            self.kernel.stopped = True

    def solve(self, position: Position, *, depth: int | None = None, nodes: int | None = None,
              seconds: float | None = None, history: Collection[PositionKey] = (),
              progress: Progress | None = None, table: str | os.PathLike[str] | None = None) -> Solution:
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
        self._reset(started, progress, table, nodes, seconds)
        game = self.game
        past: frozenset[PositionKey] = frozenset()
        if self.history_game:
            stones = sum(position.holes)
            past = frozenset(key for key in history if sum(key[0]) <= stones)
        children = list(game.successors(position, history=past))
        if not children:
            outcome = game.outcome(position, history=past, moves=[])
            value = DRAW_VALUE if outcome is None else self.value_of(outcome.result, position)
            self.nodes = 1
            return Solution(RESULT_NAMES[value], [], [], 1, time.monotonic() - started, 0, outcome=outcome)
        self.nodes = 1
        bounds = [(LOSS, WIN) for _ in children]
        limited = depth is not None or nodes is not None or seconds is not None
        deepest = MAX_PLIES if depth is None else min(depth, MAX_PLIES)
        iteration = 1 if limited else deepest
        self.iteration = iteration
        root_key = self.key(position, past)
        if not self.history_game:
            self.path.add(root_key)
        search_kernel = getattr(game, "search_kernel", None)
        self.kernel = None if search_kernel is None else search_kernel(self, position)
        if self.table_file is not None:
            iteration = self._open_table(position, past, iteration, deepest, depth)
        reached = self._deepen(position, past, children, bounds, iteration, deepest, depth)
        return self._answer(children, bounds, reached)

    def _reset(self, started: float, progress: Progress | None, table: str | os.PathLike[str] | None,
               nodes: int | None, seconds: float | None) -> None:
        """A new solve's state: an empty table, no positions searched yet, its limits."""
        self.started = started
        self.progress = progress
        self.reached = 0
        self.table = {}
        self.numbers = {}
        self.cutoffs = {}
        self.table_file = None if table is None else os.fspath(table)
        self.loaded = 0
        self.used = 0
        self.longest = 0
        self.path = set()
        self.nodes = 0
        self.stopped = False
        self.interrupted = False
        self.stop_reason = None
        self.node_limit = -1 if nodes is None else nodes
        self.deadline = -1.0 if seconds is None else started + seconds

    def _open_table(self, position: Position, past: frozenset[PositionKey], iteration: int, deepest: int,
                    depth: int | None) -> int:
        """Start from the table file's table, where there is one: the iteration to go on from."""
        assert self.table_file is not None
        self.table_identity = self.identity(position, past)
        self.check_table_file(self.table_file)  # (a place it cannot be saved fails now, not later)
        resumed = self.load_table(self.table_file)
        self.saved_at = time.monotonic()
        if resumed:
            # The table holds what deepening would find again: without a
            # depth limit, every line to its end at once; with one, from
            # the iteration that was under way.
            iteration = deepest if depth is None else max(iteration, min(resumed, deepest))
            self.iteration = iteration
        return iteration

    def _deepen(self, position: Position, past: frozenset[PositionKey], children: list[tuple[Move, Position]],
                bounds: list[tuple[int, int]], iteration: int, deepest: int, depth: int | None) -> int:
        """Search the first moves (narrowing ``bounds``), one iteration after
        the other, until each is proven or a limit is reached: the deepest
        complete iteration."""
        reached = 0
        proved = False
        while True:
            self._first_moves(position, past, children, bounds, iteration - 1)
            if self.stopped:
                break
            reached = iteration
            self.reached = iteration
            if self.progress is not None:
                self.progress(iteration, self.nodes, time.monotonic() - self.started)
            if all(low == high for low, high in bounds):
                break
            if iteration >= deepest:
                if depth is not None and depth < MAX_PLIES:
                    self.stop_reason = "depth"
                break
            stop_deepening = self.spent(DEEPENING_SHARE) or self.nodes >= DEEPENING_NODES
            iteration = deepest if depth is None and stop_deepening else iteration + 1
            self.iteration = iteration
            if iteration == deepest and depth is None and self.features & PN and not proved:
                proved = True
                self._proof_numbers(position, past)
                if self.stopped:
                    break
                # what the proof numbers proved of each first move, read from
                # the table (a search of depth 0) before any is searched to
                # its end, which may run out first
                self._first_moves(position, past, children, bounds, 0)
                if self.stopped:
                    break
        return reached

    def _first_moves(self, position: Position, past: frozenset[PositionKey], children: list[tuple[Move, Position]],
                     bounds: list[tuple[int, int]], depth: int) -> None:
        """Search each first move not yet proven to ``depth`` (narrowing
        ``bounds``), until a limit stops the search."""
        for i, (move, after) in enumerate(children):
            low, high = bounds[i]
            if low == high:
                continue
            child_low, child_high = self.search(after, depth, LOSS, WIN, self.child_history(position, after, past), 1)
            bounds[i] = (max(low, -child_high), min(high, -child_low))
            if self.stopped:
                break

    def _answer(self, children: list[tuple[Move, Position]], bounds: list[tuple[int, int]],
                reached: int) -> Solution:
        """The solution: each first move's interval, and the table saved where there is a file."""
        if self.stopped:
            self.stop_reason = "interrupted" if self.interrupted else self.stop_reason or "time"
        low = max(b[0] for b in bounds)
        high = max(b[1] for b in bounds)
        result = result_name(low, high)
        moves = [(move, result_name(b[0], b[1])) for (move, _), b in zip(children, bounds)]
        best = [move for (move, _), b in zip(children, bounds) if low == high and b[0] == b[1] == low]
        if reached == MAX_PLIES:
            reached = min(self.longest, MAX_PLIES)
        if self.table_file is not None:
            self.save_table(self.table_file)
        return Solution(result, moves, best, self.nodes, time.monotonic() - self.started, reached,
                        bounds=(RESULT_NAMES[low], RESULT_NAMES[high]),
                        move_bounds=[(RESULT_NAMES[b[0]], RESULT_NAMES[b[1]]) for b in bounds],
                        stopped=self.stop_reason)

    def spent(self, share: float) -> bool:
        """Whether the search has used ``share`` of its node limit, or where
        it has none, of its time limit (so that a search with a node limit
        takes the same path on every machine, whatever its time limit)."""
        if self.node_limit >= 0:
            return self.nodes >= share * self.node_limit
        if self.deadline >= 0.0:
            now = time.monotonic()
            return now - self.started >= share * (self.deadline - self.started)
        return False

    # -- the search ------------------------------------------------------
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

    def out_of_time(self) -> bool:
        """Whether a limit stops the search now (its reason kept); every
        :data:`PROGRESS_EVERY` positions, progress is told and the table saved
        where it is due."""
        nodes = self.nodes
        if self.node_limit >= 0 and nodes >= self.node_limit:
            self.stop_reason = "nodes"
            return True
        if nodes % CLOCK_EVERY == 0:
            if nodes % PROGRESS_EVERY == 0:
                if self.progress is not None:
                    self.progress(self.reached, nodes, time.monotonic() - self.started)
                self.checkpoint()
            if self.deadline >= 0.0 and time.monotonic() >= self.deadline:
                self.stop_reason = "time"
                return True
        return False

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

    def search(self, position: Position, depth: int, alpha: int, beta: int, past: frozenset[PositionKey],
               ply: int) -> tuple[int, int]:
        """Bounds ``(low, high)`` of the value of ``position`` for the side to
        move; the search may stop once it knows the value is at most ``alpha``
        or at least ``beta``."""
        if self.kernel is not None:  # the same search, native (rules/native.py)
            return self._native_search(position, depth, alpha, beta, past, ply)
        if self.stopped or self.out_of_time():
            self.stopped = True
            return LOSS, WIN
        self.nodes += 1
        if ply > self.longest:
            self.longest = ply
        key = self.key(position, past)
        entry = self.table.get(key)
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
            if key in self.path:
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
        kernel = self.kernel
        bounds: tuple[int, int] = kernel.search(position, depth, alpha, beta, past, ply, self.nodes)
        self._after_kernel()
        return bounds

    def _after_kernel(self) -> None:
        """The node count, the longest line and why it stopped, from the native search just run."""
        kernel = self.kernel
        self.nodes, self.stopped = kernel.nodes, kernel.stopped
        self.longest = max(self.longest, kernel.longest)
        if self.stopped and self.stop_reason is None and not self.interrupted:
            self.stop_reason = "nodes" if 0 <= self.node_limit <= self.nodes else "time"

    def _search_moves(self, position: Position, key: TableKey, children: list[tuple[Move, Position]], depth: int,
                      alpha: int, beta: int, past: frozenset[PositionKey], ply: int, known_low: int,
                      known_high: int, hint: int) -> tuple[int, int]:
        """:meth:`search` of a position with moves, not decided by what is
        known of it (``known_low``, ``known_high``, the table's best move
        ``hint``): its moves, best first, and the bounds stored."""
        features = self.features
        # Each move with the earlier positions that can recur after it (made once: memory is the pure core's bound).
        moves = [(move, after, self.child_history(position, after, past)) for move, after in children]
        if features & ETC:
            cut = self.transposition_cutoff(key, moves, alpha, beta, known_low, known_high, hint)
            if cut is not None:
                return cut
        side = position.side
        cutoffs = self.cutoffs if features & HISTORY else {}
        moves.sort(key=lambda child: 2 ** 30 if child[0].origin == hint else
                      (child[0].captured << 20) + cutoffs.get((side, child[0].origin), 0), reverse=True)
        on_path = not self.history_game
        if on_path:
            self.path.add(key)
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
            if self.stopped:
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
            self.path.discard(key)
        low = max(low, known_low)
        high = min(high, known_high)
        self.store(key, low, high, best)
        return low, high

    def transposition_cutoff(self, key: TableKey, moves: list[tuple[Move, Position, frozenset[PositionKey]]],
                             alpha: int, beta: int, known_low: int, known_high: int, hint: int) -> tuple[int, int] | None:
        """Enhanced transposition cutoffs: the bounds that the table's
        entries of the children give ``position`` (stored), when they decide
        it within ``alpha``, ``beta``; ``None`` when it must be searched."""
        table = self.table
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

    # -- the proof-number search ------------------------------------------
    def _proof_numbers(self, position: Position, past: frozenset[PositionKey]) -> None:
        """The proof-number phase of a limited search: the goals that settle
        the value of ``position`` (the side to move wins, its opponent wins,
        and where the game can end in a draw, each at least draws), one run
        at a time until the value is known or :data:`PROOF_SHARE` of the limit
        is used: each run goes to the goal whose proof number at the root is
        the smallest so far (the first of ties; at first each is 1), with
        :data:`PROOF_FIRST` positions its first time and twice as many each
        time after. A goal and its *dual* (the other side's goal that sets
        each side to move the same goal: the other side at least draws where
        this one would win, and the reverse; without draws, the other side
        wins) share their numbers in the table, each the other's estimate.
        What each goal proves is stored as bounds in the table, where the
        alpha-beta search that follows finds it."""
        mover = position.side
        opponent = NORTH if mover == SOUTH else SOUTH
        can_draw = self.game.can_draw
        targets = (WIN, DRAW_VALUE) if can_draw else (WIN,)
        goals = [(side, target) for target in targets for side in (mover, opponent)]
        # Each goal settles whether the mover's value reaches a threshold (the
        # opponent's target t: 1 - t). A goal and its dual settle the same one
        # (without draws the two are one) and share a slot of numbers.
        thresholds = [target if side == mover else 1 - target for side, target in goals]
        slots = [0 if threshold == WIN or not can_draw else 1 for threshold in thresholds]
        duals = [next(j for j in range(len(goals)) if j != i and slots[j] == slots[i]) + 1 for i in range(len(goals))]
        node_limit = int(self.node_limit * PROOF_SHARE) if self.node_limit >= 0 else -1
        deadline = self.started + PROOF_SHARE * (self.deadline - self.started) if self.deadline >= 0.0 else -1.0
        low, high = LOSS, WIN  # what the goals proved of the value for the side to move
        open_goals = list(range(len(goals)))
        costs = [1] * len(goals)  # each goal's root proof number so far
        budgets = [PROOF_FIRST] * len(goals)
        while True:
            open_goals = [i for i in open_goals if low < thresholds[i] <= high]  # (not settled by what is known)
            if not open_goals:
                return
            index = min(open_goals, key=costs.__getitem__)  # the cheapest goal so far (the first of ties)
            side, target = goals[index]
            limit = self.nodes + budgets[index]
            if node_limit >= 0:
                limit = min(limit, node_limit)
            proven, costs[index] = self.prove(position, past, side, target, index + 1, limit, deadline,
                                              dual=duals[index], slot=slots[index])
            budgets[index] *= 2
            if proven:
                open_goals.remove(index)
            if proven > 0:
                if side == mover:
                    low = max(low, thresholds[index])
                else:
                    high = min(high, thresholds[index] - 1)
            if self.stopped or (node_limit >= 0 and self.nodes >= node_limit) or \
                    (deadline >= 0.0 and time.monotonic() >= deadline):
                return

    def prove(self, position: Position, past: frozenset[PositionKey], attacker: Side, target: int, tag: int,
              node_limit: int, deadline: float, *, dual: int = 0, slot: int = 0) -> tuple[int, int]:
        """Depth-first proof-number search (df-pn) from ``position`` (the root
        of the solve) of one goal: ``attacker``'s value at least ``target``.
        1 where it is proven, -1 where it cannot be met, 0 where a limit
        stopped the search (``node_limit`` and ``deadline`` are the phase's
        own, -1 for none; the solve's stop it too); and the root's proof
        number for the attacker, what the goal is known to cost. ``tag``
        numbers the goal in the table's numbers, kept in their ``slot`` (0
        or 1), where those of goal ``dual`` (the same goal for each side to
        move, the other attacker; 0 for none) are taken as estimates. A line
        that comes back to a position on it, or that reaches
        :data:`MAX_PLIES`, fails the attacker: what proves the attacker's
        goal is sound, and is stored as a bound; what proves the defender's
        is only a number."""
        if self.kernel is not None:  # the same search, native (rules/native.py)
            answer: tuple[int, int] = self.kernel.prove(position, past, 0 if attacker == SOUTH else 1, target, tag,
                                                        dual, slot, self.nodes, node_limit, deadline)
            self._after_kernel()
            return answer
        self.pn_attacker = attacker
        self.pn_target = target
        self.pn_tag = tag
        self.pn_dual = dual
        self.pn_slot = slot
        self.pn_node_limit = node_limit
        self.pn_deadline = deadline
        self.pn_stopped = False
        phi, delta = self.mid(position, past, 0, PN_INF, PN_INF)
        attacking = position.side == attacker
        cost = phi if attacking else delta
        if self.stopped or self.pn_stopped:
            return 0, cost
        return (1 if (phi == 0) == attacking else -1), cost

    def phase_over(self) -> bool:
        """Whether the proof-number search under way has reached its own limits."""
        nodes = self.nodes
        if 0 <= self.pn_node_limit <= nodes:
            return True
        return nodes % CLOCK_EVERY == 0 and self.pn_deadline >= 0.0 and time.monotonic() >= self.pn_deadline

    @staticmethod
    def estimate(number: int) -> int:
        """A number of the dual goal as an estimate: neither 0 nor :data:`PN_INF`."""
        return 1 if number == 0 else PN_INF - 1 if number == PN_INF else number

    @staticmethod
    def decided(low: int, high: int, goal: int) -> tuple[int, int] | None:
        """The numbers that bounds ``low``, ``high`` decide for a side to move
        whose goal is a value of at least ``goal``, if they do."""
        if low >= goal:
            return 0, PN_INF
        if high < goal:
            return PN_INF, 0
        return None

    def mid(self, position: Position, past: frozenset[PositionKey], ply: int, th_phi: int,
            th_delta: int) -> tuple[int, int]:
        """The proof-number search's step (Nagai's *multiple iterative
        deepening*): the numbers ``(phi, delta)`` of ``position`` for the side
        to move — what proving that it reaches its goal costs, and what
        proving that it does not — searched until one reaches its threshold."""
        if self.stopped or self.pn_stopped:
            return 1, 1
        if self.out_of_time():
            self.stopped = True
            return 1, 1
        if self.phase_over():
            self.pn_stopped = True
            return 1, 1
        self.nodes += 1
        if ply > self.longest:
            self.longest = ply
        attacking = position.side == self.pn_attacker
        goal = self.pn_target if attacking else 1 - self.pn_target
        fails = (PN_INF, 0) if attacking else (0, PN_INF)  # the numbers of the attacker's failure
        key = self.key(position, past)
        table = self.table
        entry = table.get(key)
        known_low, known_high = (LOSS, WIN) if entry is None else (entry[0], entry[1])
        if self.tablebase is not None:
            told = self.tablebase.bounds(position, past)
            if told is not None:
                known_low, known_high = max(known_low, told[0]), min(known_high, told[1])
        numbers = self.decided(known_low, known_high, goal)
        if numbers is not None:
            return numbers
        on_path = not self.history_game
        if on_path and ply > 0 and key in self.path:
            return fails  # an endless line
        children = self.expand(position, key, past)
        if isinstance(children, int):
            decided = self.decided(children, children, goal)
            assert decided is not None  # (a value decides every goal)
            return decided
        if ply >= MAX_PLIES:
            return fails
        # the children's numbers: from their bounds, else from the table, else 1
        child_goal = 1 - goal
        moves = []
        phis = []
        deltas = []
        for move, after in children:
            child_past = self.child_history(position, after, past)
            child_key = self.key(after, child_past)
            child_entry = table.get(child_key)
            child_numbers = None
            if child_entry is not None:
                child_numbers = self.decided(child_entry[0], child_entry[1], child_goal)
                if child_numbers is None:
                    slots = self.numbers.get(child_key)
                    kept = None if slots is None else slots[self.pn_slot]
                    if kept is not None:
                        if kept[0] == self.pn_tag:
                            child_numbers = kept[1], kept[2]
                        elif kept[0] == self.pn_dual:
                            # the dual goal's numbers (the same goal for each
                            # side to move, the other attacker): an estimate,
                            # never a proof
                            child_numbers = self.estimate(kept[1]), self.estimate(kept[2])
            phi_delta = child_numbers or (1, 1)
            moves.append((move, after, child_past))
            phis.append(phi_delta[0])
            deltas.append(phi_delta[1])
        if on_path and ply > 0:
            self.path.add(key)
        while True:
            second = PN_INF
            phi = PN_INF
            delta = 0
            best = -1
            for i, child_delta in enumerate(deltas):
                if child_delta < phi:
                    second = phi
                    phi = child_delta
                    best = i
                elif child_delta < second:
                    second = child_delta
                child_phi = phis[i]
                delta = PN_INF if delta == PN_INF or child_phi == PN_INF else min(delta + child_phi, PN_INF - 1)
            if phi >= th_phi or delta >= th_delta:
                break
            _, after, child_past = moves[best]
            child_phi, child_delta = self.mid(after, child_past, ply + 1, th_delta - delta + phis[best],
                                              min(second + 1, th_phi))
            if self.stopped or self.pn_stopped:
                break  # (a child stopped midway keeps its numbers)
            phis[best], deltas[best] = child_phi, child_delta
        if on_path and ply > 0:
            self.path.discard(key)
        if self.stopped or self.pn_stopped:
            return phi, delta  # the numbers so far, stored nowhere: what the root's goal is known to cost
        self.store_numbers(key, phi, delta, goal if phi == 0 and attacking else None,
                           goal - 1 if delta == 0 and not attacking else None,
                           moves[best][0].origin)
        return phi, delta

    def store_numbers(self, key: TableKey, phi: int, delta: int, low: int | None, high: int | None,
                      best: int) -> None:
        """Keep a position's numbers for the goal under way, and what it proved
        of the attacker's goal (a ``low`` bound with its ``best`` move, or a
        ``high`` bound) — in the table, where it has room (:meth:`store`)."""
        table = self.table
        entry = table.get(key)
        if entry is None:
            if not self.store(key, LOSS, WIN, -1):
                return
            entry = (LOSS, WIN, -1)
        if low is not None and low > entry[0]:
            table[key] = (low, entry[1], best)
        elif high is not None and high < entry[1]:
            table[key] = (entry[0], high, entry[2])
        slots = self.numbers.get(key)
        if slots is None:
            if self.used + NUMBERS_BYTES > self.memory:
                return
            self.used += NUMBERS_BYTES
            slots = self.numbers[key] = [None, None]
        slots[self.pn_slot] = (self.pn_tag, phi, delta)

    def store(self, key: TableKey, low: int, high: int, best: int) -> bool:
        """Keep what was found of ``key`` (a bound is sound however it was
        found, so one left out costs a search again, never a wrong result):
        a new position only while its cost fits in the memory budget.
        Whether it is kept."""
        table = self.table
        if key in table:
            table[key] = (low, high, best)
            return True
        cost = self.entry_bytes
        if self.history_game:
            earlier = key[-1]
            if earlier:
                cost += sys.getsizeof(earlier)
        if self.used + cost <= self.memory:
            table[key] = (low, high, best)
            self.used += cost
            return True
        return False
