"""The record being edited (``mancala edit``): a :class:`~notation.record.GameRecord`
with a cursor in its tree of moves, moves played by their tokens through
:class:`mancala_cli.Line` (:func:`replayed`, the one place that calls it),
variations, comments, NAGs and tags, and every change undone and redone.

An *address* names a move of the tree: ``(i,)`` is the ``i``-th move of the
main line, ``(i, v, j)`` the ``j``-th move of the ``v``-th variation of that
move, and so on; ``()`` is the start, before any move.

    >>> from notation.record import GameRecord
    >>> edited = EditedGame(GameRecord(tags=[("Game", "kingulu")]))
    >>> edited.play("c1"), edited.play("d2"), edited.cursor
    ('c1x6', 'd2', (1,))
    >>> edited.back(), edited.play("a2"), edited.cursor
    ((0,), 'a2x1', (1, 0, 0))
    >>> edited.undo(), edited.cursor
    (True, (0,))
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from notation.coords import STYLES, parse_move_token
from notation.record import GLYPHS, TAG_NAME, GameRecord, MoveNode, copy_record, tag_problem, walk

from ..errors import BadCoordinate, BadMove
from ..playing import Line
from ..positions import parse_position
from ..rules.game import Game, IllegalMove, InvalidPosition, Move, Outcome
from ..rules.position import Position
from ..rules.registry import get_game

__all__ = ["Address", "EditError", "EditedGame", "replayed", "move_label"]

Address = tuple[int, ...]


class EditError(ValueError):
    """A change the editor refuses, with the one line that says why."""


def replayed(game: Game, start: Position, tokens: list[str]) -> Line:
    """A :class:`Line` from ``start`` with ``tokens`` played (the one place
    the editor plays through ``Line``: its calls stay together here)."""
    line = Line(game, start)
    for token in tokens:
        line.play(token)
    return line


def move_label(ply: int, side: str, number: int, token: str, *, dots: bool = True) -> str:
    """``3. d1`` or ``3... a2`` (``dots=False``: the token alone for North)."""
    if side == "S":
        return f"{number}. {token}"
    return f"{number}... {token}" if dots else token


@dataclass(slots=True)
class Tried:
    """What the cursor's position allows: the line replayed to it and its legal tokens."""

    line: Line
    tokens: list[str]


class EditedGame:
    """One game being edited: ``record``, its rules ``game``, the ``cursor``
    (an address), the undo and redo stacks, and ``dirty`` (changed since
    opened or saved)."""

    def __init__(self, record: GameRecord, *, default_game: str | None = None) -> None:
        self.record = record
        game_id = record.tag("Game") or default_game or record.default_game
        if game_id is None:
            raise EditError("the record has no Game tag: give --game")
        self.game = get_game(game_id)
        self._frame()
        self.cursor: Address = ()
        self.dirty = False
        self._undo: list[tuple[GameRecord, Address]] = []
        self._redo: list[tuple[GameRecord, Address]] = []
        self._cache: dict[Address, Tried] = {}
        self._addresses: dict[int, Address] | None = None

    def _frame(self) -> None:
        """The start and the coordinate style, from the record's tags."""
        setup = self.record.tag("Setup")
        self.start = parse_position(self.game, setup) if setup else self.game.start()
        self.coords = self.record.tag("Coordinates") or "algebraic"

    # -- the tree -------------------------------------------------------------------------

    def line_of(self, address: Address) -> tuple[list[MoveNode], int]:
        """The list of moves that holds the move at ``address``, and its index there."""
        moves = self.record.moves
        for k in range(0, len(address) - 1, 2):
            moves = moves[address[k]].variations[address[k + 1]]
        return moves, address[-1]

    def node(self, address: Address) -> MoveNode:
        moves, i = self.line_of(address)
        return moves[i]

    def path(self, address: Address) -> list[MoveNode]:
        """The moves played from the start to reach the position after ``address``."""
        played: list[MoveNode] = []
        moves = self.record.moves
        for k in range(0, len(address) - 1, 2):
            played += moves[:address[k]]
            moves = moves[address[k]].variations[address[k + 1]]
        return played + moves[:address[-1] + 1] if address else played

    def previous(self, address: Address) -> Address:
        """The address of the move before ``address`` (``()``: the start); a
        variation's first move comes after the move before the one it replaces."""
        while address:
            if address[-1] > 0:
                return address[:-1] + (address[-1] - 1,)
            if len(address) == 1:
                return ()
            address = address[:-2]  # (the move the variation replaces: the one before it, in turn)
        return ()

    def addresses(self) -> list[tuple[Address, int, str, int]]:
        """Every move in PMN's order: its address, ply, side and move number."""
        ids = self._ids()
        return [(ids[id(step.node)], step.ply, step.side, step.number)
                for step in walk(self.record, side=self.start.side, number=self.start.move_number)
                if step.kind == "move"]

    def _ids(self) -> dict[int, Address]:
        """Each move's address, by the move's identity (worked out once per change)."""
        if self._addresses is None:
            table: dict[int, Address] = {}
            todo: list[tuple[list[MoveNode], Address]] = [(self.record.moves, ())]
            while todo:
                moves, prefix = todo.pop()
                for i, node in enumerate(moves):
                    table[id(node)] = prefix + (i,)
                    for v, variation in enumerate(node.variations):
                        todo.append((variation, prefix + (i, v)))
            self._addresses = table
        return self._addresses

    # -- positions ------------------------------------------------------------------------

    def tried(self, address: Address | None = None) -> Tried:
        """The line replayed to ``address`` (the cursor) and its legal tokens."""
        where = self.cursor if address is None else address
        found = self._cache.get(where)
        if found is None:
            try:
                line = replayed(self.game, self.start, [node.text for node in self.path(where)])
            except (IllegalMove, BadMove, BadCoordinate) as error:
                raise EditError(f"the record cannot be replayed to here: {error}") from None
            found = Tried(line, self._tokens(line))
            self._cache[where] = found
        return found

    def _tokens(self, line: Line) -> list[str]:
        moves = [token.move for token in line.legal_moves()]
        origins = [move.origin for move in moves]
        return [line.token(move, self.coords, long_form=origins.count(move.origin) > 1) for move in moves]

    def position(self) -> Position:
        return self.tried().line.position

    def last_move(self) -> Move | None:
        moves = self.tried().line.moves
        return moves[-1].move if self.cursor and moves else None

    def outcome(self) -> Outcome | None:
        return self.tried().line.outcome()

    def legal_tokens(self) -> list[str]:
        return self.tried().tokens

    def tokens_from(self, hole: int) -> list[str]:
        """The legal tokens of the moves from ``hole`` (more than one: a choice)."""
        tried = self.tried()
        return [token for token, move in zip(tried.tokens, tried.line.legal_moves()) if move.move.origin == hole]

    def number(self) -> tuple[str, int]:
        """The side to move and its move number at the cursor."""
        position = self.position()
        return position.side, position.move_number

    # -- walking --------------------------------------------------------------------------

    def go(self, address: Address) -> Address:
        if address:
            self.line_of(address)  # (an address that names no move raises IndexError)
            self.node(address)
        self.cursor = address
        return address

    def forward(self) -> Address:
        if not self.cursor:
            return self.go((0,) if self.record.moves else ())
        moves, i = self.line_of(self.cursor)
        return self.go(self.cursor[:-1] + (i + 1,)) if i + 1 < len(moves) else self.cursor

    def back(self) -> Address:
        return self.go(self.previous(self.cursor))

    def home(self) -> Address:
        return self.go(())

    def end(self) -> Address:
        if not self.cursor:
            return self.go((len(self.record.moves) - 1,) if self.record.moves else ())
        moves, _ = self.line_of(self.cursor)
        return self.go(self.cursor[:-1] + (len(moves) - 1,))

    # -- changes --------------------------------------------------------------------------

    def _change(self) -> None:
        """Keep the state before a change for :meth:`undo`."""
        self._undo.append((copy_record(self.record), self.cursor))
        self._redo.clear()

    def _changed(self) -> None:
        self._cache.clear()
        self._addresses = None
        self.dirty = True

    def undo(self) -> bool:
        if not self._undo:
            return False
        self._redo.append((copy_record(self.record), self.cursor))
        self.record, self.cursor = self._undo.pop()
        self._frame()
        self._changed()
        return True

    def redo(self) -> bool:
        if not self._redo:
            return False
        self._undo.append((copy_record(self.record), self.cursor))
        self.record, self.cursor = self._redo.pop()
        self._frame()
        self._changed()
        return True

    def play(self, token: str) -> str:
        """Play ``token`` at the cursor and go to it: the next move of the
        line when it is that move, a variation that begins with it, else a
        new move at the end of the line or a new variation. Returns the
        token as the record writes it; raises :class:`EditError` (nothing
        changed) with the message ``validate`` gives."""
        tried = self.tried()
        side, number = tried.line.position.side, tried.line.position.move_number
        label = move_label(0, side, number, token.strip())
        parts = parse_move_token(token.strip())
        try:
            if parts is None:
                raise EditError(f"{label}: syntax: {token.strip()!r} is not a move token (a hole, then xN or ^ if any)")
            if token.strip() not in tried.tokens:
                by_hole = [t for t in tried.tokens if parse_move_token(t).hole == parts.hole]  # type: ignore[union-attr]
                if parts.destination is None and len(by_hole) > 1:
                    raise EditError(f"{label}: {parts.hole} has {len(by_hole)} moves: {' '.join(by_hole)}")
            line = tried.line.copy()
            assert isinstance(line, Line)  # (copy() keeps the line's own type)
            move = line.play(token.strip())
        except IllegalMove as error:
            raise EditError(f"{label}: {error}") from None
        except BadCoordinate as error:
            raise EditError(f"{label}: bad-hole: {error}") from None
        except BadMove as error:
            raise EditError(f"{label}: bad-mark: {error}") from None
        written = tried.line.token(move, self.coords, long_form=parts.destination is not None)
        self._enter(written)
        self._cache.setdefault(self.cursor, Tried(line, self._tokens(line)))  # (the line just played: no replay)
        self._fill_result()
        return written

    def _enter(self, written: str) -> None:
        parts = parse_move_token(written)
        assert parts is not None
        new = MoveNode(parts.hole, parts.destination, parts.captured, parts.reserved)
        if self.cursor:
            moves, i = self.line_of(self.cursor)
            base, nxt = self.cursor[:-1], i + 1
        else:
            moves, base, nxt = self.record.moves, (), 0
        if nxt < len(moves):
            if self._same(moves[nxt], new):
                self.cursor = base + (nxt,)
                return
            for v, variation in enumerate(moves[nxt].variations):
                if variation and self._same(variation[0], new):
                    self.cursor = base + (nxt, v, 0)
                    return
            self._change()
            moves[nxt].variations.append([new])
            self.cursor = base + (nxt, len(moves[nxt].variations) - 1, 0)
        else:
            self._change()
            moves.append(new)
            self.cursor = base + (nxt,)
        self._changed()

    @staticmethod
    def _same(node: MoveNode, new: MoveNode) -> bool:
        return node.hole == new.hole and (node.destination or new.destination) in (None, new.destination)

    def _fill_result(self) -> None:
        """The result from the rules when the cursor's move ends the main line and the game."""
        if not self.record.moves or self.cursor != (len(self.record.moves) - 1,):
            return
        try:
            outcome = self.tried((len(self.record.moves) - 1,)).line.outcome()
        except EditError:
            return
        if outcome is not None and (self.record.result != outcome.result
                                    or self.record.tag("Result") != outcome.result):
            self.record.result = outcome.result
            self.record.set_tag("Result", outcome.result)

    def delete_from_here(self) -> None:
        """Delete the move at the cursor and the rest of its line (a whole
        variation from its first move); the cursor goes to the move before."""
        if not self.cursor:
            raise EditError("nothing to delete at the start")
        self._change()
        moves, i = self.line_of(self.cursor)
        target = self.previous(self.cursor)
        if i == 0 and len(self.cursor) > 1:
            del self.node(self.cursor[:-2]).variations[self.cursor[-2]]
        else:
            del moves[i:]
        self.cursor = target
        self._changed()

    def promote(self) -> None:
        """Make the variation at the cursor the line it branches from (that
        line becomes the variation, in its place)."""
        if len(self.cursor) < 3:
            raise EditError("the cursor is on the main line: no variation to promote")
        *prefix, i, v, j = self.cursor
        self._change()
        parent, _ = self.line_of(tuple(prefix) + (i,))
        variation = parent[i].variations[v]
        old = parent[i:]
        others = old[0].variations
        old[0].variations = []
        others[v] = old
        variation[0].variations = others + variation[0].variations
        parent[i:] = variation
        self.cursor = tuple(prefix) + (i + j,)
        self._changed()

    def set_comment(self, text: str, *, before: bool = False) -> None:
        """The comment after the cursor's move (``before``: the one before
        it); at the start, the comment before the first move. Blank removes it."""
        value = text if text.strip() else None
        self._change()
        if not self.cursor:
            if self.record.moves:
                self.record.moves[0].before = value
            else:
                self.record.comment = value
        elif before:
            self.node(self.cursor).before = value
        else:
            self.node(self.cursor).comment = value
        self._changed()

    def comment(self, *, before: bool = False) -> str:
        if not self.cursor:
            return (self.record.moves[0].before if self.record.moves else self.record.comment) or ""
        node = self.node(self.cursor)
        return (node.before if before else node.comment) or ""

    def set_marks(self, text: str) -> None:
        """The glyphs (``!``, ``?!``) and NAGs (``$6``) of the cursor's move, as ``! $6``."""
        if not self.cursor:
            raise EditError("NAGs belong to a move: go to one first")
        glyphs, nags = [], []
        for word in text.split():
            if word in GLYPHS:
                glyphs.append(word)
            elif word.startswith("$") and word[1:].isdigit() and len(word) <= 4:
                nags.append(int(word[1:]))
            else:
                raise EditError(f"{word!r} is not a glyph (! ? !! ?? !? ?!) or a NAG ($0 to $255)")
        if any(nag > 255 for nag in nags):
            raise EditError("a NAG is $0 to $255")
        self._change()
        node = self.node(self.cursor)
        node.glyphs, node.nags = glyphs, nags
        self._changed()

    def marks(self) -> str:
        if not self.cursor:
            return ""
        node = self.node(self.cursor)
        return " ".join([*node.glyphs, *(f"${nag}" for nag in node.nags)])

    def set_tag(self, name: str, value: str) -> None:
        """Tag ``name`` set to ``value`` (blank: removed). ``Game`` stays as
        it is; ``Setup`` and ``Coordinates`` change only before the first move."""
        if name == "Game" or (name in ("Setup", "Coordinates") and self.record.moves):
            raise EditError(f"the {name} tag is fixed " + ("while editing" if name == "Game" else "once moves are played"))
        if not re.fullmatch(TAG_NAME, name):
            raise EditError(f"tag name {name!r} is not letters, digits and _")
        problem = tag_problem(name, value)
        if problem is not None:
            raise EditError(problem)
        start, coords = self.start, self.coords
        if name == "Setup":
            try:
                start = parse_position(self.game, value) if value.strip() else self.game.start()
            except InvalidPosition as error:
                raise EditError(f"bad Setup position: {error}") from None
        elif name == "Coordinates":
            coords = value.strip() or "algebraic"
            if coords not in STYLES:
                raise EditError(f"unknown Coordinates {coords!r} (algebraic, numeric or relative)")
        self._change()
        self.start, self.coords = start, coords
        if value.strip():
            self.record.set_tag(name, value)
            if name == "Result":
                self.record.result = value
        else:
            self.record.tags = [(key, old) for key, old in self.record.tags if key != name]
        self._changed()
