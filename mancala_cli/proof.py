"""Proofs of a won position that a reader can check without the solver.

A *proof* that the side to move wins a position is a strategy: one move for
every position of the winner that the strategy reaches, against every reply
of the loser. :func:`write_proof` asks the solver (:mod:`mancala_cli.rules.solver`)
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

from dataclasses import dataclass, field
from typing import Any

from .positions import format_position
from .rules.core import Game, Move, Position, Side
from .rules.solver import Solution, Solver

#: The first line of a proof's text.
HEADER = "mancala proof 1"

#: A position without its move number (:func:`key`).
Key = tuple[tuple[int, ...], Side, tuple[int, int], frozenset[int]]


def key(position: Position) -> Key:
    """What decides the rest of a game without a repetition rule: all but the move number."""
    return (position.holes, position.side, position.banks, position.reserved)


class NoProof(ValueError):
    """The solver proves no winning move at a position of the proof (or the game
    has a repetition rule, whose results depend on the line)."""


@dataclass
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

    def __init__(self, game: str, winning: dict[str, str]) -> None:
        self.game = game
        #: A winner's position (the first three fields of its position string) -> the hole of its move.
        self.winning = winning

    def __repr__(self) -> str:
        return f"<ProofBook {self.game}, {len(self.winning):,} positions won>"

    @classmethod
    def from_texts(cls, texts: list[str]) -> ProofBook:
        """The book of proofs given as texts (all of one game); ValueError
        with one line when one is not a proof."""
        game = None
        winning: dict[str, str] = {}
        for number, text in enumerate(texts, 1):
            lines = text.splitlines()
            if len(lines) < 5 or lines[0] != HEADER or not lines[1].startswith("game "):
                raise ValueError(f"proof {number}: not a mancala proof (its first line is not {HEADER!r})")
            this = lines[1][5:]
            if game is not None and this != game:
                raise ValueError(f"proof {number}: a proof of {this}, the others are of {game}")
            game = this
            for line in lines[5:]:
                fields = line.split()
                if len(fields) != 4:
                    raise ValueError(f"proof {number}: a line that is not 'rows side banks hole': {line!r}")
                winning[" ".join(fields[:3])] = fields[3]
        if game is None:
            raise ValueError("no proof given")
        return cls(game, winning)

    @classmethod
    def read(cls, paths: list[str]) -> ProofBook:
        """The book of the proof files ``paths`` (plain text, or xz-compressed
        when the name ends in ``.xz``)."""
        import lzma

        texts = []
        for path in paths:
            opener = lzma.open if path.endswith(".xz") else open
            try:
                with opener(path, "rt", encoding="ascii") as file:
                    texts.append(file.read())
            except (lzma.LZMAError, UnicodeDecodeError, EOFError) as error:
                raise ValueError(f"{path}: not a proof ({error})") from None
        try:
            return cls.from_texts(texts)
        except ValueError as error:
            raise ValueError(f"{', '.join(paths)}: {error}") from None

    def _key(self, game: Game, position: Position) -> str:
        return " ".join(format_position(game, position).split()[:3])

    def _won(self, game: Game, position: Position) -> bool:
        return self._key(game, position) in self.winning

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
        if self.winning.get(self._key(game, position)) == game.board.name(move.origin):
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

    def proven(self, game: Game, position: Position) -> Solution | None:
        """The :class:`~mancala_cli.rules.solver.Solution` of ``position``
        when the book proves every move's result (no node searched), else
        None."""
        known = self.proves_all(game, position)
        if known is None:
            return None
        result, moves, best = known
        return Solution(result, moves, best, 0, 0.0, 0)

    def solution(self, game: Game, position: Position, found: Solution) -> Solution:
        """``found``, a search's :class:`~mancala_cli.rules.solver.Solution`
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
        return Solution(result, moves, best, found.nodes, found.seconds, found.depth,
                        bounds=(result, result) if result != "unknown" else found.bounds, move_bounds=bounds,
                        stopped=None if every and result != "unknown" else found.stopped, outcome=found.outcome)
