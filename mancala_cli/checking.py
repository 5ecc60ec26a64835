"""Replaying a record against the rules: every check of docs/notation.md,
"Checking a record".

    >>> from notation.pmn import read_game
    >>> report = replay(read_game('[Game "kingulu"]\\n\\n1. c1x5 *\\n'))
    >>> [(p.code, p.line, p.column) for p in report.problems]
    [('bad-mark', 3, 4)]

Replay walks the main line and every variation (a variation starts from the
position before the move it replaces, with the repetition history up to
there) without recursion, so deeply nested records are safe.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from notation.coords import STYLES, CoordinateError, format_hole, format_move, parse_hole
from .positions import format_position, parse_position
from notation.record import GameRecord, MoveNode, Problem

from .rules.core import Game, IllegalMove, InvalidPosition, Line, Move, Outcome, Position
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
    _Walker(report, game, style, fill_positions, fill_marks, coords).run(start)
    _check_result(report)
    return report


def _set_coordinates_tag(record: GameRecord, coords: str) -> None:
    if coords == "algebraic" and record.tag("Coordinates") is None:
        return
    record.set_tag("Coordinates", coords)


class _Walker:
    """Plays the main line and the variations with an explicit stack."""

    def __init__(self, report: Replay, game: Game, style: str, fill_positions: bool,
                 fill_marks: bool, coords: str | None) -> None:
        self.report = report
        self.game = game
        self.style = style
        self.fill_positions = fill_positions
        self.fill_marks = fill_marks
        self.coords = coords if coords != style else None

    def run(self, start: Position) -> None:
        report = self.report
        play = self.play
        # A frame: (line, moves, is main line); a variation's frame waits on
        # the stack while the line it leaves goes on.
        stack: list[tuple[Line, list[MoveNode], bool]] = [(Line(self.game, start), report.record.moves, True)]
        while stack:
            line, nodes, main = stack.pop()
            for node in nodes:
                if node.variations:
                    for variation in node.variations:
                        stack.append((line.copy(), variation, False))
                played = play(line, node)
                if played is None:
                    break
                if main:
                    report.moves.append(played)
                    report.positions.append(line.position)
            else:
                if main:
                    report.outcome = line.outcome()

    def locate(self, node: MoveNode, position: Position, ply: int, code: str, message: str,
               severity: str = "error", legal: list[str] | None = None) -> None:
        self.report.problems.append(Problem(
            severity, code, message, node.line, node.column, ply, node.text,
            format_position(self.game, position), legal))

    def play(self, line: Line, node: MoveNode) -> Move | None:
        game = self.game
        board = game.board
        position = line.position
        side = position.side
        ply = len(line.moves) + 1
        if node.number is not None:
            dots = "." if side == "S" else "..."
            if node.number != position.move_number or (node.dots or ".") != dots:
                written = f"{node.number}{node.dots or '.'}"
                self.locate(node, position, ply, "move-number",
                            f"move number {written} does not match: this is {position.move_number}{dots}",
                            severity="warning")
        try:
            origin = parse_hole(board, node.hole, self.style, side)
            destination = (parse_hole(board, node.destination, self.style, side)
                           if node.destination is not None else None)
        except CoordinateError as error:
            self.locate(node, position, ply, "bad-hole", str(error))
            return None
        if destination is not None and not game.long_form_moves:
            self.locate(node, position, ply, "bad-hole",
                        f"{node.text}: the long form origin-destination is for kimasai-klamroth only")
            return None
        try:
            move = line.play(origin)
        except IllegalMove as error:
            legal = [format_move(board, m, self.style, side) for m in game.legal_moves(position, history=line.history)]
            self.locate(node, position, ply, error.rule, error.message, legal=legal)
            return None
        if destination is not None and destination != move.end:
            self.locate(node, position, ply, "bad-destination",
                        f"{node.text}: the stone on {node.hole} steps to "
                        f"{format_hole(board, move.end, self.style, side)}")
        if node.captured is not None and node.captured != move.captured:
            self.locate(node, position, ply, "bad-mark",
                        f"{node.text}: the move takes {move.captured} "
                        f"({format_move(board, move, self.style, side)})")
        if node.reserved and not move.reserved:
            self.locate(node, position, ply, "bad-mark",
                        f"{node.text}: the move reserves no hole ({format_move(board, move, self.style, side)})")
        if self.fill_marks:
            if node.captured is None and move.captured:
                node.captured = move.captured
            if move.reserved:
                node.reserved = True
        if self.coords is not None:
            node.hole = format_hole(board, move.origin, self.coords, side)
            if node.destination is not None:
                node.destination = format_hole(board, move.end, self.coords, side)
        if self.fill_positions:
            node.position = format_position(game, line.position)
        return move


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
