"""Moves played by their tokens (``c1x6``, ``S3``, ``b2-a2x2``): a line
of play that checks the marks a token gives against the move the rules
play. :class:`mancala_cli.Line` adds drawing to it; the archive criteria
(``--opening``) play openings with it.

    >>> from mancala_cli import get_game
    >>> line = TokenLine(get_game("kingulu"))
    >>> line.play("S3x6").captured, line.position.side
    (6, 'N')
    >>> line.play("N3x9")
    Traceback (most recent call last):
    ...
    mancala_cli.errors.BadMove: N3x9: the move is d2
"""
from __future__ import annotations

from notation.coords import format_move, parse_hole, parse_move_token
from notation.errors import CoordinateError

from .errors import BadCoordinate, BadMove
from .rules import core
from .rules.core import Move


class TokenLine(core.Line):
    """A game in progress that plays moves by their tokens, as chess's
    ``board.push_san`` does; the repetition history is the line's own."""

    def play(self, move: int | str) -> Move:
        """Play ``move``, a hole index or a token; raises :class:`IllegalMove`,
        :class:`BadMove` or :class:`BadCoordinate`, leaving the line as it was."""
        if isinstance(move, int):
            return super().play(move)
        origin, destination, taken, reserves = self._parse(move)
        played, after = self.game.play(self.position, origin, history=self.history)
        end = destination if destination is not None else played.end
        if end != played.end or (taken is not None and taken != played.captured) \
                or (reserves and not played.reserved):
            raise BadMove(f"{move}: the move is {self.token(played, long_form=destination is not None)}")
        self._push(played, after)
        return played

    def _parse(self, token: str) -> tuple[int, int | None, int | None, bool]:
        parts = parse_move_token(token.strip())
        if parts is None:
            raise BadMove(f"{token!r} is not a move token (a hole, then xN or ^ if any)")
        side, style = self.position.side, parts.style
        try:
            origin = parse_hole(self.game.board, parts.hole, style, side)
            to = None if parts.destination is None else parse_hole(self.game.board, parts.destination, style, side)
        except CoordinateError as error:
            raise BadCoordinate(str(error)) from None
        return origin, to, parts.captured, parts.reserved

    def token(self, move: Move, coords: str = "algebraic", *, long_form: bool = False) -> str:
        """``move`` as a token with its marks (``c1x6``, ``e2^``), played by the side to move."""
        return format_move(self.game.board, move, coords, self.position.side, long_form=long_form)
