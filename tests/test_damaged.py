"""Damaged and hostile input: every case gives a clear located message, exit
1 or 2, no traceback, and every intact game after the damage is still read
and checked. Valid-but-unusual input validates with exit 0."""
import json
import pathlib
import subprocess
import sys
import threading

import pytest
from typer.testing import CliRunner

from mancala_cli.cli.commands import whole
from mancala_cli.files.encodings import KEPT_RUNS, decode_marking
from mancala_cli.files.sources import MAX_ENCODING_PROBLEMS

app = whole()

runner = CliRunner()
GOOD = '[Game "kingulu"]\n[Event "intact"]\n[Result "*"]\n\n1. c1x6 d2 2. e1 *\n'


def validate(data: bytes, *args):
    result = runner.invoke(app, ["validate", "--format", "json", *args, "-"], input=data)
    assert "Traceback" not in result.output
    games = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    return result, games


def text(data: bytes, *args):
    result = runner.invoke(app, ["validate", *args, "-"], input=data)
    assert "Traceback" not in result.output
    return result


def first_error(game):
    return next(p for p in game["problems"] if p["severity"] == "error")


def intact_last(games):
    last = games[-1]
    assert last["valid"] and last["plies"] == 3 and last["problems"] == []
    assert last["line"] > 1


@pytest.mark.parametrize("damage,line,column,code,words", [
    ('[Game "kingulu"]\n\n1. c1x6 {never closed\nd2 *\n', 3, 9, "syntax", "unterminated comment"),
    ('[Game "kingulu"]\n\n1. c1x6 (1. d1x6 d2\n', 3, 9, "syntax", "unterminated variation"),
    ('[Game "kingulu"\n\n1. c1x6 *\n', 1, 1, "syntax", "tag"),
    ('[Game "kingulu]\n\n1. c1x6 *\n', 1, 7, "syntax", "string"),
    ('[Game "kingulu"]\n\n1. c1x6 d2\n', 3, 11, "missing-result", "no result token"),
    ('[Game "kingulu"]\n[Result "*"]\n', 2, 13, "missing-result", "no result token"),
    ('[Game "kingulu"]\n\n1. c1x6 * some junk 1. c1\n', 3, 11, "syntax", "text after the result token"),
    ('[Game "kingulu"]\n[Setup "4,4,4,4,4,1000000000/4,4,4,4,4,4 S 0-0 1"]\n\n*\n', 2, 9, "bad-setup",
     "seeds do not add up"),
    ('[Game "kingulu"]\n[Setup "4,4,4,4,4,-4/4,4,4,4,4,4 S 0-0 1"]\n\n*\n', 2, 9, "bad-setup", "negative count"),
    ('[Game "kingulu"]\n[Setup "4,4,4,4,4,x/4,4,4,4,4,4 S 0-0 1"]\n\n*\n', 2, 9, "bad-setup", "not a number"),
])
def test_damage_is_located_and_the_next_game_survives(damage, line, column, code, words):
    result, games = validate((damage + "\n" + GOOD).encode())
    assert result.exit_code == 1
    assert len(games) == 2, result.stdout
    problem = first_error(games[0])
    assert (problem["line"], problem["column"], problem["rule"]) == (line, column, code)
    assert words in problem["message"]
    intact_last(games)
    # The text report names the same place.
    assert f"<stdin>:{line}:{column}: error: " in text((damage + "\n" + GOOD).encode()).stdout


def test_junk_between_games():
    data = (GOOD + "\nthis line is not PMN at all\n\n" + GOOD).encode()
    result, games = validate(data)
    assert result.exit_code == 1
    assert any(p["rule"] == "syntax" and p["line"] == 7 for g in games for p in g["problems"])
    intact_last(games)


def test_binary_bytes_and_invalid_utf8():
    data = GOOD.encode() + b"\n\x00\x01\x02\xff\xfe\x89PNG\r\n\x1a\n\n" + GOOD.encode()
    result, games = validate(data)
    assert result.exit_code == 1
    messages = [p["message"] for g in games for p in g["problems"]]
    assert any("byte offset" in m and "not valid utf-8" in m for m in messages)
    intact_last(games)
    bad = b'[Game "kingulu"]\n[Event "caf\xe9"]\n\n1. c1x6 *\n\n' + GOOD.encode()
    result = text(bad)
    assert result.exit_code == 1
    assert "<stdin>:2:12: error: encoding: bytes e9 at byte offset 28 are not valid utf-8" in result.stdout
    assert result.stdout.endswith("2 games, 4 moves, 1 error, 0 warnings\n")


def test_crlf_mixed_line_ends_and_bom_are_valid():
    crlf = (GOOD + "\n" + GOOD).replace("\n", "\r\n").encode()
    assert validate(crlf)[0].exit_code == 0
    mixed = GOOD.replace("\n", "\r\n", 2).replace("\n\n1.", "\r\r1.").encode()
    result, games = validate(mixed)
    assert result.exit_code == 0 and games[0]["plies"] == 3
    bom = b"\xef\xbb\xbf" + GOOD.encode()
    result, games = validate(bom)
    assert result.exit_code == 0 and games[0]["line"] == 1


def test_empty_file_and_blank_file():
    for data in (b"", b"\n\n  \n"):
        result = text(data)
        assert result.exit_code == 1
        assert "<stdin>:1:1: error: no-games: no game in the input" in result.stdout


def test_variations_nested_to_the_limit_are_valid_in_every_format():
    depth = 1000
    movetext = "1. c1x6 " + "(1. d1x6 " * depth + ")" * depth + " *"
    data = f'[Game "kingulu"]\n\n{movetext}\n'.encode()
    result, games = validate(data)
    assert result.exit_code == 0, result.stdout[:500]
    assert games[0]["plies"] == 1
    for target in ("json", "xml"):
        converted = runner.invoke(app, ["convert", "--to", target, "-"], input=data)
        assert converted.exit_code == 0, converted.output[:300]
        back = runner.invoke(app, ["convert", "--to", "pmn", "-"], input=converted.stdout_bytes)
        assert back.exit_code == 0 and back.stdout.count("(") == depth


def test_10000_deep_variations_are_reported_not_a_crash():
    depth = 10_000
    movetext = "1. c1x6 " + "(1. d1x6 " * depth + ")" * depth + " *"
    data = (f'[Game "kingulu"]\n\n{movetext}\n\n' + GOOD).encode()
    result, games = validate(data)
    assert result.exit_code == 1
    (problem,) = games[0]["problems"]
    assert (problem["line"], problem["column"], problem["rule"]) == (3, 9 + 9 * 1000, "syntax")
    assert "nested deeper than 1000 levels" in problem["message"]
    intact_last(games)


def test_huge_comment_is_valid():
    comment = "x" * (1 << 20)
    data = f'[Game "kingulu"]\n\n1. c1x6 {{{comment}}} *\n'.encode()
    result, games = validate(data)
    assert result.exit_code == 0 and games[0]["plies"] == 1


def test_100000_token_movetext_reports_the_first_bad_move():
    tokens = ["c1x6", "d2", "e1"] + ["a1"] * 99_997
    data = ('[Game "kingulu"]\n\n' + " ".join(tokens) + " *\n\n" + GOOD).encode()
    result, games = validate(data)
    assert result.exit_code == 1
    errors = [p for p in games[0]["problems"] if p["severity"] == "error"]
    assert games[0]["plies"] == 100_000
    assert (errors[0]["ply"], errors[0]["move"]) == (4, "a1")
    assert len(errors) == 1
    intact_last(games)


def test_bad_position_option_exits_2():
    for position in ("4,4,4,4,4,1000000000/4,4,4,4,4,4 S 0-0 1", "4,4,4,4,4,-4/4,4,4,4,4,4 S 0-0 1",
                     "4,4,4,4,4,x/4,4,4,4,4,4 S 0-0 1"):
        result = runner.invoke(app, ["moves", "--game", "kingulu", "--position", position])
        assert result.exit_code == 2 and result.output.startswith("mancala: error: bad position")


# -- an input with errors is never replaced without --force ---------------------------------------

DAMAGED = pathlib.Path(__file__).parent.parent / "examples" / "broken" / "damaged-records.pmn"
LATIN1 = GOOD.replace("intact", "caf\xe9").encode("latin-1")

#: Every writing command with an output option that names the input (``IN``).
WRITERS = [
    ["filter", "IN", "-o", "IN"],
    ["filter", "IN", "--dedupe", "--duplicates", "IN"],
    ["filter", "IN", "--dedupe", "--duplicates", "IN", "-o", "other.pmn"],
    ["convert", "IN", "--to", "pmn", "-o", "IN"],
    ["convert", "IN", "-o", "IN"],  # (the format from the name: pmn)
    ["annotate", "IN", "--time", "0.01", "-o", "IN"],
]


def mancala(args, cwd, stdin=None):
    return subprocess.run([sys.executable, "-m", "mancala_cli", *args], cwd=cwd, stdin=stdin,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("data", [DAMAGED.read_bytes(), LATIN1], ids=["unterminated-comment", "latin-1"])
@pytest.mark.parametrize("args", WRITERS, ids=lambda a: " ".join(a))
@pytest.mark.parametrize("stdin", [False, True], ids=["file", "stdin"])
def test_an_input_with_errors_is_not_replaced_without_force(tmp_path, data, args, stdin):
    path = tmp_path / "d.pmn"
    path.write_bytes(data)
    words = [("-" if stdin else "d.pmn") if w == "IN" and k == 1 else "d.pmn" if w == "IN" else w
             for k, w in enumerate(args)]
    with open(path, "rb") as handle:
        done = mancala(words, tmp_path, stdin=handle if stdin else subprocess.DEVNULL)
    assert "Traceback" not in done.stderr
    assert done.returncode == 2
    assert done.stderr.endswith("mancala: error: d.pmn: is an input with errors; not replaced (--force replaces it)\n")
    assert path.read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.pmn"]  # no other file, no temporary file
    with open(path, "rb") as handle:
        forced = mancala([*words, "--force"], tmp_path, stdin=handle if stdin else subprocess.DEVNULL)
    assert forced.returncode == 1, forced.stderr
    assert path.read_bytes() != data


def test_an_input_without_errors_may_be_replaced(tmp_path):
    path = tmp_path / "d.pmn"
    path.write_text(GOOD)
    with open(path, "rb") as handle:
        done = mancala(["filter", "-", "-o", "d.pmn"], tmp_path, stdin=handle)
    assert (done.returncode, done.stderr) == (0, "")
    assert path.read_text() == GOOD.replace("e1 *", "e1^ *")  # rewritten canonically (marks filled in)


def test_split_never_replaces_standard_input_nor_removes_it(tmp_path):
    parts = tmp_path / "parts"
    parts.mkdir()
    mine = parts / "00002.pmn"
    mine.write_text(GOOD + "\n" + GOOD)
    with open(mine, "rb") as handle:
        done = mancala(["split", "-", "--games", "1", "--out-dir", "parts"], tmp_path, stdin=handle)
    assert (done.returncode, done.stderr) == (2, "mancala: error: parts/00002.pmn: is an input file; not replaced\n")
    assert mine.read_text() == GOOD + "\n" + GOOD
    with open(mine, "rb") as handle:
        done = mancala(["split", "-", "--games", "2", "--out-dir", "parts"], tmp_path, stdin=handle)
    assert (done.returncode, done.stderr) == (0, "")
    assert mine.read_text() == GOOD + "\n" + GOOD  # not removed as a file of an earlier split


def test_render_does_not_replace_standard_input(tmp_path):
    path = tmp_path / "g.pmn"
    path.write_text(GOOD)
    with open(path, "rb") as handle:
        done = mancala(["render", "-", "-o", "g.pmn"], tmp_path, stdin=handle)
    assert (done.returncode, done.stderr) == (2, "mancala: error: g.pmn: is the input file; not replaced "
                                                 "(--force replaces it)\n")
    assert path.read_text() == GOOD


BINARIES = {
    "program": b"\x7fELF\x02\x01\x01" + bytes(9) + b"\x03\x00>\x00" + bytes(range(256)) * 40 + b"\n" * 50,
    "proof.txt.xz": None,  # (made from a shipped proof's bytes below)
    "image.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(1, 256)) * 30,
}


@pytest.mark.parametrize("name", sorted(BINARIES))
@pytest.mark.parametrize("words", [["validate"], ["stats"], ["filter"], ["convert", "--to", "json"],
                                   ["annotate", "--nodes", "10"]])
def test_binary_input_is_one_line_per_file(tmp_path, name, words):
    import pathlib

    data = BINARIES[name]
    if data is None:
        data = (pathlib.Path(__file__).resolve().parents[1] / "docs" / "kingulu-proof-e1.txt.xz").read_bytes()
    binary = tmp_path / name
    binary.write_bytes(data)
    good = tmp_path / "good.pmn"
    good.write_text(GOOD)
    result = runner.invoke(app, [*words, str(binary), str(good)])
    assert "Traceback" not in result.output
    assert result.exit_code in (1, 2)
    errors = [line for line in result.stderr.splitlines() if str(binary) in line]
    assert len(errors) == 1 and errors[0].startswith(f"mancala: error: {binary}: binary data, not records ("), \
        result.stderr
    assert str(binary) not in result.stdout and "\ufffd" not in result.stdout
    assert len(result.stdout.splitlines()) <= 10


def test_a_line_keeps_one_run_of_bad_bytes_more_than_a_game_reports():
    """``files.encodings`` keeps :data:`KEPT_RUNS` runs of bad bytes per line
    (it loads no record model, so it cannot read the figure from there): one
    more than the problems a game reports, so that the closing problem is given."""
    assert KEPT_RUNS == MAX_ENCODING_PROBLEMS + 1
    text, runs = decode_marking(b"a\xffb" * 500, "utf-8")
    assert text == "a\ufffdb" * 500 and len(runs) == KEPT_RUNS
    assert runs[:2] == [[1, 2], [4, 5]]
    # Adjacent bad bytes are one run (each byte still its own U+FFFD).
    assert decode_marking(b"\xff\xfe\xfdz", "utf-8") == ("\ufffd\ufffd\ufffdz", [[0, 3]])


def test_threads_that_decode_at_once_keep_their_own_runs_of_bad_bytes():
    """codecs' error handler is one for the process: the runs it finds are
    kept per thread, so that two threads reading damaged files at once (a
    library user's) each get the runs of their own line."""
    wrong = []

    def decode(k):
        raw = b"a\xff" * (k + 1) + b"z" * 50 + b"\xfe"
        want = [[2 * i + 1, 2 * i + 2] for i in range(k + 1)] + [[len(raw) - 1, len(raw)]]
        for _ in range(2000):
            text, runs = decode_marking(raw, "utf-8")
            if runs != want or text.count("\ufffd") != k + 2:
                wrong.append((k, runs))
                return

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # (threads switch as often as they can)
    try:
        threads = [threading.Thread(target=decode, args=(k,)) for k in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert wrong == []
