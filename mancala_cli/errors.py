"""One family of errors: everything the library raises derives from
:class:`MancalaError`, so ``except MancalaError`` catches them all. Each one
also derives from the error of the layer it comes from (``KeyError``,
``ValueError``, the record layer's errors), so a handler of that error catches it too::

    >>> import mancala_cli
    >>> try:
    ...     mancala_cli.get_game("oware")
    ... except mancala_cli.MancalaError as error:
    ...     print(type(error).__name__, error)
    UnknownGame unknown game 'oware' (known: kimasai-mackay, kimasai-klamroth, kingulu)

| error | raised for |
|---|---|
| :class:`UnknownGame` | a game id that names no game |
| :class:`BadCoordinate` | a hole token that names no hole (``z9``, ``N3`` when South moves) |
| :class:`BadPosition` | a position string that is badly formed or impossible |
| :class:`BadMove` | a move token that is not a move, or whose marks (``x6``, ``^``) are wrong |
| :class:`IllegalMove` | a move the rules forbid, with its rule id |
| :class:`BadQuery` | a ``where`` expression that cannot be used (with its ``column``) |
| :class:`BadArchive` | an XML archive that cannot be read or written |
| :class:`UnreadableInput` | an input that cannot be read at all (missing, a folder, a bad encoding, not text) |
| :class:`UnwritableOutput` | an output that cannot be written (a folder, no permission, a full disk); an old file is left as it was |
| :class:`BadSheet` | a game sheet that cannot be drawn (a ply past the record's end or given twice) |
| :class:`PngUnavailable` | PNG asked for without the ``png`` extra (``pip install 'mancala[png]'``) |
| :class:`BadImage` | a PNG image that cannot be drawn (a scale out of range, too many pixels) |
| :class:`RenderError` | what :func:`~mancala_cli.rendering.render` cannot draw or write (with the exit ``status`` of ``mancala render``) |
"""
from __future__ import annotations

from notation.notation_errors import CoordinateError, NotationError, QueryError, XMLArchiveError

from .files import InputError
from .files.output import OutputError
from .rules.game import MancalaError

__all__ = ["BadCoordinate", "BadMove", "BadQuery", "BadArchive", "UnreadableInput", "UnwritableOutput", "BadSheet",
           "PngUnavailable", "BadImage", "RenderError"]


#: How to install what PNG output needs.
INSTALL_HINT = "pip install 'mancala[png]'"


class PngUnavailable(MancalaError, ImportError):
    """The ``png`` extra (resvg) is not installed."""

    def __init__(self) -> None:
        super().__init__(f"PNG output needs the png extra: {INSTALL_HINT}")


class BadImage(MancalaError, ValueError):
    """A PNG image that cannot be drawn: a scale out of range, more than
    ``diagrams.png.MAX_PIXELS`` pixels, a document resvg refuses."""


class RenderError(MancalaError, ValueError):
    """What :func:`~mancala_cli.rendering.render` cannot draw or write: options
    that do not go together, a record or position that cannot be drawn, a
    file or folder that cannot be read or written. ``status`` is the exit
    status ``mancala render`` gives it: 2 for options and files, 1 for bad input."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


class BadCoordinate(MancalaError, CoordinateError):
    """A hole token that names no hole in its coordinate style."""


class BadMove(MancalaError, NotationError):
    """A move token that cannot be played as written: not a move token, or
    its marks or destination differ from what the move does."""


class BadArchive(MancalaError, XMLArchiveError):
    """An XML archive that cannot be read (badly formed, a DTD, a bad root)
    or a record that cannot be written as XML."""


class UnreadableInput(MancalaError, InputError):
    """An input that cannot be read at all."""


class UnwritableOutput(MancalaError, OutputError):
    """An output that cannot be written; an old file at that path is left as it was."""


class BadSheet(MancalaError, ValueError):
    """A game sheet that cannot be drawn: a ply past the record's last
    playable move or given twice, no plies chosen, a record of no known game."""


def bad_archive(error: XMLArchiveError) -> BadArchive:
    return BadArchive(error.reason, error.line, error.column, error.file)


def input_error(error: InputError | XMLArchiveError) -> UnreadableInput | BadArchive:
    """An input's error as the library raises it (the same message)."""
    if isinstance(error, (UnreadableInput, BadArchive)):
        return error
    return UnreadableInput(str(error)) if isinstance(error, InputError) else bad_archive(error)


def library_error(error: InputError | XMLArchiveError) -> UnreadableInput | UnwritableOutput | BadArchive:
    """An input's or an output's error as the library raises it (the same message)."""
    if isinstance(error, (UnreadableInput, UnwritableOutput, BadArchive)):
        return error
    if isinstance(error, OutputError):
        return UnwritableOutput(str(error))
    return UnreadableInput(str(error)) if isinstance(error, InputError) else bad_archive(error)


class BadQuery(MancalaError, QueryError):
    """A ``where`` expression that cannot be used: badly formed, an unknown
    field, a value of the wrong type or a bad value (``column``: where, from 1)."""
