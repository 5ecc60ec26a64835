"""Positions with their game, played by the tokens a record writes
(:class:`GamePosition`, :class:`Line`, :class:`MoveToken`) and solved
(:func:`solve`, :class:`Solution`): the library's side of the rules and
the search. ``mancala_cli`` exports these names; see ``docs/library.md``.

    >>> from mancala_cli import GamePosition
    >>> start = GamePosition.from_string("kingulu", "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1")
    >>> start.legal_moves()
    ['c1x6', 'd1x6', 'e1', 'f1']
"""
from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable
from typing import Any

from notation.coords import STYLES, format_move
from notation.position_strings import format_position

from .drawing import svg
from .positions import parse_position
from .rules.game import Game, GameInProgress, Move, Outcome
from .rules.position import Position, PositionKey
from .rules.registry import get_game
from .solving import search_result as found_solution
from .solving.endgame import Tablebase
from .solving.engine_files import check_limits, endgame_tables, proof_book
from .solving.proofs import ProofBook
from .solving.search import DEFAULT_MEMORY, DEFAULT_SECONDS, Solver
from .solving.search_result import Progress
from .tokens import move_token, play_token

__all__ = ["GamePosition", "Line", "MoveToken", "Solution", "solve"]


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
        check_coords(coords)
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
              proofs: ProofBook | str | os.PathLike[str] | Iterable[str | os.PathLike[str]] | None = None) \
            -> Solution:
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
    :class:`mancala_cli.solving.search_result.SearchResult` (its moves as :class:`Move`
    objects), as :class:`~mancala_cli.solving.search.Solver` gives it.
    """

    def __init__(self, position: GamePosition, found: found_solution.SearchResult) -> None:
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


def check_coords(coords: str) -> None:
    """``coords``, a coordinate style (else :class:`ValueError`)."""
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


class Line(GameInProgress):
    """A game in progress that plays moves by their tokens, as chess's
    ``board.push_san`` does; the repetition history is the line's own.
    ``game`` is a :class:`Game` or a game id, ``start`` a position or a
    position string (none: the game's start).

        >>> from mancala_cli import Line
        >>> line = Line("kingulu")
        >>> line.play("S4x6").captured
        6
        >>> line.play("N3x10").captured, str(line.board())
        (10, '3,0,1,2,0,3/4,9,2,5,0,1 S 7-11 2')
        >>> line.moves, line.legal_moves()
        (['d1x6', 'd2x10'], ['a1', 'b1', 'c1', 'd1^', 'f1^'])
        >>> line.play("f1x2")
        Traceback (most recent call last):
        ...
        mancala_cli.errors.BadMove: f1x2: the move is f1^

    A token is a hole in any coordinate style (``c1``, ``3``, ``S3``), with
    Klamroth's ``-destination`` and the outcome marks ``xN`` and ``^``
    optional; marks that are given must be the move's. As a
    :class:`GamePosition` does, a line speaks in tokens: :attr:`moves` (the
    moves played) and :meth:`legal_moves` are :class:`MoveToken` objects, each
    with its :class:`Move` in ``move``; :meth:`play` returns the
    :class:`Move` it played.
    """

    moves: list[MoveToken]  # type: ignore[assignment]  # (tokens, each with its Move; GameInProgress keeps Moves)

    def __init__(self, game: Game | str, start: Position | str | None = None) -> None:
        rules = _rules(game)
        super().__init__(rules, parse_position(rules, start) if isinstance(start, str) else start)

    def play(self, move: int | str) -> Move:
        """Play ``move``, a hole index or a token; raises :class:`IllegalMove`,
        :class:`BadMove` or :class:`BadCoordinate`, leaving the line as it was."""
        return play_token(self, move)

    def push(self, move: Move, after: Position) -> None:
        """Go on with ``move``, already played from the current position to
        ``after``; :attr:`moves` keeps it as its token."""
        token = MoveToken.of(self.game, self.position, move)
        if self.game.uses_history:
            self.history.add(self.position.key())
        self.position = after
        self.moves.append(token)

    def legal_moves(self, *, coords: str = "algebraic") -> list[MoveToken]:  # type: ignore[override]
        """The legal moves of the line's position, its history counted, as
        tokens in ``coords`` with their outcome marks (as
        :meth:`GamePosition.legal_moves` gives them; each token's ``move`` is
        the :class:`Move`)."""
        check_coords(coords)
        return [MoveToken.of(self.game, self.position, move, coords)
                for move in self.game.legal_moves(self.position, history=self.history)]

    def token(self, move: Move, coords: str = "algebraic", *, long_form: bool = False) -> str:
        """``move`` (a :class:`Move`, or a :class:`MoveToken` of this
        position) as a token with its marks (``c1x6``, ``e2^``) in
        ``coords``, played by the side to move."""
        played = move.move if isinstance(move, MoveToken) else move
        return move_token(self.game.board, played, self.position.side, coords, long_form=long_form)

    def board(self) -> GamePosition:
        """The current position with its game."""
        return GamePosition(self.game, self.position)

    def __repr__(self) -> str:
        moves = len(self.moves)
        return (f"<Line {self.game.id} after {moves} move{'' if moves == 1 else 's'}: "
                f"{format_position(self.game, self.position)}>")

    def _repr_svg_(self) -> str:
        last = self.moves[-1].move if self.moves else None
        return svg(self.position, game=self.game, last_move=last)


def _searched(position: Position | GamePosition | Line | str,
              game: Game | str | None) -> tuple[Game, Position, Iterable[PositionKey]]:
    """The rules, the position and the earlier positions (KK-4b) of what :func:`solve` is given."""
    if isinstance(position, GameInProgress):
        return position.game, position.position, position.history
    if isinstance(position, GamePosition):
        return position.game, position.position, ()
    if game is None:
        raise TypeError("solve() needs game= for a position that is not a GamePosition or a Line")
    rules = _rules(game)
    return rules, _position(position, rules), ()


def solve(position: Position | GamePosition | Line | str, *, game: Game | str | None = None,
          depth: int | None = None, nodes: int | None = None, time: float | None = DEFAULT_SECONDS,
          memory: int = DEFAULT_MEMORY, progress: Progress | None = None,
          tablebase: Tablebase | str | os.PathLike[str] | None = None,
          table: str | os.PathLike[str] | None = None,
          proofs: ProofBook | str | os.PathLike[str] | Iterable[str | os.PathLike[str]] | None = None) -> Solution:
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
    rules, where, history = _searched(position, game)
    check_limits(time=time, depth=depth, nodes=nodes)
    book = proof_book(proofs)
    solved = GamePosition(rules, where)
    proven = None if book is None else book.proven(rules, where)
    if proven is not None:
        return Solution(solved, proven)
    search = Solver(rules, memory=memory, tablebase=endgame_tables(tablebase))
    found = search.solve(where, depth=depth, nodes=nodes, seconds=time, history=set(history), progress=progress,
                         table=table)
    return Solution(solved, found if book is None else book.solution(rules, where, found))
