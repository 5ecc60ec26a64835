"""The files of ``mancala edit``: a file of records opened (PMN, JSON Lines
or XML; every game with ``validate``'s problems), one game saved back with
the others left byte for byte, and the recovery file that keeps every
change at once.

Saving splices: the edited game's lines (PMN: from its first line to the
next game's; JSON Lines: its line) are replaced by the game as the one
writer writes it (:class:`~mancala_cli.files.writing.RecordWriter`, the
moves in the record's own coordinates), the rest of the file is kept as
its bytes, and the whole goes out through
:func:`~mancala_cli.files.output.atomic_output` (atomic, mode kept). An XML
archive is one document: it is written again whole, every game through the
writer.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import time
from dataclasses import dataclass, field

from notation.pmn_writer import write_game
from notation.record import GameRecord

from ..checking import replay
from ..files.batches import read_records
from ..files.output import atomic_output
from ..files.reports import error_lines
from ..files.sources import open_source, sniff
from ..files.writing import RecordWriter

__all__ = ["EditedFile", "open_document", "new_document", "game_text", "Recovery", "recovery_folder"]


@dataclass
class EditedFile:
    """A file of records: ``path`` (``None``: not saved yet), ``format``,
    the ``records`` and each one's error lines (``problems``, as ``validate``
    prints them; a game with any is shown, not edited), and the file's
    ``data`` as read (``None`` for a new file)."""

    path: str | None
    format: str = "pmn"
    records: list[GameRecord] = field(default_factory=list)
    problems: list[list[str]] = field(default_factory=list)
    data: bytes | None = None

    def editable(self, index: int) -> bool:
        """Whether game ``index`` (from 1) can be edited: it has no error."""
        return not self.problems[index - 1]

    def save(self, index: int, record: GameRecord, path: str | None = None) -> str:
        """Write the file with game ``index`` replaced by ``record`` (to
        ``path``, else the document's own); returns the path written."""
        target = path or self.path
        if target is None:
            raise ValueError("the document has no file name yet")
        data = self.spliced(index, record)
        with atomic_output(target, binary=True) as stream:
            stream.write(data)
        self.path, self.data = target, data
        self.records[index - 1] = record
        return target

    def spliced(self, index: int, record: GameRecord) -> bytes:
        """The file's bytes with game ``index`` written anew."""
        if self.format == "xml" or self.data is None or not self.records:
            others = list(self.records) or [record]
            others[index - 1] = record
            return _written(others, self.format)
        lines = self.data.splitlines(keepends=True)
        start = self.records[index - 1].line - 1
        stop = self.records[index].line - 1 if index < len(self.records) else len(lines)
        if self.format == "json":
            stop = start + 1
        kept = lines[start:stop]
        trailing = 0
        while trailing < len(kept) and not kept[len(kept) - 1 - trailing].strip():
            trailing += 1
        newline = b"\r\n" if kept and kept[0].endswith(b"\r\n") else b"\n"
        text = _written([record], self.format).replace(b"\n", newline)
        return b"".join(lines[:start]) + text + b"".join(kept[len(kept) - trailing:]) + b"".join(lines[stop:])


def _written(records: list[GameRecord], format: str) -> bytes:
    """``records`` as the one writer writes them, moves in their own coordinates."""
    if RecordWriter.binary(format):
        binary = io.BytesIO()
        with RecordWriter(binary, format) as writer:
            for record in records:
                writer.write(record)
        return binary.getvalue()
    text = io.StringIO()
    with RecordWriter(text, format) as writer:
        for record in records:
            writer.write(record)
    return text.getvalue().encode("utf-8")


def game_text(record: GameRecord) -> str:
    """``record`` as canonical PMN in its own coordinates."""
    return _written([record], "pmn").decode("utf-8")


def open_document(path: str) -> EditedFile:
    """The file at ``path``, read as ``validate`` reads it; raises
    :class:`~mancala_cli.files.InputError` (or an XML archive's error) for
    one that cannot be read at all."""
    with open(path, "rb") as stream:
        data = stream.read()
    with open_source(path) as source:
        kind = sniff(source)
        records = list(read_records(source, kind))
    problems = [error_lines(path, replay(record).problems) for record in records]
    return EditedFile(path, kind, records, problems, data)


def new_document(path: str | None, record: GameRecord) -> EditedFile:
    """A file not written yet, holding ``record``."""
    kind = "json" if path and path.endswith((".jsonl", ".json")) else "xml" if path and path.endswith(".xml") else "pmn"
    return EditedFile(path, kind, [record], [[]], None)


def recovery_folder() -> str:
    """Where recovery files are kept: ``$MANCALA_EDIT_RECOVERY``, else
    ``$XDG_STATE_HOME/mancala/edit`` (``~/.local/state/mancala/edit``)."""
    chosen = os.environ.get("MANCALA_EDIT_RECOVERY")
    if chosen:
        return chosen
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(state, "mancala", "edit")


@dataclass
class Recovery:
    """The recovery file of one file's game: the game as PMN after every
    change, written atomically, removed when the game is saved or its
    changes are given up."""

    file: str | None
    index: int

    @property
    def path(self) -> str:
        name = os.path.abspath(self.file) if self.file else "untitled"
        digest = hashlib.sha256(f"{name}\0{self.index}".encode()).hexdigest()[:20]
        return os.path.join(recovery_folder(), f"{digest}.json")

    def keep(self, record: GameRecord, cursor: tuple[int, ...]) -> None:
        """The game as it is now, written atomically (its PMN as written by
        the PMN writer alone: the editor's moves carry their marks, and no
        replay is needed to read it back)."""
        os.makedirs(recovery_folder(), mode=0o700, exist_ok=True)
        entry = {"file": os.path.abspath(self.file) if self.file else None, "index": self.index,
                 "saved": time.strftime("%Y-%m-%d %H:%M:%S"), "cursor": list(cursor), "pmn": write_game(record)}
        with atomic_output(self.path) as stream:
            stream.write(json.dumps(entry, ensure_ascii=False) + "\n")

    def found(self) -> dict[str, object] | None:
        """What the recovery file holds, or ``None`` (none, or unreadable)."""
        try:
            with open(self.path, encoding="utf-8") as stream:
                entry = json.load(stream)
        except (OSError, ValueError):
            return None
        return entry if isinstance(entry, dict) and isinstance(entry.get("pmn"), str) else None

    def drop(self) -> None:
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass

