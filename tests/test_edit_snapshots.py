"""Screenshots of ``mancala edit`` at 80 × 24, compared as snapshots
(pytest-textual-snapshot; ``--snapshot-update`` writes them again): each
game, each orientation, a position in the middle of an example game with its
last move marked; and the one in docs/commands/edit.md is the first of them."""
from __future__ import annotations

import os
import pathlib

import pytest

pytest.importorskip("textual")
pytest.importorskip("pytest_textual_snapshot")

from mancala_cli.editor.app import EditorApp  # noqa: E402
from mancala_cli.editor.launch import prepare  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
GAMES = {"kingulu": "examples/kingulu-village-match.pmn", "kimasai-mackay": "examples/kimasai-mackay-annotated.pmn",
         "kimasai-klamroth": "examples/kimasai-klamroth-annotated.pmn"}


pytestmark = pytest.mark.skipif(os.environ.get("MANCALA_PURE", "") not in ("", "0"),
                                reason="the editor's screens are tested once, in the native-core run")


@pytest.fixture(autouse=True)
def in_the_project(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # (the file's name is shown as given: the same on every machine)
    monkeypatch.setenv("MANCALA_EDIT_RECOVERY", str(tmp_path / "recovery"))


def editor(path: str) -> EditorApp:
    opened = prepare(path)
    return EditorApp(opened.document, opened.index, opened.edited)


@pytest.mark.parametrize("flip", [False, True], ids=["south", "north"])
@pytest.mark.parametrize("game", list(GAMES))
def test_each_game_and_orientation(snap_compare, game, flip):
    keys = ["full_stop"] * 7 + (["f"] if flip else [])
    assert snap_compare(editor(GAMES[game]), press=keys, terminal_size=(80, 24))


def test_the_screenshot_of_the_docs_is_the_editor_as_it_is():
    """docs/edit.svg is the kingulu snapshot, South below."""
    stored = ROOT / "tests" / "__snapshots__" / "test_edit_snapshots" / \
        "test_each_game_and_orientation[kingulu-south].svg"
    assert (ROOT / "docs" / "edit.svg").read_text() == stored.read_text()
