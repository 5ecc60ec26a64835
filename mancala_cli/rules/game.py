"""The rules of a game and playing them: :class:`Game` (what every
game's rules share: the legal moves, playing a move, the outcome, the
checks of an origin and of endless sowing), :class:`GameInProgress` (a game
being played, with its repetition history), what a move and a game come
to (:class:`Move`, :class:`Outcome`), and the errors that name a rule
(:class:`IllegalMove`, :class:`InvalidPosition`).
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from .board import SIDES, SOUTH, Board, Side, other
from .position import MutablePosition, Position, PositionKey

#: The endless-sowing limit (docs/rules.md, ``ENDLESS``): a move that needs
#: more laps is illegal.
LAP_LIMIT = 1000
#: From this lap on, a relay move watches for a lap-end state it has had
#: before (then it can never end: ``ENDLESS`` at once). Moves that end do so
#: within a few laps, so they never pay for the watching.
WATCH_FROM = 32


def sow(holes: list[int], circuit: tuple[int, ...], place: int, hand: int) -> int:
    """Sow one lap: ``hand`` seeds, one per hole along ``circuit`` from circuit
    place ``place`` on (passing the origin again when the lap is long).
    Returns the circuit place of the last seed."""
    length = len(circuit)
    rounds, rest = divmod(hand, length)
    if rounds:
        for hole in circuit:
            holes[hole] += rounds
    stop = place + rest
    for hole in circuit[place:stop]:
        holes[hole] += 1
    if stop > length:  # the rest of the lap, on from the circuit's start
        for hole in circuit[:stop - length]:
            holes[hole] += 1
    return (place + hand - 1) % length


class Move(NamedTuple):
    """A move as played: its origin, the hole where it ended and its outcome.

    ``captured`` is what the ``xN`` mark counts (seeds raided, stones captured,
    or seeds taken from the opposite hole); ``reserved`` is the ``^`` mark.
    """

    origin: int
    end: int
    captured: int = 0
    reserved: bool = False
    laps: int = 1


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: ``result`` is ``1-0``, ``0-1`` or ``1/2-1/2``;
    ``reason`` the rule id; ``score`` ``(south, north)`` where the rule scores."""

    result: str
    reason: str
    message: str
    score: tuple[int, int] | None = None


def win(side: Side) -> str:
    return "1-0" if side == SOUTH else "0-1"


DRAW = "1/2-1/2"


class MancalaError(Exception):
    """Base of the errors the engine raises."""


class IllegalMove(MancalaError):
    """A move the rules forbid. ``rule`` is the rule id (``KG-FIRSTLAP``,
    ``ENDLESS``, ``GAME-OVER`` …), ``position`` the position it was tried in."""

    def __init__(self, rule: str, message: str, position: Position | None = None,
                 origin: int | None = None) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
        self.position = position
        self.origin = origin


class InvalidPosition(MancalaError):
    """A position that cannot occur in the game (shape, counts, conservation)."""


def _game_over(over: Outcome, position: Position | None, origin: int) -> IllegalMove:
    """The error for a move tried after the game has ended."""
    return IllegalMove("GAME-OVER", f"the game has ended ({over.result}, {over.reason})",
                       position, origin)


class Game(ABC):
    """The rules of one game (chess programmers: this is not a board or a
    game record — the geometry is :attr:`board`, a position a
    :class:`Position`, a game in progress a :class:`GameInProgress`, a game record a
    :class:`notation.record.GameRecord`).

    Subclasses implement :meth:`_move`,
    :meth:`_no_moves`, and where the game needs them :meth:`_origins` and
    :meth:`_ended`; everything else is shared."""

    id: str
    name: str
    board: Board
    total: int
    source: str
    sowing: str
    bank_name: str
    #: Whether an end condition looks at earlier positions (KK-4b).
    uses_history: bool = False
    #: Whether holes can be reserved (Bao Kingulu's *kuweka mtoto*, KG-6).
    has_reserved_holes: bool = False
    #: Whether a game can end in a draw (the solver does not look for one where it cannot).
    can_draw: bool = True
    #: The most a hole may hold (Klamroth's single stones: 1), or ``None``.
    hole_capacity: int | None = None
    #: Whether a move may be written ``origin-destination`` (Klamroth's steps).
    long_form_moves: bool = False

    def __repr__(self) -> str:
        return f"<Game {self.id}: {self.name}, {self.board.ranks}x{self.board.files}>"

    @property
    def ranks(self) -> int:
        """Rows of holes (2 or 4): with :attr:`files`, :attr:`id` and the
        flags above, the plain facts the record layer needs of a game."""
        return self.board.ranks

    @property
    def files(self) -> int:
        """Holes per row."""
        return self.board.files

    def reserver(self, hole: int) -> Side:
        """The side a reserved ``hole`` belongs to: the opponent of its row's
        owner (KG-2; only a game with :attr:`has_reserved_holes` reserves holes)."""
        return other(self.board.owner(hole))

    @abstractmethod
    def start(self) -> Position:
        """The standard starting position."""

    @abstractmethod
    def _move(self, now: MutablePosition, origin: int, position: Position | None = None) -> Move:
        """Play ``origin`` in place: ``now`` becomes the position after the
        move. Raises :class:`IllegalMove` (never ``GAME-OVER``), naming
        ``position`` (``now`` as it was, when the caller has it); ``now`` is
        then spoilt."""

    def _apply(self, position: Position, origin: int) -> tuple[Move, Position]:
        """Play ``origin`` from ``position``: the move and the new position."""
        now = MutablePosition(position)
        return self._move(now, origin, position), now.frozen()

    def _origins(self, position: Position) -> Iterable[int]:
        """The holes worth trying as origins, in index order."""
        holes = position.holes
        return [h for h in self.board.holes_in_order(position.side) if holes[h]]

    def _ended(self, position: Position | MutablePosition, history: Collection[PositionKey]) -> Outcome | None:
        """An end condition that does not need the legal moves, if any."""
        return None

    @abstractmethod
    def _no_moves(self, position: Position) -> Outcome:
        """The outcome when the player to move has no legal move."""

    # -- the public API ----------------------------------------------------
    def validate(self, position: Position) -> None:
        """Raise :class:`InvalidPosition` if ``position`` breaks the game's invariants."""
        board = self.board
        if len(position.holes) != board.size:
            raise InvalidPosition(f"{len(position.holes)} holes, {self.id} has {board.size}")
        if any(n < 0 for n in position.holes) or min(position.banks) < 0:
            raise InvalidPosition("negative count")
        if position.side not in SIDES:
            raise InvalidPosition(f"side to move must be S or N, not {position.side!r}")
        if position.move_number < 1:
            raise InvalidPosition("move number must be 1 or more")
        if position.reserved and not self.has_reserved_holes:
            raise InvalidPosition(f"reserved holes ('*') exist only in kingulu, not in {self.id}")
        if position.seeds() != self.total:
            raise InvalidPosition(
                f"seeds do not add up: {sum(position.holes)} on the board + "
                f"{position.banks[0]}-{position.banks[1]} in the banks = {position.seeds()}, "
                f"{self.id} has {self.total}")

    def legal_moves(self, position: Position, *, history: Collection[PositionKey] = ()) -> list[Move]:
        """The legal moves, by origin in index order; empty when the game is over.

        A position alone does not tell whether it repeats an earlier one
        (KK-4b): a :class:`GameInProgress` owns its repetition history and passes it as
        ``history``, the :meth:`Position.key` of every earlier position.
        """
        if self._ended(position, history) is not None:
            return []
        return self._generate(position)

    def _generate(self, position: Position) -> list[Move]:
        moves = []
        for origin in self._origins(position):
            try:
                moves.append(self._apply(position, origin)[0])
            except IllegalMove:
                pass
        return moves

    def successors(self, position: Position, *,
                   history: Collection[PositionKey] = ()) -> Iterator[tuple[Move, Position]]:
        """Each legal move with the position it leads to."""
        if self._ended(position, history) is not None:
            return
        for origin in self._origins(position):
            try:
                yield self._apply(position, origin)
            except IllegalMove:
                pass

    def outcome(self, position: Position, *, history: Collection[PositionKey] = (),
                moves: list[Move] | None = None) -> Outcome | None:
        """The game's result if ``position`` ends it, else ``None``.

        ``moves`` may pass the legal moves when they are already known.
        """
        ended = self._ended(position, history)
        if ended is not None:
            return ended
        if moves is None:
            moves = self._generate(position)
        return None if moves else self._no_moves(position)

    def play(self, position: Position, origin: int, *, history: Collection[PositionKey] = ()) -> tuple[Move, Position]:
        """Play the move from hole ``origin``: the move and the new position.

        Raises :class:`IllegalMove` with the rule id; ``GAME-OVER`` when the
        position already ends the game.
        """
        over = self._ended(position, history)
        if over is None:
            try:
                return self._apply(position, origin)
            except IllegalMove:
                # A position with no legal move is over (KM-9, KK-4c, KG-7):
                # that verdict comes first (docs/rules.md, "Geometry shared by all three").
                if self._has_a_move(position):
                    raise
                over = self._no_moves(position)
        raise _game_over(over, position, origin)

    def _has_a_move(self, position: Position) -> bool:
        """Whether the player to move has a legal move (the first one found
        ends the look), end conditions that need no moves aside."""
        for origin in self._origins(position):
            try:
                self._apply(position, origin)
            except IllegalMove:
                continue
            return True
        return False

    def move(self, now: MutablePosition, origin: int, *, history: Collection[PositionKey] = ()) -> Move:
        """Play the move from hole ``origin`` in place: ``now`` becomes the
        position after it (the quick way to replay a whole game).

        Raises :class:`IllegalMove`, and ``now`` is then spoilt. One
        difference from :meth:`play`: when the player has no legal move at
        all, :meth:`play` names ``GAME-OVER`` (that verdict comes first)
        where this names the rule the move itself breaks; for the exact
        error, :meth:`play` the position from before the move.
        """
        over = self._ended(now, history)
        if over is not None:
            raise _game_over(over, None, origin)
        return self._move(now, origin)

    def check_origin(self, now: MutablePosition, origin: int, rule: str,
                     position: Position | None = None) -> None:
        """The ``*-ORIGIN`` and ``*-EMPTY`` checks shared by every game."""
        side = now.side
        if origin not in self.board.holes_of(side):
            raise IllegalMove(f"{rule}-ORIGIN",
                              f"{self.board.name(origin)} is not one of {side}'s holes",
                              position, origin)
        if now.holes[origin] == 0:
            raise IllegalMove(f"{rule}-EMPTY", f"origin {self.board.name(origin)} is empty",
                              position, origin)

    def going_on(self, position: Position | None, origin: int, laps: int, holes: list[int], hole: int,
                 seen: dict[tuple[tuple[int, ...], int], int], limit: int = LAP_LIMIT) -> None:
        """Called when lap ``laps`` ended in ``hole`` and the move goes on:
        ``ENDLESS`` when that was the last lap allowed, or when the state at
        the end of the lap (board and hole) repeats an earlier one (watched
        from lap :data:`WATCH_FROM` on; ``seen`` is the move's own record)."""
        if laps >= limit:
            why = f"lap {laps} ends in {self.board.name(hole)} and the move goes on (limit {limit} laps)"
            raise IllegalMove("ENDLESS", f"endless sowing: {why}", position, origin)
        if laps >= WATCH_FROM:
            state = (tuple(holes), hole)
            repeated = seen.get(state)
            if repeated is not None:
                why = (f"the state at the end of lap {laps} (last seed in {self.board.name(hole)}) "
                       f"repeats the end of lap {repeated}")
                raise IllegalMove("ENDLESS", f"endless sowing: {why}", position, origin)
            seen[state] = laps


class GameInProgress:
    """A game in progress: its position, its moves and its repetition history,
    as chess's ``Board`` owns its move stack. Play through a line and the
    history is kept for you; the :class:`Game` methods judge a position
    alone unless given ``history=``.

        >>> from mancala_cli.rules.registry import get_game
        >>> line = GameInProgress(get_game("kimasai-klamroth"))
        >>> [line.game.board.name(m.origin) for m in line.legal_moves()]
        ['b2']
    """

    def __init__(self, game: Game, start: Position | None = None) -> None:
        self.game = game
        self.position = game.start() if start is None else start
        self.moves: list[Move] = []
        self.history: set[PositionKey] = set()

    def copy(self) -> GameInProgress:
        """An independent copy: the same game, position, moves and history."""
        twin = type(self)(self.game, self.position)
        twin.moves = list(self.moves)
        twin.history = set(self.history)
        return twin

    def legal_moves(self) -> list[Move]:
        """The legal moves of the line's position, its history counted."""
        return self.game.legal_moves(self.position, history=self.history)

    def outcome(self) -> Outcome | None:
        """The game's result if the line has ended it, else ``None``."""
        return self.game.outcome(self.position, history=self.history)

    def play(self, origin: int) -> Move:
        """Play the move from hole ``origin`` on the line and return it (raises :class:`IllegalMove`)."""
        move, after = self.game.play(self.position, origin, history=self.history)
        self.push(move, after)
        return move

    def push(self, move: Move, after: Position) -> None:
        """Go on with ``move``, already played from the current position to
        ``after`` (by :meth:`Game.play`); :meth:`play` plays and pushes."""
        if self.game.uses_history:
            self.history.add(self.position.key())
        self.position = after
        self.moves.append(move)
