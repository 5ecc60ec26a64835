"""The compiled core and the pure one: which is chosen, and that both play
the same games (every position, outcome and error)."""
import hashlib
import importlib.machinery
import os
import shutil
import subprocess
import sys
import zipfile

import pytest

from mancala_cli.rules import selection

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def _fake_core(folder, modules=("core", "kingulu")):
    """A rules folder with sources, stand-in extension files and their stamp."""
    digests = {}
    for name in modules:
        source = os.path.join(folder, f"{name}.py")
        with open(source, "w") as out:
            out.write(f"# {name}\n")
        with open(os.path.join(folder, name + SUFFIX), "w") as out:
            out.write("")
        digests[name] = hashlib.sha256(f"# {name}\n".encode()).hexdigest()
    with open(os.path.join(folder, selection.STAMP), "w") as out:
        out.write("library json\n")  # (a library that is found)
        out.writelines(f"{name} {digest}\n" for name, digest in digests.items())


def test_a_current_stamp_selects_the_compiled_modules(tmp_path, monkeypatch):
    _fake_core(tmp_path)
    monkeypatch.setattr(selection, "_HERE", str(tmp_path))
    assert selection._compiled_modules() == ["core", "kingulu"]


@pytest.mark.parametrize("damage", ["edited source", "missing extension", "missing stamp", "bad stamp",
                                    "missing library"])
def test_anything_out_of_date_selects_the_pure_modules(tmp_path, monkeypatch, damage):
    _fake_core(tmp_path)
    monkeypatch.setattr(selection, "_HERE", str(tmp_path))
    if damage == "edited source":
        (tmp_path / "kingulu.py").write_text("# kingulu, edited\n")
    elif damage == "missing extension":
        (tmp_path / ("core" + SUFFIX)).unlink()
    elif damage == "missing library":
        stamp = tmp_path / selection.STAMP
        stamp.write_text(stamp.read_text().replace("library json", "library no_such_library__mypyc"))
    elif damage == "missing stamp":
        (tmp_path / selection.STAMP).unlink()
    else:
        (tmp_path / selection.STAMP).write_text("library json\ncore\n")
    assert selection._compiled_modules() is None


def _core_of(env):
    done = subprocess.run([sys.executable, "-c", "import mancala_cli.rules.core as c, mancala_cli as m; "
                           "print(m.CORE, c.__file__.endswith('.py'))"], capture_output=True, text=True,
                          timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_mancala_pure_loads_the_sources_even_beside_extension_modules():
    env = {**os.environ, "MANCALA_PURE": "1"}
    assert _core_of(env) == ["pure", "True"]


def test_the_install_built_the_compiled_core_where_a_compiler_is():
    """The README's install compiles the core on a machine with a C compiler."""
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler on this machine: the pure core is expected")
    env = {key: value for key, value in os.environ.items() if key != "MANCALA_PURE"}
    assert _core_of(env) == ["compiled", "False"]


def test_without_a_compiler_the_build_makes_the_pure_package(tmp_path):
    """A wheel built with no compiler on PATH holds the sources and no
    extension module, and runs on the pure core."""
    bare = tmp_path / "bin"
    bare.mkdir()
    os.symlink(sys.executable, bare / "python3")
    env = {**os.environ, "PATH": str(bare), "CC": "", "MANCALA_PURE": ""}
    env.pop("MANCALA_PURE")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                           "-w", str(tmp_path / "wheel"), ROOT], capture_output=True, text=True, timeout=600,
                          env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    [wheel] = os.listdir(tmp_path / "wheel")
    names = zipfile.ZipFile(tmp_path / "wheel" / wheel).namelist()
    assert "mancala_cli/rules/core.py" in names
    assert not [name for name in names if name.endswith(".so") or name.endswith(selection.STAMP)]
    target = tmp_path / "site"
    zipfile.ZipFile(tmp_path / "wheel" / wheel).extractall(target)
    done = subprocess.run([sys.executable, "-c", "import mancala_cli, sys; print(mancala_cli.CORE, "
                           "mancala_cli.__file__.startswith(sys.argv[1]))", str(target)],
                          capture_output=True, text=True, timeout=60, env={**env, "PYTHONPATH": str(target)},
                          cwd=tmp_path)
    assert done.stdout.split() == ["pure", "True"], done.stderr


#: Plays random games on the core the environment selects and prints, per
#: game, the plies played and a digest of every position, legal-move list,
#: outcome and the error of one illegal move tried in every position.
TRACE = r"""
import hashlib, random, sys
from mancala_cli import CORE, IllegalMove, all_games
plies_wanted = int(sys.argv[1])
for game in all_games():
    rng, digest, plies = random.Random(7), hashlib.sha256(), 0
    while plies < plies_wanted:
        position, history = game.start(), set()
        while True:
            legal = game.legal_moves(position, history=history)
            over = game.outcome(position, history=history, moves=legal)
            digest.update(repr((position, legal, over)).encode())
            tried = [o for o in range(game.board.size) if o not in {m.origin for m in legal}]
            if tried:
                try:
                    digest.update(repr(game.play(position, rng.choice(tried), history=history)).encode())
                except IllegalMove as error:
                    digest.update(repr((error.rule, error.message, error.origin)).encode())
            if over is not None or not legal:
                break
            move = rng.choice(legal)
            played, after = game.play(position, move.origin, history=history)
            if game.uses_history:
                history.add(position.key())
            position = after
            digest.update(repr(played).encode())
            plies += 1
            if plies % 400 == 0:
                break
    print(CORE, game.id, plies, digest.hexdigest())
"""


@pytest.mark.skipif(os.environ.get("MANCALA_PURE", "") not in ("", "0"),
                    reason="the run on the compiled core compares both")
def test_both_cores_play_the_same_positions_outcomes_and_errors():
    base = {key: value for key, value in os.environ.items() if key != "MANCALA_PURE"}
    runs = {}
    for core, env in (("pure", {**base, "MANCALA_PURE": "1"}), ("default", base)):
        done = subprocess.run([sys.executable, "-c", TRACE, "30000"], capture_output=True, text=True,
                              timeout=900, env=env)
        assert done.returncode == 0, done.stderr
        runs[core] = [line.split() for line in done.stdout.splitlines()]
    pure, default = runs["pure"], runs["default"]
    assert [row[0] for row in pure] == ["pure"] * 3
    assert [row[1:] for row in default] == [row[1:] for row in pure]
    assert all(int(row[2]) >= 30_000 for row in pure)
