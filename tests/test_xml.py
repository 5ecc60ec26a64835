"""XML archives: round trips, the shipped schema, refusal of invalid and
unsafe documents, deep nesting, deterministic output."""
from __future__ import annotations

import io
import time
from importlib import resources

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from lxml import etree

from notation.notation_errors import XMLArchiveError
from notation.record import GLYPHS, MAX_VARIATION_DEPTH, RESULTS, GameRecord, MoveNode
from notation.sniffing import is_xml
from notation.xml_reader import read_archive
from notation.xml_writer import write_archive

# -- helpers -----------------------------------------------------------------------------------

MOVE_FIELDS = ("hole", "destination", "captured", "reserved", "glyphs", "nags", "before", "comment", "number",
               "dots", "position")
RECORD_FIELDS = ("tags", "result", "comment")


def assert_same(a: GameRecord, b: GameRecord, positions: bool = True) -> None:
    """Equal in every field but line/column/file/index/problems/tag_at/result_at
    (and position unless written); iterative, for deep variations."""
    for name in RECORD_FIELDS:
        assert getattr(a, name) == getattr(b, name), name
    fields = MOVE_FIELDS if positions else MOVE_FIELDS[:-1]
    work = [(a.moves, b.moves, "moves")]
    while work:
        xs, ys, path = work.pop()
        assert len(xs) == len(ys), path
        for i, (x, y) in enumerate(zip(xs, ys)):
            for name in fields:
                assert getattr(x, name) == getattr(y, name), f"{path}[{i}].{name}"
            assert len(x.variations) == len(y.variations), f"{path}[{i}].variations"
            for j, (u, v) in enumerate(zip(x.variations, y.variations)):
                work.append((u, v, f"{path}[{i}].variations[{j}]"))


def dump(records, **options) -> bytes:
    out = io.BytesIO()
    write_archive(records, out, **options)
    return out.getvalue()


def shipped_schema() -> etree.RelaxNG:
    data = resources.files("notation").joinpath("schema", "mancala.rng").read_bytes()
    return etree.RelaxNG(etree.fromstring(data))


def validate(document: bytes) -> None:
    schema = shipped_schema()
    tree = etree.fromstring(document, etree.XMLParser(huge_tree=True))
    assert schema.validate(tree), schema.error_log


def read_error(document: bytes | str) -> XMLArchiveError:
    if isinstance(document, str):
        document = document.encode()
    with pytest.raises(XMLArchiveError) as info:
        list(read_archive(document))
    return info.value


def nested_record(depth: int) -> GameRecord:
    """A main line of one move whose variation holds a move whose variation …, ``depth`` levels."""
    first = MoveNode("c1", number=1, dots=".")
    node = first
    for level in range(1, depth + 1):
        deeper = MoveNode("d1" if level % 2 else "e1", captured=level % 3 or None, comment=f"level {level}")
        node.variations.append([deeper])
        node = deeper
    return GameRecord(tags=[("Game", "kingulu")], moves=[first, MoveNode("a2")], result="*")


NASTY = 'a < b & c ]]> "quoted" \'single\'\n  two  spaces\ttab\r\ncrlf\rcr ünïcødé 🌱 Kiswahili: mtoto'


def hand_built() -> list[GameRecord]:
    deep = MoveNode("c2", captured=9, glyphs=["!?"], comment="three deep")
    return [
        GameRecord(
            tags=[("Zeta", "last letter first"), ("Game", "kingulu"), ("X_1", ""), ("Event", NASTY),
                  ("Result", "*"), ("Setup", "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1"), ("Annotator", " padded ")],
            moves=[
                MoveNode("d1", captured=6, number=1, dots=".", before=" opening\n", comment=NASTY,
                         glyphs=["!", "??"], nags=[0, 14, 255]),
                MoveNode("d2", captured=0, number=1, dots="...", glyphs=["?!"],
                         variations=[
                             [MoveNode("c2", captured=0, number=1, dots="...", before="instead",
                                       variations=[[MoveNode("e2", reserved=True,
                                                             variations=[[deep, MoveNode("a1")]])]]),
                              MoveNode("f1")],
                             [MoveNode("b2", nags=[1])],
                         ]),
                MoveNode("f1", reserved=True, number=2, dots=".", comment=""),
                MoveNode("11", captured=0, reserved=True),
            ],
            result="*"),
        GameRecord(tags=[("Game", "kimasai-klamroth"), ("Coordinates", "algebraic")],
                   moves=[MoveNode("b2", destination="a2", captured=2, number=1, dots="."),
                          MoveNode("S23", destination="S24", captured=1),
                          MoveNode("14", destination="13")],
                   result="1-0"),
        GameRecord(comment="only a comment, no moves\n  and a second line "),
        GameRecord(tags=[("Game", "kimasai-mackay")], moves=[MoveNode("c2")], result=None),
        GameRecord(),
    ]


# -- round trips -------------------------------------------------------------------------------


def test_round_trip_of_hand_built_records():
    records = hand_built()
    document = dump(records)
    back = list(read_archive(document, file="games.xml"))
    assert len(back) == len(records)
    for a, b in zip(records, back):
        assert_same(a, b)
    assert [r.index for r in back] == [1, 2, 3, 4, 5]
    assert {r.file for r in back} == {"games.xml"}
    assert back[0].moves[0].comment == NASTY  # white space and markup survive exactly
    assert back[0].moves[1].captured == 0 and back[0].moves[0].text == "d1x6"
    assert back[3].result is None and back[2].comment.endswith("line ")


def test_positions_written_only_when_asked():
    record = GameRecord(tags=[("Game", "kingulu")],
                        moves=[MoveNode("d1", position="1,0,6,6,0,1/6,6,2,7,0,6 N 7-0 1")])
    with_positions = dump([record], positions=True)
    without = dump([record])
    assert b'position="1,0,6,6,0,1/6,6,2,7,0,6 N 7-0 1"' in with_positions
    assert b"position=" not in without
    assert list(read_archive(with_positions))[0].moves[0].position == record.moves[0].position
    assert list(read_archive(without))[0].moves[0].position is None


def test_start_position_attribute():
    record = GameRecord(tags=[("Game", "kingulu")], moves=[MoveNode("d1")])
    document = dump([record], start=lambda r: "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1")
    assert b'<game start="4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1">' in document
    validate(document)
    assert_same(list(read_archive(document))[0], record)


def test_document_shape_and_determinism():
    records = hand_built()
    first = dump(records)
    assert first == dump(hand_built())  # the same bytes for the same records
    assert first.startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n<mancala version="1">\n  <game>\n')
    assert first.endswith(b"  </game>\n</mancala>\n")
    root = etree.fromstring(first)
    game = root[0]
    assert [child.tag for child in game] == ["tags", "moves", "result"]
    assert [t.get("name") for t in game.find("tags")] == [name for name, _ in records[0].tags]
    move = game.find("moves")[0]
    assert dict(move.attrib) == {"hole": "d1", "captured": "6", "number": "1", "dots": "."}
    assert [c.tag for c in move] == ["before", "glyph", "glyph", "nag", "nag", "nag", "comment"]
    assert move.find("comment").get("{http://www.w3.org/XML/1998/namespace}space") == "preserve"
    # x0 is written, an absent mark is not
    second = game.find("moves")[1]
    assert second.get("captured") == "0"
    assert game.find("moves")[2].get("captured") is None
    assert game.find("moves")[2].get("reserved") == "true"
    assert dump([]) == b'<?xml version="1.0" encoding="UTF-8"?>\n<mancala version="1">\n</mancala>\n'


def test_every_written_document_validates():
    for document in (dump(hand_built()), dump(hand_built(), positions=True), dump([]),
                     dump([nested_record(MAX_VARIATION_DEPTH)])):
        validate(document)


def test_streams_from_a_generator_and_reads_files(tmp_path):
    def games():
        for i in range(50):
            yield GameRecord(tags=[("Game", "kingulu"), ("Round", str(i))], moves=[MoveNode("d1")], result="*")

    path = tmp_path / "games.xml"
    with open(path, "wb") as out:
        write_archive(games(), out)
    back = list(read_archive(str(path)))
    assert [r.tag("Round") for r in back] == [str(i) for i in range(50)]
    assert back[0].file == str(path)
    with open(path, "rb") as handle:
        assert len(list(read_archive(handle, file="named.xml"))) == 50
    assert list(read_archive(path))[-1].file == str(path)  # os.PathLike too


def test_lines_point_into_the_document():
    document = dump(hand_built())
    lines = document.decode().split("\n")
    back = list(read_archive(document))
    for record in back:
        assert lines[record.line - 1].strip().startswith("<game")
        work = [record.moves]
        while work:
            for node in work.pop():
                assert lines[node.line - 1][node.column - 1:].startswith(f'<move hole="{node.hole}"')
                work.extend(node.variations)


# -- a property test ---------------------------------------------------------------------------

TEXT = st.text(st.characters(exclude_categories=("Cs", "Cc", "Cn"), include_characters="\t\n\r <>&]\"'"),
               max_size=12)
TOKEN = st.from_regex(r"[a-lSN]?[0-9]{1,2}", fullmatch=True)
POSITION = st.from_regex(r"[0-9]{1,2}(,[0-9*]{1,3}){0,5}(/[0-9]{1,2}(,[0-9*]{1,3}){0,5}){1,3}"
                         r" [SN] [0-9]{1,2}-[0-9]{1,2} [0-9]{1,3}", fullmatch=True)


def nodes(variations):
    return st.builds(
        MoveNode, hole=TOKEN, destination=st.none() | TOKEN, captured=st.none() | st.integers(0, 10**6),
        reserved=st.booleans(), glyphs=st.lists(st.sampled_from(GLYPHS), max_size=2),
        nags=st.lists(st.integers(0, 255), max_size=2), before=st.none() | TEXT, comment=st.none() | TEXT,
        variations=variations, number=st.none() | st.integers(0, 500),
        dots=st.none() | st.sampled_from([".", "..."]), position=st.none() | POSITION)


MOVES = st.recursive(st.lists(nodes(st.just([])), max_size=3),
                     lambda inner: st.lists(nodes(st.lists(inner, max_size=2)), max_size=3), max_leaves=12)
TAG_NAME = st.from_regex(r"[A-Za-z0-9_]{1,8}", fullmatch=True)
RECORDS = st.builds(GameRecord, tags=st.lists(st.tuples(TAG_NAME, TEXT), max_size=4), moves=MOVES,
                    result=st.none() | st.sampled_from(RESULTS), comment=st.none() | TEXT)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(RECORDS, max_size=3), st.booleans())
def test_round_trip_property(records, positions):
    document = dump(records, positions=positions)
    validate(document)
    back = list(read_archive(document))
    assert len(back) == len(records)
    for a, b in zip(records, back):
        assert_same(a, b, positions=positions)
    assert dump(back, positions=positions) == document


# -- what cannot be written --------------------------------------------------------------------


def test_the_largest_counts_a_reader_takes_are_written_and_read_back():
    record = GameRecord(tags=[("Game", "kingulu")], moves=[MoveNode("d1", captured=999_999_999, number=999_999_999)])
    out = io.BytesIO()
    write_archive([record], out)
    back = list(read_archive(io.BytesIO(out.getvalue())))[0]
    assert (back.moves[0].captured, back.moves[0].number) == (999_999_999, 999_999_999) and back.problems == []


@pytest.mark.parametrize("record, reason", [
    (GameRecord(moves=[MoveNode("d1", glyphs=["!!!"])]), "glyph '!!!'"),
    (GameRecord(moves=[MoveNode("d1", nags=[256])]), "NAG $256"),
    (GameRecord(moves=[MoveNode("d1", captured=-1)]), "negative capture"),
    (GameRecord(moves=[MoveNode("d1", captured=10 ** 9)]), "move 'd1': capture mark 1000000000... has more than 9"),
    (GameRecord(moves=[MoveNode("d1", number=10 ** 12)]), "move 'd1': move number 100000000000... has more than 9"),
    (GameRecord(moves=[MoveNode("d1", dots="..")]), "dots"),
    (GameRecord(moves=[MoveNode("d 1")]), "white space"),
    (GameRecord(moves=[MoveNode("")]), "white space"),
    (GameRecord(result="2-0"), "result '2-0'"),
    (GameRecord(moves=[MoveNode("d1", comment="form\x0cfeed")]), "U+000C"),
    (GameRecord(tags=[("Event", "nul\x00")]), "tag Event: character U+0000"),
    (GameRecord(moves=[MoveNode("d1", variations=[[MoveNode("c1", before="\ud800")]])]), "U+D800"),
    (GameRecord(moves=[MoveNode("d1", comment="next\x85line")]),
     "comment after move 'd1': character U+0085 is not allowed"),
    (GameRecord(tags=[('a"b', "v")]), "tag name 'a\"b' is not letters, digits and _"),
    (GameRecord(tags=[("Event", "e" * 10_001)]), "tag Event: value longer than 10000 characters"),
    (GameRecord(moves=[MoveNode("d1)")]), "move 'd1)' is not a hole"),
    (GameRecord(moves=[MoveNode("b2", destination="{a2")]), "move 'b2': destination '{a2' is not a hole"),
])
def test_unwritable_records_are_refused(record, reason):
    record.index, record.line, record.file = 3, 17, "in.pmn"
    out = io.BytesIO()
    with pytest.raises(XMLArchiveError) as info:
        write_archive([GameRecord(), record], out)
    assert reason in info.value.reason and info.value.reason.startswith("game 3: ")
    assert (info.value.file, info.value.line) == ("in.pmn", 17)
    assert str(info.value).startswith("in.pmn, line 17: game 3: ")


def test_bad_position_refused_only_when_written():
    record = GameRecord(moves=[MoveNode("d1", position="not a position")])
    dump([record])  # positions not asked for: not written
    with pytest.raises(XMLArchiveError, match="not a position string"):
        dump([record], positions=True)


# -- invalid documents -------------------------------------------------------------------------

HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'


@pytest.mark.parametrize("body, line, reason", [
    ('<mancala version="2">\n</mancala>', 2, "Element mancala failed to validate attributes"),
    ('<mancala>\n</mancala>', 2, "Element mancala failed to validate attributes"),
    ('<archive version="1"/>', 2, "Expecting element mancala, got archive"),
    ('<mancala version="1">\n<game/>\nstray text\n<game/>\n</mancala>', 4, "Did not expect text in element mancala"),
    ('<mancala version="1">\n<game/>\n\n stray\ntext\n\n<game/>\n</mancala>', 5, "Did not expect text in element"),
    ('<mancala version="1">\n\nstray<game/>\n</mancala>', 4, "Did not expect text in element mancala"),
    ('<mancala version="1">\n\n\n stray \n</mancala>', 5, "Did not expect text in element mancala"),
    ('<mancala version="1">\n<game/>\n<extra/>\n<game/>\n</mancala>', 4, "Did not expect element extra there"),
    ('<mancala version="1">\n<game/>\n<extra/>\n</mancala>', 4, "Did not expect element extra there"),
    ('<mancala version="1">trailing\n</mancala>', 2, "Did not expect text in element mancala"),
    ('<mancala version="1">\n<game>\n<moves>\n<move hole="c1">\n</moves>\n</game>\n</mancala>',
     6, "not well-formed XML: Opening and ending tag mismatch: move line 5 and moves"),
    ('<mancala version="1">\n<game>\n', 4, "not well-formed XML"),
    ('', None, "not well-formed XML"),
])
def test_invalid_documents_refused_with_line_and_reason(body, line, reason):
    error = read_error(HEAD + body if body else body)
    assert reason in error.reason
    assert error.line == line
    if line is not None:  # the parser names the column too
        where = f"line {line}" if error.column is None else f"line {line}, column {error.column}"
        assert str(error).startswith(where + ": ")
        assert (error.column is not None) == reason.startswith("not well-formed XML")


@pytest.mark.parametrize("game, line, column, reason, holes", [
    ('<game>\n<moves>\n<move hole="c1"><nag>256</nag></move>\n</moves>\n</game>',
     5, 17, "unsignedByte doesn't allow value '256'", ["c1"]),
    ('<game>\n<moves>\n<move hole="c1"><glyph>!!!</glyph></move>\n</moves>\n</game>',
     5, 17, "Element glyph failed to validate content", ["c1"]),
    ('<game>\n<moves>\n\n<move hole="c1" captured="-1"/>\n</moves>\n</game>',
     6, 1, "Invalid attribute captured for element move", []),
    ('<game>\n<moves>\n<move hole="c1"/>\n</moves>\n<tags/>\n</game>', 7, 1, "Did not expect element tags there",
     ["c1"]),
    ('<game>\n<moves><move/></moves>\n</game>', 4, 8, "Element move failed to validate attributes", []),
    ('<game>\n<result>2-0</result>\n</game>', 4, 1, "Element result", []),
])
def test_an_invalid_game_is_read_up_to_the_bad_element_and_the_next_games_are_read(game, line, column, reason,
                                                                                     holes):
    document = HEAD + '<mancala version="1">\n' + game + '\n<game><result>*</result></game>\n</mancala>'
    bad, good = read_archive(document.encode(), file="a.xml")
    assert (bad.index, bad.line, bad.tags, [m.hole for m in bad.moves], bad.result) == (1, 3, [], holes, None)
    assert all(m.nags == [] and m.glyphs == [] for m in bad.moves)
    (problem,) = bad.problems
    assert (problem.severity, problem.code, problem.line, problem.column) == ("error", "syntax", line, column)
    assert problem.message.startswith("not valid against the archive schema: ") and reason in problem.message
    assert (good.index, good.result, good.problems) == (2, "*", [])


def test_games_before_and_after_an_invalid_one_are_read():
    document = (HEAD + '<mancala version="1">\n<game><result>*</result></game>\n'
                '<game><result>?</result></game>\n<game><result>1-0</result></game>\n</mancala>').encode()
    games = list(read_archive(document, file="a.xml"))
    assert [(g.result, g.line, g.file) for g in games] == [("*", 3, "a.xml"), (None, 4, "a.xml"),
                                                            ("1-0", 5, "a.xml")]
    assert [(p.code, p.line) for p in games[1].problems] == [("syntax", 4)]


def test_lenient_where_the_schema_is():
    document = (HEAD + '<!-- a comment -->\n<mancala version="1">\n  <?pi x?>\n  <!-- between -->\n'
                '  <game>\n    <moves><move hole="c1" captured=" 07 " reserved="false" dots=" . ">'
                '<glyph> ! </glyph><nag> 3 </nag>'
                '<comment>a<!-- hidden -->b<![CDATA[<&>]]></comment></move></moves>\n  </game>\n'
                '  <game/>\n</mancala>\n').encode()
    first, second = list(read_archive(document))
    move = first.moves[0]
    assert (move.captured, move.reserved, move.dots, move.glyphs, move.nags, move.comment) == \
        (7, False, ".", ["!"], [3], "ab<&>")
    assert first.tags == [] and first.result is None
    assert second == GameRecord(line=second.line, index=2)


# -- unsafe documents --------------------------------------------------------------------------


def laughs(where: str) -> str:
    entities = '<!ENTITY lol "lol">' + "".join(
        f'<!ENTITY lol{i} "{("&lol;" if i == 1 else f"&lol{i - 1};") * 10}">' for i in range(1, 10))
    body = {"content": '<mancala version="1"><game><comment>&lol9;</comment></game></mancala>',
            "attribute": '<mancala version="&lol9;"/>',
            "root": '<mancala version="1">&lol9;</mancala>'}[where]
    return f'{HEAD}<!DOCTYPE mancala [{entities}]>\n{body}'


@pytest.mark.parametrize("where", ["content", "attribute", "root"])
def test_billion_laughs_refused(where):
    began = time.perf_counter()
    error = read_error(laughs(where))
    assert time.perf_counter() - began < 5
    assert "lollol" not in str(error)
    # Refused either by the reader (a DTD is never allowed) or, where libxml2
    # stops the expansion itself first, as badly formed XML; the wording of
    # the latter is libxml2's and differs between its releases.
    assert error.reason.startswith(("DTDs are not allowed", "not well-formed XML: "))


@pytest.fixture
def secret(tmp_path):
    path = tmp_path / "secret.txt"
    path.write_text("TOPSECRET-4711\n")
    return path


@pytest.mark.parametrize("body", [
    '<!DOCTYPE mancala [<!ENTITY xxe SYSTEM "{uri}">]>\n<mancala version="1"><game><comment>&xxe;</comment>'
    '</game></mancala>',
    '<!DOCTYPE mancala [<!ENTITY xxe SYSTEM "{uri}">]>\n<mancala version="1"><game><tags><tag name="Event">&xxe;'
    '</tag></tags></game></mancala>',
    '<!DOCTYPE mancala [<!ENTITY xxe SYSTEM "{uri}">]>\n<mancala version="&xxe;"/>',
    '<!DOCTYPE mancala [<!ENTITY % p SYSTEM "{uri}"> %p;]>\n<mancala version="1"/>',
    '<!DOCTYPE mancala SYSTEM "{uri}">\n<mancala version="1"/>',
    '<!DOCTYPE mancala SYSTEM "http://127.0.0.1:9/evil.dtd">\n<mancala version="1"/>',
    '<!DOCTYPE mancala [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<mancala version="1"><game><comment>&xxe;'
    '</comment></game></mancala>',
])
def test_external_entities_refused_without_leaking(body, secret):
    document = HEAD + body.replace("{uri}", secret.as_uri())
    records = []
    with pytest.raises(XMLArchiveError) as info:
        for record in read_archive(document.encode()):
            records.append(record)
    assert records == []
    text = str(info.value)
    assert "TOPSECRET" not in text and "root:" not in text
    assert "DTD" in text or "external entity" in text


def test_doctype_without_entities_refused():
    error = read_error(HEAD + '<!DOCTYPE mancala>\n<mancala version="1"/>')
    assert error.reason.startswith("DTDs are not allowed")


# -- deep nesting ------------------------------------------------------------------------------


def test_deepest_allowed_nesting_round_trips():
    record = nested_record(MAX_VARIATION_DEPTH)
    document = dump([record])
    back = list(read_archive(document))
    assert_same(record, back[0])
    assert dump(back) == document


def test_ten_thousand_deep_variations_refused_cleanly_on_write():
    out = io.BytesIO()
    with pytest.raises(XMLArchiveError) as info:
        write_archive([GameRecord(), nested_record(10_000)], out)
    assert f"at most {MAX_VARIATION_DEPTH}" in info.value.reason
    with pytest.raises(XMLArchiveError):
        dump([nested_record(MAX_VARIATION_DEPTH + 1)])


def test_ten_thousand_deep_document_refused_cleanly_on_read():
    depth = 10_000
    document = (HEAD + '<mancala version="1">\n<game>\n<moves>\n<move hole="c1">'
                + '<variation><move hole="d1">' * depth + "</move></variation>" * depth
                + "</move>\n</moves>\n</game>\n</mancala>\n")
    error = read_error(document)
    assert error.line == 5
    assert f"at most {MAX_VARIATION_DEPTH} deep" in error.reason


# -- sniffing ----------------------------------------------------------------------------------


@pytest.mark.parametrize("first, expected", [
    (b'<?xml version="1.0"?>', True),
    (b'<mancala version="1">', True),
    (b'\xef\xbb\xbf\n  <?xml version="1.0"?>', True),
    (b"\r\n\t<mancala>", True),
    (b"<!DOCTYPE mancala>", True),
    ('<?xml version="1.0" encoding="UTF-16"?>'.encode("utf-16"), True),
    ('<mancala/>'.encode("utf-16-le"), True),
    (b'[Game "kingulu"]\n', False),
    (b'{"game": "kingulu"}', False),
    (b"1. d1x6 d2 *", False),
    (b"\xef\xbb\xbf[Event \"x\"]", False),
    (b"", False),
])
def test_is_xml(first, expected):
    assert is_xml(first) is expected


# -- a damaged game: read up to the damage, one problem at the bad element's "<" --------------------

_GAME = ('<game><tags><tag name="Game">kingulu</tag></tags><moves><move hole="c1"/><move hole="{hole}"/></moves>'
         '<result>*</result></game>')
_OK, _BAD = _GAME.format(hole="d2"), _GAME.format(hole="z9")
_Z9 = "move 'z9' is not a hole"
_KG = [("Game", "kingulu")]


def damaged(document: str, encoding: str = "utf-8"):
    return [(g.tags, [m.hole for m in g.moves], [[[m.hole for m in v] for v in m.variations] for m in g.moves],
             g.result, [(p.code, p.line, p.column, p.message) for p in g.problems])
            for g in read_archive(document.encode(encoding))]


@pytest.mark.parametrize("body, games", [
    # A document of one line: the games before count on that line.
    (_OK + _BAD + _OK + _BAD, [(_KG, ["c1", "d2"], [[], []], "*", []), (_KG, ["c1"], [[]], None, [("syntax", 2, 218, _Z9)]),
                               (_KG, ["c1", "d2"], [[], []], "*", []), (_KG, ["c1"], [[]], None, [("syntax", 2, 464, _Z9)])]),
    # Start tags over several lines: the line and column of the "<".
    ('\n<game\n start="4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1"><tags><tag name="Game">kingulu</tag></tags>\n'
     '<moves><move hole="c1"/>\n<move\n  hole="z9"\n  number="2"/></moves></game>\n',
     [(_KG, ["c1"], [[]], None, [("syntax", 6, 1, _Z9)])]),
    # A game in an XML comment, in a CDATA section: not an element.
    ('\n<!-- <game><moves><move hole="a1"/></moves></game> -->' + _BAD.replace(
        '<move hole="c1"/>', '<move hole="c1"><comment><![CDATA[<move hole="q">]]><!-- <x> --></comment></move>'),
     [(_KG, ["c1"], [[]], None, [("syntax", 3, 192, _Z9)])]),
    # Columns count characters.
    ('\n  <game><tags><tag name="Event">é€𝄞</tag></tags><moves><move hole="z9"/></moves></game>\n',
     [([("Event", "é€𝄞")], [], [], None, [("syntax", 3, 56, _Z9)])]),
    # A bad attribute of the game: the rest is read.
    ('\n<game bogus="1"><tags><tag name="Game">kingulu</tag></tags><moves><move hole="c1"/></moves>'
     '<result>*</result></game>\n',
     [(_KG, ["c1"], [[]], "*", [("syntax", 3, 1, "not valid against the archive schema: "
                                                  "Invalid attribute bogus for element game")])]),
    # A variation is cut where the damage is; what follows it on the main line too.
    ('\n<game><tags><tag name="Game">kingulu</tag></tags><moves><move hole="c1"><variation><move hole="d1"/>'
     '<move hole="e2" reserved="x"/><move hole="a1"/></variation></move><move hole="d2"/></moves></game>\n',
     [(_KG, ["c1"], [[["d1"]]], None, [("syntax", 3, 101, "not valid against the archive schema: "
                                                           "Invalid attribute reserved for element move")])]),
    # The first damage in the document is the one reported; a variation left empty goes.
    ('\n<game><moves><move hole="c1"><variation><move hole="z9"/></variation></move><move hole="d2"/>'
     '<move hole="y7"/></moves></game>\n', [([], ["c1"], [[]], None, [("syntax", 3, 41, _Z9)])]),
    # A <tag> the schema refuses is left out alone, as a bad tag is.
    ('\n<game><tags><tag>x</tag><tag name="Game">kingulu</tag></tags><moves><move hole="c1"/></moves>'
     '<result>*</result></game>\n',
     [(_KG, ["c1"], [[]], "*", [("syntax", 3, 13, "not valid against the archive schema: "
                                                   "Element tag failed to validate attributes")])]),
    # Several damaged games, a bad tag beside the damage.
    ('\n' + _BAD + '\n' + _OK + '\n  <game><tags><tag name="Game">kingulu</tag><tag name="a b">v</tag></tags>'
     '<moves><move hole="c1" captured="q"/></moves></game>\n',
     [(_KG, ["c1"], [[]], None, [("syntax", 3, 74, _Z9)]), (_KG, ["c1", "d2"], [[], []], "*", []),
      (_KG, [], [], None, [("bad-tag", 5, 45, "tag name 'a b' is not letters, digits and _"),
                           ("syntax", 5, 82, "not valid against the archive schema: "
                                             "Invalid attribute captured for element move")])]),
])
def test_a_damaged_game_is_read_up_to_the_damage(body, games):
    assert damaged(HEAD + '<mancala version="1">' + body + "</mancala>\n") == games


def test_a_damaged_game_in_utf16_is_located_in_characters():
    document = HEAD.replace("UTF-8", "UTF-16") + '<mancala version="1">\n  ' + _BAD.replace("kingulu", "kingulu é")
    assert damaged(document + "\n</mancala>", "utf-16") == [
        ([("Game", "kingulu é")], ["c1"], [[]], None, [("syntax", 3, 78, _Z9)])]


def test_a_damaged_game_past_the_first_chunks_is_located():
    moves = "\n".join('    <move hole="c1"/>' for _ in range(5000))  # (about 110 kB: several chunks)
    document = (HEAD + '<mancala version="1">\n' + _OK + '\n  <game><tags><tag name="Game">kingulu</tag></tags>\n'
                '   <moves>\n' + moves + '\n    <move hole="z9"/>\n   </moves>\n  </game>\n</mancala>')
    first, second = read_archive(document.encode())
    assert (first.problems, len(second.moves), second.tags) == ([], 5000, _KG)
    assert [(p.line, p.column, p.message) for p in second.problems] == [(5006, 5, _Z9)]


def test_a_game_with_very_many_bad_places_keeps_what_comes_before_the_first():
    tags = '<tag name="Game">kingulu</tag>' + "<tag>v</tag>" * 50
    document = f'{HEAD}<mancala version="1">\n  <game><tags>{tags}</tags><moves><move hole="c1"/></moves></game></mancala>'
    (game,) = read_archive(document.encode())
    assert (game.tags, game.moves) == (_KG, [])
    assert [(p.line, p.column, p.message) for p in game.problems] == [
        (3, 45, "not valid against the archive schema: Element tag failed to validate attributes")]
