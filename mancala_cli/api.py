"""The library: read records, check them against the rules, write them in
any format and draw their positions; play moves by their tokens. See
``docs/library.md``.

    >>> import mancala_cli as mancala
    >>> record = next(mancala.read("examples/kingulu-village-match.pmn"))
    >>> report = mancala.check(record)
    >>> report.valid, report.plies, report.result, report.reason
    (True, 23, '1-0', 'KG-7')
    >>> str(report.final)
    '0,0,0,8*,0,12*/0,0,0,0,0,3 N 12-13 12'
"""
from __future__ import annotations

import dataclasses
import io
import os
from collections.abc import Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any

from notation.coords import STYLES, format_move
from notation.errors import XMLArchiveError
from notation.record import GameRecord, Problem, copy_record

from .drawing import png, sheet, svg, text
from .errors import UnreadableInput, bad_archive
from .positions import format_position, parse_position
from .rules import core
from .rules.core import Game, Move, Outcome, Position, PositionKey
from .rules.registry import get_game
from .solving.search import DEFAULT_MEMORY, DEFAULT_SECONDS
from .tokens import move_token, play_token

if TYPE_CHECKING:
    from .solving import solution as found_solution
    from .solving.proofs import ProofBook
    from .solving.solution import Progress
    from .solving.tablebase import Tablebase

__all__ = ["read", "write", "check", "annotate", "solve", "svg", "png", "sheet", "text", "page", "Report",
           "GamePosition", "Line", "MoveToken", "Solution", "copy_record"]

FORMATS = ("pmn", "json", "xml")


# -- positions with their game ------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class GamePosition:
    """A position together with its game: ``str()`` gives its position
    string (as ``board.fen()`` does in chess) and Jupyter shows it as a
    diagram.

        >>> from mancala_cli import GamePosition, get_game
        >>> start = GamePosition(get_game("kingulu"), get_game("kingulu").start())
        >>> str(start), start.side
        ('4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1', 'S')
    """

    game: Game
    position: Position

    @classmethod
    def from_string(cls, game: Game | str, text: str) -> GamePosition:
        """The position of ``game`` that the position string ``text`` names."""
        rules = _rules(game)
        return cls(rules, parse_position(rules, text))

    def __str__(self) -> str:
        return format_position(self.game, self.position)

    def __repr__(self) -> str:
        return f"GamePosition.from_string({self.game.id!r}, {str(self)!r})"

    def __getattr__(self, name: str) -> Any:  # holes, side, banks, move_number, reserved …
        return getattr(self.position, name)

    def outcome(self) -> Outcome | None:
        """The result if the rules end the game here (without history), else ``None``."""
        return self.game.outcome(self.position)

    def legal_moves(self, *, coords: str = "algebraic") -> list[MoveToken]:
        """The legal moves here, as tokens in ``coords`` (``algebraic``,
        ``numeric`` or ``relative``) with their outcome marks, as a record
        writes them; each token's :attr:`~MoveToken.move` is the
        :class:`Move`. No history is counted (a :class:`Line` counts its own).

            >>> from mancala_cli import GamePosition
            >>> start = GamePosition.from_string("kingulu", "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1")
            >>> start.legal_moves()
            ['c1x6', 'd1x6', 'e1', 'f1']
            >>> start.legal_moves(coords="relative")[0].move
            Move(origin=2, end=4, captured=6, reserved=False, laps=5)
        """
        _check_coords(coords)
        return [MoveToken.of(self.game, self.position, move, coords)
                for move in self.game.legal_moves(self.position)]

    def play(self, move: str | int | Move, /) -> GamePosition:
        """The position after ``move``: a token in any coordinate style (as
        :meth:`Line.play` takes it: ``c1``, ``S3``, ``c1x6``; marks that are
        given must be the move's), a hole index, or a :class:`Move`. The
        position itself is a value and stays as it was (as chess's
        ``board.push`` would on a copy); play through a :class:`Line` to keep
        the repetition history. Raises :class:`BadMove`,
        :class:`BadCoordinate` or :class:`IllegalMove`.

            >>> from mancala_cli import GamePosition
            >>> start = GamePosition.from_string("kingulu", "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1")
            >>> after = start.play("c1x6")
            >>> str(after), str(start.play(start.legal_moves()[0]))
            ('1,0,6,6,0,1/6,6,2,7,0,6 N 7-0 1', '1,0,6,6,0,1/6,6,2,7,0,6 N 7-0 1')
            >>> str(after.play("d2").play("S1"))
            '4,0,10,1,3,4/0,0,2,10,3,2 N 9-0 2'
        """
        line = Line(self.game, self.position)
        line.play(move.origin if isinstance(move, Move) else move)
        return GamePosition(self.game, line.position)

    def solve(self, *, depth: int | None = None, nodes: int | None = None, time: float | None = DEFAULT_SECONDS,
              memory: int = DEFAULT_MEMORY, progress: Progress | None = None,
              tablebase: Tablebase | str | os.PathLike[str] | None = None,
              table: str | os.PathLike[str] | None = None,
              proofs: ProofBook | Iterable[str | os.PathLike[str]] | None = None) -> Solution:
        """:func:`solve` of this position, with the same keyword-only options.

            >>> from mancala_cli import GamePosition
            >>> ending = GamePosition.from_string("kingulu", "0,0,0,0,3,2/1,0,0,0,0,2 S 20-20 12")
            >>> solution = ending.solve(nodes=10_000)
            >>> solution.result, solution.moves, solution.best
            ('win', [('a1', 'loss'), ('f1^', 'win')], ['f1^'])
            >>> str(ending.play(solution.best[0]))
            '0,0,0,0,5*,2/1,0,0,0,0,0 N 20-20 12'
        """
        return solve(self, depth=depth, nodes=nodes, time=time, memory=memory, progress=progress,
                     tablebase=tablebase, table=table, proofs=proofs)

    def _repr_svg_(self) -> str:
        return svg(self)


class MoveToken(str):
    """A move as a record writes it: a ``str``, the token with its outcome
    marks (``c1x6``, ``f1^``; ``b2-a2x2`` in Klamroth's long form), that
    compares, prints and serialises as that text and can be given back to
    :meth:`Line.play` or :meth:`GamePosition.play`. :attr:`move` is the
    structured :class:`Move` (``origin``, ``end``, ``captured``,
    ``reserved``, ``laps``) and :attr:`coords` the coordinate style.

        >>> from mancala_cli import GamePosition
        >>> token = GamePosition.from_string("kingulu", "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1").legal_moves()[0]
        >>> token, token.move.captured, token == "c1x6", type(str(token)) is str
        ('c1x6', 6, True, True)
    """

    move: Move
    coords: str

    @classmethod
    def of(cls, game: Game, position: Position, move: Move, coords: str = "algebraic") -> MoveToken:
        """``move``, played by the side to move in ``position``, as a token in ``coords``."""
        token = cls(format_move(game.board, move, coords, position.side))
        token.move = move
        token.coords = coords
        return token


class Solution:
    """What :func:`solve` finds for the side to move, its moves as tokens.

    ``result`` is ``win``, ``draw``, ``loss`` or ``unknown``; ``bounds`` the
    interval that holds the true result (``("draw", "win")``: at least a
    draw); ``moves`` every legal move as a :class:`MoveToken` (the token,
    with the :class:`Move` in its ``move``) with its result for the mover,
    and ``move_bounds`` their intervals in the same order; ``best`` the
    tokens that achieve the proven result (none while it is unknown);
    ``depth`` the moves searched ahead, ``nodes`` the positions searched,
    ``seconds`` the time taken; ``stopped`` what stopped the search before
    its end (``depth``, ``nodes``, ``time`` or ``interrupted``, or ``None``)
    and ``complete`` that it ran to its end; ``outcome`` the rules' end of
    the game for a finished position; ``position`` the
    :class:`GamePosition` solved. ``found`` is the search's own
    :class:`mancala_cli.solving.solution.Solution` (its moves as :class:`Move`
    objects), as :class:`~mancala_cli.solving.search.Solver` gives it.
    """

    def __init__(self, position: GamePosition, found: found_solution.Solution) -> None:
        self.position = position
        self.found = found
        game, where = position.game, position.position
        tokens = {move: MoveToken.of(game, where, move) for move, _ in found.moves}
        for move in found.best:
            tokens.setdefault(move, MoveToken.of(game, where, move))
        self.moves: list[tuple[MoveToken, str]] = [(tokens[move], result) for move, result in found.moves]
        self.best: list[MoveToken] = [tokens[move] for move in found.best]
        self.result: str = found.result
        self.bounds: tuple[str, str] = found.bounds
        self.move_bounds: list[tuple[str, str]] = found.move_bounds
        self.depth: int = found.depth
        self.nodes: int = found.nodes
        self.seconds: float = found.seconds
        self.stopped: str | None = found.stopped
        self.outcome: Outcome | None = found.outcome

    @property
    def complete(self) -> bool:
        """Whether the search ran to its end (no limit stopped it)."""
        return self.stopped is None

    def __repr__(self) -> str:
        return repr(self.found)


def _check_coords(coords: str) -> None:
    if coords not in STYLES:
        raise ValueError(f"coords must be one of {', '.join(STYLES)}, not {coords!r}")


def _rules(game: Game | str) -> Game:
    return get_game(game) if isinstance(game, str) else game


def _position(position: Position | GamePosition | str, game: Game) -> Position:
    if isinstance(position, GamePosition):
        return position.position
    if isinstance(position, str):
        return parse_position(game, position)
    return position


# -- diagrams (mancala_cli.drawing) ---------------------------------------------------

def page(records: GameRecord | Iterable[GameRecord], target: str | os.PathLike[str] | IO[Any] | None = None,
         *, game: str | None = None, flip: bool = False) -> str | None:
    """A self-contained HTML page to play through ``records`` (several get a
    game chooser), as ``mancala render --format html`` writes it: the tags,
    the diagram, the move list with comments, glyphs and variations, buttons
    and arrow keys, the position string. Every position, variations too, is
    worked out here by the engine; the page's script only shows them. A
    record with an illegal move shows the moves up to it and its problems; a
    record that cannot be replayed at all (no game, a bad ``Setup``) is left
    out, and when none is left :class:`ValueError` names the first one's
    error. ``game`` is the game of records without a ``Game`` tag; ``flip``
    puts North at the bottom. Returns the page when ``target`` is ``None``;
    otherwise writes it to a path (atomically) or a file object.

        >>> from mancala_cli import page, read
        >>> html = page(read('[Game "kingulu"]\\n\\n1. c1x6 (1. d1x6) d2 *\\n'))
        >>> html.startswith("<!DOCTYPE html>"), html.count('class="move"')
        (True, 3)
    """
    from .diagrams.page import game_page

    if game is not None:
        get_game(game)
    built = game_page([records] if isinstance(records, GameRecord) else records, default_game=game, flip=flip)
    if not built.games:
        first = built.unplayable[0].message if built.unplayable else "no record"
        raise ValueError(f"no record can be drawn: {first}")
    if target is None:
        return built.html
    _deliver(built.html.encode("utf-8"), target)
    return None


# -- playing moves by their tokens ------------------------------------------------------

class Line(core.GameInProgress):
    """A game in progress that plays moves by their tokens, as chess's
    ``board.push_san`` does; the repetition history is the line's own.

        >>> from mancala_cli import Line, get_game
        >>> line = Line(get_game("kingulu"))
        >>> line.play("S4x6").captured
        6
        >>> line.play("N3x10").captured, str(line.board())
        (10, '3,0,1,2,0,3/4,9,2,5,0,1 S 7-11 2')
        >>> [line.token(m) for m in line.legal_moves()]
        ['a1', 'b1', 'c1', 'd1^', 'f1^']
        >>> line.play("f1x2")
        Traceback (most recent call last):
        ...
        mancala_cli.errors.BadMove: f1x2: the move is f1^

    A token is a hole in any coordinate style (``c1``, ``3``, ``S3``), with
    Klamroth's ``-destination`` and the outcome marks ``xN`` and ``^``
    optional; marks that are given must be the move's.
    """

    def play(self, move: int | str) -> Move:
        """Play ``move``, a hole index or a token; raises :class:`IllegalMove`,
        :class:`BadMove` or :class:`BadCoordinate`, leaving the line as it was."""
        return play_token(self, move)

    def token(self, move: Move, coords: str = "algebraic", *, long_form: bool = False) -> str:
        """``move`` as a token with its marks (``c1x6``, ``e2^``), played by the side to move."""
        return move_token(self.game.board, move, self.position.side, coords, long_form=long_form)

    def board(self) -> GamePosition:
        """The current position with its game."""
        return GamePosition(self.game, self.position)

    def __repr__(self) -> str:
        moves = len(self.moves)
        return (f"<Line {self.game.id} after {moves} move{'' if moves == 1 else 's'}: "
                f"{format_position(self.game, self.position)}>")

    def _repr_svg_(self) -> str:
        last = self.moves[-1] if self.moves else None
        return svg(self.position, game=self.game, last_move=last)


# -- reading ----------------------------------------------------------------------------

def read(source: str | os.PathLike[str] | bytes | IO[Any], *, format: str | None = None,
         game: str | None = None, encoding: str = "utf-8", where: str | None = None) -> Iterator[GameRecord]:
    """Every record of ``source``, read as ``mancala validate`` reads it;
    with ``where``, only those that match this expression of the ``--where``
    language (docs/commands/filter.md, "Choosing games: --where"), which is
    checked at once: a bad one raises :class:`BadQuery`.

        >>> archive = '[Game "kingulu"]\\n\\n1. c1 *\\n\\n[Game "kingulu"]\\n\\n1. c1 d2 *\\n'
        >>> [len(r.moves) for r in read(archive, where="plies >= 2 and valid")]
        [2]
    """
    if where is None:
        return _read(source, format=format, game=game, encoding=encoding)
    from .archives import Criteria

    criteria = Criteria.where(where)
    return (record for record in _read(source, format=format, game=game, encoding=encoding)
            if criteria.matches(record))


def _read(source: str | os.PathLike[str] | bytes | IO[Any], *, format: str | None = None,
          game: str | None = None, encoding: str = "utf-8") -> Iterator[GameRecord]:
    """Every record of ``source``, read as ``mancala validate`` reads it.

    ``source`` is a path, a binary or text file object, ``bytes``, or a
    ``str`` of record text (a ``str`` without a line break is a path). The format (``pmn``, ``json`` or
    ``xml``) is recognised by content unless ``format`` says it. ``game``
    is the game of records without a ``Game`` tag. A record that is
    damaged comes with its ``problems``; an input that cannot be read at all
    raises :class:`UnreadableInput` or :class:`BadArchive`.

        >>> from mancala_cli import read
        >>> [r.tag("Event") for r in read('[Game "kingulu"]\\n[Event "x"]\\n\\n1. c1x6 *\\n')]
        ['x']
    """
    from .files.batches import read_records
    from .files.sources import InputError, check_encoding, open_any

    if format is not None and format not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {format!r}")
    if game is not None:
        get_game(game)
    try:
        check_encoding(encoding)
        with open_any(source, encoding) as opened:
            for record in read_records(opened, format):
                if game is not None and record.tag("Game") is None:
                    record.default_game = game
                yield record
    except LookupError:
        raise UnreadableInput(f"unknown encoding {encoding!r}") from None
    except InputError as error:
        raise UnreadableInput(str(error)) from None
    except XMLArchiveError as error:
        if isinstance(error, UnreadableInput):
            raise
        raise bad_archive(error) from None


# -- checking ----------------------------------------------------------------------------

@dataclasses.dataclass
class Report:
    """What checking one record found: data, not text (the command line's
    reporters turn it into lines).

    ``problems`` are sorted by where they are; ``result`` is the engine's
    result where the rules ended the game, else the record's, and ``reason``
    the rule that ended it (``None`` when the game did not end);
    ``positions`` holds the start and the position after every main-line
    move that could be played, ``final`` the last of them.
    """

    record: GameRecord
    game: Game | None
    problems: list[Problem]
    result: str
    reason: str | None
    plies: int
    positions: list[GamePosition]
    outcome: Outcome | None

    @property
    def valid(self) -> bool:
        """No error (warnings allowed)."""
        return not any(p.severity == "error" for p in self.problems)

    @property
    def final(self) -> GamePosition | None:
        """The last position reached, or ``None`` where the record has none."""
        return self.positions[-1] if self.positions else None

    @property
    def errors(self) -> list[Problem]:
        """The problems of severity ``error``."""
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        """The problems of severity ``warning``."""
        return [p for p in self.problems if p.severity == "warning"]

    def __repr__(self) -> str:
        game = "unknown game" if self.game is None else self.game.id
        errors, warnings = len(self.errors), len(self.warnings)
        ended = f" ({self.reason})" if self.reason else ""
        return (f"<Report {game}: {'valid' if self.valid else 'invalid'}, {self.plies} "
                f"pl{'y' if self.plies == 1 else 'ies'}, {self.result}{ended}, {errors} "
                f"error{'' if errors == 1 else 's'}, {warnings} warning{'' if warnings == 1 else 's'}>")


def check(record: GameRecord, *, game: str | None = None, strict: bool = False) -> Report:
    """Replay ``record`` against the rules, with every check of ``mancala
    validate``: syntax found while reading, every move of the main line and
    the variations, outcome marks, move numbers, result and score. The
    record is left untouched. ``game`` is the game when the record has no
    ``Game`` tag; ``strict`` makes warnings errors.

        >>> from mancala_cli import check, read
        >>> record = next(read('[Game "kingulu"]\\n\\n1. c1x5 *\\n'))
        >>> [(p.code, p.line, p.column, p.move) for p in check(record).problems]
        [('bad-mark', 3, 4, 'c1x5')]
    """
    from .checking import replay

    if game is not None:
        get_game(game)
    replayed = replay(record, game, positions=True)
    problems = [dataclasses.replace(p, severity="error") if strict else dataclasses.replace(p)
                for p in replayed.problems]
    problems.sort(key=lambda p: (p.line is None, p.line or 0, p.column or 0))
    rules = replayed.game
    positions = [] if rules is None or replayed.start is None else \
        [GamePosition(rules, p) for p in [replayed.start, *replayed.positions]]
    outcome = replayed.outcome
    return Report(record, rules, problems, replayed.result, outcome.reason if outcome else None,
                  replayed.plies, positions, outcome)


def annotate(record: GameRecord, *, depth: int | None = None, nodes: int | None = None,
             time: float | None = 1.0, game: str | None = None,
             tablebase: Tablebase | str | os.PathLike[str] | None = None,
             proofs: ProofBook | Iterable[str | os.PathLike[str]] | None = None) -> GameRecord:
    """A copy of ``record`` with the engine's facts for its main line, as
    ``mancala annotate`` writes them: the start's proven result as the
    comment before the first move, ``?`` or ``??`` with a move that keeps
    the result where a move lowers the mover's proven result, ``!`` for the
    only move of two or more that keeps a win. Each position is searched
    within ``depth`` plies, ``nodes`` positions and ``time`` seconds
    (``None``: no such limit); what they leave unproven is left alone. An
    invalid record (see :func:`check`) comes back unannotated; ``record``
    itself is left untouched. ``game`` is the game when the record has no
    ``Game`` tag. The searches ask the endgame tables ``tablebase`` (a
    :class:`~mancala_cli.solving.tablebase.Tablebase` or the path of a file of
    ``mancala tablebase build``), and what they leave unknown is taken from
    ``proofs`` where they cover it (a :class:`~mancala_cli.solving.proofs.ProofBook`
    or the paths of proof files, such as ``docs/kingulu-proof*.txt.xz``), as
    ``mancala annotate --tablebase``/``--proof`` do.

        >>> from mancala_cli import annotate, read, write
        >>> record = next(read('[Game "kingulu"]\\n[Setup "0,0,14*,0,0,1/4*,0,1,3,1,0 S 6-18 13"]\\n\\n'
        ...                    '13. e1x1 1-0\\n'))
        >>> print(write(annotate(record, time=10)), end="")
        [Game "kingulu"]
        [Setup "0,0,14*,0,0,1/4*,0,1,3,1,0 S 6-18 13"]
        <BLANKLINE>
        {Proven: win for South} 13. e1x1! 1-0
        >>> annotate(record, nodes=1).moves[0].glyphs  # nothing is proven within one position
        []
    """
    from .solving.annotation import Limits, annotate_record

    if game is not None:
        get_game(game)
    if time is not None and not 0 < time < float("inf"):
        raise ValueError(f"time must be a number of seconds > 0, not {time!r}")
    for name, value in (("depth", depth), ("nodes", nodes)):
        if value is not None and value < 1:
            raise ValueError(f"{name} must be at least 1, not {value!r}")
    return annotate_record(record, game, limits=Limits(depth, nodes, time), tablebase=_tablebase(tablebase),
                           proofs=_proofs(proofs)).record


def _tablebase(tablebase: Tablebase | str | os.PathLike[str] | None) -> Tablebase | None:
    """The tables given to :func:`solve` or :func:`annotate`: read from a path."""
    if tablebase is None or not isinstance(tablebase, (str, os.PathLike)):
        return tablebase
    from .solving.tablebase import Tablebase

    return Tablebase.read(os.fspath(tablebase))


def _proofs(proofs: ProofBook | Iterable[str | os.PathLike[str]] | None) -> ProofBook | None:
    """The proofs given to :func:`annotate`: read from their paths."""
    from .solving.proofs import ProofBook

    if proofs is None or isinstance(proofs, ProofBook):
        return proofs
    paths = [os.fspath(path) for path in proofs]
    return ProofBook.read(paths) if paths else None


def solve(position: Position | GamePosition | Line | str, *, game: Game | str | None = None,
          depth: int | None = None, nodes: int | None = None, time: float | None = DEFAULT_SECONDS,
          memory: int = DEFAULT_MEMORY, progress: Progress | None = None,
          tablebase: Tablebase | str | os.PathLike[str] | None = None,
          table: str | os.PathLike[str] | None = None,
          proofs: ProofBook | Iterable[str | os.PathLike[str]] | None = None) -> Solution:
    """The result with best play for the side to move, as ``mancala solve``
    finds it: a :class:`Solution` with ``result`` (``win``, ``draw``,
    ``loss`` or ``unknown``), ``moves`` (each legal move as a
    :class:`MoveToken`, the token a record writes, with its result for the
    mover), ``best`` (tokens too), the interval ``bounds``,
    ``depth``, ``nodes``, ``seconds`` and ``complete`` (no limit stopped
    the search; ``stopped`` says which one did).

    ``position`` is a :class:`GamePosition`, a :class:`Line` (whose earlier
    positions count for KK-4b), or a :class:`Position` or position string
    with ``game``. The search stops after ``depth`` plies, ``nodes``
    positions or ``time`` seconds (``None``: no such limit; without any, it
    may run for ever), and what it found so far is the answer; its table
    uses at most ``memory`` bytes. ``progress(depth, nodes, seconds)`` hears
    of the search under way. ``tablebase`` gives it endgame tables (as
    :func:`annotate`), and ``table`` a file that keeps its table between
    runs, as ``mancala solve --table`` does: saved every few minutes and
    when the search stops, and the next search of the same position with
    the same file goes on from it. ``proofs`` (as :func:`annotate`) fill in
    what the search leaves unknown; a position whose every move they decide
    is not searched.

        >>> from mancala_cli import solve
        >>> solution = solve("0,0,0,0,3,2/1,0,0,0,0,2 S 20-20 12", game="kingulu")
        >>> solution.result, solution.complete, solution.moves, solution.best
        ('win', True, [('a1', 'loss'), ('f1^', 'win')], ['f1^'])
        >>> solution.best[0].move.origin  # the Move behind the token
        5
        >>> solve("0,0,0,0,3,2/1,0,0,0,0,2 S 20-20 12", game="kingulu", depth=1).bounds
        ('loss', 'win')
    """
    from .solving.search import Solver

    history: Iterable[PositionKey] = ()
    if isinstance(position, core.GameInProgress):
        rules, where, history = position.game, position.position, position.history
    elif isinstance(position, GamePosition):
        rules, where = position.game, position.position
    else:
        if game is None:
            raise TypeError("solve() needs game= for a position that is not a GamePosition or a Line")
        rules = _rules(game)
        where = _position(position, rules)
    if time is not None and not 0 < time < float("inf"):
        raise ValueError(f"time must be a number of seconds > 0, not {time!r}")
    for name, value in (("depth", depth), ("nodes", nodes)):
        if value is not None and value < 1:
            raise ValueError(f"{name} must be at least 1, not {value!r}")
    book = _proofs(proofs)
    solved = GamePosition(rules, where)
    proven = None if book is None else book.proven(rules, where)
    if proven is not None:
        return Solution(solved, proven)
    search = Solver(rules, memory=memory, tablebase=_tablebase(tablebase))
    found = search.solve(where, depth=depth, nodes=nodes, seconds=time, history=set(history), progress=progress,
                         table=table)
    return Solution(solved, found if book is None else book.solution(rules, where, found))


# -- writing -----------------------------------------------------------------------------

def write(records: GameRecord | Iterable[GameRecord], target: str | os.PathLike[str] | IO[Any] | None = None,
          *, format: str = "pmn", coords: str = "algebraic", positions: bool = False) -> str | None:
    """Write ``records`` as ``mancala convert`` does: canonical PMN, JSON
    Lines or one XML archive, moves in ``coords`` with the outcome marks the
    rules find (and, with ``positions``, the position after every move in
    JSON and XML). Returns the text when ``target`` is ``None``; otherwise
    writes it to a path (atomically) or a file object. The records are left
    untouched.

        >>> from mancala_cli import read, write
        >>> record = next(read('[Game "kingulu"]\\n\\n1. c1 d2 *\\n'))
        >>> print(write(record, coords="relative"), end="")
        [Game "kingulu"]
        [Coordinates "relative"]
        <BLANKLINE>
        1. S3x6 N3 *
    """
    if format not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {format!r}")
    _check_coords(coords)
    from .files.writing import RecordWriter, open_writer

    if isinstance(records, GameRecord):
        records = [records]
    try:
        if isinstance(target, (str, os.PathLike)):
            from .files.sources import InputError

            try:
                with open_writer(os.fspath(target), format, coords=coords, positions=positions) as writer:
                    for record in records:
                        writer.write(record)
            except InputError as error:
                raise UnreadableInput(str(error)) from None
            return None
        buffer: io.BytesIO | io.StringIO = io.BytesIO() if RecordWriter.binary(format) else io.StringIO()
        with RecordWriter(buffer, format, coords=coords, positions=positions) as writer:
            for record in records:
                writer.write(record)
    except XMLArchiveError as error:
        raise bad_archive(error) from None
    data = buffer.getvalue()
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    if target is None:
        return text
    _deliver(text.encode("utf-8"), target)
    return None


def _deliver(data: bytes, target: str | os.PathLike[str] | IO[Any]) -> None:
    if isinstance(target, (str, os.PathLike)):
        from .files.output import atomic_output
        from .files.sources import InputError
        try:
            with atomic_output(os.fspath(target), binary=True) as stream:
                stream.write(data)
        except InputError as error:
            raise UnreadableInput(str(error)) from None
        return
    if isinstance(target, io.TextIOBase) or hasattr(target, "encoding"):
        target.write(data.decode("utf-8"))
    else:
        target.write(data)

