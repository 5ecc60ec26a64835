"""JSON of any nesting depth, written and read without recursion: what the
JSON Lines format (:mod:`notation.jsonl`) falls back on where the standard
``json`` module recurses deeper than the interpreter lets C code go (Python
3.12 stops its C encoder and decoder at about 1,500 levels, whatever
``sys.setrecursionlimit`` says; variations nested to the record's limit take
about 3,000). Both give exactly what ``json.dumps(value, ensure_ascii=False)``
and ``json.loads(text)`` give, for the values a record's JSON holds (objects
with string keys, arrays, strings, integers, ``true``, ``false``, ``null``).

    >>> dumps({"moves": [{"move": "c1", "variations": [[{"move": "d1"}]]}], "result": None})
    '{"moves": [{"move": "c1", "variations": [[{"move": "d1"}]]}], "result": null}'
    >>> loads('[[[1, "a"]], {"b": true}]', max_depth=10)
    [[[1, 'a']], {'b': True}]
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from json.encoder import encode_basestring
from typing import Any

__all__ = ["dumps", "loads"]

#: The standard decoder's string reader and its reader of one value (used
#: here for strings, numbers, true, false and null alone: no recursion).
_SCANSTRING: Callable[[str, int], tuple[str, int]] = getattr(json.decoder, "scanstring")
_SCALAR: Callable[[str, int], tuple[Any, int]] = getattr(json.JSONDecoder(), "scan_once")
#: White space between JSON tokens.
_SPACE = re.compile(r"[ \t\n\r]*")


class _Text(str):
    """Text to write as it is (punctuation between values), told apart from a
    string value on the encoder's stack."""


def dumps(value: Any) -> str:
    """``json.dumps(value, ensure_ascii=False)``, with an explicit stack
    instead of recursion. A value of another type raises ``TypeError``."""
    parts: list[str] = []
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _Text):
            parts.append(item)
        elif isinstance(item, str):
            parts.append(encode_basestring(item))
        elif item is None:
            parts.append("null")
        elif item is True:
            parts.append("true")
        elif item is False:
            parts.append("false")
        elif isinstance(item, int):
            parts.append(int.__repr__(item))
        elif isinstance(item, dict):
            stack.append(_Text("}"))
            for k, (key, member) in reversed(list(enumerate(item.items()))):
                if not isinstance(key, str):
                    raise TypeError(f"keys must be str, not {type(key).__name__}")
                stack.append(member)
                stack.append(_Text(("" if k == 0 else ", ") + encode_basestring(key) + ": "))
            parts.append("{")
        elif isinstance(item, (list, tuple)):
            stack.append(_Text("]"))
            for k in range(len(item) - 1, -1, -1):
                stack.append(item[k])
                if k:
                    stack.append(_Text(", "))
            parts.append("[")
        else:
            raise TypeError(f"Object of type {type(item).__name__} is not JSON serializable")
    return "".join(parts)


def loads(text: str, *, max_depth: int) -> Any:
    """``json.loads(text)`` with an explicit stack instead of recursion;
    ``json.JSONDecodeError`` where the text is not JSON, ``RecursionError``
    where arrays and objects nest deeper than ``max_depth``."""
    stack: list[tuple[Any, str | None]] = []  # the open arrays and objects, with an object's pending key
    at = _SPACE.match(text, 0).end()  # type: ignore[union-attr]
    while True:
        opening = text[at:at + 1]
        if opening in ("[", "{"):
            if len(stack) >= max_depth:
                raise RecursionError(f"JSON nested deeper than {max_depth} levels")
            at = _SPACE.match(text, at + 1).end()  # type: ignore[union-attr]
            closing = "]" if opening == "[" else "}"
            if text[at:at + 1] != closing:
                if opening == "[":
                    stack.append(([], None))
                else:
                    first_key, at = _key(text, at)
                    stack.append(({}, first_key))
                continue
            value: Any = [] if opening == "[" else {}
            at += 1
        else:
            try:
                value, at = _SCALAR(text, at)
            except StopIteration:
                raise json.JSONDecodeError("Expecting value", text, at) from None
        while True:  # the value goes into the innermost open array or object, which may close
            if not stack:
                end = _SPACE.match(text, at).end()  # type: ignore[union-attr]
                if end != len(text):
                    raise json.JSONDecodeError("Extra data", text, end)
                return value
            container, key = stack[-1]
            if key is None:
                container.append(value)
            else:
                container[key] = value
            at = _SPACE.match(text, at).end()  # type: ignore[union-attr]
            mark = text[at:at + 1]
            if mark == ",":
                at = _SPACE.match(text, at + 1).end()  # type: ignore[union-attr]
                if key is not None:
                    next_key, at = _key(text, at)
                    stack[-1] = (container, next_key)
                break
            if mark == ("]" if key is None else "}"):
                stack.pop()
                value = container
                at += 1
                continue
            raise json.JSONDecodeError("Expecting ',' delimiter", text, at)


def _key(text: str, at: int) -> tuple[str, int]:
    """An object's key and the colon after it, from ``at``: the key and where
    its value starts."""
    if text[at:at + 1] != '"':
        raise json.JSONDecodeError("Expecting property name enclosed in double quotes", text, at)
    key, at = _SCANSTRING(text, at + 1)
    at = _SPACE.match(text, at).end()  # type: ignore[union-attr]
    if text[at:at + 1] != ":":
        raise json.JSONDecodeError("Expecting ':' delimiter", text, at)
    return key, _SPACE.match(text, at + 1).end()  # type: ignore[union-attr]
