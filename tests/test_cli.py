"""The command line: outputs, exit statuses, one-line errors."""
import json
import pathlib

import pytest
from lxml import etree
from typer.testing import CliRunner

from mancala_cli.cli.commands import whole

app = whole()

ROOT = pathlib.Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, [str(a) for a in args], input=input)


def test_version_and_help_examples():
    from mancala_cli import CORE

    assert run("--version").output == f"mancala 0.1.0 ({CORE} core)\n"
    for command in ("games", "moves", "perft", "random", "validate", "convert", "render", "filter", "split", "stats",
                    "solve", "annotate", "lsp"):
        result = run(command, "--help")
        assert result.exit_code == 0 and "Example: mancala " + command in result.output


def test_games_text_and_json():
    lines = run("games", "--format", "json").output.splitlines()
    rows = [json.loads(line) for line in lines]
    assert [r["id"] for r in rows] == ["kimasai-mackay", "kimasai-klamroth", "kingulu"]
    assert [r["board"] for r in rows] == ["4x8", "4x12", "2x6"]
    assert run("games").output.startswith("kimasai-mackay    Bao la Kimasai (MacKay)")


def test_moves_and_perft():
    assert run("moves", "--game", "kingulu").output == "c1x6\nd1x6\ne1\nf1\n"
    assert run("moves", "--game", "kimasai-klamroth", "--coords", "numeric").output == "14x2\n"
    result = run("perft", "--game", "kingulu", "--depth", "3")
    assert result.output.splitlines() == ["c1x6: 14", "d1x6: 10", "e1: 10", "f1: 16", "50"]
    assert run("perft", "--game", "kimasai-klamroth", "--depth", "0").output == "1\n"


@pytest.mark.parametrize("args,message", [
    (("moves", "--game", "chess"), "unknown game 'chess'"),
    (("moves", "--game", "kingulu", "--position", "4,4 S 0-0 1"),
     "bad position for kingulu: 1 rows of holes, kingulu has 2 rows of 6"),
    (("perft", "--game", "kingulu", "--depth", "2", "--position", "4,4,4,4,4,4/4,4,4,4,4,9 S 0-0 1"),
     "seeds do not add up"),
    (("validate", "no-such-file.pmn"), "no-such-file.pmn: cannot open"),
    (("render", "--position", "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1"), "--position needs --game"),
])
def test_bad_input_gives_one_line_and_exit_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert len([line for line in result.output.splitlines() if line.startswith("mancala: error:")]) == 1


def test_random_is_reproducible_and_valid(tmp_path):
    first = run("random", "--game", "kimasai-mackay", "-n", "3", "--seed", "5").output
    assert first == run("random", "--game", "kimasai-mackay", "-n", "3", "--seed", "5").output
    assert first.count('[Game "kimasai-mackay"]') == 3
    path = tmp_path / "games.pmn"
    path.write_text(first, encoding="utf-8")
    result = run("validate", path)
    assert result.exit_code == 0
    assert result.output.endswith(" 0 errors, 0 warnings\n")
    capped = run("random", "--game", "kingulu", "--seed", "1", "--max-plies", "3").output
    assert capped.endswith("[Result \"*\"]\n\n1. d1x6 d2x10 2. a1 *\n")


def test_validate_examples_and_broken_file():
    files = sorted(str(p) for p in EXAMPLES.glob("*.pmn"))
    result = run("validate", *files)
    assert result.exit_code == 0, result.output
    assert result.output.endswith("0 errors, 0 warnings\n")
    broken = EXAMPLES / "broken" / "damaged-records.pmn"
    result = run("validate", broken)
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[-1] == "3 games, 16 moves, 5 errors, 0 warnings"
    assert lines[0].endswith("7:28: error: 3. d1x2: bad-mark: d1x2: the move takes 0 (d1)")
    assert ":13:20: error: syntax: unterminated comment" in lines[2]
    assert lines[4].endswith("20:22: error: 3. i2: bad-hole: 'i2' is not a hole of the 4 × 8 board")
    quiet = run("validate", "--quiet", broken)
    assert quiet.exit_code == 1 and quiet.output.splitlines() == lines[:-1]
    warned = "[Game \"kingulu\"]\n\n3. c1x6 *\n"
    assert run("validate", "-", input=warned).exit_code == 0
    strict = run("validate", "--strict", "-", input=warned)
    assert strict.exit_code == 1
    assert strict.output.startswith("<stdin>:3:4: error: 1. c1x6: move-number: move number 3. does not match")


def test_validate_json_shape_and_stdin():
    text = (EXAMPLES / "broken" / "damaged-records.pmn").read_text(encoding="utf-8")
    result = run("validate", "--format", "json", "-", input=text)
    games = [json.loads(line) for line in result.output.splitlines()]
    assert [g["index"] for g in games] == [1, 2, 3]
    assert [g["line"] for g in games] == [1, 9, 16]
    first = games[0]
    assert (first["file"], first["game"], first["plies"], first["valid"]) == ("<stdin>", "kingulu", 8, False)
    illegal = first["problems"][1]
    assert illegal == {"severity": "error", "line": 7, "column": 42, "ply": 8, "move": "c1",
                       "rule": "KG-ORIGIN", "message": "c1 is not one of N's holes",
                       "position": "0,1,1,4,0,7*/0,11,1,1,0,4 N 7-11 4", "legal": ["b2", "d2"]}


def test_validate_game_option_for_records_without_game_tag():
    assert run("validate", "-", input="1. c1x6 *\n").exit_code == 1
    assert run("validate", "--game", "kingulu", "-", input="1. c1x6 *\n").exit_code == 0


def test_convert_round_trips(tmp_path):
    source = EXAMPLES / "kingulu-village-match.pmn"
    canonical = source.read_text(encoding="utf-8")
    assert run("convert", "--to", "pmn", source).output == canonical
    json_text = run("convert", "--to", "json", "--positions", source).output
    back = run("convert", "--to", "pmn", "-", input=json_text).output
    assert back == canonical
    numeric = run("convert", "--to", "pmn", "--coords", "numeric", source).output
    assert '[Coordinates "numeric"]' in numeric and "1. 4x6 " in numeric
    again = run("convert", "--to", "pmn", "--coords", "algebraic", "-", input=numeric).output
    assert again == canonical.replace('[Annotator "Zawadi"]\n', '[Annotator "Zawadi"]\n[Coordinates "algebraic"]\n')


def test_convert_positions_in_json():
    source = EXAMPLES / "kingulu-village-match.pmn"
    obj = json.loads(run("convert", "--to", "json", "--positions", source).output)
    assert obj["moves"][0]["position"] == "0,6,6,6,1,0/1,6,6,2,7,0 N 7-0 1"
    assert obj["moves"][3]["variations"][0][0]["move"] == "c2"
    assert obj["moves"][3]["variations"][0][0]["glyphs"] == ["!?"]


def test_convert_output_is_atomic(tmp_path):
    target = tmp_path / "out.pmn"
    target.write_text("old contents\n", encoding="utf-8")
    result = run("convert", "--to", "pmn", "-o", target, EXAMPLES / "kingulu-tournament.pmn", tmp_path / "missing.pmn")
    assert result.exit_code == 2
    assert target.read_text(encoding="utf-8") == "old contents\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.pmn"]
    assert run("convert", "--to", "pmn", "-o", target, EXAMPLES / "kingulu-tournament.pmn").exit_code == 0
    assert target.read_text(encoding="utf-8") == (EXAMPLES / "kingulu-tournament.pmn").read_text(encoding="utf-8")


def test_render_svg_text_and_all(tmp_path):
    source = EXAMPLES / "kingulu-village-match.pmn"
    svg = run("render", source, "--ply", "3").output
    root = etree.fromstring(svg.encode())
    title = root.find("{http://www.w3.org/2000/svg}title").text
    assert title == "Bao Kingulu — position after 2. f1^, North to move"
    text = run("render", source, "--format", "text").output
    assert "last move: a1 → b1" in text
    out = tmp_path / "plies"
    assert run("render", source, "--all", "--out-dir", out).exit_code == 0
    assert len(list(out.glob("*.svg"))) == 24
    assert run("render", source, "--ply", "99").exit_code == 2
    assert run("render", source, "--all").exit_code == 2
    css = tmp_path / "big.css"
    css.write_text(".count { font-size: 20px }", encoding="utf-8")
    styled = etree.fromstring(run("render", source, "--style", css).output.encode())
    styles = styled.findall("{http://www.w3.org/2000/svg}style")
    assert len(styles) == 2 and styles[1].text.strip() == ".count { font-size: 20px }"
    plain = run("render", source).output
    flipped = run("render", source, "--flip").output
    assert plain != flipped and run("render", source, "--flip").output == flipped


@pytest.mark.parametrize("game_id", ["kimasai-mackay", "kimasai-klamroth", "kingulu"])
def test_random_games_of_every_game_replay_without_error(game_id):
    text = run("random", "--game", game_id, "-n", "5", "--seed", "3").output
    result = run("validate", "--format", "json", "-", input=text)
    games = [json.loads(line) for line in result.output.splitlines()]
    assert result.exit_code == 0 and len(games) == 5
    assert all(g["valid"] and g["result"] in ("1-0", "0-1", "1/2-1/2") for g in games)


def test_render_reads_json_and_xml_records():
    source = EXAMPLES / "kingulu-village-match.pmn"
    expected = run("render", source, "--ply", "5").output
    for target in ("json", "xml"):
        converted = run("convert", "--to", target, source).stdout_bytes
        assert run("render", "-", "--ply", "5", input=converted).output == expected


def test_pmn_json_xml_round_trips_keep_repeated_tags_and_every_comment():
    text = ('[Game "kingulu"]\n[Event "a"]\n[Event "b"]\n[Result "*"]\n\n'
            "{start} 1. c1x6 $1 {x} (1. d1x6 {y}) 1... d2 *\n")
    canonical = run("convert", "--to", "pmn", "-", input=text).stdout
    assert canonical == text
    for target in ("json", "xml"):
        middle = run("convert", "--to", target, "-", input=text).stdout_bytes
        assert run("convert", "--to", "pmn", "-", input=middle).stdout == canonical


def test_invalid_and_hostile_xml_is_refused_with_exit_1(tmp_path):
    invalid = b'<?xml version="1.0"?>\n<mancala version="1">\n  <game>\n    <bogus/>\n  </game>\n</mancala>\n'
    result = run("convert", "--to", "pmn", "-", input=invalid)
    assert result.exit_code == 1
    assert result.stderr == ("<stdin>:3:1: error: unknown-game: no Game tag (give the game with --game)\n"
                             "<stdin>:4:5: error: syntax: not valid against the archive schema: "
                             "Did not expect element bogus there\n")
    assert result.stdout == "*\n"
    laughs = (b'<?xml version="1.0"?>\n<!DOCTYPE m [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;">]>\n'
              b'<mancala version="1"><game><tags><tag name="Event">&b;</tag></tags></game></mancala>\n')
    result = run("validate", "-", input=laughs)
    assert result.exit_code == 1 and "DTDs are not allowed" in result.output and "haha" not in result.output
