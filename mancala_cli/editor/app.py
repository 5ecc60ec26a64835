"""The Textual application of ``mancala edit``: the board, the move entry
with completion of the legal moves, the movetext, the notes, the engine on
demand, and the files (save, recovery, the games of an archive)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Footer, Input, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from notation.pmn_reader import read_games
from notation.record import GameRecord

from ..playing import GamePosition, Solution
from ..solving.search import Solver
from .board_widget import BoardWidget
from .edited_files import EditedFile, Recovery
from .model import EditedGame, EditError
from .movetext import Movetext, address_of

__all__ = ["EditorApp", "ENGINE_SECONDS", "HELP"]

#: The engine's time limit for one position (the ``s`` key), and per position when annotating.
ENGINE_SECONDS = 10.0
ANNOTATE_SECONDS = 1.0

HELP = """\
mancala edit: keys

  board       arrows choose a hole, Enter or a click plays it
  m           type a move (Tab or → completes a legal move; Enter plays)
  , .         one move back, one forward (←/→ in the movetext, Tab to reach it)
  Home End    the start, the end of the line
  click       a move of the movetext goes to it
  p           promote the variation at the cursor
  Delete      delete from the cursor's move to the end of its line
  ctrl+z/y    undo, redo (every change)
  c / C       the comment after the move / before it (ctrl+s keeps it, Esc drops it)
  n           glyphs and NAGs of the move: ! ? !! ?? !? ?! $0..$255
  t           a tag: Name value (no value: removed)
  s / Esc     solve the position (at most 10 s, in the background) / cancel
  A           annotate the game's main line as `mancala annotate` does
  f           flip the board
  g           the games of the file (an archive)
  ctrl+s      save; q quits (asking when there are unsaved changes)

Playing a move where the game goes on makes a variation; every change is
kept at once in a recovery file, offered back at the next start."""


#: Every action's key, the editor's footer (two lines at 80 columns).
KEYS = ("^S save  q quit  m move  ,/. Home/End walk  ^Z/^Y undo/redo  p promote  Del cut  "
        "c/C comment  n NAG  t tag  s/Esc solve/stop  A annotate  f flip  g games  ? help")


class Prompt(ModalScreen[str | None]):
    """One line (or a text, ``multiline``) asked for; ``None`` when dropped."""

    BINDINGS = [Binding("escape", "drop", "Drop"), Binding("ctrl+s", "keep", "Keep")]
    DEFAULT_CSS = "Prompt { align: center middle; } #box { width: 76; height: auto; border: round $accent; " \
                  "padding: 0 1; background: $surface; } #box TextArea { height: 8; }"

    def __init__(self, title: str, value: str = "", *, multiline: bool = False) -> None:
        super().__init__()
        self.title_text, self.value, self.multiline = title, value, multiline

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield Static(self.title_text)
            yield TextArea(self.value, id="text") if self.multiline else Input(self.value, id="text")
            yield Footer()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_keep(self) -> None:
        field = self.query_one("#text")
        self.dismiss(field.text if isinstance(field, TextArea) else field.value)  # type: ignore[attr-defined]

    def action_drop(self) -> None:
        self.dismiss(None)


class Choice(ModalScreen[str | None]):
    """A question answered by one key: ``choices`` maps keys to answers."""

    DEFAULT_CSS = "Choice { align: center middle; } #box { width: 76; height: auto; border: round $warning; " \
                  "padding: 0 1; background: $surface; }"

    def __init__(self, text: str, choices: dict[str, str]) -> None:
        super().__init__()
        self.text, self.choices = text, choices

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield Static(self.text, markup=False)
            yield Static("  ".join(f"({key}) {answer}" for key, answer in self.choices.items()), markup=False)

    def on_key(self, event: Any) -> None:
        if event.key in self.choices:
            event.stop()
            self.dismiss(self.choices[event.key])
        elif event.key == "escape":
            event.stop()
            self.dismiss(None)


class Games(ModalScreen[int | None]):
    """The games of a file: a game with errors is shown with them, not opened."""

    BINDINGS = [Binding("escape", "drop", "Back")]
    DEFAULT_CSS = "Games { align: center middle; } #box { width: 78; height: 20; border: round $accent; " \
                  "background: $surface; } OptionList { height: 1fr; }"

    def __init__(self, document: EditedFile) -> None:
        super().__init__()
        self.document = document

    def compose(self) -> ComposeResult:
        options = []
        for n, (record, problems) in enumerate(zip(self.document.records, self.document.problems), 1):
            who = " – ".join(filter(None, (record.tag("South"), record.tag("North"))))
            head = f"{n}. {record.tag('Event') or ''} {who} {record.tag('Result') or ''}".rstrip()
            options.append(Option(head, id=str(n), disabled=bool(problems)))
            options += [Option("    " + line, disabled=True) for line in problems]
        with Vertical(id="box"):
            yield Static(f"{self.document.path}: choose a game (games with errors are shown, not opened)")
            yield OptionList(*options)
            yield Footer()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))

    def action_drop(self) -> None:
        self.dismiss(None)


class EditorApp(App[None]):
    """The editor of one game of ``document`` (game ``index``, from 1)."""

    TITLE = "mancala edit"
    CSS = """
    Screen { layout: vertical; }
    #info { height: 1; padding: 0 1; color: $text-muted; text-wrap: nowrap; text-overflow: ellipsis; }
    #move { height: 1; border: none; padding: 0 1; }
    #legal { height: 1; padding: 0 1; color: $text-muted; }
    #message { height: 1; padding: 0 1; }
    #keys { height: auto; padding: 0; background: $panel; }
    """
    BINDINGS = [
        Binding("ctrl+s", "save", "Save"),
        Binding("q", "quit_editor", "Quit"),
        Binding("m", "enter_move", "Move"),
        Binding("comma", "step_back", "Back"),
        Binding("full_stop", "step_forward", "Fwd"),
        Binding("home", "home", "Start", show=False),
        Binding("end", "end", "End", show=False),
        Binding("ctrl+z", "undo", "Undo"),
        Binding("ctrl+y", "redo", "Redo"),
        Binding("p", "promote", "Promote"),
        Binding("delete", "delete", "Del"),
        Binding("c", "comment", "Comment"),
        Binding("C", "comment_before", "Before", show=False),
        Binding("n", "marks", "NAG"),
        Binding("t", "tag", "Tag"),
        Binding("s", "solve", "Solve"),
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("A", "annotate", "Annotate", show=False),
        Binding("f", "flip", "Flip"),
        Binding("g", "games", "Games", show=False),
        Binding("question_mark,f1", "help", "Help"),
    ]

    def __init__(self, document: EditedFile, index: int, edited: EditedGame, *,
                 recovery: Recovery | None = None, offer: dict[str, Any] | None = None, choose: bool = False) -> None:
        super().__init__()
        self.document, self.index, self.edited = document, index, edited
        self.recovery = recovery or Recovery(document.path, index)
        self.offer = offer
        self.choose = choose
        self._solver: Solver | None = None
        self._engine_id = 0
        #: The moves offered for one hole (a choice), until the screen is drawn again.
        self._choice: list[str] = []

    # -- the screen -----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield BoardWidget(self.edited.game, id="board")
        yield Static("", id="info", markup=False)
        yield Movetext(id="movetext")
        yield Input(placeholder="move (m): a legal move, completed with Tab", id="move")
        yield Static("", id="legal", markup=False)
        yield Static("", id="message", markup=False)
        yield Static(KEYS, id="keys", markup=False)

    def on_mount(self) -> None:
        self.query_one(BoardWidget).focus()
        self.show()
        if self.offer is not None:
            self.push_screen(Choice(f"A recovery file from {self.offer.get('saved')} holds unsaved changes "
                                    f"to this game. Recover them?", {"r": "recover", "d": "discard"}),
                             self._recovered)
        if self.choose:
            self.action_games()
        problems = [line for lines in self.document.problems for line in lines]
        if problems:
            self.say(f"{len(problems)} problem{'s' if len(problems) > 1 else ''} in the file: g lists them")

    def _recovered(self, answer: str | None) -> None:
        entry, self.offer = self.offer, None
        if answer == "recover" and entry is not None:
            record = next(iter(read_games(str(entry["pmn"]))), None)
            if record is not None:
                self.edited = EditedGame(record, default_game=self.edited.game.id)
                self.edited.dirty = True
                cursor = tuple(entry.get("cursor") or ())
                try:
                    self.edited.go(cursor)
                except (IndexError, AttributeError):
                    self.edited.go(())
                self.say("recovered the unsaved changes")
                self.show()
                return
        self.recovery.drop()

    def show(self) -> None:
        """Everything drawn again from the model."""
        edited = self.edited
        self._choice = []
        try:
            tried = edited.tried()
        except EditError as error:
            self.say(str(error))
            return
        board = self.query_one(BoardWidget)
        board.show(tried.line.position, last_move=edited.last_move(), outcome=tried.line.outcome())
        self.query_one(Movetext).show(edited)
        record = edited.record
        tags = " · ".join(f"{name} {value}" for name, value in record.tags if name not in ("Game",))
        mark = " [modified]" if edited.dirty else ""
        # (the lines are one row high: no layout)
        self.query_one("#info", Static).update(f"{self.document.path or 'untitled'}{mark} · {tags}", layout=False)
        self.query_one("#legal", Static).update("legal: " + " ".join(tried.tokens) if tried.tokens else
                                                  "no legal move", layout=False)
        self.query_one("#move", Input).suggester = SuggestFromList(tried.tokens, case_sensitive=False)

    def say(self, text: str) -> None:
        self.query_one("#message", Static).update(text, layout=False)

    def changed(self) -> None:
        """After every change: drawn, and kept in the recovery file at once."""
        self.show()
        try:
            self.recovery.keep(self.edited.record, self.edited.cursor)
        except OSError as error:
            self.say(f"the recovery file cannot be written: {error}")

    # -- moves ----------------------------------------------------------------------------

    def play(self, token: str) -> None:
        try:
            written = self.edited.play(token)
        except EditError as error:
            self.say(str(error))
            return
        self.say(f"played {written}")
        self.changed()

    def action_hole(self, hole: int) -> None:
        """A hole clicked (or chosen with Enter): its move, or the choice of its moves."""
        board = self.query_one(BoardWidget)
        board.selected = hole
        tokens = self.edited.tokens_from(hole)
        if len(tokens) > 1:
            self._choice = tokens
            field = self.query_one("#move", Input)
            field.value = ""
            field.suggester = SuggestFromList(tokens, case_sensitive=False)  # (show() offers every move again)
            field.focus()
            self.say("choose: " + " ".join(tokens))
            return
        self.play(tokens[0] if tokens else self.edited.game.board.name(hole))  # (an illegal one says why)

    def on_board_widget_chosen(self, message: BoardWidget.Chosen) -> None:
        self.action_hole(message.hole)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "move" or not event.value.strip():
            return
        event.input.value = ""
        self.play(event.value)

    def on_key(self, event: Any) -> None:
        if event.key == "tab" and self.focused is self.query_one("#move", Input):
            field = self.query_one("#move", Input)
            if field._suggestion:
                event.stop()
                event.prevent_default()
                field.value = field._suggestion
                field.cursor_position = len(field.value)

    def on_descendant_focus(self, event: Any) -> None:
        if getattr(event.widget, "id", None) == "move":
            self.say("choose: " + " ".join(self._choice) if self._choice else
                     "type a move: Tab completes it, Enter plays it, Esc goes back to the board")

    def action_enter_move(self) -> None:
        self.query_one("#move", Input).focus()

    def action_goto(self, key: str) -> None:
        self.edited.go(address_of(key))
        self.show()

    def action_step_back(self) -> None:
        self.edited.back()
        self.show()

    def action_step_forward(self) -> None:
        self.edited.forward()
        self.show()

    def action_home(self) -> None:
        self.edited.home()
        self.show()

    def action_end(self) -> None:
        self.edited.end()
        self.show()

    def _edit(self, change: Callable[[], object], done: str) -> None:
        try:
            change()
        except EditError as error:
            self.say(str(error))
            return
        self.say(done)
        self.changed()

    def action_undo(self) -> None:
        if self.edited.undo():
            self.say("undone")
            self.changed()
        else:
            self.say("nothing to undo")

    def action_redo(self) -> None:
        if self.edited.redo():
            self.say("redone")
            self.changed()
        else:
            self.say("nothing to redo")

    def action_promote(self) -> None:
        self._edit(self.edited.promote, "variation promoted")

    def action_delete(self) -> None:
        self._edit(self.edited.delete_from_here, "deleted to the end of the line")

    # -- notes ----------------------------------------------------------------------------

    def action_comment(self, before: bool = False) -> None:
        where = "before the move" if before else "after the move" if self.edited.cursor else "before the first move"
        self.push_screen(Prompt(f"Comment {where} (ctrl+s keeps it, Esc drops it):",
                                self.edited.comment(before=before), multiline=True),
                         lambda text: None if text is None else self._edit(
                             lambda: self.edited.set_comment(text, before=before), "comment set"))

    def action_comment_before(self) -> None:
        self.action_comment(before=True)

    def action_marks(self) -> None:
        self.push_screen(Prompt("Glyphs and NAGs of the move (! ? !! ?? !? ?! $N):", self.edited.marks()),
                         lambda text: None if text is None else self._edit(
                             lambda: self.edited.set_marks(text), "NAGs set"))

    def action_tag(self) -> None:
        self.push_screen(Prompt("Tag: Name value (no value: removed)"), self._tagged)

    def _tagged(self, text: str | None) -> None:
        if not text or not text.strip():
            return
        name, _, value = text.strip().partition(" ")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = value[1:-1]
        self._edit(lambda: self.edited.set_tag(name, value), f"tag {name} set" if value else f"tag {name} removed")

    # -- the engine -----------------------------------------------------------------------

    def action_solve(self) -> None:
        if self._solver is not None:
            self.say("the engine is already at work: Esc cancels")
            return
        line = self.edited.tried().line
        self._solver = Solver(line.game)
        self._engine_id += 1
        self.say(f"solving (at most {ENGINE_SECONDS:g} s; Esc cancels)…")
        self._solve(self._solver, line.copy(), self._engine_id)

    @work(thread=True, exclusive=False)
    def _solve(self, solver: Solver, line: Any, ticket: int) -> None:
        found = solver.solve(line.position, seconds=ENGINE_SECONDS, history=set(line.history))
        solution = Solution(GamePosition(line.game, line.position), found)
        self.call_from_thread(self._solved, solution, ticket)

    def _solved(self, solution: Solution, ticket: int) -> None:
        self._solver = None
        if ticket != self._engine_id:
            return
        best = " ".join(solution.best) or "-"
        moves = " ".join(f"{token}={result}" for token, result in solution.moves)
        stopped = "" if solution.complete else f", stopped by {solution.stopped}"
        self.say(f"engine: {solution.result} (depth {solution.depth}{stopped}); best {best}; {moves}")

    def action_cancel(self) -> None:
        """Esc: the engine cancelled, else back to the board."""
        if self._solver is not None:
            self._engine_id += 1
            self._solver.stop()
            self._solver = None
            self.say("engine cancelled")
        else:
            self.query_one(BoardWidget).focus()

    def action_annotate(self) -> None:
        self.say(f"annotating the main line ({ANNOTATE_SECONDS:g} s a position)…")
        self._annotate(self.edited.record)

    @work(thread=True, exclusive=True)
    def _annotate(self, record: GameRecord) -> None:
        # (local: annotate brings the archives and the batch runs, which the first frame does without;
        # measured: docs/performance.md, 'Editor')
        from ..api import annotate

        annotated = annotate(record, time=ANNOTATE_SECONDS)
        self.call_from_thread(self._annotated, annotated)

    def _annotated(self, annotated: GameRecord) -> None:
        def replace() -> None:
            self.edited._change()
            self.edited.record = annotated
            self.edited._changed()
        self._edit(replace, "annotated as `mancala annotate` writes it")

    # -- files ----------------------------------------------------------------------------

    def action_save(self) -> None:
        if self.document.path is None:
            self.push_screen(Prompt("Save as (a file name):"), self._save_as)
            return
        self._save(None)

    def _save_as(self, path: str | None) -> None:
        if path and path.strip():
            self._save(path.strip())

    def _save(self, path: str | None) -> bool:
        try:
            written = self.document.save(self.index, self.edited.record, path)
        except (OSError, ValueError) as error:
            self.say(f"not saved: {error}")
            return False
        self.edited.dirty = False
        self.recovery.drop()
        self.recovery = Recovery(written, self.index)
        self.say(f"saved {written}")
        self.show()
        return True

    def action_games(self) -> None:
        self.push_screen(Games(self.document), self._chosen)

    def _chosen(self, index: int | None) -> None:
        if index is None or index == self.index:
            return
        if self.edited.dirty:
            self.say("save or undo the changes to this game first")
            return
        self.index = index
        self.edited = EditedGame(self.document.records[index - 1])
        self.recovery = Recovery(self.document.path, index)
        self.show()

    def action_help(self) -> None:
        self.push_screen(Choice(HELP, {"escape": "back"}))

    def action_flip(self) -> None:
        board = self.query_one(BoardWidget)
        board.flip = not board.flip
        board.refresh()

    def action_quit_editor(self) -> None:
        if not self.edited.dirty:
            self.recovery.drop()
            self.exit()
            return
        self.push_screen(Choice("The game has unsaved changes.", {"s": "save", "d": "discard", "c": "cancel"}),
                         self._quit_answer)

    def _quit_answer(self, answer: str | None) -> None:
        if answer == "save" and self._save(None if self.document.path else "untitled.pmn"):
            self.exit()
        elif answer == "discard":
            self.recovery.drop()
            self.exit()

