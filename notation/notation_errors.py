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


class XMLArchiveError(NotationError):
    """An archive that cannot be read (not well-formed, a DTD, not valid
    against the schema), or a record that cannot be written.

    ``reason`` is the parser's or validator's message, ``line`` (and
    ``column`` when known) where in the document it was found; for a record
    that cannot be written, where the record started in its input.
    """

    def __init__(self, reason: str, line: int | None = None, column: int | None = None,
                 file: str | None = None) -> None:
        self.reason = reason
        self.line = line
        self.column = column
        self.file = file
        super().__init__(reason, line, column, file)

    def __str__(self) -> str:
        where = [part for part in (self.file, f"line {self.line}" if self.line is not None else None,
                                   f"column {self.column}" if self.line is not None and self.column else None)
                 if part]
        return f"{', '.join(where)}: {self.reason}" if where else self.reason


class QueryError(NotationError):
    """A ``--where`` expression that cannot be used: badly formed, an
    unknown field, a value of the wrong type. ``column`` (1-based) is where
    in the expression."""

    def __init__(self, message: str, column: int) -> None:
        self.column = column
        super().__init__(message)
