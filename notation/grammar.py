"""The PMN grammar (docs/notation.md, "A record") as pyparsing expressions.

The grammar is lexical: a game is a tag section (one or more tag pairs) and a
movetext, a flat stream of tokens whose nesting (variations, comments that
span lines) the reader in :mod:`notation.pmn_reader` tracks with an explicit stack.
To read 100,000-game files quickly every expression here is one large
:class:`pyparsing.Regex`, and the reader drives their compiled patterns
(``TOKEN_RE`` is ``expression("TOKEN").re``, and so on) directly, so no
``ParseResults`` object is made per token. The compiled patterns are made
here with :mod:`re`; pyparsing itself loads when an expression is first
asked for (:func:`expression`), so that reading a record does not wait for it.

    >>> [(t["name"], unescape(t["value"])) for t, _, _ in expression("TAG_PAIR").scan_string('[Round "1"] [X "a\\\\"b"]')]
    [('Round', '1'), ('X', 'a"b')]
    >>> [t[0].strip() for t, _, _ in expression("TOKEN").scan_string("12. c1x6! $3 (12... d2^) 1-0")]
    ['12.', 'c1x6!', '$3', '(', '12...', 'd2^', ')', '1-0']
    >>> movetext_tokens("14-13 1-0")
    [('MOVE', '14-13'), ('RESULT', '1-0')]
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pyparsing as pp

#: A hole token in any coordinate style: algebraic ``c2``, numeric ``11``,
#: relative ``S11``/``N3`` (docs/notation.md, "Coordinate styles"). Which one names a hole of the
#: board is decided at replay, not here.
HOLE = r"(?:[a-l][0-9]+|[0-9]+|[SN][0-9]+)"

#: What may follow a move, a NAG or a result token directly.
_BOUNDARY = r"(?=[\s(){};$]|\Z)"

#: A tag name: letters, digits and ``_``.
_NAME = r"(?P<name>[A-Za-z0-9_]+)"
#: A double-quoted tag value; ``\"`` and ``\\`` are the only escapes.
#: Its repeats are possessive, so matching a long value keeps no state per
#: character (memory stays flat however long the value).
_VALUE = r'"(?P<value>[^"\\]*+(?:\\["\\][^"\\]*+)*+)"'

#: One tag pair, e.g. ``[Event "Village match"]`` (``name``, ``value`` still
#: escaped); white space is allowed around the name and the value.
TAG_PAIR_PATTERN = rf"\[\s*{_NAME}\s*{_VALUE}\s*\]"

#: A line that holds exactly one well-formed tag pair: the common case, read
#: in one match; any other tag line goes through the reader's careful scanner,
#: which says exactly what is wrong.
TAG_LINE_PATTERN = rf"\s*\[\s*{_NAME}\s*{_VALUE}\s*\]\s*\Z"

#: One movetext token, leading white space included. The named group that
#: matched tells the kind (``lastgroup``):
#:
#: * ``COMMENT`` ``{text}`` on one line (``ctext``), ``OPENCOMMENT`` a ``{``
#:   whose ``}`` is on a later line (``otext``: the rest of this line),
#:   ``LINECOMMENT`` ``;`` to end of line (``ltext``);
#: * ``RESULT`` exactly ``1-0``, ``0-1``, ``1/2-1/2`` or ``*``;
#: * ``NUMBER`` ``12.`` or ``12...`` (``num``, ``dots``);
#: * ``MOVE`` ``hole[-dest][xN][^][glyph]`` (``hole``, ``dest``, ``cap``,
#:   ``res``, ``glyph``);
#: * ``NAG`` ``$N`` (``nag``);
#: * ``OPEN`` ``(``, ``CLOSE`` ``)``, ``STRAY`` a ``}`` without ``{``;
#: * ``UNKNOWN`` anything else up to the next delimiter (a syntax error).
#:
#: The alternatives cover every non-blank character, so scanning a line with
#: ``finditer`` never skips text silently.
TOKEN_PATTERN = (
    r"\s*(?:"
    rf"(?P<RESULT>1-0|0-1|1/2-1/2|\*){_BOUNDARY}"
    r"|(?P<NUMBER>(?P<num>[0-9]+)(?P<dots>\.\.\.|\.))"
    rf"|(?P<MOVE>(?P<hole>{HOLE})(?:-(?P<dest>{HOLE}))?(?:x(?P<cap>[0-9]+))?(?P<res>\^)?"
    rf"(?P<glyph>[!?][!?]?)?){_BOUNDARY}"
    r"|(?P<COMMENT>\{(?P<ctext>[^}]*)\})"
    r"|(?P<OPENCOMMENT>\{(?P<otext>[^}]*)\Z)"
    r"|(?P<LINECOMMENT>;(?P<ltext>.*))"
    r"|(?P<OPEN>\()"
    r"|(?P<CLOSE>\))"
    rf"|(?P<NAG>\$(?P<nag>[0-9]+)){_BOUNDARY}"
    r"|(?P<STRAY>\})"
    r"|(?P<UNKNOWN>[^\s(){};]+)"
    r")"
)
# A result token is exactly one of the four strings, tried first, so "1-0"
# is a result while "14-13" or "1-01" is a (numeric long-form) move; a move
# number is digits and dots, so "14." never reads as the hole 14.

#: The common case of movetext, read in one match: a move with no glyph,
#: no long form and nothing but white space after it, with the move number
#: before it if any (``12. c1x6``, ``e2^``, ``14``): ``num``, ``dots``,
#: ``hole``, ``cap``, ``res``. Such a move is exactly the ``NUMBER`` and
#: ``MOVE`` tokens of :data:`TOKEN`; the reader takes plain moves while they
#: last (:data:`PLAIN_LINE`) and reads the rest of the line token by token.
#: Longer digit strings than 9 are not plain (the token reader reports them).
#: Its runs are possessive: giving back a blank or a digit could never make
#: a match (only faster failing).
PLAIN_MOVE_PATTERN = (
    rf"\s*+(?:(?P<num>[0-9]{{1,9}}+)(?P<dots>\.\.\.|\.)\s*+)?(?P<hole>{HOLE.replace('+', '++')})"
    r"(?:x(?P<cap>[0-9]{1,9}+))?(?P<res>\^)?(?=\s|\Z)"
)

#: The compiled patterns of the expressions (the reader's: ``TOKEN_RE`` is
#: ``expression("TOKEN").re``).
TAG_PAIR_RE = re.compile(TAG_PAIR_PATTERN)
TAG_LINE_RE = re.compile(TAG_LINE_PATTERN)
TOKEN_RE = re.compile(TOKEN_PATTERN, re.DOTALL)
PLAIN_MOVE_RE = re.compile(PLAIN_MOVE_PATTERN)

#: A line of plain movetext read in one scan (``finditer``). Each match is
#: a plain move (the groups of :data:`PLAIN_MOVE`), a result token that ends
#: the line (``result``), or the first character of anything else
#: (``other``), where the reader goes on token by token: one call of the
#: regular-expression engine per line of plain moves, result included.
PLAIN_LINE_PATTERN = rf"{PLAIN_MOVE_PATTERN}|\s*+(?P<result>1-0|0-1|1/2-1/2|\*)\Z|\s*+(?P<other>\S)"

PLAIN_LINE_RE = re.compile(PLAIN_LINE_PATTERN)

#: The compiled pattern of each pyparsing expression, by the expression's name.
_PATTERNS = {"TAG_PAIR": TAG_PAIR_RE, "TAG_LINE": TAG_LINE_RE, "TOKEN": TOKEN_RE, "PLAIN_MOVE": PLAIN_MOVE_RE,
             "PLAIN_LINE": PLAIN_LINE_RE}
_EXPRESSIONS: dict[str, pp.Regex] = {}


def expression(name: str) -> pp.Regex:
    """The pyparsing expression ``name`` (``TAG_PAIR``, ``TAG_LINE``,
    ``TOKEN``, ``PLAIN_MOVE``, ``PLAIN_LINE``), made from its compiled
    pattern when first asked for; ``KeyError`` for another name."""
    made = _EXPRESSIONS.get(name)
    if made is None:
        compiled = _PATTERNS[name]
        import pyparsing as pp  # (local: not for validate, which loads this module; docs/performance.md, 'Start-up')

        made = _EXPRESSIONS[name] = pp.Regex(compiled.pattern, flags=compiled.flags)
    return made


RESULTS = frozenset(("1-0", "0-1", "1/2-1/2", "*"))

#: An escape in a tag value (compiled by :mod:`re`, and kept in its cache,
#: when first used: most values have none).
_ESCAPE = r'\\(["\\])'


def unescape(value: str) -> str:
    """A tag value as meant: ``\\"`` → ``"``, ``\\\\`` → ``\\``."""
    return re.sub(_ESCAPE, r"\1", value) if "\\" in value else value


def escape(value: str) -> str:
    """A tag value as written between the quotes."""
    if "\\" in value or '"' in value:
        value = value.replace("\\", "\\\\").replace('"', '\\"')
    return value


def movetext_tokens(text: str) -> list[tuple[str, str]]:
    """(kind, text) of each token of one line of movetext (for tests and tools)."""
    out = []
    for m in re.finditer(TOKEN_PATTERN, text, re.DOTALL):
        kind = m.lastgroup
        if kind is not None:  # every alternative of TOKEN is a named group
            out.append((kind, m.group(kind)))
    return out
