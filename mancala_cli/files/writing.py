"""Writing records: canonical PMN (games a blank line apart), JSON Lines
or one XML archive, streamed game by game through one writer.

A game is written in two steps, so that the second can run anywhere: a
:class:`GameFormat` (plain data: the format, the coordinate style, whether
to add positions) replays a record and formats it as a
:class:`WrittenGame` (in this process or in a worker process), and a
:class:`RecordWriter` adds written games to its stream in order, with what
goes between and around them (the blank line between PMN games, the head
and tail of an XML archive). :meth:`RecordWriter.write` does both for one
record; ``mancala convert``, ``filter``, ``split``, ``annotate`` and
:func:`mancala_cli.write` all write through it.

    >>> import io
    >>> from mancala_cli import read
    >>> out = io.StringIO()
    >>> with RecordWriter(out, "pmn", coords="numeric") as writer:
    ...     for record in read('[Game "kingulu"]\\n\\n1. c1 d2 *\\n'):
    ...         _ = writer.write(record)
    >>> print(out.getvalue(), end="")
    [Game "kingulu"]
    [Coordinates "numeric"]
    <BLANKLINE>
    1. 3x6 10 *
"""
from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any, BinaryIO, cast

from notation.notation_errors import XMLArchiveError
from notation.position_strings import format_position
from notation.record import GameRecord, Problem, copy_record

from ..checking import Replay, replay
from .formats import FORMATS
from .output import atomic_output

__all__ = ["GameFormat", "WrittenGame", "RecordWriter", "check_target", "open_writer"]

def check_target(to: str) -> None:
    """``to``, a format the runs write games in (else :class:`ValueError`)."""
    if to not in FORMATS:
        raise ValueError(f"to must be pmn, json or xml, not {to!r}")


@dataclass(slots=True)
class WrittenGame:
    """One game as its format writes it: ``data`` (text, or for XML the
    bytes of :func:`notation.xml_writer.game_xml`), the ``problems`` of what the
    format cannot hold exactly (PMN's ``pmn-inexact`` warnings), or, for a
    game an XML archive cannot hold, ``unwritable``: the line the game
    starts on and why (without the game's number, which its reader adds)."""

    data: str | bytes = ""
    problems: list[Problem] = field(default_factory=list)
    unwritable: tuple[int, str] | None = None


@dataclass(frozen=True)
class GameFormat:
    """How games are written: ``format`` (``pmn``, ``json`` or ``xml``),
    the moves rewritten in the coordinate style ``coords`` (``None``: as
    they are) with the outcome marks the rules find, and with ``positions``
    the position after every move (JSON and XML). Plain data, sent to
    worker processes."""

    format: str = "pmn"
    coords: str | None = None
    positions: bool = False

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {self.format!r}")

    def replay(self, record: GameRecord, default_game: str | None = None) -> Replay:
        """Replay ``record`` as writing needs it: marks filled in, moves in
        ``coords``, positions filled in with ``positions``. The record's
        moves change: replay a copy (:func:`notation.record.copy_record`)
        to keep the original."""
        return replay(record, default_game, fill_positions=self.positions, fill_marks=True, coords=self.coords)

    def data(self, record: GameRecord, replayed: Replay) -> str | bytes:
        """The text (bytes for XML) of ``record`` replayed as ``replayed``;
        raises :class:`~notation.notation_errors.XMLArchiveError` for a game an XML
        archive cannot hold."""
        if self.format == "pmn":
            from notation.pmn_writer import write_game  # (local: validate loads this module and writes nothing)

            return write_game(record)
        game = replayed.game
        start = format_position(game, replayed.start) if game and replayed.start else None
        if self.format == "json":
            # (local: the JSON Lines writer and json, which validate, which loads
            # this module, does not need: docs/performance.md, 'Start-up')
            from notation.jsonl import record_to_json

            return record_to_json(record, game.id if game else None, start) + "\n"
        from notation.xml_writer import game_xml  # (local: lxml loads only for XML archives)

        return game_xml(record, positions=self.positions, start=start)

    def game(self, record: GameRecord, replayed: Replay) -> WrittenGame:
        """:meth:`data` as a :class:`WrittenGame`, with what PMN cannot hold
        and why XML cannot hold the game, if so (nothing is raised)."""
        try:
            data = self.data(record, replayed)
        except XMLArchiveError as error:
            return WrittenGame(b"", unwritable=(error.line or 0, error.reason.removeprefix(f"game {record.index}: ")))
        if self.format == "pmn":
            from notation.pmn_writer import unheld, unreadable  # (local: as in data, which loaded it)

            return WrittenGame(data, unheld(record) + unreadable(cast(str, data), record))
        return WrittenGame(data)


class RecordWriter:
    """Games written one after another to ``stream``, a text stream for PMN
    and JSON Lines, a binary one for XML (:meth:`binary`): PMN games a blank
    line apart, one JSON line per game, or one XML archive (its head at
    once, its tail at :meth:`close`). Used as a context manager, it closes
    the archive only when the block succeeds.

    :meth:`write` replays a copy of a record and adds it (the record is left
    untouched); :meth:`add` adds a game written elsewhere (a worker process)."""

    def __init__(self, stream: IO[Any], format: str = "pmn", *, coords: str | None = None,
                 positions: bool = False) -> None:
        self.stream = stream
        self.style = GameFormat(format, coords, positions)
        #: The games written so far.
        self.games = 0
        self._archive: Any = None
        if format == "xml":
            from notation.xml_writer import ArchiveWriter  # (local: lxml loads only for XML archives)

            self._archive = ArchiveWriter(cast(BinaryIO, stream))

    @staticmethod
    def binary(format: str) -> bool:
        """Whether ``format`` is written to a binary stream (XML)."""
        return format == "xml"

    def write(self, record: GameRecord, *, game: str | None = None) -> WrittenGame:
        """Add ``record`` (``game``: the game of a record without a ``Game``
        tag); raises :class:`~notation.notation_errors.XMLArchiveError`, writing
        nothing, for a game an XML archive cannot hold."""
        twin = copy_record(record)
        data = self.style.data(twin, self.style.replay(twin, game))
        written = WrittenGame(data)
        self.add(written)
        return written

    def add(self, written: WrittenGame) -> None:
        """Add a game written by :meth:`GameFormat.game` (one that can be written)."""
        if self._archive is not None:
            self._archive.write_bytes(written.data)
        else:
            if self.style.format == "pmn" and self.games:
                self.stream.write("\n")
            self.stream.write(written.data)
        self.games += 1

    def close(self) -> None:
        """End the output (the XML archive's tail)."""
        if self._archive is not None:
            self._archive.close()
            self._archive = None

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if kind is None:
            self.close()


@contextlib.contextmanager
def open_writer(path: str | None, format: str = "pmn", *, coords: str | None = None,
                positions: bool = False) -> Iterator[RecordWriter]:
    """A :class:`RecordWriter` to the file ``path``, which appears whole when
    the block succeeds and not at all otherwise (an old file stays as it
    was: :func:`mancala_cli.files.output.atomic_output`), or to standard
    output (``None`` or ``-``)."""
    # The format's writer is loaded before the file is opened: a signal that
    # comes during an import (lxml's, for XML) may be lost in it, and the
    # command must stop on one once its output file exists.
    module = {"pmn": "notation.pmn_writer", "json": "notation.jsonl", "xml": "notation.xml_writer"}.get(format)
    if module is not None:
        importlib.import_module(module)
    with atomic_output(path, binary=RecordWriter.binary(format)) as stream:
        with RecordWriter(stream, format, coords=coords, positions=positions) as writer:
            yield writer
