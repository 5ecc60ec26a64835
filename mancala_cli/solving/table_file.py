"""A solve's table in a file (``mancala solve --table``): the methods of
:class:`~.search.Solver` that save its table and start from a saved one.

A file is the magic line and one line of JSON (:data:`TABLE_HEADER`
bytes), then the records: the native kernel's own, or on the pure core
chunks of :data:`CHUNK_ENTRIES` entries in ``marshal``. Every save is an
atomic replace.
"""
from __future__ import annotations

import json
import marshal
import os
import sys
import time
from typing import Any, Final

from ..files.output import atomic_output, regular_output
from ..rules.game import Game, MancalaError
from ..rules.position import Position, PositionKey
from .search_result import LOSS, MAX_PLIES, WIN, TableKey

try:  # the interpreter's own SHA-256, which loads faster than OpenSSL's (the library imports this module)
    from _sha256 import sha256  # type: ignore[import-not-found, unused-ignore]
except ImportError:  # pragma: no cover (other interpreters)
    from hashlib import sha256

#: How often (seconds) a search with a table file saves its table.
SAVE_EVERY: Final = 120.0
#: The first line of a table file, and the version of its format, which
#: changes whenever the rules, the hashing or the records change: a file of
#: another version is refused.
TABLE_MAGIC: Final = b"mancala search table\n"
TABLE_VERSION: Final = 1
#: The bytes of a table file's header: the magic line, then one line of
#: JSON (padded with spaces).
TABLE_HEADER: Final = 512
#: The entries per chunk of a table file of the pure core.
CHUNK_ENTRIES: Final = 4096


class TableFileError(MancalaError, ValueError):
    """A table file that cannot be used here (another game, position,
    version or core, or damaged): the message is one line."""


class TableFile:
    """The table-file methods of :class:`~.search.Solver` (a mix-in: the
    attributes below are the solver's)."""

    game: Game
    history_game: bool
    kernel: Any
    table: dict[TableKey, tuple[int, int, int]]
    used: int
    loaded: int
    iteration: int
    save_every: float
    saved_at: float
    table_file: str | None
    table_identity: dict[str, Any]

    def key(self, position: Position, past: frozenset[PositionKey]) -> TableKey:
        raise NotImplementedError

    def store(self, key: TableKey, low: int, high: int, best: int) -> bool:
        raise NotImplementedError

    def identity(self, position: Position, past: frozenset[PositionKey]) -> dict[str, Any]:
        """What a table file must match to be used for ``position``: the
        format version, the core, the game and the position (its table key,
        earlier positions included, as a digest)."""
        key = self.key(position, frozenset())
        earlier = sorted(past) if self.history_game else []
        digest = sha256(repr((key, earlier)).encode()).hexdigest()[:32]
        core = "native" if self.kernel is not None else "pure"
        return {"format": TABLE_VERSION, "core": core, "game": self.game.id, "position": digest,
                "byteorder": sys.byteorder}

    def checkpoint(self) -> None:
        """Save the table if a table file is in use and :attr:`save_every`
        seconds have passed since it was last saved."""
        if self.table_file is not None and time.monotonic() - self.saved_at >= self.save_every:
            self.save_table(self.table_file)

    def save_table(self, path: str) -> None:
        """Write the table to ``path`` whole or not at all, through the
        project's output writer (:func:`~mancala_cli.files.output.atomic_output`:
        a new file beside the old one, renamed over it when complete, which
        keeps the old file's mode and replaces a link's target, not the link;
        on Linux the new file has no name until it is complete, so a save
        killed even by SIGKILL leaves nothing behind). A table file is a
        regular file: anything else (a device, a FIFO) is refused."""
        regular_output(path)
        remove_stale_temporaries(path)
        with atomic_output(path, binary=True) as out:
            out.write(bytes(TABLE_HEADER))
            if self.kernel is not None:
                records, checksum = self.kernel.dump(out.write)
                payload = {"records": records, "checksum": f"{checksum:016x}"}
            else:
                payload = self._dump_pure(out)
            header = dict(self.table_identity, iteration=self.iteration, **payload)
            line = TABLE_MAGIC + json.dumps(header, sort_keys=True).encode() + b"\n"
            if len(line) > TABLE_HEADER:
                raise ValueError("the table file's header is too long")
            out.flush()
            out.seek(0)
            out.write(line.ljust(TABLE_HEADER, b" "))
            out.flush()
            os.fsync(out.fileno())
        self.saved_at = time.monotonic()

    @staticmethod
    def check_table_file(path: str) -> None:
        """Raise :class:`~mancala_cli.files.output.OutputError` now where the
        table could not be saved to ``path`` later (not a regular file, a
        folder that cannot be written)."""
        regular_output(path, probe=True)

    def _dump_pure(self, out: Any) -> dict[str, Any]:
        """The pure table: chunks of :data:`CHUNK_ENTRIES` entries, each its
        length (8 bytes) and a list of (key, value) pairs in ``marshal``."""
        digest = sha256()
        items = list(self.table.items())
        chunks = 0
        for start in range(0, len(items), CHUNK_ENTRIES):
            data = marshal.dumps(items[start:start + CHUNK_ENTRIES])
            framed = len(data).to_bytes(8, "little") + data
            digest.update(framed)
            out.write(framed)
            chunks += 1
        return {"chunks": chunks, "checksum": digest.hexdigest(), "marshal": marshal.version}

    def load_table(self, path: str) -> int:
        """Start from the table in ``path``, where the file exists (as many
        positions as the memory allows); :class:`TableFileError` where it is
        for another game, position, format version or core, or damaged.
        Returns the iteration the search that saved it had under way (0
        without a file)."""
        try:
            source = open(path, "rb")
        except FileNotFoundError:
            return 0
        with source:
            size = os.fstat(source.fileno()).st_size
            head = source.read(TABLE_HEADER)
            if len(head) < TABLE_HEADER or not head.startswith(TABLE_MAGIC):
                raise TableFileError("not a table file of mancala solve")
            try:
                header = json.loads(head[len(TABLE_MAGIC):].decode("ascii"))
                if not isinstance(header, dict):
                    raise ValueError
            except (ValueError, UnicodeDecodeError):
                raise TableFileError("a damaged table file (its header)") from None
            want = self.table_identity
            if header.get("format") != want["format"]:
                raise TableFileError(f"a table file of another format version ({header.get('format')!r}, "
                                     f"this version reads {want['format']})")
            if header.get("game") != want["game"]:
                raise TableFileError(f"the table of another game ({header.get('game')}), not {want['game']}")
            if header.get("position") != want["position"]:
                raise TableFileError("the table of another position (or earlier positions) than this one")
            if header.get("core") != want["core"] or header.get("byteorder") != want["byteorder"]:
                raise TableFileError(f"a table of the {header.get('core')} core on a {header.get('byteorder')}-endian "
                                     f"machine; this run uses the {want['core']} core, {want['byteorder']}-endian")
            try:
                iteration = int(header["iteration"])
                if self.kernel is not None:
                    records = int(header["records"])
                    checksum = int(header["checksum"], 16)
                    if not (0 <= records and size == TABLE_HEADER + records * self.kernel.record_size
                            and 0 <= checksum < 1 << 64):
                        raise ValueError("its size is not that of its records")
                    self.loaded = self.kernel.load(source.read, records, checksum)
                else:
                    self.loaded = self._load_pure(source, header, size - TABLE_HEADER)
            except (KeyError, TypeError, ValueError, EOFError, OverflowError) as error:
                self.table = {}
                self.used = 0
                raise TableFileError(f"a damaged table file ({error or 'its records'})") from None
        return max(0, min(iteration, MAX_PLIES))

    def _load_pure(self, source: Any, header: dict[str, Any], body: int) -> int:
        """The chunks of a pure table file whose records take ``body`` bytes:
        every chunk's length checked against what is left of the file and
        the checksum over them all against the header's before any chunk is
        decoded, so that damage is found before anything is built from it
        (the chunks are kept in memory meanwhile: no more than the file)."""
        if header.get("marshal") != marshal.version:
            raise ValueError("written by another version of Python")
        for data in _read_chunks(source, header, body):
            # (a list of at most CHUNK_ENTRIES items: its declared length is
            # checked before marshal makes room for it)
            if data[:1] not in (b"[", b"\xdb") or int.from_bytes(data[1:5], "little") > CHUNK_ENTRIES:
                raise ValueError("a record that cannot be")
            items = marshal.loads(data)
            if not isinstance(items, list):
                raise ValueError("a record that cannot be")
            for item in items:
                key, value = item
                if not (isinstance(key, tuple) and isinstance(value, tuple) and len(value) == 3
                        and all(type(v) is int for v in value) and LOSS <= value[0] <= value[1] <= WIN):
                    raise ValueError("a record that cannot be")
                if key not in self.table:
                    self.store(key, *value)
        return len(self.table)


def _read_chunks(source: Any, header: dict[str, Any], body: int) -> list[bytes]:
    """The chunks of a pure table file (``header``'s count of them) whose
    records take ``body`` bytes, each read after its length (8 bytes): each
    length checked against what is left of the file, and the checksum over
    them all against the header's; ValueError where they do not hold."""
    chunks = int(header["chunks"])
    if not 0 <= chunks <= body // 9 + 1:
        raise ValueError("more chunks than the file holds")
    digest = sha256()
    framed: list[bytes] = []
    left = body
    for _ in range(chunks):
        head = source.read(8)
        size = int.from_bytes(head, "little")
        if len(head) != 8 or size > left - 8:
            raise ValueError("the file ends early")
        data = source.read(size)
        if len(data) != size:
            raise ValueError("the file ends early")
        left -= 8 + size
        digest.update(head + data)
        framed.append(data)
    if left or digest.hexdigest() != header["checksum"]:
        raise ValueError("its checksum differs")
    return framed


def remove_stale_temporaries(path: str) -> None:
    """Remove what saves of ``path`` by earlier versions left when killed:
    ``.NAME.PID.tmp`` beside it, where no process PID runs any more (a
    running one's file is left alone)."""
    folder, name = os.path.split(os.path.abspath(path))
    prefix = f".{name}."
    try:
        names = [entry for entry in os.listdir(folder) if entry.startswith(prefix) and entry.endswith(".tmp")]
    except OSError:
        return
    for entry in names:
        pid = entry[len(prefix):-4]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
            continue  # (a process of that number runs)
        except ProcessLookupError:
            pass
        except (OSError, OverflowError):
            continue
        try:
            os.unlink(os.path.join(folder, entry))
        except OSError:
            pass
