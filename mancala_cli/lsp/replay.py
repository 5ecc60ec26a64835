"""A game of a document read again and replayed, for the features that
answer about its moves (hover, completion, quick fixes).

Every answer about a move comes from the game's record read again from its
lines and replayed (:func:`view`): each move of the record, main line and
variations, with the position before it and after it, found by playing the
record's moves on a :class:`mancala_cli.Line` (the repetition history
counted). A game of more than :data:`MAX_VIEW_MOVES` moves is not replayed
(:class:`TooManyMoves`): the view's memory and time grow with the moves
(a position before and after each), and a game's text may hold a million.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import cast

from notation.coords import STYLES
from notation.grammar import HOLE
from notation.record import MoveNode, Problem, Step, walk

from .. import Game as Rules, Line, MancalaError, Move, Position, Report, check
from .analysis import Document, DocumentGame, token_end

__all__ = ["MAX_VIEW_MOVES", "TooManyMoves", "MoveInfo", "GameView", "view"]

#: The most moves (main line and variations together) of a game replayed
#: for hover, completion and quick fixes (a real game, annotated, has a few
#: hundred; what 10,000 cost: docs/performance.md, 'Language server').
MAX_VIEW_MOVES = 10_000

_MOVE = re.compile(rf"(?:{HOLE})(?:-(?:{HOLE}))?(?:x[0-9]+)?\^?")
_GLYPH = re.compile(r"[!?][!?]?")
#: Problems at a move that still let it be played (the others stop its line, as checking does).
_PLAYABLE = frozenset(("bad-mark", "bad-destination", "move-number"))


class TooManyMoves(ValueError):
    """A game of more than :data:`MAX_VIEW_MOVES` moves: not replayed."""

    def __init__(self, game: DocumentGame) -> None:
        self.game = game
        super().__init__(f"the game has {game.moves:,} moves (its variations' with them), more than the "
                         f"{MAX_VIEW_MOVES:,} the language server replays: no hover, completion or quick fix "
                         "in it")


@dataclass(eq=False)
class MoveInfo:
    """A move of a record where it is written (``line``, ``column`` 0-based;
    ``token_end`` after its marks, ``end`` after its glyph), with its ply,
    side, move number and depth (0 on the main line), the position before
    it and, when it could be played, the :class:`Move` and the position
    after it; ``prev`` is the move played before it (``None`` for the first
    move from the start), ``first`` that it opens its line of play."""

    node: MoveNode
    ply: int
    side: str
    number: int
    depth: int
    line: int
    column: int
    token_end: int
    end: int
    before: Position | None
    move: Move | None = None
    after: Position | None = None
    prev: MoveInfo | None = None
    first: bool = False
    problems: list[Problem] = field(default_factory=list)


@dataclass(eq=False)
class _Replay:
    """Where the replay of a record's walk is: ``current``, the game played
    up to there (``None`` once a move on the way cannot be played);
    ``prev``, the move played last; ``first``, whether the next move opens
    its line of play. At each move with variations, ``branches`` keeps the
    game and the move played before it (where its variations start); at
    each variation, ``stack`` keeps the line of play left (where it goes on
    after the variation); ``infos`` holds each move's :class:`MoveInfo` by
    its node's id."""

    current: Line | None
    prev: MoveInfo | None = None
    first: bool = True
    branches: dict[int, tuple[Line | None, MoveInfo | None]] = field(default_factory=dict)
    stack: list[tuple[Line | None, MoveInfo | None]] = field(default_factory=list)
    infos: dict[int, MoveInfo] = field(default_factory=dict)

    def play(self, info: MoveInfo) -> None:
        """Play the move (``info`` made before it): its :class:`Move` and
        the position after it go in ``info``, unless it cannot be played (a
        problem that stops its line, as checking does, or the rules refuse
        it): then its line of play stops there."""
        node = info.node
        self.first = False
        if node.variations:
            self.branches[id(node)] = (cast(Line, self.current.copy()) if self.current is not None else None,
                                       self.prev)
        if self.current is not None:
            if any(p.severity == "error" and p.code not in _PLAYABLE for p in info.problems):
                self.current = None
            else:
                try:
                    info.move = self.current.play(node.hole)
                    info.after = self.current.position
                except MancalaError:
                    self.current = None
        self.infos[id(node)] = info
        self.prev = info

    def begin(self, node: MoveNode) -> MoveInfo:
        """A variation of ``node`` starts, from the game before ``node``:
        ``node``'s :class:`MoveInfo` (the move the variation replaces)."""
        self.stack.append((self.current, self.prev))
        branch, self.prev = self.branches[id(node)]
        self.current = cast(Line, branch.copy()) if branch is not None else None
        self.first = True
        return self.infos[id(node)]

    def end(self, node: MoveNode) -> MoveInfo:
        """A variation of ``node`` ends, back in the line of play it left:
        ``node``'s :class:`MoveInfo`."""
        self.current, self.prev = self.stack.pop()
        self.first = False
        return self.infos[id(node)]


class GameView:
    """A game of a document read again and replayed: its record, the
    :class:`~mancala_cli.Report` of :func:`mancala_cli.check`, the rules
    (``None`` when it cannot be replayed), its start, its coordinate style,
    and every move (:class:`MoveInfo`) in the order written, with the
    walk's events (``move``, ``begin`` and ``end`` of variations)."""

    def __init__(self, doc: Document, game: DocumentGame) -> None:
        self.game = game
        self.record = doc.record_of(game)
        self.report: Report = check(self.record)
        self.rules: Rules | None = self.report.game
        self.start: Position | None = self.report.positions[0].position if self.report.positions else None
        style = self.record.tag("Coordinates")
        self.style = style if style in STYLES else "algebraic"
        self.moves: list[MoveInfo] = []
        self.events: list[tuple[str, MoveInfo]] = []
        self._replay(doc)
        self._keys = [(info.line, info.column) for info in self.moves]

    def _replay(self, doc: Document) -> None:
        """Read every move where it is written and play it, along the record's walk."""
        problems = self._problems_at_moves()
        rules, start = self.rules, self.start
        side, number = (start.side, start.move_number) if start is not None else ("S", 1)
        replay = _Replay(Line(rules, start) if rules is not None and start is not None else None)
        for step in walk(self.record, side=side, number=number):
            if step.kind == "move":
                info = self._written(doc, step, replay, problems.get((step.node.line, step.node.column), []))
                replay.play(info)
                self.moves.append(info)
                self.events.append(("move", info))
            elif step.kind == "begin":
                self.events.append(("begin", replay.begin(step.node)))
            else:
                self.events.append(("end", replay.end(step.node)))

    def _problems_at_moves(self) -> dict[tuple[int | None, int | None], list[Problem]]:
        """The report's problems at moves, by the place of the move (1-based line and column)."""
        at: dict[tuple[int | None, int | None], list[Problem]] = {}
        for problem in self.report.problems:
            if problem.ply is not None:
                at.setdefault((problem.line, problem.column), []).append(problem)
        return at

    @staticmethod
    def _written(doc: Document, step: Step, replay: _Replay, problems: list[Problem]) -> MoveInfo:
        """The move of ``step`` where it is written (its token, its glyph),
        before it is played: the position before it is the replay's."""
        node = step.node
        line0 = (node.line or 1) - 1
        column0 = (node.column or 1) - 1
        written = doc.line(line0)
        found = _MOVE.match(written, column0)
        stop = found.end() if found else token_end(written, column0)
        glyph = _GLYPH.match(written, stop)
        current = replay.current
        return MoveInfo(node, step.ply, step.side, step.number, step.depth, line0, column0, stop,
                        glyph.end() if glyph else stop, current.position if current is not None else None,
                        prev=replay.prev, first=replay.first, problems=problems)

    def move_at(self, line0: int, column0: int) -> MoveInfo | None:
        """The move whose token (glyph included) holds the place, or ends there."""
        index = bisect.bisect_right(self._keys, (line0, column0)) - 1
        if index >= 0:
            info = self.moves[index]
            if info.line == line0 and info.column <= column0 <= info.end:
                return info
        return None

    def last_move_before(self, line0: int, column0: int) -> MoveInfo | None:
        """The last move written before the place (its token starting before
        it), ``None`` when there is none."""
        index = bisect.bisect_left(self._keys, (line0, column0)) - 1
        return self.moves[index] if index >= 0 else None

    def line_after(self, info: MoveInfo | None) -> Line | None:
        """The game played from its start up to ``info`` (``None``: the start
        itself), the repetition history counted; ``None`` when a move on the
        way cannot be played."""
        if self.rules is None or self.start is None:
            return None
        path = []
        while info is not None:
            path.append(info)
            info = info.prev
        line = Line(self.rules, self.start)
        for step in reversed(path):
            if step.move is None:
                return None
            line.play(step.move.origin)
        return line


def view(doc: Document, game: DocumentGame) -> GameView:
    """The :class:`GameView` of ``game``, kept until the document changes;
    :class:`TooManyMoves` for a game of more than :data:`MAX_VIEW_MOVES` moves."""
    if game.moves > MAX_VIEW_MOVES:
        raise TooManyMoves(game)
    key = id(game)
    found = doc.views.get(key)
    if isinstance(found, GameView) and found.game is game:
        return found
    made = GameView(doc, game)
    if len(doc.views) >= 8:
        doc.views.pop(next(iter(doc.views)))
    doc.views[key] = made
    return made

