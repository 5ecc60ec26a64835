"""The PMN reader: grammar units, exact positions of mistakes, resynchronisation,
streaming, deep nesting and bounded time (NOTATION.md §1)."""
from __future__ import annotations

import io
import time

import pytest
from hypothesis import given, settings, strategies as st

from notation.grammar import escape, movetext_tokens, unescape
from notation.pmn_reader import read_game, read_games
from notation.record import GLYPHS, MAX_PROBLEMS, MAX_VARIATION_DEPTH


def one(text: str):
    games = list(read_games(text))
    assert len(games) == 1, [g.tags for g in games]
    return games[0]


def probs(record):
    return [(p.severity, p.code, p.line, p.column) for p in record.problems]


def errors(record):
    return [(p.line, p.column) for p in record.problems if p.severity == "error"]


def depth_of(moves) -> int:
    """Nesting depth of variations, without recursion."""
    best = 0
    stack = [(moves, 0)]
    while stack:
        line, d = stack.pop()
        best = max(best, d)
        for node in line:
            for var in node.variations:
                stack.append((var, d + 1))
    return best


# ------------------------------------------------------------ tag pairs


def test_tags_in_order_with_positions():
    rec = one('[Game "kingulu"]\n[Zeta "z"]\n  [ Event   "Village match" ]  \n[Site ""]\n\n*\n')
    assert rec.tags == [("Game", "kingulu"), ("Zeta", "z"), ("Event", "Village match"), ("Site", "")]
    assert rec.tag_at == {"Game": (1, 8), "Zeta": (2, 8), "Event": (3, 14), "Site": (4, 8)}
    assert rec.problems == []
    assert rec.result == "*" and rec.result_at == (6, 1)


def test_tag_escapes_and_duplicates():
    rec = one('[Event "a \\"quoted\\" \\\\ word"]\n[Event "second"]\n\n*\n')
    assert rec.tags == [("Event", 'a "quoted" \\ word'), ("Event", "second")]
    assert rec.tag("Event") == 'a "quoted" \\ word'
    assert rec.tag_at["Event"] == (1, 9)
    assert unescape('a\\"b\\\\c') == 'a"b\\c' and escape('a"b\\c') == 'a\\"b\\\\c'


def test_several_tags_on_one_line_and_movetext_after_them():
    rec = one('[Game "kingulu"] [Round "3"]  [South "Amani"] 1. c1 *\n')
    assert rec.tags == [("Game", "kingulu"), ("Round", "3"), ("South", "Amani")]
    assert rec.tag_at == {"Game": (1, 8), "Round": (1, 26), "South": (1, 39)}
    assert [(m.hole, m.line, m.column) for m in rec.moves] == [("c1", 1, 50)]
    assert rec.result == "*" and rec.problems == []


def test_record_line_index_and_file():
    text = '\n\n[Game "kingulu"]\n\n1. c1 *\n\n\n[Game "kingulu"]\n\n1. d1 1-0\n\n1. e1 0-1\n'
    games = list(read_games(io.StringIO(text), file="g.pmn"))
    assert [(g.index, g.line, g.file, g.result) for g in games] == [
        (1, 3, "g.pmn", "*"), (2, 8, "g.pmn", "1-0"), (3, 12, "g.pmn", "0-1")]
    assert [g.moves[0].hole for g in games] == ["c1", "d1", "e1"]
    assert games[2].tags == []


# ------------------------------------------------------------ movetext tokens


def test_token_kinds():
    assert movetext_tokens("12. c1x6! 12... d2^ $14 {a} ( ) ; rest") == [
        ("NUMBER", "12."), ("MOVE", "c1x6!"), ("NUMBER", "12..."), ("MOVE", "d2^"), ("NAG", "$14"),
        ("COMMENT", "{a}"), ("OPEN", "("), ("CLOSE", ")"), ("LINECOMMENT", "; rest")]
    assert movetext_tokens("1-0 0-1 1/2-1/2 * 14-13 10-1 1-01 } %x {open") == [
        ("RESULT", "1-0"), ("RESULT", "0-1"), ("RESULT", "1/2-1/2"), ("RESULT", "*"),
        ("MOVE", "14-13"), ("MOVE", "10-1"), ("MOVE", "1-01"), ("STRAY", "}"), ("UNKNOWN", "%x"),
        ("OPENCOMMENT", "{open")]


def test_moves_in_every_coordinate_style_with_marks():
    rec = one("1. c1x6 d2^ 2. 14 S23-S24x2 3. b2-a2x2^ N3 4. e1x0 12 *")
    got = [(m.hole, m.destination, m.captured, m.reserved, m.number, m.dots) for m in rec.moves]
    assert got == [
        ("c1", None, 6, False, 1, "."), ("d2", None, None, True, None, None),
        ("14", None, None, False, 2, "."), ("S23", "S24", 2, False, None, None),
        ("b2", "a2", 2, True, 3, "."), ("N3", None, None, False, None, None),
        ("e1", None, 0, False, 4, "."), ("12", None, None, False, None, None)]
    assert [m.text for m in rec.moves] == ["c1x6", "d2^", "14", "S23-S24x2", "b2-a2x2^", "N3",
                                           "e1x0", "12"]
    assert rec.problems == []


def test_numbers_and_numeric_moves_are_told_apart():
    rec = one("1.14 1...13 2. 14-13 2... 1 1-0")
    assert [(m.hole, m.destination, m.number, m.dots) for m in rec.moves] == [
        ("14", None, 1, "."), ("13", None, 1, "..."), ("14", "13", 2, "."), ("1", None, 2, "...")]
    assert rec.result == "1-0" and rec.result_at == (1, 29)
    assert rec.problems == []


@pytest.mark.parametrize("result", ["1-0", "0-1", "1/2-1/2", "*"])
def test_result_tokens(result):
    rec = one(f"1. c1 {result}\n")
    assert rec.result == result and rec.result_at == (1, 7) and rec.problems == []


@pytest.mark.parametrize("glyph", GLYPHS)
def test_glyphs(glyph):
    rec = one(f"1. c1{glyph} $1 $255 *")
    assert rec.moves[0].glyphs == [glyph] and rec.moves[0].nags == [1, 255]
    assert rec.problems == []


def test_move_positions_are_where_the_hole_token_starts():
    rec = one('[Game "x"]\n\n1. c1  d2\n   2.e1 (2. f1x3)\n*')
    assert [(m.hole, m.line, m.column) for m in rec.moves] == [("c1", 3, 4), ("d2", 3, 8),
                                                               ("e1", 4, 6)]
    var = rec.moves[2].variations[0][0]
    assert (var.hole, var.line, var.column, var.captured) == ("f1", 4, 13, 3)
    assert rec.result_at == (5, 1)


def test_variations_nest_and_attach_to_the_move_before():
    rec = one("1. a1 (1. b1 (1. c1 d2) 1... e2) (1. f1) b2 (1... g2 2. h1) 2. a1 *")
    a1, b2, a1b = rec.moves
    assert [[m.hole for m in v] for v in a1.variations] == [["b1", "e2"], ["f1"]]
    assert [[m.hole for m in v] for v in a1.variations[0][0].variations] == [["c1", "d2"]]
    assert [[m.hole for m in v] for v in b2.variations] == [["g2", "h1"]]
    assert a1b.variations == [] and rec.problems == []


# ------------------------------------------------------------ comments


def test_comment_after_a_move_and_its_glyphs_and_nags():
    rec = one("1. c1!? $4 {good} {really} ;and more\n d2 *")
    assert rec.moves[0].comment == "good really and more"
    assert rec.moves[1].comment is None and rec.moves[1].before is None


def test_comment_before_the_first_move_and_after_a_variation():
    rec = one("{opening} 1. c1 (1. d1) {after var} 1... d2 ( {in var} 1... e2 {x}) *")
    c1, d2 = rec.moves
    assert c1.before == "opening" and c1.comment is None
    assert d2.before == "after var"
    assert d2.variations[0][0].before == "in var" and d2.variations[0][0].comment == "x"


def test_comment_with_no_following_move_goes_to_the_previous_move():
    rec = one("1. c1 (1. d1 d2 ( {lonely} ) ) {end one} {end two} *")
    c1 = rec.moves[0]
    assert c1.comment == "end one end two"
    # the empty variation's comment goes to the move it is an alternative to
    assert c1.variations[0][1].comment == "lonely"
    assert [(p.code, p.line, p.column, p.message) for p in rec.problems] == [
        ("syntax", 1, 17, "empty variation")]


def test_comment_of_a_game_without_moves():
    rec = one('[Game "x"]\n\n{nothing played} {yet} *\n')
    assert rec.moves == [] and rec.comment == "nothing played yet" and rec.problems == []


def test_comment_after_a_move_number_belongs_to_the_move_before():
    rec = one("1. c1 2. {between} d2 *")
    assert rec.moves[0].comment == "between" and rec.moves[1].before is None


def test_comment_text_is_kept_exactly():
    rec = one("1. c1 {  two  spaces\n\n  second\tparagraph } d2 ;  semi  \n*\n")
    assert rec.moves[0].comment == "  two  spaces\n\n  second\tparagraph "
    assert rec.moves[1].comment == "  semi  "
    assert rec.problems == []


def test_comment_after_the_result_is_kept():
    rec = one("1. c1 * {after}\n")
    assert rec.moves[0].comment == "after" and rec.problems == []


def test_braces_and_semicolons_inside_comments():
    rec = one("1. c1 {a ; (b) [c] {d} d2 ; e { f } (\n*")
    assert rec.moves[0].comment == "a ; (b) [c] {d"
    assert rec.moves[1].comment == " e { f } ("
    assert rec.problems == []


# ------------------------------------------------------------ mistakes, exact positions


@pytest.mark.parametrize("text, line, column, message", [
    ("1. c1 zz *", 1, 7, "unknown token 'zz'"),
    ("1. c1 c1x6abc *", 1, 7, "unknown token 'c1x6abc'"),
    ("1. c1\n  @ *", 2, 3, "unknown token '@'"),
    ("1. c1 x *", 1, 7, "unknown token 'x'"),
    ("1. c1 ) *", 1, 7, "')' without '('"),
    ("1. c1 } *", 1, 7, "'}' without '{'"),
    ("(1. c1) 1. d1 *", 1, 1, "variation with no preceding move"),
    ("1. c1 () *", 1, 7, "empty variation"),
    ("1. c1 $256 *", 1, 7, "NAG out of range (0-255): '$256'"),
    ("$3 1. c1 *", 1, 1, "NAG $3 without a move"),
    ("1. c1 {never closed\nd2 *\n", 1, 7, "unterminated comment: '{' opened here is never closed"),
    ("1. c1 (1. d1 (1. e1\nd2 *", 1, 7,
     "unterminated variation: '(' opened here is never closed (1 more inside it)"),
    ('[Event "x"\n\n*', 1, 1, "unterminated tag: '[' opened here is never closed"),
    ('[Event "x\n\n*', 1, 8, "unterminated string: '\"' opened here is never closed"),
    ('[Event\n\n*', 1, 1, "unterminated tag: '[' opened here is never closed (no value for Event)"),
    ('[Event x]\n\n*', 1, 8, "the value of tag Event must be a double-quoted string"),
    ('[ "x"]\n\n*', 1, 3, "tag name expected, found '\"'"),
    ('[Event "x" junk]\n\n*', 1, 12, "']' expected after the value of tag Event, found 'j'"),
    ('[Event "a\\nb"]\n\n*', 1, 10, 'invalid escape in a tag value (only \\" and \\\\)'),
    ("1. c1 * d2", 1, 9, "text after the result token: 'd2'"),
    ("1. c1 1-0 (", 1, 11, "text after the result token: '('"),
])
def test_each_mistake_at_its_exact_position(text, line, column, message):
    rec = one(text)
    errs = [(p.line, p.column, p.message) for p in rec.problems
            if p.severity == "error" and p.code != "missing-result"]
    assert errs == [(line, column, message)]
    assert all(p.code in ("syntax", "missing-result") for p in rec.problems if p.severity == "error")


def test_missing_result_is_a_warning_after_the_last_text():
    rec = one('[Game "kingulu"]\n\n1. c1 d2 \n2. e1  \n')
    assert probs(rec) == [("error", "missing-result", 4, 6)]
    assert rec.result is None and [m.hole for m in rec.moves] == ["c1", "d2", "e1"]


def test_move_number_without_a_move_is_a_warning():
    rec = one("1. c1 2. 3. d1 4. *")
    assert [(p.severity, p.code, p.line, p.column, p.message) for p in rec.problems] == [
        ("warning", "move-number", 1, 7, "move number 2. is not followed by a move"),
        ("warning", "move-number", 1, 16, "move number 4. is not followed by a move")]
    assert [(m.hole, m.number) for m in rec.moves] == [("c1", 1), ("d1", 3)]


def test_only_the_first_text_after_the_result_is_reported():
    rec = one("1. c1 * d2 e2 (\n f1")
    assert errors(rec) == [(1, 9)]
    assert [m.hole for m in rec.moves] == ["c1"]


def test_errors_are_counted_but_capped():
    rec = one("1. c1 " + "@ " * 500 + "*")
    assert len(rec.problems) == MAX_PROBLEMS + 1
    assert rec.problems[MAX_PROBLEMS - 1].column == 7 + 2 * (MAX_PROBLEMS - 1)
    assert rec.problems[-1].message.startswith(f"more than {MAX_PROBLEMS} syntax errors")
    assert rec.result == "*"


def test_huge_numbers_are_errors_not_crashes():
    rec = one("1" * 5000 + ". c1x" + "9" * 5000 + " $" + "9" * 5000 + " *")
    assert [(p.column, p.message.split(":")[0]) for p in rec.problems] == [
        (1, "move number too large"), (5006, "capture count too large"),
        (10007, "NAG out of range (0-255)")]
    assert [(m.hole, m.captured, m.number) for m in rec.moves] == [("c1", None, None)]


# ------------------------------------------------------------ resynchronisation

NEXT = '[Game "kingulu"]\n[Event "next"]\n\n1. d1 {fine} 1... a2 1-0\n'


def check_next(game, index, line):
    assert game.index == index and game.line == line
    assert game.tags == [("Game", "kingulu"), ("Event", "next")]
    assert [(m.hole, m.line) for m in game.moves] == [("d1", line + 3), ("a2", line + 3)]
    assert game.moves[0].comment == "fine"
    assert game.result == "1-0" and game.problems == []


def test_unterminated_comment_does_not_swallow_the_next_game():
    text = '[Game "kingulu"]\n\n1. c1 {oops d2\n\nstill comment\n\n' + NEXT
    first, second = read_games(text)
    assert first.moves[0].comment == "oops d2\n\nstill comment"
    assert probs(first) == [("error", "syntax", 3, 7), ("error", "missing-result", 5, 14)]
    check_next(second, 2, 7)


def test_unterminated_variation_does_not_swallow_the_next_game():
    text = '[Game "kingulu"]\n\n1. c1 (1. d1 (1. e1 d2 *\n\n' + NEXT
    first, second = read_games(text)
    assert probs(first) == [("error", "syntax", 3, 7)]
    assert first.result == "*"
    c1 = first.moves[0]
    assert [m.hole for m in c1.variations[0]] == ["d1"]
    assert [m.hole for m in c1.variations[0][0].variations[0]] == ["e1", "d2"]
    check_next(second, 2, 5)


def test_unterminated_variation_without_result_then_tags_without_blank_line():
    text = '1. c1 (1. d1\n' + NEXT
    first, second = read_games(text)
    assert probs(first) == [("error", "syntax", 1, 7), ("error", "missing-result", 1, 13)]
    check_next(second, 2, 2)


def test_unterminated_string_and_tag_do_not_swallow_the_next_game():
    text = '[Game "kingulu]\n[Event "x"\n\n1. c1 *\n\n' + NEXT
    first, second = read_games(text)
    assert first.tags == [("Game", "kingulu"), ("Event", "x")]
    assert [(p.line, p.column, p.message.split(":")[0]) for p in first.problems] == [
        (1, 7, "unterminated string"), (2, 1, "unterminated tag")]
    assert [m.hole for m in first.moves] == ["c1"] and first.result == "*"
    check_next(second, 2, 6)


def test_a_blank_line_then_a_tag_ends_even_an_unterminated_comment_in_the_tags_game():
    text = '[Game "kingulu"]\n\n{ never closed\n\n' + NEXT + "\n" + NEXT
    games = list(read_games(text))
    assert len(games) == 3
    assert games[0].comment == " never closed" and games[0].moves == []
    check_next(games[1], 2, 5)
    check_next(games[2], 3, 10)


def test_a_tag_line_inside_a_comment_without_blank_line_is_comment_text():
    rec = one('1. c1 {see\n[Event "x"] below} *\n')
    assert rec.moves[0].comment == 'see\n[Event "x"] below' and rec.problems == []


def test_a_tag_section_after_movetext_starts_a_new_game():
    first, second = read_games('1. c1 *\n' + NEXT)
    assert first.moves[0].hole == "c1" and first.problems == []
    check_next(second, 2, 2)


def test_a_blank_line_inside_movetext_does_not_end_the_game():
    rec = one("1. c1\n\n1... d2\n\n*")
    assert [m.hole for m in rec.moves] == ["c1", "d2"] and rec.problems == []


def test_tags_after_a_blank_line_in_the_tag_section_start_a_new_game():
    first, second = read_games('[Game "a"]\n\n[Game "b"]\n\n*\n')
    assert first.tags == [("Game", "a")] and probs(first) == [("error", "missing-result", 1, 11)]
    assert second.tags == [("Game", "b")] and second.result == "*" and second.line == 3


# ------------------------------------------------------------ line ends, BOM


def test_bom_crlf_and_lone_cr():
    text = '\ufeff[Game "x"]\r\n\r\n1. c1 {a\r\nb} zz *\r\n\r\n[Game "y"]\r\r1. d1 @ *\r'
    first, second = read_games(text)
    assert first.tag_at["Game"] == (1, 8)
    assert first.moves[0].comment == "a\nb"
    assert errors(first) == [(4, 4)]
    assert second.line == 6 and second.tag_at["Game"] == (6, 8)
    assert errors(second) == [(8, 7)]


def test_crlf_from_a_binary_style_line_iterable():
    lines = ['[Game "x"]\r\n', "\r\n", "1. c1 * \r\n"]
    rec = read_game("".join(lines))
    assert list(read_games(lines))[0].moves[0].column == rec.moves[0].column == 4
    assert rec.result_at == (3, 7)


# ------------------------------------------------------------ streaming


def test_games_are_yielded_before_the_rest_is_read():
    consumed = []

    def source():
        for i in range(1, 100_000):
            for line in (f'[Event "{i}"]', "", f"{i}. c1 *", ""):
                consumed.append(line)
                yield line

    games = read_games(source())
    first = next(games)
    assert first.tags == [("Event", "1")] and len(consumed) == 4
    second = next(games)
    assert second.tags == [("Event", "2")] and second.moves[0].number == 2 and len(consumed) == 8
    assert (second.index, second.line) == (2, 5)


def test_a_text_string_and_an_empty_input():
    assert list(read_games("")) == [] and read_game("\n\n  \n") is None
    assert read_game("1. c1 *").moves[0].hole == "c1"


# ------------------------------------------------------------ size and depth


def test_variations_nested_to_the_limit():
    n = MAX_VARIATION_DEPTH
    rec = one("1. a1 " + "(1. b1 " * n + ")" * n + " *\n")
    assert rec.problems == [] and rec.result == "*"
    assert depth_of(rec.moves) == n


def test_ten_thousand_nested_variations_are_cut_at_the_limit():
    n = 10_000
    rec = one("1. a1 " + "(1. b1 " * n + ")" * n + " *\n")
    assert [(p.line, p.column, p.message) for p in rec.problems] == [
        (1, 7 + 7 * MAX_VARIATION_DEPTH,
         f"variations nested deeper than {MAX_VARIATION_DEPTH} levels: the deeper ones are skipped")]
    assert rec.result == "*" and depth_of(rec.moves) == MAX_VARIATION_DEPTH


def test_ten_thousand_unclosed_variations():
    n = 10_000
    first, second = read_games("1. a1 " + "(1. b1 " * n + "\n\n" + NEXT)
    assert [(p.column, p.code) for p in first.problems] == [
        (7, "syntax"), (7 + 7 * MAX_VARIATION_DEPTH, "syntax"), (70006, "missing-result")]
    assert first.problems[0].message == (
        f"unterminated variation: '(' opened here is never closed ({n - 1} more inside it)")
    assert depth_of(first.moves) == MAX_VARIATION_DEPTH
    check_next(second, 2, 3)


def test_big_inputs_in_bounded_time():
    start = time.perf_counter()
    big = "x " * 500_000
    rec = one("1. a1 {" + big + "} *\n")
    assert rec.moves[0].comment == big
    rec = one("1. a1 {" + "abcdefghi\n" * 100_000 + "} *\n")
    assert len(rec.moves[0].comment) == 1_000_000
    rec = one("1. a1 " + "{c} " * 100_000 + "*\n")
    assert rec.moves[0].comment == " ".join(["c"] * 100_000)
    rec = one(" ".join(f"{i // 2 + 1}. a1" if i % 2 == 0 else "b2" for i in range(100_000)) + " *\n")
    assert len(rec.moves) == 100_000 and rec.moves[-1].number is None
    assert rec.moves[-2].number == 50_000
    rec = one("1. a1" + " " * 1_000_000 + "\n*\n")
    assert rec.result_at == (2, 1)
    rec = one("1. a1 " + "(" * 200_000 + " *\n")
    assert len(rec.problems) == MAX_PROBLEMS + 2  # capped, but the unterminated "(" is reported
    assert (rec.problems[0].column, rec.problems[0].message) == (
        7, "unterminated variation: '(' opened here is never closed (199999 more inside it)")
    assert time.perf_counter() - start < 20


# ------------------------------------------------------------ never raises

PMN_CHARS = st.sampled_from(list('[]"\\{}();$!?^x-./*01234569acelSN \t\n\r') + ["\ufeff", "é"])


@settings(max_examples=300, deadline=None)
@given(st.lists(PMN_CHARS, max_size=300).map("".join))
def test_any_text_reads_without_raising_and_positions_are_real(text):
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    games = list(read_games(text))
    for i, game in enumerate(games, 1):
        assert game.index == i
        for p in game.problems:
            assert p.severity in ("error", "warning")
            assert 1 <= p.line <= len(lines)
            assert 1 <= p.column <= len(lines[p.line - 1]) + 1


# ------------------------------------------------- plain moves, one scan a line

PLAIN_WORDS = st.sampled_from([
    "1.", "12.", "12...", "3...", "c1", "d2x6", "e2^", "f1x3^", "14", "S3", "N11", "a99",
    "1-0", "0-1", "1/2-1/2", "*", "{c}", "{", "}", "(", ")", ";x", "$3", "c1!", "d2?!",
    "b2-a2", "14-13", "9.", "12..c1", "c1x1234567890", "1234567890.", "x", "^", "é",
])
SPACES = st.sampled_from([" ", "  ", "\t", "\n", "\n\n", "", " \n"])


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(PLAIN_WORDS, SPACES), max_size=40))
def test_plain_moves_read_exactly_as_token_by_token(words):
    """The one-scan reading of plain moves (and of a result that ends the
    line) is an optimisation only: with it turned off (every line read token
    by token from its first character), every record (moves, problems,
    positions) comes out the same."""
    import re

    import notation.grammar as grammar
    import notation.pmn_movetext as pmn
    text = '[Game "kingulu"]\n\n' + "".join(w + s for w, s in words)
    fast = list(read_games(text))
    plain, scan, most = grammar.PLAIN_LINE_RE, pmn._SCAN, pmn._WORDS_MAX
    try:
        pmn._SCAN = None  # the native tokenizer, where it runs, left out: word by word
        by_words = list(read_games(text))
        pmn._WORDS_MAX = -1  # and no line read word by word: one PLAIN_LINE scan
        by_scan = list(read_games(text))
        # The groups of PLAIN_LINE, only "other" ever matching.
        grammar.PLAIN_LINE_RE = re.compile(r"((?!))?" * 6 + r"\s*(\S)")
        slow = list(read_games(text))
    finally:
        grammar.PLAIN_LINE_RE, pmn._SCAN, pmn._WORDS_MAX = plain, scan, most
    assert fast == by_words == by_scan == slow


def test_a_line_of_plain_moves_and_its_result_is_one_scan(monkeypatch):
    import notation.grammar as grammar
    import notation.pmn_movetext as pmn
    scans = []
    plain = grammar.PLAIN_LINE_RE.finditer

    class Counted:
        def finditer(self, line, pos, end):
            scans.append(line[pos:end])
            return plain(line, pos, end)

    class NoTokens:
        def finditer(self, *args):
            raise AssertionError("read token by token")

    monkeypatch.setattr(grammar, "PLAIN_LINE_RE", Counted())
    monkeypatch.setattr(grammar, "TOKEN_RE", NoTokens())
    text = '[Game "kingulu"]\n\n1. d1x6 d2x10 2. a1 c2x10\n3. d1 c2 4. f1^   d2\t5. e1 b2 0-1\n'
    native = pmn._SCAN
    if native is not None:  # the native tokenizer: one call per line too
        def scanned(line, pos, end, lineno, moves):
            scans.append(line[pos:end])
            return native(line, pos, end, lineno, moves)

        monkeypatch.setattr(pmn, "_SCAN", scanned)
        (record,) = read_games(text)
        assert scans == ["1. d1x6 d2x10 2. a1 c2x10", "3. d1 c2 4. f1^   d2\t5. e1 b2 0-1"]
        assert [(m.hole, m.number, m.line, m.column) for m in record.moves][-3:] == [
            ("d2", None, 4, 19), ("e1", 5, 4, 25), ("b2", None, 4, 28)]
        assert (record.result, record.result_at, record.problems) == ("0-1", (4, 31), [])
        scans.clear()
        monkeypatch.setattr(pmn, "_SCAN", None)
    # the pure reader: a short line word by word, no regular expression scan
    (record,) = read_games(text)
    assert scans == []
    assert [(m.hole, m.number, m.line, m.column) for m in record.moves][-3:] == [
        ("d2", None, 4, 19), ("e1", 5, 4, 25), ("b2", None, 4, 28)]
    assert (record.result, record.result_at, record.problems) == ("0-1", (4, 31), [])
    monkeypatch.setattr(pmn, "_WORDS_MAX", -1)  # and longer lines: one scan each
    (record,) = read_games(text)
    assert scans == ["1. d1x6 d2x10 2. a1 c2x10", "3. d1 c2 4. f1^   d2\t5. e1 b2 0-1"]
    assert [(m.hole, m.number, m.line, m.column) for m in record.moves][-3:] == [
        ("d2", None, 4, 19), ("e1", 5, 4, 25), ("b2", None, 4, 28)]
    assert (record.result, record.result_at, record.problems) == ("0-1", (4, 31), [])


def test_read_game_reads_game_after_game_from_one_handle():
    good = '[Game "kingulu"]\n[Event "intact"]\n[Result "*"]\n\n1. c1x6 d2 2. e1 *\n'
    handle = io.StringIO(good + "\n" + good + "\n1. c1x6\n[Game \"kingulu\"]\n\n*\n")
    records = []
    while (record := read_game(handle)) is not None:
        records.append(record)
    assert [(r.line, r.index, len(r.moves), r.result) for r in records] == \
        [(1, 1, 3, "*"), (7, 2, 3, "*"), (13, 3, 1, None), (14, 4, 0, "*")]
    assert [m.line for m in records[1].moves] == [11, 11, 11]
    assert read_game(handle) is None
    assert read_game(good).line == 1


def test_after_tag_line_says_where_the_reader_stands_after_a_tag_line():
    """What the cutter into batches follows: the phase a tag-section line
    leaves its game in, and whether a comment is left open."""
    from notation.pmn_reader import after_tag_line
    assert after_tag_line('[Event "x"]') == ("tags", False)
    assert after_tag_line('[Event "x"] [Site "y"') == ("tags", False)  # an unterminated tag: still tags
    assert after_tag_line('[Event "x"] 1. c1 {a') == ("moves", True)
    assert after_tag_line('[Event "x"] 1. c1 {a} d2') == ("moves", False)
    assert after_tag_line('[Event "x"] 1. c1 1-0') == ("done", False)
    assert after_tag_line('[Event "x"] *') == ("done", False)


def test_the_reader_is_composed_of_parts_that_share_one_state():
    """The Reader composes a TagReader and a MovetextReader, each given the
    Reader's ReadingState (not one object inherited over three modules), and
    its names are spelt out (no rec, cur, cnode, cparts)."""
    from notation.pmn_movetext import MovetextReader
    from notation.pmn_reader import Reader
    from notation.pmn_tags import ReadingState, TagReader

    assert [cls.__mro__ for cls in (Reader, TagReader, MovetextReader)] == \
        [(Reader, object), (TagReader, object), (MovetextReader, object)]
    reader = Reader("x.pmn")
    games = list(reader.run(['[Event "x"]', "", "1. c1 {a} (1. d1) *"]))
    assert type(reader.state) is ReadingState
    assert reader.tag_reader.state is reader.state is reader.movetext_reader.state
    assert [(g.tags, g.result, g.moves[0].comment) for g in games] == [([("Event", "x")], "*", "a")]
    names = set(vars(reader)) | set(vars(reader.movetext_reader)) | set(vars(reader.tag_reader))
    assert not {"rec", "cur", "cnode", "cparts", "nproblems", "nwarnings"} & names
