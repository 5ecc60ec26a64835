"""The diagrams of a replayed record, one per ply (``mancala render FILE``
with ``--ply N``, ``--all`` or ``--sheet``): :class:`Plies` holds each
position, ply 0 (the start) first, with the move that led to it, and says
the title of its diagram and its caption (``--caption``: the first lines
from :func:`caption_head`, then the move and the side to move); for a game
sheet, the boards of the plies chosen and the header line::

    >>> from notation.pmn_reader import read_game
    >>> from mancala_cli.checking import replay
    >>> record = read_game('[Game "kingulu"]\\n[South "Amani"]\\n[Round "2"]\\n\\n1. d1x6 d2x10 *\\n')
    >>> plies = Plies.of(replay(record), caption=True)
    >>> plies.last, plies.title(1)
    (2, 'Bao Kingulu — position after 1. d1x6, North to move')
    >>> plies.caption(2)
    ['Bao Kingulu · Amani – ? · Round 2', 'After 1... d2x10, South to move']
    >>> [(d.ply, d.caption) for d in plies.sheet_diagrams(every=2)]
    [(0, 'Start'), (2, '1... d2x10')]
"""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ..checking import Replay
from ..rules.game import Game, Move, Outcome
from ..rules.position import Position
from .sheet import Diagram, choose_plies, game_diagrams, header_line, move_caption
from .text import caption_state, state_words

__all__ = ["Plies", "caption_head", "CAPTION_TAGS"]

#: The tags a caption's first line names, after the game (in the order
#: :func:`~.sheet.header_line` gives them).
CAPTION_TAGS = ("South", "North", "Event", "Site", "Date", "Round")


def caption_head(rules: Game, tags: list[tuple[str, str]]) -> list[str]:
    """A caption's first line: the game, the players, event, site, date and round."""
    return [header_line(rules, [(name, value) for name, value in tags if name in CAPTION_TAGS])]


@dataclasses.dataclass(slots=True)
class Plies:
    """The positions of a replayed record, ply 0 (the start) first, each
    with the move that led to it (``None`` at the start), and what the
    diagram of each says: its title and, where asked for, its caption."""

    rules: Game
    states: list[tuple[Position, Move | None]]
    #: How the game ended at the last position, where the rules ended it.
    outcome: Outcome | None = None
    #: The record's tags: the header of a sheet.
    tags: list[tuple[str, str]] = dataclasses.field(default_factory=list)
    #: The first lines of every caption (:func:`caption_head`), or ``None``: no captions.
    caption_head: list[str] | None = None

    @classmethod
    def of(cls, report: Replay, *, caption: bool = False) -> Plies:
        """The main line of a replayed record, as far as it could be
        played (with captions when ``caption``). Raises :class:`ValueError`
        for a record that could not be replayed at all (no game, a bad
        ``Setup``)."""
        if report.game is None or report.start is None:
            raise ValueError(report.stopped_by.message)
        states: list[tuple[Position, Move | None]] = [(report.start, None)]
        states += zip(report.positions, report.moves)
        tags = report.record.tags
        return cls(report.game, states, report.outcome, tags, caption_head(report.game, tags) if caption else None)

    @property
    def last(self) -> int:
        """The last ply: how many moves could be played."""
        return len(self.states) - 1

    def outcome_at(self, k: int) -> Outcome | None:
        """The engine's verdict where the record's last position ends the game."""
        return self.outcome if k == self.last else None

    def title(self, k: int) -> str:
        """The title of ply ``k``'s diagram: ``Bao Kingulu — position after
        12... c2x4, South to move`` (the start: ``Bao Kingulu — start, …``)."""
        pos, move = self.states[k]
        if move is None:
            return f"{self.rules.name} — start, {state_words(pos, self.outcome_at(k))}"
        return f"{self.rules.name} — position after {self.move_words(k)}, {state_words(pos, self.outcome_at(k))}"

    def move_words(self, k: int) -> str:
        """``12... c2x4``: the move that led to ply ``k`` (not 0)."""
        move = self.states[k][1]
        assert move is not None
        return move_caption(self.rules, self.states[k - 1][0], move)

    def caption(self, k: int) -> list[str] | None:
        """The caption of ply ``k`` (``None`` without :attr:`caption_head`):
        the game and the players, then the move and the side to move
        (``game over``: the result strip says the rest)."""
        if self.caption_head is None:
            return None
        pos, move = self.states[k]
        where = "Start" if move is None else f"After {self.move_words(k)}"
        return [*self.caption_head, f"{where}, {caption_state(pos, self.outcome_at(k))}"]

    @property
    def header(self) -> str:
        """The header line of a sheet (:func:`~.sheet.header_line`)."""
        return header_line(self.rules, self.tags)

    def sheet_diagrams(self, *, plies: Sequence[int] | None = None, every: int | None = None) -> list[Diagram]:
        """The boards of a sheet, of the plies :func:`~.sheet.choose_plies`
        chooses (``plies`` as given, or every ``every``-th and the last).
        Raises :class:`ValueError` as it does."""
        chosen = choose_plies(self.last, plies=plies, every=every)
        moves = [move for _, move in self.states[1:] if move is not None]
        return game_diagrams(self.rules, self.states[0][0], [pos for pos, _ in self.states[1:]], moves, chosen,
                             outcome=self.outcome)
