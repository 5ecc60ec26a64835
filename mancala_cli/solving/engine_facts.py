"""Engine facts for a record's main line (``mancala annotate``).

Every position of the main line before a move is solved (:mod:`.search`)
within the limits per move; what is proven goes into the record as glyphs
and comments, which every format (PMN, JSON, XML) carries:

- the start's proven result, ``Proven: win for South`` (``… for North``,
  ``Proven: draw``), as the comment before the first move (the record's
  comment when it has no moves);
- a move that lowers the mover's proven result gets ``?`` (a win thrown to a
  draw, a draw to a loss) or ``??`` (a win to a loss), and the comment
  ``c1x5 keeps the win`` (``… keeps the draw``) naming the first legal move
  that keeps the result, written as ``mancala moves`` writes it, in the
  record's coordinate style;
- a move gets ``!`` when it is the only move, of two or more, that keeps a
  win (every other move proven to give less).

A move or start whose result the limits leave unknown is left alone. What
the record had stays: a glyph of ours is added after the record's own glyphs
(PMN then writes it as its numeric glyph, ``$2`` for ``?``, ``$4`` for
``??``, ``$1`` for ``!``), a comment of ours after the record's comment,
on a line of its own (``…advise.\\nProven: win for South``, which PMN writes
on two lines); a glyph or comment already there is not added again, so
annotating an annotated record changes nothing. Only valid records are
annotated (:func:`annotate_record` leaves the others as they are).

    >>> from notation.pmn_reader import read_game
    >>> from notation.pmn_writer import write_game
    >>> record = read_game('[Game "kingulu"]\\n[Setup "0,4,14*,0,0,1/2,0,1,2,0,0 N 6-18 11"]\\n\\n'
    ...                    '11... b2 12. b1 a2^ 13. e1x1 1-0\\n')
    >>> print(write_game(annotate_record(record).record), end="")
    [Game "kingulu"]
    [Setup "0,4,14*,0,0,1/2,0,1,2,0,0 N 6-18 11"]
    <BLANKLINE>
    {Proven: win for North} 11... b2?? {f2 keeps the win} 12. b1?
    {d1 keeps the win} 12... a2^? {f2x1 keeps the draw} 13. e1x1! 1-0
"""
from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from notation.coords import format_move
from notation.record import GameRecord, MoveNode, copy_record

from ..archives.tasks import Picked, write_picked
from ..checking import Replay, replay
from ..files.writing import GameFormat
from ..rules.board import NORTH, SOUTH, side_name
from ..rules.game import Game, Move
from ..rules.position import Position, PositionKey
from .endgame import Tablebase
from .proofs import ProofBook
from .search import Solver

__all__ = ["Limits", "Annotated", "annotate_record", "AnnotateTask", "AnnotatedPicked", "DEFAULT_SECONDS",
           "knowledge", "watch_positions"]

#: The time limit per move when none is given (seconds): a record of N
#: moves is annotated in at most about N times this.
DEFAULT_SECONDS = 1.0

#: The glyphs PMN writes as numbers when a move has one already (as in PGN).
_GLYPH_NAGS = {"!": 1, "?": 2, "??": 4}
_RANK = {"loss": -1, "draw": 0, "win": 1}


@dataclass(frozen=True)
class Limits:
    """The search limits per position: plies, positions searched, seconds
    (``None``: no such limit)."""

    depth: int | None = None
    nodes: int | None = None
    seconds: float | None = DEFAULT_SECONDS


@dataclass(slots=True)
class Annotated:
    """An annotated copy of a record (``record``) with the replay of the
    original (``report``: its problems; an invalid record is not annotated)
    and what was found: the start's result and each main-line move's
    result for its mover (``win``, ``draw``, ``loss`` or ``unknown``)."""

    record: GameRecord
    report: Replay
    start: str = "unknown"
    results: list[str] | None = None
    #: Positions solved (the start and every main-line position before a move).
    searched: int = 0
    #: Of those, the ones whose result was proven.
    proven: int = 0
    #: Glyphs and comments added to the record.
    marks: int = 0
    #: Positions visited by the searches, all told.
    nodes: int = 0


#: A callback told of each position solved: ``(positions done, positions
#: in the game, the annotation so far)``; the annotation's counts
#: (:class:`Annotated`: ``searched``, ``proven``, ``marks``, ``nodes``) are
#: the game's so far.
PositionProgress = Callable[[int, int, Annotated], None]

#: The process that set :func:`watch_positions`'s callback, and the callback.
_watcher: tuple[int, PositionProgress] | None = None


def watch_positions(callback: PositionProgress | None) -> None:
    """Tell ``callback`` of every position :class:`AnnotateTask` solves in
    this process (not in worker processes, forked or not); ``None`` stops.
    ``mancala annotate`` shows its progress line with it."""
    global _watcher
    _watcher = None if callback is None else (os.getpid(), callback)


def _watching() -> PositionProgress | None:
    watcher = _watcher
    return watcher[1] if watcher is not None and watcher[0] == os.getpid() else None


def annotate_record(record: GameRecord, default_game: str | None = None, *,
                    limits: Limits = Limits(), progress: PositionProgress | None = None,
                    tablebase: Tablebase | None = None, proofs: ProofBook | None = None) -> Annotated:
    """A copy of ``record`` with the engine's facts for its main line (the
    record is left untouched); ``default_game`` is the game of a record
    without a ``Game`` tag; ``progress`` is told of every position solved
    (see :data:`PositionProgress`). The searches ask ``tablebase``
    (:mod:`.endgame`) where it is of the record's game, and what the
    searches leave unknown is taken from ``proofs`` where they cover it
    (:class:`.proof.ProofBook`)."""
    report = replay(record, default_game, positions=True)
    twin = copy_record(record)
    annotated = Annotated(twin, report)
    if not report.valid or report.game is None or report.start is None:
        return annotated
    game = report.game
    style = record.tag("Coordinates") or "algebraic"
    before = [report.start, *report.positions]
    solver = Solver(game, tablebase=tablebase)
    history: list[PositionKey] = []
    results: list[str] = []
    total = max(len(twin.moves), 1)
    for k in range(total):
        position = before[k]
        known = None if proofs is None else proofs.proves_all(game, position)
        if known is not None:  # nothing left to search
            result, moves, best = known
        else:
            solution = solver.solve(position, depth=limits.depth, nodes=limits.nodes, seconds=limits.seconds,
                                    history=set(history))
            result, moves, best = solution.result, solution.moves, solution.best
            annotated.nodes += solution.nodes
            if proofs is not None:
                result, moves, best = proofs.fill(game, position, result, moves, best)
        annotated.searched += 1
        annotated.proven += result != "unknown"
        if k == 0:
            annotated.start = result
            if result != "unknown":
                annotated.marks += _start_comment(twin, _proven(result, position))
        if k < len(twin.moves):
            played = report.moves[k]
            mine = _result_of(moves, played)
            results.append(mine)
            annotated.marks += _mark(twin.moves[k], game, style, position, played, mine, result, moves, best)
        if game.uses_history:
            history.append(position.key())
        if progress is not None:
            progress(k + 1, total, annotated)
    annotated.results = results
    return annotated


def _proven(result: str, position: Position) -> str:
    """``Proven: win for South`` for a start whose side to move has ``result``."""
    if result == "draw":
        return "Proven: draw"
    winner = position.side if result == "win" else (NORTH if position.side == SOUTH else SOUTH)
    return f"Proven: win for {side_name(winner)}"


def _result_of(moves: list[tuple[Move, str]], played: Move) -> str:
    for move, result in moves:
        if move.origin == played.origin and move.end == played.end:
            return result
    return "unknown"


def _mark(node: MoveNode, game: Game, style: str, position: Position, played: Move, mine: str, best: str,
          moves: list[tuple[Move, str]], keeping: list[Move]) -> int:
    """The glyph and comment of one main-line move; how many were added."""
    if best == "unknown" or mine == "unknown":
        return 0
    drop = _RANK[best] - _RANK[mine]
    if drop > 0 and keeping:
        token = format_move(game.board, keeping[0], style, position.side)
        return _add_glyph(node, "??" if drop == 2 else "?") + \
            _add_comment(node, "comment", f"{token} keeps the {best}")
    elif best == mine == "win" and len(moves) > 1 and all(
            result in ("draw", "loss") for move, result in moves
            if (move.origin, move.end) != (played.origin, played.end)):
        return _add_glyph(node, "!")
    return 0


def _add_glyph(node: MoveNode, glyph: str) -> int:
    if glyph in node.glyphs or _GLYPH_NAGS[glyph] in node.nags:
        return 0
    node.glyphs.append(glyph)
    return 1


def _holds(comment: str | None, text: str) -> bool:
    """Whether ``comment`` says ``text`` already, whatever white space is
    between the words and around them: on a line of its own (as this tool
    adds it), or within a line (a space after the record's own text), or
    with a line break where a comment written by hand was broken."""
    return comment is not None and text in " ".join(comment.split())


def _add_comment(node: MoveNode | GameRecord, name: str, text: str) -> int:
    """``text`` as the comment ``name`` of ``node``, or on a line of its own
    after the comment there (PMN writes it on its own line: a comment holds
    one text per place, and ``{a} {b}`` reads back as ``a b``)."""
    old = getattr(node, name)
    if old is None:
        setattr(node, name, text)
    elif not _holds(old, text):
        setattr(node, name, f"{old}\n{text}")
    else:
        return 0
    return 1


def _start_comment(record: GameRecord, text: str) -> int:
    if record.moves:
        if not _holds(record.comment, text):
            return _add_comment(record.moves[0], "before", text)
        return 0
    return _add_comment(record, "comment", text)


@dataclass(slots=True)
class AnnotatedPicked(Picked):
    """One game as :class:`AnnotateTask` wrote it, with what its annotation
    found (see :class:`Annotated`); all zero for an invalid game."""

    searched: int = 0
    proven: int = 0
    marks: int = 0
    nodes: int = 0


@dataclass(frozen=True)
class AnnotateTask:
    """``mancala annotate`` on one record (plain data, sent to the worker
    processes): the record annotated, or as it was when it is invalid,
    written as ``mancala convert`` writes it in ``target``, with every
    problem ``validate`` finds in it."""

    target: str = "pmn"
    limits: Limits = Limits()
    default_game: str | None = None
    #: The endgame tables the searches ask (a file, :mod:`.endgame`).
    tablebase: str | None = None
    #: Proof files (:class:`.proofs.ProofBook`) that give what the searches leave unknown.
    proofs: tuple[str, ...] = ()

    def process(self, record: GameRecord) -> Picked:
        """``record`` annotated in this process (a worker's, or the
        command's own): its problems, its figures for the summary and the
        game written in :attr:`target`."""
        tablebase, proofs = knowledge(self.tablebase, self.proofs)
        done = annotate_record(record, self.default_game, limits=self.limits, progress=_watching(),
                               tablebase=tablebase, proofs=proofs)
        picked = AnnotatedPicked(True, problems=list(done.report.problems), plies=len(record.moves),
                                 searched=done.searched, proven=done.proven, marks=done.marks, nodes=done.nodes)
        converted = GameFormat(self.target).replay(done.record, self.default_game)
        write_picked(picked, done.record, converted, self.target)
        return picked


#: The tables and proofs read in this process, by their files.
_read: dict[tuple[str | None, tuple[str, ...]], tuple[Tablebase | None, ProofBook | None]] = {}


def knowledge(tablebase: str | None, proofs: tuple[str, ...]) -> tuple[Tablebase | None, ProofBook | None]:
    """The table and the proofs in these files, read once per process
    (:class:`OSError` for a file that cannot be read)."""
    key = (tablebase, proofs)
    known = _read.get(key)
    if known is None:
        known = _read[key] = (None if tablebase is None else Tablebase.read(tablebase),
                              ProofBook.read(list(proofs)) if proofs else None)
    return known
