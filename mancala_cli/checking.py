"""Replaying a record against the rules: every check of docs/notation.md,
"Checking a record".

    >>> from notation.pmn_reader import read_game
    >>> report = replay(read_game('[Game "kingulu"]\\n\\n1. c1x5 *\\n'))
    >>> [(p.code, p.line, p.column) for p in report.problems]
    [('bad-mark', 3, 4)]

Replay walks the main line and every variation (a variation starts from the
position before the move it replaces, with the repetition history up to
there) along :func:`notation.record.walk`, without recursion, so deeply
nested records are safe; a record without variations is played move after
move without the walk. Each line is played in place on one
:class:`~mancala_cli.rules.position.MutablePosition` (:meth:`Game.move
<mancala_cli.rules.game.Game.move>`): no position is built per move unless
``positions`` asks for them.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from operator import attrgetter

from notation.coords import STYLES, format_hole, format_move, hole_table, move_label, parse_hole
from notation.notation_errors import CoordinateError
from notation.position_strings import format_position
from notation.record import SKIP, GameRecord, MoveNode, Problem, SkipType, Step, Visitor, visit
from notation.tokenizer import kernel as _tokenizer

from .positions import parse_position
from .rules.board import Side
from .rules.game import Game, IllegalMove, InvalidPosition, Move, Outcome
from .rules.position import MutablePosition, Position, PositionKey
from .rules.registry import UnknownGame, get_game


@dataclass(slots=True)
class Replay:
    """What replaying one record found (``_positions``: worked out when
    first asked for, :attr:`positions`)."""

    record: GameRecord
    game: Game | None = None
    start: Position | None = None
    problems: list[Problem] = field(default_factory=list)
    #: Main-line moves, as far as they could be played.
    moves: list[Move] = field(default_factory=list)
    outcome: Outcome | None = None
    _positions: list[Position] | None = field(default=None, repr=False, compare=False)

    @property
    def positions(self) -> list[Position]:
        """The position after each main-line move that could be played
        (worked out when first asked: checking alone needs none of them)."""
        if self._positions is None:
            positions: list[Position] = []
            if self.game is not None and self.start is not None:
                play = self.game.move
                now = MutablePosition(self.start)
                for move in self.moves:
                    play(now, move.origin)
                    positions.append(now.frozen())
            self._positions = positions
        return self._positions

    @property
    def stopped_by(self) -> Problem:
        """The first error found: for a record that could not be replayed at
        all (no game, a bad ``Setup``), what stopped it (replay reports one)."""
        return next(problem for problem in self.problems if problem.severity == "error")

    @property
    def plies(self) -> int:
        return len(self.record.moves)

    @property
    def errors(self) -> int:
        return sum(p.severity == "error" for p in self.problems)

    @property
    def warnings(self) -> int:
        return sum(p.severity == "warning" for p in self.problems)

    @property
    def valid(self) -> bool:
        return self.errors == 0

    @property
    def result(self) -> str:
        """The engine's result where it ended the game, else the record's."""
        if self.outcome is not None:
            return self.outcome.result
        return self.record.result or self.record.tag("Result") or "*"


def replay(record: GameRecord, default_game: str | None = None, *, fill_positions: bool = False,
           fill_marks: bool = False, coords: str | None = None, positions: bool = False) -> Replay:
    """Replay ``record`` and collect every problem.

    ``default_game`` is used when the record has no ``Game`` tag;
    ``fill_positions`` stores the position string after each move in
    ``MoveNode.position``; ``fill_marks`` adds the outcome marks the engine
    found where the record has none; ``coords`` rewrites every move in that
    coordinate style (and the ``Coordinates`` tag). ``positions`` keeps
    :attr:`Replay.positions` on the way (else they are worked out when first
    asked for, playing the moves again).
    """
    report = Replay(record, problems=list(record.problems))
    problems = report.problems
    game_id = record.tag("Game") or default_game or record.default_game
    where = record.tag_at.get("Game", (record.line, 1))
    if game_id is None:
        problems.append(Problem("error", "unknown-game", "no Game tag",
                                record.line, 1))
        return report
    try:
        game = get_game(game_id)
    except UnknownGame as error:
        problems.append(Problem("error", "unknown-game", str(error), *where))
        return report
    report.game = game
    style = record.tag("Coordinates") or "algebraic"
    if style not in STYLES:
        at = record.tag_at.get("Coordinates", (record.line, 1))
        problems.append(Problem("error", "bad-tag", f"unknown Coordinates {style!r} "
                                f"(algebraic, numeric or relative)", *at))
        return report
    setup = record.tag("Setup")
    if setup is not None:
        try:
            start = parse_position(game, setup)
        except InvalidPosition as error:
            at = record.tag_at.get("Setup", (record.line, 1))
            problems.append(Problem("error", "bad-setup", f"bad Setup position: {error}", *at))
            return report
    else:
        start = game.start()
    report.start = start
    if coords is not None and coords != style:
        _set_coordinates_tag(record, coords)
    if positions:
        report._positions = []
    walker = _Walker(report, game, style, fill_positions, fill_marks, coords, start)
    if any(map(_VARIATIONS, record.moves)):
        visit(record, walker, side=start.side, number=start.move_number)
    else:
        walker.main_line(record.moves, start.side, start.move_number)
    _check_result(report)
    return report


_VARIATIONS = attrgetter("variations")
#: The native tokenizer's reading of a run of plain moves as hole numbers, or None.
_PLAIN_RUN = None if _tokenizer is None else _tokenizer.plain_run
#: The native kernel playing a run of plain moves in place
#: (:meth:`~mancala_cli.rules.native._Native.play_line`): how many it played,
#: and whether the marks of the last one differ from what it did.
_PlayLine = Callable[[MutablePosition, bytes, bytes, set[PositionKey], list[Move]], tuple[int, int]]
#: The dots after a move number, by the side to move.
_DOTS: dict[str, str] = {"S": ".", "N": "..."}


def _after(side: Side, number: int, plies: int) -> tuple[Side, int]:
    """The side to move and the move number, ``plies`` plies after ``side`` at ``number``."""
    if side == "S":
        return ("N" if plies % 2 else "S"), number + plies // 2
    return ("S" if plies % 2 else "N"), number + (plies + 1) // 2


def _set_coordinates_tag(record: GameRecord, coords: str) -> None:
    if coords == "algebraic" and record.tag("Coordinates") is None:
        return
    record.set_tag("Coordinates", coords)


class _Line:
    """A line of play replayed in place: one :class:`MutablePosition` for the
    whole line, no :class:`Position` per move. The position before a move is
    worked out only when a problem names it, by playing the line's moves
    again from the last position worked out (so each move is played again
    at most once, however many problems the line has)."""

    __slots__ = ("game", "now", "history", "moves", "start", "anchor", "anchored")

    def __init__(self, game: Game, start: Position, history: set[PositionKey], moves: list[Move]) -> None:
        self.game = game
        self.now = MutablePosition(start)
        #: The :meth:`Position.key` of every position before the current one
        #: (for the games that look at earlier positions).
        self.history = history
        self.moves = moves
        self.start = start
        #: The position after the first ``anchored`` moves of the line.
        self.anchor = start
        self.anchored = 0

    def play(self, origin: int) -> Move:
        """Play ``origin``; raises :class:`IllegalMove` (the line is then spoilt)."""
        now = self.now
        if self.game.uses_history:
            key = now.key()
            move = self.game.move(now, origin, history=self.history)
            self.history.add(key)
        else:
            move = self.game.move(now, origin, history=self.history)
        self.moves.append(move)
        return move

    def current(self) -> Position:
        """The position now (the line is not spoilt)."""
        position = self.anchor = self.now.frozen()
        self.anchored = len(self.moves)
        return position

    def after(self, count: int) -> Position:
        """The position after the first ``count`` moves of the line."""
        if count < self.anchored:
            self.anchor, self.anchored = self.start, 0
        if count > self.anchored:
            play = self.game.move
            now = MutablePosition(self.anchor)
            for move in self.moves[self.anchored:count]:
                play(now, move.origin)
            self.anchor, self.anchored = now.frozen(), count
        return self.anchor

    def branch(self) -> tuple[Position, set[PositionKey]]:
        """Where a variation of the next move starts: the position now and the history."""
        return self.current(), set(self.history)


class _Walker(Visitor[None]):
    """Plays the main line and every variation along :func:`~notation.record.walk`.

    A move that cannot be played ends its line: the moves after it and
    their variations are not played, the variations of the move itself are.
    Problems are kept per line and reported line by line: a whole line, then
    its variations, the last one first (the lines in the reverse order of
    their ends in the walk).
    """

    def __init__(self, report: Replay, game: Game, style: str, fill_positions: bool,
                 fill_marks: bool, coords: str | None, start: Position) -> None:
        self.report = report
        self.game = game
        self.style = style
        self.fill_positions = fill_positions
        self.fill_marks = fill_marks
        self.coords = coords if coords != style else None
        self.rewriting = fill_marks or fill_positions or self.coords is not None
        board = game.board
        #: The hole each well-written token names, per side to move.
        self.holes = {side: hole_table(board, style, side) for side in ("S", "N")}
        #: Per depth: the line being played (None once a move of it could not
        #: be played), where the variations of its last move start (None when
        #: it has none or was not played) and the problems found on it.
        self.lines: list[_Line | None] = [_Line(game, start, set(), report.moves)]
        self.before: list[tuple[Position, set[PositionKey]] | None] = [None]
        self.found: list[list[Problem]] = [[]]
        #: The problems of the lines that ended, in the order they ended.
        self.ended: list[list[Problem]] = []

    def main_line(self, moves: list[MoveNode], side: Side, number: int) -> None:
        """A record without variations: its moves one after the other, as
        the walk would give them, then :meth:`result`. With the native
        tokenizer and rules, runs of plain moves go to the kernel whole
        (:meth:`play_runs`); else every move is played by :meth:`play_moves`."""
        line = self.lines[0]
        assert line is not None
        play_line = self.kernel_player()
        if play_line is None:
            self.play_moves(line, moves, 0, len(moves), 1, side, number)
        else:
            self.play_runs(line, moves, play_line, side, number)
        self.result()

    def kernel_player(self) -> _PlayLine | None:
        """The kernel's :meth:`~mancala_cli.rules.native._Native.play_line`,
        where the main line's plain moves can be played by it: with the
        native tokenizer and rules, nothing to rewrite, no positions to keep."""
        if _PLAIN_RUN is None or self.rewriting or self.report._positions is not None:
            return None
        if not getattr(self.game, "plays_lines", False):
            return None
        play_line: _PlayLine = getattr(self.game, "play_line")
        return play_line

    def play_runs(self, line: _Line, moves: list[MoveNode], play_line: _PlayLine, side: Side, number: int) -> None:
        """:meth:`main_line` with the native tokenizer and rules: each run of
        plain moves (as :meth:`play_moves` has them) is handed to the kernel
        whole; it stops where a move needs more than that (a mark to check,
        an end test or a rule to name), and :meth:`play_moves` plays that
        move."""
        plain_run = _PLAIN_RUN
        assert plain_run is not None
        south, north = self.holes["S"], self.holes["N"]
        ply = 1
        i, count = 0, len(moves)
        while i < count:
            origins, marks, plain_moves = plain_run(moves, i, south, north, side == "N", number)
            played = marked = 0
            if plain_moves:
                played, marked = play_line(line.now, origins, marks, line.history, line.moves)
            if played:
                i += played
                ply += played
                side, number = _after(side, number, played)
                if marked:  # the last move's marks differ from what it did
                    self.check_marks(line, moves[i - 1], ply - 1, "N" if side == "S" else "S", 0,
                                     line.moves[-1], None)
                continue
            place = self.play_moves(line, moves, i, i + 1, ply, side, number)
            if place is None:
                return
            i += 1
            ply, side, number = place

    def play_moves(self, line: _Line, moves: list[MoveNode], start: int, stop: int, ply: int, side: Side,
                   number: int) -> tuple[int, Side, int] | None:
        """Play ``moves[start:stop]`` of the main line, the first of them ply
        ``ply``, by ``side``, numbered ``number``; return the ply, side and
        number of the move after them, or None (and the main line ends) if
        one cannot be played. A plain move (a hole written as
        :func:`~notation.coords.hole_table` has it, its number right or
        none, nothing to rewrite) is played here as :meth:`play` and
        :meth:`_Line.play` would; any other goes through them."""
        game = self.game
        move_in_place, keep = game.move, game.uses_history
        now, history, append = line.now, line.history, line.moves.append
        holes, plain = self.holes, not self.rewriting
        kept = self.report._positions
        for index in range(start, stop):
            node = moves[index]
            origin = holes[side].get(node.hole)
            if (origin is None or not plain or node.destination is not None
                    or (node.number is not None and (node.number != number or node.dots != _DOTS[side]))):
                if self.play(line, node, ply, side, number, 0) is None:
                    self.lines[0] = None
                    return None
            else:
                try:
                    if keep:
                        key = now.key()
                        move = move_in_place(now, origin, history=history)
                        history.add(key)
                    else:
                        move = move_in_place(now, origin, history=history)
                except IllegalMove:
                    self.illegal(line, node, ply, side, 0, origin)
                    self.lines[0] = None
                    return None
                append(move)
                if (node.captured is not None and node.captured != move.captured) or (
                        node.reserved and not move.reserved):
                    self.check_marks(line, node, ply, side, 0, move, None)
            if kept is not None:
                kept.append(now.frozen())
            ply += 1
            if side == "N":
                number += 1
                side = "S"
            else:
                side = "N"
        return ply, side, number

    def begin_variation(self, step: Step) -> SkipType | None:
        before = self.before[step.depth - 1]
        if before is None:
            return SKIP
        depth = step.depth
        start, history = before
        line = _Line(self.game, start, set(history), [])
        if depth == len(self.lines):
            self.lines.append(line)
            self.before.append(None)
            self.found.append([])
        else:
            self.lines[depth] = line
            self.before[depth] = None
        return None

    def end_variation(self, step: Step) -> None:
        found = self.found[step.depth]
        if found:
            self.ended.append(found)
            self.found[step.depth] = []

    def visit_move(self, step: Step) -> None:
        depth = step.depth
        line = self.lines[depth]
        if line is None:
            self.before[depth] = None
            return
        node = step.node
        self.before[depth] = line.branch() if node.variations else None
        if self.play(line, node, step.ply, step.side, step.number, depth) is None:
            self.lines[depth] = None
        elif depth == 0 and self.report._positions is not None:
            self.report._positions.append(line.now.frozen())

    def result(self) -> None:
        report = self.report
        main = self.lines[0]
        if main is not None:
            # The rules' outcome, with the legal moves tried only until one is
            # found (the game goes on) instead of all of them.
            game, position, history = self.game, main.current(), main.history
            if next(game.successors(position, history=history), None) is None:
                report.outcome = game.outcome(position, history=history, moves=[])
        if self.found[0]:
            self.ended.append(self.found[0])
        for found in reversed(self.ended):
            report.problems.extend(found)

    def locate(self, node: MoveNode, ply: int, depth: int, position: Position, code: str, message: str,
               severity: str = "error", legal: list[str] | None = None) -> None:
        self.found[depth].append(Problem(
            severity, code, message, node.line, node.column, ply, node.text,
            format_position(self.game, position), legal))

    def play(self, line: _Line, node: MoveNode, ply: int, side: Side, number: int, depth: int) -> Move | None:
        """Play ``node`` on ``line`` and check what it says of itself;
        ``None`` if it cannot be played."""
        if node.number is not None and (node.number != number or node.dots != ("." if side == "S" else "...")):
            self.check_number(line, node, ply, side, number, depth)
        origin = self.holes[side].get(node.hole)
        if origin is None or node.destination is not None:
            return self.play_written(line, node, ply, side, depth)
        try:
            move = line.play(origin)
        except IllegalMove:
            self.illegal(line, node, ply, side, depth, origin)
            return None
        if (node.captured is not None and node.captured != move.captured) or (node.reserved and not move.reserved):
            self.check_marks(line, node, ply, side, depth, move, None)
        if self.rewriting:
            self.rewrite(line, node, move, side)
        return move

    def play_written(self, line: _Line, node: MoveNode, ply: int, side: Side, depth: int) -> Move | None:
        """:meth:`play` for a move whose holes are not a plain origin: a
        long-form move, another way of writing a hole, or no hole at all."""
        board = self.game.board
        try:
            origin = parse_hole(board, node.hole, self.style, side)
            destination = (parse_hole(board, node.destination, self.style, side)
                           if node.destination is not None else None)
        except CoordinateError as error:
            self.locate(node, ply, depth, line.current(), "bad-hole", str(error))
            return None
        if destination is not None and not self.game.long_form_moves:
            self.locate(node, ply, depth, line.current(), "bad-hole",
                        f"{node.text}: the long form origin-destination is for kimasai-klamroth only")
            return None
        try:
            move = line.play(origin)
        except IllegalMove:
            self.illegal(line, node, ply, side, depth, origin)
            return None
        if ((destination is not None and destination != move.end) or node.captured not in (None, move.captured)
                or (node.reserved and not move.reserved)):
            self.check_marks(line, node, ply, side, depth, move, destination)
        if self.rewriting:
            self.rewrite(line, node, move, side)
        return move

    def illegal(self, line: _Line, node: MoveNode, ply: int, side: Side, depth: int, origin: int) -> None:
        """The move of ``node`` cannot be played: the error :meth:`Game.play`
        gives for it, with the position before it and the legal moves there."""
        game = self.game
        position = line.after(len(line.moves))
        try:
            game.play(position, origin, history=line.history)
        except IllegalMove as error:
            legal = [format_move(game.board, m, self.style, side)
                     for m in game.legal_moves(position, history=line.history)]
            self.locate(node, ply, depth, position, error.rule, error.message, legal=legal)
        else:  # (the engine plays in place what it plays on a position)
            raise AssertionError(f"{node.text}: played on a position, not in place")

    def check_number(self, line: _Line, node: MoveNode, ply: int, side: Side, number: int, depth: int) -> None:
        label = move_label(number, side)
        written = f"{node.number}{node.dots or '.'}"
        if written != label:
            self.locate(node, ply, depth, line.current(), "move-number",
                        f"move number {written} does not match: this is {label}",
                        severity="warning")

    def check_marks(self, line: _Line, node: MoveNode, ply: int, side: Side, depth: int, move: Move,
                    destination: int | None) -> None:
        board = self.game.board
        position = line.after(len(line.moves) - 1)
        if destination is not None and destination != move.end:
            self.locate(node, ply, depth, position, "bad-destination",
                        f"{node.text}: the stone on {node.hole} steps to "
                        f"{format_hole(board, move.end, self.style, side)}")
        if node.captured is not None and node.captured != move.captured:
            self.locate(node, ply, depth, position, "bad-mark",
                        f"{node.text}: the move takes {move.captured} "
                        f"({format_move(board, move, self.style, side)})")
        if node.reserved and not move.reserved:
            self.locate(node, ply, depth, position, "bad-mark",
                        f"{node.text}: the move reserves no hole ({format_move(board, move, self.style, side)})")

    def rewrite(self, line: _Line, node: MoveNode, move: Move, side: Side) -> None:
        """Fill the node's marks and position, and rewrite its coordinates, as asked."""
        if self.fill_marks:
            if node.captured is None and move.captured:
                node.captured = move.captured
            if move.reserved:
                node.reserved = True
        if self.coords is not None:
            board = self.game.board
            node.hole = format_hole(board, move.origin, self.coords, side)
            if node.destination is not None:
                node.destination = format_hole(board, move.end, self.coords, side)
        if self.fill_positions:
            node.position = format_position(self.game, line.current())


def _check_result(report: Replay) -> None:
    record = report.record
    problems = report.problems
    token = record.result
    tag = record.tag("Result")
    token_at = record.result_at or (record.line, 1)
    tag_at = record.tag_at.get("Result", (record.line, 1))
    if token is not None and tag is not None and token != tag:
        problems.append(Problem("error", "result-mismatch",
                                f"result token {token} differs from the Result tag {tag}", *token_at))
    outcome = report.outcome
    if outcome is None:
        return
    said = f"the game ended: {outcome.result} ({outcome.reason}: {outcome.message})"
    if token is not None and token != outcome.result:
        problems.append(Problem("error", "result-mismatch", f"result token {token}, but {said}", *token_at))
    if tag is not None and tag != outcome.result and tag != token:
        problems.append(Problem("error", "result-mismatch", f"Result tag {tag}, but {said}", *tag_at))
    score = record.tag("Score")
    if score is not None and outcome.score is not None:
        expected = f"{outcome.score[0]}-{outcome.score[1]}"
        if score != expected:
            problems.append(Problem("error", "score-mismatch",
                                    f"Score {score}, but KG-7 scores the final position {expected}",
                                    *record.tag_at.get("Score", (record.line, 1))))
