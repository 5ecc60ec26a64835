"""The files the search reads (``--tablebase``, ``--proof``), read once
when the command starts, so that a bad one is one line."""
from __future__ import annotations

from typing import Optional

from ..errors import UnreadableInput
from ..solving.endgame import Tablebase, TablebaseError
from ..solving.engine_files import endgame_tables, proof_book as read_proofs
from ..solving.proofs import ProofBook
from .options import fail


def tablebase_file(path: Optional[str]) -> Tablebase | None:
    """The table of ``--tablebase FILE`` (None without one); one line and exit 1 if it is no table or a
    damaged one, 2 if it cannot be read."""
    if path is None:
        return None
    try:
        return endgame_tables(path)
    except TablebaseError as error:
        fail(str(error), 1)
    except MemoryError:
        fail(f"{path}: out of memory while reading the table")
    except UnreadableInput as error:  # (the library's words)
        fail(str(error))


def proof_book(paths: Optional[list[str]]) -> ProofBook | None:
    """The proofs of ``--proof`` (None without one); one line and exit 2 if one cannot be read."""
    if not paths:
        return None
    try:
        return read_proofs(list(paths))
    except UnreadableInput as error:  # (the library's words)
        fail(str(error))
    except ValueError as error:
        fail(str(error))


def proof_files(paths: Optional[list[str]]) -> tuple[str, ...]:
    """The files of ``--proof``, read once here so that a bad one is one line and exit 2
    (the worker processes read them again from their paths)."""
    proof_book(paths)
    return tuple(paths or ())
