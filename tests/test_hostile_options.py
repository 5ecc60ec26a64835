"""Hostile option values: a ``--tag`` expression nested very deep or one
that backtracks without bound, a ``--style`` file that an SVG cannot hold or
that never ends. Each is one line on standard error and exit 2 (or, for a
slow expression, the right answer), never a traceback, a hang or memory
that grows with the input."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import warnings

import pytest
from typer.testing import CliRunner

from mancala_cli import MancalaError, read
from mancala_cli.archives import criteria
from mancala_cli.cli.commands import whole

app = whole()

runner = CliRunner()
LONG_EVENT = "a" * 9000 + "!"
GAME = f'[Game "kingulu"]\n[Event "{LONG_EVENT}"]\n\n1. c1 *\n'


def run(*args, input=None):
    result = runner.invoke(app, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output
    return result


def mancala(*args: str, timeout: float = 20) -> subprocess.CompletedProcess:
    """The command in a process of its own, bounded in time and memory."""
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "
            "from mancala_cli.cli import main; sys.argv = ['mancala', *sys.argv[1:]]; main()")
    with subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, start_new_session=True) as child:
        try:
            out, err = child.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)  # the command and its workers
            child.communicate()
            raise
    return subprocess.CompletedProcess(child.args, child.returncode, out, err)


def test_a_tag_expression_nested_five_hundred_deep_is_one_line(tmp_path):
    path = tmp_path / "g.pmn"
    path.write_text(GAME)
    pattern = "(" * 500 + ")" * 500
    result = run("filter", path, "--tag", f"Event={pattern}")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (f"mancala: error: --tag: {('Event=' + pattern)[:57]!r}...: bad regular expression: "
                             "nested too deeply\n")


@pytest.mark.parametrize("pattern", [r"^(a+)+$", r"(a*)*\1b"])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_catastrophic_tag_expressions_end_quickly_with_one_line_or_the_answer(tmp_path, pattern, jobs):
    path = tmp_path / "g.pmn"
    path.write_text(GAME + "\n" + GAME.replace("!", ""))
    done = mancala("filter", str(path), "--tag", f"Event={pattern}", "--jobs", jobs, "--count", timeout=15)
    assert "Traceback" not in done.stderr
    if done.returncode == 0:  # matched within the limit: the right answer (as re gives it on short values)
        import re
        expected = sum(re.search(pattern, value) is not None for value in ("a" * 12 + "!", "a" * 12))
        assert (done.stdout, done.stderr) == (f"{expected}\n", "")
    else:
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr.startswith(f"mancala: error: --tag: 'Event={pattern}': the regular expression ran "
                                      "longer than 1 s on the Event tag of the game at ")
        assert done.stderr.count("\n") == 1


def test_an_expression_past_the_time_limit_stops_the_command_and_writes_no_file(tmp_path, monkeypatch):
    monkeypatch.setattr(criteria, "REGEX_SECONDS", 0.01)
    path = tmp_path / "g.pmn"
    path.write_text('[Game "kingulu"]\n[Event "b"]\n\n1. c1 *\n\n' + GAME)
    out = tmp_path / "out.pmn"
    result = run("filter", path, "--tag", "Event=^(a|aa)+$", "-o", out, "--jobs", "1")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (f"mancala: error: --tag: 'Event=^(a|aa)+$': the regular expression ran longer than "
                             f"0.01 s on the Event tag of the game at {path}:6; stopped (it backtracks without "
                             "bound: write it without nested repetition or back-references)\n")
    assert not out.exists()


def test_tag_expressions_still_match_as_python_re_does(tmp_path):
    path = tmp_path / "g.pmn"
    path.write_text('[Game "kingulu"]\n[Event "Cup 2021"]\n\n1. c1 *\n\n[Game "kingulu"]\n[Event "cup"]\n\n1. c1 *\n')
    for pattern, count in [(r"^Cup \d{4}$", 1), (r"(?i)^cup", 2), (r"(c)u\1", 0), (r"\bcup\b", 1)]:
        result = run("filter", path, "--tag", f"Event={pattern}", "--count")
        assert (result.exit_code, result.stdout) == (0, f"{count}\n"), pattern


@pytest.mark.parametrize("data, message", [
    (b"a{}\0", "the character U+0000 at byte offset 3 cannot be written in an SVG (XML)"),
    (b"x\x01", "the character U+0001 at byte offset 1 cannot be written in an SVG (XML)"),
    ("/* é */ \ufffe".encode(), "the character U+FFFE at byte offset 9 cannot be written in an SVG (XML)"),
    (b"x" * (archives_max := 1 << 20) + b"x", f"longer than {archives_max:,} bytes"),
])
def test_a_style_an_svg_cannot_hold_is_one_line(tmp_path, data, message):
    style = tmp_path / "s.css"
    style.write_bytes(data)
    game = tmp_path / "g.pmn"
    game.write_text('[Game "kingulu"]\n\n1. c1 *\n')
    result = run("render", game, "--style", style, "-o", tmp_path / "out.svg")
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"mancala: error: {style}: cannot read: {message}\n")
    assert not (tmp_path / "out.svg").exists()


def test_a_style_that_never_ends_is_one_line_in_bounded_memory(tmp_path):
    game = tmp_path / "g.pmn"
    game.write_text('[Game "kingulu"]\n\n1. c1 *\n')
    done = mancala("render", str(game), "--style", "/dev/zero")
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", "mancala: error: /dev/zero: cannot read: longer than 1,048,576 bytes\n")


# -- regular expressions: bounded before they are compiled, one line when refused ---------------------------------

#: A set of 9,900 characters (within --where's 10,000), copied 99,000 times: 99,000 items counted one a copy, about
#: 4 GB and 13 s compiled (a MemoryError in 1 GiB).
CJK_SET = "[" + "".join(chr(0x4E00 + i) for i in range(9900)) + "]"


@pytest.mark.parametrize("pattern", ["(a{65535}){65535}", "a{4294967294}", "((a{1000}){1000}){1000}",
                                     "(a{1000}){1000}", pytest.param(f"(?:{CJK_SET}{{1000}}){{99}}", id="cjk-set")])
@pytest.mark.parametrize("option", ["--tag", "--where"])
def test_a_pattern_that_would_compile_into_gigabytes_is_refused_in_bounded_memory(tmp_path, pattern, option):
    path = tmp_path / "g.pmn"
    path.write_text(GAME)
    value = f"Event={pattern}" if option == "--tag" else f'tag.Event ~ "{pattern}"'
    started = time.monotonic()
    done = mancala("filter", str(path), option, value, "--count", timeout=15)  # (1 GiB of address space)
    assert time.monotonic() - started < 5
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"mancala: error: {option}: ") and done.stderr.count("\n") == 1
    assert "bad regular expression: " in done.stderr and "Error" not in done.stderr


def test_a_set_counts_by_its_size():
    assert criteria.checked_regex(f"{CJK_SET}{{400}}").search("\u4e00" * 400)
    with pytest.raises(criteria.BadCriterion) as refused:
        criteria.checked_regex(f"(?:{CJK_SET}{{1000}}){{99}}")
    assert str(refused.value) == ("bad regular expression: with its repetitions written out it has 19,701,000 items, "
                                  "more than 100,000")
    with pytest.raises(criteria.BadCriterion) as refused:  # (each range about 120 bytes a copy)
        criteria.checked_regex("(?:[a-bd-eg-hj-k]{1000}){30}")
    assert str(refused.value) == ("bad regular expression: with its repetitions written out it has 150,000 items, "
                                  "more than 100,000")
    assert criteria.checked_regex("[A-Za-z0-9_]{1000}").search("a" * 1000)


@pytest.mark.parametrize("pattern, reason", [
    ("a{99999999999999999999}", "a repetition count is at most 1000"),
    ("a{1001}", "a repetition count is at most 1000, not 1001"),
    ("a{2,5000}", "a repetition count is at most 1000, not 5000"),
    ("(a{400}){400}", "with its repetitions written out it has 160,000 items, more than 100,000"),
    ("[[:alpha:]]", "possible nested set (re and the regex package that matches it read it differently: write the "
                    "character escaped, as \\[ or \\-) at position 1"),
    ("[a--b]", "possible set difference (re and the regex package that matches it read it differently: write the "
               "character escaped, as \\[ or \\-) at position 2"),
])
def test_a_pattern_past_the_bounds_or_read_two_ways_is_one_line_and_no_warning(tmp_path, pattern, reason):
    path = tmp_path / "g.pmn"
    path.write_text(GAME)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (a warning printed would fail here)
        result = run("filter", path, "--tag", f"Event={pattern}", "--count")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"mancala: error: --tag: {'Event=' + pattern!r}: bad regular expression: {reason}\n"


def test_patterns_within_the_bounds_still_match(tmp_path):
    path = tmp_path / "g.pmn"
    path.write_text(GAME + "\n" + GAME.replace("!", ""))
    for pattern, count in [("a{1000}", 2), ("^(?:a{90}){100}!$", 1), ("^(a{300}){30}$", 1), (r"[\[]", 0)]:
        result = run("filter", path, "--tag", f"Event={pattern}", "--count")
        assert (result.exit_code, result.stdout, result.stderr) == (0, f"{count}\n", ""), pattern


@pytest.mark.parametrize("command", [["stats"], ["validate"], ["split", "--games", "1", "--out-dir", "parts"],
                                     ["filter", "--count"]])
def test_a_where_pattern_past_the_time_limit_is_one_line_in_every_command(tmp_path, monkeypatch, command):
    monkeypatch.setattr(criteria, "REGEX_SECONDS", 0.01)
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "g.pmn"
    path.write_text(GAME)
    result = run(*command, path, "--where", 'tag.Event ~ "^(a|aa)+$"', "--jobs", "1")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (f"mancala: error: --where: 'Event=^(a|aa)+$': the regular expression ran longer than "
                             f"0.01 s on the Event tag of the game at {path}:1; stopped (it backtracks without "
                             "bound: write it without nested repetition or back-references)\n")
    assert not (tmp_path / "parts" / "00001.pmn").exists()


def test_a_time_out_is_a_mancala_error(tmp_path, monkeypatch):
    monkeypatch.setattr(criteria, "REGEX_SECONDS", 0.01)
    path = tmp_path / "g.pmn"
    path.write_text(GAME)
    with pytest.raises(MancalaError, match="the regular expression ran longer than 0.01 s"):
        list(read(str(path), where='tag.Event ~ "^(a|aa)+$"'))
