"""What ``filter``, ``split`` and ``stats`` do per game: a
:class:`FilterTask` or :class:`StatsTask` is plain data (it is sent to the
workers), its ``process`` turns a record into a small picklable answer, and
the answers are put together in input order (:class:`Summary` for the
figures; :class:`DigestSet` for ``--dedupe``).

    >>> from mancala_cli import read
    >>> from mancala_cli.archives.criteria import Criteria
    >>> record = next(read('[Game "kingulu"]\\n[Result "*"]\\n\\n1. c1 d2 *\\n'))
    >>> FilterTask(Criteria.from_options(opening="c1", result="*")).process(record).selected
    True
    >>> FilterTask(Criteria.where('reaches "4,4,4,4,4,4/4,4,4,4,4,4 N 0-0 1"')).process(record).selected
    False
"""
from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from notation.coords import hole_names
from notation.position_strings import format_position
from notation.record import RESULTS, GameRecord, Problem

from ..checking import Replay, replay
from ..files.writing import GameFormat, WrittenGame
from ..rules.registry import GAME_IDS
from .criteria import Criteria, recorded_result

__all__ = ["TARGETS", "DigestSet", "Figures", "FilterTask", "Picked", "StatsTask", "Summary", "write_picked"]

#: The formats games are written in.
TARGETS = ("pmn", "json", "xml")
#: The bytes of a game's digest (``--dedupe`` keeps one per distinct game).
DIGEST_SIZE = 20

def digest(record: GameRecord, report: Replay) -> bytes:
    """What makes two games the same for ``--dedupe``: the game id, the start
    position and the main-line moves (the holes played, and the moves that
    could not be played as written); tags and comments do not count."""
    game, start = report.game, report.start
    h = hashlib.blake2b(digest_size=DIGEST_SIZE)
    h.update((game.id if game else record.tag("Game") or "").encode("utf-8", "surrogatepass") + b"\0")
    h.update((format_position(game, start) if game and start else record.tag("Setup") or "").encode(
        "utf-8", "surrogatepass") + b"\0")
    played = len(report.moves)
    h.update(",".join(str(move.origin) for move in report.moves).encode() + b"\0")
    h.update(" ".join(node.text for node in record.moves[played:]).encode("utf-8", "surrogatepass"))
    return h.digest()


class DigestSet:
    """The digests of the games seen, in one flat table of
    :data:`DIGEST_SIZE`-byte slots (open addressing, linear probing): at most
    40 bytes a digest once it holds :data:`SMALLEST` or more (a table at
    most 4/5 full, grown by half when it is), where a Python set of
    ``bytes`` takes about 100.

        >>> seen = DigestSet()
        >>> seen.add(b"a" * 20), seen.add(b"b" * 20), seen.add(b"a" * 20), len(seen)
        (True, True, False, 2)
    """

    #: Slots of a new table.
    SMALLEST = 1024

    def __init__(self) -> None:
        self._slots = self.SMALLEST
        self._table = bytearray(DIGEST_SIZE * self._slots)
        self._count = 0

    def __len__(self) -> int:
        return self._count

    @property
    def nbytes(self) -> int:
        """The bytes of the table."""
        return len(self._table)

    def add(self, digest: bytes) -> bool:
        """Add ``digest``; whether it was new. (An empty slot is all zero
        bytes: a digest of zeros, which blake2b gives one time in 2¹⁶⁰, is
        taken as the digest ``00…01``.)"""
        if len(digest) != DIGEST_SIZE:
            raise ValueError(f"a digest has {DIGEST_SIZE} bytes, not {len(digest)}")
        if not any(digest):
            digest = bytes(DIGEST_SIZE - 1) + b"\1"
        if not self._put(self._table, self._slots, digest):
            return False
        self._count += 1
        if self._count * 5 > self._slots * 4:
            self._grow()
        return True

    @staticmethod
    def _put(table: bytearray, slots: int, digest: bytes) -> bool:
        size = DIGEST_SIZE
        empty = bytes(size)
        k = int.from_bytes(digest[:8], "little") % slots
        while True:
            at = k * size
            held = table[at:at + size]
            if held == digest:
                return False
            if held == empty:
                table[at:at + size] = digest
                return True
            k = k + 1 if k + 1 < slots else 0

    def _grow(self) -> None:
        slots = self._slots + self._slots // 2
        table = bytearray(DIGEST_SIZE * slots)
        old = self._table
        empty = bytes(DIGEST_SIZE)
        for at in range(0, len(old), DIGEST_SIZE):
            held = bytes(old[at:at + DIGEST_SIZE])
            if held != empty:
                self._put(table, slots, held)
        self._table, self._slots = table, slots


@dataclass(slots=True)
class Picked:
    """One game as :meth:`FilterTask.process` judged it: whether it is
    picked, its digest (with ``dedupe``), the game as written (``game``,
    canonical, as ``convert`` writes it) when picked, and the problems
    found while reading it (its errors are the input's)."""

    selected: bool
    digest: bytes | None = None
    game: WrittenGame | None = None
    problems: list[Problem] = field(default_factory=list)
    plies: int = 0

    @property
    def unwritable(self) -> tuple[int, str] | None:
        """Why XML cannot hold the game, if so: the line it starts on and the reason."""
        return self.game.unwritable if self.game is not None else None


@dataclass(frozen=True)
class FilterTask:
    """Pick games by :class:`Criteria` (``invert``: the others) and write the
    picked ones canonically in ``target``, as ``mancala convert`` does."""

    criteria: Criteria = Criteria()
    target: str = "pmn"
    invert: bool = False
    dedupe: bool = False
    #: Whether the picked games are written (not for ``--count``).
    write: bool = True

    def process(self, record: GameRecord) -> Picked:
        criteria = self.criteria
        read_problems = [p for p in record.problems if p.severity == "error"]
        plies = len(record.moves)
        matched, report = criteria.judge(record, self._replay)
        if matched == self.invert:
            return Picked(False, problems=read_problems, plies=plies)
        picked = Picked(True, problems=read_problems, plies=plies)
        if self.write or self.dedupe:
            if report is None:
                report = self._replay(record)
            picked.digest = digest(record, report) if self.dedupe else None
            if self.write:
                write_picked(picked, record, report, self.target)
        return picked

    def _replay(self, record: GameRecord) -> Replay:
        return GameFormat(self.target).replay(record) if self.write else replay(record)


def write_picked(picked: Picked, record: GameRecord, report: Replay, target: str) -> None:
    """``record`` (replayed as ``report``) in ``target`` as ``convert``
    writes it; what PMN cannot hold exactly joins the problems (warnings
    that make the exit status 1)."""
    picked.game = GameFormat(target).game(record, report)
    picked.problems.extend(picked.game.problems)


# -- stats -------------------------------------------------------------------------------

@dataclass(slots=True)
class Figures:
    """What :class:`Summary` counts of one game."""

    game: str | None
    valid: bool
    plies: int
    result: str
    reason: str | None
    opening: tuple[str, ...]
    #: Whether the game is one of those asked for (``stats --where``); if not, it counts nowhere.
    selected: bool = True
    #: The errors that make the game invalid, as ``validate`` finds them.
    errors: list[Problem] = field(default_factory=list)


@dataclass(frozen=True)
class StatsTask:
    """The figures of every game, openings up to ``depth`` plies."""

    depth: int = 2
    criteria: Criteria = Criteria()

    def process(self, record: GameRecord) -> Figures:
        matched, report = self.criteria.judge(record)
        if not matched:
            return Figures(None, False, 0, "*", None, (), selected=False)
        if report is None:
            report = replay(record)
        game = report.game
        opening: tuple[str, ...] = ()
        if game is not None and self.depth:
            names = hole_names(game.board.ranks, game.board.files)
            opening = tuple(names[move.origin] for move in report.moves[:self.depth])
        return Figures(game.id if game else None, report.valid, len(record.moves), recorded_result(record),
                       report.outcome.reason if report.outcome else None, opening,
                       errors=[problem for problem in report.problems if problem.severity == "error"])


#: South's points for each result of a finished game.
SOUTH_POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


#: The most distinct openings (prefixes of 1 to ``--depth`` plies) that
#: ``stats`` counts per game id: the ones first seen, in input order. A game
#: whose opening goes past them has only its shorter prefixes counted, and
#: the output says how many games were cut so (memory stays bounded
#: whatever ``--depth`` and the archive).
MAX_OPENINGS = 10_000


class _GameFigures:
    """The figures of one game id, summed up."""

    def __init__(self) -> None:
        self.games = 0
        self.plies: Counter[int] = Counter()
        self.results: Counter[str] = Counter()
        self.endings: Counter[str] = Counter()
        #: The openings as a tree: (parent node, move) → node; node 0 is the
        #: empty opening. Per node: its parent, its move and
        #: [games, finished games, South's points].
        self.nodes: dict[tuple[int, str], int] = {}
        self.parents: list[int] = [0]
        self.moves: list[str] = [""]
        self.counts: list[list[float]] = [[0, 0, 0.0]]
        #: Games whose opening went past the first :data:`MAX_OPENINGS` ones.
        self.cut = 0

    def add(self, figures: Figures) -> None:
        self.games += 1
        self.plies[figures.plies] += 1
        self.results[figures.result] += 1
        if figures.reason is not None:
            self.endings[figures.reason] += 1
        points = SOUTH_POINTS.get(figures.result)
        node = 0
        for move in figures.opening:
            child = self.nodes.get((node, move))
            if child is None:
                if len(self.parents) > MAX_OPENINGS:
                    self.cut += 1
                    break
                child = self.nodes[(node, move)] = len(self.parents)
                self.parents.append(node)
                self.moves.append(move)
                self.counts.append([0, 0, 0.0])
            node = child
            counts = self.counts[node]
            counts[0] += 1
            if points is not None:
                counts[1] += 1
                counts[2] += points

    def opening(self, node: int) -> tuple[str, ...]:
        moves = []
        while node:
            moves.append(self.moves[node])
            node = self.parents[node]
        return tuple(reversed(moves))

    def as_json(self) -> dict[str, Any]:
        openings = sorted(((self.opening(node), self.counts[node]) for node in range(1, len(self.parents))),
                          key=lambda item: (-item[1][0], len(item[0]), item[0]))
        data = {"games": self.games, "plies": _ply_figures(self.plies),
                "results": {result: self.results[result] for result in RESULTS},
                "endings": dict(sorted(self.endings.items(), key=lambda item: (-item[1], item[0]))),
                "openings": [{"moves": list(moves), "games": int(counts[0]),
                              "south_score": round(counts[2] / counts[1], 3) if counts[1] else None}
                             for moves, counts in openings]}
        if self.cut:
            data["openings_cut"] = self.cut
        return data


def _ply_figures(plies: Counter[int]) -> dict[str, Any]:
    """Least, median, most and mean (two decimals) of a histogram of ply counts."""
    count = sum(plies.values())
    ordered = sorted(plies.items())
    middle = [(count - 1) // 2, count // 2]  # the one or two middle games, counted from 0
    values: list[int] = []
    seen = 0
    for value, times in ordered:
        while len(values) < 2 and middle[len(values)] < seen + times:
            values.append(value)
        seen += times
    median = (values[0] + values[1]) / 2
    mean = sum(value * times for value, times in ordered) / count
    return {"min": ordered[0][0], "median": int(median) if median.is_integer() else median,
            "max": ordered[-1][0], "mean": round(mean, 2)}


class Summary:
    """The figures of an archive, game by game (:class:`Figures` added in any order).

        >>> summary = Summary()
        >>> summary.add(Figures("kingulu", True, 7, "1-0", "KG-7", ("c1", "d2")))
        >>> summary.as_json()["by_game"]["kingulu"]["openings"][0]
        {'moves': ['c1'], 'games': 1, 'south_score': 1.0}
    """

    def __init__(self) -> None:
        self.games = 0
        self.invalid = 0
        self.by_game: dict[str, _GameFigures] = {}

    def add(self, figures: Figures) -> None:
        if not figures.selected:
            return
        self.games += 1
        if not figures.valid or figures.game is None:
            self.invalid += 1
            return
        self.by_game.setdefault(figures.game, _GameFigures()).add(figures)

    def as_json(self) -> dict[str, Any]:
        """The JSON object of ``stats --format json``; games in the registry's order."""
        return {"games": self.games, "invalid": self.invalid,
                "by_game": {game: self.by_game[game].as_json() for game in GAME_IDS if game in self.by_game}}

    def as_text(self) -> str:
        """Aligned tables: every game, then each game's endings and openings."""
        data = self.as_json()
        out = [f"{data['games']} game{'s' if data['games'] != 1 else ''}, {data['invalid']} invalid"]
        rows = [["game", "games", "min", "median", "max", "mean", *RESULTS]]
        for game, figures in data["by_game"].items():
            plies = figures["plies"]
            rows.append([game, str(figures["games"]), str(plies["min"]), str(plies["median"]), str(plies["max"]),
                         f"{plies['mean']:.2f}", *(str(figures["results"][r]) for r in RESULTS)])
        if len(rows) > 1:
            out += ["", *_table(rows)]
        for game, figures in data["by_game"].items():
            if figures["endings"]:
                out += ["", *_table([[f"{game} endings", "games"],
                                     *([reason, str(n)] for reason, n in figures["endings"].items())])]
            if figures["openings"]:
                out += ["", *_table([[f"{game} openings", "games", "south"],
                                     *([" ".join(o["moves"]), str(o["games"]),
                                        "-" if o["south_score"] is None else f"{o['south_score']:.3f}"]
                                       for o in figures["openings"])])]
            if figures.get("openings_cut"):
                out.append(f"({MAX_OPENINGS:,} openings at most are counted, the first seen; "
                           f"{_counted(figures['openings_cut'], 'game')} went past them and "
                           "counted only in their shorter openings)")
        return "\n".join(out) + "\n"


def _counted(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def _table(rows: list[list[str]]) -> list[str]:
    """Rows in columns two spaces apart: the first left-aligned, the others right-aligned."""
    widths = [max(len(row[k]) for row in rows) for k in range(len(rows[0]))]
    return ["  ".join([row[0].ljust(widths[0]), *(cell.rjust(w) for cell, w in zip(row[1:], widths[1:]))]).rstrip()
            for row in rows]

