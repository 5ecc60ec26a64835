"""Every benchmark script runs: ``python benchmarks/NAME.py --help`` prints
its usage (docs/performance.md gives each figure with the script's command,
and a script that no longer starts would leave its figures without one)."""
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
SCRIPTS = sorted((ROOT / "benchmarks").glob("*.py"))


@pytest.mark.parametrize("script", SCRIPTS, ids=[path.name for path in SCRIPTS])
def test_a_benchmark_script_starts_and_gives_its_usage(script):
    done = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage:")
