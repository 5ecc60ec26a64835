"""``mancala edit`` in a real terminal: tmux runs it (``send-keys``,
``capture-pane``): a move played and saved, and a second session killed
with SIGKILL mid-game whose recovery file holds every move."""
from __future__ import annotations

import json
import os
import pathlib
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import pytest

pytest.importorskip("textual")
if shutil.which("tmux") is None:
    pytest.skip("tmux is not installed", allow_module_level=True)

ROOT = pathlib.Path(__file__).resolve().parent.parent


pytestmark = pytest.mark.skipif(os.environ.get("MANCALA_PURE", "") not in ("", "0"),
                                reason="the editor's screens are tested once, in the native-core run")


class Terminal:
    """One tmux session of 80 × 24 running ``mancala edit ARGS`` (its own server socket)."""

    def __init__(self, tmp_path: pathlib.Path, name: str, *args: str) -> None:
        self.socket = str(tmp_path / f"tmux-{name}")
        self.name = name
        env = {"PYTHONPATH": str(ROOT), "MANCALA_EDIT_RECOVERY": str(tmp_path / "recovery"), "TERM": "xterm-256color"}
        command = " ".join(["exec", "env", *(f"{k}={shlex.quote(v)}" for k, v in env.items()),
                            shlex.quote(sys.executable), "-m", "mancala_cli", "edit", *map(shlex.quote, args)])
        self.tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", f"cd {shlex.quote(str(ROOT))} && {command}")
        self.tmux("set-option", "-t", name, "remain-on-exit", "on")
        self.pid = int(self.tmux("display-message", "-p", "-t", name, "#{pane_pid}").strip())

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-S", self.socket, *args], capture_output=True, text=True, check=True,
                              timeout=30).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.name)

    def wait_for(self, text: str, seconds: float = 90) -> str:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            shown = self.screen()
            if text in shown:
                return shown
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never shown; the screen:\n{self.screen()}")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", self.name, *keys)

    def move(self, token: str, played: str, *, focus: bool = True) -> None:
        """``m`` (again until the move entry says it has the focus: keys sent
        while the application starts may be lost), the token, Enter; the
        move entry keeps the focus for the next move."""
        for _ in range(20 if focus else 0):
            self.keys("m")
            try:
                self.wait_for("type a move:", 3)
                break
            except AssertionError:
                continue
        self.keys(*token, "Enter")
        self.wait_for(f"played {played}")

    def dead(self) -> bool:
        return self.tmux("display-message", "-p", "-t", self.name, "#{pane_dead}").strip() == "1"

    def close(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True, timeout=30)


@pytest.fixture
def short_folder():
    """A folder of a short name, so that "saved PATH" fits on the 80
    columns of the status line (pytest's own under xdist does not)."""
    folder = pathlib.Path(tempfile.mkdtemp(prefix="me", dir="/tmp"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_a_move_played_and_saved_in_a_real_terminal(tmp_path, short_folder):
    target = short_folder / "game.pmn"
    terminal = Terminal(tmp_path, "save", "--game", "kingulu", str(target))
    try:
        shown = terminal.wait_for("Bao Kingulu — move 1, South to move")
        assert "^S save  q quit" in shown
        terminal.move("c1", "c1x6")
        terminal.keys("C-s")
        terminal.wait_for(f"saved {target}")
        terminal.keys("Escape")
        time.sleep(1)  # (Esc and a key at once are Alt and the key to a terminal)
        end = time.monotonic() + 60
        while not terminal.dead() and time.monotonic() < end:
            terminal.keys("q")
            time.sleep(1)
        assert terminal.dead()
    finally:
        terminal.close()
    assert target.read_text() == '[Game "kingulu"]\n[Result "*"]\n\n1. c1x6 *\n'
    assert not list((tmp_path / "recovery").iterdir())


def test_a_session_killed_mid_game_loses_no_move(tmp_path):
    target = tmp_path / "game.pmn"
    terminal = Terminal(tmp_path, "killed", "--game", "kingulu", str(target))
    try:
        terminal.wait_for("Bao Kingulu — move 1, South to move")
        for token, played in (("c1", "c1x6"), ("d2", "d2"), ("a1", "a1x1")):
            terminal.move(token, played, focus=token == "c1")
        os.kill(terminal.pid, signal.SIGKILL)  # (the editor itself: the pane's process, started by exec)
        end = time.monotonic() + 30
        while not terminal.dead() and time.monotonic() < end:
            time.sleep(0.2)
        assert terminal.dead()
    finally:
        terminal.close()
    assert not target.exists()
    [kept] = list((tmp_path / "recovery").iterdir())
    assert json.loads(kept.read_text())["pmn"] == '[Game "kingulu"]\n[Result "*"]\n\n1. c1x6 d2 2. a1x1 *\n'
    again = Terminal(tmp_path, "again", "--game", "kingulu", str(target))
    try:
        shown = again.wait_for("holds unsaved changes")
        assert "(r) recover  (d) discard" in shown
        again.keys("r")
        shown = again.wait_for("recovered the unsaved changes")
        assert "1. c1x6 d2 2. a1x1 *" in shown
    finally:
        again.close()
