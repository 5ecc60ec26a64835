"""The three games on the native kernel (``_native``, built from
``_native.c`` and the units beside it where the install found a C compiler;
docs/native.md).

Each class here is its pure-Python game with the hot paths — a move played
in place, the legal moves and successors of a position, the end test of the
games that need no history — handed to the kernel; everything else (and any
position the kernel does not take, such as one with a hole beyond its
limits) is the pure rules' own code. An illegal move's rule id and the facts
its message names come from the kernel; the message is written here as the
pure rules write it. ``tests/test_native_differential.py`` holds both cores
together::

    >>> from mancala_cli.rules.native import game_class
    >>> game = game_class("Kingulu")()
    >>> move, after = game.play(game.start(), game.board.index_of("c1"))
    >>> move.captured, after.banks
    (6, (7, 0))
"""
from __future__ import annotations

import importlib
import sys
import time
from collections.abc import Callable, Collection, Iterator
from types import ModuleType
from typing import Any

from . import _native, game as shared_rules
from .board import NORTH, SOUTH
from .game import Game, IllegalMove, Move, Outcome
from .position import MutablePosition, Position, PositionKey

_native.init(Move, Position, SOUTH, NORTH)

_move_in_place = _native.move
_play_line = _native.play_line
_successors = _native.successors
_kernel_ended = _native.ended


def build_tablebase(stones: int, out: bytearray, progress: Callable[[int, int, int], None] | None) -> None:
    """Build the kimasai-klamroth endgame table of at most ``stones`` stones
    into ``out`` on the kernel (the layout of :mod:`mancala_cli.solving.endgame`);
    ``progress``, where given, hears of the build as the pure build tells it."""
    _native.tablebase_build(stones, out, progress)

# The kernel's codes of the illegal moves (``native.h``), as its module exports them.
_ORIGIN = _native.ERR_ORIGIN
_EMPTY = _native.ERR_EMPTY
_RESERVED = _native.ERR_RESERVED
_BLOCKED = _native.ERR_BLOCKED
_FIRSTLAP = _native.ERR_FIRSTLAP
_ENDLESS_LIMIT = _native.ERR_ENDLESS_LIMIT
_ENDLESS_REPEAT = _native.ERR_ENDLESS_REPEAT


class _Native:
    """What the three native games share; mixed in before the pure class."""

    code: int
    rule: str  # the prefix of the game's rule ids (``KG``, ``KM``, ``KK``)
    uses_history: bool  # (the pure class's)
    #: The pure game's module: its ``LAP_LIMIT`` is the kernel's too (so a
    #: test that lowers it lowers both).
    rules: ModuleType

    def _illegal(self, error: tuple[int, int, int, int], now: MutablePosition, origin: int,
                 position: Position | None) -> IllegalMove:
        """The error the pure rules raise for the kernel's verdict ``error``."""
        code, hole, laps, repeated = error
        name = self.board.name  # type: ignore[attr-defined]
        if code == _ORIGIN:
            return IllegalMove(f"{self.rule}-ORIGIN", f"{name(origin)} is not one of {now.side}'s holes",
                               position, origin)
        if code == _EMPTY:
            return IllegalMove(f"{self.rule}-EMPTY", f"origin {name(origin)} is empty", position, origin)
        if code == _RESERVED:
            return IllegalMove("KG-RESERVED", f"origin {name(origin)} is reserved by the opponent",
                               position, origin)
        if code == _BLOCKED:
            return IllegalMove("KK-BLOCKED", f"{name(origin)} cannot step: {name(hole)} is occupied",
                               position, origin)
        if code == _FIRSTLAP:
            return IllegalMove("KG-FIRSTLAP", f"{name(origin)}: the first lap ends in {name(hole)}, "
                               f"an occupied hole of {now.side}'s own row", position, origin)
        if code == _ENDLESS_LIMIT:
            why = f"lap {laps} ends in {name(hole)} and the move goes on (limit {self.rules.LAP_LIMIT} laps)"
        else:
            why = (f"the state at the end of lap {laps} (last seed in {name(hole)}) "
                   f"repeats the end of lap {repeated}")
        return IllegalMove("ENDLESS", f"endless sowing: {why}", position, origin)

    def _move(self, now: MutablePosition, origin: int, position: Position | None = None) -> Move:
        played = _move_in_place(self.code, now, origin, self.rules.LAP_LIMIT)
        if played.__class__ is Move:
            return played
        if played is None:  # a position the kernel does not take
            return super()._move(now, origin, position)  # type: ignore[misc, no-any-return]
        raise self._illegal(played, now, origin, position)

    @property
    def plays_lines(self) -> bool:
        """Whether :meth:`play_line` plays as :meth:`move` would: on the
        kernel's own classes, where no method of the moves is replaced."""
        cls = type(self)
        return (globals().get(cls.__name__) is cls and cls.__module__ == __name__
                and not {"move", "_move", "_ended"} & vars(self).keys())

    def play_line(self, now: MutablePosition, origins: bytes, marks: bytes, history: set[PositionKey] | None,
                  moves: list[Move]) -> tuple[int, int]:
        """Play the moves of ``origins`` (a hole a byte) in place on ``now``,
        as :meth:`move` one after the other would (with ``history`` for the
        games that use it), appending each to ``moves``; stop before a move
        whose end test or rule :meth:`move` must give, and after one whose
        outcome differs from its ``marks`` (per move, a 4-byte capture count,
        -1 for none, and a byte for ``^``). Returns the moves played and 1
        when the last one's marks differ, else 0."""
        played, flag = _play_line(self.code, now, origins, marks, self.rules.LAP_LIMIT,
                                  history if self.uses_history else None, moves)
        return played, flag

    def _apply(self, position: Position, origin: int) -> tuple[Move, Position]:
        now = MutablePosition(position)
        return self._move(now, origin, position), now.frozen()

    def _generate(self, position: Position) -> list[Move]:
        moves = _successors(self.code, position, False, self.rules.LAP_LIMIT)
        if moves is None:
            return super()._generate(position)  # type: ignore[misc, no-any-return]
        return moves

    def successors(self, position: Position, *,
                   history: Collection[PositionKey] = ()) -> Iterator[tuple[Move, Position]]:
        if self._ended(position, history) is not None:  # type: ignore[attr-defined]
            return iter(())
        pairs = _successors(self.code, position, True, self.rules.LAP_LIMIT)
        if pairs is None:
            return super().successors(position, history=history)  # type: ignore[misc, no-any-return]
        return iter(pairs)


    def search_kernel(self, solver: Any, root: Position, max_plies: int) -> _native.Search:
        """The native search of one ``Solver.solve`` from ``root`` (of
        :mod:`mancala_cli.solving.search`, which it follows step for step,
        its table bounded as the solver's: at most ``memory`` bytes), no line
        longer than ``max_plies``."""
        state = solver.state  # (the solve's state: mancala_cli.solving.search_result.SearchState)
        progress = state.progress
        report = None
        if progress is not None or solver.table_file is not None:
            def report(nodes: int) -> None:
                if progress is not None:
                    progress(state.reached, nodes, time.monotonic() - state.started)
                solver.checkpoint()
        # (a budget beyond what the machine can address is all it can: the
        # kernel takes a signed 64-bit count)
        memory = min(solver.memory, sys.maxsize)
        # (max_bytes 0 would mean "no byte bound": a table of 0 bytes is 1 byte, room for none.)
        kernel = _native.Search(self.code, memory, max_plies, state.node_limit,
                                state.deadline, report, max(memory, 1), solver.features)
        tablebase = solver.tablebase
        _native.tablebase_use(None if tablebase is None else tablebase.data,
                              0 if tablebase is None else tablebase.stones)
        kernel.root(root)
        return kernel


class _KernelEnd:
    """The end test of a game whose end needs no history (KM-9): where the
    kernel's (``native_ended`` in ``native_rules.c``, the one its search and
    :meth:`play_line` ask) finds the game not over, so is it; else the pure
    rules' test says how it ended."""

    code: int

    def _ended(self, position: Position | MutablePosition, history: Collection[PositionKey]) -> Outcome | None:
        if _kernel_ended(self.code, position.holes, position.side) is False:
            return None
        return super()._ended(position, history)  # type: ignore[misc, no-any-return]


#: Each class: its pure module, the kernel's code of the game, the prefix of
#: its rule ids, and the mix-ins beside :class:`_Native`.
_CLASSES: dict[str, tuple[str, int, str, tuple[type, ...]]] = {
    "KimasaiMackay": ("kimasai_mackay", 0, "KM", (_KernelEnd,)),
    "KimasaiKlamroth": ("kimasai_klamroth", 1, "KK", ()),
    "Kingulu": ("kingulu", 2, "KG", ()),
}

_MADE: dict[str, type[Game]] = {}


def game_class(name: str) -> type[Game]:
    """The class of the game called ``name`` (``"Kingulu"``, a key of
    :data:`_CLASSES`) on the native kernel, made when first asked for (so
    that only the pure module of that game loads); ``KeyError`` for another
    name."""
    made = _MADE.get(name)
    if made is not None:
        return made
    module_name, code, rule, mixins = _CLASSES[name]
    module = importlib.import_module(f".{module_name}", __package__)
    # Klamroth sows no laps: the core's limit stands in, never reached.
    rules = module if hasattr(module, "LAP_LIMIT") else shared_rules
    cls = type(name, (*mixins, _Native, getattr(module, name)),
               {"code": code, "rule": rule, "rules": rules, "__module__": __name__,
                "__doc__": f"{getattr(module, name).__doc__ or name}, on the native kernel."})
    _MADE[name] = cls
    return cls
