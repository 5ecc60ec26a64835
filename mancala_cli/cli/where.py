"""The games the commands choose: ``--where`` (and ``filter``'s criteria)
read in our own words, a bad expression or a pattern that runs too long a
usage error in one line (:mod:`mancala_cli.archives`, the query language)."""
from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any, Optional

from ..archives.criteria import Criteria, RegexTimeout
from ..archives.texts import BadCriterion
from ..errors import BadQuery
from .options import fail
from .streams import error_line


def criterion(option: str, parse: Callable[..., Any], *args: Any) -> Any:
    """``parse(*args)``, with a bad criterion a usage error naming ``option``."""
    try:
        return parse(*args)
    except BadCriterion as error:
        fail(f"{option}: {error}")


def where_criteria(text: Optional[str]) -> Criteria:
    """The criteria of ``--where``, a bad expression a usage error; its
    warnings are said on standard error, once."""
    try:
        criteria = Criteria.where(text) if text is not None else Criteria()
    except BadQuery as error:
        fail(f"--where: {error}")
    for note in criteria.warnings:
        error_line(f"mancala: warning: --where: {note}")
    return criteria


@contextlib.contextmanager
def where_stops() -> Iterator[None]:
    """Around a command's reading: a ``--where`` regular expression that
    runs too long (:class:`~mancala_cli.archives.RegexTimeout`) ends it with
    one line, exit 2."""
    try:
        yield
    except RegexTimeout as error:
        fail(f"--where: {error}")
