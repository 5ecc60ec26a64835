"""A build that should be native is native.

An install never fails for lack of a compiler: where compiling the kernel or
the tokenizer fails, ``setup.py`` says so in one line and installs the pure
code, a line that ``pip install -q`` hides. So a build environment that is
meant to compile both (CI, on every Python it supports) sets
``MANCALA_EXPECT_NATIVE=1``, and this test then fails when either came up
pure. Without that variable it checks only that the choice is reported
consistently.
"""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from mancala_cli.rules import selection
from notation import tokenizer

EXPECT_NATIVE = os.environ.get("MANCALA_EXPECT_NATIVE", "") not in ("", "0")
PURE_ASKED = os.environ.get("MANCALA_PURE", "") not in ("", "0")


@pytest.mark.skipif(not EXPECT_NATIVE or PURE_ASKED, reason="MANCALA_EXPECT_NATIVE=1 is not set (or MANCALA_PURE is)")
def test_the_kernel_and_the_tokenizer_are_native():
    assert (selection.CORE, tokenizer.TOKENIZER) == ("native", "native"), (
        "the install came up pure although MANCALA_EXPECT_NATIVE=1: reinstall with "
        "`pip install -v -e .` to see the compiler's error")


def test_version_names_the_core_in_use():
    done = subprocess.run([sys.executable, "-m", "mancala_cli", "--version"], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.strip().endswith(f"({selection.CORE} core)")


#: The C sources of the two extensions (setup.py compiles the .c files).
C_SOURCES = [*(os.path.join("mancala_cli", "rules", name) for name in selection.SOURCES),
             os.path.join("notation", tokenizer.SOURCE)]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_the_sources_use_no_private_api_of_cpython():
    """Nothing of CPython's that starts with ``_Py`` (its private API, which
    may change in any release)."""
    import re

    for name in C_SOURCES:
        with open(os.path.join(ROOT, name), encoding="utf-8") as source:
            assert not re.findall(r"\b_Py\w*", source.read()), name


def test_the_sources_compile_without_a_warning():
    """Each unit, as setup.py compiles it, with -Wall -Wextra on top and every
    warning an error."""
    import shutil
    import sysconfig

    compiler = shutil.which(os.environ.get("CC") or "cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler on this machine")
    include = sysconfig.get_paths()["include"]
    for name in (name for name in C_SOURCES if name.endswith(".c")):
        done = subprocess.run([compiler, "-c", "-o", os.devnull, "-O2", "-fPIC", "-fvisibility=hidden", "-Wall",
                               "-Wextra", "-Werror", f"-I{include}", os.path.join(ROOT, name)],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
