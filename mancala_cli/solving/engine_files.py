"""What the search is given, checked once for the library and the command
line alike: its limits (:func:`check_limits`), the endgame tables
(:func:`endgame_tables`) and the proofs (:func:`proof_book`) read from
their paths, an unreadable file raised as
:class:`~mancala_cli.errors.UnreadableInput` in the words ``mancala solve``
and ``annotate`` print.

    >>> check_limits(time=None, depth=None, nodes=0)
    Traceback (most recent call last):
    ...
    ValueError: nodes must be at least 1, not 0
    >>> proof_book("no/such/proof.txt")
    Traceback (most recent call last):
    ...
    mancala_cli.errors.UnreadableInput: no/such/proof.txt: cannot read: No such file or directory
"""
from __future__ import annotations

import math
import os
from collections.abc import Iterable

from ..errors import UnreadableInput
from .endgame import Tablebase
from .proofs import ProofBook

__all__ = ["check_limits", "endgame_tables", "proof_book", "proof_paths", "unreadable"]


def check_limits(*, time: float | None, depth: int | None, nodes: int | None) -> None:
    """The search limits of :func:`~mancala_cli.solve`, :func:`~mancala_cli.annotate`
    and :func:`~mancala_cli.annotate_files`: each ``None`` (no such limit), ``time``
    a number of seconds more than 0 and finite, ``depth`` and ``nodes`` whole
    numbers of at least 1 (else :class:`ValueError`; :class:`TypeError` for
    what is no number)."""
    if time is not None:
        if isinstance(time, bool) or not isinstance(time, (int, float)):
            raise TypeError(f"time must be a number of seconds, not {type(time).__name__}")
        if not 0 < time < math.inf:  # (nan too)
            raise ValueError(f"time must be a number of seconds > 0, not {time!r}")
    for name, value in (("depth", depth), ("nodes", nodes)):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an int, not {type(value).__name__}")
        if value < 1:
            raise ValueError(f"{name} must be at least 1, not {value!r}")


def endgame_tables(tablebase: Tablebase | str | os.PathLike[str] | None) -> Tablebase | None:
    """The tables given to the search: a :class:`Tablebase`, or read from
    the path of a file of ``mancala tablebase build``. A file that cannot be
    read raises :class:`UnreadableInput`, one that is no table
    :class:`~mancala_cli.solving.endgame.TablebaseError`."""
    if tablebase is None or isinstance(tablebase, Tablebase):
        return tablebase
    if not isinstance(tablebase, (str, os.PathLike)):
        raise TypeError(f"tablebase must be a Tablebase or a path, not {type(tablebase).__name__}")
    path = os.fspath(tablebase)
    try:
        return Tablebase.read(path)
    except OSError as error:
        raise unreadable(error, path) from None


def proof_paths(proofs: str | os.PathLike[str] | Iterable[str | os.PathLike[str]] | None) -> tuple[str, ...]:
    """The paths of proof files given as one path or several."""
    if proofs is None:
        return ()
    given = [proofs] if isinstance(proofs, (str, os.PathLike)) else list(proofs)
    for path in given:
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"proofs must be paths, not {type(path).__name__}")
    return tuple(os.fspath(path) for path in given)


def proof_book(proofs: ProofBook | str | os.PathLike[str] | Iterable[str | os.PathLike[str]] | None) \
        -> ProofBook | None:
    """The proofs given to the search: a :class:`ProofBook`, or read from the
    path of one proof file or the paths of several (none: ``None``). A file
    that cannot be read raises :class:`UnreadableInput`, a proof that
    cannot be used :class:`~mancala_cli.solving.proofs.ProofError`."""
    if proofs is None or isinstance(proofs, ProofBook):
        return proofs
    paths = proof_paths(proofs)
    if not paths:
        return None
    try:
        return ProofBook.read(list(paths))
    except OSError as error:
        raise unreadable(error) from None


def unreadable(error: OSError, path: str | None = None) -> UnreadableInput:
    """A table's or a proof's file that cannot be read (``path``, else the
    error's file), in the words the commands print."""
    return UnreadableInput(f"{path if path is not None else error.filename}: cannot read: {error.strerror or error}")
