"""Every public name says what it is: each name ``mancala_cli`` exports,
each public name the modules of ``mancala_cli.rules`` and ``mancala_cli.solving`` define, the public methods and properties of the
classes among them, and every public name of the compiled kernel. The test
runs on whichever core is active (``MANCALA_PURE=1`` for the pure one)."""
from __future__ import annotations

import importlib
import inspect
import types

import pytest

import mancala_cli
from mancala_cli.rules.selection import CORE

#: The names of the rules and of the search that the library's users take,
#: by the module that defines each.
EXPORTED = {
    "mancala_cli.rules.board": ["NORTH", "SIDES", "SOUTH", "Board", "Side", "other", "side_name"],
    "mancala_cli.rules.game": ["DRAW", "LAP_LIMIT", "Game", "GameInProgress", "IllegalMove", "InvalidPosition",
                               "MancalaError", "Move", "Outcome"],
    "mancala_cli.rules.position": ["MutablePosition", "Position"],
    "mancala_cli.rules.counting": ["divide", "perft"],
    "mancala_cli.rules.registry": ["GAME_IDS", "UnknownGame", "all_games", "get_game"],
    "mancala_cli.solving.search": ["Solver", "DEFAULT_MEMORY", "DEFAULT_SECONDS"],
    "mancala_cli.solving.search_result": ["SearchResult", "result_name"],
    "mancala_cli.solving.table_file": ["TableFileError"],
    "mancala_cli.solving.endgame": ["Tablebase", "TablebaseError"],
    "mancala_cli.solving.proofs": ["ProofBook", "Proof", "ProofError", "NoProof", "write_proof"],
    "mancala_cli.solving.cluster_search": ["ClusterSolver", "ClusterSolution", "ClusterSolveError"],
    "mancala_cli.solving.engine_facts": ["annotate_record", "Limits", "AnnotateTask"],
}
MODULES = [importlib.import_module(name) for name in EXPORTED]


def _public(module: types.ModuleType) -> list[str]:
    """What the library's users take from ``module``."""
    return EXPORTED.get(module.__name__) or list(module.__all__)


def _undocumented(value: object) -> bool:
    return not (getattr(value, "__doc__", None) or "").strip()


def _missing(module: types.ModuleType) -> list[str]:
    missing = []
    # (mancala_cli's __all__ holds the entry points help() lists; dir() every name it loads when first used)
    for name in sorted({*_public(module), *(dir(module) if module is mancala_cli else ())}):
        if name.startswith("__"):  # (__version__)
            continue
        value = getattr(module, name)
        if not callable(value) and not isinstance(value, type) and not hasattr(value, "__origin__"):
            continue  # a constant (NORTH, GAME_IDS, CORE): documented where it is defined
        if _undocumented(value):
            missing.append(f"{module.__name__}.{name}")
        if isinstance(value, type) and value.__module__.startswith(("mancala_cli", "notation")):
            for attr, member in vars(value).items():
                if attr.startswith("_"):
                    continue
                if (inspect.isfunction(member) or isinstance(member, (property, classmethod, staticmethod))
                        or inspect.isbuiltin(member) or inspect.ismethoddescriptor(member)) \
                        and _undocumented(member):
                    missing.append(f"{module.__name__}.{name}.{attr}")
    return missing


@pytest.mark.parametrize("module", [mancala_cli, *MODULES], ids=lambda m: m.__name__)
def test_every_exported_name_has_a_docstring(module: types.ModuleType) -> None:
    assert _missing(module) == [], CORE


def test_the_compiled_kernel_documents_every_public_name() -> None:
    if CORE != "native":
        pytest.skip("the rules run on the pure core")
    from mancala_cli.rules import _native
    missing = []
    for name in dir(_native):
        value = getattr(_native, name)
        if name.startswith("_") or not callable(value):
            continue
        if _undocumented(value):
            missing.append(name)
        for attr, member in vars(value).items() if isinstance(value, type) else ():
            if not attr.startswith("_") and _undocumented(member):
                missing.append(f"{name}.{attr}")
    assert "Search" in dir(_native) and missing == []


def test_the_check_sees_a_missing_docstring() -> None:
    module = types.ModuleType("mancala_cli.fake")

    class Thing:
        """A documented class."""

        def method(self) -> None:
            pass

    Thing.__module__ = "mancala_cli.fake"

    def helper() -> None:
        pass

    module.__all__ = ["Thing", "helper", "LIMIT"]  # type: ignore[attr-defined]
    module.Thing, module.helper, module.LIMIT = Thing, helper, 3  # type: ignore[attr-defined]
    assert _missing(module) == ["mancala_cli.fake.Thing.method", "mancala_cli.fake.helper"]
