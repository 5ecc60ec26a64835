"""The game page (``mancala render --format html``, ``mancala_cli.page``)
without a browser: what it holds, the positions it embeds, its size, its
escaping of user text, and the command's options and errors. The page in
a real browser: tests/test_page_browser.py."""
from __future__ import annotations

import html
import html.parser
import json
import pathlib
import re

import pytest
from typer.testing import CliRunner

import mancala_cli
from mancala_cli import Line, check, get_game, parse_position, read
from mancala_cli.cli.commands import whole
from mancala_cli.diagrams.page import game_page
from mancala_cli.diagrams.text import result_words
from notation.record import MOVE, walk

app = whole()

ROOT = pathlib.Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
VILLAGE = EXAMPLES / "kingulu-village-match.pmn"
TOURNAMENT = EXAMPLES / "kingulu-tournament.pmn"
DAMAGED = EXAMPLES / "broken" / "damaged-records.pmn"
runner = CliRunner()

ALL_EXAMPLES = sorted(EXAMPLES.glob("*.pmn"))


def page_data(text: str) -> dict:
    match = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', text, re.S)
    assert match is not None
    return json.loads(match.group(1))


class _Elements(html.parser.HTMLParser):
    """Every start tag with its attributes; the text of each script."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._in_script = True
            self.scripts.append("")

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts[-1] += data


def elements(text: str) -> _Elements:
    parser = _Elements()
    parser.feed(text)
    parser.close()
    return parser


def expected_position(game, start: str | None, tokens: list[str]) -> str:
    """The engine's position after ``tokens`` from the start (or ``start``)."""
    line = Line(game, parse_position(game, start)) if start else Line(game)
    for token in tokens:
        line.play(token)
    return str(line.board())


# -- what the page holds -------------------------------------------------------------

#: Two variations of one move, a variation inside a variation, variations of North's moves.
NESTED = ('[Game "kingulu"]\n\n1. c1x6 (1. d1x6 b2^ (1... c2x1 2. b1 (2. c1)) 2. b1x3) (1. f1 a2) 1... d2 '
          '(1... a2x1) 2. a1x1 *\n')


@pytest.mark.parametrize("path", ALL_EXAMPLES + [NESTED], ids=lambda p: getattr(p, "stem", "nested"))
def test_every_node_is_the_engines_position_after_its_moves(path):
    """Each node's position is the engine's after the moves from the start
    to it (its label's token, from the root on); the main line is the one
    check() replays, and every move of the record is a node."""
    records = list(read(path))
    path = pathlib.Path(path) if not isinstance(path, str) else pathlib.Path("nested")
    page = game_page(records)
    data = page_data(page.html)
    for record, game_data in zip(records, data["games"]):
        game = get_game(record.tag("Game"))
        nodes = game_data["nodes"]
        setup = record.tag("Setup")
        assert len(nodes) == 1 + sum(step.kind == MOVE for step in walk(record))
        for n, node in enumerate(nodes):
            tokens = []
            k = n
            while k:
                tokens.append(nodes[k]["l"].split()[1])
                k = nodes[k]["u"]
            assert node["p"] == expected_position(game, setup, tokens[::-1]), (path.name, n)
            position = parse_position(game, node["p"])
            assert node["h"] == list(position.holes)
            assert node["b"] == list(position.banks) and node["s"] == position.side
            assert node.get("r", []) == [[h, game.reserver(h)] for h in sorted(position.reserved)]
        main = [0]
        while True:
            children = [n for n, node in enumerate(nodes) if node["u"] == main[-1]]
            if not children:
                break
            main.append(children[0])
        report = check(record)
        assert [nodes[n]["p"] for n in main] == [str(p) for p in report.positions]
        final = nodes[main[-1]]
        assert final["o"] == (result_words(report.outcome) if report.outcome else None)


def test_the_page_holds_tags_moves_comments_glyphs_and_variations():
    text = mancala_cli.page(read(VILLAGE))
    found = elements(text)
    record = next(read(VILLAGE))
    assert "<dt>Game</dt><dd>Bao Kingulu</dd>" in text
    for name, value in record.tags[1:]:
        assert f"<dt>{name}</dt><dd>{value}</dd>" in text
    buttons = [attrs for tag, attrs in found.tags if tag == "button" and attrs.get("class") == "move"]
    assert len(buttons) == 1 + len(record.moves) - 1 + 1  # the main line and the one-move variation
    assert [b["data-node"] for b in buttons] == [str(n) for n in range(1, len(buttons) + 1)]
    assert '<span class="variation">( <span class="number">2...</span><button type="button" class="move" ' \
           'data-node="5">c2x9<span class="glyph"><abbr title="interesting move">!?</abbr></span></button> ' \
           '<span class="comment">nine at once</span> )</span>' in text
    assert '<span class="comment">kuweka mtoto: f2 is South&#x27;s now</span>' in text
    assert '<input id="position" readonly' in text
    for control in ("first", "back", "forward", "last", "enter", "leave", "copy"):
        assert f'<button type="button" id="{control}"' in text
    assert "<select" not in text  # one game: no chooser


def test_nags_are_glyphs_joined_to_their_move():
    """``$6`` is shown as ``?!``, ``$14`` as ``⩲`` (a thin space before a
    position's mark), a glyph sits inside its move's button (no gap), and a
    NAG without a symbol stays ``$N``; each says what it means."""
    record = '[Game "kingulu"]\n\n1. c1x6 $6 d2? 2. e1!? $14 c2 $3 $200 *\n'
    text = mancala_cli.page(read(record))
    moves = re.findall(r'<button type="button" class="move" data-node="[0-9]+">(.*?)</button>', text)
    shown = [re.sub(r"<[^>]+>", "", html.unescape(move)) for move in moves]
    assert shown == ["c1x6?!", "d2?", "e1!?\u2009⩲", "c2!!\u2009$200"]
    assert '<abbr title="dubious move">?!</abbr>' in text
    assert '<abbr title="South is slightly better">⩲</abbr>' in text
    assert '<abbr title="annotation $200">$200</abbr>' in text
    assert "$6" not in text and "$14" not in text and "$3" not in text
    # every glyph inside its move's button, right after the move
    assert text.count('<span class="glyph">') == len(re.findall(r'class="move"[^>]*>[^<]+<span class="glyph">', text)) == 4


def test_the_title_of_an_archive_page_names_its_event():
    text = mancala_cli.page(read(EXAMPLES / "kingulu-tournament.pmn"))
    assert "<title>Morogoro kingulu cup — 4 games</title>" in text
    two = ('[Game "kingulu"]\n[Event "Cup A"]\n\n1. c1x6 *\n\n[Game "kingulu"]\n[Event "Cup B"]\n\n1. c1x6 *\n'
           '\n[Game "kingulu"]\n[Event "Cup A"]\n\n1. c1x6 *\n')
    assert "<title>Cup A, Cup B — 3 games</title>" in mancala_cli.page(read(two))
    three = two + '\n[Game "kingulu"]\n[Event "Cup C"]\n\n1. c1x6 *\n'
    assert "<title>Cup A, Cup B, … — 4 games</title>" in mancala_cli.page(read(three))
    none = '[Game "kingulu"]\n\n1. c1x6 *\n\n[Game "kimasai-klamroth"]\n\n1. b2 *\n'
    assert "<title>Bao Kingulu, Bao la Kimasai (Klamroth) — 2 games</title>" in mancala_cli.page(read(none))


def test_nothing_is_loaded_from_elsewhere():
    for path in ALL_EXAMPLES + [DAMAGED]:
        text = game_page(read(path)).html
        found = elements(text)
        for tag, attrs in found.tags:
            assert tag not in ("link", "iframe", "img", "object", "embed", "base"), (path.name, tag)
            assert not {"src", "href", "srcset", "action", "data"} & set(attrs), (path.name, tag, attrs)
        assert "@import" not in text and "url(" not in text and "fetch(" not in text
        assert "XMLHttpRequest" not in text
        # The only address is the SVG namespace (a name, never fetched).
        assert set(re.findall(r"https?://[^\s\"'<>]+", text)) == {"http://www.w3.org/2000/svg"}


@pytest.mark.parametrize("path", ALL_EXAMPLES, ids=lambda p: p.stem)
def test_size_is_within_60_kb_and_1_kb_a_ply(path):
    page = game_page(read(path))
    size = len(page.html.encode("utf-8"))
    assert page.plies > 0
    assert size <= 60_000 + 1_000 * page.plies, (size, page.plies)


def test_the_diagram_is_the_svg_renderers_with_text_alternatives():
    from mancala_cli.diagrams.svg import board_svg

    text = mancala_cli.page(read(VILLAGE))
    game = get_game("kingulu")
    svg = board_svg(game, game.start())
    assert svg[svg.index("<svg"):] in text
    assert "<title>Bao Kingulu — move 1, South to move</title>" in text
    assert 'role="group" aria-labelledby="status"' in text and 'id="status" aria-live="polite"' in text


def _legend(text: str) -> list[tuple[str, str]]:
    """The entries of the page's legend of the rings: their class and their words."""
    found = re.search(r'<ul class="legend" id="legend" aria-label="What the rings mean">(.*?)</ul>', text)
    if found is None:
        return []
    return [(kind, html.unescape(words)) for kind, words in
            re.findall(r'<li class="([^"]+)"><svg [^>]*>.*?</svg> ([^<]*)</li>', found.group(1))]


def test_the_legend_says_what_the_rings_the_page_can_draw_mean():
    """Below the board, one entry (a sample ring, then what it means) for
    each kind of ring a position of the page can show: the last move's
    origin and end where a game has a move, a hole reserved by South or by
    North where a position has one; none at all when no position has a ring."""
    from mancala_cli.diagrams.caption import RING_MEANINGS

    def entries(*kinds: str) -> list[tuple[str, str]]:
        return [(kind, RING_MEANINGS[kind]) for kind in kinds]

    village = mancala_cli.page(read(VILLAGE))
    assert _legend(village) == [
        ("last-origin", "dashed green ring: where the last move started"),
        ("last-end", "yellow ring: where the last move ended"),
        ("reserved-by-south", "blue ring, S: a hole South reserved (its seeds are South's)")]
    assert village.index('id="legend"') > village.index('id="status"')  # below the board and its status line
    mackay = mancala_cli.page(read(EXAMPLES / "kimasai-mackay-annotated.pmn"))
    assert _legend(mackay) == entries("last-origin", "last-end")
    both = mancala_cli.page(read('[Game "kingulu"]\n[Setup "0,1,0,3,1,6*/0,11,1,1,3*,3 S 7-11 4"]\n\n*\n'))
    assert _legend(both) == entries("reserved-by-south", "reserved-by-north")
    # every ring drawn in one game of an archive is in the page's legend
    assert _legend(mancala_cli.page(read(TOURNAMENT))) == entries("last-origin", "last-end", "reserved-by-south",
                                                                  "reserved-by-north")
    nothing = mancala_cli.page(read('[Game "kingulu"]\n\n*\n'))
    assert 'id="legend"' not in nothing and _legend(nothing) == []


def test_flip_draws_north_at_the_bottom():
    from mancala_cli.diagrams.svg import board_svg, page_geometry

    game = get_game("kingulu")
    text = mancala_cli.page(read(VILLAGE), flip=True)
    svg = board_svg(game, game.start(), flip=True)
    assert svg[svg.index("<svg"):] in text
    assert page_data(text)["geometry"][0]["centres"] == [list(c) for c in page_geometry(game, True)["centres"]]


def test_an_archive_gets_a_chooser_and_each_game_its_section():
    text = mancala_cli.page(read(TOURNAMENT))
    records = list(read(TOURNAMENT))
    assert len(records) == 4
    options = re.findall(r'<option value="(\d)">([^<]*)</option>', text)
    assert [v for v, _ in options] == ["0", "1", "2", "3"]
    assert options[2][1] == "3. Baraka – Neema (Morogoro kingulu cup, round 2)"
    assert len(re.findall(r'<section class="game" id="game-\d" data-game="\d"', text)) == 4
    assert text.count(" hidden>") == 3
    data = page_data(text)
    assert len(data["games"]) == 4 and len(data["geometry"]) == 1  # one diagram for the four kingulu games
    assert "<template" not in text


def test_games_of_two_kinds_share_the_page_with_one_diagram_each():
    records = list(read(VILLAGE)) + list(read(EXAMPLES / "kimasai-mackay-study.pmn"))
    text = mancala_cli.page(records)
    data = page_data(text)
    assert [g["diagram"] for g in data["games"]] == [0, 1]
    assert [g["game"] for g in data["geometry"]] == ["kingulu", "kimasai-mackay"]
    assert text.count('<template class="diagram" data-diagram="1">') == 1


# -- user text: escaped in HTML, safe in JSON ----------------------------------------------

HOSTILE = ('[Game "kingulu"]\n[Event "</script><script>alert(1)</script>"]\n[South "A & B <b>"]\n'
           '[North "{{data}} \u2028 \\" quote"]\n[Site "{{games}}"]\n\n'
           '{</script><!-- start} 1. c1x6 {</SCRIPT >x <img src=y>} (1. d1x6 {{{chooser}}) d2 *\n')


def test_tags_and_comments_are_escaped_and_cannot_end_the_script():
    text = mancala_cli.page(read(HOSTILE))
    found = elements(text)
    assert [tag for tag, _ in found.tags].count("script") == 2
    assert [tag for tag, _ in found.tags].count("img") == 0
    assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "A &amp; B &lt;b&gt;" in text
    assert '<span class="comment">&lt;/SCRIPT &gt;x &lt;img src=y&gt;</span>' in text
    # A marker in user text stays text.
    assert '<span class="comment">{{chooser</span>' in text and "<dt>Site</dt><dd>{{games}}</dd>" in text
    assert "{{data}} \u2028 &quot; quote" in text
    # The data script holds no "<" at all, and parses back to the same values.
    assert "<" not in found.scripts[0] and "\u2028" not in found.scripts[0]
    data = json.loads(found.scripts[0])
    assert data["games"][0]["nodes"][1]["l"] == "1. c1x6"
    assert page_data(text) == data


# -- the command -------------------------------------------------------------------------

def test_render_html_writes_the_page(tmp_path):
    out = tmp_path / "game.html"
    result = runner.invoke(app, ["render", str(VILLAGE), "--format", "html", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert out.read_text(encoding="utf-8") == mancala_cli.page(read(VILLAGE))
    result = runner.invoke(app, ["render", str(VILLAGE), "-f", "html"])
    assert result.exit_code == 0 and result.stdout == out.read_text(encoding="utf-8")


def test_render_html_index_picks_one_game():
    result = runner.invoke(app, ["render", str(TOURNAMENT), "--format", "html", "--index", "3"])
    assert result.exit_code == 0
    assert result.stdout == mancala_cli.page(list(read(TOURNAMENT))[2])
    assert "<select" not in result.stdout
    result = runner.invoke(app, ["render", str(TOURNAMENT), "--format", "html", "--index", "5"])
    assert result.exit_code == 2
    assert result.stderr == f"mancala: error: {TOURNAMENT}: has no game number 5 (it has 4 games)\n"


def test_render_html_of_damaged_records_shows_them_up_to_the_error_and_exits_1(tmp_path):
    out = tmp_path / "damaged.html"
    result = runner.invoke(app, ["render", str(DAMAGED), "--format", "html", "-o", str(out)])
    assert result.exit_code == 1
    validate = runner.invoke(app, ["validate", str(DAMAGED)])
    errors = [line for line in validate.stderr.splitlines() + validate.stdout.splitlines() if ": error: " in line]
    assert result.stderr.splitlines() == errors
    text = out.read_text(encoding="utf-8")
    # The illegal 4... c1 is shown, struck out, with the error; the moves before it can be chosen.
    assert '<span class="move unplayed" title="not played: see the problems">c1</span>' in text
    assert ("<li class=\"error\">line 7, column 42: error: c1: KG-ORIGIN: c1 is not one of N&#x27;s holes</li>"
            in text)
    data = page_data(text)
    assert data["games"][0]["nodes"][-1]["p"] == "0,1,1,4,0,7*/0,11,1,1,0,4 N 7-11 4"


def test_render_html_of_a_record_that_cannot_be_replayed_writes_nothing(tmp_path):
    source = tmp_path / "unknown.pmn"
    source.write_text('[Game "oware"]\n\n1. a1 *\n', encoding="utf-8")
    out = tmp_path / "out.html"
    result = runner.invoke(app, ["render", str(source), "--format", "html", "-o", str(out)])
    assert result.exit_code == 1
    assert result.stderr == (f"{source}:1:8: error: unknown-game: unknown game 'oware' "
                             "(known: kimasai-mackay, kimasai-klamroth, kingulu)\n")
    assert not out.exists()
    with pytest.raises(ValueError, match="no record can be drawn: unknown game 'oware'"):
        mancala_cli.page(read(source))


def test_render_html_leaves_out_a_game_it_cannot_replay_and_exits_1(tmp_path):
    source = tmp_path / "two.pmn"
    source.write_text('[Game "oware"]\n\n1. a1 *\n\n[Game "kingulu"]\n\n1. c1x6 *\n', encoding="utf-8")
    result = runner.invoke(app, ["render", str(source), "--format", "html"])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [f"{source}:1:8: error: unknown-game: unknown game 'oware' "
                                          "(known: kimasai-mackay, kimasai-klamroth, kingulu)"]
    assert len(page_data(result.stdout)["games"]) == 1
    assert "<select" not in result.stdout


@pytest.mark.parametrize("args, message", [
    (["--ply", "3"], "--ply does not go with --format html (the page holds every position of the game)"),
    (["--all", "--out-dir", "x"], "--all does not go with --format html (the page holds every position of the game)"),
    (["--style", "s.css"], "--style does not go with --format html (the page holds every position of the game)"),
    (["--scale", "3"], "--scale does not go with --format html (the page holds every position of the game)"),
    (["--sheet", "--every", "5"], "--sheet does not go with --format html (the page holds every position of the game)"),
    (["--plies", "1,2"], "--plies does not go with --format html (the page holds every position of the game)"),
    (["--columns", "2"], "--columns does not go with --format html (the page holds every position of the game)"),
    (["--caption"], "--caption does not go with --format html (the page names the game and the move)"),
])
def test_render_html_refuses_the_options_of_one_diagram(args, message):
    result = runner.invoke(app, ["render", str(VILLAGE), "--format", "html", *args])
    assert result.exit_code == 2
    assert result.stderr == f"mancala: error: {message}\n"


def test_render_html_refuses_to_replace_its_input(tmp_path):
    source = tmp_path / "game.pmn"
    source.write_bytes(VILLAGE.read_bytes())
    result = runner.invoke(app, ["render", str(source), "--format", "html", "-o", str(source)])
    assert result.exit_code == 2
    assert result.stderr == f"mancala: error: {source}: is the input file; not replaced (--force replaces it)\n"
    assert source.read_bytes() == VILLAGE.read_bytes()


def test_render_html_game_option_for_records_without_game_tag():
    text = "1. c1x6 d2 *\n"
    result = runner.invoke(app, ["render", "-", "--format", "html", "--game", "kingulu"], input=text)
    assert result.exit_code == 0
    assert page_data(result.stdout)["games"][0]["nodes"][2]["l"] == "1... d2"


def test_the_example_page_is_up_to_date():
    """examples/kingulu-village-match.html is what render writes today."""
    page = EXAMPLES / "kingulu-village-match.html"
    assert page.read_text(encoding="utf-8") == mancala_cli.page(read(VILLAGE))


def test_render_html_of_an_empty_or_missing_file_is_one_line_and_exit_2(tmp_path):
    empty = tmp_path / "empty.pmn"
    empty.write_text("", encoding="utf-8")
    result = runner.invoke(app, ["render", str(empty), "--format", "html", "-o", str(tmp_path / "out.html")])
    assert (result.exit_code, result.stderr) == (2, f"mancala: error: {empty}: has no game\n")
    missing = tmp_path / "missing.pmn"
    result = runner.invoke(app, ["render", str(missing), "--format", "html", "-o", str(tmp_path / "out.html")])
    assert (result.exit_code, result.stderr) == (2, f"mancala: error: {missing}: cannot open: No such file or "
                                                    "directory\n")
    assert not (tmp_path / "out.html").exists()


def test_an_archive_past_the_page_cap_is_one_line_exit_2_before_any_game_is_played(tmp_path, monkeypatch):
    """A page holds at most MAX_PAGE_POSITIONS positions: one game of one move
    is two, so MAX/2 games fit and one more does not. Past the cap: one line
    naming --index, exit 2, -o untouched, no game replayed or page built."""
    from mancala_cli.diagrams import page as page_module
    from mancala_cli.diagrams.page import MAX_PAGE_POSITIONS, PageTooLarge, bounded_records

    one = '[Game "kingulu"]\n[Result "*"]\n\n1. c1x6 *\n\n'
    fits = MAX_PAGE_POSITIONS // 2
    assert len(bounded_records(read(one * fits))) == fits
    with pytest.raises(PageTooLarge) as raised:
        bounded_records(read(one * (fits + 1)))
    assert (raised.value.number, raised.value.positions) == (fits + 1, MAX_PAGE_POSITIONS + 2)
    with pytest.raises(PageTooLarge):
        mancala_cli.page(read(one * (fits + 1)))

    archive = tmp_path / "big.pmn"
    archive.write_text(one * (fits + 1), encoding="utf-8")
    out = tmp_path / "page.html"
    out.write_text("an earlier page\n", encoding="utf-8")

    def never(*args, **kwargs):
        raise AssertionError("the games were played")
    monkeypatch.setattr(page_module, "game_page", never)
    result = runner.invoke(app, ["render", str(archive), "--format", "html", "-o", str(out)])
    assert result.exit_code == 2
    assert result.stderr == (f"mancala: error: {archive}: a page shows at most {MAX_PAGE_POSITIONS:,} positions "
                             f"(starts and moves, variations too), and game {fits + 1} takes them to "
                             f"{MAX_PAGE_POSITIONS + 2:,}: give --index N for the page of one game\n")
    assert out.read_text(encoding="utf-8") == "an earlier page\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.pmn", "page.html"]
    # One game of the archive is a page of its own.
    monkeypatch.undo()
    single = runner.invoke(app, ["render", str(archive), "--format", "html", "--index", str(fits + 1)])
    assert single.exit_code == 0 and single.stdout.startswith("<!DOCTYPE html>")


def test_one_game_past_the_page_cap_is_refused_too(tmp_path):
    from mancala_cli.diagrams.page import MAX_PAGE_POSITIONS

    moves = " ".join(["c1"] * MAX_PAGE_POSITIONS)  # (not played: counted as written)
    archive = tmp_path / "long.pmn"
    archive.write_text(f'[Game "kingulu"]\n\n{moves} *\n', encoding="utf-8")
    result = runner.invoke(app, ["render", str(archive), "--format", "html", "--index", "1"])
    assert result.exit_code == 2
    assert result.stderr == (f"mancala: error: {archive}: a page shows at most {MAX_PAGE_POSITIONS:,} positions "
                             f"(starts and moves, variations too), and game 1 holds {MAX_PAGE_POSITIONS + 1:,}\n")


def test_games_with_long_comments_past_the_page_text_cap_are_one_line_in_bounded_memory(tmp_path):
    """Each game holds a comment of 1 MB (as PMN reads it: within a game's
    4 MiB); a page holds at most MAX_PAGE_TEXT bytes of tags, comments and
    moves: past that, one line and exit 2 within 1 GiB of address space and
    seconds, no file written. One such game is a page of its own."""
    import subprocess
    import sys
    import time

    from mancala_cli.diagrams.page import MAX_PAGE_TEXT, PageTooLarge, bounded_records, record_text

    comment = ("a long note " * 87_382)[:1 << 20]
    one = f'[Game "kingulu"]\n[Result "*"]\n\n1. c1x6 {{{comment}}} *\n\n'
    per_game = record_text(next(iter(read(one))))
    fits = MAX_PAGE_TEXT // per_game
    with pytest.raises(PageTooLarge) as raised:
        bounded_records(read(one * (fits + 1)))
    assert (raised.value.number, raised.value.positions) == (fits + 1, (fits + 1) * per_game)

    archive = tmp_path / "notes.pmn"
    with archive.open("w", encoding="utf-8") as file:
        for _ in range(60):
            file.write(one)
    out = tmp_path / "page.html"
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "
            "from mancala_cli.cli import main; sys.argv = ['mancala', *sys.argv[1:]]; main()")
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", code, "render", str(archive), "--format", "html", "-o", str(out)],
                          capture_output=True, text=True, timeout=60)
    assert time.monotonic() - started < 30
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"mancala: error: {archive}: a page shows at most {MAX_PAGE_TEXT:,} bytes of tags, "
                           f"comments and moves, and game {fits + 1} takes them to {(fits + 1) * per_game:,}: "
                           "give --index N for the page of one game\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.pmn"]
    single = subprocess.run([sys.executable, "-c", code, "render", str(archive), "--format", "html", "--index",
                             "3", "-o", str(out)], capture_output=True, text=True, timeout=60)
    assert (single.returncode, single.stderr) == (0, "") and out.stat().st_size > 1 << 20
