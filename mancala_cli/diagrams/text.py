"""Plain-text boards for terminals (``mancala render --format text``).

North's back row on top (South's when flipped), file letters above and
below, rank numbers on both sides, counts right-aligned; a reserved hole has
``*`` after its count; the last move's origin is in brackets ``[4]``, the
hole where it ended in parentheses ``(4)`` (``{4}`` when it ended where it
started); the banks of both sides and the side to move::

    >>> from mancala_cli import get_game
    >>> game = get_game("kingulu")
    >>> print(board_text(game, game.start()))
    Bao Kingulu — move 1, South to move
       North  store 0
         a    b    c    d    e    f
     2   4    4    4    4    4    4   2
     1   4    4    4    4    4    4   1
         a    b    c    d    e    f
       South  store 0   <- to move
"""
from __future__ import annotations

from typing import Final

from ..rules.board import FILES, NORTH, SOUTH, Side, side_name
from ..rules.game import Game, Move, Outcome
from ..rules.position import Position

__all__ = ["board_text", "default_title", "state_words", "caption_state", "result_words", "outcome_of", "FROM_POSITION",
           "FromPosition"]


class FromPosition:
    """The type of :data:`FROM_POSITION`: a diagram's outcome worked out from its position."""

    def __repr__(self) -> str:
        return "FROM_POSITION"


#: The default ``outcome`` of a diagram: whether the game is over is worked
#: out from the position alone (a Klamroth repetition needs the history: pass
#: the outcome of the line instead).
FROM_POSITION: Final = FromPosition()


def outcome_of(game: Game, position: Position, outcome: Outcome | None | FromPosition) -> Outcome | None:
    return game.outcome(position) if isinstance(outcome, FromPosition) else outcome


def result_words(outcome: Outcome) -> str:
    """How a game ended, in words that name no side's bank: the winner (or
    the draw), the final score where the rules score (Bao Kingulu, KG-7: the
    store, the seeds left in the player's own unreserved holes and those in
    the holes he reserved), the winner's first, and the rule::

        >>> from mancala_cli.rules.game import Outcome
        >>> result_words(Outcome("0-1", "KG-7", "S to move has no legal move; score 13-35", (13, 35)))
        'North wins 35–13 (KG-7)'
        >>> result_words(Outcome("1/2-1/2", "KK-4b", "draw by repetition"))
        'Draw (KK-4b)'
    """
    score = outcome.score
    if outcome.result == "1-0":
        words = "South wins" + ("" if score is None else f" {score[0]}–{score[1]}")
    elif outcome.result == "0-1":
        words = "North wins" + ("" if score is None else f" {score[1]}–{score[0]}")
    else:
        words = "Draw" + ("" if score is None else f" {score[0]}–{score[1]}")
    return f"{words} ({outcome.reason})"


def state_words(position: Position, outcome: Outcome | None) -> str:
    """``North to move``, or ``South wins 35–13 (KG-7)`` when the game has
    ended (:func:`result_words`)."""
    if outcome is not None:
        return result_words(outcome)
    return f"{side_name(position.side)} to move"


def caption_state(position: Position, outcome: Outcome | None) -> str:
    """``North to move``, or ``game over`` when the game has ended: the end
    of a diagram's caption (the result strip below the board gives the
    result)."""
    return "game over" if outcome is not None else f"{side_name(position.side)} to move"


def default_title(game: Game, position: Position, outcome: Outcome | None = None) -> str:
    """``Bao Kingulu — move 12, North to move`` (or ``…, South wins 35–13
    (KG-7)``): the first line of a text board and the ``<title>`` of an SVG
    diagram."""
    return f"{game.name} — move {position.move_number}, {state_words(position, outcome)}"


def board_text(game: Game, position: Position, *, last_move: Move | None = None,
               flip: bool = False, outcome: Outcome | None | FromPosition = FROM_POSITION) -> str:
    """A monospace board of ``position`` (lines joined by ``\\n``, no trailing newline).

    A position where the game has ended shows the result and its reason
    instead of the side to move; ``outcome`` gives it when the position
    alone cannot tell (the default works it out from the position).
    """
    over = outcome_of(game, position, outcome)
    board = game.board
    files, ranks = board.files, board.ranks
    width = max(2, len(str(max(position.holes))))
    origin = end = None
    if last_move is not None:
        origin, end = last_move.origin, last_move.end
    reserved = position.reserved

    columns = range(files - 1, -1, -1) if flip else range(files)
    rank_order = range(1, ranks + 1) if flip else range(ranks, 0, -1)
    label_width = len(str(ranks)) + 1
    indent = " " * (label_width + 1)

    def cell(hole: int) -> str:
        count = str(position.holes[hole])
        star = hole in reserved
        brackets = ("{}" if hole == origin and hole == end else "[]" if hole == origin
                    else "()" if hole == end else None)
        if brackets is None:
            text, after = " " + count + ("*" if star else " "), " "
        else:
            text, after = brackets[0] + count + brackets[1], "*" if star else " "
        return text.rjust(width + 2) + after

    file_line = indent + "".join(" " * width + FILES[f] + "  " for f in columns)
    top, bottom = (SOUTH, NORTH) if flip else (NORTH, SOUTH)

    def bank_line(side: Side) -> str:
        line = f"{indent}{side_name(side)}  {game.bank_name} {position.bank(side)}"
        if side == position.side and over is None:
            line += "   <- to move"
        return line

    lines = [default_title(game, position, over), bank_line(top), file_line]
    for k, rank in enumerate(rank_order):
        if ranks == 4 and k == 2:
            lines.append(indent + "-" * (files * (width + 3) - 2))
        start = (rank - 1) * files
        row = "".join(cell(start + f) for f in columns)
        lines.append(f"{str(rank).rjust(label_width)} {row} {rank}")
    lines += [file_line, bank_line(bottom)]
    if reserved:
        marks = ", ".join(f"{board.name(h)} by {side_name(game.reserver(h))}" for h in sorted(reserved))
        lines.append(f"reserved: {marks}")
    if last_move is not None:
        lines.append(f"last move: {board.name(last_move.origin)} → {board.name(last_move.end)}")
    if over is not None:
        lines.append(f"game over: {over.result} ({over.reason}: {over.message})")
    return "\n".join(line.rstrip() for line in lines)
