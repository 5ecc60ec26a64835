"""``mancala edit``: the time to the first frame, as a ratio to a minimal
Textual app's measured in the same run (each started as its own process,
headless, ending once its first frame is drawn; medians of the wall time,
the two taken in turn each round), and a move's screen update on the
163-ply Klamroth game (examples/kimasai-klamroth-annotated.pmn): the move
played near its end (the last ply with a choice, 160 or before), where the
game goes on (a new variation), the board and the movetext drawn again
(``play``), and until Textual hands the composed screen update to the
terminal (medians; Textual composes at most 60 updates a second).

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

#: The command's own start (mancala_cli.editor.run.run: the file opened,
#: then the application), headless, ending at its first frame.
EDITOR = f"""
from mancala_cli.editor import run
from mancala_cli.editor.app import EditorApp

class FirstFrame(EditorApp):
    def on_mount(self):
        super().on_mount()
        self.call_after_refresh(self.exit)

    def run(self, **options):
        return super().run(headless=True, **options)

run.EditorApp = FirstFrame
assert run.run({GAME!r}) == (0, None)
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


async def move_updates(moves: int) -> tuple[list[float], list[float], list[float]]:
    sys.path.insert(0, ROOT)
    os.environ["MANCALA_EDIT_RECOVERY"] = tempfile.mkdtemp()
    from mancala_cli.editor.app import EditorApp
    from mancala_cli.editor.launch import prepare

    opened = prepare(GAME)
    app = EditorApp(opened.document, opened.index, opened.edited)
    drawn: list[float] = []
    composed: list[float] = []
    painted: list[float] = []
    async with app.run_test(size=(80, 24)) as pilot:
        ply = 159  # (the latest ply near the end with another legal move than the game's)
        while len(app.edited.tried((ply - 1,)).tokens) < 2:
            ply -= 1
        app.edited.go((ply - 1,))
        app.show()
        await pilot.pause()
        main = app.edited.node((ply,)).text
        token = next(t for t in app.edited.legal_tokens() if t != main)
        # Textual's screen update (its frame timer's tick: the layout, and the
        # changed regions composed and handed to the terminal), timed.
        updates: list[tuple[float, float]] = []
        screen = app.screen
        update = screen._on_timer_update

        def timed() -> None:
            begun = time.perf_counter()
            update()
            updates.append((begun, time.perf_counter()))

        screen._on_timer_update = timed  # type: ignore[method-assign]
        screen._update_timer._callback = timed  # (the timer holds the method it was made with)
        for _ in range(moves):
            await pilot.pause()
            updates.clear()
            start = time.perf_counter()
            app.play(token)
            played = time.perf_counter()
            while not updates:
                await asyncio.sleep(0.0005)
            begun, ended = updates[0]
            drawn.append(played - start)
            composed.append(ended - begun)
            painted.append(ended - start)
            app.action_undo()
    return drawn, composed, painted


def main() -> None:
    parser = argparse.ArgumentParser(usage="python benchmarks/edit_startup.py [--runs N] [--moves N]")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--moves", type=int, default=50)
    options = parser.parse_args()
    minimal, editor = first_frames(options.runs)
    low, high = statistics.median(minimal), statistics.median(editor)
    print(f"first frame: minimal Textual app {low * 1000:.0f} ms, mancala edit {high * 1000:.0f} ms "
          f"(the 163-ply game): {high / low:.2f} x (goal: at most 1.5 x; medians of {options.runs})")
    drawn, composed, painted = asyncio.run(move_updates(options.moves))
    work = [a + b for a, b in zip(drawn, composed)]
    print(f"a move on the 163-ply game: played and drawn {statistics.median(drawn) * 1000:.1f} ms, "
          f"the screen composed {statistics.median(composed) * 1000:.1f} ms: "
          f"{statistics.median(work) * 1000:.1f} ms of work (goal: 16 ms, one frame; medians of {options.moves}); "
          f"on the screen {statistics.median(painted) * 1000:.1f} ms after the key "
          f"(with Textual's wait for its next frame)")

if __name__ == "__main__":
    main()
