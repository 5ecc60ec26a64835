"""Where the documents and the proof files are: ``docs/`` of a clone (and of
an editable install), ``mancala_cli/docs/`` of an installed wheel, which
ships them (``docs/*.md``, ``docs/commands/*.md``, ``docs/kingulu-solution.json``,
``docs/kingulu-proof*.txt.xz``).

    >>> (docs_folder() / "kingulu-proof.txt.xz").is_file()
    True
"""
from __future__ import annotations

import pathlib

__all__ = ["docs_folder", "proof_glob"]

_PACKAGE = pathlib.Path(__file__).resolve().parent


def docs_folder() -> pathlib.Path:
    """The folder of the documents: the installed package's ``docs``, else
    the clone's ``docs`` beside the package."""
    installed = _PACKAGE / "docs"
    return installed if installed.is_dir() else _PACKAGE.parent / "docs"


def proof_glob() -> str:
    """The proof files as a glob to give ``--proof``, in the folder where
    they are (for the command line's help)."""
    return str(docs_folder() / "kingulu-proof*.txt.xz")
