"""A solve's table in a file (``mancala solve --table``): :class:`TableFile`,
which saves the solve's table and starts it from a saved one.

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
from .search_result import LOSS, MAX_PLIES, WIN, SearchState, SearchSteps

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
    """The table file ``path`` of one solve: it saves the solve's ``state``
    (its table, the iteration under way) and fills it from a saved one
    (:meth:`load_table`), with the solver's ``steps`` (the table's keys,
    storing); ``game`` and ``history_game`` are the solver's settings, and
    the table is saved every ``save_every`` seconds (:meth:`checkpoint`).
    Its own state: what a file must match to be used (:attr:`expected`,
    :meth:`identity`) and when it was last saved."""

    def __init__(self, path: str, state: SearchState, steps: SearchSteps, *, game: Game, history_game: bool,
                 save_every: float) -> None:
        self.path = path
        self.state = state
        self.game = game
        self.history_game = history_game
        self.save_every = save_every
        self.key = steps.key
        self.store = steps.store
        self.expected: dict[str, Any] = {}
        self.saved_at = 0.0

    def identity(self, position: Position, past: frozenset[PositionKey]) -> dict[str, Any]:
        """What a table file must match to be used for ``position``: the
        format version, the core, the game and the position (its table key,
        earlier positions included, as a digest)."""
        key = self.key(position, frozenset())
        earlier = sorted(past) if self.history_game else []
        digest = sha256(repr((key, earlier)).encode()).hexdigest()[:32]
        core = "native" if self.state.kernel is not None else "pure"
        return {"format": TABLE_VERSION, "core": core, "game": self.game.id, "position": digest,
                "byteorder": sys.byteorder}

    def checkpoint(self) -> None:
        """Save the table if :attr:`save_every`
        seconds have passed since it was last saved."""
        if time.monotonic() - self.saved_at >= self.save_every:
            self.save_table(self.path)

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
            if self.state.kernel is not None:
                records, checksum = self.state.kernel.dump(out.write)
                payload = {"records": records, "checksum": f"{checksum:016x}"}
            else:
                payload = self._dump_pure(out)
            header = dict(self.expected, iteration=self.state.iteration, **payload)
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
        items = list(self.state.table.items())
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
            want = self.expected
            for name in ("format", "game", "core", "byteorder"):
                if not isinstance(header.get(name), (str, int)) or isinstance(header.get(name), bool):
                    raise TableFileError(f"a damaged table file (its header has no {_FIELDS[name]})")
            if header["format"] != want["format"]:
                raise TableFileError(f"a table file of another format version ({header['format']!r}, "
                                     f"this version reads {want['format']})")
            if header["game"] != want["game"]:
                raise TableFileError(f"the table of another game ({header['game']}), not {want['game']}")
            if header.get("position") != want["position"]:
                raise TableFileError("the table of another position (or earlier positions) than this one")
            if header["core"] != want["core"] or header["byteorder"] != want["byteorder"]:
                raise TableFileError(f"a table of the {header['core']} core on a {header['byteorder']}-endian "
                                     f"machine; this run uses the {want['core']} core, {want['byteorder']}-endian")
            try:
                iteration = _count(header, "iteration")
                if self.state.kernel is not None:
                    records = _count(header, "records")
                    checksum = _count(header, "checksum", hexadecimal=True)
                    if not (size == TABLE_HEADER + records * self.state.kernel.record_size and checksum < 1 << 64):
                        raise _Damaged("its size is not that of its records")
                    self.state.loaded = self.state.kernel.load(source.read, records, checksum)
                else:
                    self.state.loaded = self._load_pure(source, header, size - TABLE_HEADER)
            except (KeyError, TypeError, ValueError, EOFError, OverflowError) as error:
                self.state.table = {}
                self.state.used = 0
                # (the file's own faults as this module names them; what else
                # the decoding of damaged records raises is their fault too)
                raise TableFileError(f"a damaged table file ({error if isinstance(error, _Damaged) else 'its records'})"
                                     ) from None
        return max(0, min(iteration, MAX_PLIES))

    def _load_pure(self, source: Any, header: dict[str, Any], body: int) -> int:
        """The chunks of a pure table file whose records take ``body`` bytes:
        every chunk's length checked against what is left of the file and
        the checksum over them all against the header's before any chunk is
        decoded, so that damage is found before anything is built from it
        (the chunks are kept in memory meanwhile: no more than the file)."""
        if header.get("marshal") != marshal.version:
            raise _Damaged("written by another version of Python")
        for data in _read_chunks(source, header, body):
            # (a list of at most CHUNK_ENTRIES items: its declared length is
            # checked before marshal makes room for it)
            if data[:1] not in (b"[", b"\xdb") or int.from_bytes(data[1:5], "little") > CHUNK_ENTRIES:
                raise _Damaged("a record that cannot be")
            items = marshal.loads(data)
            if not isinstance(items, list):
                raise _Damaged("a record that cannot be")
            for item in items:
                key, value = item
                if not (isinstance(key, tuple) and isinstance(value, tuple) and len(value) == 3
                        and all(type(v) is int for v in value) and LOSS <= value[0] <= value[1] <= WIN):
                    raise _Damaged("a record that cannot be")
                if key not in self.state.table:
                    self.store(key, *value)
        return len(self.state.table)


class _Damaged(ValueError):
    """What is wrong with a table file's records, in the words of its message."""


#: The header's fields, as a message names them.
_FIELDS = {"format": "format version", "game": "game", "core": "core", "byteorder": "byte order",
           "iteration": "iteration", "records": "count of records", "checksum": "checksum",
           "chunks": "count of chunks"}


def _count(header: dict[str, Any], name: str, *, hexadecimal: bool = False) -> int:
    """The whole number ``header`` gives as ``name`` (hexadecimal digits
    in a string with ``hexadecimal``), at least 0; :class:`_Damaged` where
    it gives none."""
    value = header.get(name)
    if hexadecimal and isinstance(value, str) and value and value.isascii() \
            and not value.strip("0123456789abcdefABCDEF"):
        return int(value, 16)
    if not hexadecimal and type(value) is int and value >= 0:
        return value
    raise _Damaged(f"its header has no {_FIELDS[name]}")


def _read_chunks(source: Any, header: dict[str, Any], body: int) -> list[bytes]:
    """The chunks of a pure table file (``header``'s count of them) whose
    records take ``body`` bytes, each read after its length (8 bytes): each
    length checked against what is left of the file, and the checksum over
    them all against the header's; ValueError where they do not hold."""
    chunks = _count(header, "chunks")
    if not 0 <= chunks <= body // 9 + 1:
        raise _Damaged("more chunks than the file holds")
    digest = sha256()
    framed: list[bytes] = []
    left = body
    for _ in range(chunks):
        head = source.read(8)
        size = int.from_bytes(head, "little")
        if len(head) != 8 or size > left - 8:
            raise _Damaged("the file ends early")
        data = source.read(size)
        if len(data) != size:
            raise _Damaged("the file ends early")
        left -= 8 + size
        digest.update(head + data)
        framed.append(data)
    if left or digest.hexdigest() != header["checksum"]:
        raise _Damaged("its checksum differs")
    return framed


def remove_stale_temporaries(path: str) -> None:
    """Remove the files ``.NAME.PID.tmp`` beside ``path`` where no process
    PID runs any more (a running one's file is left alone). No save of this
    module names a file so: saves go through
    :func:`~mancala_cli.files.output.atomic_output`, whose temporaries are
    unnamed or ``.mancala-*.tmp``."""
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
