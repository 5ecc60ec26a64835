"""Archives: picking games out of them, dropping duplicates, and summing
them up (``mancala filter``, ``split`` and ``stats``).

Everything here works on one record at a time, so that the command line can
stream an archive of any size through worker processes: a
:class:`FilterTask` or :class:`StatsTask` is plain data (it is sent to the
workers), its ``process`` turns a record into a small picklable answer, and
the answers are put together in input order (:class:`Summary` for the
figures; the command line keeps the set of digests for ``--dedupe``).

    >>> from mancala_cli import read
    >>> record = next(read('[Game "kingulu"]\\n[Result "*"]\\n\\n1. c1 d2 *\\n'))
    >>> FilterTask(Criteria.from_options(opening="c1", result="*")).process(record).selected
    True
    >>> FilterTask(Criteria.where('reaches "4,4,4,4,4,4/4,4,4,4,4,4 N 0-0 1"')).process(record).selected
    False
"""
from __future__ import annotations

import functools
import hashlib
import operator
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Literal, Sequence

from notation.coords import hole_names, hole_table, parse_move_token
from notation.record import RESULTS, GameRecord, Problem

from .checking import Replay, replay
from .positions import format_position, parse_position
from .rules.core import Game, InvalidPosition, MutablePosition
from .rules.registry import GAME_IDS, UnknownGame, get_game

if TYPE_CHECKING:
    from notation.query import Node

__all__ = ["BadCriterion", "Criteria", "FilterTask", "Picked", "DigestSet", "StatsTask", "Figures", "Summary",
           "parse_tag", "parse_reaches", "parse_opening", "recorded_result", "regex_test", "TARGETS"]

#: The formats games are written in.
TARGETS = ("pmn", "json", "xml")
#: The bytes of a game's digest (``--dedupe`` keeps one per distinct game).
DIGEST_SIZE = 20

#: A position to reach: the game's id, then the holes, the reserved holes
#: (sorted), the side to move and the banks (the move number is left out).
Target = tuple[str, tuple[int, ...], tuple[int, ...], str, tuple[int, int]]


class BadCriterion(ValueError):
    """A criterion that cannot be used (a bad regular expression, position or move)."""


# -- criteria from text -------------------------------------------------------------

def parse_tag(text: str) -> tuple[str, str]:
    """``NAME=REGEX`` as ``(NAME, REGEX)``; the expression must compile
    (Python's ``re`` syntax, matched by the ``regex`` package with a time
    limit: :data:`REGEX_SECONDS`).

        >>> parse_tag("Event=^Village")
        ('Event', '^Village')
    """
    name, equals, pattern = text.partition("=")
    if not equals or not name:
        raise BadCriterion(f"{text!r} is not NAME=REGEX")
    import regex

    try:
        re.compile(pattern)
        _regex(pattern)
    except (re.error, regex.error) as error:
        raise BadCriterion(f"{_short(text)}: bad regular expression: {error}") from None
    except RecursionError:
        raise BadCriterion(f"{_short(text)}: bad regular expression: nested too deeply") from None
    return name, pattern


def _short(text: str) -> str:
    """``repr(text)``, cut to about 60 characters (a pattern can be long)."""
    return repr(text) if len(text) <= 60 else repr(text[:57]) + "..."


def _target(game: Game, text: str) -> Target:
    position = parse_position(game, text)
    return (game.id, position.holes, tuple(sorted(position.reserved)), position.side, position.banks)


def parse_reaches(text: str, game: str | None = None) -> tuple[Target, ...]:
    """The positions a position string names: in ``game``, or in every game
    whose board it fits (the games' boards differ, so that is at most one).

        >>> parse_reaches("4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 9")[0][0]
        'kingulu'
    """
    rules = [get_game(game)] if game is not None else [get_game(g) for g in GAME_IDS]
    found: list[Target] = []
    errors: list[tuple[Game, str]] = []
    for rule in rules:
        try:
            found.append(_target(rule, text))
        except InvalidPosition as error:
            errors.append((rule, str(error)))
    if found:
        return tuple(found)
    rows = text.strip().split(" ")[0].split("/")
    for rule, message in errors:  # the game whose board has the string's shape says what is wrong
        if len(rows) == rule.board.ranks and all(len(row.split(",")) == rule.board.files for row in rows):
            return _raise(f"bad position for {rule.id}: {message}")
    if len(errors) == 1:
        return _raise(f"bad position for {errors[0][0].id}: {errors[0][1]}")
    return _raise(f"{text!r} is a position of no game (its rows fit no board)")


def _raise(message: str) -> Any:
    raise BadCriterion(message)


_MOVE_NUMBER = re.compile(r"[0-9]+\.(?:\.\.)?\Z")
_HOLE_TOKEN = re.compile(r"[SN]?[0-9]+|[a-z][0-9]+")


#: The coordinate styles and sides an opening's hole may be written in.
_HOLE_STYLES: tuple[tuple[str, Literal["S", "N"]], ...] = (
    ("algebraic", "S"), ("numeric", "S"), ("relative", "S"), ("relative", "N"))


def parse_opening(text: str, game: str | None = None) -> tuple[str, ...]:
    """The move tokens of ``"1. c1 d2 2. e1"`` (move numbers dropped); each
    hole must be one of the board of ``game``, or of some game's board.

        >>> parse_opening("1. c1x6 1... N3 e1^")
        ('c1x6', 'N3', 'e1^')
    """
    tokens = []
    boards = [get_game(game).board] if game is not None else [get_game(g).board for g in GAME_IDS]
    for word in text.split():
        if _MOVE_NUMBER.match(word):
            continue
        number, dot, rest = word.partition(".")
        if dot and number.isascii() and number.isdigit() and rest:  # "1.c1", "1...d2"
            word = rest.lstrip(".")
        if parse_move_token(word) is None:
            raise BadCriterion(f"{word!r} is not a move token (a hole, then xN or ^ if any)")
        for hole in _HOLE_TOKEN.findall(word.split("x")[0]):
            if not any(hole in hole_table(board, style, side) for board in boards
                       for style, side in _HOLE_STYLES):
                where = f"of {game}'s {boards[0].ranks} × {boards[0].files} board" if game else "of any game's board"
                raise BadCriterion(f"{hole!r} is not a hole {where}")
        tokens.append(word)
    if not tokens:
        raise BadCriterion("no moves")
    return tuple(tokens)


def recorded_result(record: GameRecord) -> str:
    """The ``Result`` tag, else the result token, else ``*``."""
    return record.tag("Result") or record.result or "*"


# -- filter ------------------------------------------------------------------------

class _Judged:
    """A record as the criteria see it: its replay is made when a criterion
    first asks for it (``make``), and kept."""

    __slots__ = ("record", "make", "replayed")

    def __init__(self, record: GameRecord, make: Callable[[GameRecord], Replay]) -> None:
        self.record = record
        self.make = make
        self.replayed: Replay | None = None

    def report(self) -> Replay:
        if self.replayed is None:
            self.replayed = self.make(self.record)
        return self.replayed


#: A compiled criterion: whether the game matches.
Check = Callable[[_Judged], bool]


class Criteria:
    """What a game must be to be picked: one expression of the ``--where``
    language (:mod:`notation.query`), compiled once into a tree of closures
    in which ``and`` and ``or`` try the criteria that need no replay first.
    The command line's flags are shorthands for comparisons of the same
    language (:meth:`from_options`), so each test has one implementation.
    A :class:`Criteria` is sent to worker processes as its expression tree.

        >>> from mancala_cli import read
        >>> record = next(read('[Game "kingulu"]\\n[Event "Cup final"]\\n\\n1. c1 d2 *\\n'))
        >>> Criteria.where('game = kingulu and tag.Event ~ "[Cc]up" and plies < 3').matches(record)
        True
        >>> Criteria.from_options(min_plies=3).matches(record)
        False
        >>> Criteria.where("plies > three")
        Traceback (most recent call last):
        ...
        mancala_cli.errors.BadQuery: plies is a number, not three at column 9
    """

    __slots__ = ("query", "_check", "replays")

    def __init__(self, query: Node | None = None) -> None:
        self.query = query
        self._check: Check | None
        self._check, cost = (None, 0) if query is None else _compile(query)
        #: Whether some criterion needs the replay.
        self.replays = cost > 0

    def __reduce__(self) -> tuple[Any, ...]:
        return (Criteria, (self.query,))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Criteria) and other.query == self.query

    def __hash__(self) -> int:
        return hash(self.query)

    def __repr__(self) -> str:
        return f"Criteria({self.query!r})"

    @classmethod
    def where(cls, text: str) -> Criteria:
        """The criteria of a ``--where`` expression; raises
        :class:`~mancala_cli.errors.BadQuery` (with its ``column``)."""
        from notation.errors import QueryError
        from notation.query import parse

        try:
            return cls(parse(text))
        except QueryError as error:
            from .errors import BadQuery

            raise BadQuery(str(error), error.column) from None

    @classmethod
    def from_options(cls, *, game: str | None = None, tags: Sequence[str] = (), result: str | None = None,
                     min_plies: int | None = None, max_plies: int | None = None, reaches: Sequence[str] = (),
                     opening: str | None = None, valid: bool | None = None, where: str | None = None) -> Criteria:
        """The criteria of ``filter``'s flags (as they are written:
        ``tags`` ``NAME=REGEX``, ``reaches`` position strings, ``opening``
        moves), all of which must hold, and of ``where``. A bad flag raises
        :class:`BadCriterion` whose message starts with the option
        (``--tag: 'x' is not NAME=REGEX``); a bad ``where``,
        :class:`~mancala_cli.errors.BadQuery`.

            >>> Criteria.from_options(game="kingulu", tags=["Event=^Cup"], min_plies=20).query
            And(terms=(Comparison(field='game', op='=', value='kingulu'), \
Comparison(field='tag.Event', op='~', value='^Cup'), Comparison(field='plies', op='>=', value=20)))
        """
        from notation.query import And, Comparison, Not, Or, Test

        terms: list[Node] = []
        if game is not None:
            terms.append(Comparison("game", "=", _flag("--game", known_game, game)))
        for text in tags:
            name, pattern = _flag("--tag", parse_tag, text)
            terms.append(Comparison(f"tag.{name}", "~", pattern))
        if result is not None:
            terms.append(Comparison("result", "=", result))
        if min_plies is not None:
            terms.append(Comparison("plies", ">=", min_plies))
        if max_plies is not None:
            terms.append(Comparison("plies", "<=", max_plies))
        if reaches:
            tests = [Test("reaches", text, game=game) for text in reaches]
            for test in tests:
                _flag("--reaches", _compile, test)
            terms.append(tests[0] if len(tests) == 1 else Or(tuple(tests)))
        if opening is not None:
            test = Test("opening", opening, game=game)
            _flag("--opening", _compile, test)
            terms.append(test)
        if valid is not None:
            terms.append(Comparison("valid", "=", True) if valid else Not(Comparison("valid", "=", True)))
        if where is not None:
            terms.append(cls.where(where).query)  # type: ignore[arg-type]
        if not terms:
            return cls()
        return cls(terms[0] if len(terms) == 1 else And(tuple(terms)))

    def judge(self, record: GameRecord, make: Callable[[GameRecord], Replay] = replay) -> tuple[bool, Replay | None]:
        """Whether ``record`` matches, and its replay if a criterion made
        one (with ``make``: the caller's replay, so that it is made once)."""
        if self._check is None:
            return True, None
        judged = _Judged(record, make)
        return self._check(judged), judged.replayed

    def matches(self, record: GameRecord) -> bool:
        """Whether ``record`` matches."""
        return self.judge(record)[0]


def _flag(option: str, parse: Callable[..., Any], *args: Any) -> Any:
    """``parse(*args)``, with a bad criterion's message naming ``option``."""
    try:
        return parse(*args)
    except BadCriterion as error:
        raise BadCriterion(f"{option}: {error}") from None


def regex_test(pattern: str) -> Callable[[str], bool]:
    """Whether a text matches the regular expression ``pattern`` (``re.search``):
    the one matcher of ``--tag`` and of ``~``. Raises :class:`BadCriterion`
    for an expression that does not compile.

        >>> regex_test("^Vil")("Village"), regex_test("^Vil")("A village")
        (True, False)
    """
    import regex

    try:
        re.compile(pattern)  # (its messages; the regex package matches)
        search = _regex(pattern).search
    except (re.error, regex.error) as error:
        raise BadCriterion(f"bad regular expression: {error}") from None
    except RecursionError:
        raise BadCriterion("bad regular expression: nested too deeply") from None

    def test(text: str) -> bool:
        try:
            return search(text, timeout=REGEX_SECONDS) is not None
        except TimeoutError:
            raise RegexTimeout(f"{_short(pattern)}: the regular expression ran longer than {REGEX_SECONDS:g} s; "
                               "stopped (it backtracks without bound: write it without nested repetition or "
                               "back-references)") from None
    return test


#: What a field of a game is: how it is found, and whether it needs the replay.
def _field(name: str) -> tuple[Callable[[_Judged], Any], int]:
    if name.startswith("tag."):
        tag = name[4:]
        return (lambda g: g.record.tag(tag)), 0
    return _FIELDS[name]


def _start(g: _Judged) -> str | None:
    report = g.report()
    return format_position(report.game, report.start) if report.game and report.start else None


def _ending(g: _Judged) -> str | None:
    outcome = g.report().outcome
    return outcome.reason if outcome is not None else None


def _score(g: _Judged) -> str | None:
    outcome = g.report().outcome
    return f"{outcome.score[0]}-{outcome.score[1]}" if outcome is not None and outcome.score is not None else None


_FIELDS: dict[str, tuple[Callable[[_Judged], Any], int]] = {
    "game": (lambda g: g.record.tag("Game") or g.record.default_game, 0),
    "plies": (lambda g: len(g.record.moves), 0),
    "moves": (lambda g: " ".join(node.text for node in g.record.moves), 0),
    "result": (lambda g: recorded_result(g.record), 0),
    "ending": (_ending, 1),
    "score": (_score, 1),
    "valid": (lambda g: g.report().valid, 1),
    "start": (_start, 1),
}

_OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "=": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}

_INTEGER = re.compile(r"[+-]?[0-9]+\Z")


def _compile(node: Node) -> tuple[Check, int]:
    """``node`` as one test, with its cost (0: no replay, 1: the replay, 2:
    the replay and its positions). Raises :class:`BadCriterion` (from a
    flag) or :class:`~mancala_cli.errors.BadQuery` (from the expression:
    ``node`` has a column)."""
    from notation.query import And, Comparison, Not, Or, Test

    if isinstance(node, (And, Or)):
        parts = sorted((_compile(term) for term in node.terms), key=lambda part: part[1])  # (stable)
        checks = tuple(check for check, _ in parts)
        cost = max(cost for _, cost in parts)
        return functools.reduce(_both if isinstance(node, And) else _either, reversed(checks)), cost
    if isinstance(node, Not):
        check, cost = _compile(node.term)
        return (lambda g: not check(g)), cost
    try:
        if isinstance(node, Test):
            return _compile_test(node)
        if isinstance(node, Comparison):
            return _compile_comparison(node)
    except BadCriterion as error:
        if not getattr(node, "column", 0):
            raise
        from .errors import BadQuery

        column = getattr(node, "value_column", 0) or node.column
        raise BadQuery(f"{error} at column {column}", column) from None
    raise TypeError(f"not a criterion: {node!r}")


def _both(second: Check, first: Check) -> Check:
    return lambda g: first(g) and second(g)


def _either(second: Check, first: Check) -> Check:
    return lambda g: first(g) or second(g)


def _compile_test(node: Any) -> tuple[Check, int]:
    if node.name == "reaches":
        targets = parse_reaches(node.argument, node.game)
        return (lambda g: _reaches(g.report(), targets)), 2
    tokens = parse_opening(node.argument, node.game)
    return (lambda g: _opens_with(g.report(), tokens)), 1


def _compile_comparison(node: Any) -> tuple[Check, int]:
    get, cost = _field(node.field)
    value, op = node.value, node.op
    if node.field == "game" and op in ("=", "!="):
        known_game(value)
    elif node.field == "result" and op in ("=", "!=") and value not in RESULTS:
        raise BadCriterion(f"a result is one of {', '.join(RESULTS)} (got {value!r})")
    elif node.field == "start" and op in ("=", "!="):
        value = _position_text(value)
    if op == "~":
        test = regex_test(value)
        if node.field.startswith("tag."):
            tag = node.field[4:]

            def tag_matches(g: _Judged) -> bool:
                text = g.record.tag(tag)
                return text is not None and _search(value, tag, text, g.record) is not None
            return tag_matches, cost

        def matches(g: _Judged) -> bool:
            text = get(g)
            return text is not None and test(text)
        return matches, cost
    compare = _OPERATORS[op]
    if isinstance(value, int) and not isinstance(value, bool) and node.field.startswith("tag."):
        def number(g: _Judged) -> bool:  # a tag compared with a number: its value, if it is a whole number
            text = get(g)
            return text is not None and _INTEGER.match(text) is not None and compare(int(text), value)
        return number, cost

    if node.field == "plies":
        return (lambda g: compare(len(g.record.moves), value)), cost

    def check(g: _Judged) -> bool:
        found = get(g)
        return found is not None and compare(found, value)
    return check, cost


def _position_text(text: str) -> str:
    """The canonical form of a position string, read for the game whose board it fits."""
    target = parse_reaches(text)[0]
    game = get_game(target[0])
    return format_position(game, parse_position(game, text))


#: The longest a ``--tag`` expression may search one tag value, in seconds.
#: Python's ``re`` cannot be stopped (a pattern such as ``^(a+)+$`` takes
#: exponential time on a long value), so expressions are matched by the
#: ``regex`` package, whose matching takes a time limit.
REGEX_SECONDS = 1.0


class RegexTimeout(BadCriterion):
    """A ``--tag`` expression that ran past :data:`REGEX_SECONDS` on a game."""


@lru_cache(maxsize=256)
def _regex(pattern: str) -> Any:
    import regex

    return regex.compile(pattern, regex.V0)


def _search(pattern: str, name: str, value: str, record: GameRecord) -> Any:
    try:
        return _regex(pattern).search(value, timeout=REGEX_SECONDS)
    except TimeoutError:
        where = f"{record.file or '-'}:{record.line or 0}"
        raise RegexTimeout(f"{_short(name + '=' + pattern)}: the regular expression ran longer than "
                           f"{REGEX_SECONDS:g} s on the {name} tag of the game at {where}; stopped (it backtracks "
                           "without bound: write it without nested repetition or back-references)") from None


def _reaches(report: Replay, targets: tuple[Target, ...]) -> bool:
    """Whether the start or a main-line position is one of ``targets``
    (played in place, up to the first one found)."""
    game, start = report.game, report.start
    if game is None or start is None:
        return False
    wanted = _wanted(game.id, targets)
    if not wanted:
        return False
    now = MutablePosition(start)

    def found() -> bool:
        return any(now.holes == holes and now.banks == banks and now.side == side and now.reserved == reserved
                   for holes, reserved, side, banks in wanted)

    if found():
        return True
    play = game.move
    for move in report.moves:
        play(now, move.origin)
        if found():
            return True
    return False


@lru_cache(maxsize=64)
def _wanted(game_id: str, targets: tuple[Target, ...]) -> list[tuple[list[int], frozenset[int], str, list[int]]]:
    """The targets of ``game_id`` in the shape of a :class:`MutablePosition`'s fields."""
    return [(list(holes), frozenset(reserved), side, list(banks))
            for game, holes, reserved, side, banks in targets if game == game_id]


@lru_cache(maxsize=1024)
def _opening_origins(game_id: str, start: str, tokens: tuple[str, ...]) -> tuple[int, ...] | None:
    """The holes the opening's moves are played from, in ``game_id`` from
    ``start``; ``None`` when they cannot be played there as written."""
    from .errors import BadCoordinate, BadMove
    from .rules.core import IllegalMove
    from .tokens import TokenLine

    game = get_game(game_id)
    line = TokenLine(game, parse_position(game, start))
    try:
        return tuple(line.play(token).origin for token in tokens)
    except (BadMove, BadCoordinate, IllegalMove):
        return None


def _opens_with(report: Replay, tokens: tuple[str, ...]) -> bool:
    game, start = report.game, report.start
    if game is None or start is None or len(report.moves) < len(tokens):
        return False
    origins = _opening_origins(game.id, format_position(game, start), tokens)
    return origins is not None and all(move.origin == hole for move, hole in zip(report.moves, origins))


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


@dataclass
class Picked:
    """One game as :meth:`FilterTask.process` judged it: whether it is
    picked, its digest (with ``dedupe``), its canonical text (``out``) when
    picked, and the problems
    found while reading it (its errors are the input's). ``xml`` holds
    the game's XML (:func:`xml_game`), ``unwritable`` why there is none."""

    selected: bool
    digest: bytes | None = None
    out: str = ""
    xml: bytes = b""
    #: Why XML cannot hold the game, if so: the line it starts on and the reason.
    unwritable: tuple[int, str] | None = None
    problems: list[Problem] = field(default_factory=list)
    plies: int = 0


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
                report = replay(record, fill_marks=self.write)
            picked.digest = digest(record, report) if self.dedupe else None
            if self.write:
                write_picked(picked, record, report, self.target)
        return picked

    def _replay(self, record: GameRecord) -> Replay:
        return replay(record, fill_marks=self.write)


def write_picked(picked: Picked, record: GameRecord, report: Replay, target: str) -> None:
    """``record`` in ``target`` as ``convert`` writes it."""
    if target == "pmn":
        from notation.pmn import unheld, write_game

        picked.out = write_game(record)
        picked.problems.extend(unheld(record))  # (warnings that make the exit status 1)
        return
    start = format_position(report.game, report.start) if report.game and report.start else None
    if target == "json":
        from notation.jsonl import record_to_json

        picked.out = record_to_json(record, report.game.id if report.game else None, start) + "\n"
    else:
        from notation.errors import XMLArchiveError

        try:
            picked.xml = xml_game(record, start)
        except XMLArchiveError as error:
            picked.unwritable = (error.line or 0, error.reason.removeprefix(f"game {record.index}: "))


#: How an XML archive ends.
XML_TAIL = b"\n</mancala>\n"


def _xml_archive(records: list[GameRecord], start: str | None = None) -> bytes:
    import io

    from notation.xml import write_archive

    out = io.BytesIO()
    write_archive(records, out, start=lambda record: start)
    return out.getvalue()


@lru_cache(maxsize=1)
def xml_head() -> bytes:
    """What every XML archive starts with (the declaration and the opening tag)."""
    return _xml_archive([])[:-len(XML_TAIL)]


def xml_game(record: GameRecord, start: str | None) -> bytes:
    """The bytes one game adds to an XML archive: :func:`xml_head`, the
    games' bytes in order and :data:`XML_TAIL` are the archive
    :func:`notation.xml.write_archive` writes. Raises XMLArchiveError for a
    game an archive cannot hold."""
    return _xml_archive([record], start)[len(xml_head()):-len(XML_TAIL)]


# -- stats -------------------------------------------------------------------------------

@dataclass
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
                       report.outcome.reason if report.outcome else None, opening)


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


def known_game(game: str) -> str:
    """``game`` if it is a game id; raises :class:`BadCriterion`."""
    try:
        get_game(game)
    except UnknownGame as error:
        raise BadCriterion(str(error)) from None
    return game
