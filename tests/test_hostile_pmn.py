"""Hostile PMN given to the reader as strings: a tag value longer than the
limit is an error and is not held; floods of parentheses or of problems take
memory that does not grow with them."""
from __future__ import annotations

import subprocess
import sys
import textwrap

from notation.pmn import MAX_PROBLEMS, MAX_TAG_VALUE


def child(code: str, timeout: int = 60) -> str:
    """Run ``code`` in a fresh interpreter (bounded in time); its standard output."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr
    return done.stdout


def bounded(code: str) -> str:
    """The output of a child running ``code``, then ``True`` if its peak
    resident memory grew by less than 150 MB while it ran."""
    return child("import resource\nfrom notation.pmn import read_games\n"
                 "base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n" + textwrap.dedent(code)
                 + "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base < 150_000)\n").rstrip("\n")


def test_a_huge_tag_value_is_an_error_and_not_held():
    out = bounded("""
        text = '[Game "kingulu"]\\n[Event "' + "e" * 5_000_000 + '"]\\n\\n*\\n'
        (game,) = read_games(text)
        print(game.tags, [(p.code, p.line, p.column, p.message) for p in game.problems])
    """)
    assert out == (f"[('Game', 'kingulu')] [('syntax', 2, 9, 'tag value longer than {MAX_TAG_VALUE} "
                   "characters: the tag is skipped')]\nTrue")


def test_a_huge_unterminated_tag_value_is_an_error_and_not_held():
    out = bounded("""
        text = '[Game "kingulu"]\\n[Event "' + "e\\\\\\\\" * 1_000_000 + '\\n\\n*\\n'
        (game,) = read_games(text)
        print(game.tags, [(p.code, p.line, p.column, p.message) for p in game.problems])
    """)
    assert out == ("[('Game', 'kingulu')] [('syntax', 2, 8, 'unterminated string: \\'\"\\' opened here is never "
                   f"closed'), ('syntax', 2, 9, 'tag value longer than {MAX_TAG_VALUE} characters: the tag is "
                   "skipped')]\nTrue")


def test_five_million_open_parentheses_take_bounded_memory():
    out = bounded("""
        text = '[Game "kingulu"]\\n\\n1. c1 ' + "(" * 5_000_000 + ' *\\n'
        (game,) = read_games(text)
        print(len(game.problems), game.problems[0].message, game.problems[-1].message)
    """)
    assert out == (f"{MAX_PROBLEMS + 2} unterminated variation: '(' opened here is never closed "
                   f"(4999999 more inside it) more than {MAX_PROBLEMS} syntax errors in this game; "
                   "the others are not reported\nTrue")


def test_floods_of_warnings_are_capped_like_syntax_errors():
    out = bounded("""
        text = '[Game "kingulu"]\\n\\n' + "1. " * 1_700_000 + '*\\n'
        (game,) = read_games(text)
        print(len(game.problems), {p.severity for p in game.problems}, game.problems[-1].message)
    """)
    assert out == (f"{MAX_PROBLEMS + 1} {{'warning'}} more than {MAX_PROBLEMS} warnings in this game; "
                   "the others are not reported\nTrue")


def test_the_tag_value_limit_counts_characters_as_meant():
    from notation.pmn import read_game
    for careful in ("", " ["):  # one tag on its line, or the careful scanner
        at_limit = read_game('[Event "' + '\\"' * MAX_TAG_VALUE + '"]' + careful + '\n\n*\n')
        assert at_limit.tags[0] == ("Event", '"' * MAX_TAG_VALUE)
        over = read_game('[Event "' + '\\"' * (MAX_TAG_VALUE + 1) + '"]' + careful + '\n\n*\n')
        assert over.tags == []
        assert (over.problems[0].line, over.problems[0].column, over.problems[0].message) == (
            1, 9, f"tag value longer than {MAX_TAG_VALUE} characters: the tag is skipped")
    long_name = read_game("[" + "N" * 256 + ' "v"]\n\n*\n')
    assert long_name.tags == [] and long_name.problems[0].message == (
        "tag name longer than 255 characters: the tag is skipped")
