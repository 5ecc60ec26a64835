"""The proof-number search of a solve (df-pn): :class:`ProofNumbers`, the
methods of :class:`~.search.Solver` that run it.

Once deepening stops, a search limited in time or positions tries to prove
the value of its position with a depth-first proof-number search (Nagai's
df-pn, :meth:`ProofNumbers.prove`), one goal at a time (the side to move
wins, its opponent wins, and where the game can end in a draw, each at
least draws), until :data:`PROOF_SHARE` of its limit is used
(:meth:`ProofNumbers.phase`). What proves the attacker's goal is
stored in the table as a bound, where the alpha-beta search that follows
finds it (:mod:`.alpha_beta`); the numbers of each position are kept beside
the table, as far as the memory budget allows. The native kernel runs the
same search step for step (``rules/_native_search.h``).
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Final

from ..rules.board import NORTH, SOUTH, Side
from ..rules.game import Game, Move
from ..rules.position import Position, PositionKey
from .search_result import CLOCK_EVERY, DRAW_VALUE, LOSS, MAX_PLIES, WIN, SearchState, SearchSteps, TableKey

#: A proof-number search (df-pn, :meth:`ProofNumbers.prove`) of the
#: position's value, once deepening stops and before every line is searched
#: to its end (in a search limited in time or positions, until
#: :data:`PROOF_SHARE` of the limit is used): a bit of
#: :attr:`~.search.Solver.features`.
PN: Final = 4
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

#: The goals of a proof-number phase (:meth:`ProofNumbers._goals`): each
#: goal's side and target, the threshold of the mover's value it settles,
#: its slot of numbers and its dual's number.
Goals = tuple[list[tuple[Side, int]], list[int], list[int], list[int]]


class ProofNumbers:
    """The proof-number search of one solve: it reads and changes the
    solve's ``state`` (the table and the numbers beside it, the line, the
    node count, the stop) and calls the solver's ``steps`` (the table's
    keys, the moves, storing, the limits); ``game``, ``tablebase``,
    ``history_game`` and ``memory`` are the solver's settings
    (:class:`~.search.Solver`). Its own state is the goal under way
    (:meth:`prove`): its attacker, the value it must reach, the goal's
    number, its dual's and its slot of numbers, the goal's own limits, and
    whether they stopped it."""

    def __init__(self, state: SearchState, steps: SearchSteps, *, game: Game, tablebase: Any, history_game: bool,
                 memory: int) -> None:
        self.state = state
        self.game = game
        self.tablebase = tablebase
        self.history_game = history_game
        self.memory = memory
        # The steps, bound once: the search calls them at every position.
        self.key: Callable[[Position, frozenset[PositionKey]], TableKey] = steps.key
        self.child_history: Callable[[Position, Position, frozenset[PositionKey]],
                                     frozenset[PositionKey]] = steps.child_history
        self.expand: Callable[[Position, TableKey, frozenset[PositionKey]],
                              list[tuple[Move, Position]] | int] = steps.expand
        self.store: Callable[[TableKey, int, int, int], bool] = steps.store
        self.grown: Callable[[int], None] = steps.grown
        self.out_of_time: Callable[[], bool] = steps.out_of_time
        self.after_kernel: Callable[[], None] = steps.after_kernel
        self.attacker: Side = SOUTH
        self.target = WIN
        self.tag = 0
        self.dual = 0
        self.slot = 0
        self.goal_node_limit = -1
        self.goal_deadline = -1.0
        self.goal_stopped = False

    # -- the phase ---------------------------------------------------------
    def phase(self, position: Position, past: frozenset[PositionKey]) -> None:
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
        state = self.state
        mover = position.side
        goals, thresholds, slots, duals = self._goals(mover)
        node_limit, deadline = self._phase_limits()
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
            limit = state.nodes + budgets[index]
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
            if state.stopped or (node_limit >= 0 and state.nodes >= node_limit) or \
                    (deadline >= 0.0 and time.monotonic() >= deadline):
                return

    def _goals(self, mover: Side) -> Goals:
        """The goals of the proof-number phase for a position of ``mover``:
        each goal's side and target (the mover wins, the opponent wins, and
        where the game can end in a draw, each at least draws), the threshold
        of the mover's value it settles, its slot of numbers, and the number
        of its dual (the goal numbers count from 1)."""
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
        return goals, thresholds, slots, duals

    def _phase_limits(self) -> tuple[int, float]:
        """The proof-number phase's own limits: :data:`PROOF_SHARE` of the
        solve's node limit and of its time (-1 where it has none)."""
        state = self.state
        node_limit = int(state.node_limit * PROOF_SHARE) if state.node_limit >= 0 else -1
        deadline = state.started + PROOF_SHARE * (state.deadline - state.started) if state.deadline >= 0.0 else -1.0
        return node_limit, deadline

    # -- the search of one goal ----------------------------------------------
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
        state = self.state
        if state.kernel is not None:  # the same search, native (rules/native.py)
            answer: tuple[int, int] = state.kernel.prove(position, past, 0 if attacker == SOUTH else 1, target, tag,
                                                         dual, slot, state.nodes, node_limit, deadline)
            self.after_kernel()
            return answer
        self.attacker = attacker
        self.target = target
        self.tag = tag
        self.dual = dual
        self.slot = slot
        self.goal_node_limit = node_limit
        self.goal_deadline = deadline
        self.goal_stopped = False
        phi, delta = self.mid(position, past, 0, PN_INF, PN_INF)
        attacking = position.side == attacker
        cost = phi if attacking else delta
        if state.stopped or self.goal_stopped:
            return 0, cost
        return (1 if (phi == 0) == attacking else -1), cost

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
        if self.halted():
            return 1, 1
        state = self.state
        state.nodes += 1
        if ply > state.longest:
            state.longest = ply
        attacking = position.side == self.attacker
        goal = self.target if attacking else 1 - self.target
        fails = (PN_INF, 0) if attacking else (0, PN_INF)  # the numbers of the attacker's failure
        key = self.key(position, past)
        numbers = self.known_numbers(position, past, key, goal)
        if numbers is not None:
            return numbers
        on_path = not self.history_game
        if on_path and ply > 0 and key in state.path:
            return fails  # an endless line
        children = self.expand(position, key, past)
        if isinstance(children, int):
            decided = self.decided(children, children, goal)
            assert decided is not None  # (a value decides every goal)
            return decided
        if ply >= MAX_PLIES:
            return fails
        return self.search_children(position, past, ply, key, goal, children, th_phi, th_delta)

    def search_children(self, position: Position, past: frozenset[PositionKey], ply: int, key: TableKey, goal: int,
                        children: list[tuple[Move, Position]], th_phi: int, th_delta: int) -> tuple[int, int]:
        """:meth:`mid`'s search of an inner node's ``children``: the most
        proving child searched again and again until the node's numbers
        reach a threshold; what it proved is stored (unless stopped)."""
        state = self.state
        attacking = position.side == self.attacker
        on_path = not self.history_game
        moves, phis, deltas = self.children_numbers(position, past, children, 1 - goal)
        if on_path and ply > 0:
            state.path.add(key)
        while True:
            phi, delta, best, second = self.most_proving(phis, deltas)
            if phi >= th_phi or delta >= th_delta:
                break
            _, after, child_past = moves[best]
            child_phi, child_delta = self.mid(after, child_past, ply + 1, th_delta - delta + phis[best],
                                              min(second + 1, th_phi))
            if state.stopped or self.goal_stopped:
                break  # (a child stopped midway keeps its numbers)
            phis[best], deltas[best] = child_phi, child_delta
        if on_path and ply > 0:
            state.path.discard(key)
        if state.stopped or self.goal_stopped:
            return phi, delta  # the numbers so far, stored nowhere: what the root's goal is known to cost
        self.store_numbers(key, phi, delta, goal if phi == 0 and attacking else None,
                           goal - 1 if delta == 0 and not attacking else None,
                           moves[best][0].origin)
        return phi, delta

    def halted(self) -> bool:
        """Whether the search must stop here: the solve was stopped, or its
        time is out, or this phase's limit is reached (each noted)."""
        state = self.state
        if state.stopped or self.goal_stopped:
            return True
        if self.out_of_time():
            state.stopped = True
            return True
        if self.phase_over():
            self.goal_stopped = True
            return True
        return False

    def phase_over(self) -> bool:
        """Whether the goal under way has reached its own limits."""
        nodes = self.state.nodes
        if 0 <= self.goal_node_limit <= nodes:
            return True
        return nodes % CLOCK_EVERY == 0 and self.goal_deadline >= 0.0 and time.monotonic() >= self.goal_deadline

    def known_numbers(self, position: Position, past: frozenset[PositionKey], key: TableKey,
                      goal: int) -> tuple[int, int] | None:
        """The numbers of ``position`` where its known bounds (the table's,
        the endgame table's) decide ``goal``."""
        entry = self.state.table.get(key)
        known_low, known_high = (LOSS, WIN) if entry is None else (entry[0], entry[1])
        if self.tablebase is not None:
            told = self.tablebase.bounds(position, past)
            if told is not None:
                known_low, known_high = max(known_low, told[0]), min(known_high, told[1])
        return self.decided(known_low, known_high, goal)

    def children_numbers(self, position: Position, past: frozenset[PositionKey],
                         children: list[tuple[Move, Position]],
                         child_goal: int) -> tuple[list[tuple[Move, Position, frozenset[PositionKey]]], list[int],
                                                   list[int]]:
        """The children of ``position`` (each move with the position after
        it and that position's history) and their numbers for ``child_goal``:
        from their bounds, else from the numbers kept for this goal (or, as
        an estimate, the dual goal's), else 1."""
        table = self.state.table
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
                    child_numbers = self.kept_numbers(child_key)
            phi_delta = child_numbers or (1, 1)
            moves.append((move, after, child_past))
            phis.append(phi_delta[0])
            deltas.append(phi_delta[1])
        return moves, phis, deltas

    def kept_numbers(self, key: TableKey) -> tuple[int, int] | None:
        """The numbers kept for ``key`` in this goal's slot: this goal's own,
        or the dual goal's (the same goal for each side to move, the other
        attacker) as an estimate, never a proof."""
        slots = self.state.numbers.get(key)
        kept = None if slots is None else slots[self.slot]
        if kept is None:
            return None
        if kept[0] == self.tag:
            return kept[1], kept[2]
        if kept[0] == self.dual:
            return self.estimate(kept[1]), self.estimate(kept[2])
        return None

    @staticmethod
    def most_proving(phis: list[int], deltas: list[int]) -> tuple[int, int, int, int]:
        """A node's numbers from its children's (``phi``, the least of their
        deltas; ``delta``, the sum of their phis, capped), the child to search
        (the one of the least delta) and the second least delta."""
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
        return phi, delta, best, second

    def store_numbers(self, key: TableKey, phi: int, delta: int, low: int | None, high: int | None,
                      best: int) -> None:
        """Keep a position's numbers for the goal under way, and what it proved
        of the attacker's goal (a ``low`` bound with its ``best`` move, or a
        ``high`` bound) — in the table, where it has room (:meth:`store`)."""
        state = self.state
        table = state.table
        entry = table.get(key)
        if entry is None:
            if not self.store(key, LOSS, WIN, -1):
                return
            entry = (LOSS, WIN, -1)
        if low is not None and low > entry[0]:
            table[key] = (low, entry[1], best)
        elif high is not None and high < entry[1]:
            table[key] = (entry[0], high, entry[2])
        slots = state.numbers.get(key)
        if slots is None:
            if state.used + NUMBERS_BYTES > self.memory:
                return
            self.grown(NUMBERS_BYTES)
            slots = state.numbers[key] = [None, None]
        slots[self.slot] = (self.tag, phi, delta)
