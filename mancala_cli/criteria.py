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
import importlib
import operator
import re
import warnings
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Literal, NoReturn, Sequence

from notation.coords import hole_table, parse_move_token
from notation.record import RESULTS, GameRecord

from .checking import Replay, replay
from .positions import format_position, parse_position
from .rules.core import Game, InvalidPosition, MancalaError, MutablePosition
from .rules.registry import GAME_IDS, UnknownGame, get_game

if TYPE_CHECKING:
    from notation.query import Node

__all__ = ["BadCriterion", "Criteria", "RegexTimeout", "parse_tag", "parse_reaches", "parse_opening",
           "recorded_result", "regex_test", "known_game", "REGEX_SECONDS"]


#: A position to reach: the game's id, then the holes, the reserved holes
#: (sorted), the side to move and the banks (the move number is left out).
Target = tuple[str, tuple[int, ...], tuple[int, ...], str, tuple[int, int]]


class BadCriterion(ValueError):
    """A criterion that cannot be used (a bad regular expression, position or move).
    ``offset`` (from 0), when known, is where in the criterion's text the
    mistake is, and ``reason`` the message without it (an expression of
    ``--where`` gives that place as its column)."""

    def __init__(self, message: str, offset: int | None = None, reason: str | None = None) -> None:
        super().__init__(message)
        self.offset = offset
        self.reason = message if reason is None else reason


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
    try:
        _checked_regex(pattern)
    except BadCriterion as error:
        raise BadCriterion(f"{_short(text)}: {error}") from None
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
            return _raise(f"bad position for {rule.id}: {message}", _bad_field(text))
    if len(errors) == 1:
        return _raise(f"bad position for {errors[0][0].id}: {errors[0][1]}", _bad_field(text))
    return _raise(f"{text!r} is a position of no game (its rows fit no board)", _bad_field(text))


def _raise(message: str, offset: int | None = None) -> NoReturn:
    raise BadCriterion(message, offset)


_FIELD = re.compile(r"[^ \t]+")
_FIELD_FORMS = (re.compile(r"[0-9*,/]+\Z"), re.compile(r"[SN]\Z"), re.compile(r"[0-9]+-[0-9]+\Z"),
                re.compile(r"[0-9]+\Z"))


def _bad_field(text: str) -> int:
    """Where in a position string that cannot be read the mistake is: the
    first field not of its form (rows, side, banks, move number), a fifth
    field, else the rows (their shape or their counts)."""
    fields = list(_FIELD.finditer(text))
    for field, form in zip(fields, _FIELD_FORMS):
        if not form.match(field[0]):
            return field.start()
    if len(fields) > len(_FIELD_FORMS):
        return fields[len(_FIELD_FORMS)].start()
    return fields[0].start() if fields else 0


_MOVE_NUMBER = re.compile(r"[0-9]+\.(?:\.\.)?\Z")
_HOLE_TOKEN = re.compile(r"[SN]?[0-9]+|[a-z][0-9]+")
_WORD = re.compile(r"\S+")


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
    for found in _WORD.finditer(text):
        word, at = found[0], found.start()
        if _MOVE_NUMBER.match(word):
            continue
        number, dot, rest = word.partition(".")
        if dot and number.isascii() and number.isdigit() and rest:  # "1.c1", "1...d2"
            at += len(word) - len(rest.lstrip("."))
            word = rest.lstrip(".")
        if parse_move_token(word) is None:
            raise BadCriterion(f"{word!r} is not a move token (a hole, then xN or ^ if any)", at)
        for hole in _HOLE_TOKEN.finditer(word.split("x")[0]):
            if not any(hole[0] in hole_table(board, style, side) for board in boards
                       for style, side in _HOLE_STYLES):
                where = f"of {game}'s {boards[0].ranks} × {boards[0].files} board" if game else "of any game's board"
                raise BadCriterion(f"{hole[0]!r} is not a hole {where}", at + hole.start())
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
    search = _checked_regex(pattern).search

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
        from notation.query import text_column

        from .errors import BadQuery

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


#: The largest repetition count a regular expression may write (``a{1000}``,
#: ``a{2,1000}``), as RE2 has it.
MAX_REPEAT = 1000

#: The most items a regular expression may have with each repetition written
#: out its least number of times: the ``regex`` package compiles ``a{1000}``
#: into a thousand copies of ``a``, about 270 bytes each, so that nested
#: counts (``(a{1000}){1000}``) multiply; 100,000 items are about 30 MB.
MAX_REGEX_ITEMS = 100_000


class RegexTimeout(BadCriterion, MancalaError):
    """A ``--tag`` expression that ran past :data:`REGEX_SECONDS` on a game."""


def _checked_regex(pattern: str) -> Any:
    """``pattern`` compiled by the ``regex`` package, once Python's ``re``
    has read it (its syntax and messages) and its size is known to be
    bounded (:data:`MAX_REPEAT`, :data:`MAX_REGEX_ITEMS`); raises
    :class:`BadCriterion` (``offset``: where in ``pattern``, when known).

        >>> _checked_regex("a{1001}")
        Traceback (most recent call last):
        ...
        mancala_cli.criteria.BadCriterion: bad regular expression: a repetition count is at most 1000, not 1001
    """
    import regex

    def bad(reason: str, offset: int | None = None) -> NoReturn:
        where = f" at position {offset}" if offset is not None else ""
        raise BadCriterion(f"bad regular expression: {reason}{where}", offset, f"bad regular expression: {reason}")

    try:
        with warnings.catch_warnings():
            # re warns of what a later Python will read otherwise ("[[:alpha:]]",
            # "[a--b]"), and the regex package reads them so already: refused.
            warnings.simplefilter("error")
            tree = _RE_PARSER.parse(pattern)
        items = _items(tree.data)
        if items > MAX_REGEX_ITEMS:
            bad(f"with its repetitions written out it has {items:,} items, more than {MAX_REGEX_ITEMS:,}")
        re.compile(pattern)  # (what only the compiler refuses: a look-behind of varying width)
        return _regex(pattern)
    except re.error as error:
        bad(error.msg, error.pos)
    except regex.error as error:
        bad(str(getattr(error, "msg", error)), getattr(error, "pos", None))
    except Warning as warning:
        text = str(warning)
        position = re.search(r" at position ([0-9]+)\Z", text)
        reason = text[:position.start()] if position else text
        bad(f"{reason[:1].lower()}{reason[1:]} (re and the regex package that matches it read it differently: "
            "write the character escaped, as \\[ or \\-)", int(position[1]) if position else None)
    except OverflowError:
        bad(f"a repetition count is at most {MAX_REPEAT}")
    except RecursionError:
        bad("nested too deeply")


#: Python's own reader of regular expressions (``re._parser``; its tree
#: gives the repetitions and their counts).
_RE_PARSER: Any = importlib.import_module("re._parser")
_REPEATS = ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")


def _items(data: Any) -> int:
    """The items of a parsed expression with each repetition written out its
    least number of times (at least once); raises :class:`BadCriterion` for a
    count past :data:`MAX_REPEAT`."""
    total = 0
    for op, argument in data:
        name = str(op)
        if name in _REPEATS:
            low, high, inner = argument
            for count in (low, high):
                if count != _RE_PARSER.MAXREPEAT and count > MAX_REPEAT:
                    raise BadCriterion(f"bad regular expression: a repetition count is at most {MAX_REPEAT}, "
                                       f"not {count}")
            total += max(low, 1) * _items(inner)
        elif name == "SUBPATTERN":
            total += _items(argument[-1])
        elif name == "BRANCH":
            total += sum(_items(branch) for branch in argument[1])
        elif name == "ATOMIC_GROUP":
            total += _items(argument)
        elif name in ("ASSERT", "ASSERT_NOT"):
            total += _items(argument[1])
        elif name == "GROUPREF_EXISTS":
            total += sum(_items(branch) for branch in argument[1:] if branch is not None)
        else:
            total += 1
        if total > MAX_REGEX_ITEMS:
            return total
    return total


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
    from .rules.core import GameInProgress, IllegalMove
    from .tokens import play_token

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


def known_game(game: str) -> str:
    """``game`` if it is a game id; raises :class:`BadCriterion`."""
    try:
        get_game(game)
    except UnknownGame as error:
        raise BadCriterion(str(error)) from None
    return game
