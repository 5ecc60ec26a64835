"""``mancala split`` removes only the files an earlier split wrote (the
folder's list, ``.mancala-split``), and replaces the old set with the new
one only once the new one is whole: a split that fails or is stopped half
way leaves the old set as it was."""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

import mancala_cli.cli.split as split
from mancala_cli import get_game
from mancala_cli.cli.commands import whole
from mancala_cli.files import output
from mancala_cli.files.writing import open_writer
from mancala_cli.random_records import random_game
from notation.pmn_writer import write_game

app = whole()

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture(scope="module")
def distinct(tmp_path_factory):
    """300 different games of kingulu."""
    rng = random.Random(7)
    path = tmp_path_factory.mktemp("split") / "distinct.pmn"
    path.write_text("\n".join(write_game(random_game(get_game("kingulu"), rng, None)) for _ in range(300)),
                    encoding="utf-8")
    return path


def listing(folder):
    """The files of ``folder`` and their bytes (the list of the last split and folders left out)."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())
            if p.name != ".mancala-split" and not p.is_dir()}


def test_a_file_split_did_not_write_is_not_removed(distinct, tmp_path):
    parts = tmp_path / "parts"
    parts.mkdir()
    (parts / "00009.pmn").write_text("mine\n")
    result = run("split", distinct, "-n", 150, "--out-dir", parts)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")
    assert sorted(p.name for p in parts.iterdir()) == [".mancala-split", "00001.pmn", "00002.pmn", "00009.pmn"]
    assert (parts / "00009.pmn").read_text() == "mine\n"
    # The files of the earlier split that the new set does not replace are removed and named;
    # one changed since is no longer the split's, and stays.
    result = run("split", distinct, "-n", 40, "--out-dir", parts)
    assert (result.exit_code, result.stderr) == (0, "")
    (parts / "00007.pmn").write_text("changed\n")
    result = run("split", distinct, "-n", 100, "--out-dir", parts)
    assert (result.exit_code, result.stdout) == (0, "")
    assert result.stderr == f"mancala: {parts}: removed 4 files of the earlier split (00004.pmn … 00008.pmn)\n"
    assert sorted(p.name for p in parts.iterdir()) == [".mancala-split", "00001.pmn", "00002.pmn", "00003.pmn",
                                                       "00007.pmn", "00009.pmn"]
    assert (parts / "00007.pmn").read_text() == "changed\n"
    result = run("split", distinct, "-n", 150, "--out-dir", parts, "--to", "json")
    assert result.stderr == f"mancala: {parts}: removed 3 files of the earlier split (00001.pmn, 00002.pmn, " \
                            "00003.pmn)\n"
    assert sorted(listing(parts)) == ["00001.jsonl", "00002.jsonl", "00007.pmn", "00009.pmn"]


def test_files_of_a_split_without_a_list_are_not_removed(distinct, tmp_path):
    parts = tmp_path / "parts"
    parts.mkdir()
    for name in ("00001.pmn", "00002.pmn", "00003.pmn"):
        (parts / name).write_text("an older split's\n")
    assert run("split", distinct, "-n", 150, "--out-dir", parts).exit_code == 0
    assert sorted(listing(parts)) == ["00001.pmn", "00002.pmn", "00003.pmn"]
    assert (parts / "00003.pmn").read_text() == "an older split's\n"


def test_a_split_that_fails_half_way_leaves_the_old_set(distinct, tmp_path, monkeypatch):
    parts = tmp_path / "parts"
    assert run("split", distinct, "-n", 100, "--out-dir", parts).exit_code == 0
    old = listing(parts)
    assert sorted(old) == ["00001.pmn", "00002.pmn", "00003.pmn"]
    opened = []

    def full(fd, data):
        raise OSError(28, "No space left on device")

    def opening(path, target):  # the disk is full from the 4th file of 6 on
        opened.append(path)
        if len(opened) == 4:
            monkeypatch.setattr(output, "_write", full)
        return open_writer(path, target)

    monkeypatch.setattr(split, "open_writer", opening)
    result = run("split", distinct, "-n", 50, "--out-dir", parts, "--jobs", 1)
    assert (result.exit_code, result.stderr) == (
        2, f"mancala: error: {parts / '00004.pmn'}: cannot write: No space left on device\n")
    assert listing(parts) == old
    assert sorted(p.name for p in parts.iterdir()) == [".mancala-split", *old]  # no staging folder left
    monkeypatch.undo()
    assert run("split", distinct, "-n", 50, "--out-dir", parts).exit_code == 0
    assert sorted(listing(parts)) == [f"{k:05d}.pmn" for k in range(1, 7)]


def _split_from_a_pipe(distinct, folder):
    """A split of ``distinct`` read from a pipe, fed half the games and held
    there, once a new file has been written (in the staging folder, or, as
    before sets, in place of the old 00001.pmn)."""
    games = distinct.read_text(encoding="utf-8").split("\n\n[")
    process = subprocess.Popen([sys.executable, "-m", "mancala_cli", "split", "-", "-n", "20", "--out-dir", folder,
                                "--jobs", "1", "--quiet"], stdin=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdin.write(("\n\n[".join(games[:200]) + "\n\n[").encode())
    process.stdin.flush()
    first = (folder / "00001.pmn").read_bytes()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        staged = [name for entry in folder.iterdir() if entry.is_dir() for name in os.listdir(entry)]
        if staged or (folder / "00001.pmn").read_bytes() != first:
            break
        time.sleep(0.05)
    else:
        process.kill()
        pytest.fail("split wrote no file")
    return process


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL])
def test_a_split_stopped_half_way_leaves_the_old_set(distinct, tmp_path, signum):
    parts = tmp_path / "parts"
    assert run("split", distinct, "-n", 100, "--out-dir", parts).exit_code == 0
    old = listing(parts)
    process = _split_from_a_pipe(distinct, parts)
    process.send_signal(signum)
    process.communicate(timeout=60)
    assert process.returncode == -signum or process.returncode == 128 + signum
    assert listing(parts) == old
    leftovers = [p.name for p in parts.iterdir() if p.is_dir()]
    assert len(leftovers) == (1 if signum == signal.SIGKILL else 0)
    # The next split removes the staging folder a killed one left, and the old set.
    result = run("split", distinct, "-n", 150, "--out-dir", parts)
    assert (result.exit_code, result.stderr) == (0, f"mancala: {parts}: removed 1 file of the earlier split "
                                                    "(00003.pmn)\n")
    assert sorted(p.name for p in parts.iterdir()) == [".mancala-split", "00001.pmn", "00002.pmn"]
