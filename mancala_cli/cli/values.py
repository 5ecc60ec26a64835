"""Option values read in our own words: each parser checks one kind of
value (one of a list, a whole number in a range, seconds, a size) and says
what is wrong with a bad one in one line (:class:`UsageProblem`), where
``int()`` and ``float()`` would take more than the options mean (``١٢``,
``1_000``, ``inf``)."""
from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

import typer


class UsageProblem(typer.BadParameter):
    """A bad option value, told in one line of our own."""


def usage_error(message: str) -> UsageProblem:
    return UsageProblem(message)


def choice(option: str, values: Sequence[str]) -> Callable[[str], str]:
    """A parser for an option that takes one of ``values``."""
    def parse(value: Any) -> str:
        text = str(getattr(value, "value", value))
        if text not in values:
            raise usage_error(f"{option} must be one of {', '.join(values)} (got {text!r})")
        return text
    return parse


def completion(values: Sequence[str]) -> Callable[..., list[str]]:
    """Shell completion of an option's value: ``values`` (typer keeps those
    that start with what is typed). A missing required option names them too."""
    def complete(ctx: Any, args: Any, incomplete: str) -> list[str]:
        return list(values)
    return complete


#: A whole number as options take it: ASCII digits only (``int()`` would also
#: take ``١٢`` and ``1_000``), an optional sign. (Patterns are compiled on
#: first use, by :mod:`re`'s cache: most runs parse no number.)
_WHOLE_NUMBER = r"[+-]?[0-9]+"
#: Digits read at most: more is out of every option's range.
_MAX_DIGITS = 40


def integer(option: str, low: int, high: int | None = None, *,
            named: dict[str, int] | None = None) -> Callable[[str], int]:
    """A parser for an integer option in ``low..high``; ``named`` values
    (``{"auto": 0}``) stand for numbers of their own."""
    named = named or {}
    kind = " or ".join(["a whole number", *named])

    def parse(value: Any) -> int:
        if isinstance(value, int):
            number = value
        else:
            text = str(value).strip()
            if text in named:
                return named[text]
            if not re.fullmatch(_WHOLE_NUMBER, text):
                raise usage_error(f"{option} must be {kind} (got {str(value)!r})")
            digits = len(text.lstrip("+-"))
            if digits > _MAX_DIGITS:
                within = f"from {_bound(low)} to {_bound(high)}" if high is not None else f"≥ {_bound(low)}"
                raise usage_error(f"{option} must be a whole number {within} (got a number of {digits:,} digits)")
            number = int(text)
        if number < low:
            raise usage_error(f"{option} must be ≥ {_bound(low)} (got {number})")
        if high is not None and number > high:
            raise usage_error(f"{option} must be ≤ {_bound(high)} (got {number})")
        return number
    return parse


def _bound(number: int) -> str:
    """A bound as messages show it: ``1,000,000``; ``2^128`` for a big power of two."""
    size = abs(number)
    if size > 2**40 and size & (size - 1) == 0:
        return f"{'-' if number < 0 else ''}2^{size.bit_length() - 1}"
    return f"{number:,}" if number >= 0 else f"-{size:,}"


def jobs(option: str) -> Callable[[str], int]:
    """A parser for ``--jobs``: ``auto`` (0: the usable cores) or a count ≥ 1."""
    return integer(option, 1, named={"auto": 0})


def seconds(option: str, low: float = 0.0, high: float = 86_400.0) -> Callable[[str], float]:
    """A parser for a duration in seconds, more than ``low`` and at most ``high``."""
    def parse(value: Any) -> float:
        text = str(value).strip()
        number = decimal(text)
        if number is None:
            raise usage_error(f"{option} must be a number of seconds (got {str(value)!r})")
        if not low < number <= high:  # (also refuses nan)
            raise usage_error(f"{option} must be more than {low:g} and at most {high:g} seconds (got {text})")
        return number
    return parse


#: A decimal number as options take it: ASCII digits, a point, an exponent
#: (``float()`` would also take ``١.٥``, ``1_0``, ``inf`` and ``nan``).
_DECIMAL = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?"


def decimal(text: str) -> float | None:
    """``text`` as a number when it is one in ASCII digits (at most 40 characters), else ``None``."""
    return float(text) if len(text) <= _MAX_DIGITS and re.fullmatch(_DECIMAL, text) else None


def choices_metavar(values: Sequence[str]) -> str:
    return "[" + "|".join(values) + "]"


def seconds_parser(option: str) -> Callable[[Any], float]:
    """A parser for a time limit: a number of seconds > 0."""
    def parse(value: Any) -> float:
        if isinstance(value, float):
            return value
        number = decimal(str(value).strip())
        if number is None or not 0 < number < float("inf"):
            raise usage_error(f"{option} must be a number of seconds > 0 (got {str(value)!r})")
        return number
    return parse


#: The units of a size (--memory): multiples of 1,024.
_SIZE_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def size_parser(option: str) -> Callable[[Any], int]:
    """A parser for a size in bytes (``1073741824``, ``512M``, ``2G``: K, M, G, T of 1,024; ``B``, ``iB`` allowed)."""
    def parse(value: Any) -> int:
        if isinstance(value, int):
            return value
        text = str(value).strip()
        match = re.fullmatch(r"([0-9]{1,15}(?:\.[0-9]{1,9})?)\s*([kKmMgGtT]?)(?:i?[bB])?", text)
        if match is None or (match[1].count(".") and not match[2]):
            raise usage_error(f"{option} must be a size in bytes such as 512M or 2G (got {str(value)!r})")
        number = int(float(match[1]) * _SIZE_UNITS[match[2].upper()])
        if not 1 << 20 <= number <= sys.maxsize:  # (what the machine addresses: 8,388,607T on a 64-bit one)
            bound = "at least 1M" if number < 1 << 20 else f"at most {sys.maxsize >> 40:,}T, what this machine can address"
            raise usage_error(f"{option} must be {bound} (got {str(value)!r})")
        return number
    return parse

