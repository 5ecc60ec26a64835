"""The regular expressions of criteria (``--tag NAME=REGEX``, ``~`` in
``--where``): read by Python's ``re`` (its syntax and messages), bounded
in size (:data:`MAX_REPEAT`, :data:`MAX_REGEX_ITEMS`, a set by its size) and compiled by the
``regex`` package, whose matching takes a time limit
(:data:`mancala_cli.archives.criteria.REGEX_SECONDS`): :func:`parse_tag`,
:func:`checked_regex`, :func:`compiled_regex`.
"""
from __future__ import annotations

import importlib
import re
import warnings
from functools import lru_cache
from typing import Any, NoReturn

from .texts import BadCriterion


def parse_tag(text: str) -> tuple[str, str]:
    """``NAME=REGEX`` as ``(NAME, REGEX)``; the expression must compile
    (Python's ``re`` syntax, matched by the ``regex`` package with a time
    limit: :data:`mancala_cli.archives.criteria.REGEX_SECONDS`).

        >>> parse_tag("Event=^Village")
        ('Event', '^Village')
    """
    name, equals, pattern = text.partition("=")
    if not equals or not name:
        raise BadCriterion(f"{text!r} is not NAME=REGEX")
    try:
        checked_regex(pattern)
    except BadCriterion as error:
        raise BadCriterion(f"{shortened(text)}: {error}") from None
    return name, pattern


def shortened(text: str) -> str:
    """``repr(text)``, cut to about 60 characters (a pattern can be long)."""
    return repr(text) if len(text) <= 60 else repr(text[:57]) + "..."


#: The largest repetition count a regular expression may write (``a{1000}``,
#: ``a{2,1000}``), as RE2 has it.
MAX_REPEAT = 1000

#: The most items a regular expression may have with each repetition written
#: out its least number of times: the ``regex`` package compiles ``a{1000}``
#: into a thousand copies of ``a``, so that nested counts (``(a{1000}){1000}``)
#: multiply; this bounds the memory of a compiled pattern (measured:
#: docs/performance.md, 'Reading and checking records'). A set (``[...]``)
#: is copied whole, so it counts by its size (:data:`SET_CHARACTERS_PER_ITEM`).
MAX_REGEX_ITEMS = 100_000

#: A set's characters that count as one item, by what the ``regex`` package
#: keeps, in each copy, of a character listed in a set and of a range or
#: class (``a-z``, ``\w``) (measured: docs/performance.md, 'Reading and
#: checking records'); so a set counts as one item, plus one for each range
#: or class in it, plus one for each 50 characters
#: (``[<10,000 characters>]{1000}`` is 201,000 items, not 1,000).
SET_CHARACTERS_PER_ITEM = 50


def checked_regex(pattern: str) -> Any:
    """``pattern`` compiled by the ``regex`` package, once Python's ``re``
    has read it (its syntax and messages) and its size is known to be
    bounded (:data:`MAX_REPEAT`, :data:`MAX_REGEX_ITEMS`); raises
    :class:`BadCriterion` (``offset``: where in ``pattern``, when known).

        >>> checked_regex("a{1001}")
        Traceback (most recent call last):
        ...
        mancala_cli.archives.texts.BadCriterion: bad regular expression: a repetition count is at most 1000, not 1001
    """
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
        return compiled_regex(pattern)
    except re.error as error:
        bad(error.msg, error.pos)
    except PatternRefused as error:
        bad(error.reason, error.position)
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
        elif name == "IN":
            total += _set_items(argument)
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


def _set_items(members: Any) -> int:
    """The items a set (``[...]``) counts for, by its size: one, one for each
    range or class in it, one for each :data:`SET_CHARACTERS_PER_ITEM`
    characters."""
    names = [str(op) for op, _ in members]
    characters = names.count("LITERAL")
    others = len(names) - characters - names.count("NEGATE")
    return 1 + others + characters // SET_CHARACTERS_PER_ITEM


class PatternRefused(Exception):
    """What the ``regex`` package refused in a pattern (``reason``), and
    where (``position``, when it says)."""

    def __init__(self, reason: str, position: int | None) -> None:
        super().__init__(reason)
        self.reason, self.position = reason, position


@lru_cache(maxsize=256)
def compiled_regex(pattern: str) -> Any:
    """``pattern`` compiled by the ``regex`` package (as Python's ``re``
    reads it: ``V0``), kept for the next time; raises
    :class:`PatternRefused`."""
    import regex  # (not for a command without --where or --tag: docs/performance.md, 'Start-up')

    try:
        return regex.compile(pattern, regex.V0)
    except regex.error as error:
        raise PatternRefused(str(getattr(error, "msg", error)), getattr(error, "pos", None)) from None
