"""The examples in the docstrings of every module and in docs/library.md
run as shown."""
from __future__ import annotations

import doctest
import importlib
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS


def _modules() -> list[str]:
    names = []
    for package in ("mancala_cli", "notation"):
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__main__":
                continue
            if parts[-1] == "__init__":
                parts.pop()
            names.append(".".join(parts))
    return names


@pytest.mark.parametrize("name", _modules())
def test_module_examples(name, monkeypatch):
    if name == "mancala_cli.lsp.server":  # (the modules that need an extra: lsp, dask)
        pytest.importorskip("pygls", reason="the language server needs pygls: pip install 'mancala[lsp]'")
    if name == "mancala_cli.batch.dask_client":
        pytest.importorskip("distributed", reason="connecting to a cluster needs Dask: pip install 'mancala[dask]'")
    monkeypatch.chdir(ROOT)
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=FLAGS)
    assert result.failed == 0


@pytest.mark.parametrize("page", ["docs/library.md", "docs/lsp.md"])
def test_documentation_examples(page, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = doctest.testfile(str(ROOT / page), module_relative=False, optionflags=FLAGS)
    assert result.failed == 0 and result.attempted > (10 if page == "docs/library.md" else 5)
