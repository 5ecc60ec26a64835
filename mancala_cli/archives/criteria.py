"""Criteria for picking games out of archives: what ``filter``, ``split``,
``stats`` and ``validate --where`` ask of a game, as one expression of the
``--where`` language (:mod:`notation.query`) compiled into closures
(:class:`Criteria`), and the flags' texts read into its terms
(:func:`parse_tag`, :func:`parse_reaches`, :func:`parse_opening`, which
:mod:`.patterns` and :mod:`.texts` hold and this module
names too). This module holds the compiling, the fields of a game and the
tests of its replay that a criterion asks for, and the matching of regular
expressions within :data:`REGEX_SECONDS`.

    >>> from mancala_cli import read
    >>> record = next(read('[Game "kingulu"]\\n[Result "*"]\\n\\n1. c1 d2 *\\n'))
    >>> Criteria.from_options(opening="c1", result="*").matches(record)
    True
    >>> Criteria.where('reaches "4,4,4,4,4,4/4,4,4,4,4,4 N 0-0 1"').matches(record)
    False
"""
from __future__ import annotations

import functools
import operator
import re
from functools import lru_cache
from typing import Any, Callable, Sequence

from notation.notation_errors import QueryError
from notation.position_strings import format_position
from notation.query import MAX_NUMBER_DIGITS, And, Comparison, Node, Not, Or, Test, parse, text_column
from notation.record import RESULTS, GameRecord

from ..checking import Replay, replay
from ..errors import BadCoordinate, BadMove, BadQuery
from ..positions import parse_position
from ..rules.game import GameInProgress, IllegalMove, MancalaError
from ..rules.position import MutablePosition
from ..rules.registry import GAME_IDS, get_game
from ..tokens import play_token
from .patterns import (
    MAX_REGEX_ITEMS as MAX_REGEX_ITEMS,
    MAX_REPEAT as MAX_REPEAT,
    checked_regex,
    compiled_regex,
    parse_tag,
    shortened,
)
from .texts import BadCriterion, Target as Target, known_game, parse_opening, parse_reaches

__all__ = ["Criteria", "RegexTimeout", "recorded_result", "regex_test", "REGEX_SECONDS"]


# -- the criteria --------------------------------------------------------------

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

    __slots__ = ("query", "_check", "replays", "warnings")

    def __init__(self, query: Node | None = None) -> None:
        self.query = query
        self._check: Check | None
        notes: list[str] = []
        self._check, cost = (None, 0) if query is None else _compile(query, notes)
        #: Whether some criterion needs the replay.
        self.replays = cost > 0
        #: What a criterion that can be used, but hardly as meant, says: an
        #: ``opening`` whose moves no game can open with from its usual start
        #: (a wrong capture mark: ``opening "c1x5"``), which only a game set
        #: up otherwise can match. One line each, for the command to print
        #: (``--opening "c1x5" …`` for the flag of :meth:`from_options`).
        self.warnings = tuple(notes)

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
        try:
            return cls(parse(text))
        except QueryError as error:
            raise BadQuery(str(error), error.column) from None

    @classmethod
    def given(cls, where: str | Criteria | None) -> Criteria:
        """The criteria a library function is given: a ``--where`` expression
        (:meth:`where`), criteria as they are, or none: every game."""
        if isinstance(where, str):
            return cls.where(where)
        return where if where is not None else cls()

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


# -- the fields of a game ------------------------------------------------------

def recorded_result(record: GameRecord) -> str:
    """The ``Result`` tag, else the result token, else ``*``."""
    return record.tag("Result") or record.result or "*"


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


# -- compiled ------------------------------------------------------------------

_OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "=": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}

_INTEGER = re.compile(r"[+-]?[0-9]+\Z")
#: A tag's whole number of more digits (leading zeros aside) than an
#: expression's number may have stands as this, with its sign: beyond every
#: number compared with, it compares as the value does, without reading
#: thousands of digits (``int()`` refuses more than 4,300).
_BEYOND = 10 ** MAX_NUMBER_DIGITS


def tag_number(text: str) -> int | None:
    """A tag's value as a whole number (an optional sign, ASCII digits), or
    ``None``; a value of more than :data:`~notation.query.MAX_NUMBER_DIGITS`
    digits (leading zeros aside) is read as ±10^40, beyond every number
    an expression compares it with.

        >>> tag_number("007"), tag_number("-3"), tag_number("3a"), tag_number("9" * 5000) == 10**40
        (7, -3, None, True)
    """
    if _INTEGER.match(text) is None:
        return None
    digits = text.lstrip("+-").lstrip("0")
    number = _BEYOND if len(digits) > MAX_NUMBER_DIGITS else int(digits or "0")
    return -number if text.startswith("-") else number


def _compile(node: Node, notes: list[str] | None = None) -> tuple[Check, int]:
    """``node`` as one test, with its cost (0: no replay, 1: the replay, 2:
    the replay and its positions); its warnings are added to ``notes``.
    Raises :class:`BadCriterion` (from a flag) or
    :class:`~mancala_cli.errors.BadQuery` (from the expression: ``node``
    has a column)."""
    if isinstance(node, (And, Or)):
        parts = sorted((_compile(term, notes) for term in node.terms), key=lambda part: part[1])  # (stable)
        checks = tuple(check for check, _ in parts)
        cost = max(cost for _, cost in parts)
        return functools.reduce(_both if isinstance(node, And) else _either, reversed(checks)), cost
    if isinstance(node, Not):
        check, cost = _compile(node.term, notes)
        return (lambda g: not check(g)), cost
    try:
        if isinstance(node, Test):
            return _compile_test(node, notes)
        if isinstance(node, Comparison):
            return _compile_comparison(node)
    except BadCriterion as error:
        if not getattr(node, "column", 0):
            raise
        column = text_column(node, error.offset) if error.offset is not None else 0
        if column:  # (where in the value or argument)
            raise BadQuery(f"{error.reason} at column {column}", column) from None
        column = getattr(node, "value_column", 0) or node.column
        raise BadQuery(f"{error} at column {column}", column) from None
    raise TypeError(f"not a criterion: {node!r}")


def _both(second: Check, first: Check) -> Check:
    return lambda g: first(g) and second(g)


def _either(second: Check, first: Check) -> Check:
    return lambda g: first(g) or second(g)


def _compile_test(node: Any, notes: list[str] | None = None) -> tuple[Check, int]:
    if node.name == "reaches":
        targets = parse_reaches(node.argument, node.game)
        return (lambda g: _reaches(g.report(), targets)), 2
    tokens = parse_opening(node.argument, node.game)
    if notes is not None:
        why = _no_opening(tokens, node.game)
        if why is not None:
            # (an expression's test has its column; the test of --opening has none)
            named = f"opening {_quoted_text(node.argument)} at column {node.column}" if node.column else \
                f"--opening {_quoted_text(node.argument)}"
            notes.append(f"{named} opens no game from its usual start ({why}): "
                         "only a game with another start (Setup) can match it")
    return (lambda g: _opens_with(g.report(), tokens)), 1


def _quoted_text(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _no_opening(tokens: tuple[str, ...], game: str | None) -> str | None:
    """Why the moves ``tokens`` cannot be played, as written, from the usual
    start of ``game`` (else of any game whose board holds them): the reason
    of each game, or ``None`` when one of them can play them."""
    reasons = []
    for game_id in (game,) if game is not None else GAME_IDS:
        rules = get_game(game_id)
        line = GameInProgress(rules, rules.start())
        try:
            for token in tokens:
                play_token(line, token)
        except BadCoordinate:
            continue  # (not a hole of this game's board)
        except (BadMove, IllegalMove) as error:
            reasons.append(f"{rules.id}: {error}")
            continue
        return None
    return "; ".join(reasons) if reasons else None


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
            found = None if text is None else tag_number(text)
            return found is not None and compare(found, value)
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


# -- regular expressions, matched within a time limit --------------------------

#: The longest a ``--tag`` expression may search one tag value, in seconds.
#: Python's ``re`` cannot be stopped (a pattern such as ``^(a+)+$`` takes
#: exponential time on a long value), so expressions are matched by the
#: ``regex`` package, whose matching takes a time limit.
REGEX_SECONDS = 1.0


class RegexTimeout(BadCriterion, MancalaError):
    """A ``--tag`` expression that ran past :data:`REGEX_SECONDS` on a game."""


def regex_test(pattern: str) -> Callable[[str], bool]:
    """Whether a text matches the regular expression ``pattern`` (``re.search``):
    the one matcher of ``--tag`` and of ``~``. Raises :class:`BadCriterion`
    for an expression that does not compile.

        >>> regex_test("^Vil")("Village"), regex_test("^Vil")("A village")
        (True, False)
    """
    search = checked_regex(pattern).search

    def test(text: str) -> bool:
        try:
            return search(text, timeout=REGEX_SECONDS) is not None
        except TimeoutError:
            raise RegexTimeout(f"{shortened(pattern)}: the regular expression ran longer than {REGEX_SECONDS:g} s; "
                               "stopped (it backtracks without bound: write it without nested repetition or "
                               "back-references)") from None
    return test


def _search(pattern: str, name: str, value: str, record: GameRecord) -> Any:
    try:
        return compiled_regex(pattern).search(value, timeout=REGEX_SECONDS)
    except TimeoutError:
        where = f"{record.file or '-'}:{record.line or 0}"
        raise RegexTimeout(f"{shortened(name + '=' + pattern)}: the regular expression ran longer than "
                           f"{REGEX_SECONDS:g} s on the {name} tag of the game at {where}; stopped (it backtracks "
                           "without bound: write it without nested repetition or back-references)") from None


# -- the tests of the replay ---------------------------------------------------

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
    game = get_game(game_id)
    line = GameInProgress(game, parse_position(game, start))
    try:
        return tuple(play_token(line, token).origin for token in tokens)
    except (BadMove, BadCoordinate, IllegalMove):
        return None


def _opens_with(report: Replay, tokens: tuple[str, ...]) -> bool:
    game, start = report.game, report.start
    if game is None or start is None or len(report.moves) < len(tokens):
        return False
    origins = _opening_origins(game.id, format_position(game, start), tokens)
    return origins is not None and all(move.origin == hole for move, hole in zip(report.moves, origins))
