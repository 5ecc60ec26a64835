"""The game page in a real browser: headless Chromium driven over the DevTools
protocol (tests/cdp.py, through ``--remote-debugging-pipe``: no dependency
beyond the standard library and Debian's ``chromium``).

For one game of each kind: → ply after ply, the seed counts, banks and
position string the page shows are the engine's, and the whole diagram is
the one ``board_svg`` draws; a click on a move of a variation shows its
position; ↑ and ↓ leave and enter the variation; ← goes back to the start;
on an archive's page the arrow keys on the game chooser browse the games,
the focus staying there, and Enter takes the keys to the chosen game's
moves; the legend of the rings is shown below the board; the console
shows no error. Skipped when no Chromium is installed, and on
the pure-core run (the page does not depend on the core).
"""
from __future__ import annotations

import os
import pathlib

import pytest
from lxml import etree

import mancala_cli
from mancala_cli import Line, check, get_game, read
from mancala_cli.diagrams.svg import board_svg
from mancala_cli.diagrams.text import FROM_POSITION

from .cdp import Browser, chromium

ROOT = pathlib.Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
ONE_OF_EACH = ["kingulu-village-match", "kimasai-mackay-annotated", "kimasai-klamroth-annotated"]

pytestmark = [
    pytest.mark.skipif(os.environ.get("MANCALA_PURE", "") not in ("", "0"),
                       reason="the browser test of the game page runs once, on the native-core run"),
]

RIGHT, LEFT, UP, DOWN = ("ArrowRight", 39), ("ArrowLeft", 37), ("ArrowUp", 38), ("ArrowDown", 40)

#: What the page shows: every hole's count by name, the banks, the position field.
SHOWN = """(function () {
  var svg = document.querySelector('#diagram svg'), counts = {};
  svg.querySelectorAll('g.hole').forEach(function (g) { counts[g.id.slice(5)] = Number(g.querySelector('.count').textContent); });
  return { counts: counts,
           banks: [Number(svg.querySelector('#bank-south .bank-count').textContent),
                   Number(svg.querySelector('#bank-north .bank-count').textContent)],
           position: document.getElementById('position').value,
           back: document.getElementById('back').disabled };
})()"""

#: The diagram as a tree: tag, attributes, the text of a leaf, the children.
TREE = """(function () {
  function tree(e) {
    var attrs = {};
    for (var k = 0; k < e.attributes.length; k++) { attrs[e.attributes[k].name] = e.attributes[k].value; }
    return [e.localName, attrs, e.children.length ? '' : e.textContent, Array.from(e.children).map(tree)];
  }
  return tree(document.querySelector('#diagram svg'));
})()"""


def svg_tree(text: str) -> list:
    def tree(element) -> list:
        children = [child for child in element if isinstance(child.tag, str)]
        return [etree.QName(element).localname, dict(element.attrib), "" if children else (element.text or ""),
                [tree(child) for child in children]]
    return tree(etree.fromstring(text.encode("utf-8")))


@pytest.fixture(scope="module")
def browser():
    executable = chromium()
    if executable is None:
        pytest.skip("no Chromium found: install the Debian package 'chromium' to run the browser tests")
    started = Browser(executable)
    yield started
    started.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pages")
    made = {}
    for name in ONE_OF_EACH + ["kingulu-tournament"]:
        path = folder / f"{name}.html"
        mancala_cli.page(read(EXAMPLES / f"{name}.pmn"), path)
        made[name] = path
    return made


def expected(game, tokens: list[str]) -> tuple[Line, list]:
    line = Line(game)
    for token in tokens:
        line.play(token)
    return line, line.moves[-1].move if line.moves else None


def assert_shows(browser: Browser, game, position) -> None:
    shown = browser.evaluate(SHOWN)
    board = game.board
    assert shown["counts"] == {board.name(h): position.holes[h] for h in range(board.size)}
    assert shown["banks"] == [position.banks[0], position.banks[1]]
    assert shown["position"] == mancala_cli.format_position(game, position)


@pytest.mark.parametrize("name", ONE_OF_EACH)
def test_stepping_clicking_and_back_show_the_engines_positions(browser, pages, name):
    record = next(read(EXAMPLES / f"{name}.pmn"))
    game = get_game(record.tag("Game"))
    report = check(record)
    assert report.valid
    browser.events.clear()
    browser.load(pages[name])
    assert_shows(browser, game, report.positions[0].position)
    # → ply after ply: the counts, and the whole diagram as board_svg draws it.
    tokens = [node.text for node in record.moves]
    for n in range(1, len(report.positions)):
        browser.press(*RIGHT)
        position = report.positions[n].position
        assert_shows(browser, game, position)
        _, last = expected(game, tokens[:n])
        outcome = report.outcome if n == len(report.positions) - 1 else FROM_POSITION
        drawn = board_svg(game, position, last_move=last, outcome=outcome)
        shown = browser.evaluate(TREE)
        assert (shown[1].pop("role"), shown[1].pop("aria-label")) == ("img", shown[3][0][2])
        assert shown[1].pop("xmlns") == "http://www.w3.org/2000/svg"
        assert shown == svg_tree(drawn), (name, n)
    browser.press(*RIGHT)  # at the end: nothing moves
    assert_shows(browser, game, report.positions[-1].position)
    # A click on the first move of a variation: the position after it.
    i = next(k for k, node in enumerate(record.moves) if node.variations)
    variation = record.moves[i].variations[0]
    line, _ = expected(game, tokens[:i] + [variation[0].text])
    browser.click(".variation button.move")
    assert_shows(browser, game, line.position)
    assert "current" in browser.evaluate("document.querySelector('.variation button.move').className")
    browser.press(*UP)  # out of the variation: where it branched off
    assert_shows(browser, game, report.positions[i].position)
    browser.press(*DOWN)  # and into it again
    assert_shows(browser, game, line.position)
    # ← back to the start: as many presses as the variation's move is deep.
    for _ in range(i + 1):
        assert not browser.evaluate(SHOWN)["back"]
        browser.press(*LEFT)
    assert_shows(browser, game, report.positions[0].position)
    assert browser.evaluate(SHOWN)["back"]
    browser.press(*LEFT)
    assert_shows(browser, game, report.positions[0].position)
    assert browser.errors() == []


NESTED = ('[Game "kingulu"]\n\n1. c1x6 (1. d1x6 b2^ (1... c2x1 2. b1 (2. c1)) 2. b1x3) (1. f1 a2) 1... d2 '
          '(1... a2x1) 2. a1x1 *\n')


def test_up_and_down_leave_and_enter_nested_variations(browser, tmp_path):
    game = get_game("kingulu")
    path = tmp_path / "nested.html"
    mancala_cli.page(read(NESTED), path)
    browser.events.clear()
    browser.load(path)

    def shows(*tokens: str) -> None:
        assert_shows(browser, game, expected(game, list(tokens))[0].position)

    browser.click(".variation .variation .variation button.move")  # 2. c1, three deep
    shows("d1x6", "c2x1", "c1")
    browser.press(*UP)
    shows("d1x6", "c2x1")
    browser.press(*UP)
    shows("d1x6")
    browser.press(*UP)
    shows()
    browser.press(*UP)  # on the main line: nothing to leave
    shows()
    browser.press(*DOWN)  # the first variation of the next move
    shows("d1x6")
    browser.press(*DOWN)
    shows("d1x6", "c2x1")
    browser.press(*RIGHT)
    shows("d1x6", "c2x1", "b1")
    browser.press("End", 35)
    shows("d1x6", "c2x1", "b1")
    browser.press("Home", 36)
    browser.press(*RIGHT)
    browser.press(*DOWN)  # 1... a2x1 instead of 1... d2
    shows("c1x6", "a2x1")
    browser.press(*UP)
    browser.press("End", 35)
    shows("c1x6", "d2", "a1x1")
    assert browser.errors() == []


def test_a_flipped_page_draws_the_flipped_diagram(browser, tmp_path):
    record = next(read(EXAMPLES / "kingulu-village-match.pmn"))
    game = get_game("kingulu")
    path = tmp_path / "flipped.html"
    mancala_cli.page(record, path, flip=True)
    browser.events.clear()
    browser.load(path)
    for _ in range(3):
        browser.press(*RIGHT)
    line, last = expected(game, [node.text for node in record.moves[:3]])
    shown = browser.evaluate(TREE)
    for extra in ("role", "aria-label", "xmlns"):
        shown[1].pop(extra)
    assert shown == svg_tree(board_svg(game, line.position, last_move=last, flip=True))
    assert browser.errors() == []


def test_keyboard_alone_chooses_a_move_of_the_list(browser, pages):
    record = next(read(EXAMPLES / "kingulu-village-match.pmn"))
    game = get_game("kingulu")
    browser.events.clear()
    browser.load(pages["kingulu-village-match"])
    browser.evaluate("document.querySelector('button.move[data-node=\"3\"]').focus()")
    browser.press("Enter", 13, "\r")
    assert_shows(browser, game, check(record).positions[3].position)
    browser.press(*RIGHT)
    assert_shows(browser, game, check(record).positions[4].position)
    assert browser.errors() == []


def test_copy_selects_the_position_string(browser, pages):
    browser.events.clear()
    browser.load(pages["kingulu-village-match"])
    browser.press(*RIGHT)
    browser.click("#copy")
    browser.evaluate("new Promise(function (done) { setTimeout(done, 50); })")
    field = browser.evaluate("(function () { var f = document.activeElement;"
                             " return [f.id, f.selectionStart, f.selectionEnd, f.value]; })()")
    after_one = str(check(next(read(EXAMPLES / "kingulu-village-match.pmn"))).positions[1])
    assert field == ["position", 0, len(after_one), after_one]
    status = browser.evaluate("document.getElementById('status').textContent")
    assert status in ("Position copied: " + field[3], "Select the position and copy it.")
    assert browser.errors() == []


#: The chooser's value, the games whose sections are shown, and what has the focus.
CHOSEN = """[document.getElementById('chooser').value,
  Array.from(document.querySelectorAll('section.game')).filter(function (s) { return !s.hidden; })
       .map(function (s) { return s.id; }),
  document.activeElement.id]"""


def test_a_game_picked_from_the_list_is_shown_and_the_focus_goes_to_the_diagram(browser, pages):
    """A game picked from the chooser's open list (with the mouse: a
    ``change`` that no key on the chooser brought) is shown, and the focus
    moves to the diagram, where the keys step through its moves."""
    records = list(read(EXAMPLES / "kingulu-tournament.pmn"))
    game = get_game("kingulu")
    browser.events.clear()
    browser.load(pages["kingulu-tournament"])
    browser.evaluate("(function () { var c = document.getElementById('chooser'); c.focus(); c.value = '2';"
                     " c.dispatchEvent(new Event('change', {bubbles: true})); })()")
    report = check(records[2])
    assert browser.evaluate(CHOSEN) == ["2", ["game-2"], "diagram"]
    browser.press("End", 35)
    assert_shows(browser, game, report.positions[-1].position)
    browser.press("Home", 36)
    assert_shows(browser, game, report.positions[0].position)
    assert browser.errors() == []


#: The legend of the rings as shown: its box, the board's, and each entry's class, words and sample's size.
LEGEND = """(function () {
  function box(e) { var r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }
  var legend = document.getElementById('legend'), style = getComputedStyle(legend);
  return { box: box(legend), board: box(document.querySelector('#diagram svg')),
           status: box(document.getElementById('status')),
           visible: style.display !== 'none' && style.visibility === 'visible' && legend.getClientRects().length > 0,
           entries: Array.from(legend.querySelectorAll('li')).map(function (li) {
             var sample = li.querySelector('svg').getBoundingClientRect();
             return [li.className, li.textContent.trim(), sample.width, sample.height]; }) };
})()"""


def test_the_legend_of_the_rings_is_shown_below_the_board(browser, pages):
    """The legend is visible below the board and its status line, one entry
    a ring the page can draw: a sample of the ring and what it means."""
    browser.events.clear()
    browser.load(pages["kingulu-village-match"])
    shown = browser.evaluate(LEGEND)
    assert shown["visible"]
    assert [entry[:2] for entry in shown["entries"]] == [
        ["last-origin", "dashed green ring: where the last move started"],
        ["last-end", "yellow ring: where the last move ended"],
        ["reserved-by-south", "blue ring, S: a hole South reserved (its seeds are South's)"]]
    assert all(entry[2:] == [16, 16] for entry in shown["entries"])
    left, top, right, bottom = shown["box"]
    assert bottom > top and right > left
    assert top >= shown["status"][3] >= shown["board"][3]  # below the status line, itself below the board
    assert left >= shown["board"][0] and right <= browser.evaluate("window.innerWidth")
    browser.press(*RIGHT)  # the legend stays as the moves are stepped through
    assert browser.evaluate(LEGEND)["entries"] == shown["entries"]
    assert browser.errors() == []


def test_the_console_check_sees_errors(browser, pages):
    """The check above can fail: an error thrown or logged on a page is seen."""
    browser.events.clear()
    browser.load(pages["kingulu-village-match"])
    browser.evaluate("console.error('logged'); setTimeout(function () { null.x; }, 0); 0")
    browser.evaluate("new Promise(function (done) { setTimeout(done, 50); })")
    errors = browser.errors()
    assert any("logged" in error for error in errors)
    assert any(error.startswith("exception:") for error in errors)


def test_the_arrow_keys_on_the_chooser_browse_the_games_and_keep_the_focus(browser, pages):
    """On the focused chooser, ↓ and ↑ (→ and ← too) show the next and the
    previous game, at its start: the focus stays on the chooser and no move
    is stepped; past the first or the last game nothing changes. Home and
    End (the browser's own keys of a select) browse the same way."""
    records = list(read(EXAMPLES / "kingulu-tournament.pmn"))
    game = get_game("kingulu")
    start = check(records[0]).positions[0].position
    browser.events.clear()
    browser.load(pages["kingulu-tournament"])
    browser.evaluate("document.getElementById('chooser').focus()")
    assert browser.evaluate(CHOSEN) == ["0", ["game-0"], "chooser"]

    def browses_to(k: int) -> None:
        assert browser.evaluate(CHOSEN) == [str(k), [f"game-{k}"], "chooser"]
        assert_shows(browser, game, start)  # at the start of the game: no move stepped
        assert browser.evaluate(SHOWN)["back"]
        assert browser.evaluate("document.querySelectorAll('section.game button.move.current').length") == 0

    for key, k in ((DOWN, 1), (DOWN, 2), (UP, 1), (RIGHT, 2), (LEFT, 1), (UP, 0), (UP, 0), (("End", 35), 3),
                   (DOWN, 3), (RIGHT, 3), (("Home", 36), 0)):
        browser.press(*key)
        browses_to(k)
    assert browser.errors() == []


def test_enter_on_the_chooser_takes_the_arrow_keys_to_the_chosen_games_moves(browser, pages):
    """Game 2 reached with ↓ and chosen with Enter: the focus goes to the
    diagram, and → and ← step through game 2, ↓ enters no other game; the
    chooser still says game 2."""
    records = list(read(EXAMPLES / "kingulu-tournament.pmn"))
    game = get_game("kingulu")
    report = check(records[1])
    browser.events.clear()
    browser.load(pages["kingulu-tournament"])
    browser.evaluate("document.getElementById('chooser').focus()")
    browser.press(*DOWN)
    assert browser.evaluate(CHOSEN) == ["1", ["game-1"], "chooser"]
    browser.press("Enter", 13, "\r")
    assert browser.evaluate(CHOSEN) == ["1", ["game-1"], "diagram"]
    assert_shows(browser, game, report.positions[0].position)
    browser.press(*RIGHT)
    assert browser.evaluate(CHOSEN) == ["1", ["game-1"], "diagram"]
    assert_shows(browser, game, report.positions[1].position)
    browser.press(*DOWN)  # no variation here: nothing changes, and above all not the game
    browser.press(*RIGHT)
    assert browser.evaluate(CHOSEN) == ["1", ["game-1"], "diagram"]
    assert_shows(browser, game, report.positions[2].position)
    browser.press(*LEFT)
    browser.press(*UP)
    assert browser.evaluate(CHOSEN) == ["1", ["game-1"], "diagram"]
    assert_shows(browser, game, report.positions[1].position)
    assert browser.errors() == []


#: The geometry a reader sees: the viewport, the widest thing on the page, the
#: board's box, the move list's box, the current move's box (CSS pixels).
GEOMETRY = """(function () {
  function box(e) { var r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }
  var section = document.querySelector('section.game:not([hidden])');
  var list = section.querySelector('.moves'), current = section.querySelector('button.move.current');
  var widest = 0;
  document.querySelectorAll('body *').forEach(function (e) {
    if (e.closest('[hidden]') || e.closest('template') || e.getClientRects().length === 0) { return; }
    widest = Math.max(widest, e.getBoundingClientRect().right);
  });
  var inner = list.getBoundingClientRect();
  return { width: window.innerWidth, height: window.innerHeight,
           scrollWidth: document.documentElement.scrollWidth, widest: widest,
           board: box(document.querySelector('#diagram svg')), list: box(list),
           listInside: [inner.top + list.clientTop, inner.top + list.clientTop + list.clientHeight],
           current: current ? box(current) : null,
           controls: Array.from(document.querySelectorAll('.controls button, #copy')).map(box) };
})()"""


@pytest.mark.parametrize("width, height", [(420, 800), (1280, 900), (1920, 1080)])
@pytest.mark.parametrize("name", ["kimasai-klamroth-annotated", "kingulu-tournament"])
def test_the_page_fits_the_screen_and_keeps_the_current_move_in_view(browser, pages, tmp_path, name, width, height):
    """At 420 px nothing is wider than the viewport and the board scales down
    to fit; at 1280 and 1920 px the move list stands beside the board, its
    top above the fold, and after End the current move is inside the list's
    visible area (the page itself does not scroll). Screenshots are kept in
    the test's folder."""
    browser.events.clear()
    browser.viewport(width, height)
    try:
        browser.load(pages[name])
        shown = browser.evaluate(GEOMETRY)
        browser.screenshot(tmp_path / f"{name}-{width}-start.png")
        assert shown["width"] == width
        assert shown["scrollWidth"] <= width and shown["widest"] <= width + 0.5, shown
        left, top, right, bottom = shown["board"]
        assert 0 <= left and right <= width, shown
        for button in shown["controls"]:
            assert 0 <= button[0] and button[2] <= width, shown
        natural = get_game(next(read(EXAMPLES / f"{name}.pmn")).tag("Game"))
        from mancala_cli.diagrams.layout import viewbox_size
        natural_width = viewbox_size(natural)[0]
        if width < natural_width + 40:
            assert right - left < natural_width  # scaled down to the width
        else:
            assert right - left == pytest.approx(natural_width, abs=1)
        if width >= 1280:
            list_box = shown["list"]
            assert list_box[0] >= right, shown           # beside the board
            assert list_box[1] < bottom and list_box[1] < height - 100, shown  # not below the fold
        browser.press("End", 35)
        shown = browser.evaluate(GEOMETRY)
        browser.screenshot(tmp_path / f"{name}-{width}-end.png")
        assert browser.evaluate("window.scrollY") == 0 or width < 1280
        if width >= 1280:
            inside_top, inside_bottom = shown["listInside"]
            assert shown["current"] is not None
            assert inside_top <= shown["current"][1] and shown["current"][3] <= inside_bottom, shown
            assert shown["current"][3] <= height
        assert browser.errors() == []
    finally:
        browser.page("Emulation.clearDeviceMetricsOverride")
