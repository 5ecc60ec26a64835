"""Which core the rules run on: the native kernel, where the install built it
from these very sources, else the pure-Python rules.

The pure-Python modules of this package are the reference and the fallback.
An install that finds a C compiler also builds the native kernel
(``_native.c`` and the units beside it, by ``setup.py``), which carries the
SHA-256 of the sources it was built from; the games then run on it
(:mod:`.native`) unless the sources beside it have changed since (an
editable install not rebuilt) or ``MANCALA_PURE=1`` is in the environment.

    >>> CORE in ("native", "pure")
    True
"""
from __future__ import annotations

import os

from ..version import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Literal

try:  # the interpreter's own SHA-256, which loads faster than OpenSSL's
    from _sha256 import sha256  # type: ignore[import-not-found, unused-ignore]
except ImportError:  # pragma: no cover (other interpreters)
    from hashlib import sha256

#: The kernel's sources, in the order its digest reads them (as ``setup.py``).
SOURCES = ("native.h", "_native.c", "native_rules.c", "native_search.c", "native_tablebase.c")

_HERE = os.path.dirname(os.path.abspath(__file__))


def source_digest(folder: str) -> str | None:
    """The SHA-256 of the kernel's sources in ``folder``; ``None`` where they
    are not there (an installed wheel ships the kernel without them)."""
    digest = sha256()
    try:
        for name in SOURCES:
            with open(os.path.join(folder, name), "rb") as source:
                digest.update(source.read())
    except OSError:
        return None
    hexdigest: str = digest.hexdigest()
    return hexdigest


def kernel_is_current(built: str, folder: str) -> bool:
    """Whether a kernel built from sources of digest ``built`` matches the
    sources in ``folder`` (true where there are none to compare).

    >>> kernel_is_current("00ff", "/nonexistent")
    True
    """
    here = source_digest(folder)
    return here is None or here == built


def _choose() -> Literal["native", "pure"]:
    if os.environ.get("MANCALA_PURE", "") not in ("", "0"):
        return "pure"
    try:  # (local: the kernel may not be built, and MANCALA_PURE=1 must not load it)
        from . import _native
    except ImportError:
        return "pure"
    return "native" if kernel_is_current(_native.SOURCE_DIGEST, _HERE) else "pure"


#: ``"native"`` or ``"pure"``: the core the rules of this process run on.
CORE: Literal["native", "pure"] = _choose()
