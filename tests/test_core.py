"""The native core and the pure one: which is chosen, that an install never
fails for lack of a compiler, and that both play the same games (every
position, outcome and error; tests/test_native_differential.py compares
them move by move)."""
import os
import shutil
import subprocess
import sys
import zipfile

import pytest

from mancala_cli.rules import selection

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_a_kernel_built_from_other_sources_is_not_used(tmp_path):
    for name in selection.SOURCES:
        (tmp_path / name).write_text(f"/* {name} */\n")
    digest = selection.source_digest(str(tmp_path))
    assert selection.kernel_is_current(digest, str(tmp_path))
    (tmp_path / selection.SOURCES[0]).write_text("/* edited */\n")
    assert not selection.kernel_is_current(digest, str(tmp_path))
    # An installed wheel ships the kernel without its sources: nothing to compare.
    assert selection.kernel_is_current(digest, str(tmp_path / "elsewhere"))


def _core_of(env):
    done = subprocess.run([sys.executable, "-c", "import mancala_cli as m; g = m.get_game('kingulu'); "
                           "print(m.CORE, type(g).__module__)"], capture_output=True, text=True,
                          timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_mancala_pure_selects_the_pure_games():
    env = {**os.environ, "MANCALA_PURE": "1"}
    assert _core_of(env) == ["pure", "mancala_cli.rules.kingulu"]


def test_the_install_built_the_native_core_where_a_compiler_is():
    """The README's install builds the kernel on a machine with a C compiler."""
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler on this machine: the pure core is expected")
    env = {key: value for key, value in os.environ.items() if key != "MANCALA_PURE"}
    assert _core_of(env) == ["native", "mancala_cli.rules.native"]
    done = subprocess.run([sys.executable, "-c", "from notation import tokenizer; print(tokenizer.TOKENIZER)"],
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.stdout == "native\n", done.stderr


def test_mancala_version_names_the_core():
    for pure, core in (("1", "pure"), ("", None)):
        env = {**os.environ, "MANCALA_PURE": pure}
        done = subprocess.run([sys.executable, "-m", "mancala_cli", "--version"], capture_output=True,
                              text=True, timeout=60, env=env)
        expected = core or _core_of(env)[0]
        assert done.stdout == f"mancala 0.1.0 ({expected} core)\n", done.stderr


def _bare_env(tmp_path):
    """An environment with no C compiler: PATH holds Python alone, CC names nothing."""
    bare = tmp_path / "bin"
    bare.mkdir()
    os.symlink(sys.executable, bare / "python3")
    env = {**os.environ, "PATH": str(bare), "CC": "/nonexistent/cc"}
    env.pop("MANCALA_PURE", None)
    return env


ONCE = pytest.mark.skipif(os.environ.get("MANCALA_PURE", "") not in ("", "0"),
                          reason="the installs without a compiler run once, on the default-core run")


@ONCE
def test_without_a_compiler_the_build_makes_the_pure_package(tmp_path):
    """A wheel built with no compiler on PATH holds the sources and no
    extension module, and runs on the pure core."""
    env = _bare_env(tmp_path)
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                           "-w", str(tmp_path / "wheel"), _copy_of_the_project(tmp_path)],
                          capture_output=True, text=True, timeout=600, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    [wheel] = os.listdir(tmp_path / "wheel")
    names = zipfile.ZipFile(tmp_path / "wheel" / wheel).namelist()
    assert "mancala_cli/rules/game.py" in names
    assert not [name for name in names if name.endswith(".so") or name.endswith(".c")]
    target = tmp_path / "site"
    zipfile.ZipFile(tmp_path / "wheel" / wheel).extractall(target)
    done = subprocess.run([sys.executable, "-c", "import mancala_cli, sys; from notation import tokenizer; "
                           "print(mancala_cli.CORE, tokenizer.TOKENIZER, "
                           "mancala_cli.__file__.startswith(sys.argv[1]), tokenizer.__file__.startswith(sys.argv[1]))",
                           str(target)],
                          capture_output=True, text=True, timeout=60, env={**env, "PYTHONPATH": str(target)},
                          cwd=tmp_path)
    assert done.stdout.split() == ["pure", "pure", "True", "True"], done.stderr


def _copy_of_the_project(tmp_path):
    """The files an install reads, copied (a build writes beside its sources)."""
    copy = tmp_path / "project"
    for name in ("mancala_cli", "notation"):
        shutil.copytree(os.path.join(ROOT, name), copy / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyc"))
    for name in ("setup.py", "pyproject.toml", "README.md", "MANIFEST.in"):
        shutil.copy(os.path.join(ROOT, name), copy / name)
    for name in ("examples", "docs"):
        shutil.copytree(os.path.join(ROOT, name), copy / name)
    return str(copy)


@ONCE
def test_the_readme_commands_work_in_a_venv_without_a_compiler(tmp_path):
    """The README's two commands in a fresh venv whose PATH has no compiler:
    the install (here from the packages already installed beside this
    Python: the tests run without network) builds the pure package, and the
    get-going steps and a test file run on the pure core."""
    import sysconfig
    env = _bare_env(tmp_path)
    project = _copy_of_the_project(tmp_path)
    venv = tmp_path / "venv"
    done = subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], capture_output=True,
                          text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    python = venv / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, timeout=60, env=env).stdout.strip()
    # The dependencies (typer, setuptools, resvg-py, pytest …): this Python's own.
    with open(os.path.join(site, "dependencies.pth"), "w") as out:
        out.write(sysconfig.get_paths()["purelib"] + "\n")
    for editable in ([], ["-e"]):
        done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                               "--no-deps", "--no-index", "--no-build-isolation", *editable, project],
                              capture_output=True, text=True, timeout=600, env=env, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        mancala = str(venv / "bin" / "mancala")
        steps = [[mancala, "--version"],
                 [mancala, "validate", *sorted(str(p) for p in (tmp_path / "project" / "examples").glob("*.pmn"))],
                 [mancala, "render", "examples/kingulu-village-match.pmn", "--all", "--out-dir", "diagrams"],
                 [mancala, "render", "examples/kingulu-village-match.pmn", "--format", "png", "-o", "board.png"],
                 [mancala, "render", "examples/kingulu-village-match.pmn", "--format", "html", "-o", "game.html"]]
        for step in steps:
            done = subprocess.run(step, capture_output=True, text=True, timeout=300, env=env, cwd=project)
            assert done.returncode == 0, (step, done.stderr)
        assert subprocess.run(steps[0], capture_output=True, text=True, env=env).stdout == \
            "mancala 0.1.0 (pure core)\n"
        # the PMN reader's tokenizer too is the pure one (no notation._tokenize was built)
        done = subprocess.run([str(python), "-c", "from notation import tokenizer; print(tokenizer.TOKENIZER)"],
                              capture_output=True, text=True, timeout=60, env=env, cwd=tmp_path)
        assert done.stdout == "pure\n", done.stderr
        assert (tmp_path / "project" / "board.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    tests = tmp_path / "project" / "tests"
    tests.mkdir()
    for name in ("__init__.py", "conftest.py", "cdp.py", "test_rules_kingulu.py"):
        shutil.copy(os.path.join(ROOT, "tests", name), tests / name)
    done = subprocess.run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_rules_kingulu.py"],
                          capture_output=True, text=True, timeout=600, env=env, cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr


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
                    reason="the run on the default core compares both")
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
