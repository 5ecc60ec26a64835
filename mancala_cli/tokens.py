"""Moves played by their tokens (``c1x6``, ``S3``, ``b2-a2x2``): the move a
token names in a position, checked against the move the rules play there
(the marks a token gives must be the move's), and a move written back as
its token. :class:`mancala_cli.Line` plays tokens with these; the archive
criteria (``--opening``) do too.

    >>> from mancala_cli import get_game
    >>> from mancala_cli.rules.game import GameInProgress
    >>> line = GameInProgress(get_game("kingulu"))
    >>> play_token(line, "S3x6").captured, line.position.side
    (6, 'N')
    >>> play_token(line, "N3x9")
    Traceback (most recent call last):
    ...
    mancala_cli.errors.BadMove: N3x9: the move is d2
"""
from __future__ import annotations

from notation.coords import format_move, parse_hole, parse_move_token
from notation.notation_errors import CoordinateError

from .errors import BadCoordinate, BadMove
from .rules.board import Board, Side
from .rules.game import GameInProgress, Move

__all__ = ["play_token", "move_token"]


def play_token(line: GameInProgress, move: int | str) -> Move:
    """Play ``move``, a hole index or a token, on ``line``; raises
    :class:`IllegalMove`, :class:`BadMove` or :class:`BadCoordinate`,
    leaving the line as it was."""
    if isinstance(move, int):
        return GameInProgress.play(line, move)  # (not an override that plays tokens)
    origin, destination, taken, reserves = _parse(line, move)
    played, after = line.game.play(line.position, origin, history=line.history)
    end = destination if destination is not None else played.end
    if end != played.end or (taken is not None and taken != played.captured) \
            or (reserves and not played.reserved):
        written = move_token(line.game.board, played, line.position.side, long_form=destination is not None)
        raise BadMove(f"{move}: the move is {written}")
    line.push(played, after)
    return played


def move_token(board: Board, move: Move, side: Side, coords: str = "algebraic", *, long_form: bool = False) -> str:
    """``move`` as a token with its marks (``c1x6``, ``e2^``), played by ``side``."""
    return format_move(board, move, coords, side, long_form=long_form)


def _parse(line: GameInProgress, token: str) -> tuple[int, int | None, int | None, bool]:
    parts = parse_move_token(token.strip())
    if parts is None:
        raise BadMove(f"{token!r} is not a move token (a hole, then xN or ^ if any)")
    board, side, style = line.game.board, line.position.side, parts.style
    try:
        origin = parse_hole(board, parts.hole, style, side)
        to = None if parts.destination is None else parse_hole(board, parts.destination, style, side)
    except CoordinateError as error:
        raise BadCoordinate(str(error)) from None
    return origin, to, parts.captured, parts.reserved
