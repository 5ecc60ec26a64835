"""Start-up: a command loads what it needs and nothing more (the figures are
in ``benchmarks/startup.py``; these tests check what makes them)."""
import os
import subprocess
import sys

import pytest

from mancala_cli import CORE

KINGULU_START = "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1"
HEAVY = {"typer", "rich", "lxml", "pyparsing", "pydantic", "click"}


def loaded(*args, env=None):
    """The modules ``mancala ARGS`` imports (from ``python -X importtime``), and its exit status."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "mancala_cli", *args], capture_output=True,
                          text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)
    names = {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    names.discard("package")  # the header line
    return names, done.returncode


def top(names):
    return {name.split(".")[0] for name in names}


def test_importing_the_library_loads_no_heavy_dependency():
    done = subprocess.run([sys.executable, "-c", "import sys, mancala_cli; game = mancala_cli.get_game('kingulu'); "
                           "print(sorted({m.split('.')[0] for m in sys.modules})); "
                           "print(sorted(m for m in sys.modules if m.startswith('mancala_cli.rules.')))"],
                          capture_output=True, text=True, timeout=60)
    packages, rules = done.stdout.splitlines()
    assert set(eval(packages)) & HEAVY == set(), done.stderr
    # Only the game asked for is loaded, with the shared core.
    assert eval(rules) == ["mancala_cli.rules.core", "mancala_cli.rules.kingulu", "mancala_cli.rules.registry",
                           "mancala_cli.rules.selection"]


def test_version_loads_neither_the_command_line_nor_the_rules():
    names, code = loaded("--version")
    assert code == 0
    assert top(names) & HEAVY == set()
    assert not any(name.startswith(("mancala_cli.rules.core", "mancala_cli.cli.commands", "notation"))
                   for name in names)


def test_version_says_which_core_and_pure_can_be_forced():
    fast = subprocess.run([sys.executable, "-m", "mancala_cli", "--version"], capture_output=True, text=True,
                          timeout=60)
    assert (fast.returncode, fast.stdout, fast.stderr) == (0, f"mancala 0.1.0 ({CORE} core)\n", "")
    # The same line from the command line proper (--version among other options).
    slow = subprocess.run([sys.executable, "-m", "mancala_cli", "--version", "games"], capture_output=True,
                          text=True, timeout=60)
    assert slow.stdout == fast.stdout
    pure = subprocess.run([sys.executable, "-m", "mancala_cli", "--version"], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "MANCALA_PURE": "1"})
    assert pure.stdout == "mancala 0.1.0 (pure core)\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_version_on_a_full_disk_or_a_closed_pipe():
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "mancala_cli", "--version"], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (2, "mancala: error: standard output: cannot write: "
                                                 "No space left on device\n")
    reader, writer = os.pipe()
    os.close(reader)
    with os.fdopen(writer, "w") as closed:
        done = subprocess.run([sys.executable, "-m", "mancala_cli", "--version"], stdout=closed,
                              stderr=subprocess.PIPE, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (141, "")


def test_rendering_one_position_loads_one_game_and_no_reader():
    names, code = loaded("render", "--game", "kingulu", "--position", KINGULU_START)
    assert code == 0
    assert top(names) & HEAVY == {"typer", "lxml"}  # lxml draws the SVG
    assert not any(name.startswith(("notation.pmn", "notation.xml", "notation.jsonl", "mancala_cli.rules.kimasai"))
                   for name in names)


def test_validating_a_pmn_file_loads_no_xml_no_pyparsing_and_no_pydantic(tmp_path):
    record = tmp_path / "one.pmn"
    game = subprocess.run([sys.executable, "-m", "mancala_cli", "random", "--game", "kingulu", "--seed", "1",
                           "--max-plies", "20"], capture_output=True, text=True, timeout=60, check=True)
    record.write_text(game.stdout, encoding="utf-8")
    names, code = loaded("validate", "--quiet", str(record))
    assert code == 0
    assert top(names) & HEAVY == {"typer"}
    assert "mancala_cli.rules.kimasai_mackay" not in names
    # Dask loads only with --scheduler.
    assert {"distributed", "dask", "tornado"} & top(names) == set()
    assert "mancala_cli.cli.cluster" not in names


def test_typer_values_are_still_checked_without_pydantic():
    """The parsed values reach the commands as before: choices and numbers
    checked by our parsers, lists of files as lists."""
    from typer.testing import CliRunner

    from mancala_cli.cli import app

    runner = CliRunner()
    assert runner.invoke(app, ["perft", "--game", "kingulu", "--depth", "x"]).output == (
        "mancala: error: --depth must be a whole number (got 'x')\n")
    assert runner.invoke(app, ["perft", "--game", "kingulu", "--depth", "2"]).output.splitlines()[-1] == "15"
    assert runner.invoke(app, ["games", "--format", "yaml"]).exit_code == 2
