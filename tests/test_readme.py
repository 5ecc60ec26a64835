"""Every command the README shows runs as shown: its output, line for line,
where the README shows output, and success where it shows none."""
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
BIN = pathlib.Path(sys.executable).parent
MARK = "@@readme-command-done@@"


def console_blocks() -> list[list[tuple[str, list[str]]]]:
    """Each ```console block of the README as (command, lines shown after it)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = []
    for body in re.findall(r"```console\n(.*?)```", text, re.S):
        steps: list[tuple[str, list[str]]] = []
        for line in body.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            else:
                steps[-1][1].append(line)
        blocks.append(steps)
    return blocks


BLOCKS = console_blocks()


@pytest.mark.skipif(not (BIN / "mancala").exists(), reason="mancala is not installed beside this Python")
@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git clone")
@pytest.mark.parametrize("steps", BLOCKS, ids=[steps[0][0][:40] for steps in BLOCKS])
def test_readme_console_block(steps, tmp_path):
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    # One shell for the block, so that `echo $?` sees the command before it.
    script = "".join(f"{command}\n__status=$?\necho {MARK} $__status\n(exit $__status)\n"
                     for command, _ in steps)
    done = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True,
                          env={"PATH": f"{BIN}:/usr/bin:/bin", "LANG": "C.UTF-8"}, timeout=120)
    outputs = done.stdout.split(f"{MARK} ")
    assert len(outputs) == len(steps) + 1, done.stderr
    # outputs[0] is what the first command printed; each later one starts
    # with the status of the command before it, on a line of its own.
    for k, (command, shown) in enumerate(steps):
        printed = outputs[0] if k == 0 else outputs[k].split("\n", 1)[1]
        status = int(outputs[k + 1].split("\n", 1)[0])
        if shown:
            assert printed.splitlines() == shown, command
        else:
            assert status == 0, (command, done.stderr)
    # What the commands wrote is ignored by git, so a clone stays clean.
    written = sorted(p.name for p in tmp_path.iterdir() if p.name != "examples")
    assert all(_ignored(name) for name in written), written


def _ignored(name: str) -> bool:
    return subprocess.run(["git", "check-ignore", "-q", "--no-index", name], cwd=ROOT).returncode == 0


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git clone")
def test_readme_get_going_output_is_ignored():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    folders = re.findall(r"--out-dir (\S+)", text)
    assert folders and all(_ignored(f"{folder}/ply-000.svg") for folder in folders)


@pytest.mark.skipif(not (BIN / "mancala").exists(), reason="mancala is not installed beside this Python")
@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git clone")
def test_readme_get_going_command_runs(tmp_path):
    """The first command of "Get going", less its install steps (the suite
    runs in an installed environment): every step succeeds, and writes the
    files it names, which git ignores."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    command = re.search(r"## Get going\n.*?```sh\n(.*?)\n```", text, re.S).group(1)
    steps = command.split(" && ")
    installs = [step for step in steps[1:] if step.startswith(".venv/bin/pip install")]
    assert steps[0] == "python3 -m venv .venv" and steps[1:len(installs) + 1] == installs != []
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    for step in steps[len(installs) + 1:]:
        assert step.startswith(".venv/bin/mancala "), step
        done = subprocess.run(["bash", "-c", str(BIN) + "/" + step[len(".venv/bin/"):]], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (step, done.stderr)
    assert (tmp_path / "board.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "game.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert (tmp_path / "diagrams" / "ply-000.svg").exists()
    written = sorted(p.name for p in tmp_path.iterdir() if p.name != "examples")
    assert written == ["board.png", "diagrams", "game.html"]
    assert all(_ignored(name) for name in ("board.png", "game.html", "diagrams/ply-000.svg"))


def test_readme_python_example_runs_as_shown(tmp_path):
    """The "From Python" example prints what the README shows, and writes
    only files git ignores."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    code, shown = re.search(r"```python\n(.*?)```\n\nprints\n\n```text\n(.*?)```", text, re.S).groups()
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == shown
    svg = (tmp_path / "final.svg").read_text(encoding="utf-8")
    assert svg.startswith("<?xml") and "0,1,1,4,0,7*/0,11,1,1,0,4 N 7-11 4" in svg
    written = sorted(p.name for p in tmp_path.iterdir() if p.name != "examples")
    assert written == ["final.svg"] and _ignored("final.svg")
