"""Which tokenizer the PMN reader runs: the native one, where the install
built it from these very sources, else the pure-Python one.

The pure tokenizer (:mod:`notation.pmn_movetext` with the regular expressions of
:mod:`notation.grammar`) is the reference and the fallback. An install that
finds a C compiler also builds ``_tokenize.c`` beside this file into
``notation._tokenize`` (``setup.py``); it carries the SHA-256 of the source
it was built from and is used only while the source beside it, where there
is one, still has that digest (an editable install not rebuilt runs the
pure tokenizer). ``MANCALA_PURE=1`` in the environment forces the pure one,
as it does the pure rules. The native tokenizer reads a line of plain
moves in one pass and makes each move's :class:`~notation.record.MoveNode`
directly, with the same moves, columns and problems as the pure one
(``tests/test_tokenizer.py`` holds them together).

    >>> TOKENIZER in ("native", "pure")
    True
"""
from __future__ import annotations

import os
from types import ModuleType
from typing import Literal

from .record import MoveNode

try:  # the interpreter's own SHA-256, which loads faster than OpenSSL's
    from _sha256 import sha256  # type: ignore[import-not-found, unused-ignore]
except ImportError:  # pragma: no cover (other interpreters)
    from hashlib import sha256

#: The source the native tokenizer is built from.
SOURCE = "_tokenize.c"

_HERE = os.path.dirname(os.path.abspath(__file__))


def source_digest(folder: str) -> str | None:
    """The SHA-256 of the tokenizer's source in ``folder``; ``None`` where it
    is not there (an installed wheel ships the extension without it)."""
    try:
        with open(os.path.join(folder, SOURCE), "rb") as source:
            digest: str = sha256(source.read()).hexdigest()
        return digest
    except OSError:
        return None


def _load() -> ModuleType | None:
    if os.environ.get("MANCALA_PURE", "") not in ("", "0"):
        return None
    try:  # (local: the extension may not be built, and MANCALA_PURE=1 must not load it)
        from . import _tokenize
    except ImportError:
        return None
    if os.path.dirname(os.path.abspath(_tokenize.__file__)) != _HERE:
        return None  # an extension module of another copy of the package
    here = source_digest(_HERE)
    if here is not None and here != _tokenize.SOURCE_DIGEST:
        return None
    _tokenize.init(MoveNode)
    return _tokenize


#: The native tokenizer's module, or ``None`` where the pure one runs.
kernel: ModuleType | None = _load()
#: ``"native"`` or ``"pure"``: the tokenizer of this process.
TOKENIZER: Literal["native", "pure"] = "pure" if kernel is None else "native"
