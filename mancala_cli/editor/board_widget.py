"""The board of ``mancala edit``: every hole a cell to click or to reach
with the arrow keys, the banks, the side to move, the score, the phase
(MacKay, KM-3), the reserved holes (``*``, Kingulu) and the last move's
origin ``[4]`` and end ``(4)`` (``{4}``: ended where it started), as the
text diagrams mark them (:mod:`mancala_cli.diagrams.text`)."""
from __future__ import annotations

from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.style import Style
from textual.widget import Widget

from ..diagrams.text import default_title
from ..rules.board import FILES, NORTH, SOUTH, Side, side_name
from ..rules.game import Game, Move, Outcome
from ..rules.position import Position

__all__ = ["BoardWidget", "board_content"]


BOLD, SELECTED = Style(bold=True), Style(reverse=True)


def board_content(game: Game, position: Position, *, last_move: Move | None, flip: bool,
                  outcome: Outcome | None, selected: int | None) -> Content:
    """The board as Textual content, each hole a link that plays it."""
    board = game.board
    files, ranks = board.files, board.ranks
    width = max(2, len(str(max(position.holes))))
    origin, end = (last_move.origin, last_move.end) if last_move is not None else (None, None)
    columns = range(files - 1, -1, -1) if flip else range(files)
    rank_order = range(1, ranks + 1) if flip else range(ranks, 0, -1)
    indent = "   "
    parts: list[str | tuple[str, Style]] = []

    def cell(hole: int) -> None:
        count = str(position.holes[hole])
        star = "*" if hole in position.reserved else " "
        marks = ("{}" if hole == origin == end else "[]" if hole == origin else "()" if hole == end else "  ")
        link = Style.from_meta({"@click": f"app.hole({hole})"})
        style = SELECTED + link if hole == selected else BOLD + link if marks != "  " else link
        parts.extend([((marks[0] + count + marks[1]).rjust(width + 2) + star, style), " "])

    def bank(side: Side) -> None:
        parts.append(f"{indent}{side_name(side)}  {game.bank_name} {position.bank(side)}")
        if side == position.side and outcome is None:
            parts.append(("   <- to move", BOLD))
        parts.append("\n")

    file_line = indent + "".join(" " * width + FILES[f] + "   " for f in columns) + "\n"
    top, bottom = (SOUTH, NORTH) if flip else (NORTH, SOUTH)
    parts.append(default_title(game, position, outcome) + "\n")
    bank(top)
    parts.append(file_line)
    for k, rank in enumerate(rank_order):
        if ranks == 4 and k == 2:
            parts.append(indent + "-" * (files * (width + 4) - 1) + "\n")
        start = (rank - 1) * files
        parts.append(f"{rank:>2} ")
        for f in columns:
            cell(start + f)
        parts.append(f"{rank}\n")
    parts.append(file_line)
    bank(bottom)
    notes = []
    if game.id == "kimasai-mackay":
        notes.append(f"phase {1 if any(position.banks) else 2}")  # (KM-3: phase 1 while a reserve holds a seed)
    if position.reserved:
        notes.append("reserved: " + ", ".join(f"{board.name(h)} by {side_name(game.reserver(h))}"
                                              for h in sorted(position.reserved)))
    if last_move is not None:
        notes.append(f"last move: {board.name(last_move.origin)} → {board.name(last_move.end)}")
    if outcome is not None:
        notes.append(f"game over: {outcome.result} ({outcome.reason})")
    parts.append(indent + " · ".join(notes))
    return Content.assemble(*parts)


def _extent(content: Content) -> tuple[int, int]:
    """The width and height that ``content`` takes."""
    lines = content.split("\n")
    return max(line.cell_length for line in lines), len(lines)


class BoardWidget(Widget, can_focus=True):
    """The position, with a selected hole moved by the arrow keys."""

    DEFAULT_CSS = "BoardWidget { height: auto; width: auto; padding: 0 1; }"
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
        self._drawn: tuple[tuple[object, ...], Content] | None = None
        self._extent = (0, 0)

    def show(self, position: Position, *, last_move: Move | None, outcome: Outcome | None) -> None:
        """The board drawn again (laid out again only when its size changes)."""
        before = self._extent
        self.position, self.last_move, self.outcome = position, last_move, outcome
        self.render()
        self.refresh(layout=self._extent != before)

    def render(self) -> Content:
        """The board as it is now (drawn once for each state)."""
        state = (self.position, self.last_move, self.flip, self.outcome, self.selected if self.has_focus else None)
        if self._drawn is None or self._drawn[0] != state:
            content = board_content(self.game, self.position, last_move=self.last_move, flip=self.flip,
                                    outcome=self.outcome, selected=state[-1])
            self._drawn = (state, content)
            self._extent = _extent(content)
        return self._drawn[1]

    def cell_offset(self, hole: int) -> tuple[int, int]:
        """Where hole ``hole``'s count is drawn in the widget (x, y), as :func:`board_content` lays it out."""
        board, position = self.game.board, self.position
        width = max(2, len(str(max(position.holes))))
        rank, file = divmod(hole, board.files)
        column = board.files - 1 - file if self.flip else file
        row = rank if self.flip else board.ranks - 1 - rank
        if board.ranks == 4 and row >= 2:
            row += 1
        return 1 + 3 + column * (width + 4) + width, 3 + row

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
