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

import mancala_cli as mancala  # noqa: E402
from mancala_cli.editor.app import EditorApp  # noqa: E402
from mancala_cli.editor.launch import Refused, prepare  # noqa: E402
from mancala_cli.editor.model import EditedGame, EditError  # noqa: E402
from notation.record import GameRecord, MoveNode  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.pmn"))


@pytest.fixture(autouse=True)
def recovery_folder(tmp_path, monkeypatch):
    folder = tmp_path / "recovery"
    monkeypatch.setenv("MANCALA_EDIT_RECOVERY", str(folder))
    return folder


def app_for(path, **options) -> EditorApp:
    opened = prepare(str(path), **options)
    return EditorApp(opened.document, opened.index, opened.edited, offer=opened.offer, choose=opened.choose)


async def type_text(pilot, text: str) -> None:
    await pilot.press(*["enter" if c == "\n" else c for c in text])


async def enter_line(pilot, moves: list[MoveNode]) -> None:
    """Each move typed (m, the token, Enter), its notes, then its variations:
    one move back, the variation entered, back to where it began, forward."""
    for node in moves:
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
    assert target.read_bytes() == game_text(path, record, records[n + 1] if n + 1 < len(records) else None)
