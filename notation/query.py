"""The query language of ``--where`` (docs/commands/filter.md, "Choosing games:
--where"): its grammar, written with pyparsing, and the expression tree it
reads. What a field of a game *is* (its plies, its result, whether it is
valid) is the library's business (:mod:`mancala_cli.archives` compiles a
tree into one test); here an expression is only read, and checked against
the fields' types, so that every mistake is found before a record is read.

    >>> parse('game = kingulu and plies >= 30 and (result = "1-0" or tag.Event ~ "cup")')
    And(terms=(Comparison(field='game', op='=', value='kingulu'), Comparison(field='plies', op='>=', value=30), \
Or(terms=(Comparison(field='result', op='=', value='1-0'), Comparison(field='tag.Event', op='~', value='cup')))))

``not`` binds tightest, then ``and``, then ``or``; a boolean field stands
alone:

    >>> parse('not valid or reaches "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1" and plies < 9')
    Or(terms=(Not(term=Comparison(field='valid', op='=', value=True)), \
And(terms=(Test(name='reaches', argument='4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1'), Comparison(field='plies', op='<', value=9)))))

A mistake is a :class:`QueryError` that names the column:

    >>> parse("game = kingulu and )")
    Traceback (most recent call last):
    ...
    notation.notation_errors.QueryError: expected a comparison at column 20: ")"
    >>> parse('plies ~ "x"')
    Traceback (most recent call last):
    ...
    notation.notation_errors.QueryError: plies is a number: compare it with =, !=, <, <=, > or >=, not ~ at column 7
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field as _field, replace
from functools import lru_cache
from typing import Any, Union

from .notation_errors import QueryError

__all__ = ["FIELDS", "TESTS", "OPERATORS", "Comparison", "Test", "Not", "And", "Or", "Node", "parse", "text_column"]

#: The fields and their types (``tag.NAME`` is any tag: text, or a number
#: when compared with one). Text is written in double quotes, or as a bare
#: word when it is an id (``game = kingulu``, ``ending = KG-7``).
FIELDS = {"game": "text", "plies": "number", "moves": "text", "result": "text", "ending": "text",
          "score": "text", "valid": "boolean", "start": "text"}
#: The tests that take a quoted argument: ``reaches "POSITION"``, ``opening "MOVES"``.
TESTS = ("reaches", "opening")
#: The comparison operators.
OPERATORS = ("=", "!=", "<", "<=", ">", ">=", "~")
#: The words that are not fields or values.
KEYWORDS = ("and", "or", "not")


@dataclass(frozen=True)
class Comparison:
    """``field op value``; ``value`` is text, a whole number or (for a
    boolean field) ``True``/``False``. ``column`` (1-based) is where it starts,
    ``value_column`` where its value does (0: not written, as for ``valid``
    alone or a command-line flag)."""

    field: str
    op: str
    value: Union[str, int, bool]
    column: int = _field(default=0, compare=False, repr=False)
    value_column: int = _field(default=0, compare=False, repr=False)
    #: The column of the value's first character (past a quote), and where
    #: in the value an escaped character was written (:func:`text_column`).
    text_column: int = _field(default=0, compare=False, repr=False)
    escapes: tuple[int, ...] = _field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class Test:
    """``reaches "POSITION"`` or ``opening "MOVES"``. ``game``, when given,
    is the game whose board the argument is read for (the command line's
    ``--game``); else it is read for the board it fits."""

    __test__ = False  # (not a test case for pytest)

    name: str
    argument: str
    column: int = _field(default=0, compare=False, repr=False)
    game: Union[str, None] = _field(default=None, repr=False)
    #: As :class:`Comparison`'s: the argument's first character's column, its escapes.
    text_column: int = _field(default=0, compare=False, repr=False)
    escapes: tuple[int, ...] = _field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class Not:
    term: Node


@dataclass(frozen=True)
class And:
    terms: tuple[Node, ...]


@dataclass(frozen=True)
class Or:
    terms: tuple[Node, ...]


Node = Union[Comparison, Test, Not, And, Or]

_NUMBER = re.compile(r"-?[0-9]+\Z")
#: Digits of a number in an expression at most (a longer one is an error,
#: as the command line's own numbers are).
MAX_NUMBER_DIGITS = 40


_ESCAPE = re.compile(r'\\(["\\])')


def _unescape(text: str) -> tuple[str, tuple[int, ...]]:
    """A string's text: ``\\"`` and ``\\\\`` are the only escapes (as in a PMN tag
    value), so that a regular expression keeps its ``\\d``; and where in
    the text the escaped characters are.

        >>> _unescape(r'a\\"b\\\\')
        ('a"b\\\\', (1, 3))
    """
    escapes = tuple(match.start() - k for k, match in enumerate(_ESCAPE.finditer(text)))
    return _ESCAPE.sub(r"\1", text), escapes


def text_column(node: Union[Comparison, Test], offset: int) -> int:
    """The column of character ``offset`` (from 0) of the value or argument
    of ``node``, as written in the expression (an escaped character takes
    two); 0 when ``node`` was not read from an expression.

        >>> text_column(parse('tag.Event ~ "\\\\\\\\("'), 1)
        16
    """
    if not node.text_column:
        return 0
    return node.text_column + offset + sum(escape < offset for escape in node.escapes)


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@lru_cache(maxsize=1)
def _grammar() -> Any:
    """The grammar: ``query := or-term``, ``or-term := and-term ("or" and-term)*``,
    ``and-term := not-term ("and" not-term)*``, ``not-term := "not" not-term |
    atom``, ``atom := comparison | test | "(" query ")"``. Each alternative is
    followed by ``-`` where the text can be nothing else, so that a mistake is
    reported where it is, with what was expected there. (This is what
    :func:`pyparsing.infix_notation` builds for three operators, written out
    so that each level can stop at a mistake instead of backtracking to the
    start of the expression.)"""
    import pyparsing as pp  # (local, only to parse: validate loads this module; docs/performance.md, 'Start-up')

    def keyword(word: str) -> Any:
        return pp.Regex(rf"{word}(?![A-Za-z0-9_.\-])").set_name(f"'{word}'")

    AND, OR, NOT = keyword("and"), keyword("or"), keyword("not")
    reserved = "|".join((*KEYWORDS, *TESTS))
    name = pp.Regex(rf"(?!(?:{reserved})(?![A-Za-z0-9_.\-]))(?:tag\.[A-Za-z0-9_]+|[A-Za-z_][A-Za-z0-9_]*)"
                    r"(?![A-Za-z0-9_.\-])").set_name("a field")
    op = pp.Regex(r"!=|<=|>=|=|<|>|~").set_name("an operator (=, !=, <, <=, >, >=, ~)") \
        .add_parse_action(lambda s, loc, t: (t[0], loc + 1))
    string = pp.Regex(r'"((?:[^"\\]|\\.)*)"', flags=re.S).set_name('a "quoted" string') \
        .set_parse_action(lambda t: _unescape(t[0][1:-1]))
    bare = pp.Regex(rf"(?!(?:{'|'.join(KEYWORDS)})(?![A-Za-z0-9_.\-/+]))-?[A-Za-z0-9_][A-Za-z0-9_.\-/+]*") \
        .set_name("a value")
    value = (string.copy().add_parse_action(lambda s, loc, t: ("string", *t[0], loc + 2))
             | bare.copy().add_parse_action(lambda s, loc, t: ("word", t[0], (), loc + 1))).set_name("a value")

    def comparison_action(s: str, loc: int, t: Any) -> Any:
        column = loc + 1
        if len(t) == 1:
            return _check(t[0], None, None, column, 0, 0)
        kind, text, escapes, first = t[2]
        node = _check(t[0], t[1][0], (kind, text), column, t[1][1], first - (kind == "string"))
        return replace(node, text_column=first, escapes=escapes)

    def test_action(s: str, loc: int, t: Any) -> Any:
        (text, escapes), first = t[1]
        return Test(t[0], text, loc + 1, text_column=first, escapes=escapes)

    query = pp.Forward()
    tests = pp.Regex(rf"(?:{'|'.join(TESTS)})(?![A-Za-z0-9_.\-])")
    argument = string.copy().set_name('a "quoted" argument').add_parse_action(lambda s, loc, t: (t[0], loc + 2))
    test = (tests - argument).set_parse_action(test_action)
    end_of_term = pp.FollowedBy(AND | OR | ")" | pp.StringEnd())
    comparison = (name - (op - value | end_of_term).set_name("an operator (=, !=, <, <=, >, >=, ~)")) \
        .set_parse_action(comparison_action)
    atom = (test | comparison | (pp.Suppress("(") - query - pp.Suppress(")").set_name("')'"))) \
        .set_name("a comparison")
    not_term = pp.Forward()
    not_term.set_name("a comparison")
    not_term <<= ((pp.Suppress(NOT) - not_term).set_parse_action(lambda t: Not(t[0])) | atom) \
        .set_name("a comparison")
    and_term = (not_term + pp.ZeroOrMore(pp.Suppress(AND) - not_term)).set_parse_action(
        lambda t: t[0] if len(t) == 1 else And(tuple(t)))
    query <<= (and_term + pp.ZeroOrMore(pp.Suppress(OR) - and_term)).set_parse_action(
        lambda t: t[0] if len(t) == 1 else Or(tuple(t)))
    end = pp.StringEnd().set_name("'and', 'or' or the end")
    return (query - end).parse_with_tabs()  # (a tab in a string stays a tab)


def _check(name: str, op: str | None, value: tuple[str, str] | None, column: int, op_column: int,
           value_column: int) -> Node:
    """The comparison ``name op value``, if the types agree."""
    kind = "tag" if name.startswith("tag.") else FIELDS.get(name)
    if kind is None:
        raise _at(f"unknown field {name!r} (fields: {', '.join(FIELDS)}, tag.NAME; "
                         f"tests: {', '.join(t + ' STRING' for t in TESTS)})", column)
    if op is None or value is None:
        if kind != "boolean":
            raise _at(f"{name} is not true or false: compare it ({name} = …)", column)
        return Comparison(name, "=", True, column, 0)
    quoted, text = value
    if kind == "boolean":
        return _boolean(name, op, quoted, text, column, op_column, value_column)
    number = quoted == "word" and _NUMBER.match(text) is not None
    if kind == "number":
        return _number(name, op, quoted, text, number, column, op_column, value_column)
    if number and kind == "tag" and op != "~":
        return Comparison(name, op, _whole(text, value_column), column, value_column)
    if number and op != "~":
        raise _at(f"{name} is text, not a number (write {_quoted(text)})", value_column)
    return Comparison(name, op, text, column, value_column)


def _boolean(name: str, op: str, quoted: str, text: str, column: int, op_column: int,
             value_column: int) -> Comparison:
    """The comparison of the true-or-false field ``name`` with ``text``."""
    if op not in ("=", "!="):
        raise _at(f"{name} is true or false: compare it with = or !=, not {op}", op_column)
    if quoted != "word" or text not in ("true", "false"):
        raise _at(f"{name} is true or false, not {_quoted(text) if quoted == 'string' else text}",
                  value_column)
    return Comparison(name, op, text == "true", column, value_column)


def _number(name: str, op: str, quoted: str, text: str, number: bool, column: int, op_column: int,
            value_column: int) -> Comparison:
    """The comparison of the number field ``name`` with ``text`` (``number``: a number)."""
    if op == "~":
        raise _at(f"{name} is a number: compare it with =, !=, <, <=, > or >=, not ~", op_column)
    if not number:
        raise _at(f"{name} is a number, not {_quoted(text) if quoted == 'string' else text}",
                  value_column)
    return Comparison(name, op, _whole(text, value_column), column, value_column)


def _whole(text: str, column: int) -> int:
    """The whole number ``text`` (a sign, digits), at most :data:`MAX_NUMBER_DIGITS` digits."""
    digits = len(text.lstrip("-"))
    if digits > MAX_NUMBER_DIGITS:
        raise _at(f"a number has at most {MAX_NUMBER_DIGITS} digits (got one of {digits:,})", column)
    return int(text)


def _at(message: str, column: int) -> QueryError:
    return QueryError(f"{message} at column {column}", column)


#: The longest expression read (a command-line option, not a program).
MAX_LENGTH = 10_000


#: The deepest nesting of parentheses read.
MAX_DEPTH = 32


def _depth(text: str) -> int:
    """The column of the first parenthesis past :data:`MAX_DEPTH`, or 0."""
    depth, quoted, escaped = 0, False, False
    for k, char in enumerate(text):
        if quoted:
            quoted, escaped = (char != '"' or escaped), (char == "\\" and not escaped)
        elif char == '"':
            quoted = True
        elif char == "(":
            depth += 1
            if depth > MAX_DEPTH:
                return k + 1
        elif char == ")":
            depth -= 1
    return 0


def _nots(text: str) -> int:
    """The column of the first ``not`` past :data:`MAX_DEPTH` in a row
    (outside strings), else 0: each one nests the parser a level deeper, so
    the bound does not depend on the interpreter's stack.

        >>> _nots("not " * 33 + "valid"), _nots('"not ' * 40 + '"')
        (129, 0)
    """
    blank = re.sub(r'"(?:\\.|[^"\\])*"?', lambda m: " " * len(m[0]), text)
    run = re.search(r"(?:\bnot\b\s*){%d}(?=\bnot\b)" % MAX_DEPTH, blank)
    return 0 if run is None else run.end() + 1


#: What other languages write for ``and``, ``or`` and ``not``.
_OTHER_WORDS = (("&&", "and"), ("||", "or"), ("!", "not"))
_OPERATOR_BEFORE = re.compile(r"(!=|<=|>=|=|<|>|~)[ \t\r\n]*\Z")


def _hint(text: str, loc: int) -> str:
    """A "did you mean" for what is written at ``loc``, where the parser
    stopped, when it looks like another language's spelling: text in single
    quotes, ``==`` (or an operator doubled), ``<>``, ``&&``, ``||``, ``!``.

        >>> _hint("tag.Event ~ 'cup'", 12), _hint("plies == 3", 7), _hint("plies <> 3", 7)
        (' (did you mean "cup"? text is written in double quotes)', ' (did you mean =?)', ' (did you mean !=?)')
    """
    rest = text[loc:].lstrip()
    if rest.startswith("'"):
        end = rest.find("'", 1)
        if end > 0:
            return f" (did you mean {_quoted(rest[1:end])}? text is written in double quotes)"
        return " (text is written in double quotes)"
    before = _OPERATOR_BEFORE.search(text[:loc])
    if before is not None:
        op = before[1]
        if op == "<" and rest.startswith(">"):
            return " (did you mean !=?)"
        if op == "=" and rest.startswith("~"):
            return " (did you mean ~?)"
        if rest.startswith("=") or rest.startswith(op):
            return f" (did you mean {op}?)"
        return ""
    for other, word in _OTHER_WORDS:
        if rest.startswith(other) and not rest.startswith("!="):
            return f" (did you mean {word}?)"
    return ""


def parse(text: str) -> Node:
    """The expression tree of ``text``; raises :class:`QueryError`.

        >>> parse('tag.Round >= 3 and not ending = KG-7')
        And(terms=(Comparison(field='tag.Round', op='>=', value=3), Not(term=Comparison(field='ending', op='=', value='KG-7'))))
    """
    import pyparsing as pp  # (local: as in _grammar)

    if len(text) > MAX_LENGTH:
        raise QueryError(f"an expression of at most {MAX_LENGTH:,} characters (got {len(text):,})", 1)
    if not text.strip():
        raise QueryError("expected a comparison at column 1: the expression is empty", 1)
    depth = _depth(text)
    if depth:
        raise _at(f"the expression nests more than {MAX_DEPTH} parentheses deep", depth)
    nots = _nots(text)
    if nots:
        raise _at(f"the expression nests too deeply: more than {MAX_DEPTH} nots in a row", nots)
    try:
        node: Node = _grammar().parse_string(text, parse_all=True)[0]
        return node
    except QueryError:
        raise
    except pp.ParseBaseException as error:
        column = min(error.loc, len(text)) + 1  # (columns count characters; a line break is one)
        expected = str(error.msg).removeprefix("Expected ")
        rest = text[error.loc:].lstrip()
        if not rest:
            found = "the expression ends there"
        else:
            found = _quoted(rest[:20] + ("…" if len(rest) > 20 else ""))
        raise QueryError(f"expected {expected} at column {column}: {found}{_hint(text, error.loc)}",
                         column) from None
    except RecursionError:
        raise QueryError("the expression nests too deeply", 1) from None
