"""The wheel ships what the help and the README point at: the documents and
the proof files, under ``mancala_cli/docs/``, and the installed package's
``--help`` names them where they are installed."""
from __future__ import annotations

import glob
import os
import pathlib
import shutil
import subprocess
import sys
import zipfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
SHIPPED = sorted(p.relative_to(ROOT / "docs").as_posix()
                 for pattern in ("*.md", "commands/*.md", "*.json", "*.txt.xz") for p in (ROOT / "docs").glob(pattern))


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> pathlib.Path:
    pytest.importorskip("setuptools")
    base = tmp_path_factory.mktemp("wheel")
    source = base / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv*", "build", "*.egg-info", "__pycache__",
                                                                 ".pytest_cache", ".mypy_cache", ".ruff_cache", "*.so"))
    env = {**os.environ, "MANCALA_PURE": "1"}  # (the pure package: no compiler needed, and quick)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--no-build-isolation",
                            "-q", "-w", str(base / "dist")], capture_output=True, text=True, env=env, timeout=300)
    assert built.returncode == 0, built.stderr
    # A clean build says nothing (setuptools' warnings of a deprecated
    # licence table or of data folders not listed as packages were here);
    # pip's own notes on this machine's package index are not the build's.
    said = [line for line in built.stderr.splitlines() if not line.startswith("WARNING: Location ")]
    assert said == []
    (found,) = (base / "dist").glob("mancala-*.whl")
    return found


def test_the_wheel_holds_the_documents_and_the_proofs(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert len(SHIPPED) >= 10 and "kingulu-proof.txt.xz" in SHIPPED and "library.md" in SHIPPED
    assert "commands/solve.md" in SHIPPED  # (the command pages, a folder of their own)
    assert {f"mancala_cli/docs/{name}" for name in SHIPPED} <= names


def test_the_installed_help_points_at_the_installed_proofs(wheel, tmp_path):
    target = tmp_path / "site"
    installed = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                                "--target", str(target), str(wheel)], capture_output=True, text=True, timeout=300)
    assert installed.returncode == 0, installed.stderr
    env = {**os.environ, "PYTHONPATH": str(target), "MANCALA_PURE": "1"}
    where = subprocess.run([sys.executable, "-c", "import mancala_cli.documents as d; print(d.proof_glob())"],
                           capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60).stdout.strip()
    assert where == str(target / "mancala_cli" / "docs" / "kingulu-proof*.txt.xz")
    assert len(glob.glob(where)) == 4
    for command in ("solve", "annotate"):
        shown = subprocess.run([sys.executable, "-m", "mancala_cli", command, "--help"], capture_output=True,
                               text=True, env=env, cwd=tmp_path, timeout=60)
        # (the help wraps its lines, the path too: compared without blanks)
        assert shown.returncode == 0 and where in "".join(shown.stdout.split()), shown.stdout
