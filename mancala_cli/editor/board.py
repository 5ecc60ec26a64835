"""The board of ``mancala edit``: every hole a cell to click or to reach
with the arrow keys, the banks, the side to move, the score, the phase
(MacKay, KM-3), the reserved holes (``*``, Kingulu) and the last move's
origin ``[4]`` and end ``(4)`` (``{4}``: ended where it started), as the
text diagrams mark them (:mod:`mancala_cli.diagrams.text`)."""
from __future__ import annotations

from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget

from ..diagrams.text import default_title
from ..rules.core import FILES, NORTH, SOUTH, Game, Move, Outcome, Position, side_name

__all__ = ["Board", "board_markup"]


def _escape(text: str) -> str:
    return text.replace("[", r"\[")


def board_markup(game: Game, position: Position, *, last_move: Move | None, flip: bool,
                 outcome: Outcome | None, selected: int | None) -> str:
    """The board as Textual content markup, each hole a link that plays it."""
    board = game.board
    files, ranks = board.files, board.ranks
    width = max(2, len(str(max(position.holes))))
    origin, end = (last_move.origin, last_move.end) if last_move is not None else (None, None)
    columns = range(files - 1, -1, -1) if flip else range(files)
    rank_order = range(1, ranks + 1) if flip else range(ranks, 0, -1)
    indent = "   "

    def cell(hole: int) -> str:
        count = str(position.holes[hole])
        star = "*" if hole in position.reserved else " "
        marks = ("{}" if hole == origin == end else "[]" if hole == origin else "()" if hole == end else "  ")
        text = _escape((marks[0] + count + marks[1]).rjust(width + 2) + star)
        style = "reverse" if hole == selected else "bold" if marks != "  " else ""
        link = f"@click=app.hole({hole})"
        return f"[{style} {link}]{text}[/] " if style else f"[{link}]{text}[/] "

    def bank(side: str) -> str:
        line = f"{indent}{side_name(side)}  {game.bank_name} {position.bank(side)}"
        return line + ("   [bold]<- to move[/]" if side == position.side and outcome is None else "")

    file_line = indent + "".join(" " * width + FILES[f] + "   " for f in columns)
    top, bottom = (SOUTH, NORTH) if flip else (NORTH, SOUTH)
    lines = [_escape(default_title(game, position, outcome)), bank(top), file_line]
    for k, rank in enumerate(rank_order):
        if ranks == 4 and k == 2:
            lines.append(indent + "-" * (files * (width + 4) - 1))
        start = (rank - 1) * files
        lines.append(f"{rank:>2} " + "".join(cell(start + f) for f in columns) + f"{rank}")
    lines += [file_line, bank(bottom)]
    notes = []
    if game.id == "kimasai-mackay":
        notes.append(f"phase {1 if any(position.banks) else 2}")  # (KM-3: phase 1 while a reserve holds a seed)
    if position.reserved:
        notes.append("reserved: " + ", ".join(f"{board.name(h)} by {side_name(game.reserver(h))}"
                                              for h in sorted(position.reserved)))
    if last_move is not None:
        notes.append(f"last move: {board.name(last_move.origin)} → {board.name(last_move.end)}")
    if outcome is not None:
        notes.append(_escape(f"game over: {outcome.result} ({outcome.reason})"))
    lines.append(indent + " · ".join(notes))
    return "\n".join(lines)


class Board(Widget, can_focus=True):
    """The position, with a selected hole moved by the arrow keys."""

    DEFAULT_CSS = "Board { height: auto; width: auto; padding: 0 1; }"
    BINDINGS = [
        Binding("left", "step(0, -1)", "Hole", show=False),
        Binding("right", "step(0, 1)", "Hole", show=False),
        Binding("up", "step(1, 0)", "Hole", show=False),
        Binding("down", "step(-1, 0)", "Hole", show=False),
        Binding("enter,space", "choose", "Play hole"),
    ]

    class Chosen(Message):
        """A hole chosen on the board (click or Enter)."""

        def __init__(self, hole: int) -> None:
            super().__init__()
            self.hole = hole

    def __init__(self, game: Game, **options: object) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        self.game = game
        self.position = game.start()
        self.last_move: Move | None = None
        self.outcome: Outcome | None = None
        self.flip = False
        self.selected = 0

    def show(self, position: Position, *, last_move: Move | None, outcome: Outcome | None) -> None:
        self.position, self.last_move, self.outcome = position, last_move, outcome
        self.refresh(layout=True)

    def render(self) -> str:
        return board_markup(self.game, self.position, last_move=self.last_move, flip=self.flip,
                            outcome=self.outcome, selected=self.selected if self.has_focus else None)

    def action_step(self, up: int, right: int) -> None:
        files, ranks = self.game.board.files, self.game.board.ranks
        rank, file = divmod(self.selected, files)
        if self.flip:
            up, right = -up, -right
        self.selected = ((rank + up) % ranks) * files + (file + right) % files
        self.refresh()

    def action_choose(self) -> None:
        self.post_message(self.Chosen(self.selected))

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
