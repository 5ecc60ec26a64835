"""Endgame tables of ``kimasai-klamroth``: the value of every position with
at most N stones, built by retrograde analysis (``mancala tablebase build``)
and read by :class:`~mancala_cli.solving.search.Solver` (``solve`` and
``annotate --tablebase FILE``).

Stones only leave the board in that game, so the positions with k stones
depend on those with fewer (the captures) and on each other (the moves that
capture nothing, which can go round in circles). A table holds the value of
a game *started* at the position (a set-up position): won or lost where the
side can force that in finitely many moves, drawn otherwise, since either
side can then keep it so until a position recurs (KK-4b). That is the value
the solver finds for such a position; inside a search, where earlier
positions of the line can recur, the repetition rule can only turn a win or
a loss into a draw, so the table gives bounds there (see
:meth:`Tablebase.bounds`).

    >>> from mancala_cli import get_game, parse_position
    >>> table = Tablebase.build(3)
    >>> table
    <Tablebase kimasai-klamroth, at most 3 stones, 18,473 positions>
    >>> game = get_game("kimasai-klamroth")
    >>> position = parse_position(game, "0,0,0,0,0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0,0,0,0,0/"
    ...                                 "0,0,0,0,0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0,0,0,0,1 S 22-21 60")
    >>> table.probe(position)
    1

The file: a header of :data:`HEADER_BYTES` bytes (ASCII lines ``mancala
tablebase 2``, ``game kimasai-klamroth``, ``stones N``, ``rules
kimasai-klamroth 1``, ``entries E``, ``sha256 H``: the SHA-256 of the
values, in hex; then NUL bytes), then E bytes, one a
position: its value in the low two bits (1 win, 2 draw, 3 loss for the side
to move) and, for a win or a loss, its depth in its layer above them (the
pass of the build that resolved it: 0 for a capture or the end of the game;
:data:`DEEP` also stands for deeper). Positions are seen from the side to move, each side's stones a
24-bit mask over the places of its own circuit counted from its back-row
hole on its left (South ``a1``…``l1 l2``…``a2``, North ``l4``…``a4
a3``…``l3``: a half turn maps one onto the other, so one entry serves both
sides to move). Layers follow in the order of their stones k (0 to N), then
of the mover's stones a; in layer (a, b = k - a) a position's entry is
``rank(mover) * C(24, b) + rank(opponent)``, rank being the colex rank of a
mask among the masks of as many bits.
"""
from __future__ import annotations

import hashlib
import io
import os
from collections.abc import Callable, Collection
from itertools import combinations
from math import comb
from typing import Final

from ..files import open_regular
from ..files.output import atomic_output
from ..rules.board import SOUTH
from ..rules.game import MancalaError
from ..rules.position import Position
from ..rules.selection import CORE

__all__ = ["Tablebase", "TablebaseError", "GAME", "FORMAT", "RULES", "MAX_STONES", "entries", "build_bytes",
           "work_bytes"]

#: The game the tables are of.
GAME: Final = "kimasai-klamroth"
#: The version of the file format (its first line): 2, whose header holds
#: the values' checksum (a file of format 1, without one, is refused, to be
#: built again).
FORMAT: Final = 2
#: The version of the rules the values follow (KK-1 to KK-4 of
#: docs/rules.md); raised when a change of the rules changes values.
RULES: Final = 1
#: The header's size in bytes.
HEADER_BYTES: Final = 512
#: The bytes read (and checked) at a time from a table's file.
READ_BYTES: Final = 1 << 24
#: The most stones a table may hold (the build refuses more).
MAX_STONES: Final = 16
PLACES: Final = 24
WIN: Final = 1
DRAW: Final = 2
LOSS: Final = 3
#: The largest depth a table records (a deeper position's is this).
DEEP: Final = 63
#: What a value means for the side to move, as the solver's values.
_SOLVER_VALUE: Final = {WIN: 1, DRAW: 0, LOSS: -1}
#: The hole of each place of a side's circuit (South, North).
HOLES: Final = (tuple(p if p < 12 else 35 - p for p in range(PLACES)),
                tuple(47 - p if p < 12 else 12 + p for p in range(PLACES)))

#: Told ``(stones, mover's stones, passes)`` after each layer pair built.
BuildProgress = Callable[[int, int, int], None]


class TablebaseError(MancalaError, ValueError):
    """A file that is not a table this version reads (one line saying why)."""


def entries(stones: int) -> int:
    """The positions of a table of at most ``stones`` stones."""
    return sum(comb(PLACES, a) * comb(PLACES, k - a) for k in range(stones + 1) for a in range(k + 1))


def _layers(stones: int) -> dict[tuple[int, int], int]:
    """The first entry of each layer (mover's stones, opponent's)."""
    offsets = {}
    offset = 0
    for k in range(stones + 1):
        for a in range(k + 1):
            offsets[a, k - a] = offset
            offset += comb(PLACES, a) * comb(PLACES, k - a)
    return offsets


def work_bytes(stones: int) -> int:
    """The memory a build takes besides its table: two bytes a position of
    the largest pair of layers (a, b) and (b, a) under way."""
    largest = 0
    for k in range(stones + 1):
        for a in range(k + 1):
            b = k - a
            pair = comb(PLACES, a) * comb(PLACES, b) * (1 if a == b else 2)
            largest = max(largest, pair)
    return 2 * largest


def build_bytes(stones: int) -> int:
    """The bytes of a table of at most ``stones`` stones (without its header)."""
    return entries(stones)


def _rank(mask: int) -> int:
    rank = 0
    j = 1
    while mask:
        low = mask & -mask
        rank += comb(low.bit_length() - 1, j)
        j += 1
        mask ^= low
    return rank


def _masks(holes: tuple[int, ...], side: str) -> tuple[int, int]:
    """(mover, opponent) of a position."""
    south = sum(1 << p for p, hole in enumerate(HOLES[0]) if holes[hole])
    north = sum(1 << p for p, hole in enumerate(HOLES[1]) if holes[hole])
    return (south, north) if side == SOUTH else (north, south)


def _header(stones: int, digest: str) -> bytes:
    text = (f"mancala tablebase {FORMAT}\ngame {GAME}\nstones {stones}\nrules {GAME} {RULES}\n"
            f"entries {entries(stones)}\nsha256 {digest}\n").encode("ascii")
    return text + bytes(HEADER_BYTES - len(text))


class Tablebase:
    """The table of every ``kimasai-klamroth`` position with at most
    ``stones`` stones (``data``: the values, as the file holds them after
    its header)."""

    def __init__(self, stones: int, data: bytes | bytearray, path: str | None = None) -> None:
        if not 0 <= stones <= MAX_STONES:
            raise TablebaseError(f"a table holds 0 to {MAX_STONES} stones, not {stones}")
        if len(data) != build_bytes(stones):
            raise TablebaseError(f"a table of {stones} stones holds {build_bytes(stones)} bytes of values, "
                                 f"not {len(data)}")
        self.game = GAME
        self.stones = stones
        self.data = data
        self.path = path
        self._offsets = _layers(stones)

    def __repr__(self) -> str:
        return f"<Tablebase {self.game}, at most {self.stones} stones, {entries(self.stones):,} positions>"

    # -- building ----------------------------------------------------------
    @classmethod
    def build(cls, stones: int, *, progress: BuildProgress | None = None, pure: bool | None = None) -> Tablebase:
        """The table of at most ``stones`` stones, built by the native core
        (or in Python where there is none, or ``pure``: slow, meant for a few
        stones)."""
        if not 0 <= stones <= MAX_STONES:
            raise TablebaseError(f"a table holds 0 to {MAX_STONES} stones, not {stones}")
        data = bytearray(build_bytes(stones))
        native_build = None if pure else _native_build()
        if native_build is not None:
            native_build(stones, data, progress)
        else:
            _build_pure(stones, data, progress)
        return cls(stones, data)

    # -- files -------------------------------------------------------------
    def write(self, path: str) -> None:
        """Write the table to ``path`` as ``>`` would, whole or not at all
        (:func:`~mancala_cli.files.output.atomic_output`: a regular file is
        replaced by a complete new one, keeping its mode; a link's target is
        replaced; a device or FIFO is written in place; ``-`` is standard
        output). Raises :class:`~mancala_cli.files.output.OutputError`."""
        digest = hashlib.sha256(self.data).hexdigest()
        with atomic_output(path, binary=True) as out:
            out.write(_header(self.stones, digest))
            out.write(self.data)

    @classmethod
    def read(cls, path: str) -> Tablebase:
        """The table in the file ``path``, read into memory and checked
        against the checksum of its header (a file changed while a search
        asks the table cannot change what the search finds, nor end it);
        :class:`TablebaseError` if it is not one or is damaged, OSError if
        unreadable, MemoryError if it does not fit in memory."""
        opened = open_regular(path)  # (a FIFO is refused, not waited on)
        if opened is None:
            raise TablebaseError(f"{path}: not a mancala tablebase (not a regular file)")
        with opened as file:
            info = os.fstat(file.fileno())
            stones, digest = _read_header(path, file.read(HEADER_BYTES))
            size = build_bytes(stones)
            if info.st_size != HEADER_BYTES + size:
                raise TablebaseError(f"{path}: {info.st_size} bytes, a table of {stones} stones has "
                                     f"{HEADER_BYTES + size} (cut short?)")
            data = _read_values(path, file, size, digest)
        return cls(stones, data, path)

    # -- asking ------------------------------------------------------------
    def _byte(self, holes: tuple[int, ...], side: str) -> int:
        mover, opponent = _masks(holes, side)
        a, b = mover.bit_count(), opponent.bit_count()
        if a + b > self.stones:
            return 0
        return self.data[self._offsets[a, b] + _rank(mover) * comb(PLACES, b) + _rank(opponent)]

    def probe(self, position: Position) -> int | None:
        """The value of ``position`` for its side to move as a game started
        there (1 win, 0 draw, -1 loss), or ``None`` when it has more stones
        than the table."""
        return _SOLVER_VALUE.get(self._byte(position.holes, position.side) & 3)

    def depth(self, position: Position) -> int | None:
        """The depth of a won or lost ``position`` in its layer (see the
        module's docstring), ``None`` for a draw or one not in the table."""
        byte = self._byte(position.holes, position.side)
        return byte >> 2 if byte & 3 in (WIN, LOSS) else None

    def bounds(self, position: Position, past: Collection[tuple[tuple[int, ...], str]]) -> tuple[int, int] | None:
        """Bounds of the value of ``position`` for the side to move inside a
        search whose earlier positions that can recur are ``past`` (their
        keys: holes, side); ``None`` when the table does not hold it. That is
        its value when ``past`` is empty, or when the winner's strategy of
        the table cannot meet a position of ``past``: it only visits
        positions of a smaller depth until a capture, after which no earlier
        position can recur. Else KK-4b can only turn a result into a draw: a
        win is at least a draw, a loss at most one."""
        byte = self._byte(position.holes, position.side)
        value = _SOLVER_VALUE.get(byte & 3)
        if value is None:
            return None
        if value == 0 or not past:
            return value, value
        depth = byte >> 2
        if depth < DEEP and all((other := self._byte(holes, side)) & 3 == DRAW or other >> 2 >= depth
                                for holes, side in past):
            return value, value
        return (0, 1) if value > 0 else (-1, 0)


def _read_header(path: str, head: bytes) -> tuple[int, str]:
    """The stones and the checksum (SHA-256 of the values) that the header
    ``head`` of the file ``path`` gives; :class:`TablebaseError` if it is
    not one of this format, game and rules, or does not add up."""
    fields: dict[str, str] = {}
    lines = head.split(b"\0", 1)[0].decode("ascii", "replace").splitlines()
    if lines and lines[0].startswith("mancala tablebase ") and lines[0] != f"mancala tablebase {FORMAT}":
        raise TablebaseError(f"{path}: a table of format {lines[0][18:]!r}, this version reads format "
                             f"{FORMAT} (with a checksum): build it again with mancala tablebase build")
    if len(head) < HEADER_BYTES or not lines or lines[0] != f"mancala tablebase {FORMAT}":
        raise TablebaseError(f"{path}: not a mancala tablebase of format {FORMAT}")
    for line in lines[1:]:
        name, _, value = line.partition(" ")
        fields[name] = value
    for name in ("game", "rules", "entries"):
        if name not in fields:
            raise TablebaseError(f"{path}: a damaged table (no {name} in its header)")
    if fields["game"] != GAME:
        raise TablebaseError(f"{path}: a table of {fields['game']!r}, not of {GAME}")
    if fields["rules"] != f"{GAME} {RULES}":
        raise TablebaseError(f"{path}: built for rules {fields['rules']!r}, not {GAME} {RULES}")
    stones_field = fields.get("stones", "")
    if not (stones_field.isascii() and stones_field.isdigit() and len(stones_field) <= 9):
        raise TablebaseError(f"{path}: no number of stones in its header")
    stones = int(stones_field)
    if not 0 <= stones <= MAX_STONES or fields["entries"] != str(entries(stones)):
        raise TablebaseError(f"{path}: a header that does not add up (stones {stones}, "
                             f"entries {fields['entries']})")
    digest = fields.get("sha256", "")
    if len(digest) != 64 or digest.strip("0123456789abcdef"):
        raise TablebaseError(f"{path}: a damaged table (no checksum in its header)")
    return stones, digest


def _read_values(path: str, file: io.BufferedReader, size: int, digest: str) -> bytearray:
    """The ``size`` bytes of values that follow the header in ``file`` (of
    ``path``), read in :data:`READ_BYTES` pieces; :class:`TablebaseError`
    if the file ends early or grows, or if their SHA-256 is not ``digest``."""
    data = bytearray(size)
    view = memoryview(data)
    check = hashlib.sha256()
    done = 0
    while done < size:
        got = file.readinto(view[done:done + READ_BYTES])
        if not got:
            raise TablebaseError(f"{path}: the file ends early (cut short while being read?)")
        check.update(view[done:done + got])
        done += got
    if file.read(1):
        raise TablebaseError(f"{path}: the file grew while being read")
    if check.hexdigest() != digest:
        raise TablebaseError(f"{path}: a damaged table (its checksum differs): build it again")
    return data


def _native_build() -> Callable[[int, bytearray, BuildProgress | None], None] | None:
    """The native kernel's build, where the rules run on it (else ``None``)."""
    if CORE != "native":
        return None
    from ..rules.native import build_tablebase  # (local: it loads only where the kernel is built and chosen)
    return build_tablebase


# -- the pure build (the reference of native_tablebase.c) ---------------------
_UNKNOWN, _UNKNOWN_DRAW = 0, 1


def _combinations(bits: int) -> list[int]:
    """Every 24-bit mask of ``bits`` bits, in colex order."""
    masks = [sum(1 << p for p in places) for places in combinations(range(PLACES), bits)]
    masks.sort(key=lambda m: [m >> p & 1 for p in range(PLACES - 1, -1, -1)])
    return masks


def _moves(mover: int, opponent: int) -> list[tuple[int, int, bool]]:
    """The moves of the side ``mover``: (opponent after, mover after, captured).

    KK-2 and KK-3 on the tables' encoding; the same rules:
    kimasai_klamroth.py, KimasaiKlamroth._move (the reference),
    native_rules.c, native_klamroth_move, and native_tablebase.c, tb_layer_start
    and tb_layer_pass."""
    moves = []
    for p in range(PLACES):
        if not mover >> p & 1:
            continue
        t = 0 if p == PLACES - 1 else p + 1
        if mover >> t & 1:
            continue
        after = mover ^ (1 << p) ^ (1 << t)
        if t >= 12 and opponent >> (35 - t) & 1:
            moves.append((opponent & ~(1 << (35 - t)) & ~(1 << (t - 12)), after, True))
        else:
            moves.append((opponent, after, False))
    return moves


def _build_pure(stones: int, data: bytearray, progress: BuildProgress | None) -> None:
    offsets = _layers(stones)
    masks = {bits: _combinations(bits) for bits in range(min(stones, PLACES) + 1)}
    ranks = {bits: {m: r for r, m in enumerate(masks[bits])} for bits in masks}

    def get(mover: int, opponent: int) -> int:
        a, b = mover.bit_count(), opponent.bit_count()
        return data[offsets[a, b] + ranks[a][mover] * comb(PLACES, b) + ranks[b][opponent]] & 3

    for k in range(stones + 1):
        for a in range(k // 2 + 1):
            b = k - a
            layer_pair = [(a, b)] if a == b else [(a, b), (b, a)]
            layer = _Layer()
            for x, y in layer_pair:
                layer.start(masks[x], masks[y], x == 0, get)
            passes = layer.back_up()
            for x, y in layer_pair:
                layer.write(data, offsets[x, y], comb(PLACES, y), masks[x], masks[y])
            if progress is not None:
                progress(k, a, passes)


class _Layer:
    """One layer pair of the pure build (positions of a stones and b
    stones for the side to move, and b and a): each position's value, its
    depth (won or lost in that many passes), the moves left unresolved of
    the undecided ones, the positions with a capture into a draw, and the
    positions decided in the last pass."""

    def __init__(self) -> None:
        self.value: dict[tuple[int, int], int] = {}
        self.depth: dict[tuple[int, int], int] = {}
        self.count: dict[tuple[int, int], int] = {}
        self.draws: set[tuple[int, int]] = set()
        self.fresh: list[tuple[int, int]] = []

    def start(self, movers: list[int], opponents: list[int], bare: bool, get: Callable[[int, int], int]) -> None:
        """The values known before any pass: no stones (lost), a capture
        into a lost position (won), no moves; the moves left of the others.

        KK-4a (no stones) and KK-4c (no moves), the same rules:
        kimasai_klamroth.py, KimasaiKlamroth._ended and _no_moves;
        native_rules.c, native_ended and native_no_moves; on this encoding,
        native_tablebase.c, tb_layer_start."""
        value, count, draws, fresh = self.value, self.count, self.draws, self.fresh
        for mover in movers:
            for opponent in opponents:
                here = (mover, opponent)
                if bare:
                    value[here] = LOSS
                    fresh.append(here)
                    continue
                moves = 0
                won = False
                for after_opponent, after_mover, captured in _moves(mover, opponent):
                    if captured:
                        v = get(after_opponent, after_mover)
                        won = won or v == LOSS
                        if v == DRAW:
                            draws.add(here)
                    else:
                        moves += 1
                if won:
                    value[here] = WIN
                    fresh.append(here)
                elif moves == 0:
                    value[here] = DRAW if here in draws else LOSS
                    if value[here] == LOSS:
                        fresh.append(here)
                else:
                    count[here] = moves

    def back_up(self) -> int:
        """Retrograde passes from the decided positions to those that move
        into them, until none is decided: the passes."""
        value, depth, count, draws = self.value, self.depth, self.count, self.draws
        fresh = self.fresh
        passes = 0
        while fresh:
            passes += 1
            resolved: list[tuple[int, int]] = []
            for mover, opponent in fresh:
                v = value[mover, opponent]
                for p in range(PLACES):
                    if not opponent >> p & 1:
                        continue
                    prev = PLACES - 1 if p == 0 else p - 1
                    if opponent >> prev & 1 or (p >= 12 and mover >> (35 - p) & 1):
                        continue
                    before = (opponent ^ (1 << p) ^ (1 << prev), mover)
                    if before in value:
                        continue
                    if v == LOSS:
                        value[before] = WIN
                        depth[before] = min(passes, DEEP)
                        resolved.append(before)
                    else:
                        count[before] -= 1
                        if count[before] == 0:
                            value[before] = DRAW if before in draws else LOSS
                            if value[before] == LOSS:
                                depth[before] = min(passes, DEEP)
                                resolved.append(before)
            fresh = resolved
        self.fresh = fresh
        return passes

    def write(self, data: bytearray, base: int, stride: int, movers: list[int], opponents: list[int]) -> None:
        """The layer's bytes: value and depth (undecided: a draw)."""
        value, depth = self.value, self.depth
        for rm, mover in enumerate(movers):
            for ro, opponent in enumerate(opponents):
                v = value.get((mover, opponent), DRAW)
                data[base + rm * stride + ro] = v | (depth.get((mover, opponent), 0) << 2 if v != DRAW else 0)

