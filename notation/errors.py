"""The errors of the record layer. ``notation`` knows no rules, so its
errors derive from :class:`NotationError` (a :class:`ValueError`); the
library (:mod:`mancala_cli`) gives every one of them a place under its own
``MancalaError`` too, so that ``except mancala_cli.MancalaError`` catches
them all (see ``docs/library.md``)."""
from __future__ import annotations


class NotationError(ValueError):
    """Text or data that is not a valid record, coordinate or position string."""


class CoordinateError(NotationError):
    """A token that names no hole in the given style."""


class PositionError(NotationError):
    """A position string that is badly formed, or that the board cannot hold."""
