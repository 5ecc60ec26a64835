"""The server's own hints where a move number is missing (code
:data:`NO_MOVE_NUMBER`, severity ``hint``: no problem of validate's), at
most :data:`~notation.record.MAX_PROBLEMS` of a game (:func:`capped`), and
the count of a game's moves (:func:`count_moves`) that bounds what is
replayed of it (:data:`.replay.MAX_VIEW_MOVES`).
"""
from __future__ import annotations

from dataclasses import dataclass

from notation.coords import move_label
from notation.pmn_writer import numbered_moves
from notation.record import MAX_PROBLEMS, GameRecord, MoveNode

__all__ = ["NO_MOVE_NUMBER", "Hint", "missing_numbers", "capped", "count_moves"]

#: The code of the server's hint where a move number is missing (no problem of validate's).
NO_MOVE_NUMBER = "no-move-number"

@dataclass(frozen=True)
class Hint:
    """A move that canonical writing writes with a move number and the text
    has none before: where its token starts (1-based, as the reader counts,
    like a problem's place), the number canonical writing puts before it
    (``3.``, ``2...``) and the move as written."""

    line: int
    column: int
    label: str
    move: str
    #: The closing hint of a game with more than :data:`~notation.record.MAX_PROBLEMS`
    #: (validate's bound on a game's warnings): it says so, and has no fix.
    more: bool = False

    @property
    def message(self) -> str:
        if self.more:
            return f"more than {MAX_PROBLEMS} missing move numbers in this game; the others are not reported"
        return f"no move number before {self.label} {self.move} (canonical PMN writes it)"


def missing_numbers(record: GameRecord, *, limit: int | None = None) -> list[Hint]:
    """The moves of ``record`` that canonical writing numbers
    (:func:`notation.pmn_writer.numbered_moves`) and that have no number
    written before them, in the order written (the first ``limit`` of them).

        >>> from notation.pmn_reader import read_game
        >>> [(h.line, h.column, h.label) for h in missing_numbers(read_game('c1x6 d2 c1 {a note} d2 *'))]
        [(1, 1, '1.'), (1, 9, '2.'), (1, 21, '2...')]
    """
    found: list[Hint] = []
    for step in numbered_moves(record):
        node = step.node
        if node.number is None and node.line is not None and node.column is not None:
            if limit is not None and len(found) >= limit:
                break
            found.append(Hint(node.line, node.column, move_label(step.number, step.side), node.text))
    return found


def count_moves(record: GameRecord) -> int:
    """The moves of ``record``, those of its variations with them.

        >>> from notation.pmn_reader import read_game
        >>> count_moves(read_game('1. c1x6 (d1 (e1) f2) d2 *'))
        5
    """
    count = 0
    lines: list[list[MoveNode]] = [record.moves]
    while lines:
        line = lines.pop()
        count += len(line)
        for node in line:
            if node.variations:
                lines.extend(node.variations)
    return count


def capped(hints: list[Hint]) -> list[Hint]:
    """At most :data:`~notation.record.MAX_PROBLEMS` hints, and then one
    that says there are more (at the place of the first left out), as
    validate caps a game's warnings."""
    if len(hints) <= MAX_PROBLEMS:
        return hints
    over = hints[MAX_PROBLEMS]
    return hints[:MAX_PROBLEMS] + [Hint(over.line, over.column, over.label, over.move, more=True)]


