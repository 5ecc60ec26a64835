"""Replaying a record against the rules: every check of docs/notation.md,
"Checking a record".

    >>> from notation.pmn import read_game
    >>> report = replay(read_game('[Game "kingulu"]\\n\\n1. c1x5 *\\n'))
    >>> [(p.code, p.line, p.column) for p in report.problems]
    [('bad-mark', 3, 4)]

Replay walks the main line and every variation (a variation starts from the
position before the move it replaces, with the repetition history up to
there) along :func:`notation.record.walk`, without recursion, so deeply
nested records are safe.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from notation.coords import STYLES, CoordinateError, format_hole, format_move, parse_hole
from .positions import format_position, parse_position
from notation.record import SKIP, GameRecord, MoveNode, Problem, Step, Visitor, SkipType, visit

from .rules.core import Game, IllegalMove, InvalidPosition, Line, Move, Outcome, Position, Side
from .rules.registry import UnknownGame, get_game


@dataclass
class Replay:
    """What replaying one record found."""

    record: GameRecord
    game: Game | None = None
    start: Position | None = None
    problems: list[Problem] = field(default_factory=list)
    #: Main-line moves and the positions after them, as far as they could be played.
    moves: list[Move] = field(default_factory=list)
    positions: list[Position] = field(default_factory=list)
    outcome: Outcome | None = None

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
           fill_marks: bool = False, coords: str | None = None) -> Replay:
    """Replay ``record`` and collect every problem.

    ``default_game`` is used when the record has no ``Game`` tag;
    ``fill_positions`` stores the position string after each move in
    ``MoveNode.position``; ``fill_marks`` adds the outcome marks the engine
    found where the record has none; ``coords`` rewrites every move in that
    coordinate style (and the ``Coordinates`` tag).
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
    visit(record, _Walker(report, game, style, fill_positions, fill_marks, coords, start),
          side=start.side, number=start.move_number)
    _check_result(report)
    return report


def _set_coordinates_tag(record: GameRecord, coords: str) -> None:
    if coords == "algebraic" and record.tag("Coordinates") is None:
        return
    record.set_tag("Coordinates", coords)


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
        self.moves = report.moves
        self.positions = report.positions
        #: Per depth: the line being played (None once a move of it could not
        #: be played), the line before its last move (where that move's
        #: variations start; None when it has none or was not played) and the
        #: problems found on it.
        self.lines: list[Line | None] = [Line(game, start)]
        self.before: list[Line | None] = [None]
        self.found: list[list[Problem]] = [[]]
        #: The problems of the lines that ended, in the order they ended.
        self.ended: list[list[Problem]] = []

    def begin_variation(self, step: Step) -> SkipType | None:
        before = self.before[step.depth - 1]
        if before is None:
            return SKIP
        depth = step.depth
        if depth == len(self.lines):
            self.lines.append(before.copy())
            self.before.append(None)
            self.found.append([])
        else:
            self.lines[depth] = before.copy()
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
        self.before[depth] = line.copy() if node.variations else None
        played = self.play(line, step)
        if played is None:
            self.lines[depth] = None
        elif depth == 0:
            self.moves.append(played)
            self.positions.append(line.position)

    def result(self) -> None:
        report = self.report
        main = self.lines[0]
        if main is not None:
            report.outcome = main.outcome()
        if self.found[0]:
            self.ended.append(self.found[0])
        for found in reversed(self.ended):
            report.problems.extend(found)

    def locate(self, step: Step, position: Position, code: str, message: str,
               severity: str = "error", legal: list[str] | None = None) -> None:
        node = step.node
        self.found[step.depth].append(Problem(
            severity, code, message, node.line, node.column, step.ply, node.text,
            format_position(self.game, position), legal))

    def play(self, line: Line, step: Step) -> Move | None:
        """Play the move of ``step`` on ``line`` and check what it says of
        itself; ``None`` if it cannot be played."""
        node = step.node
        position = line.position
        if node.number is not None:
            self.check_number(step, position)
        board = self.game.board
        side = step.side
        try:
            origin = parse_hole(board, node.hole, self.style, side)
            destination = (parse_hole(board, node.destination, self.style, side)
                           if node.destination is not None else None)
        except CoordinateError as error:
            self.locate(step, position, "bad-hole", str(error))
            return None
        if destination is not None and not self.game.long_form_moves:
            self.locate(step, position, "bad-hole",
                        f"{node.text}: the long form origin-destination is for kimasai-klamroth only")
            return None
        try:
            move = line.play(origin)
        except IllegalMove as error:
            legal = [format_move(board, m, self.style, side) for m in self.game.legal_moves(position, history=line.history)]
            self.locate(step, position, error.rule, error.message, legal=legal)
            return None
        if ((destination is not None and destination != move.end) or node.captured not in (None, move.captured)
                or (node.reserved and not move.reserved)):
            self.check_marks(step, position, move, destination)
        if self.rewriting:
            self.rewrite(node, move, line.position, side)
        return move

    def check_number(self, step: Step, position: Position) -> None:
        node = step.node
        dots = "." if step.side == "S" else "..."
        if node.number != step.number or (node.dots or ".") != dots:
            written = f"{node.number}{node.dots or '.'}"
            self.locate(step, position, "move-number",
                        f"move number {written} does not match: this is {step.number}{dots}",
                        severity="warning")

    def check_marks(self, step: Step, position: Position, move: Move, destination: int | None) -> None:
        node = step.node
        board = self.game.board
        side = step.side
        if destination is not None and destination != move.end:
            self.locate(step, position, "bad-destination",
                        f"{node.text}: the stone on {node.hole} steps to "
                        f"{format_hole(board, move.end, self.style, side)}")
        if node.captured is not None and node.captured != move.captured:
            self.locate(step, position, "bad-mark",
                        f"{node.text}: the move takes {move.captured} "
                        f"({format_move(board, move, self.style, side)})")
        if node.reserved and not move.reserved:
            self.locate(step, position, "bad-mark",
                        f"{node.text}: the move reserves no hole ({format_move(board, move, self.style, side)})")

    def rewrite(self, node: MoveNode, move: Move, after: Position, side: Side) -> None:
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
            node.position = format_position(self.game, after)


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
