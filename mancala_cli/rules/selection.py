"""Which core the rules run on: the compiled one, where the install built it
and it was built from these very sources, else the pure-Python one.

The pure-Python modules of this package are the reference. An install that
finds a C compiler also compiles them with mypyc (``setup.py``): each module
then has an extension module beside its source, built from the same text,
and ``compiled.json`` beside them records the SHA-256 of every source it was
built from, and the name of the modules' shared library. The compiled modules are used only when every source still has
the digest it was built from; an edited source, a missing stamp or
``MANCALA_PURE=1`` in the environment selects the pure modules, which a finder
then loads from their sources even where an extension module lies beside
them.

    >>> CORE in ("compiled", "pure")
    True
"""
from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Literal

#: The stamp the build writes beside the extension modules.
STAMP = "compiled.json"

_HERE = os.path.dirname(os.path.abspath(__file__))


def _compiled_modules() -> list[str] | None:
    """The modules the compiled core holds, if it is here and current, else ``None``."""
    try:
        with open(os.path.join(_HERE, STAMP), encoding="utf-8") as handle:
            stamp = json.load(handle)
        sources: dict[str, str] = stamp["sources"]
        if importlib.util.find_spec(stamp["library"]) is None:  # the modules' shared library
            return None
        suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
        for module, digest in sources.items():
            with open(os.path.join(_HERE, f"{module}.py"), "rb") as source:
                if hashlib.sha256(source.read()).hexdigest() != digest:
                    return None
            if not os.path.exists(os.path.join(_HERE, module + suffix)):
                return None
        return list(sources)
    except (OSError, ValueError, KeyError, TypeError, AttributeError, ImportError):
        return None


class _PureFinder(MetaPathFinder):
    """Loads this package's modules from their sources, never from an
    extension module lying beside them."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        package, _, module = fullname.rpartition(".")
        if package != __package__:
            return None
        source = os.path.join(_HERE, f"{module}.py")
        if not os.path.exists(source):
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def _choose() -> Literal["compiled", "pure"]:
    compiled = None if os.environ.get("MANCALA_PURE", "") not in ("", "0") else _compiled_modules()
    if compiled is not None:
        return "compiled"
    if not any(isinstance(finder, _PureFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _PureFinder())
    return "pure"


#: ``"compiled"`` or ``"pure"``: the core the rules of this process run on.
CORE: Literal["compiled", "pure"] = _choose()
