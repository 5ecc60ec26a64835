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
    # The lines of binary data are one problem (counted in the game before them); the next game is read.
    assert [[(p["line"], p["column"], p["rule"], p["message"]) for p in g["problems"]] for g in games] == [
        [(7, 1, "encoding", "binary data, not records: 2 lines (13 bytes from byte offset 68) passed over")], []]
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
        done = mancala(["render", "-", "-o", "g.pmn", "--format", "svg"], tmp_path, stdin=handle)
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


# -- binary data among good games -------------------------------------------------------------

#: Six good games, the damage between the third and the fourth.
SIX = [GOOD.replace('"intact"', f'"game {k}"') for k in range(1, 7)]
#: An executable's bytes as `cat a.pmn /bin/ls b.pmn` puts them: NULs and
#: control characters, some lines of plain text (with a parenthesis and a
#: brace that would open a variation and a comment), and no line break at
#: its end, so that the next file's first tag line follows on the same line.
PROGRAM = (b"\x7fELF\x02\x01\x01" + bytes(9) + b"\x03\x00>\x00" + bytes(range(256)) * 20
           + b"\nUsage: ls [OPTION]... (the current directory {by default}\n\n\x01\x02\x03\x04\x05\x06" + bytes(300))


def _six_with(damage: bytes) -> bytes:
    return "\n".join(SIX[:3]).encode() + b"\n" + damage + "\n".join(SIX[3:]).encode()


def test_binary_data_among_good_games_is_one_problem_and_the_six_games_are_read():
    data = _six_with(PROGRAM)
    start = len("\n".join(SIX[:3]).encode() + b"\n")
    line = "\n".join(SIX[:3]).count("\n") + 2
    lines = PROGRAM.count(b"\n") + 1  # (the last with the next game's first tag line)
    message = f"binary data, not records: {lines} lines ({len(PROGRAM):,} bytes from byte offset {start}) passed over"
    result, games = validate(data)
    assert result.exit_code == 1
    assert [(g["index"], g["valid"], g["plies"]) for g in games] == [(k, k != 3, 3) for k in range(1, 7)]
    assert games[2]["problems"] == [{"severity": "error", "line": line, "column": 1, "ply": None, "move": None,
                                     "rule": "encoding", "message": message}]
    # The lines after it keep their numbers (the reader counts a CR as a line end, in the damage too).
    assert [g["line"] for g in games[3:]] == [line + lines - 1 + PROGRAM.count(b"\r") + 6 * k for k in range(3)]
    shown = text(data)
    assert shown.stdout == f"<stdin>:{line}:1: error: encoding: {message}\n6 games, 18 moves, 1 error, 0 warnings\n"
    converted = runner.invoke(app, ["convert", "--to", "json", "-"], input=data)
    assert converted.exit_code == 1 and converted.stderr == f"<stdin>:{line}:1: error: encoding: {message}\n"
    assert [json.loads(row)["tags"]["Event"] for row in converted.stdout.splitlines()] == \
        [f"game {k}" for k in range(1, 7)]
    filtered = runner.invoke(app, ["filter", "-"], input=data)
    assert filtered.exit_code == 1 and filtered.stderr == f"<stdin>:{line}:1: error: encoding: {message}\n"
    assert [f'[Event "game {k}"]' in filtered.stdout for k in range(1, 7)] == [True] * 6
    assert "\ufffd" not in filtered.stdout + converted.stdout


@pytest.mark.skipif(not pathlib.Path("/bin/ls").is_file(), reason="no /bin/ls")
@pytest.mark.parametrize("words", [["validate"], ["convert", "--to", "json"], ["filter"]])
@pytest.mark.parametrize("before", [3, 300])
def test_cat_of_three_games_bin_ls_and_three_more_keeps_the_six_in_one_line_of_problems(tmp_path, words, before):
    path = tmp_path / "cat.pmn"
    path.write_bytes(("\n".join(SIX[:3] * (before // 3))).encode() + b"\n" + pathlib.Path("/bin/ls").read_bytes()
                     + "\n".join(SIX[3:]).encode())
    result = runner.invoke(app, [*words, str(path)])
    assert "Traceback" not in result.output and result.exit_code == 1
    problems = [line for line in (result.stdout + result.stderr).splitlines() if line.startswith(str(path))]
    assert len(problems) == 1 and ": error: encoding: binary data, not records: " in problems[0]
    if words == ["validate"]:
        assert result.stdout.splitlines()[-1].startswith(f"{before + 3} games, {3 * (before + 3)} moves, 1 error")
    else:
        assert all(f"game {k}" in result.stdout for k in range(4, 7))


def test_utf16_read_as_utf8_is_one_line_with_a_hint():
    for data in (GOOD.encode("utf-16-le"), GOOD.encode("utf-16")):
        result = text(data)
        assert (result.exit_code, result.stderr) == (2, "mancala: error: <stdin>: binary data, not records (a NUL "
                                                        "character in its first line; a NUL every other byte is "
                                                        "UTF-16: try --encoding utf-16)\n")
    assert text(GOOD.encode("utf-16"), "--encoding", "utf-16").exit_code == 0
    # Binary data that is not UTF-16 gets no hint.
    assert "UTF-16" not in text(BINARIES["program"]).stderr


def test_render_positions_of_binary_data_is_one_line(tmp_path):
    start = "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1\n"
    listing = tmp_path / "program"
    listing.write_bytes(BINARIES["program"])
    result = runner.invoke(app, ["render", "-g", "kingulu", "--positions", str(listing), "--out-dir",
                                 str(tmp_path / "out")])
    assert (result.exit_code, result.stderr) == (2, f"mancala: error: {listing}: binary data, not position strings "
                                                    "(a NUL character in its first line)\n")
    assert not (tmp_path / "out").exists()
    listing = tmp_path / "list.txt"
    listing.write_bytes((start * 3).encode() + PROGRAM + b"\n" + (start * 3).encode())
    result = runner.invoke(app, ["render", "-g", "kingulu", "--positions", str(listing), "--out-dir",
                                 str(tmp_path / "out")])
    assert (result.exit_code, result.stderr) == (1, f"{listing}:4: error: binary data, not text: 23 lines "
                                                    f"({len(PROGRAM) + 1:,} bytes from byte offset {3 * len(start)}) "
                                                    "passed over\n")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == \
        [".mancala-render"] + [f"pos-{k:04d}.svg" for k in (1, 2, 3, 28, 29, 30)]


def test_render_positions_tells_at_most_100_bad_lines(tmp_path):
    listing = tmp_path / "list.txt"
    listing.write_bytes(b"".join(b"%d,bad\n" % k for k in range(1, 301)))
    result = runner.invoke(app, ["render", "-g", "kingulu", "--positions", str(listing), "--out-dir",
                                 str(tmp_path / "out")])
    lines = result.stderr.splitlines()
    assert result.exit_code == 1 and len(lines) == 101
    assert lines[0].startswith(f"{listing}:1: error: bad position for kingulu: ")
    assert lines[100] == f"{listing}:101: error: more than 100 bad lines; the others are not reported"


# -- a damaged XML game keeps what comes before the damage, as a damaged PMN game does ------------

TOURNAMENT = pathlib.Path(__file__).parent.parent / "examples" / "kingulu-tournament.pmn"


def test_a_damaged_xml_game_keeps_its_tags_and_the_moves_before_the_damage(tmp_path):
    (tmp_path / "t.pmn").write_bytes(TOURNAMENT.read_bytes())
    assert mancala(["convert", "t.pmn", "-o", "t.xml"], tmp_path).returncode == 0
    lines = (tmp_path / "t.xml").read_text().split("\n")
    assert lines[19] == '      <move hole="f1" number="3" dots="."/>'  # 3. f1 of the first game
    lines[19] = '      <move hole="z9" number="3" dots="."/>'
    (tmp_path / "bad.xml").write_text("\n".join(lines))
    validated = mancala(["validate", "bad.xml"], tmp_path)
    assert (validated.returncode, validated.stderr) == (1, "")
    # One error, where the <move starts (line 20, column 7); no unknown-game: the game keeps its Game tag.
    assert validated.stdout == ("bad.xml:20:7: error: syntax: move 'z9' is not a hole\n"
                                "4 games, 94 moves, 1 error, 0 warnings\n")
    intact = mancala(["convert", "t.xml", "--to", "json"], tmp_path).stdout.splitlines()
    converted = mancala(["convert", "bad.xml", "--to", "json", "-o", "bad.jsonl"], tmp_path)
    assert (converted.returncode, converted.stderr) == (1, "bad.xml:20:7: error: syntax: move 'z9' is not a hole\n")
    records = (tmp_path / "bad.jsonl").read_text().splitlines()
    first = json.loads(intact[0])
    assert [m["move"] for m in first["moves"][:5]] == ["c1", "d2", "a1", "a2", "f1"]
    first["moves"], first["result"] = first["moves"][:4], None  # the moves before 3. z9; <result> follows it
    assert records[0] == json.dumps(first, ensure_ascii=False)
    assert json.loads(records[0])["tags"]["Game"] == "kingulu"
    assert records[1:] == intact[1:]
    as_pmn = mancala(["convert", "bad.xml", "--to", "pmn"], tmp_path)
    assert as_pmn.returncode == 1
    games = as_pmn.stdout.split("\n\n[Game ")
    assert games[0] == ('[Game "kingulu"]\n[Event "Morogoro kingulu cup"]\n[Site "Morogoro"]\n[Date "2026.11.14"]\n'
                        '[Round "1"]\n[South "Amani"]\n[North "Baraka"]\n[Result "0-1"]\n[Score "22-26"]\n\n'
                        '1. c1x6 d2 2. a1x1 a2^ *')
    assert games[1:] == mancala(["convert", "t.xml", "--to", "pmn"], tmp_path).stdout.split("\n\n[Game ")[1:]
