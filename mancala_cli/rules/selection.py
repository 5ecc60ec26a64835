"""Which core the rules run on: the compiled one, where the install built it
and it was built from these very sources, else the pure-Python one.

The pure-Python modules of this package are the reference. An install that
finds a C compiler also compiles them with mypyc (``setup.py``): each module
then has an extension module beside its source, built from the same text,
and ``compiled.txt`` beside them records the SHA-256 of every source it was
built from, and the name of the modules' shared library. The compiled modules are used only when every source still has
the digest it was built from; an edited source, a missing stamp or
``MANCALA_PURE=1`` in the environment selects the pure modules, which a finder
then loads from their sources even where an extension module lies beside
them.

    >>> CORE in ("compiled", "pure")
    True
"""
from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys

TYPE_CHECKING = False  # (typing itself is not loaded for this: start-up counts)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType
    from typing import Literal

try:  # the interpreter's own SHA-256, which loads faster than OpenSSL's
    from _sha256 import sha256  # type: ignore[import-not-found, unused-ignore]
except ImportError:  # pragma: no cover (other interpreters)
    from hashlib import sha256

#: The stamp the build writes beside the extension modules: a line
#: ``library NAME`` (the modules' shared library), then ``MODULE SHA256``
#: for every module compiled.
STAMP = "compiled.txt"

_HERE = os.path.dirname(os.path.abspath(__file__))


def read_stamp(text: str) -> tuple[str, dict[str, str]]:
    """The shared library and the digest of every module's source that a stamp records.

    >>> read_stamp("library mancala_cli__mypyc\\ncore 00ff\\n")
    ('mancala_cli__mypyc', {'core': '00ff'})
    """
    library, sources = None, {}
    for line in text.splitlines():
        key, value = line.split()
        if key == "library":
            library = value
        else:
            sources[key] = value
    if library is None or not sources:
        raise ValueError("not a stamp of the compiled core")
    return library, sources


def _compiled_modules() -> list[str] | None:
    """The modules the compiled core holds, if it is here and current, else ``None``."""
    try:
        with open(os.path.join(_HERE, STAMP), encoding="utf-8") as handle:
            library, sources = read_stamp(handle.read())
        if importlib.util.find_spec(library) is None:
            return None
        suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
        for module, digest in sources.items():
            with open(os.path.join(_HERE, f"{module}.py"), "rb") as source:
                if sha256(source.read()).hexdigest() != digest:
                    return None
            if not os.path.exists(os.path.join(_HERE, module + suffix)):
                return None
        return list(sources)
    except (OSError, ValueError, ImportError):
        return None


class _PureFinder:
    """Loads this package's modules from their sources, never from an
    extension module lying beside them (a finder of ``sys.meta_path``)."""

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
