"""Hostile PMN given to the reader as strings: a tag value longer than the
limit is an error and is not held; floods of parentheses or of problems take
memory that does not grow with them."""
from __future__ import annotations

import subprocess
import sys
import textwrap

from notation.record import MAX_PROBLEMS, MAX_TAG_VALUE


def child(code: str, timeout: int = 60) -> str:
    """Run ``code`` in a fresh interpreter (bounded in time); its standard output."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr
    return done.stdout


def bounded(code: str) -> str:
    """The output of a child running ``code``, then ``True`` if its peak
    resident memory grew by less than 150 MB while it ran."""
    return child("import resource\nfrom notation.pmn_reader import read_games\n"
                 "base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n" + textwrap.dedent(code)
                 + "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base < 150_000)\n").rstrip("\n")


def test_a_huge_tag_value_is_an_error_and_not_held():
    out = bounded("""
        text = '[Game "kingulu"]\\n[Event "' + "e" * 4_000_000 + '"]\\n\\n*\\n'
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


def test_four_million_open_parentheses_take_bounded_memory():
    out = bounded("""
        text = '[Game "kingulu"]\\n\\n1. c1 ' + "(" * 4_000_000 + ' *\\n'
        (game,) = read_games(text)
        print(len(game.problems), game.problems[0].message, game.problems[-1].message)
    """)
    assert out == (f"{MAX_PROBLEMS + 2} unterminated variation: '(' opened here is never closed "
                   f"(3999999 more inside it) more than {MAX_PROBLEMS} syntax errors in this game; "
                   "the others are not reported\nTrue")


def test_floods_of_warnings_are_capped_like_syntax_errors():
    out = bounded("""
        text = '[Game "kingulu"]\\n\\n' + "1. " * 1_300_000 + '*\\n'
        (game,) = read_games(text)
        print(len(game.problems), {p.severity for p in game.problems}, game.problems[-1].message)
    """)
    assert out == (f"{MAX_PROBLEMS + 1} {{'warning'}} more than {MAX_PROBLEMS} warnings in this game; "
                   "the others are not reported\nTrue")


def test_the_tag_value_limit_counts_characters_as_meant():
    from notation.pmn_reader import read_game
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


# -- a game's text is bounded ------------------------------------------------------------------

import json  # noqa: E402

import pytest  # noqa: E402
from hypothesis import (  # noqa: E402
    given,
    settings,
    strategies as st,  # noqa: E402
)

import notation.pmn_reader as pmn_reader  # noqa: E402  (where the reader reads its bound)
from mancala_cli.files import batches as pipeline  # noqa: E402
from notation.pmn_reader import MAX_GAME_TEXT, read_games  # noqa: E402

TOO_LONG = (f"the game's text is longer than {MAX_GAME_TEXT:,} characters; the rest of it, up to a line that "
            "starts with '[' after a blank line, is not read")


def test_a_game_past_the_bound_is_one_error_and_the_next_game_is_read():
    line = ";" + "a" * 4000 + "\n"
    n = MAX_GAME_TEXT // len(line) + 1  # just over the bound
    text = ('[Game "kingulu"]\n\n1. c1x6 *\n\n[Game "kingulu"]\n\n1. c1x6 {\n' + line * n
            + "}\n*\n\n1. c1 *\n\n" + '[Game "kingulu"]\n\n1. c1x6 d2 *\n')
    games = list(read_games(text))
    assert [g.line for g in games] == [1, 5, n + 13]  # ("1. c1 *" after the blank line is passed over)
    crossing = 7 + (MAX_GAME_TEXT - len('[Game "kingulu"]\n\n1. c1x6 {\n')) // len(line) + 1
    assert [(p.code, p.line, p.column, p.message) for p in games[1].problems] == [
        ("game-too-long", crossing, 1, TOO_LONG)]
    assert games[0].problems == games[2].problems == []
    assert len(games[2].moves) == 2


def test_lines_that_never_end_a_game_take_bounded_memory_in_every_command():
    """100 MB of comment lines, of blank lines between games and inside an
    open comment: peak memory stays near that of a small input."""
    code = textwrap.dedent("""
        import sys
        w = sys.stdout.write
        w('[Game "kingulu"]\\n\\n1. c1x6 *\\n\\n')
        for line in (";" + "a" * 4000 + "\\n", " " * 4000 + "\\n", "{" + "a" * 4000 + "\\n"):
            w('[Game "kingulu"]\\n\\n1. c1x6' + (' *' if line[0] == ' ' else '') + '\\n')
            for _ in range(25 * 1024 * 1024 // len(line)):
                w(line)
            w("\\n")
        w('[Game "kingulu"]\\n\\n1. c1x6 d2 *\\n')
    """)
    for args in (["validate", "--jobs", "1"], ["validate", "--jobs", "2"], ["convert", "--to", "json"]):
        # (measured in a child of its own: the peak of its children is the command's)
        measure = textwrap.dedent(f"""
            import json, resource, subprocess, sys
            maker = subprocess.Popen([sys.executable, "-c", {code!r}], stdout=subprocess.PIPE)
            done = subprocess.run([sys.executable, "-m", "mancala_cli", *{args!r}, "-"], stdin=maker.stdout,
                                  capture_output=True, text=True, timeout=120)
            maker.wait()
            print(json.dumps([resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024, done.stdout,
                              done.stderr]))
        """)
        peak, stdout, stderr = json.loads(child(measure, timeout=180))
        done = subprocess.CompletedProcess(args, 0, stdout, stderr)
        assert peak < 100, (args, peak)
        assert "Traceback" not in done.stderr
        errors = [line for line in done.stderr.splitlines() + done.stdout.splitlines() if "game-too-long" in line]
        assert len(errors) == 2, (args, done.stderr[-2000:])  # the comment lines, the open comment
        if args[0] == "validate":
            assert done.stdout.endswith("5 games, 6 moves, 2 errors, 0 warnings\n"), done.stdout[-500:]


LINES = st.sampled_from(['[Game "kingulu"]', '[Event "x"] 1. c1 {', "", " ", "1. c1x6", "d2 *", "*", "{ a", "b }",
                         ";" + "c" * 30, "e1 (d1", ")", "[", "x" * 60, "1. c1 {a} d2 1-0", "\r", "a\rb"])


@settings(max_examples=300, deadline=None)
@given(st.lists(LINES, max_size=120), st.integers(40, 400), st.integers(1, 8))
def test_batches_give_the_games_and_errors_of_one_reading(lines, bound, size):
    """Cut into batches (and the rest of a game too long dropped there), the
    input gives the same games, problems and lines as read whole."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pmn_reader, "MAX_GAME_TEXT", bound)
        patch.setattr(pipeline, "MAX_GAME_TEXT", bound)
        patch.setattr(pipeline, "BATCH_CHARS", 50)
        raw = [line + "\n" for line in lines]
        whole = [(g.line, g.tags, g.result, [(p.code, p.line, p.column) for p in g.problems], len(g.moves))
                 for g in read_games(raw)]
        cut = [(g.line, g.tags, g.result, [(p.code, p.line, p.column) for p in g.problems], len(g.moves))
               for batch in pipeline.batches(raw, "pmn", "x", [], size=size)
               for g in pipeline.batch_records(batch)]
    assert cut == whole


def test_random_bytes_take_bounded_memory(tmp_path):
    """Bytes that are not text but have no control characters (random bytes
    from 32 to 255, newlines among them, so read as text with bad bytes, not
    refused as binary data): each game reports at most 101 encoding
    problems, and no more are held while it is read."""
    import random

    path = tmp_path / "noise.pmn"
    alphabet = bytes(range(32, 256)) + b"\n" * 8
    path.write_bytes(bytes(random.Random(5).choices(alphabet, k=4 << 20)))
    measure = textwrap.dedent(f"""
        import json, resource, subprocess, sys
        done = subprocess.run([sys.executable, "-m", "mancala_cli", "validate", "--jobs", "1", {str(path)!r}],
                              capture_output=True, text=True, timeout=120)
        print(json.dumps([resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024, done.returncode,
                          done.stdout.splitlines()[-1]]))
    """)
    peak, code, last = json.loads(child(measure, timeout=180))
    assert code == 1 and last.endswith("warnings") and "Traceback" not in last
    assert peak < 100, peak
