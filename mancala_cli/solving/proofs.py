"""Proofs of a won position that a reader can check without the solver.

A *proof* that the side to move wins a position is a strategy: one move for
every position of the winner that the strategy reaches, against every reply
of the loser. :func:`write_proof` asks the solver (:mod:`mancala_cli.solving.search`)
which move to choose, and :meth:`Proof.text` writes the strategy down; a
separate checker (``benchmarks/check_proof.py``) replays it with the rules
alone: every reply of the loser, the winner's move from the proof, until every
line has ended in the winner's win, and no position recurs on a line::

    >>> from mancala_cli import get_game, parse_position
    >>> game = get_game("kingulu")
    >>> proof = write_proof(game, parse_position(game, "0,0,0,6*,2,9*/0,0,2,2,4,0 S 10-13 8"))
    >>> proof.winner, len(proof.strategy)
    ('S', 4)
    >>> print(proof.text(), end="")
    mancala proof 1
    game kingulu
    start 0,0,0,6*,2,9*/0,0,2,2,4,0 S 10-13 8
    winner S
    moves 4
    0,0,0,6*,2,9*/0,0,2,2,4,0 S 10-13 d1
    0,0,0,7*,0,9*/0,0,0,0,5,1 S 10-16 e1
    0,0,1,9*,0,10*/0,0,0,0,0,2 S 10-16 f1
    0,1,0,8*,1,10*/0,0,0,0,0,2 S 10-16 f1

The text: four header lines (``game``, ``start`` as a position string,
``winner``, ``moves`` N), then N lines, sorted, each a position of the winner
(the first three fields of its position string: rows, side, banks; the move
number does not change the game) and the hole the winner sows from there.
"""
from __future__ import annotations

import lzma
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from notation.position_strings import format_position

from ..files import open_regular
from ..rules.board import Side
from ..rules.game import Game, MancalaError, Move
from ..rules.position import Position
from .search import Solver
from .search_result import SearchResult

#: The first line of a proof's text.
HEADER = "mancala proof 1"

#: A position without its move number (:func:`key`).
Key = tuple[tuple[int, ...], Side, tuple[int, int], frozenset[int]]


def key(position: Position) -> Key:
    """What decides the rest of a game without a repetition rule: all but the move number."""
    return (position.holes, position.side, position.banks, position.reserved)


#: The longest line a proof file may have (a position's rows, side, banks and
#: a hole: well under 200 characters for every game).
MAX_LINE = 4096

#: The most positions a book holds, over all its files (the shipped Kingulu
#: proofs hold 146,564 together; what a position costs a book in memory and
#: in reading: docs/performance.md, 'Endgame tables and proofs'): a larger
#: ``moves`` count is refused before anything is read.
MAX_POSITIONS = 1_000_000


class ProofError(MancalaError, ValueError):
    """A proof that cannot be used, in one line naming the file and the line."""


class NoProof(MancalaError, ValueError):
    """The solver proves no winning move at a position of the proof (or the game
    has a repetition rule, whose results depend on the line)."""


@dataclass(slots=True)
class Proof:
    """A winning strategy from ``start`` for ``winner`` (the side to move at
    ``start``): ``strategy`` maps the :func:`key` of every position of the
    winner that it reaches (and that is not over) to that position and the
    hole to sow from. ``solves`` and ``nodes`` count the solver's work."""

    game: Game
    start: Position
    winner: str
    strategy: dict[Key, tuple[Position, int]] = field(default_factory=dict)
    solves: int = 0
    nodes: int = 0

    def text(self) -> str:
        """The proof as the checker reads it (see the module's docstring)."""
        game = self.game
        lines = sorted(" ".join(format_position(game, position).split()[:3] + [game.board.name(origin)])
                       for position, origin in self.strategy.values())
        return "".join(f"{line}\n" for line in [HEADER, f"game {game.id}", f"start {format_position(game, self.start)}",
                                               f"winner {self.winner}", f"moves {len(lines)}", *lines])

    def principal_variation(self) -> list[int]:
        """The origins of a line from ``start`` to the end of the game: the
        winner plays the proof's move, the loser the reply after which the
        proof's line to the end is longest (the first such in the order of
        the legal moves)."""
        game = self.game
        plies: dict[Key, int] = {}

        def length(position: Position) -> int:   # the longest line to the end under the strategy
            k = key(position)
            known = plies.get(k)
            if known is None:
                if position.side == self.winner:
                    step = self.strategy.get(k)
                    known = 0 if step is None else 1 + length(game.play(position, step[1])[1])
                else:
                    known = max((1 + length(after) for _, after in game.successors(position)), default=0)
                plies[k] = known
            return known

        line: list[int] = []
        position = self.start
        while True:
            if position.side == self.winner:
                step = self.strategy.get(key(position))
                if step is None:
                    return line
                origin = step[1]
                position = game.play(position, origin)[1]
            else:
                replies = list(game.successors(position))
                if not replies:
                    return line
                move, position = max(replies, key=lambda reply: length(reply[1]))
                origin = move.origin
            line.append(origin)


def write_proof(game: Game, start: Position, *, solver: Solver | None = None) -> Proof:
    """A proof that the side to move at ``start`` wins. At each of the winner's
    positions the winner plays the first move, captures first (larger first),
    then reservations, then by origin, after which the solver proves a loss
    for the opponent; every reply of the opponent is followed. Raises
    :class:`NoProof` where the solver proves no such move."""
    if game.uses_history:
        raise NoProof(f"{game.id} has a repetition rule: a proof would depend on the line")
    solver = Solver(game) if solver is None else solver
    proof = Proof(game, start, start.side)
    lost: dict[Key, bool] = {}        # the solver's verdict on the loser's positions: lost or not
    followed: set[Key] = set()        # the loser's positions whose replies are followed
    stack = [start]
    while stack:
        position = stack.pop()
        k = key(position)
        if position.side == proof.winner:
            if k in proof.strategy:
                continue
            moves = sorted(game.successors(position), key=lambda m: (m[0].captured, m[0].reserved), reverse=True)
            for move, after in moves:
                after_key = key(after)
                verdict = lost.get(after_key)
                if verdict is None:
                    solution = solver.solve(after)
                    proof.solves += 1
                    proof.nodes += solution.nodes
                    verdict = lost[after_key] = solution.result == "loss"
                if verdict:
                    proof.strategy[k] = (position, move.origin)
                    stack.append(after)
                    break
            else:
                if moves:
                    raise NoProof(f"the solver proves no winning move at {format_position(game, position)}")
        elif k not in followed:
            followed.add(k)
            stack.extend(after for _, after in game.successors(position))
    return proof


_VALUE_NAMES = {1: "win", -1: "loss"}


class ProofBook:
    """What proofs (:meth:`Proof.text`, read back by :meth:`read`) tell of
    the positions they cover, for ``mancala annotate --proof FILE``: a
    winner's position of a proof is won, with the proof's move winning; a
    position all of whose moves lead to a winner's position is lost.

        >>> from mancala_cli import get_game, parse_position
        >>> game = get_game("kingulu")
        >>> start = parse_position(game, "0,0,0,6*,2,9*/0,0,2,2,4,0 S 10-13 8")
        >>> book = ProofBook.from_texts([write_proof(game, start).text()])
        >>> book.value(game, start)
        1
        >>> [book.move_value(game, start, move, after) for move, after in game.successors(start)]
        [1, None]
    """

    def __init__(self, game: str, winning: dict[str, str], lines: Mapping[str, tuple[str, int]] | None = None) -> None:
        self.game = game
        #: A winner's position (the first three fields of its position string) -> the hole of its move.
        self.winning = winning
        #: A winner's position -> where the book has it: the file (or ``proof N``) and the line.
        self.lines = lines or {}
        self._legal: set[str] = set()   # the positions whose moves were found legal

    def __repr__(self) -> str:
        return f"<ProofBook {self.game}, {len(self.winning):,} positions won>"

    @classmethod
    def from_texts(cls, texts: list[str]) -> ProofBook:
        """The book of proofs given as texts (all of one game); ValueError
        with one line when one is not a proof."""
        reader = _Reader()
        for number, text in enumerate(texts, 1):
            reader.add(f"proof {number}", iter(text.splitlines(keepends=True)))
        return reader.book()

    @classmethod
    def read(cls, paths: list[str]) -> ProofBook:
        """The book of the proof files ``paths`` (plain text, or xz-compressed
        when the name ends in ``.xz``), read line by line, the header first:
        ValueError with one line (the file and the line) when one is not a
        proof (or not a regular file: a device, a FIFO, which is not waited
        on), OSError when one cannot be read."""
        reader = _Reader()
        for path in paths:
            try:
                opened = open_regular(path)  # (a FIFO is refused, not waited on)
                if opened is None:
                    raise ProofError(f"{path}: not a proof (not a regular file)")
                with opened, (lzma.open(opened, "rb") if path.endswith(".xz") else opened) as file:
                    reader.add(path, iter(lambda: file.readline(MAX_LINE + 1), b""))
            except (lzma.LZMAError, EOFError) as error:
                raise ProofError(f"{path}: not a proof ({error})") from None
        return reader.book()

    def _key(self, game: Game, position: Position) -> str:
        return " ".join(format_position(game, position).split()[:3])

    def _move(self, game: Game, position: Position) -> str | None:
        """The hole the book plays at ``position`` (None where it has none);
        :class:`ProofError` if that move is not legal there, or if the book
        does not hold what it leads to (:meth:`_unproven`)."""
        k = self._key(game, position)
        hole = self.winning.get(k)
        if hole is not None and k not in self._legal:
            where, line = self.lines.get(k, ("the proof", 0))
            played = [after for move, after in game.successors(position) if game.board.name(move.origin) == hole]
            if not played:
                raise ProofError(f"{where}:{line}: the move {hole} is not legal at {k}")
            for after in played:
                unproven = self._unproven(game, after, position.side)
                if unproven is not None:
                    raise ProofError(f"{where}:{line}: the move {hole} at {k} is not proven to win: {unproven}")
            self._legal.add(k)
        return hole

    #: How many moves in a row of the loser (a sowing that gives another
    #: turn) :meth:`_unproven` follows before it takes the rest on trust.
    _LOSER_MOVES = 4

    def _unproven(self, game: Game, position: Position, winner: str, depth: int = 0) -> str | None:
        """Why the book does not hold that ``position``, reached by a move
        of ``winner``'s from a position of the book, is won for ``winner``
        (None where it does): the game ends otherwise there, or a position of
        the winner that the loser's replies reach is not in the book. One
        move of the loser deep, so that a proof's claim is checked where it
        is used, at the cost of a few moves (the whole proof is checked by
        ``benchmarks/check_proof.py``)."""
        k = self._key(game, position)
        if not game.legal_moves(position):
            outcome = game.outcome(position)
            won = "1-0" if winner == "S" else "0-1"
            if outcome is None or outcome.result != won:
                return f"the game ends {outcome.result if outcome else 'unfinished'} at {k}"
            return None
        if position.side == winner:
            return None if k in self.winning else f"the proof has no move at {k}"
        if depth >= self._LOSER_MOVES:
            return None
        for _, after in game.successors(position):
            if after.side != winner or not game.legal_moves(after):
                unproven = self._unproven(game, after, winner, depth + 1)
            else:
                after_key = self._key(game, after)
                unproven = None if after_key in self.winning else f"the proof has no move at {after_key}"
            if unproven is not None:
                return unproven
        return None

    def _won(self, game: Game, position: Position) -> bool:
        return self._move(game, position) is not None

    def _lost(self, game: Game, position: Position) -> bool:
        replies = list(game.successors(position))
        return bool(replies) and all(self._won(game, after) for _, after in replies)

    def value(self, game: Game, position: Position) -> int | None:
        """1 if the books proves ``position`` won for its side to move, -1
        lost, else ``None``."""
        if game.id != self.game:
            return None
        if self._won(game, position):
            return 1
        return -1 if self._lost(game, position) else None

    def move_value(self, game: Game, position: Position, move: Any, after: Position) -> int | None:
        """1 if the book proves ``move`` (to ``after``) winning for the
        mover, -1 losing, else ``None``."""
        if game.id != self.game:
            return None
        if self._move(game, position) == game.board.name(move.origin):
            return 1
        if self._won(game, after):
            return -1
        return 1 if self._lost(game, after) else None

    def fill(self, game: Game, position: Position, result: str, moves: list[tuple[Move, str]],
             best: list[Move]) -> tuple[str, list[tuple[Move, str]], list[Move]]:
        """The result, the moves' results and the best moves of ``position``
        (as a search found them: ``win``, ``draw``, ``loss`` or ``unknown``),
        with what the book proves where the search left them unknown."""
        if game.id != self.game or (result != "unknown" and all(r != "unknown" for _, r in moves)):
            return result, moves, best
        after = {(move.origin, move.end): then for move, then in game.successors(position)}
        known = []
        for move, found in moves:
            if found == "unknown" and (move.origin, move.end) in after:
                value = self.move_value(game, position, move, after[move.origin, move.end])
                found = _VALUE_NAMES.get(value, "unknown") if value is not None else found
            known.append((move, found))
        if result == "unknown":
            value = self.value(game, position)
            if value is not None:
                result = _VALUE_NAMES[value]
            elif any(found == "win" for _, found in known):
                result = "win"
        if result != "unknown" and not best:
            best = [move for move, found in known if found == result]
        return result, known, best

    def proves_all(self, game: Game, position: Position) -> \
            tuple[str, list[tuple[Move, str]], list[Move]] | None:
        """The result, the moves' results and the best moves of ``position``
        if the book proves them all (then there is nothing to search), else
        None. A game with a repetition rule is never proven by a book (a
        value there depends on the line that led to the position)."""
        if game.id != self.game or game.uses_history:
            return None
        moves = [(move, "unknown") for move, _ in game.successors(position)]
        if not moves:
            return None
        result, known, best = self.fill(game, position, "unknown", moves, [])
        return (result, known, best) if result != "unknown" and all(r != "unknown" for _, r in known) else None

    def proven(self, game: Game, position: Position) -> SearchResult | None:
        """The :class:`~mancala_cli.solving.search.Solution` of ``position``
        when the book proves every move's result (no node searched), else
        None."""
        known = self.proves_all(game, position)
        if known is None:
            return None
        result, moves, best = known
        return SearchResult(result, moves, best, 0, 0.0, 0)

    def solution(self, game: Game, position: Position, found: SearchResult) -> SearchResult:
        """``found``, a search's :class:`~mancala_cli.solving.search.Solution`
        of ``position``, with what the book proves where it is unknown; when
        then every move's result is known, nothing is left for the search, and
        the solution is complete (``stopped`` None)."""
        if game.uses_history:
            return found
        result, moves, best = self.fill(game, position, found.result, found.moves, found.best)
        if (result, moves) == (found.result, found.moves):
            return found
        every = all(r != "unknown" for _, r in moves)
        bounds = [(r, r) if r != "unknown" else b for (_, r), b in zip(moves, found.move_bounds)]
        return SearchResult(result, moves, best, found.nodes, found.seconds, found.depth,
                        bounds=(result, result) if result != "unknown" else found.bounds, move_bounds=bounds,
                        stopped=None if every and result != "unknown" else found.stopped, outcome=found.outcome)


def is_proof_file(path: str) -> bool:
    """Whether the file ``path`` (xz-compressed when its name ends in
    ``.xz``) begins with a proof's first line (only that line is read):
    ``solve`` and ``annotate`` take such files after ``--proof`` as proofs,
    so that ``--proof docs/kingulu-proof*.txt.xz`` gives them all. What
    is not a regular file (a FIFO, a pipe: its lines would be taken from
    the reader that follows) is none."""
    try:
        opened = open_regular(path)
        if opened is None:
            return False
        with opened, (lzma.open(opened, "rb") if path.endswith(".xz") else opened) as file:
            return file.readline(len(HEADER) + 2).rstrip(b"\r\n") == HEADER.encode()
    except (OSError, lzma.LZMAError, EOFError):
        return False


def proofs_among(files: list[str], proofs: list[str]) -> tuple[list[str], list[str]]:
    """``files`` without the proofs among them (:func:`is_proof_file`;
    ``-``, standard input, is none), and ``proofs`` with those after them:
    what ``annotate --proof FILE...`` takes as inputs and as proofs, so that
    a shell's ``--proof docs/kingulu-proof*.txt.xz`` gives them all."""
    found = [path for path in files if path != "-" and is_proof_file(path)]
    return [path for path in files if path not in found], [*proofs, *found]


class _Lines(Mapping[str, tuple[str, int]]):
    """Where a book has each winner's position, ``(file, line)``, kept as
    one number a position (the file's index and the line) rather than a
    tuple: a book may hold :data:`MAX_POSITIONS`."""

    def __init__(self) -> None:
        self.files: list[str] = []
        self.packed: dict[str, int] = {}

    def __getitem__(self, k: str) -> tuple[str, int]:
        packed = self.packed[k]
        return self.files[packed >> 24], packed & 0xFFFFFF

    def __iter__(self) -> Iterator[str]:
        return iter(self.packed)

    def __len__(self) -> int:
        return len(self.packed)


class _Reader:
    """Proof files read into one :class:`ProofBook`, line by line: each
    file's header checked before its positions are read, its ``moves`` count
    before any is kept, every line's length before it is decoded."""

    def __init__(self) -> None:
        self.game: str | None = None
        self.winning: dict[str, str] = {}
        self.lines = _Lines()

    def add(self, where: str, lines: Iterator[bytes] | Iterator[str]) -> None:
        """The proof whose lines ``lines`` gives (``where`` names it in errors)."""
        number = 0

        def line(what: str) -> str:
            nonlocal number
            number += 1
            raw = next(lines, None)
            if raw is None:
                raise ProofError(f"{where}:{number}: the proof ends early (expected {what})")
            if len(raw) > MAX_LINE:
                raise ProofError(f"{where}:{number}: not a proof (a line longer than {MAX_LINE:,} characters)")
            if isinstance(raw, bytes):
                try:
                    raw = raw.decode("ascii")
                except UnicodeDecodeError:
                    raise ProofError(f"{where}:{number}: not a proof (not ASCII text)") from None
            return raw.rstrip("\r\n")

        if line(repr(HEADER)) != HEADER:
            raise ProofError(f"{where}:1: not a mancala proof (its first line is not {HEADER!r})")
        game = line("'game ID'")
        if not game.startswith("game "):
            raise ProofError(f"{where}:2: not a mancala proof (its second line is not 'game ID')")
        game = game[5:]
        if self.game is not None and game != self.game:
            raise ProofError(f"{where}:2: a proof of {game}, the others are of {self.game}")
        self.game = game
        start, winner, count = line("'start POSITION'"), line("'winner S' or 'winner N'"), line("'moves N'")
        if not start.startswith("start "):
            raise ProofError(f"{where}:3: not a mancala proof (its third line is not 'start POSITION')")
        if winner not in ("winner S", "winner N"):
            raise ProofError(f"{where}:4: not a mancala proof (its fourth line is not 'winner S' or 'winner N')")
        if not (count.startswith("moves ") and count[6:].isdigit() and count[6:].isascii()):
            raise ProofError(f"{where}:5: not a mancala proof (its fifth line is not 'moves N')")
        moves = int(count[6:])
        if len(self.winning) + moves > MAX_POSITIONS:
            raise ProofError(f"{where}:5: {moves:,} moves, more than a book holds ({MAX_POSITIONS:,} "
                             "positions in all)")
        side = winner[-1]
        file = len(self.lines.files)
        self.lines.files.append(where)
        winning, packed = self.winning, self.lines.packed
        for _ in range(moves):
            text = line(f"{moves:,} moves")
            fields = text.split()
            if len(fields) != 4 or fields[1] != side:
                raise ProofError(f"{where}:{number}: a line that is not 'rows {side} banks hole': {text!r}")
            k = " ".join(fields[:3])
            winning[k] = sys.intern(fields[3])  # (a few holes, each kept once)
            packed[k] = file << 24 | number  # (a line number is below 2 ** 24: MAX_POSITIONS)
        if next(lines, None) is not None:  # (even a blank line: a proof ends with its last move)
            raise ProofError(f"{where}:{number + 1}: more lines than its 'moves {moves}'")

    def book(self) -> ProofBook:
        if self.game is None:
            raise ProofError("no proof given")
        return ProofBook(self.game, self.winning, self.lines)
