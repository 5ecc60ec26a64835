"""Reading inputs: game numbers across batches, one way to read a file for
every command, encodings (UTF-16/32, refused codecs), bounded lines and
problems, tagless games cut into batches."""
import io
import json
import os
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from mancala_cli import get_game
from mancala_cli.batch.pipeline import Options
from mancala_cli.cli.commands import whole
from mancala_cli.files.batches import batches, process_batch
from mancala_cli.files.sources import MAX_LINE, Source
from mancala_cli.random_records import random_game
from notation.pmn_writer import write_game
from notation.record import MAX_PROBLEMS

app = whole()

runner = CliRunner()
GOOD = '[Game "kingulu"]\n[Event "intact"]\n[Result "*"]\n\n1. c1x6 d2 2. e1 *\n'


def mancala(*args, data: bytes | None = None, timeout: float = 60, limit: int | None = None):
    """The command in a child process (a hang ends at ``timeout``; ``limit``
    bounds its address space)."""
    def bound():
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return subprocess.run([sys.executable, "-m", "mancala_cli", *args], input=data, capture_output=True,
                          timeout=timeout, preexec_fn=bound if limit else None)


def games_text(n: int, seed: int = 3, tags: bool = True) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        text = write_game(random_game(get_game("kingulu"), rng, 30))
        if not tags:
            text = text.split("\n\n", 1)[1]
        out.append(text)
    return out


# -- game numbers ---------------------------------------------------------------------


def test_xml_conversion_error_names_the_game_by_its_number_in_the_file(tmp_path):
    games = games_text(300)
    games[249] = games[249].replace("1. ", "1. {bad \x01 char} ", 1)
    pmn = tmp_path / "many.pmn"
    pmn.write_text("\n".join(games), encoding="utf-8")
    jsonl = tmp_path / "many.jsonl"
    jsonl.write_bytes(runner.invoke(app, ["convert", str(pmn), "--to", "json"]).stdout_bytes)
    line = 1 + sum(g.count("\n") + 1 for g in games[:249])
    result = runner.invoke(app, ["convert", str(pmn), "--to", "xml"])
    assert result.exit_code == 1
    assert result.stderr == (f"{pmn}:{line}:0: error: unwritable: game 250: comment before move 'c1': "
                             "character U+0001 is not allowed\n")
    # The JSON reader refuses the character where it reads it: game 250, on line 250.
    report = runner.invoke(app, ["validate", "--format", "json", str(jsonl)]).stdout.splitlines()
    bad = [json.loads(text) for text in report if not json.loads(text)["valid"]]
    assert [(game["index"], game["line"]) for game in bad] == [(250, 250)]


def test_records_are_numbered_once_for_every_format(tmp_path):
    games = games_text(250)
    pmn = tmp_path / "many.pmn"
    pmn.write_text("\n".join(games), encoding="utf-8")
    jsonl = tmp_path / "many.jsonl"
    jsonl.write_bytes(runner.invoke(app, ["convert", str(pmn), "--to", "json"]).stdout_bytes)
    for path in (pmn, jsonl):
        out = runner.invoke(app, ["validate", "--format", "json", str(path), str(path)]).stdout
        assert [json.loads(line)["index"] for line in out.splitlines()] == list(range(1, 251)) * 2


# -- render reads like validate -----------------------------------------------------------


def test_render_gives_a_bad_byte_to_the_game_whose_line_holds_it(tmp_path):
    path = tmp_path / "two.pmn"
    path.write_bytes(b'[Game "kingulu"]\n[Result "*"]\n\n1. c1x6 *\n\n[Event "caf\xe9"]\n[Game "kingulu"]\n\n*\n')
    first = runner.invoke(app, ["render", str(path), "--format", "text", "--index", "1"])
    assert (first.exit_code, first.stderr) == (0, "")
    second = runner.invoke(app, ["render", str(path), "--format", "text", "--index", "2"])
    assert second.exit_code == 1
    assert second.stderr == f"{path}:6:12: error: encoding: bytes e9 at byte offset 53 are not valid utf-8\n"


# -- XML sniffing, UTF-16 and UTF-32 ----------------------------------------------------------


@pytest.fixture(scope="module")
def village(tmp_path_factory):
    root = tmp_path_factory.mktemp("village")
    source = __import__("pathlib").Path(__file__).resolve().parents[1] / "examples" / "kingulu-village-match.pmn"
    xml = runner.invoke(app, ["convert", str(source), "--to", "xml"]).stdout
    return root, source, xml


def test_utf16_xml_is_read_as_xml(village):
    root, source, xml = village
    path = root / "utf16.xml"
    path.write_bytes(xml.replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16"))
    expected = runner.invoke(app, ["convert", str(source), "--to", "pmn"])
    result = runner.invoke(app, ["convert", str(path), "--to", "pmn"])
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == expected.stdout


def test_utf32_xml_is_refused_clearly(village):
    root, _, xml = village
    path = root / "utf32.xml"
    path.write_bytes(xml.replace('encoding="UTF-8"', 'encoding="UTF-32"').encode("utf-32"))
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 2
    assert result.stderr == f"mancala: error: {path}: XML in UTF-32 is not read (use UTF-8 or UTF-16)\n"
    assert result.stdout == "0 games, 0 moves, 1 error, 0 warnings\n"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"])
def test_pmn_and_json_in_utf16_and_utf32(tmp_path, encoding):
    text = "\n".join(games_text(3)).replace("\n", "\r\n", 5)
    text = text.replace("1. ", "1. {caf\u00e9 \U0001f600} ", 1).replace("2. ", "2. zz ", 1)
    pmn = tmp_path / "games.pmn"
    pmn.write_text(text, encoding=encoding, newline="")
    utf8 = tmp_path / "utf8.pmn"
    utf8.write_text(text, encoding="utf-8", newline="")
    expected = runner.invoke(app, ["validate", "--format", "json", str(utf8)]).stdout.replace(str(utf8), "F")
    result = runner.invoke(app, ["validate", "--format", "json", "--encoding", encoding, str(pmn)])
    assert result.stdout.replace(str(pmn), "F") == expected
    assert '"rule": "syntax"' in expected
    jsonl = runner.invoke(app, ["convert", str(utf8), "--to", "json"]).stdout
    (tmp_path / "games.jsonl").write_text(jsonl, encoding=encoding)
    result = runner.invoke(app, ["convert", "--encoding", encoding, str(tmp_path / "games.jsonl"), "--to", "json"])
    assert result.stdout == jsonl


def test_utf16_bad_bytes_keep_their_byte_offset(tmp_path):
    path = tmp_path / "bad.pmn"
    data = GOOD.encode("utf-16-le")
    at = data.index("intact".encode("utf-16-le"))
    path.write_bytes(b"\xff\xfe" + data[:at] + b"\x00\xd8" + data[at:])
    result = runner.invoke(app, ["validate", "--encoding", "utf-16", str(path)])
    assert result.stdout == (f"{path}:2:9: error: encoding: bytes 00 d8 at byte offset {at + 2} "
                             "are not valid utf-16\n"
                             "1 game, 3 moves, 1 error, 0 warnings\n")


@pytest.mark.parametrize("name", ["rot13", "base64", "hex", "zlib_codec", "uu", "bz2", "undefined", "punycode",
                                  "idna", "unicode_escape"])
@pytest.mark.parametrize("command", [["validate"], ["convert", "--to", "json"], ["render"]])
def test_only_text_encodings_are_accepted(tmp_path, name, command):
    path = tmp_path / "g.pmn"
    path.write_text(GOOD, encoding="utf-8")
    result = runner.invoke(app, [*command, "--encoding", name, str(path)])
    assert (result.exit_code, result.stdout, result.stderr) == \
        (2, "", f"mancala: error: {name!r} is not a text encoding\n")


# -- bounded lines and problems --------------------------------------------------------------


def test_a_long_line_of_bad_bytes_is_read_in_linear_time_with_capped_problems():
    line = b"\xff \xfe\xfd " * 200_000  # 400,000 runs of bad bytes, 1 MB
    result = mancala("validate", "-", data=GOOD.encode() + b"\n" + line + b"\n", timeout=30)
    lines = result.stdout.decode().splitlines()
    encoding = [text for text in lines if ": encoding: " in text]
    assert len(encoding) == MAX_PROBLEMS + 1
    assert encoding[0] == "<stdin>:7:1: error: encoding: bytes ff at byte offset 68 are not valid utf-8"
    assert encoding[1] == "<stdin>:7:3: error: encoding: bytes fe fd at byte offset 70 are not valid utf-8"
    assert encoding[-1] == (f"<stdin>:7:251: error: encoding: more than {MAX_PROBLEMS} encoding errors "
                            "in this game; the others are not reported")
    assert lines[-1] == "2 games, 3 moves, 204 errors, 0 warnings"
    assert result.returncode == 1


def test_a_line_longer_than_the_limit_ends_the_input():
    data = GOOD.encode() + b"\n" + GOOD.encode() + b"{" + b"x" * MAX_LINE + b"}\n\n" + GOOD.encode()
    result = mancala("validate", "-", data=data, timeout=30)
    assert result.stdout.decode() == (
        f"<stdin>:12:1: error: line-too-long: the line is longer than {MAX_LINE} bytes; "
        "the rest of the input is not read\n"
        "2 games, 6 moves, 1 error, 0 warnings\n")
    assert result.returncode == 1


def test_dev_zero_is_one_error_line():
    """Binary data: one line, from its first block."""
    result = mancala("validate", "/dev/zero", timeout=30, limit=1 << 30)
    assert result.stderr == b"mancala: error: /dev/zero: binary data, not records (a NUL character in its first line)\n"
    assert result.stdout.decode() == "0 games, 0 moves, 1 error, 0 warnings\n"
    assert result.returncode == 2


# -- tagless games in batches, bounded pieces ---------------------------------------------------------------


def _read_in(lines, size):
    options = Options("validate", "json", "kingulu")
    pending = []
    return [(r.out, r.moves) for b in batches(iter(lines), "pmn", "f", pending, size)
            for r in process_batch(options, b)], pending


TRICKY = [
    "1. c1x6 { a comment\n\nspanning a blank line * } d2 *\n\n",
    "1. c1x6 (1. d1 *) d2\n\n2. e1 *\n\n",
    "1. c1x6 d2 ; 1-0 in a line comment\n\n2. e1 1-0\n\n",
    "* {open after the result\n\n}\n\n",
    "1. c1x6\n[Event \"x\"]\n\n*\n\n",
    "1. c1x6 d2\n\n\n",
    "0-1 trailing junk\n\n",
    "1. c1x6 d2 2. e1 1/2-1/2\r\n\r\n",
]


def test_tagless_games_are_cut_into_batches_with_identical_results():
    rng = random.Random(5)
    parts = games_text(40, tags=False) + TRICKY * 10
    rng.shuffle(parts)
    lines = io.StringIO("\n".join(parts), newline="").readlines()
    whole, _ = _read_in(lines, 10 ** 9)
    for size in (1, 2, 3, 7, 50):
        cut = list(batches(iter(lines), "pmn", "f", [], size))
        assert len(cut) > 1
        assert _read_in(lines, size)[0] == whole


def test_tagless_games_keep_memory_flat():
    games = "".join(f"{i % 9 + 1}. c1x6 d2 *\n\n" for i in range(3000))
    cut = list(batches(io.StringIO(games), "pmn", "f", [], 100))
    assert max(len(b.lines) for b in cut) <= 2 * 100 + 2
    assert sum(len(b.lines) for b in cut) == 6000


def test_a_file_with_cr_line_ends_alone_is_read_line_by_line():
    """Old Mac files end their lines with CR alone: they are split there, so
    a bad byte is told at its own line, in its own game, as in the same file
    with LF line ends (it was told at line 1, in the first game)."""
    lf = GOOD.encode() + b"\n" + GOOD.replace("intact", "caf!").encode().replace(b"!", b"\xff")
    cr = lf.replace(b"\n", b"\r")
    done = {name: mancala("validate", "--format", "json", "-", data=data) for name, data in (("lf", lf), ("cr", cr))}
    assert done["cr"].stdout == done["lf"].stdout and done["cr"].returncode == done["lf"].returncode == 1
    games = [json.loads(line) for line in done["cr"].stdout.decode().splitlines()[:2]]
    assert [g["valid"] for g in games] == [True, False]
    assert [(p["line"], p["column"], p["rule"]) for p in games[1]["problems"]] == [(8, 12, "encoding")]


def test_cr_line_ends_are_lines_to_the_length_limit():
    """A file of short lines with CR line ends, longer than a line may be:
    every line is read (it was one line past the limit, and refused)."""
    source = Source("x", io.BytesIO((b"a" * 1000 + b"\r") * (MAX_LINE // 1000 + 5)))
    lines = list(source.lines())
    assert len(lines) == MAX_LINE // 1000 + 5 and lines[0] == "a" * 1000 + "\r" and source.problems == []


def test_source_lines_are_bounded_pieces():
    source = Source("x", io.BytesIO(b"a" * (MAX_LINE + 1) + b"\nb\n"))
    assert list(source.lines()) == []
    assert [(p.code, p.line) for p in source.problems] == [("line-too-long", 1)]


PIECES = ["1.", "c1x6", "d2", "*", "1-0", "0-1", "1/2-1/2", "{", "}", "{a}", ";", "(", ")", "$1", "junk",
          '[Game "kingulu"]', "[Result \"*\"]", "\ufeff", "\r", " "]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.lists(st.sampled_from(PIECES), max_size=5).map(" ".join), max_size=40),
       st.integers(1, 4))
def test_any_cut_gives_the_same_games(lines, size):
    lines = [line + "\n" for line in lines]
    assert _read_in(lines, size)[0] == _read_in(lines, 10 ** 9)[0]


@pytest.mark.skipif(not os.path.exists("/usr/bin/time"), reason="needs GNU time")
def test_memory_stays_flat_for_many_games_without_tags(tmp_path):
    def peak(games: int) -> int:
        path = tmp_path / f"{games}.pmn"
        path.write_text("1. c1x6 d2 *\n\n" * games, encoding="utf-8")
        run = subprocess.run(["/usr/bin/time", "-f", "%M", sys.executable, "-m", "mancala_cli", "validate", "-q",
                              "--game", "kingulu", str(path)], capture_output=True, timeout=120)
        assert run.returncode == 0 and run.stdout == b""
        return int(run.stderr.split()[-1])  # KB
    assert peak(16000) - peak(4000) < 8000
