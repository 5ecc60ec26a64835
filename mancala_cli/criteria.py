"""Deprecated: moved to mancala_cli.archives.criteria; this name re-exports
its public names for one release."""
from __future__ import annotations

from .archives.criteria import (
    REGEX_SECONDS,
    BadCriterion,
    Criteria,
    RegexTimeout,
    known_game,
    parse_opening,
    parse_reaches,
    parse_tag,
    recorded_result,
    regex_test,
)

__all__ = ["BadCriterion", "Criteria", "RegexTimeout", "parse_tag", "parse_reaches", "parse_opening",
           "recorded_result", "regex_test", "known_game", "REGEX_SECONDS"]
