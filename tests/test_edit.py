"""``mancala edit`` (mancala_cli/editor): driven by Textual's headless Pilot
with keys, as a person would, and saved; the model below it; the command's
refusals."""
from __future__ import annotations

import asyncio
import os
import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("textual")

from textual import events  # noqa: E402

import mancala_cli as mancala  # noqa: E402
from mancala_cli.editor.app import EditorApp  # noqa: E402
from mancala_cli.editor.board_widget import BoardWidget  # noqa: E402
from mancala_cli.editor.launch import Refused, prepare  # noqa: E402
from mancala_cli.editor.model import EditedGame, EditError  # noqa: E402
from mancala_cli.editor.movetext import movetext_content  # noqa: E402
from notation.record import GameRecord, MoveNode  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.pmn"))


#: The editor is the same program on either core (its moves are the
#: library's, whose cores the differential tests hold together): its
#: screens are tested once, in the native-core run.
NATIVE_RUN_ONLY = pytest.mark.skipif(os.environ.get("MANCALA_PURE", "") not in ("", "0"),
                                     reason="the editor's screens are tested once, in the native-core run")


@pytest.fixture(autouse=True)
def quick_pilot(monkeypatch):
    """The Pilot's wait for an idle process after each key and click, in
    steps of 2 ms instead of Textual's 20 ms: the wait for every pending
    message (Pilot._wait_for_screen) is unchanged, and the example games'
    thousands of keys and clicks take a third of the time (a key 20 ms
    instead of 78, a click 44 instead of 138)."""
    from textual import _wait

    monkeypatch.setattr(_wait, "SLEEP_GRANULARITY", 1 / 500, raising=False)
    monkeypatch.setattr(_wait, "SLEEP_IDLE", 1 / 2000, raising=False)


@pytest.fixture(autouse=True)
def recovery_folder(tmp_path, monkeypatch):
    folder = tmp_path / "recovery"
    monkeypatch.setenv("MANCALA_EDIT_RECOVERY", str(folder))
    return folder


def app_for(path, **options) -> EditorApp:
    opened = prepare(str(path), **options)
    return EditorApp(opened.document, opened.index, opened.edited, offer=opened.offer, choose=opened.choose)


async def type_text(pilot, text: str) -> None:
    """``text`` typed key by key (a line break: Enter), or pasted when long
    (as a terminal's bracketed paste sends it: the test stays short)."""
    if len(text) <= 40:
        await pilot.press(*["enter" if c == "\n" else c for c in text])
    else:
        pilot.app.post_message(events.Paste(text))
        await pilot.pause()


async def enter_line(pilot, moves: list[MoveNode]) -> None:
    """Each move played by a click on its hole (typed: m, the token, Enter,
    where the record writes the long form), its notes, then its variations:
    one move back, the variation entered, back to where it began, forward."""
    app = pilot.app
    for node in moves:
        tokens = app.edited.legal_tokens()
        if node.text in tokens and node.destination is None:  # a click on its hole
            hole = app.edited.tried().line.legal_moves()[tokens.index(node.text)].move.origin
            await pilot.click("#board", offset=app.query_one(BoardWidget).cell_offset(hole))
            assert app.edited.node(app.edited.cursor).text == node.text
        else:
            await pilot.press("m", *node.text, "enter", "escape")
        if node.before:
            await pilot.press("C")
            await type_text(pilot, node.before)
            await pilot.press("ctrl+s")
        if node.glyphs or node.nags:
            await pilot.press("n", *" ".join([*node.glyphs, *(f"${n}" for n in node.nags)]), "enter")
        if node.comment:
            await pilot.press("c")
            await type_text(pilot, node.comment)
            await pilot.press("ctrl+s")
        for variation in node.variations:
            await pilot.press("comma")
            await enter_line(pilot, variation)
            await pilot.press(*["comma"] * len(variation), "full_stop")


def game_text(path: pathlib.Path, record: GameRecord, following: GameRecord | None) -> bytes:
    lines = path.read_bytes().splitlines(keepends=True)
    text = b"".join(lines[record.line - 1:(following.line - 1) if following else len(lines)])
    return text.rstrip(b"\n") + b"\n"


def games():
    for path in EXAMPLES:
        records = list(mancala.read(str(path)))
        for n, record in enumerate(records):
            yield pytest.param(path, n, id=f"{path.stem}-{n + 1}")


@NATIVE_RUN_ONLY
@pytest.mark.parametrize(("path", "n"), list(games()))
def test_entering_each_example_game_by_keys_and_saving_gives_its_text(tmp_path, path, n):
    records = list(mancala.read(str(path)))
    record = records[n]
    target = tmp_path / "new.pmn"
    app = app_for(target, game=record.tag("Game"))

    async def run() -> None:
        async with app.run_test(size=(100, 40)) as pilot:
            for name, value in record.tags:
                if name != "Game":
                    await pilot.press("t", *f"{name} {value}", "enter")
            await enter_line(pilot, record.moves)
            await pilot.press("ctrl+s")
            assert str(app.query_one("#message").render()) == f"saved {target}"

    asyncio.run(run())
    assert target.read_bytes().decode() == game_text(path, record, records[n + 1] if n + 1 < len(records) else None).decode()


# -- the model: moves, variations, undo and redo, notes ------------------------------------

def kingulu() -> EditedGame:
    return EditedGame(GameRecord(tags=[("Game", "kingulu"), ("Result", "*")], result="*"))


@pytest.mark.parametrize(("token", "message"), [
    ("c2", "1. c2: KG-ORIGIN: c2 is not one of S's holes"),
    ("a1", "1. a1: KG-FIRSTLAP: a1: the first lap ends in e1, an occupied hole of S's own row"),
    ("c1x5", "1. c1x5: bad-mark: c1x5: the move is c1x6"),
    ("c1^", "1. c1^: bad-mark: c1^: the move is c1x6"),
    ("z9", "1. z9: bad-hole: 'z9' is not a hole of the 2 × 6 board"),
    ("q", "1. q: syntax: 'q' is not a move token (a hole, then xN or ^ if any)"),
])
def test_an_illegal_try_changes_nothing_and_says_why_with_the_rule(token, message):
    edited = kingulu()
    with pytest.raises(EditError) as refused:
        edited.play(token)
    assert str(refused.value) == message
    assert edited.record.moves == [] and edited.cursor == () and not edited.dirty and not edited.undo()


def test_a_move_after_the_end_is_refused_and_the_result_is_filled_in_from_the_rules():
    record = next(mancala.read(str(ROOT / "examples" / "kingulu-village-match.pmn")))
    edited = kingulu()
    for node in record.moves:
        edited.play(node.text)
    assert (edited.record.result, edited.record.tag("Result")) == ("1-0", "1-0")
    with pytest.raises(EditError) as refused:
        edited.play("a2")
    assert str(refused.value) == "12... a2: GAME-OVER: the game has ended (1-0, KG-7)"


def test_any_coordinate_style_is_taken_and_written_in_the_records():
    edited = kingulu()
    assert edited.play("S3x6") == "c1x6" and edited.play("10") == "d2"
    assert [node.text for node in edited.record.moves] == ["c1x6", "d2"]


def test_a_hole_offers_exactly_its_own_moves_along_every_example_game():
    """In the three games a move is fixed by its hole (KM-4, KM-7, KK-2, KG
    moves start from a hole and go one way), so each hole offers at most one
    move: exactly the legal move from it, the holes together every legal move."""
    for path in EXAMPLES:
        record = next(mancala.read(str(path)))
        edited = EditedGame(record)
        holes = range(len(edited.position().holes))
        for k in range(len(record.moves) + 1):
            edited.go((k - 1,) if k else ())
            tried = edited.tried()
            origins = [token.move.origin for token in tried.line.legal_moves()]
            offered = {hole: edited.tokens_from(hole) for hole in holes}
            assert all(len(tokens) <= 1 for tokens in offered.values()), (path.name, k)
            assert [hole for hole in holes if offered[hole]] == sorted(origins), (path.name, k)
            assert sorted(t for tokens in offered.values() for t in tokens) == sorted(tried.tokens), (path.name, k)


def test_a_move_where_the_game_goes_on_makes_a_variation_never_a_truncation():
    edited = kingulu()
    for token in ("c1", "d2", "a1"):
        edited.play(token)
    edited.home()
    assert edited.play("c1") == "c1x6" and edited.cursor == (0,)  # the same move: followed
    assert edited.play("a2") == "a2x1" and edited.cursor == (1, 0, 0)  # another: a variation
    assert [n.text for n in edited.record.moves] == ["c1x6", "d2", "a1x1"]
    edited.back()
    assert edited.play("a2x1") == "a2x1" and edited.cursor == (1, 0, 0)  # it is followed, not doubled
    assert len(edited.record.moves[1].variations) == 1
    assert game_text_of(edited) == "1. c1x6 d2 (1... a2x1) 2. a1x1 *\n"


def game_text_of(edited: EditedGame) -> str:
    return mancala.write(edited.record, coords=edited.coords).split("\n\n", 1)[1]


def test_promote_delete_undo_and_redo():
    edited = kingulu()
    for token in ("c1", "d2", "a1"):
        edited.play(token)
    edited.go((0,))
    edited.play("a2")
    edited.play("d1")
    assert game_text_of(edited) == "1. c1x6 d2 (1... a2x1 2. d1) 2. a1x1 *\n"
    edited.promote()
    assert edited.cursor == (2,)
    assert game_text_of(edited) == "1. c1x6 a2x1 (1... d2 2. a1x1) 2. d1 *\n"
    edited.go((1, 0, 0))
    edited.delete_from_here()
    assert edited.cursor == (0,) and game_text_of(edited) == "1. c1x6 a2x1 2. d1 *\n"
    with pytest.raises(EditError, match="the cursor is on the main line: no variation to promote"):
        edited.promote()
    assert edited.undo() and game_text_of(edited) == "1. c1x6 a2x1 (1... d2 2. a1x1) 2. d1 *\n"
    assert edited.undo() and game_text_of(edited) == "1. c1x6 d2 (1... a2x1 2. d1) 2. a1x1 *\n"
    assert edited.redo() and edited.redo() and game_text_of(edited) == "1. c1x6 a2x1 2. d1 *\n"
    assert not edited.redo()


def test_comments_nags_and_tags_with_their_checks():
    edited = kingulu()
    edited.set_comment("the game begins")
    edited.play("c1")
    edited.set_comment("a capture\non two lines")
    edited.set_comment("before it", before=True)
    edited.set_marks("!? $6")
    edited.set_tag("Event", "Village match")
    edited.set_tag("South", '"Amani"'.strip('"'))
    assert game_text_of(edited) == "{the game begins before it} 1. c1x6!? $6 {a capture\non two lines} *\n"
    assert edited.record.moves[0].before == "before it"
    for bad, message in (("!!!", "'!!!' is not a glyph (! ? !! ?? !? ?!) or a NAG ($0 to $255)"),
                         ("$300", "a NAG is $0 to $255")):
        with pytest.raises(EditError) as refused:
            edited.set_marks(bad)
        assert str(refused.value) == message
    for name, value, message in (("Game", "x", "the Game tag is fixed while editing"),
                                 ("Setup", "x", "the Setup tag is fixed once moves are played"),
                                 ("Bad-name", "x", "tag name 'Bad-name' is not letters, digits and _"),
                                 ("Site", "a\x07b", "tag Site: character U+0007 is not allowed")):
        with pytest.raises(EditError) as refused:
            edited.set_tag(name, value)
        assert str(refused.value) == message
    edited.set_tag("Event", "")
    assert edited.record.tag("Event") is None and edited.record.tag("South") == "Amani"
    edited.set_comment("  ")
    assert edited.record.moves[0].comment is None


# -- the application: illegal tries, undo, archives, damaged files, quitting, recovery ----

def run_app(app: EditorApp, steps, size=(100, 40)) -> None:
    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await steps(pilot)
    asyncio.run(run())


def message(app: EditorApp) -> str:
    return str(app.query_one("#message").render())


def test_illegal_tries_by_key_and_by_click_say_why_and_change_nothing(tmp_path):
    app = app_for(tmp_path / "new.pmn", game="kingulu")
    seen = []

    async def steps(pilot):
        await pilot.press("m", *"c1x5", "enter")
        seen.append(message(app))
        await pilot.press("escape")
        await pilot.click("#board", offset=app.query_one(BoardWidget).cell_offset(6))  # a2: North's hole
        seen.append(message(app))
        await pilot.click("#board", offset=app.query_one(BoardWidget).cell_offset(0))  # a1: KG-FIRSTLAP
        seen.append(message(app))
        await pilot.press("right", "right", "enter")  # the arrow keys from a1 to c1, played
        seen.append(message(app))
        await pilot.press("ctrl+z")
        seen.append((message(app), app.edited.record.moves == []))
        await pilot.press("ctrl+y")
        seen.append((message(app), [n.text for n in app.edited.record.moves]))

    run_app(app, steps)
    assert seen == ["1. c1x5: bad-mark: c1x5: the move is c1x6",
                    "1. a2: KG-ORIGIN: a2 is not one of S's holes",
                    "1. a1: KG-FIRSTLAP: a1: the first lap ends in e1, an occupied hole of S's own row",
                    "played c1x6", ("undone", True), ("redone", ["c1x6"])]


def test_a_hole_with_several_moves_offers_exactly_those(tmp_path, monkeypatch):
    """No position of the three games has two moves from one hole (the test
    above), so the choice is shown with the model's answer for one hole
    replaced: two legal moves offered for c1, completed from those two only."""
    app = app_for(tmp_path / "new.pmn", game="kingulu")
    legal = app.edited.tried().tokens
    other = next(token for token in legal if token[0] not in "cf")
    assert "f1" in legal and "c1x6" in legal  # (f1 is legal and not offered: no completion for "f")
    offered = ["c1x6", other]
    seen = []

    async def steps(pilot):
        monkeypatch.setattr(app.edited, "tokens_from", lambda hole: offered if hole == 2 else [])
        await pilot.click("#board", offset=app.query_one(BoardWidget).cell_offset(2))
        field = app.query_one("#move")
        seen.append((message(app), app.focused is field, app.edited.record.moves == []))
        await pilot.press("f", "right")  # (→ takes the completion, where there is one)
        seen.append(field.value)
        await pilot.press("backspace", other[0], "right")
        seen.append(field.value)
        await pilot.press("enter")
        seen.append((message(app), [node.text for node in app.edited.record.moves]))

    run_app(app, steps)
    assert seen == [(f"choose: c1x6 {other}", True, True), "f", other, (f"played {other}", [other])]


def test_an_archive_edited_in_one_game_and_saved_keeps_the_others_byte_for_byte(tmp_path):
    source = ROOT / "examples" / "kingulu-tournament.pmn"
    target = tmp_path / "tournament.pmn"
    target.write_bytes(source.read_bytes())
    target.chmod(0o640)
    app = app_for(target, index=2)

    async def steps(pilot):
        await pilot.press("end", "comma", "m", *"f2", "enter", "escape", "c", *"better", "ctrl+s", "ctrl+s")

    run_app(app, steps)
    old, new = source.read_text().split("\n"), target.read_text().split("\n")
    assert [i for i, (a, b) in enumerate(zip(old, new)) if a != b] == [24] and len(old) == len(new)
    assert new[24] == "d2 9. a1x1 e2 10. f1 e2 11. c1 c2 12. a1 d2 (12... f2 {better}) 0-1"
    assert target.stat().st_mode & 0o777 == 0o640


def test_an_archive_offers_its_games(tmp_path):
    app = app_for(ROOT / "examples" / "kingulu-tournament.pmn")
    chosen = []

    async def steps(pilot):
        await pilot.press("down", "down", "enter")
        chosen.append((app.index, app.edited.record.tag("South")))

    run_app(app, steps)
    assert chosen == [(3, list(mancala.read(str(ROOT / "examples" / "kingulu-tournament.pmn")))[2].tag("South"))]


DAMAGED = """[Game "kingulu"]
[Result "*"]

1. c1x6 d2 *

[Game "kingulu"]
[Result "*"]

1. c1x6 c1 *

[Game "kingulu"]
[Result "*"]

1. d1x6 {never closed *
"""


def test_a_damaged_file_lists_its_problems_edits_its_good_games_and_loses_nothing(tmp_path):
    target = tmp_path / "damaged.pmn"
    target.write_text(DAMAGED)
    opened = prepare(str(target))
    assert opened.index == 1 and opened.choose
    validated = subprocess.run([sys.executable, "-m", "mancala_cli", "validate", str(target)], capture_output=True,
                               text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert [line for lines in opened.document.problems for line in lines] == validated.stdout.splitlines()[:-1]
    assert [len(lines) for lines in opened.document.problems] == [0, 1, 2]
    with pytest.raises(Refused) as refused:
        prepare(str(target), index=2)
    assert (str(refused.value), refused.value.status) == (opened.document.problems[1][0], 1)
    app = EditorApp(opened.document, opened.index, opened.edited, choose=True)
    shown = []

    async def steps(pilot):
        shown.append(message(app))
        await pilot.press("escape", "end", "m", *"a1", "enter", "ctrl+s")

    run_app(app, steps)
    assert shown == ["3 problems in the file: g lists them"]
    assert target.read_text() == DAMAGED.replace("1. c1x6 d2 *", "1. c1x6 d2 2. a1x1 *", 1)


def test_quitting_with_unsaved_changes_asks(tmp_path):
    target = tmp_path / "new.pmn"
    app = app_for(target, game="kingulu")
    asked = []

    async def steps(pilot):
        await pilot.press("m", *"c1", "enter", "escape", "q")
        asked.append((type(app.screen).__name__, app.is_running))
        await pilot.press("c")  # cancel: back to the game
        asked.append((type(app.screen).__name__, app.is_running))
        await pilot.press("q", "s")  # save and quit

    run_app(app, steps)
    assert asked == [("Choice", True), ("Screen", True)]
    assert target.read_text() == '[Game "kingulu"]\n[Result "*"]\n\n1. c1x6 *\n'


def test_every_change_is_kept_at_once_and_offered_back_at_the_next_start(tmp_path, recovery_folder):
    target = tmp_path / "new.pmn"
    first = app_for(target, game="kingulu")

    async def play(pilot):
        await pilot.press("m", *"c1", "enter", *"d2", "enter")

    run_app(first, play)  # (ended without saving or quitting: as a killed terminal would)
    assert not target.exists()
    [kept] = list(recovery_folder.iterdir())
    assert '"pmn": "[Game \\"kingulu\\"]\\n[Result \\"*\\"]\\n\\n1. c1x6 d2 *\\n"' in kept.read_text()
    second = app_for(target, game="kingulu")
    assert second.offer is not None
    seen = []

    async def recover(pilot):
        seen.append(type(second.screen).__name__)
        await pilot.press("r")
        seen.append(([n.text for n in second.edited.record.moves], second.edited.cursor, message(second)))
        await pilot.press("ctrl+s")

    run_app(second, recover)
    assert seen == ["Choice", (["c1x6", "d2"], (1,), "recovered the unsaved changes")]
    assert target.read_text().endswith("1. c1x6 d2 *\n") and list(recovery_folder.iterdir()) == []


def run_edit(*args: str, preamble: str = "") -> subprocess.CompletedProcess[str]:
    code = f"{preamble}\nimport sys\nfrom mancala_cli.cli import main\nsys.argv = ['mancala', 'edit', *sys.argv[1:]]\nmain()"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, stdin=subprocess.DEVNULL, timeout=120)


def test_without_a_terminal_edit_refuses_in_one_line():
    done = run_edit("examples/kingulu-village-match.pmn")
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", "mancala: error: mancala edit needs a terminal: standard input and output are not one\n")


WITHOUT_TEXTUAL = """
import sys

class Missing:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "textual":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, Missing())
"""


def test_without_the_extra_edit_says_how_to_install_it():
    done = run_edit("examples/kingulu-village-match.pmn", preamble=WITHOUT_TEXTUAL)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", "mancala: error: mancala edit needs Textual: pip install 'mancala[edit]'\n")


@pytest.mark.parametrize(("args", "message"), [
    (["--game", "chess", "x.pmn"], "unknown game 'chess'"),
    (["nowhere.pmn"], "a new game needs --game (kingulu, kimasai-mackay or kimasai-klamroth)"),
])
def test_refusals_before_the_editor_starts(args, message, tmp_path):
    with pytest.raises(Refused) as refused:
        prepare(str(tmp_path / args[-1]), game=args[1] if args[0] == "--game" else None)
    assert str(refused.value).startswith(message)
    with pytest.raises(Refused) as refused:
        prepare(str(ROOT / "examples" / "kingulu-tournament.pmn"), index=5)
    assert str(refused.value) == f"{ROOT / 'examples' / 'kingulu-tournament.pmn'} has 4 games: --index 5 names none"


# -- the engine on demand ----------------------------------------------------------------

ENDING = '[Game "kingulu"]\n[Setup "0,0,14*,0,0,1/4*,0,1,3,1,0 S 6-18 13"]\n[Result "*"]\n\n*\n'


async def wait_for(pilot, app: EditorApp, start: str, seconds: float = 60) -> str:
    for _ in range(int(seconds * 10)):
        if message(app).startswith(start):
            return message(app)
        await pilot.pause(0.1)
    raise AssertionError(f"{start!r} never said; the message: {message(app)!r}")


def test_the_engine_solves_in_the_background_and_a_key_cancels_it(tmp_path):
    target = tmp_path / "ending.pmn"
    target.write_text(ENDING)
    app = app_for(target)
    said = []

    async def steps(pilot):
        await pilot.press("s")
        said.append(await wait_for(pilot, app, "engine:"))
        await pilot.press("home")  # (the screen answers while a search runs)
        app.edited = EditedGame(GameRecord(tags=[("Game", "kimasai-klamroth")]))
        app.show()
        await pilot.press("s")
        said.append(message(app))
        await pilot.press("escape")
        said.append(message(app))
        await pilot.pause(0.5)
        said.append(message(app))  # (the cancelled search says nothing afterwards)

    run_app(app, steps)
    assert said == ["engine: win (depth 10); best e1x1; d1=draw e1x1=win",
                    "solving (at most 10 s; Esc cancels)…", "engine cancelled", "engine cancelled"]


def test_annotating_from_the_editor_writes_what_annotate_writes(tmp_path):
    target = tmp_path / "ending.pmn"
    target.write_text(ENDING.replace('[Result "*"]\n', "").replace("\n*\n", "\n13. e1x1 1-0\n"))
    app = app_for(target)

    async def steps(pilot):
        await pilot.press("A")
        await wait_for(pilot, app, "annotated")
        await pilot.press("ctrl+s")

    run_app(app, steps)
    expected = mancala.write(mancala.annotate(next(mancala.read(str(tmp_path / "ending.pmn"))), time=1.0))
    assert target.read_text() == expected
    assert "{Proven: win for South} 13. e1x1! 1-0" in expected


# -- a good terminal citizen ---------------------------------------------------------------

def test_help_resizing_and_no_color(tmp_path, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = app_for(ROOT / "examples" / "kimasai-klamroth-annotated.pmn")
    seen = []

    async def steps(pilot):
        await pilot.press("question_mark")
        seen.append(type(app.screen).__name__)
        await pilot.press("escape")
        seen.append(type(app.screen).__name__)
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        seen.append((app.size.width, app.query_one(BoardWidget).size.height))
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        seen.append((app.size.width, app.query_one(BoardWidget).size.height, app.query_one("#keys").size.height))

    run_app(app, steps, size=(80, 24))
    assert app.no_color
    assert seen == ["Choice", "Screen", (120, 11), (80, 11, 2)]


@pytest.mark.parametrize("to", ["json", "xml"])
def test_json_lines_and_xml_open_and_save_in_their_own_format(tmp_path, to):
    target = tmp_path / f"tournament.{'jsonl' if to == 'json' else 'xml'}"
    mancala.write(mancala.read(str(ROOT / "examples" / "kingulu-tournament.pmn")), target, format=to)
    before = target.read_bytes()
    opened = prepare(str(target), index=2)
    assert opened.document.format == to
    opened.edited.end()
    opened.edited.back()
    opened.edited.play("f2")
    opened.document.save(2, opened.edited.record)
    records = list(mancala.read(str(target)))
    assert [len(r.moves[-1].variations) for r in records] == [0, 1, 0, 0]
    assert records[1].moves[-1].variations[0][0].text == "f2"
    if to == "json":  # the other games' lines, byte for byte
        old, new = before.splitlines(), target.read_bytes().splitlines()
        assert [k for k, (a, b) in enumerate(zip(old, new)) if a != b] == [1] and len(old) == len(new)


def test_a_click_on_a_move_of_the_movetext_goes_there(tmp_path):
    app = app_for(tmp_path / "new.pmn", game="kingulu")
    seen = []

    async def steps(pilot):
        await pilot.press("m", *"c1", "enter", *"d2", "enter", "escape")
        seen.append(app.edited.cursor)
        await pilot.click("#movetext", offset=(1 + 4, 1))  # "1. c1x6 d2 *": on c1x6
        seen.append((app.edited.cursor, str(app.edited.position().side)))

    run_app(app, steps)
    assert seen == [(1,), ((0,), "N")]


def test_the_movetext_of_a_long_game_is_wrapped_to_its_width_and_shows_the_cursors_move(tmp_path):
    """The 163-ply game at 80 × 24: the lines wrapped beside the scrollbar,
    each line's text the movetext's own, End shows the last move (reversed)
    with the result, the scrollbar's thumb where the lines are; at 120 × 40
    the lines are wrapped again, fewer, at the whole width (they fit: no
    scrollbar)."""
    app = app_for(ROOT / "examples" / "kimasai-klamroth-annotated.pmn")
    seen = []

    def shown(movetext):
        strips = [movetext.render_line(y) for y in range(movetext.size.height)]
        texts = [strip.text.rstrip() for strip in strips]
        reversed_ = [segment.text for strip in strips for segment in strip if segment.style and segment.style.reverse]
        return texts, reversed_

    async def settled(pilot, done) -> None:
        """Paused until ``done()`` (a resize reaches the screen, then the
        widget, then its scrollbar: a few turns of the loop; at most 5 s)."""
        for _ in range(100):
            if done():
                return
            await pilot.pause(0.05)

    async def steps(pilot):
        movetext = app.query_one("#movetext")
        await settled(pilot, lambda: movetext.show_vertical_scrollbar)
        seen.append((movetext.size.width, movetext.virtual_size.width, movetext.show_vertical_scrollbar))
        whole = " ".join(line.plain for line in movetext._lines)
        seen.append(whole.split() == movetext_content(app.edited).plain.split())
        seen.append(shown(movetext)[0][0])  # (the cursor at the start: "start", reversed)
        await pilot.press("end")
        texts, reversed_ = shown(movetext)
        seen.append((texts[-1].endswith("{North has no stone left.} 1-0"), reversed_))
        seen.append(movetext.vertical_scrollbar.position == movetext.scroll_y == movetext.max_scroll_y > 0)
        lines = len(movetext._lines)
        await pilot.resize_terminal(120, 40)
        await settled(pilot, lambda: movetext.size.width == 118 and not movetext.show_vertical_scrollbar)
        seen.append((movetext.virtual_size.width, movetext.show_vertical_scrollbar, len(movetext._lines) < lines,
                     reversed_ == shown(movetext)[1]))

    run_app(app, steps, size=(80, 24))
    assert seen == [(78, 76, True), True, "start {Only one stone can move at first: b2 steps into the empty a2.} 1.",
                    (True, ["c2x1"]), True, (118, False, True, True)]
