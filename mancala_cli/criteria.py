"""Criteria for picking games out of archives: what ``filter``, ``split``,
``stats`` and ``validate --where`` ask of a game, as one expression of the
``--where`` language (:mod:`notation.query`) compiled into closures
(:class:`Criteria`), and the flags' texts read into its terms
(:func:`parse_tag`, :func:`parse_reaches`, :func:`parse_opening`).

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
from typing import TYPE_CHECKING, Any, Callable, Literal, NoReturn, Sequence

from notation.coords import hole_table, parse_move_token
from notation.record import RESULTS, GameRecord

from .checking import Replay, replay
from .positions import format_position, parse_position
from .rules.core import Game, InvalidPosition, MutablePosition
from .rules.registry import GAME_IDS, UnknownGame, get_game

if TYPE_CHECKING:
    from notation.query import Node

__all__ = ["BadCriterion", "Criteria", "RegexTimeout", "parse_tag", "parse_reaches", "parse_opening",
           "recorded_result", "regex_test", "known_game", "REGEX_SECONDS"]


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


def _raise(message: str) -> NoReturn:
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


def known_game(game: str) -> str:
    """``game`` if it is a game id; raises :class:`BadCriterion`."""
    try:
        get_game(game)
    except UnknownGame as error:
        raise BadCriterion(str(error)) from None
    return game
