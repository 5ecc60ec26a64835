"""The language server's logic in-process, without a client (and without
pygls): a document's games and diagnostics kept up to date edit by edit
(always those of checking the whole text afresh), the server's own hints
where a move number is missing, and the answers of hover, completion,
formatting, quick fixes and the outline."""
import json
import pathlib
import random
import subprocess
import sys

import pytest

import mancala_cli as mancala
from mancala_cli.lsp.analysis import Document, problem_message, split_lines, token_end
from mancala_cli.lsp.answers import Span, TextEdit
from mancala_cli.lsp.completion import completions, line_at
from mancala_cli.lsp.fixes import code_actions
from mancala_cli.lsp.formatting import format_document, format_range
from mancala_cli.lsp.hints import NO_MOVE_NUMBER, missing_numbers
from mancala_cli.lsp.hover import hover
from mancala_cli.lsp.outline import symbols

ROOT = pathlib.Path(__file__).resolve().parents[1]
DAMAGED = ROOT / "examples" / "broken" / "damaged-records.pmn"
VILLAGE = ROOT / "examples" / "kingulu-village-match.pmn"


def analysed(text, **options):
    doc = Document(text, **options)
    doc.advance()
    return doc


def shown(doc):
    """validate's problems among the diagnostics (errors and warnings: the
    server's hints left out) as (line, column, code, severity, message),
    1-based as validate prints them."""
    return [(d.line + 1, d.column + 1, d.code, d.severity, d.message) for d in doc.diagnostics()
            if d.severity in ("error", "warning")]


def hints(doc):
    """The server's hints as (line, column, end column, message), 0-based as the protocol counts."""
    found = [d for d in doc.diagnostics() if d.severity == "hint"]
    assert all(d.code == NO_MOVE_NUMBER and d.end_line == d.line for d in found)
    return [(d.line, d.column, d.end_column, d.message) for d in found]


def applied(text, edits):
    """``text`` with the edits (0-based, code points) made, as a client makes them."""
    lines = split_lines(text)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))

    def offset(line0, column0):
        return offsets[line0] + column0

    out = text
    for edit in sorted(edits, key=lambda e: (e.span.line, e.span.column), reverse=True):
        start, end = offset(edit.span.line, edit.span.column), offset(edit.span.end_line, edit.span.end_column)
        out = out[:start] + edit.text + out[end:]
    return out


# -- lines and diagnostics --------------------------------------------------------------

def test_lines_end_where_the_protocol_says():
    assert split_lines("") == [""]
    assert split_lines("a\r\nb\rc\nd") == ["a\r\n", "b\r", "c\n", "d"]
    assert split_lines("a\x0cb\u2028c\n") == ["a\x0cb\u2028c\n", ""]  # (not where str.splitlines breaks)
    assert token_end("1. d1x6 (2... c2)", 3) == 7 and token_end("{a note", 0) == 1 and token_end("ab", 2) == 2


def test_the_diagnostics_are_validates_problems_at_the_same_places():
    done = subprocess.run([sys.executable, "-m", "mancala_cli", "validate", "--format", "json", str(DAMAGED)],
                          capture_output=True, text=True, timeout=60)
    expected = []
    for line in done.stdout.splitlines():
        for problem in json.loads(line)["problems"]:
            expected.append((problem["line"], problem["column"], problem["rule"], problem["severity"]))
    doc = analysed(DAMAGED.read_text(encoding="utf-8"))
    assert [entry[:4] for entry in shown(doc)] == expected and len(expected) == 5
    messages = [entry[4] for entry in shown(doc)]
    assert messages[0] == "3. d1x2: d1x2: the move takes 0 (d1)"
    assert messages[1] == ("4... c1: c1 is not one of N's holes [position 0,1,1,4,0,7*/0,11,1,1,0,4 N 7-11 4; "
                           "legal: b2 d2]")
    # The same words as validate's lines, without the place and the code.
    text = subprocess.run([sys.executable, "-m", "mancala_cli", "validate", str(DAMAGED)], capture_output=True,
                          text=True, timeout=60).stdout.splitlines()[:5]
    for (line, column, code, severity, message), printed in zip(shown(doc), text):
        where = f"{DAMAGED}:{line}:{column}: {severity}: "
        assert printed.startswith(where)
        rest = printed[len(where):]
        head, _, tail = message.partition(": ") if message.startswith(("3.", "4...")) else ("", "", message)
        assert rest == (f"{head}: {code}: {tail}" if head else f"{code}: {message}")


def test_every_example_reads_as_validate_reads_it():
    for path in sorted((ROOT / "examples").glob("*.pmn")):
        text = path.read_text(encoding="utf-8")
        doc = analysed(text)
        records = list(mancala.read(path))
        assert [game.start for game in doc.games] == [record.line for record in records], path
        problems = [(p.line, p.column, p.code) for record in records for p in mancala.check(record).problems]
        assert [(line, column, code) for line, column, code, _, _ in shown(doc)] == problems, path


def test_a_document_without_games_gets_no_games_and_one_too_large_one_line():
    assert shown(analysed("\n\n  \n")) == [(1, 1, "no-games", "error", "no game in the input")]
    big = analysed('[Game "kingulu"]\n\n1. c1x6 *\n' * 10, max_size=100)
    assert [d.code for d in big.diagnostics()] == ["too-large"] and big.games == []
    big.set_text('[Game "kingulu"]\n\n1. c1x5 *\n')
    big.advance()
    assert [d.code for d in big.diagnostics()] == ["bad-mark"]


def test_a_byte_order_mark_moves_the_columns_of_the_first_line():
    doc = analysed('\ufeff[Game "kingulu"] 1. c1x5 *\n')
    assert [(d.line, d.column, d.code) for d in doc.diagnostics()] == [(0, 21, "bad-mark")]
    assert doc.line(0)[21:25] == "c1x5"


def test_random_bytes_and_long_lines_are_checked_without_failing():
    rng = random.Random(5)
    noise = "".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(0, 0x3000), 10, 13, 123, 91]))
                    for _ in range(20_000))
    doc = analysed(noise)
    assert doc.complete and doc.diagnostics()
    doc = analysed("1. " + "c1 " * 50_000 + "*\n")
    assert doc.complete


# -- incremental checking ---------------------------------------------------------------

#: A game written without move numbers (valid: it gets the server's hints).
UNNUMBERED = '[Game "kingulu"]\n\nc1x6 (d1x6 d2x10) d2 e1^ {a note} c2 *\n'


def _archive():
    parts = [path.read_text(encoding="utf-8") for path in sorted((ROOT / "examples").glob("*.pmn"))]
    return "\n".join(parts) + "\n" + UNNUMBERED + "\n" + DAMAGED.read_text(encoding="utf-8")


PIECES = ["", "x", "1", " ", "\n", "\n\n", "[", '[Game "kingulu"]\n', "{", "}", "(", ")", "*", " 1-0", "\r",
          "\r\n", "c1x6 ", "\n\n[Event \"e\"]\n\n1. a1 ", ";", "2... "]


def _random_edit(rng, doc):
    line0 = rng.randrange(len(doc.lines))
    column0 = rng.randrange(len(doc.line(line0)) + 1)
    if rng.random() < 0.5:
        end_line0, end_column0 = line0, column0
    else:
        end_line0 = min(len(doc.lines) - 1, line0 + rng.choice([0, 0, 1, 3]))
        end_column0 = rng.randrange(len(doc.line(end_line0)) + 1)
        if (end_line0, end_column0) < (line0, column0):
            end_line0, end_column0 = line0, column0
    return line0, column0, end_line0, end_column0, rng.choice(PIECES)


@pytest.mark.parametrize("seed", range(4))
def test_edits_give_what_checking_the_whole_text_gives(seed):
    """Random edits, each followed by all of the checking, some of it, or
    none: the games and diagnostics are always those of the whole text
    read afresh, and the text is the edited text."""
    rng = random.Random(seed)
    text = _archive()
    doc = analysed(text)
    for step in range(60):
        line0, column0, end_line0, end_column0, new = _random_edit(rng, doc)
        text = applied(text, [TextEdit(Span(line0, column0, end_line0, end_column0), new)])
        doc.replace(line0, column0, end_line0, end_column0, new)
        assert doc.text == text
        how = rng.random()
        if how < 0.2:
            continue  # the next edit comes before any checking
        if how < 0.4:
            doc.advance(until_line=rng.randrange(1, len(doc.lines) + 1))
            continue
        doc.advance()
        fresh = analysed(text)
        assert [(g.start, g.next_start, g.end) for g in doc.games] == \
            [(g.start, g.next_start, g.end) for g in fresh.games], step
        assert doc.diagnostics() == fresh.diagnostics(), step


def test_whole_text_changes_count_only_the_lines_that_differ():
    text = _archive()
    doc = analysed(text)
    before = doc.checked
    lines = text.split("\n")
    lines[-3] = lines[-3] + " x"
    doc.set_text("\n".join(lines))
    doc.advance()
    assert doc.checked - before <= 2
    assert doc.diagnostics() == analysed("\n".join(lines)).diagnostics()


def test_a_carriage_return_and_a_line_feed_typed_apart_make_one_line_end():
    doc = analysed('[Game "kingulu"]\n\n1. c1x6 *\n')
    doc.replace(2, 7, 2, 7, "\r")
    assert doc.lines[2:4] == ["1. c1x6\r", " *\n"]
    doc.replace(3, 0, 3, 0, "\n")
    assert doc.lines[2:4] == ["1. c1x6\r\n", " *\n"] and doc.text == '[Game "kingulu"]\n\n1. c1x6\r\n *\n'


def _random_games(count):
    kingulu = mancala.get_game("kingulu")
    rng = random.Random(1)
    return mancala.write(mancala.random_game(kingulu, rng) for _ in range(count))


def test_an_edit_near_the_end_of_a_long_archive_checks_one_game():
    games = _random_games(300)
    doc = analysed(games)
    assert len(doc.games) == 300 and doc.checked == 300
    last = doc.games[-2]
    line0 = last.end - 1
    doc.replace(line0, 0, line0, 0, "x")
    doc.advance()
    assert doc.checked == 301 and doc.diagnostics()[0].code == "syntax"
    assert doc.diagnostics() == analysed(doc.text).diagnostics()
    doc.replace(line0, 0, line0, 1, "")
    doc.advance()
    assert doc.checked == 302 and doc.diagnostics() == []
    # An edit near the top re-checks one game too: the others are the same text, moved.
    doc.replace(0, 0, 0, 0, "\n\n")
    doc.advance()
    assert doc.checked == 303 and doc.diagnostics() == [] and doc.games[0].start == 3


def test_checking_in_steps_gives_the_same_and_answers_in_between():
    games = _random_games(50)
    doc = Document(games)
    steps = 0
    while not doc.advance(budget=0):
        steps += 1
        assert doc.games and not doc.complete
    assert steps >= 40 and len(doc.games) == 50
    # A question about a line reads no further than its game.
    doc = Document(games)
    assert doc.game_at(3) is doc.games[0] and len(doc.games) == 1


# -- hover ------------------------------------------------------------------------------------

def test_hover_on_a_move_shows_the_positions_before_and_after_it():
    doc = analysed(VILLAGE.read_text(encoding="utf-8"))
    line0 = 12  # "advise.} 1. d1x6 {empty-hole capture: ...} 1... d2x10"
    column0 = doc.line(line0).index("d1x6") + 2
    found = hover(doc, line0, column0)
    assert found is not None and found.markdown
    assert found.span == Span(line0, column0 - 2, line0, column0 + 2)
    assert found.text.startswith("**1. d1x6** — South's move, ply 1 (main line)")
    assert "`x6`: the lap ended in an empty hole of the mover's row" in found.text and "(KG-5)" in found.text
    kingulu = mancala.get_game("kingulu")
    start = mancala.GamePosition(kingulu, kingulu.start())
    assert str(mancala.text(start)) in found.text
    after = start.play("d1x6")
    assert str(mancala.text(after, last_move=start.legal_moves()[1].move)) in found.text
    assert found.text.count("![") == 2 and "data:image/svg+xml;base64," in found.text
    plain = hover(doc, line0, column0, markdown=False, images=False)
    assert "```" not in plain.text and "![" not in plain.text and str(mancala.text(start)) in plain.text
    reserving = hover(doc, 13, doc.line(13).index("f1^"))
    assert "`^`: " in reserving.text and "(KG-4, KG-6)" in reserving.text
    variation = hover(doc, 13, doc.line(13).index("c2x9") + 1)
    assert "2... c2x9!?" not in variation.text and "variation, depth 1" in variation.text
    assert hover(doc, 0, 3) is None and hover(doc, 12, 2) is None  # a tag, a comment


def test_hover_on_an_illegal_move_shows_its_rule_and_the_position_before():
    doc = analysed(DAMAGED.read_text(encoding="utf-8"))
    found = hover(doc, 6, 42, images=False)
    assert "**KG-ORIGIN** (error): 4... c1: c1 is not one of N's holes" in found.text
    assert "**Before**" in found.text and "**After**" not in found.text
    marks = hover(doc, 6, 28, images=False)
    assert "written d1x2, but the move is d1" in marks.text and "**bad-mark**" in marks.text


# -- completion -------------------------------------------------------------------------------

def _labels(doc, line0, column0):
    return [c.label for c in completions(doc, line0, column0)]


def test_completion_offers_the_legal_moves_of_the_position_reached():
    kingulu = mancala.get_game("kingulu")
    start = mancala.GamePosition(kingulu, kingulu.start())
    text = '[Game "kingulu"]\n\n1. c1x6 (1. d1x6 ) d2 2. \n'
    doc = analysed(text)
    line = doc.line(2)
    assert _labels(doc, 2, len(line)) == start.play("c1x6").play("d2").legal_moves()
    assert _labels(doc, 2, line.index("d2")) == start.play("c1x6").legal_moves()  # after the variation
    assert _labels(doc, 2, line.index("1. d1x6")) == start.legal_moves()  # a variation just opened
    assert _labels(doc, 2, line.index(")")) == start.play("d1x6").legal_moves()  # inside it, after d1x6
    assert _labels(doc, 2, 0) == start.legal_moves()
    typed = completions(doc, 2, line.index("d2") + 1)  # "d" typed: the edit replaces it
    assert typed[0].edit.span == Span(2, line.index("d2"), 2, line.index("d2") + 1)
    assert typed[0].kind == "move" and "(KG-5)" in completions(doc, 2, 0)[0].detail


def test_the_position_at_the_cursor():
    text = '[Game "kingulu"]\n[Setup "0,1,0,3,1,6*/0,11,1,1,3,3 S 7-11 4"]\n\n4. b1 (4. e1 ) {a note} b2 *\n'
    doc = analysed(text)
    line = doc.line(3)
    start = mancala.GamePosition.from_string("kingulu", "0,1,0,3,1,6*/0,11,1,1,3,3 S 7-11 4")

    def at(column0):
        found = line_at(doc, 3, column0)
        return None if found is None else str(found[0].board())

    assert at(0) == str(start)
    assert at(line.index("(") + 1) == str(start)  # a variation of b1: before it
    assert at(line.index(")")) == str(start.play("e1"))
    assert at(line.index("{")) == str(start.play("b1"))  # the variation closed: after b1 again
    assert at(line.index("note")) is None and at(len(line)) is None  # a comment; after the result
    assert line_at(doc, 0, 3) is None  # a tag line


def test_completion_follows_the_records_coordinates_and_stops_at_comments_and_the_result():
    doc = analysed('[Game "kingulu"]\n[Coordinates "relative"]\n\n1. S3x6 {a note} \n')
    assert _labels(doc, 3, len(doc.line(3))) == mancala.GamePosition.from_string(
        "kingulu", "1,0,6,6,0,1/6,6,2,7,0,6 N 7-0 1").legal_moves(coords="relative")
    assert _labels(doc, 3, doc.line(3).index("note")) == []
    doc = analysed('[Game "kingulu"]\n\n1. c1x6 * \n')
    assert _labels(doc, 2, len(doc.line(2))) == []


def test_completion_of_tag_names_game_ids_and_values():
    doc = analysed('[Game "kingulu"]\n[\n[Game "k\n[Coordinates "\n')
    names = completions(doc, 1, 1)
    assert [c.label for c in names] == ["Event", "Site", "Date", "Round", "South", "North", "Result", "Setup",
                                        "Termination", "Score", "Annotator", "Source"]  # (not those it has)
    assert names[0].snippet == 'Event "$1"]$0' and names[0].edit.text == "Event"
    ids = completions(doc, 2, 8)
    assert [c.label for c in ids] == ["kimasai-mackay", "kimasai-klamroth", "kingulu"]
    assert ids[2].edit.span == Span(2, 7, 2, 8) and ids[2].detail == "Bao Kingulu"
    assert _labels(doc, 3, 14) == ["algebraic", "numeric", "relative"]


# -- formatting ---------------------------------------------------------------------------------

def test_formatting_writes_what_convert_writes():
    relative = (ROOT / "examples" / "kingulu-relative.pmn").read_text(encoding="utf-8")
    numeric = (ROOT / "examples" / "kimasai-mackay-numeric.pmn").read_text(encoding="utf-8")
    text = "\n\n" + VILLAGE.read_text(encoding="utf-8").replace("1. d1x6", "1.   d1").replace("\n\n{", "\n{") \
        + "\n\n\n" + '[Game "kingulu"] 1. c1 *' + "\n\n" + relative.replace("S4x6", "S4") + numeric + "\n\n\n"
    doc = analysed(text)
    done = subprocess.run([sys.executable, "-m", "mancala_cli", "convert", "-", "--to", "pmn"], input=text,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert applied(text, format_document(doc)) == done.stdout
    again = analysed(done.stdout)
    assert format_document(again) == []


def test_formatting_leaves_games_with_errors_as_they_are():
    damaged = DAMAGED.read_text(encoding="utf-8")
    good = '[Game "kingulu"]   [Event "x"]\n1. c1 d2 *\n'
    text = damaged + "\n" + good
    doc = analysed(text)
    edits = format_document(doc)
    assert applied(text, edits) == damaged + "\n" + '[Game "kingulu"]\n[Event "x"]\n\n1. c1x6 d2 *\n'
    assert format_document(analysed(damaged)) == []
    assert format_range(doc, 0, 19) == [] and applied(text, format_range(doc, 21, 21)) == applied(text, edits)


# -- quick fixes ----------------------------------------------------------------------------------

def _fixed(text, fix):
    return applied(text, fix.edits)


def test_quick_fixes_make_the_problems_go():
    text = DAMAGED.read_text(encoding="utf-8")
    doc = analysed(text)
    fixes = code_actions(doc, 0, len(doc.lines))
    by_code = {fix.diagnostic.code: fix for fix in fixes if fix.diagnostic is not None}
    assert set(by_code) == {"bad-mark", "syntax", "missing-result"}
    assert by_code["bad-mark"].title == "Write d1: the move as it is played"
    assert by_code["bad-mark"].diagnostic == doc.diagnostics()[0]
    after = analysed(_fixed(text, by_code["bad-mark"]))
    assert "bad-mark" not in [d.code for d in after.diagnostics()]
    after = analysed(_fixed(text, by_code["syntax"]))
    assert [d.code for d in after.diagnostics()] == ["bad-mark", "KG-ORIGIN", "KK-EMPTY", "bad-hole"]
    text = '[Game "kingulu"]\n[Result "1-0"]\n\n1. c1x6 3... d2 2. e1 5.\n'
    doc = analysed(text)
    fixes = [fix for fix in code_actions(doc, 0, 10) if fix.diagnostic is not None]
    assert [fix.title for fix in fixes] == ["Write the move number 1...", "Remove the move number 5.",
                                            "Add the result 1-0"]
    for fix in fixes:
        codes = [d.code for d in analysed(_fixed(text, fix)).diagnostics()]
        assert len(codes) == 2 and fix.diagnostic.code not in codes or codes.count("move-number") == 1
    whole = text
    for fix in reversed(fixes):
        whole = _fixed(whole, fix)
    assert analysed(whole).diagnostics() == [] and whole.endswith("1. c1x6 1... d2 2. e1  1-0\n")


def test_a_missing_move_number_can_be_added():
    text = '[Game "kingulu"]\n\nc1x6 d2 e1 *\n'
    doc = analysed(text)
    fixes = code_actions(doc, 2, 2)
    hinted = [d for d in doc.diagnostics() if d.code == NO_MOVE_NUMBER]
    assert [(fix.title, fix.diagnostic, fix.preferred) for fix in fixes] == [
        ("Add the move number 1.", hinted[0], True), ("Add the move number 2.", hinted[1], True)]
    both = applied(text, [edit for fix in fixes for edit in fix.edits])
    assert both == '[Game "kingulu"]\n\n1. c1x6 d2 2. e1 *\n' and analysed(both).diagnostics() == []


# -- hints: the move numbers canonical writing puts where the text has none ---------------------

def test_moves_without_numbers_get_hints_where_canonical_writing_numbers_them():
    doc = analysed(UNNUMBERED)
    line = doc.line(2)

    def at(label, token, after=""):
        column0 = line.index(token, line.index(after) if after else 0)
        return (2, column0, column0 + len(token), f"no move number before {label} {token} (canonical PMN writes it)")

    assert hints(doc) == [at("1.", "c1x6"),
                          at("1.", "d1x6"),  # it opens a variation
                          at("1...", "d2", after=")"),  # it follows a variation
                          at("2.", "e1^"),
                          at("2...", "c2")]  # it follows a comment
    # (North's d2x10 follows a South move in its line of play: canonical writing writes no number there.)
    assert shown(doc) == []  # no problem of validate's
    assert [d.severity for d in doc.diagnostics()] == ["hint"] * 5


def test_the_hints_follow_the_setup_and_the_numbers_written():
    setup = '[Game "kingulu"]\n[Setup "0,1,1,4,0,7*/0,11,1,1,0,4 N 7-11 4"]\n\nb2 d1 *\n'
    assert [message for *_, message in hints(analysed(setup))] == [
        "no move number before 4... b2 (canonical PMN writes it)", "no move number before 5. d1 (canonical PMN writes it)"]
    numbered = '[Game "kingulu"]\n\n1. c1x6 (1. d1x6 d2x10) 1... d2 2. e1^ {a note} 2... c2 *\n'
    assert hints(analysed(numbered)) == []
    assert hints(analysed('[Game "kingulu"]\n\n1. c1x6 d2 2. e1^ *\n')) == []  # North after South: no number
    # A game with an error gets none: where reading went astray, the places are not certain.
    broken = analysed('[Game "kingulu"]\n\nc1x6 d2 c1 *\n')
    assert hints(broken) == [] and [entry[2] for entry in shown(broken)] == ["KG-FIRSTLAP"]
    assert [(h.line, h.column, h.label) for h in missing_numbers(next(mancala.read(UNNUMBERED)))] == [
        (3, 1, "1."), (3, 7, "1."), (3, 19, "1..."), (3, 22, "2."), (3, 35, "2...")]


def test_the_fix_of_a_hint_writes_the_number_as_canonical_writing_does_and_the_hint_goes():
    doc = analysed(UNNUMBERED)
    fixes = code_actions(doc, 2, 2)
    hinted = [d for d in doc.diagnostics() if d.severity == "hint"]
    assert [(fix.title, fix.diagnostic, fix.preferred) for fix in fixes] == [
        (f"Add the move number {label}", diagnostic, True)
        for label, diagnostic in zip(["1.", "1.", "1...", "2.", "2..."], hinted)]
    for fix, diagnostic in zip(fixes, hinted):
        (edit,) = fix.edits
        assert edit.span == Span(2, diagnostic.column, 2, diagnostic.column)  # before the move token
        after = analysed(applied(UNNUMBERED, [edit]))
        assert len(hints(after)) == 4 and shown(after) == []
        assert all(h[3] != diagnostic.message for h in hints(after))  # that hint is gone, the others stay
    every = applied(UNNUMBERED, [edit for fix in fixes for edit in fix.edits])
    canonical = subprocess.run([sys.executable, "-m", "mancala_cli", "convert", "-", "--to", "pmn"], input=UNNUMBERED,
                               capture_output=True, text=True, timeout=60).stdout
    assert every == canonical == '[Game "kingulu"]\n\n1. c1x6 (1. d1x6 d2x10) 1... d2 2. e1^ {a note} 2... c2 *\n'
    assert analysed(every).diagnostics() == [] and format_document(analysed(every)) == []
    # A move glued to a comment gets its number a space apart, as canonical writing writes it.
    glued = UNNUMBERED.replace("{a note} c2", "{a note}c2")
    (fix,) = code_actions(analysed(glued), 2, 2)[-1:]
    assert applied(glued, fix.edits) == glued.replace("{a note}c2", "{a note} 2... c2")


def test_hints_are_kept_with_their_game_and_moved_by_edits_above_it():
    text = '[Game "kingulu"]\n\n1. c1x6 *\n\n' + UNNUMBERED
    doc = analysed(text)
    assert [h[0] for h in hints(doc)] == [6] * 5
    checked = doc.checked
    doc.replace(0, 0, 0, 0, "\n\n")  # above both games: the first is read again, the second moved
    doc.advance()
    assert doc.checked == checked + 1 and [h[0] for h in hints(doc)] == [8] * 5
    assert doc.diagnostics() == analysed(doc.text).diagnostics()
    doc.replace(8, 0, 8, 0, "1. ")  # the number of c1x6 typed: that game alone is checked again
    doc.advance()
    assert doc.checked == checked + 2 and len(hints(doc)) == 4
    assert [fix.title for fix in code_actions(doc, 0, 3)] == []  # (no hint there, nothing to fix)


def test_a_missing_result_after_the_tags_goes_on_a_line_of_its_own():
    text = '[Game "kingulu"]\n[Result "*"]'
    doc = analysed(text)
    (fix,) = code_actions(doc, 0, 1)
    assert _fixed(text, fix) == '[Game "kingulu"]\n[Result "*"]\n\n*'
    assert analysed(_fixed(text, fix)).diagnostics() == []


# -- the outline -------------------------------------------------------------------------------

def test_one_symbol_per_game_named_from_its_tags():
    doc = analysed(_archive())
    found = symbols(doc)
    assert len(found) == len(doc.games)
    tournament = [s for s in found if s.name.startswith("Morogoro kingulu cup, 1:")]
    assert [s.name for s in tournament] == ["Morogoro kingulu cup, 1: Amani – Baraka",
                                            "Morogoro kingulu cup, 1: Neema – Zawadi"]
    assert tournament[0].detail == "kingulu 0-1"
    damaged = symbols(analysed(DAMAGED.read_text(encoding="utf-8")))
    assert [(s.name, s.detail, s.span.line, s.span.end_line) for s in damaged] == [
        ("Copied from a notebook: Amani – Baraka", "kingulu *", 0, 6),
        ("Club evening, board 2", "kimasai-klamroth *", 8, 13),
        ("Typed in after the game", "kimasai-mackay *", 15, 19)]
    assert symbols(analysed("1. c1x6 *\n"))[0].name == "Game 1"


def test_problem_messages_name_the_move_as_validate_does():
    problem = mancala.check(next(mancala.read(DAMAGED))).problems[1]
    assert problem_message(problem).startswith("4... c1: c1 is not one of N's holes [position ")


@pytest.mark.parametrize("before", ["", '[Game "kingulu"]\n\n1. c1x6 d2 '])
def test_a_line_longer_than_validate_reads_is_its_problem_and_the_rest_is_not_read(tmp_path, before):
    """A 33-million-character line: validate's ``line-too-long`` where
    validate puts it (the game being read has it, or a game of its own),
    and nothing after it is read, as validate reads nothing after it; the
    line is never given to the reader (a second at most)."""
    import time

    text = before + ("1. c1 d2 " * 4_000_000)[:33_000_000] + '\n\n[Game "kingulu"]\n\n1. c1x5 *\n'
    path = tmp_path / "long.pmn"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mancala_cli", "validate", "--format", "json", str(path)],
                          capture_output=True, text=True, timeout=120)
    expected = [(p["line"] - 1, p["column"] - 1, p["rule"], p["message"])
                for line in done.stdout.splitlines() for p in json.loads(line)["problems"]]
    started = time.perf_counter()
    doc = analysed(text)
    assert time.perf_counter() - started < 10
    got = [(d.line, d.column, d.code, d.message) for d in doc.diagnostics()]
    long = "the line is longer than 4194304 bytes; the rest of the input is not read"
    line = 0 if not before else 2
    assert (line, 0, "line-too-long", long) in got and len(doc.games) == 1
    assert [g[:3] for g in got] == [e[:3] for e in expected]
    # The line made short again: both games are read.
    doc.replace(line, 30, line, 33_000_000, " *")
    assert doc.advance() and len(doc.games) == 2 and "line-too-long" not in [d.code for d in doc.diagnostics()]


# -- bounds on one game: its hints, and the moves replayed ------------------------------------

def test_a_game_has_at_most_validates_hundred_hints_and_one_that_says_there_are_more():
    """As validate keeps at most MAX_PROBLEMS (100) warnings of a game and
    says so in one more, with the same words; the closing hint has no fix."""
    from notation.record import MAX_PROBLEMS

    text = '[Game "kingulu"]\n\n1. c1x6 ' + "(d1) " * 150 + "*\n"  # (each variation's d1 wants "1.")
    doc = analysed(text)
    found = hints(doc)
    assert len(found) == MAX_PROBLEMS + 1 == 101
    assert found[0] == (2, 9, 11, "no move number before 1. d1 (canonical PMN writes it)")
    assert found[-1] == (2, 9 + 5 * 100, 11 + 5 * 100, "more than 100 missing move numbers in this game; "
                                                       "the others are not reported")
    fixes = code_actions(doc, 2, 2)
    assert len(fixes) == 100 and all(fix.title == "Add the move number 1." for fix in fixes)
    assert doc.games[0].moves == 151


def test_a_game_of_more_moves_than_replayed_is_not_replayed_and_hover_says_so():
    """10,001 moves (main line and variations): hover says why there is
    nothing, completion offers nothing, and neither replays the game (the
    memory it takes stays under 1 MB; replaying took 14 MB, and a game's
    text holds up to 800,000 such variations); 10,000 are replayed."""
    import tracemalloc

    from mancala_cli.lsp.replay import MAX_VIEW_MOVES

    assert MAX_VIEW_MOVES == 10_000
    over = analysed('[Game "kingulu"]\n\n1. c1x6 ' + "(d1) " * 10_000 + "*\n")
    assert over.games[0].moves == 10_001
    last = len("1. c1x6 ") + 5 * 9_999 + 1
    tracemalloc.start()
    found = hover(over, 2, last)
    offered = completions(over, 2, last + 3)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert found is not None and found.text == (
        "the game has 10,001 moves (its variations' with them), more than the 10,000 the language server "
        "replays: no hover, completion or quick fix in it\n")
    assert found.span == Span(2, 0, 2, len(over.line(2)))
    assert offered == [] and peak < 1_000_000, peak
    fits = analysed('[Game "kingulu"]\n\n1. c1x6 ' + "(d1) " * 9_999 + "*\n")
    assert fits.games[0].moves == 10_000
    found = hover(fits, 2, len("1. c1x6 ") + 5 * 9_998 + 1)
    assert found is not None and found.text.startswith("**1. d1** — South's move, ply 1 (variation, depth 1)")
