"""The canonical PMN writer (NOTATION.md §5) and read/write round trips."""
from __future__ import annotations

import io
import json
import pathlib
import re
import textwrap

import pytest
from hypothesis import assume, given, settings, strategies as st

from notation.pmn_reader import read_game, read_games
from notation.pmn_writer import WIDTH, write_game, write_games
from notation.record import GLYPHS, SEVEN_TAGS, GameRecord, MoveNode

SHARED = pathlib.Path(__file__).parents[1] / ".." / "shared"
CONFORMANCE = sorted((SHARED / "conformance").glob("*.pmn"))


def again(text: str) -> str:
    """write(read(text)) for every game of ``text``."""
    out = io.StringIO()
    write_games(read_games(text), out)
    return out.getvalue()


def shape(moves, comment=lambda text: text):
    """What a round trip must keep of a line of moves (not numbers, positions)."""
    return [(m.hole, m.destination, m.captured, m.reserved, m.glyphs, m.nags, comment(m.before),
             comment(m.comment), [shape(v, comment) for v in m.variations]) for m in moves]


def spaces(text):
    """A comment as a round trip must keep it: exactly."""
    return text


def kept(original, back) -> bool:
    """``back`` is ``original``, exactly (a long comment is written in pieces
    that a reader joins with the spaces they were cut at)."""
    return original == back


def comments(moves):
    for m in moves:
        yield m.before
        yield m.comment
        for v in m.variations:
            yield from comments(v)


# ------------------------------------------------------------ the specification's sample

SAMPLE = """\
[Game "kingulu"]
[Event "Village match"]
[Site "Mhonda, Morogoro"]
[Date "2026.11.02"]
[Round "1"]
[South "Amani"]
[North "Baraka"]
[Result "*"]

1. d1x6 {empty-hole capture: d2 and the capturing seed} 1... d2x10 2. f1^
{kuweka mtoto: f2 is South's now} 2... a2 (2... c2x9!? {nine at once})
3. d1 a2 *
"""

# The sample is wrapped by hand: filling greedily to 79 columns moves "3. d1 a2"
# up to the second line (exactly 79 characters) and leaves "*" alone.
SAMPLE_CANONICAL = SAMPLE.replace("{nine at once})\n3. d1 a2 *", "{nine at once}) 3. d1 a2\n*")


def test_the_sample_reads_as_specified():
    rec = read_game(SAMPLE)
    assert rec.problems == [] and rec.result == "*" and rec.result_at == (12, 10)
    assert [m.text for m in rec.moves] == ["d1x6", "d2x10", "f1^", "a2", "d1", "a2"]
    assert rec.moves[0].comment == "empty-hole capture: d2 and the capturing seed"
    assert rec.moves[2].comment == "kuweka mtoto: f2 is South's now"
    (variation,) = rec.moves[3].variations
    assert shape(variation) == [("c2", None, 9, False, ["!?"], [], None, "nine at once", [])]
    assert (variation[0].number, variation[0].dots, variation[0].line, variation[0].column) == (
        2, "...", 11, 49)


def test_the_sample_written_canonically():
    assert write_game(read_game(SAMPLE)) == SAMPLE_CANONICAL
    assert len(SAMPLE_CANONICAL.splitlines()[10]) == WIDTH
    assert again(SAMPLE_CANONICAL) == SAMPLE_CANONICAL


# ------------------------------------------------------------ tags


def test_tag_order_and_escapes():
    rec = GameRecord(tags=[("Zed", "z"), ("Result", "1-0"), ("Setup", "s S 0-0 1"), ("Game", "kingulu"),
                           ("Annotator", 'A "B" \\ C'), ("South", "Amani")], result="1-0")
    assert write_game(rec) == (
        '[Game "kingulu"]\n[South "Amani"]\n[Result "1-0"]\n[Setup "s S 0-0 1"]\n[Zed "z"]\n'
        '[Annotator "A \\"B\\" \\\\ C"]\n\n1-0\n')


def test_no_tag_is_invented():
    assert write_game(GameRecord(result="0-1")) == "0-1\n"
    assert write_game(GameRecord(tags=[("Game", "kingulu")], result="1-0")) == '[Game "kingulu"]\n\n1-0\n'
    assert write_game(GameRecord()) == "*\n"


# ------------------------------------------------------------ moves, numbers, marks


def n(hole, **kw) -> MoveNode:
    return MoveNode(hole=hole, **kw)


def test_marks_glyphs_nags_and_comments():
    rec = GameRecord(moves=[n("c1", captured=6, glyphs=["!?"], nags=[1, 14], comment="c"),
                            n("d2", captured=0, reserved=True), n("b2", destination="a2", captured=2),
                            n("S23", destination="S24", captured=None, glyphs=["??"])], result="1-0")
    assert write_game(rec) == "1. c1x6!? $1 $14 {c} 1... d2^ 2. b2-a2x2 S23-S24?? 1-0\n"


def test_a_second_glyph_is_written_as_its_nag_and_coords_change_nothing():
    rec = GameRecord(moves=[n("c1", glyphs=["!", "?!"], nags=[7]), n("d2", glyphs=["!!!"])])
    assert write_game(rec) == "1. c1! $6 $7 d2 *\n"
    assert write_game(rec, coords="numeric") == write_game(rec)


def test_n_dots_after_a_comment_a_variation_and_opening_a_variation():
    rec = GameRecord(moves=[
        n("c1"), n("d2", variations=[[n("e2"), n("f1", comment="x")]]),
        n("a1", comment="y"), n("b2", nags=[3]), n("c1", variations=[[n("d1", before="p")]]),
        n("e2", before="q")], result="*")
    assert write_game(rec) == (
        "1. c1 d2 (1... e2 2. f1 {x}) 2. a1 {y} 2... b2 $3 3. c1 ({p} 3. d1) {q} 3... e2\n*\n")


def test_numbers_follow_the_setup_side_and_move_number():
    setup = ("Setup", "4,4,4,4,4,4/4,4,4,4,4,4 N 0-0 17")
    rec = GameRecord(tags=[setup], moves=[n("a2"), n("c1"), n("b2", variations=[[n("c2")]]), n("d1")])
    assert write_game(rec).endswith("\n\n17... a2 18. c1 b2 (18... c2) 19. d1 *\n")
    bad = GameRecord(tags=[("Setup", "garbage")], moves=[n("a1"), n("a2")])
    assert write_game(bad).endswith("\n\n1. a1 a2 *\n")


def test_comment_of_a_game_without_moves():
    assert write_game(GameRecord(comment="no moves", result="*")) == "{no moves} *\n"


def test_empty_variations_are_not_written():
    rec = GameRecord(moves=[n("c1", variations=[[], [n("d1")]]), n("d2")])
    assert write_game(rec) == "1. c1 (1. d1) 1... d2 *\n"


def test_comment_with_a_closing_brace_becomes_line_comments():
    comments = ["see {a} and b}", "}", "x\ny } z\nw", " a}  "]
    rec = GameRecord(moves=[n("c1", comment=comments[0]), n("d2", comment=comments[1]),
                            n("e1", comment=comments[2]), n("f2", comment=comments[3])])
    text = write_game(rec)
    assert text == "1. c1 ;see {a} and b}\n1... d2 ;}\n2. e1 {x\ny} ;}\n{z\nw} 2... f2 ; a}  \n*\n"
    back = read_game(text)
    assert [m.comment for m in back.moves] == comments
    assert back.problems == []
    # a word with both a line break and "}" cannot be kept: the break becomes a space
    lossy = write_game(GameRecord(moves=[n("c1", comment="a}\nb")]))
    assert lossy == "1. c1 ;a} b\n*\n" and read_game(lossy).moves[0].comment == "a} b"


def test_multi_line_comment_is_kept():
    rec = GameRecord(moves=[n("c1", comment="first\n\n  second")])
    text = write_game(rec)
    assert text == "1. c1 {first\n\n  second} *\n"
    assert read_game(text).moves[0].comment == "first\n\n  second"


def test_a_comment_never_makes_a_new_tag_section():
    rec = GameRecord(moves=[n("c1", comment='a\n\n[Event "x"]\nb')])
    text = write_game(rec)
    assert text == '1. c1 {a\n [Event "x"]\nb} *\n'
    assert [g.moves[0].comment for g in read_games(text)] == ['a\n [Event "x"]\nb']


# ------------------------------------------------------------ wrapping


def test_greedy_wrapping_keeps_numbers_with_their_moves():
    moves = "f1 a2 c1 a2 b1^ d2 e1 d2^ d1 c2 c1 b2 f1^ d2x1 e1 c2 f1 b2 e1 c2x1 f1 d2 d1 b2 f1 c2 c1 b2 e1"
    rec = read_game(" ".join(moves.split()) + " 1-0")
    assert write_game(rec) == (
        "1. f1 a2 2. c1 a2 3. b1^ d2 4. e1 d2^ 5. d1 c2 6. c1 b2 7. f1^ d2x1 8. e1 c2\n"
        "9. f1 b2 10. e1 c2x1 11. f1 d2 12. d1 b2 13. f1 c2 14. c1 b2 15. e1 1-0\n")


def round_trip(record: GameRecord) -> str:
    """The canonical text of ``record``, checked to read back as the same
    record (its JSON) and to be written again byte for byte."""
    from notation.jsonl import record_to_json

    text = write_game(record)
    back = read_game(text)
    assert back.problems == []
    assert record_to_json(back, None, None) == record_to_json(record, None, None)
    assert write_game(back) == text
    again_back = read_game(write_game(back))
    assert write_game(again_back) == text
    assert record_to_json(again_back, None, None) == record_to_json(record, None, None)
    return text


def test_a_long_comment_without_a_sentence_end_is_written_whole():
    """Never cut mid-sentence ({word10} / {word11 …} read as two broken
    comments): a comment longer than a line starts a line of its own,
    longer than the width."""
    words = " ".join(f"word{i}" for i in range(30))
    rec = GameRecord(moves=[n("c1", comment=words), n("d2")], result="*")
    text = round_trip(rec)
    assert text == f"1. c1\n{{{words}}}\n1... d2 *\n"
    assert len(text.splitlines()[1]) == len(words) + 2 > WIDTH


def test_a_long_comment_is_cut_at_its_sentence_ends_only():
    said = ("The capture empties the row. South has no answer to it! Or has she? A long sentence follows "
            "here, and it goes on past the end of the line.")
    rec = GameRecord(moves=[n("c1", comment=said), n("d2")], result="*")
    assert round_trip(rec) == (
        "1. c1 {The capture empties the row. South has no answer to it! Or has she?}\n"
        "{A long sentence follows here, and it goes on past the end of the line.}\n"
        "1... d2 *\n")
    # Only after ".", "!" or "?" and exactly one space before more text: not
    # after "," or ":", nor where two spaces or a tab follow (one space could
    # not bring them back), nor at the end
    for said in ("one, " * 20 + "end", "one: " * 20 + "end", "Dots.  " * 15 + "end", "Dots.\t" * 15 + "end",
                 "word " * 20 + "end.", "word " * 20 + "end. "):
        text = round_trip(GameRecord(moves=[n("c1", comment=said)], result="*"))
        assert text == f"1. c1\n{{{said}}}\n*\n"
    # A sentence longer than a line stands alone between the others
    long = "A" + " very" * 20 + " long sentence."
    text = round_trip(GameRecord(moves=[n("c1", comment=f"Short. {long} Short again.")], result="*"))
    assert text == f"1. c1 {{Short.}}\n{{{long}}}\n{{Short again.}} *\n"


def test_a_comment_that_does_not_fit_starts_the_next_line_whole():
    moves = "f1 a2 c1 a2 b1^ d2 e1 d2^ d1 c2 c1 b2 f1^ d2x1 e1 c2"
    rec = read_game(" ".join(moves.split()) + " 1-0")
    rec.moves[13].comment = "the capturing seed is sown on"  # (was "{the}", then "{capturing seed is sown on}")
    assert round_trip(rec) == (
        "1. f1 a2 2. c1 a2 3. b1^ d2 4. e1 d2^ 5. d1 c2 6. c1 b2 7. f1^ d2x1\n"
        "{the capturing seed is sown on} 8. e1 c2 1-0\n")
    # the record's comment and the comments of a variation likewise
    rec.moves[0].variations = [[n("c1", before="a comment before the move in a variation", comment="and after")]]
    rec.moves[0].before = "A comment for the whole game, which is long enough to take most of the line."
    assert round_trip(rec) == (
        "{A comment for the whole game, which is long enough to take most of the line.}\n"
        "1. f1 ({a comment before the move in a variation} 1. c1 {and after}) 1... a2\n"
        "2. c1 a2 3. b1^ d2 4. e1 d2^ 5. d1 c2 6. c1 b2 7. f1^ d2x1\n"
        "{the capturing seed is sown on} 8. e1 c2 1-0\n")


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 12), st.text(alphabet="ab .!?\t\n", max_size=300))
def test_a_comment_is_cut_at_sentence_ends_only(moves, said):
    """Whatever the column a comment starts at: it reads back exactly, its
    ``{…}`` pieces end at a sentence end (but the last), and a line longer
    than the width is one piece without a sentence end in it."""
    rec = GameRecord(moves=[n("c1") for _ in range(moves)] + [n("d2", comment=said)], result="*")
    text = round_trip(rec)
    pieces = re.findall(r"\{([^}]*)\}", text)
    assert " ".join(pieces) == said
    assert all(re.search(r"[.!?]\Z", piece) and re.match(r"\S", after)
               for piece, after in zip(pieces, pieces[1:]))
    for line in text.splitlines():
        if len(line) > WIDTH:
            assert not re.search(r"[0-9]|[.!?] \S", line)
            assert "{" not in line[1:] and "}" not in line[:-1]


def test_a_long_comment_keeps_its_runs_of_spaces_and_its_line_breaks():
    text = "a" * 70 + "  b  c\n" + "d " * 50 + "\n  e"
    rec = GameRecord(moves=[n("c1", comment=text)], result="*")
    out = round_trip(rec)
    # each line of the text whole (the second, 100 characters, longer than the width)
    assert out == "1. c1\n{" + "a" * 70 + "  b  c\n" + "d " * 50 + "\n  e} *\n"
    assert read_game(out).moves[0].comment == text


def test_a_token_longer_than_a_line_stands_alone():
    rec = GameRecord(moves=[n("c1"), n("d2", comment="x" * 100), n("e1")])
    assert write_game(rec) == "1. c1 d2\n{" + "x" * 100 + "}\n2. e1 *\n"


# ------------------------------------------------------------ round trips


CANONICAL = [
    SAMPLE_CANONICAL,
    '[Game "kimasai-klamroth"]\n[Setup "x N 0-0 3"]\n[Coordinates "numeric"]\n\n'
    "3... 14-13x2 4. 25-26 ;a}b\n4... 40x1 (4... 41?? $2 {two\nlines} 5. 3) 1/2-1/2\n",
    "{before all} 1. a1 (1. b1 (1. c1) {c} 1... d2) 1... a2 *\n",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_text_is_written_back_byte_for_byte(text):
    assert again(text) == text


def test_several_games_are_separated_by_one_blank_line():
    text = '[Game "a"]\n\n1. c1 *\n\n1. d1 1-0\n\n{x} 0-1\n'
    out = io.StringIO()
    assert write_games(read_games(text), out) == 3
    assert out.getvalue() == text


def test_deep_variations_are_written_without_recursion():
    depth = 1_000
    root = n("a1")
    node = root
    for _ in range(depth):
        child = n("b1")
        node.variations.append([child])
        node = child
    text = write_game(GameRecord(moves=[root]))
    assert text.split() == ["1.", "a1"] + ["(1.", "b1"] * (depth - 1) + ["(1.", "b1" + ")" * depth, "*"]
    assert all(len(line) <= WIDTH for line in text.splitlines()[:-2])
    back = read_game(text)
    assert back.problems == [] and write_game(back) == text


# ------------------------------------------------------------ conformance records


@pytest.mark.skipif(not CONFORMANCE, reason="no shared conformance records")
@pytest.mark.parametrize("path", CONFORMANCE, ids=lambda p: p.name)
def test_conformance_records(path):
    text = path.read_text(encoding="utf-8")
    with path.open(encoding="utf-8") as f:
        games = list(read_games(f, str(path)))
    assert [p for g in games for p in g.problems] == []
    expected = [json.loads(line) for line in path.with_suffix(".jsonl").read_text().splitlines()]
    assert len(games) == len(expected) == text.count("[Game ")
    for game, want in zip(games, expected):
        assert game.tag("Game") == want["game"] and game.tag("Event") == want["event"]
        if "moves" in want:
            assert [m.text for m in game.moves] == want["moves"] and game.result == want["result"]
        else:
            assert game.moves[want["ply"] - 1].text == want["move"]
            assert game.result == want["result_token"]
    out = again(text)
    assert again(out) == out
    assert out.split() == text.split()
    # The only difference from these files: they break a line between a move
    # number and its move ("9.\nf1"), which PMN §5 forbids; filling our
    # output token by token reproduces them byte for byte.
    refilled = "\n".join(
        tags + "\n\n" + textwrap.fill(" ".join(moves.split()), WIDTH, break_long_words=False,
                                      break_on_hyphens=False) + "\n"
        for tags, moves in (write_game(g).split("\n\n") for g in games))
    assert refilled == text
    assert all(len(line) <= WIDTH for line in out.splitlines())
    assert not any(re.search(r"(^|\s)\d+\.$", line) for line in out.splitlines())


# ------------------------------------------------------------ properties

HOLES = st.sampled_from(["a1", "c2", "l4", "12", "7", "S3", "N12"])
COMMENT_TEXT = st.text(alphabet="ab }{;[()\n\t", max_size=30)


def representable(text: str) -> bool:
    """Comments the writer keeps exactly (see write_game's docs)."""
    if any("}" in w and "\n" in w for w in text.split(" ")):
        return False
    lines = text.split("\n")
    return not any(not lines[i - 1].strip() and lines[i].lstrip().startswith("[")
                   for i in range(2, len(lines)))


COMMENTS = st.none() | COMMENT_TEXT.filter(representable)


@st.composite
def move_lines(draw, depth=0):
    out = []
    for _ in range(draw(st.integers(1 if depth else 0, 5 if depth else 14))):
        node = MoveNode(hole=draw(HOLES), destination=draw(st.none() | HOLES),
                        captured=draw(st.none() | st.integers(1, 40)), reserved=draw(st.booleans()),
                        glyphs=draw(st.lists(st.sampled_from(GLYPHS), max_size=1)),
                        nags=draw(st.lists(st.integers(0, 255), max_size=2)), comment=draw(COMMENTS))
        if not out or out[-1].variations:
            node.before = draw(COMMENTS)
        if depth < 3 and draw(st.integers(0, 4)) == 0:
            node.variations = draw(st.lists(move_lines(depth + 1), min_size=1, max_size=2))
        out.append(node)
    return out


@st.composite
def records(draw):
    names = [name for name in SEVEN_TAGS + ("Setup", "Annotator", "Zed") if draw(st.booleans())]
    values = st.text(alphabet='ab "\\é', max_size=8)
    tags = [(name, draw(values)) for name in names]
    if "Setup" in names:
        side, number = draw(st.sampled_from("SN")), draw(st.integers(1, 99))
        tags[names.index("Setup")] = ("Setup", f"4,4/4,4 {side} 0-0 {number}")
    moves = draw(move_lines())
    comment = None if moves else draw(COMMENTS)
    return GameRecord(tags=tags, moves=moves, comment=comment,
                      result=draw(st.sampled_from(["1-0", "0-1", "1/2-1/2", "*"])))


@settings(max_examples=300, deadline=None)
@given(records())
def test_write_then_read_gives_the_record_back(record):
    text = write_game(record)
    back = read_game(text)
    assert back.problems == []
    assert back.tags == record.tags and back.result == record.result
    assert kept(record.comment, back.comment)
    assert shape(back.moves, spaces) == shape(record.moves, spaces)
    assert all(kept(o, b) for o, b in zip(comments(record.moves), comments(back.moves)))
    assert all(len(line) <= WIDTH for line in text.splitlines()[len(record.tags):])
    assert not any(re.search(r"(^|\s)\d+\.(\.\.)?$", line) for line in text.splitlines())
    assert write_game(back) == text


ANY_TEXT = st.text(alphabet='ab }{;[()\n\r\t"\\', max_size=30)


@st.composite
def any_records(draw):
    """Records no reader makes: comments anywhere, any text, zero captures…"""
    def line(depth):
        out = []
        for _ in range(draw(st.integers(0, 4))):
            out.append(MoveNode(
                hole=draw(HOLES), captured=draw(st.none() | st.integers(-2, 3)),
                glyphs=draw(st.lists(st.sampled_from(GLYPHS), max_size=2)),
                before=draw(st.none() | ANY_TEXT), comment=draw(st.none() | ANY_TEXT),
                variations=[line(depth + 1) for _ in range(draw(st.integers(0, 2 if depth < 2 else 0)))]))
        return out
    return GameRecord(tags=[("Event", draw(ANY_TEXT))], moves=line(0), comment=draw(st.none() | ANY_TEXT))


@settings(max_examples=300, deadline=None)
@given(any_records())
def test_any_record_is_written_as_valid_pmn_that_is_stable(record):
    first = write_game(record)
    games = list(read_games(first))
    assert len(games) == 1 and games[0].problems == []
    second = write_game(games[0])
    assert again(second) == second


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=list('[]"\\{}();$!?^x-./*0123469aceSN \t\n\r'), max_size=200))
def test_any_text_is_written_as_valid_pmn_that_is_stable(text):
    first = again(text)
    assume(first)
    assert all(g.problems == [] for g in read_games(first))
    assert again(first) == first


def test_a_comment_piece_of_white_space_never_pushes_a_line_past_the_width():
    record = GameRecord(moves=[
        MoveNode("a1", "a1", 1, comment=";;"),
        MoveNode("a1", "a1", 1, True, ["!!"], [10, 100], comment=";",
                 variations=[[MoveNode("N12", "N12", 10, True, ["!!"], [100], before="")]]),
        MoveNode("a1", before=";;;;  \t\n")], result="1-0")
    assert write_game(record) == ("1. a1-a1x1 {;;} 1... a1-a1x1^!! $10 $100 {;} ({} 1... N12-N12x10^!! $100)\n"
                                  "{;;;;  \t\n} 2. a1 1-0\n")


def test_a_white_space_piece_that_ends_its_line_is_never_left_alone_on_a_line():
    """A break before the tab of ``{ \\t\\n[}`` would leave a blank line, and a
    blank line followed by ``[`` starts a new game."""
    moves = [MoveNode("a1") for _ in range(17)]  # the comment's "{" then ends a full line
    moves[-1].comment = " \t\n["
    record = GameRecord(tags=[("Game", "kingulu"), ("Result", "*")], moves=moves, result="*")
    text = write_game(record)
    assert all(line.strip() for line in text.split("\n\n", 1)[1].splitlines())
    back = read_game(text)
    assert back.problems == [] and back.moves[-1].comment == " \t\n["
