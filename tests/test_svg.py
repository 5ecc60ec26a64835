"""SVG diagrams: golden bytes and structural facts (CLI.md, "SVG diagrams").

Regenerate the goldens after a deliberate change of the drawing with
``MANCALA_UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_svg.py`` and look at
them in a browser before committing.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from lxml import etree

from mancala_cli import Line, get_game, parse_position
from mancala_cli.diagrams.caption import RING_MEANINGS
from mancala_cli.diagrams.layout import DOT_LIMIT, RESULT_H, hole_centre, result_box, viewbox_size
from mancala_cli.diagrams.svg import board_svg
from mancala_cli.diagrams.text import result_words
from mancala_cli.diagrams.tree import SVG_NS

GOLDEN = Path(__file__).parent / "golden"
NS = {"svg": SVG_NS}
UPDATE = os.environ.get("MANCALA_UPDATE_GOLDEN") == "1"


def _played(game_id: str, moves: list[str]):
    """The position after ``moves`` from the start, and the last move."""
    game = get_game(game_id)
    line = Line(game)
    move = None
    for name in moves:
        move = line.play(game.board.index_of(name))
    return line.position, move


def _case(name):
    """(game, position, last move, keyword arguments) of a golden case."""
    kingulu = get_game("kingulu")
    if name == "kingulu-start":
        return kingulu, kingulu.start(), None, {}
    if name == "kingulu-reserved":
        return kingulu, parse_position(kingulu, "0,1,0,3,1,6*/0,11,1,1,3,3 S 7-11 4"), None, {}
    if name == "kingulu-c1":
        position, move = _played("kingulu", ["c1"])
        return kingulu, position, move, {"title": "Bao Kingulu — position after 1. c1, North to move"}
    if name == "kingulu-over":  # the last position of examples/kingulu-village-match.pmn
        return kingulu, parse_position(kingulu, "0,0,0,8*,0,12*/0,0,0,0,0,3 N 12-13 12"), None, {}
    if name == "kingulu-many-flipped":
        position = parse_position(kingulu, "10,11,12,13,2,0/0*,0,0,0,0,0 S 0-0 9")
        return kingulu, position, None, {"flip": True}
    mackay = get_game("kimasai-mackay")
    if name == "mackay-start":
        return mackay, mackay.start(), None, {}
    if name == "mackay-played":
        position, move = _played("kimasai-mackay", ["a2", "d3", "h1", "e3", "c2", "c4"])
        return mackay, position, move, {}
    if name == "mackay-played-flipped":
        position, move = _played("kimasai-mackay", ["a2", "d3", "h1", "e3", "c2", "c4"])
        return mackay, position, move, {"flip": True}
    klamroth = get_game("kimasai-klamroth")
    if name == "klamroth-start":
        return klamroth, klamroth.start(), None, {}
    if name == "klamroth-b2-styled":
        position, move = _played("kimasai-klamroth", ["b2"])
        return klamroth, position, move, {"style": ".pit { fill: #223344; }"}
    raise KeyError(name)


CASES = ["kingulu-start", "kingulu-reserved", "kingulu-c1", "kingulu-many-flipped", "kingulu-over",
         "mackay-start", "mackay-played", "mackay-played-flipped",
         "klamroth-start", "klamroth-b2-styled"]


def _svg(name: str) -> str:
    game, position, move, kwargs = _case(name)
    return board_svg(game, position, last_move=move, **kwargs)


def _parse(svg: str):
    return etree.fromstring(svg.encode("utf-8"))


@pytest.mark.parametrize("name", CASES)
def test_golden_bytes(name):
    svg = _svg(name)
    path = GOLDEN / f"{name}.svg"
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(svg.encode("utf-8"))
    assert path.exists(), f"missing golden {path}: run with MANCALA_UPDATE_GOLDEN=1"
    assert svg.encode("utf-8") == path.read_bytes()


@pytest.mark.parametrize("name", CASES)
def test_structure(name):
    game, position, move, kwargs = _case(name)
    svg = board_svg(game, position, last_move=move, **kwargs)
    assert svg.startswith("<?xml")
    root = _parse(svg)
    board = game.board
    assert root.tag == f"{{{SVG_NS}}}svg"
    over = game.outcome(position)
    width, height = viewbox_size(game)
    height += 0 if over is None else RESULT_H
    assert root.get("viewBox") == f"0 0 {width} {height}"
    assert (root.get("width"), root.get("height")) == (str(width), str(height))

    title = root.find("svg:title", NS).text
    if "title" in kwargs:
        assert title == kwargs["title"]
    elif over is not None:
        assert title == f"{game.name} — move {position.move_number}, {result_words(over)}"
    else:
        side = "South" if position.side == "S" else "North"
        assert title == f"{game.name} — move {position.move_number}, {side} to move"
    # A finished game shows its result in a strip of its own instead of the side to move.
    assert (root.find(".//svg:g[@id='to-move']", NS) is None) == (over is not None)
    result = root.find("svg:g[@id='result']/svg:text", NS)
    assert (result is None) == (over is None)
    if over is not None:
        assert result.text == result_words(over)

    holes = root.findall(".//svg:g[@id='holes']/svg:g", NS)
    assert len(holes) == board.size
    assert len(root.xpath("//svg:g[contains(concat(' ', @class, ' '), ' hole ')]", namespaces=NS)) \
        == board.size
    for hole in range(board.size):
        group = root.find(f".//svg:g[@id='hole-{board.name(hole)}']", NS)
        classes = group.get("class").split()
        assert "hole" in classes
        assert ("south" if board.owner(hole) == "S" else "north") in classes
        count = group.find("svg:text[@class='count']", NS)
        if count is None:
            count = group.find("svg:text[@class='count many']", NS)
        assert count.text == str(position.holes[hole])
        pit = group.find("svg:circle[@class='pit']", NS)
        assert (int(pit.get("cx")), int(pit.get("cy"))) == hole_centre(game, hole, kwargs.get("flip", False))
        seeds = group.find("svg:path[@class='seeds']", NS)
        n = position.holes[hole]
        assert (seeds is not None) == (0 < n <= DOT_LIMIT)
        if seeds is not None:
            assert seeds.get("d").count("z") == n      # one disc per seed
        assert ("reserved" in classes) == (hole in position.reserved)

    # Banks, side to move, labels.
    for side, count in (("south", position.banks[0]), ("north", position.banks[1])):
        bank = root.find(f".//svg:g[@id='bank-{side}']", NS)
        assert bank.get("class") == f"bank {side}"
        assert bank.find("svg:text[@class='bank-count']", NS).text == str(count)
        assert bank.find("svg:text[@class='bank-label']", NS).text == game.bank_name
    markers = root.xpath("//*[@id='to-move' or @id='result']")
    assert len(markers) == 1
    mover = "south" if position.side == "S" else "north"
    assert markers[0].get("class") == ("result" if over else f"to-move {mover}")
    assert markers[0].getparent().get("id") == ("bank-" + mover if over is None else None)
    files = [t.text for t in root.findall(".//svg:text[@class='label file']", NS)]
    ranks = [t.text for t in root.findall(".//svg:text[@class='label rank']", NS)]
    assert sorted(set(files)) == [board.name(f)[0] for f in range(board.files)]
    assert len(files) == 2 * board.files
    assert sorted(set(ranks)) == [str(r) for r in range(1, board.ranks + 1)]
    assert (root.find(".//svg:line[@class='divider']", NS) is not None) == (board.ranks == 4)

    # The last move.
    origins = root.xpath("//*[@id='last-origin']")
    ends = root.xpath("//*[@id='last-end']")
    if move is None:
        assert origins == [] and ends == []
    else:
        assert origins[0].getparent().get("id") == f"hole-{board.name(move.origin)}"
        assert ends[0].getparent().get("id") == f"hole-{board.name(move.end)}"
        assert "last-origin" in origins[0].getparent().get("class").split()
        assert "last-end" in ends[0].getparent().get("class").split()

    # The style: a default one, then the caller's.
    styles = root.findall("svg:style", NS)
    assert "font-family: sans-serif" in styles[0].text
    if "style" in kwargs:
        assert len(styles) == 2 and styles[1].text == kwargs["style"]
    else:
        assert len(styles) == 1


def test_nothing_external():
    for name in CASES:
        svg = _svg(name)
        assert "href" not in svg
        assert "url(" not in svg
        assert "@import" not in svg
        assert "<image" not in svg
        assert not re.search(r"https?://(?!www\.w3\.org/2000/svg\")", svg)


def test_numbers_are_short():
    """Deterministic formatting: integers or one decimal, never ``-0`` or long floats."""
    svg = _svg("mackay-played")
    root = _parse(svg)
    for element in root.iter():
        for key, value in element.attrib.items():
            if key in ("class", "id", "viewBox", "version", "type"):
                continue
            for number in re.findall(r"-?\d+(?:\.\d+)?", value):
                assert number != "-0"
                assert "." not in number or len(number.split(".")[1]) == 1, (key, value)


def test_deterministic_and_cached_template_untouched():
    game = get_game("kingulu")
    reserved = parse_position(game, "0,1,0,3,1,6*/0,11,1,1,3,3 S 7-11 4")
    first = board_svg(game, game.start())
    board_svg(game, reserved, style="x{}")               # must not leak into the template
    board_svg(game, reserved, flip=True)
    assert board_svg(game, game.start()) == first
    assert "reserved" not in first.replace(".reserved", "")


def test_reserved_hole_marked_for_the_reserver():
    game = get_game("kingulu")
    position = parse_position(game, "0,1,0,3,1,6*/0,11,1,1,3,3* S 7-11 4")
    root = _parse(board_svg(game, position))
    f2 = root.find(".//svg:g[@id='hole-f2']", NS)           # North's row, reserved by South
    assert f2.get("class").split() == ["hole", "north", "front", "reserved", "reserved-by-south"]
    assert f2.find("svg:circle[@class='reserved-ring south']", NS) is not None
    assert f2.find("svg:text[@class='reserver south']", NS).text == "S"
    f1 = root.find(".//svg:g[@id='hole-f1']", NS)           # South's row, reserved by North
    assert f1.find("svg:text[@class='reserver north']", NS).text == "N"
    assert "reserved" not in root.find(".//svg:g[@id='hole-e2']", NS).get("class")


def test_flip_turns_the_board():
    game = get_game("kimasai-mackay")
    board = game.board
    width, height = viewbox_size(game)
    for hole in range(board.size):
        x, y = hole_centre(game, hole)
        fx, fy = hole_centre(game, hole, flip=True)
        assert (fx, fy) == (width - x, height - y)
    # South's back row at the bottom, North's at the top unless flipped.
    assert hole_centre(game, board.index_of("a1"))[1] > hole_centre(game, board.index_of("a4"))[1]
    assert hole_centre(game, board.index_of("a1"))[0] < hole_centre(game, board.index_of("h1"))[0]
    root = _parse(board_svg(game, game.start(), flip=True))
    banks = [g.get("id") for g in root.findall("svg:g", NS) if g.get("id", "").startswith("bank-")]
    assert banks == ["bank-south", "bank-north"]              # South's strip drawn at the top
    south_y = float(root.find(".//svg:g[@id='bank-south']/svg:rect", NS).get("y"))
    assert south_y < height / 2
    labels = root.findall(".//svg:text[@class='label file']", NS)
    top = min(float(t.get("y")) for t in labels)
    files = [t.text for t in sorted(labels, key=lambda t: float(t.get("x"))) if float(t.get("y")) == top]
    assert files == list("hgfedcba")
    ranks = root.findall(".//svg:text[@class='label rank']", NS)
    left = min(float(t.get("x")) for t in ranks)
    assert [t.text for t in sorted(ranks, key=lambda t: float(t.get("y")))
            if float(t.get("x")) == left] == list("1234")


def test_origin_equal_to_end_draws_both_rings():
    from mancala_cli import Move
    game = get_game("kingulu")
    root = _parse(board_svg(game, game.start(), last_move=Move(2, 2)))
    c1 = root.find(".//svg:g[@id='hole-c1']", NS)
    assert {"last-origin", "last-end"} <= set(c1.get("class").split())
    assert c1.find("svg:circle[@id='last-origin']", NS) is not None
    assert c1.find("svg:circle[@id='last-end']", NS) is not None


@pytest.mark.parametrize("flip", [False, True])
def test_a_finished_game_names_the_winner_and_the_final_score_in_neither_bank(flip):
    """The village match ends with North to move and no move: South wins 35-13
    by KG-7 (store 12, own row 3, reserved holes 8 + 12), though the stores
    read 12 and 13. The diagram says so in one line below the board, in
    neither side's bank, flipped or not."""
    game = get_game("kingulu")
    position = parse_position(game, "0,0,0,8*,0,12*/0,0,0,0,0,3 N 12-13 12")
    root = _parse(board_svg(game, position, flip=flip))
    assert [t.text for t in root.xpath("//svg:g[starts-with(@id, 'bank-')]//svg:text", namespaces=NS)
            if t.get("class") == "bank-count"] == (["12", "13"] if flip else ["13", "12"])
    for bank in root.xpath("//svg:g[starts-with(@id, 'bank-')]", namespaces=NS):
        assert "".join(bank.itertext()).split() in (["North", "store", "13"], ["South", "store", "12"])
    strip = root.find("svg:g[@id='result']", NS)
    assert "".join(strip.itertext()).strip() == "South wins 35–13 (KG-7)"
    x, y, w, h = result_box(game)
    box = strip.find("svg:rect", NS)
    assert [int(box.get(k)) for k in ("x", "y", "width", "height")] == [x, y, w, h]
    bottom_bank = root.find(f".//svg:g[@id='bank-{'north' if flip else 'south'}']/svg:rect", NS)
    assert y >= int(bottom_bank.get("y")) + int(bottom_bank.get("height"))
    assert y + h <= int(root.get("height"))
    assert root.find("svg:title", NS).text == "Bao Kingulu — move 12, South wins 35–13 (KG-7)"


def test_the_result_line_names_winner_draw_and_score():
    from mancala_cli.rules.game import Outcome

    assert result_words(Outcome("1-0", "KG-7", "", (35, 13))) == "South wins 35–13 (KG-7)"
    assert result_words(Outcome("0-1", "KG-7", "", (22, 26))) == "North wins 26–22 (KG-7)"
    assert result_words(Outcome("1/2-1/2", "KG-7", "", (24, 24))) == "Draw 24–24 (KG-7)"
    assert result_words(Outcome("0-1", "KK-4a", "")) == "North wins (KK-4a)"


def test_caption_lines_above_the_diagram_fit_its_width():
    from mancala_cli.diagrams.caption import caption_lines
    from mancala_cli.diagrams.fontwidths import text_width as _text_width
    from mancala_cli.diagrams.layout import CAPTION_SIZE, MARGIN

    game = get_game("kingulu")
    head = "Bao Kingulu · Amani – Baraka · Village match · Mhonda, Morogoro · 2026.11.02 · Round 1"
    caption = [head, "After 5. b1x2, North to move"]
    plain = board_svg(game, game.start())
    assert board_svg(game, game.start(), caption=None) == plain
    root = _parse(board_svg(game, game.start(), caption=caption))
    lines = [t.text for t in root.findall("svg:g[@id='caption']/svg:text", NS)]
    assert lines == caption_lines(game, caption)
    assert " · ".join(lines[:-1]) == head and lines[-1] == caption[1]    # broken at a " · " only
    width, height = viewbox_size(game)
    assert len(lines) >= 3 and all(_text_width(line, CAPTION_SIZE) <= width - 2 * MARGIN for line in lines)
    assert root.findall("svg:g[@id='caption']/svg:text", NS)[0].get("font-weight") == "bold"
    # The diagram moves down by the caption's height, and is otherwise the one without it.
    drawing = root.find("svg:g[@id='drawing']", NS)
    shift = int(drawing.get("transform").split()[1].rstrip(")"))
    assert int(root.get("height")) == height + shift
    assert root.get("viewBox") == f"0 0 {width} {height + shift}"
    top = max(float(t.get("y")) for t in root.findall("svg:g[@id='caption']/svg:text", NS))
    assert top < shift
    old = _parse(plain)
    def tree(e):
        return (e.tag, dict(e.attrib), (e.text or "").strip(), [tree(c) for c in e])
    assert [tree(e) for e in drawing] == [tree(e) for e in list(old)[4:]]
    # A word too wide for any line is broken at its spaces.
    long = ["x " * 60]
    assert all(_text_width(line, CAPTION_SIZE) <= width - 2 * MARGIN for line in caption_lines(game, long))


def test_render_caption_names_players_move_and_side_to_move(tmp_path):
    """``render --caption``: the game, the players, the event, then the move
    and the side to move (or ``game over``, the strip giving the result);
    a position string gets the game and the move; --all captions each file."""
    from typer.testing import CliRunner

    from mancala_cli.cli.commands import whole

    app = whole()

    runner = CliRunner()
    village = Path(__file__).resolve().parents[1] / "examples" / "kingulu-village-match.pmn"

    def caption(*args):
        result = runner.invoke(app, ["render", *map(str, args), "--caption"])
        assert result.exit_code == 0, result.output
        root = _parse(result.stdout)
        return " | ".join(t.text for t in root.findall("svg:g[@id='caption']/svg:text", NS))

    assert caption(village, "--ply", "9") == ("Bao Kingulu · Amani – Baraka · Village match | "
                                              "Mhonda, Morogoro · 2026.11.02 · Round 1 | After 5. b1x2, North to move")
    assert caption(village, "--ply", "0").endswith("| Start, South to move")
    assert caption(village).endswith("| After 12. a1x1, game over")
    assert caption("--game", "kingulu", "--position", "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1") == (
        "Bao Kingulu | Move 1, South to move")
    out = tmp_path / "plies"
    assert runner.invoke(app, ["render", str(village), "--all", "--out-dir", str(out), "--caption"]).exit_code == 0
    assert "After 1... d2x10, South to move" in (out / "ply-002.svg").read_text(encoding="utf-8")
    assert "<g id=\"caption\"" not in runner.invoke(app, ["render", str(village), "--ply", "9"]).stdout


def _rings_on_holes(root) -> list[str]:
    """The rings drawn on the holes (the classes of the hole groups that
    name one), in the order of :data:`RING_MEANINGS`."""
    found = {name for group in root.iterfind(".//svg:g[@id='holes']/svg:g", NS) for name in group.get("class").split()}
    return [kind for kind in RING_MEANINGS if kind in found]


def _legend(root) -> list[tuple[str, str]]:
    """The legend's entries: their class and their words."""
    return [(entry.get("class"), entry.find("svg:text", NS).text)
            for entry in root.findall("svg:g[@id='legend']/svg:g", NS)]


def test_render_caption_adds_a_legend_of_exactly_the_rings_drawn(tmp_path):
    """``render --caption``: below the caption, one legend entry (a sample
    ring, then what it means) for each kind of ring the diagram draws, and
    none other: every ply of the village match, holes reserved by both
    sides, a Kimasai move. A diagram without rings gets no legend: its
    caption is drawn as it was before the legend (the same bytes)."""
    from typer.testing import CliRunner

    from mancala_cli.cli.commands import whole

    app = whole()

    runner = CliRunner()
    village = Path(__file__).resolve().parents[1] / "examples" / "kingulu-village-match.pmn"

    def render(*args) -> str:
        result = runner.invoke(app, ["render", *map(str, args)])
        assert result.exit_code == 0, result.output
        return result.stdout

    def entries(*kinds: str) -> list[tuple[str, str]]:
        return [(f"legend-entry {kind}", RING_MEANINGS[kind]) for kind in kinds]

    out = tmp_path / "plies"
    render(village, "--all", "--out-dir", out, "--caption")
    seen = set()
    for path in sorted(out.glob("ply-*.svg")):
        root = _parse(path.read_text(encoding="utf-8"))
        rings = _rings_on_holes(root)
        assert _legend(root) == entries(*rings), path.name
        seen.add(tuple(rings))
        # above the diagram, below the caption
        drawing = root.find("svg:g[@id='drawing']", NS)
        shift = int(drawing.get("transform").split()[1].rstrip(")"))
        caption_bottom = max(float(t.get("y")) for t in root.findall("svg:g[@id='caption']/svg:text", NS))
        for entry in root.findall("svg:g[@id='legend']/svg:g", NS):
            assert caption_bottom < float(entry.find("svg:text", NS).get("y")) < shift
    assert seen == {(), ("last-origin", "last-end"), ("last-origin", "last-end", "reserved-by-south")}
    assert _legend(_parse((out / "ply-001.svg").read_text(encoding="utf-8"))) == [
        ("legend-entry last-origin", "dashed green ring: where the last move started"),
        ("legend-entry last-end", "yellow ring: where the last move ended")]
    # Holes reserved by both sides, no last move; a move of Bao la Kimasai.
    both = _parse(render("--game", "kingulu", "--position", "0,1,0,3,1,6*/0,11,1,1,3*,3 S 7-11 4", "--caption"))
    assert _rings_on_holes(both) == ["reserved-by-south", "reserved-by-north"]
    assert _legend(both) == [("legend-entry reserved-by-south",
                              "blue ring, S: a hole South reserved (its seeds are South's)"),
                             ("legend-entry reserved-by-north",
                              "red ring, N: a hole North reserved (its seeds are North's)")]
    mackay = Path(__file__).resolve().parents[1] / "examples" / "kimasai-mackay-annotated.pmn"
    assert _legend(_parse(render(mackay, "--ply", "3", "--caption"))) == entries("last-origin", "last-end")
    # No ring: no legend, and the caption alone as board_svg draws it without one.
    game = get_game("kingulu")
    start = render(village, "--ply", "0", "--caption")
    root = _parse(start)
    assert root.find("svg:g[@id='legend']", NS) is None and "legend" not in start
    head = "Bao Kingulu · Amani – Baraka · Village match · Mhonda, Morogoro · 2026.11.02 · Round 1"
    assert start == board_svg(game, game.start(), title=root.find("svg:title", NS).text,
                              caption=[head, "Start, South to move"])
    # Without --caption, no legend either (the diagram is what it was).
    assert "legend" not in render(village, "--ply", "9")
