"""Hostile input in the record layer: crafted JSON, XML and PMN give located
problems for the game they are in (the games after it are still read),
never a crash, a hang or memory that grows with the damage; and no value
read is ever written as output that the tool's own readers refuse."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from mancala_cli.cli.commands import whole
from notation.jsonl import JSONRecordError, json_line_to_record
from notation.notation_errors import XMLArchiveError
from notation.pmn_reader import read_games
from notation.pmn_writer import write_game
from notation.record import MAX_TAG_VALUE
from notation.xml_reader import read_archive

app = whole()

runner = CliRunner()

GOOD_JSON = json.dumps({"game": "kingulu", "tags": {"Game": "kingulu", "Result": "*"},
                        "moves": [{"move": "c1", "captured": 6}], "result": "*"})
HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<mancala version="1">\n'
GOOD_GAME = ('  <game><tags><tag name="Game">kingulu</tag></tags>'
             '<moves><move hole="c1" captured="6"/></moves><result>*</result></game>\n')


def xml_game(tags: str = '<tag name="Game">kingulu</tag>', move: str = '<move hole="c1" captured="6"/>') -> str:
    return f"  <game><tags>{tags}</tags><moves>{move}</moves><result>*</result></game>\n"


def run(*args, input=None):
    result = runner.invoke(app, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output
    return result


def child(code: str, timeout: int = 60) -> str:
    """Run ``code`` in a fresh interpreter (bounded in time); its standard output."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, done.stderr
    return done.stdout


# -- XML: badly formed, damaged games, crafted documents ---------------------------------------


def test_a_truncated_document_is_reported_as_badly_formed_with_line_and_column():
    result = run("validate", "-", input=b"<mancala")
    assert result.exit_code == 1
    assert result.stderr == ("mancala: error: <stdin>, line 1, column 9: not well-formed XML: "
                             "Couldn't find end of Start Tag mancala\n")


def test_a_schema_invalid_game_is_reported_and_the_next_games_are_read():
    document = HEAD + GOOD_GAME + xml_game(move='<move hole="c1" captured="x"/>') + GOOD_GAME + "</mancala>\n"
    result = run("validate", "-", input=document)
    assert result.exit_code == 1
    # The bad game keeps its tags (no unknown-game); the problem is at the <move's "<".
    assert result.stdout == ("<stdin>:4:59: error: syntax: not valid against the archive schema: "
                             "Invalid attribute captured for element move\n"
                             "3 games, 2 moves, 1 error, 0 warnings\n")
    games = list(read_archive(document.encode(), file="a.xml"))
    assert [(g.index, g.line, len(g.moves), g.tags) for g in games] == [
        (1, 3, 1, [("Game", "kingulu")]), (2, 4, 0, [("Game", "kingulu")]), (3, 5, 1, [("Game", "kingulu")])]
    assert [(p.code, p.line, p.column) for p in games[1].problems] == [("syntax", 4, 59)]
    converted = run("convert", "--to", "pmn", "-", input=document)
    assert converted.exit_code == 1
    assert converted.stdout == ('[Game "kingulu"]\n\n1. c1x6 *\n\n[Game "kingulu"]\n\n*\n\n'
                                '[Game "kingulu"]\n\n1. c1x6 *\n')


def test_badly_formed_xml_still_stops_the_document_with_line_and_column():
    document = HEAD + GOOD_GAME + "  <game><moves></game>\n" + GOOD_GAME + "</mancala>\n"
    games = read_archive(document.encode(), file="a.xml")
    assert next(games).index == 1
    with pytest.raises(XMLArchiveError) as info:
        next(games)
    assert str(info.value) == ("a.xml, line 4, column 23: not well-formed XML: "
                               "Opening and ending tag mismatch: moves line 4 and game")


def test_a_root_with_very_many_attributes_is_refused_quickly():
    out = child("""
        import sys
        from notation.xml_reader import read_archive
        attrs = " ".join(f'a{i}="x"' for i in range(200_000))
        document = f'<mancala version="1" {attrs}><game/></mancala>'.encode()
        try:
            list(read_archive(document))
        except Exception as error:
            print(type(error).__name__, error)
    """, timeout=30)
    assert out == "XMLArchiveError line 1: Invalid attribute a0 for element mancala\n"


def test_a_game_with_very_many_attributes_is_refused_quickly():
    out = child("""
        from notation.xml_reader import read_archive
        attrs = " ".join(f'a{i}="x"' for i in range(200_000))
        document = ('<mancala version="1">\\n<game><moves><move hole="c1" ' + attrs
                    + '/></moves></game>\\n<game/>\\n</mancala>').encode()
        for game in read_archive(document):
            print(game.index, [(p.code, p.line, p.message) for p in game.problems])
    """, timeout=30)
    assert out == ("1 [('syntax', 2, 'not valid against the archive schema: "
                   "element move has 200001 attributes')]\n2 []\n")


@pytest.mark.parametrize("attribute", ["captured", "number"])
def test_xml_counts_of_thousands_of_digits_are_problems_of_their_game(attribute):
    for digits in ("1" * 30, "1" * 5000):
        document = HEAD + xml_game(move=f'<move hole="c1" {attribute}="{digits}"/>') + GOOD_GAME + "</mancala>"
        games = list(read_archive(document.encode()))
        assert len(games) == 2 and games[1].problems == []
        assert [(p.code, p.line, p.message) for p in games[0].problems] == [
            ("syntax", 3, f"move 'c1': {attribute} {digits[:12]}... has more than 9 digits")]


def test_xml_nag_with_thousands_of_leading_zeros_reads():
    document = HEAD + xml_game(move=f'<move hole="c1"><nag>{"0" * 5000}7</nag></move>') + "</mancala>"
    (game,) = read_archive(document.encode())
    assert game.problems == [] and game.moves[0].nags == [7]


@pytest.mark.parametrize("name", ['a"b', "a]b", "", "a b", "é"])
def test_xml_bad_tag_names_are_refused_where_read(name):
    escaped = name.replace('"', "&quot;")
    document = HEAD + xml_game(tags=f'<tag name="Game">kingulu</tag><tag name="{escaped}">v</tag>') + "</mancala>"
    (game,) = read_archive(document.encode())
    assert [(p.code, p.line, p.message) for p in game.problems] == [
        ("bad-tag", 3, f"tag name {name!r} is not letters, digits and _")]
    assert game.tags == [("Game", "kingulu")]
    converted = run("convert", "--to", "pmn", "-", input=document)
    assert converted.exit_code == 1
    assert converted.stdout == '[Game "kingulu"]\n\n1. c1x6 *\n'


def test_xml_tag_value_over_the_limit_is_refused():
    document = HEAD + xml_game(tags=f'<tag name="Game">kingulu</tag><tag name="Event">{"e" * (MAX_TAG_VALUE + 1)}</tag>')
    (game,) = read_archive((document + "</mancala>").encode())
    assert [(p.code, p.message) for p in game.problems] == [
        ("bad-tag", f"tag Event: value longer than {MAX_TAG_VALUE} characters")]
    assert game.tags == [("Game", "kingulu")]


# -- JSON: nesting, bad values -------------------------------------------------------------------


def test_json_nested_too_deep_is_an_error_of_its_line_only():
    deep = "[" * 12_000 + "]" * 12_000
    lines = ['{"game": "kingulu", "tags": {"X": ' + deep + '}}', GOOD_JSON,
             '{"moves": ' + deep + '}', GOOD_JSON]
    result = run("validate", "-", input="\n".join(lines) + "\n")
    assert result.exit_code == 1
    message = ("error: syntax: not a JSON game record: nested deeper than 3004 levels "
               "(variations nest at most 1000 deep)")
    assert result.stdout == (f"<stdin>:1:1: {message}\n"
                             "<stdin>:1:1: error: unknown-game: no Game tag (give the game with --game)\n"
                             f"<stdin>:3:1: {message}\n"
                             "<stdin>:3:1: error: unknown-game: no Game tag (give the game with --game)\n"
                             "4 games, 2 moves, 4 errors, 0 warnings\n")


def variation_json(depth: int) -> str:
    """A move whose variation holds a move whose variation …, ``depth`` levels."""
    return ('{"game": "kingulu", "moves": [{"move": "c1"' + ', "variations": [[{"move": "d1"' * depth
            + "}]]" * depth + '}], "result": "*"}')


def test_json_variations_to_the_documented_depth_read_and_deeper_ones_do_not():
    record = json_line_to_record(variation_json(1000))
    depth, moves = 0, record.moves
    while moves[0].variations:
        depth, moves = depth + 1, moves[0].variations[0]
    assert depth == 1000
    with pytest.raises(JSONRecordError, match="^variations nested deeper than 1000 levels$"):
        json_line_to_record(variation_json(1001))


@pytest.mark.parametrize("change, code, message", [
    ({"tags": {"Event": "\ud800"}}, "bad-tag", "tag Event: character U+D800 is not allowed"),
    ({"tags": {"Event": "a\x07b"}}, "bad-tag", "tag Event: character U+0007 is not allowed"),
    ({"tags": {"Event": "a\x85b"}}, "bad-tag", "tag Event: character U+0085 is not allowed"),
    ({"tags": {'a"b': "v"}}, "bad-tag", "tag name 'a\"b' is not letters, digits and _"),
    ({"tags": {"a]b": "v"}}, "bad-tag", "tag name 'a]b' is not letters, digits and _"),
    ({"tags": {"": "v"}}, "bad-tag", "tag name '' is not letters, digits and _"),
    ({"tags": {"Event": "e" * (MAX_TAG_VALUE + 1)}}, "bad-tag",
     f"tag Event: value longer than {MAX_TAG_VALUE} characters"),
    ({"moves": [{"move": "c1", "glyphs": ["!!!!"]}]}, "syntax", "glyph '!!!!' is not one of !! ?? !? ?! ! ?"),
    ({"moves": [{"move": "c1", "nags": [True]}]}, "syntax", '"nags" must be a list of numbers 0-255'),
    ({"moves": [{"move": "c1", "nags": [False]}]}, "syntax", '"nags" must be a list of numbers 0-255'),
    ({"moves": [{"move": "c1", "captured": 10 ** 29}]}, "syntax",
     '"captured" must be a count of at most 9 digits, not 100000000000000000000000000000'),
    ({"moves": [{"move": "c1", "captured": True}]}, "syntax", '"captured" must be a count of at most 9 digits, '
     'not True'),
    ({"moves": [{"move": "c1", "comment": "a\x00b"}]}, "syntax", "comment: character U+0000 is not allowed"),
    ({"moves": [{"move": "c1", "before": "\udfff"}]}, "syntax", "before: character U+DFFF is not allowed"),
    ({"comment": "\x1b[31m"}, "syntax", "comment: character U+001B is not allowed"),
    ({"moves": [{"move": "c1 {"}]}, "syntax", "move 'c1 {' is not a hole"),
    ({"moves": [{"move": "c1", "destination": "d)"}]}, "syntax", "destination 'd)' is not a hole"),
])
def test_json_bad_values_are_refused_where_read(change, code, message):
    obj = {"game": "kingulu", "tags": {"Game": "kingulu"}, "moves": [{"move": "c1"}], "result": "*"}
    obj.update(change)
    line = json.dumps(obj)
    with pytest.raises(JSONRecordError) as info:
        json_line_to_record(line)
    assert (info.value.code, str(info.value)) == (code, message)
    result = run("validate", "-", input=line + "\n" + GOOD_JSON + "\n")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == f"<stdin>:1:1: error: {code}: not a JSON game record: {message}"
    assert result.stdout.splitlines()[-1] == "2 games, 1 move, 2 errors, 0 warnings"
    converted = run("convert", "--to", "pmn", "-", input=line + "\n")
    assert converted.exit_code == 1
    assert converted.stdout == "*\n"
    assert all(g.problems == [] for g in read_games(converted.stdout))
    archive = run("convert", "--to", "xml", "-", input=line + "\n" + GOOD_JSON + "\n")
    assert archive.exit_code == 1
    assert [(g.tags, len(g.moves), g.problems) for g in read_archive(archive.stdout_bytes)] == [
        ([], 0, []), ([("Game", "kingulu"), ("Result", "*")], 1, [])]


@pytest.mark.parametrize("separator", ["\u3000", "\u00a0", "\u2028", "\x1c", "\x1d", "\x1e"])
def test_setup_fields_are_separated_by_blanks_only(separator):
    setup = separator.join(["4,4,4,4,4,4/4,4,4,4,4,4", "S", "0-0", "1"])
    obj = {"game": "kingulu", "tags": {"Game": "kingulu", "Setup": setup}, "moves": [], "result": "*"}
    result = run("validate", "-", input=json.dumps(obj) + "\n")
    assert result.exit_code == 1
    code = f"{ord(separator):04X}"
    if separator < " ":  # a control character: no tag may hold one (nor can XML)
        assert result.stdout.splitlines()[0] == (
            f"<stdin>:1:1: error: bad-tag: not a JSON game record: tag Setup: character U+{code} is not allowed")
        return
    message = ("error: bad-setup: bad Setup position: a position string has 4 fields (rows, side, banks, "
               f"move number) separated by spaces, not U+{code}")
    assert result.stdout == f"<stdin>:1:1: {message}\n1 game, 0 moves, 1 error, 0 warnings\n"
    document = HEAD + xml_game(tags=f'<tag name="Game">kingulu</tag><tag name="Setup">{setup}</tag>', move="")
    result = run("validate", "-", input=document + "</mancala>\n")
    assert result.exit_code == 1
    assert result.stdout == f"<stdin>:3:1: {message}\n1 game, 0 moves, 1 error, 0 warnings\n"


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10 ** 12) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8)
TEXT = st.text(max_size=8)


@st.composite
def json_moves(draw, depth=0):
    moves = []
    for _ in range(draw(st.integers(0, 3))):
        move = {"move": draw(st.sampled_from(["c1", "14", "S3", "c1 ", "}", "(", "x"]) | TEXT)}
        for key, values in (("captured", st.integers(-1, 10 ** 10) | st.booleans() | JSON_VALUES),
                            ("glyphs", st.lists(st.sampled_from(["!", "?!", "!!!!", ""]) | TEXT, max_size=2)),
                            ("nags", st.lists(st.integers(-1, 256) | st.booleans(), max_size=2)),
                            ("comment", st.none() | TEXT), ("before", st.none() | TEXT),
                            ("destination", st.none() | TEXT), ("x0", st.booleans())):
            if draw(st.booleans()):
                move[key] = draw(values)
        if depth < 2 and draw(st.booleans()):
            move["variations"] = draw(st.lists(json_moves(depth + 1), max_size=2))
        moves.append(move)
    return moves


@st.composite
def json_records(draw):
    tags = draw(st.dictionaries(st.sampled_from(["Game", "Event", "Setup", "", 'a"', "]", "Z_9"]) | TEXT,
                                TEXT, max_size=4))
    obj = {"game": draw(st.none() | TEXT), "tags": tags, "moves": draw(json_moves()),
           "result": draw(st.sampled_from(["*", "1-0", None]))}
    if draw(st.booleans()):
        obj["comment"] = draw(TEXT)
    return obj


@settings(max_examples=300, deadline=None)
@given(json_records())
def test_any_json_record_is_refused_or_written_as_pmn_that_reads_back_equal(obj):
    try:
        record = json_line_to_record(json.dumps(obj))
    except JSONRecordError:
        return
    text = write_game(record)
    text.encode("utf-8")
    (back,) = read_games(text)
    assert back.problems == []
    assert sorted(back.tags) == sorted((name, re.sub(r"\r\n|\r|\n", " ", value)) for name, value in record.tags)
    assert write_game(back) == text


def test_json_nested_one_level_more_than_the_deepest_record_is_refused():
    from notation.jsonl import MAX_JSON_DEPTH
    deepest = variation_json(1000).replace('{"move": "d1"}', '{"move": "d1", "nags": [1]}')
    assert json_line_to_record(deepest).moves
    anywhere = '{"game": "kingulu", "x": ' + "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH + "}"
    with pytest.raises(JSONRecordError, match=f"^nested deeper than {MAX_JSON_DEPTH} levels "):
        json_line_to_record(anywhere)
    assert json_line_to_record(anywhere.replace("[]", "", 1)).tags == [("Game", "kingulu")]


def test_an_unwritable_game_is_reported_and_the_archive_holds_the_others():
    pmn = ('[Game "kingulu"]\n[Event "bell\x07"]\n\n1. c1x6 *\n\n'
           '[Game "kingulu"]\n\n1. c1x6 {form\x0cfeed} *\n\n[Game "kingulu"]\n\n1. d1 *\n')
    result = run("convert", "--to", "xml", "-", input=pmn)
    assert result.exit_code == 1
    assert result.stderr == ("<stdin>:1:0: error: unwritable: game 1: tag Event: character U+0007 is not allowed\n"
                             "<stdin>:6:0: error: unwritable: game 2: comment after move 'c1': "
                             "character U+000C is not allowed\n")
    (game,) = read_archive(result.stdout_bytes)
    assert [m.text for m in game.moves] == ["d1x6"] and game.problems == []


def test_xml_bad_tags_are_reported_a_hundred_at_most():
    tags = '<tag name="Game">kingulu</tag>' + '<tag name="a b">v</tag>' * 5000
    (game,) = read_archive((HEAD + xml_game(tags=tags) + "</mancala>").encode())
    assert game.tags == [("Game", "kingulu")] and len(game.moves) == 1
    assert len(game.problems) == 101
    assert game.problems[-1].message == "more than 100 bad tags in this game; the others are not reported"


# -- JSON → PMN: what PMN cannot hold is said, the rest comes back byte for byte -------------------

from notation.jsonl import record_to_json  # noqa: E402
from notation.pmn_reader import read_game  # noqa: E402
from notation.pmn_writer import unheld  # noqa: E402

#: Text with every character that PMN treats specially, but no space (the
#: canonical writer may break a long line at a comment's space, which reads
#: back as a line break: docs/notation.md, "What PMN cannot hold").
SPECIAL = st.text(alphabet=st.sampled_from(list('ab"\\[]{};()$!?*\n\r\t.1-0')), max_size=12)


@st.composite
def lossy_records(draw):
    tags = {"Game": "kingulu"}
    names = draw(st.lists(st.sampled_from(["Event", "Site", "Annotator", "Source"]), unique=True, max_size=3))
    for name in sorted(names, key=["Event", "Site", "Annotator", "Source"].index):  # (in the canonical order)
        tags[name] = draw(SPECIAL)
    moves = []
    for hole in ("c1", "d2", "e1")[:draw(st.integers(0, 3))]:
        move = {"move": hole}
        if draw(st.booleans()):
            move["comment"] = draw(SPECIAL)
        if draw(st.booleans()):
            move["before"] = draw(SPECIAL)
        moves.append(move)
    obj = {"game": "kingulu", "tags": tags, "moves": moves, "result": "*"}
    if draw(st.booleans()):
        obj["comment"] = draw(SPECIAL)
    return obj


@settings(max_examples=400, deadline=None)
@given(lossy_records())
def test_json_to_pmn_to_json_is_byte_identical_unless_a_warning_names_the_change(obj):
    try:
        record = json_line_to_record(json.dumps(obj))
    except JSONRecordError:
        return
    original = record_to_json(record, "kingulu", None)
    back = read_game(write_game(record))
    again = record_to_json(back, "kingulu", None)
    said = unheld(record)
    if not said:
        assert again == original
    else:
        assert again != original
        # each warning names a tag or comment whose text did change
        for problem in said:
            name = re.match(r"the (\w+) tag", problem.message)
            if name:
                assert back.tag(name.group(1)) != record.tag(name.group(1))


@pytest.mark.parametrize("change, message", [
    ({"tags": {"Game": "kingulu", "Event": "a\nb"}}, "the Event tag: its line breaks are written as spaces"),
    ({"tags": {"Game": "kingulu", "Event": "a\r\nb"}}, "the Event tag: its line breaks are written as spaces"),
    ({"tags": {"Game": "kingulu", "Event": "a\rb"}}, "the Event tag: its line breaks are written as spaces"),
    ({"moves": [{"move": "c1", "comment": "a\r\nb"}]}, "the comment after 1. c1x6: its carriage returns are "
                                                       "written as line breaks"),
    ({"moves": [{"move": "c1", "comment": '"\n\n['}]}, "the comment after 1. c1x6: a blank line followed by '[' "
                                                      "(a new game to a reader) is written with a space instead "
                                                      "of its line break"),
    ({"moves": [{"move": "c1", "comment": "x}\ny"}]}, "the comment after 1. c1x6: a line break in a word that "
                                                      "holds '}' is written as a space"),
])
@pytest.mark.parametrize("command", [["convert", "--to", "pmn"], ["filter"], ["split", "--games", "1"]])
def test_what_pmn_cannot_hold_is_a_warning_and_exit_1(tmp_path, change, message, command):
    obj = {"game": "kingulu", "tags": {"Game": "kingulu"}, "moves": [{"move": "c1"}], "result": "*", **change}
    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps(obj) + "\n")
    args = [*command, path] + (["--out-dir", tmp_path / "parts"] if command[0] == "split" else [])
    result = run(*args)
    assert result.exit_code == 1
    column = 1 if "after 1. c1x6" in message else 0  # a move of JSON Lines is at its record's line, column 1
    assert result.stderr == f"{path}:1:{column}: warning: pmn-inexact: {message}" + (
        " (a tag value is one line)\n" if "tag" in message else "\n")
    assert run("convert", path, "--to", "xml").exit_code == 0  # XML holds it all: no warning
