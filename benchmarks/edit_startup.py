"""``mancala edit``: the time to the first frame, as a ratio to a minimal
Textual app's measured in the same run (each started as its own process,
headless, ending once its first frame is drawn; medians of the wall time,
the two taken in turn each round), and a move's screen update on the
163-ply Klamroth game (examples/kimasai-klamroth-annotated.pmn): the move
played near its end (the last ply with a choice, 160 or before), where the game goes on (a new variation), the
board and the movetext drawn again, and the screen repainted (medians).

usage: python benchmarks/edit_startup.py [--runs N] [--moves N]

The goals: the first frame within 1.5 x the minimal app's; a move's update
within one frame, 16 ms.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAME = os.path.join(ROOT, "examples", "kimasai-klamroth-annotated.pmn")

MINIMAL = """
from textual.app import App
from textual.widgets import Static

class Minimal(App):
    def compose(self):
        yield Static("hello")

    def on_mount(self):
        self.call_after_refresh(self.exit)

Minimal().run(headless=True)
"""

EDITOR = f"""
from mancala_cli.editor.app import EditorApp
from mancala_cli.editor.launch import prepare

class FirstFrame(EditorApp):
    def on_mount(self):
        super().on_mount()
        self.call_after_refresh(self.exit)

opened = prepare({GAME!r})
FirstFrame(opened.document, opened.index, opened.edited).run(headless=True)
"""


def first_frames(runs: int) -> tuple[list[float], list[float]]:
    env = {**os.environ, "PYTHONPATH": ROOT, "MANCALA_EDIT_RECOVERY": tempfile.mkdtemp()}
    minimal, editor = [], []
    for _ in range(runs):
        for script, times in ((MINIMAL, minimal), (EDITOR, editor)):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", script], check=True, env=env, cwd=ROOT,
                           stdin=subprocess.DEVNULL, capture_output=True, timeout=300)
            times.append(time.perf_counter() - start)
    return minimal, editor


async def move_updates(moves: int) -> tuple[list[float], list[float]]:
    sys.path.insert(0, ROOT)
    os.environ["MANCALA_EDIT_RECOVERY"] = tempfile.mkdtemp()
    from mancala_cli.editor.app import EditorApp
    from mancala_cli.editor.launch import prepare

    opened = prepare(GAME)
    app = EditorApp(opened.document, opened.index, opened.edited)
    drawn, painted = [], []
    async with app.run_test(size=(80, 24)) as pilot:
        ply = 159  # (the latest ply near the end with another legal move than the game's)
        while len(app.edited.tried((ply - 1,)).tokens) < 2:
            ply -= 1
        app.edited.go((ply - 1,))
        app.show()
        await pilot.pause()
        main = app.edited.node((ply,)).text
        token = next(t for t in app.edited.legal_tokens() if t != main)
        for _ in range(moves):
            start = time.perf_counter()
            app.play(token)
            drawn.append(time.perf_counter() - start)
            await pilot.pause()
            painted.append(time.perf_counter() - start)
            app.action_undo()
            await pilot.pause()
    return drawn, painted


def main() -> None:
    parser = argparse.ArgumentParser(usage="python benchmarks/edit_startup.py [--runs N] [--moves N]")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--moves", type=int, default=50)
    options = parser.parse_args()
    minimal, editor = first_frames(options.runs)
    low, high = statistics.median(minimal), statistics.median(editor)
    print(f"first frame: minimal Textual app {low * 1000:.0f} ms, mancala edit {high * 1000:.0f} ms "
          f"(the 163-ply game): {high / low:.2f} x (goal: at most 1.5 x; medians of {options.runs})")
    drawn, painted = asyncio.run(move_updates(options.moves))
    print(f"a move on the 163-ply game: played and drawn {statistics.median(drawn) * 1000:.1f} ms, "
          f"with the screen repainted {statistics.median(painted) * 1000:.1f} ms "
          f"(goal: 16 ms; medians of {options.moves})")


if __name__ == "__main__":
    main()
