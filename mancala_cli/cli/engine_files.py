"""The files the search reads (``--tablebase``, ``--proof``), read once
when the command starts, so that a bad one is one line."""
from __future__ import annotations

from typing import Optional

from ..solving.endgame import Tablebase, TablebaseError
from ..solving.proofs import ProofBook
from .options import fail


def tablebase_file(path: Optional[str]) -> Tablebase | None:
    """The table of ``--tablebase FILE`` (None without one); one line and exit 1 if it is no table or a
    damaged one, 2 if it cannot be read."""
    if path is None:
        return None
    try:
        return Tablebase.read(path)
    except TablebaseError as error:
        fail(str(error), 1)
    except MemoryError:
        fail(f"{path}: out of memory while reading the table")
    except OSError as error:
        fail(f"{path}: cannot read: {error.strerror or error}")


def proof_book(paths: Optional[list[str]]) -> ProofBook | None:
    """The proofs of ``--proof`` (None without one); one line and exit 2 if one cannot be read."""
    if not paths:
        return None
    try:
        return ProofBook.read(list(paths))
    except ValueError as error:
        fail(str(error))
    except OSError as error:
        fail(f"{error.filename}: cannot read: {error.strerror or error}")


def proof_files(paths: Optional[list[str]]) -> tuple[str, ...]:
    """The files of ``--proof``, read once here so that a bad one is one line and exit 2
    (the worker processes read them again from their paths)."""
    proof_book(paths)
    return tuple(paths or ())
