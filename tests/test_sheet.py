"""Game sheets (``render FILE --sheet``, ``mancala_cli.sheet``): the plies
chosen, the grid, captions and header, each board the single diagram's
drawing, usage errors, and a sheet as PNG."""
from __future__ import annotations

import os
import pathlib
import re

import pytest
from lxml import etree
from typer.testing import CliRunner

import mancala_cli
from mancala_cli import BadSheet, get_game, read, sheet
from mancala_cli.checking import replay
from mancala_cli.cli.commands import whole
from mancala_cli.diagrams.caption import RING_MEANINGS
from mancala_cli.diagrams.layout import LEGEND_LEADING, MARGIN, viewbox_size
from mancala_cli.diagrams.sheet import (
    CAPTION_H,
    GAP,
    HEADER_H,
    HEADER_LEADING,
    LEGEND_TOP,
    board_origin,
    choose_plies,
    game_diagrams,
    header_line,
    header_lines,
    sheet_legend,
    sheet_size,
)
from mancala_cli.diagrams.svg import board_element
from mancala_cli.diagrams.tree import tostring

app = whole()

ROOT = pathlib.Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
VILLAGE = EXAMPLES / "kingulu-village-match.pmn"  # 23 moves, 1-0 by KG-7
MACKAY = EXAMPLES / "kimasai-mackay-annotated.pmn"
SVG = "{http://www.w3.org/2000/svg}"
runner = CliRunner()
HEADER = ("Bao Kingulu · Amani – Baraka · Village match · Mhonda, Morogoro · 2026.11.02 · Round 1 · 1-0 · "
          "Score 35-13 · Annotator Zawadi")
#: The rings of the village match's boards after ply 4 (South reserves f2 with 2... f1^).
RINGS = ["last-origin", "last-end", "reserved-by-south"]


def run(*args, input=None):
    result = runner.invoke(app, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output
    return result


def captions(document: str) -> list[str]:
    return re.findall(r'<text class="caption"[^>]*>([^<]*)</text>', document)


def test_plies_in_the_order_given_with_their_moves_and_the_tags_on_top():
    result = run("render", VILLAGE, "--sheet", "--plies", "0,10,20,23")
    assert result.exit_code == 0, result.output
    document = result.stdout
    assert captions(document) == ["Start", "5... b2", "10... c2", "12. a1x1 · South wins 35–13 (KG-7)"]
    assert re.findall(r'<text class="header"[^>]*>([^<]*)</text>', document) == [HEADER]
    assert re.findall(r'<g id="(ply-[0-9]+)" class="diagram" transform="([^"]*)"', document) == [
        ("ply-0", "translate(0 40)"), ("ply-10", "translate(472 40)"), ("ply-20", "translate(944 40)"),
        ("ply-23", "translate(0 370)")]
    assert 'viewBox="0 0 1400 714"' in document  # 684, and the legend's row below the grid (30)
    # the last position's caption says how the game ended (no strip: the grid stays even), the others who moves
    assert document.count('class="result"') == 0 and document.count('class="to-move ') == 3
    assert run("render", VILLAGE, "--sheet", "--plies", "0,10,20,23").stdout == document  # same bytes


def test_every_n_shows_the_start_every_nth_ply_and_the_last():
    document = run("render", VILLAGE, "--sheet", "--every", "10").stdout
    assert captions(document) == ["Start", "5... b2", "10... c2", "12. a1x1 · South wins 35–13 (KG-7)"]
    assert captions(run("render", VILLAGE, "--sheet", "--every", "23").stdout) == ["Start", "12. a1x1 · South wins 35–13 (KG-7)"]
    assert captions(run("render", VILLAGE, "--sheet", "--every", "99").stdout) == ["Start", "12. a1x1 · South wins 35–13 (KG-7)"]
    assert choose_plies(0, every=5) == [0]
    assert choose_plies(20, every=5) == [0, 5, 10, 15, 20]


def test_each_board_is_the_single_diagram_drawing_with_its_ids_prefixed():
    record = next(read(VILLAGE))
    replayed = replay(record, positions=True)
    game = replayed.game
    document = sheet(record, plies=[7, 0], flip=True)
    blank = etree.XMLParser(remove_blank_text=True)
    root = etree.fromstring(document.encode(), blank)
    groups = [g for g in root if g.get("class") == "diagram"]
    for group, ply in zip(groups, [7, 0]):
        position = replayed.positions[ply - 1] if ply else replayed.start
        move = replayed.moves[ply - 1] if ply else None
        alone = etree.fromstring(tostring(board_element(game, position, last_move=move, flip=True,
                                                        outcome=None)).encode(), blank)
        expected = [etree.tostring(child) for child in alone
                    if child.tag not in (f"{SVG}desc", f"{SVG}style")]
        for element in group.iter():
            if element.get("id", "").startswith(f"ply-{ply}-"):
                element.set("id", element.get("id")[len(f"ply-{ply}-"):])
        got = [etree.tostring(child) for child in group][:-1]  # the caption last
        assert got == expected
        assert group[-1].get("class") == "caption"
    assert len(set(re.findall(r'id="([^"]+)"', document))) == len(re.findall(r'id="', document))  # ids unique


def test_columns_make_the_grid_and_a_long_header_takes_more_lines():
    game = get_game("kingulu")
    width, height = viewbox_size(game)
    document = run("render", VILLAGE, "--sheet", "--every", "5", "--columns", "2").stdout  # 0 5 10 15 20 23
    assert re.findall(r'<text class="header" x="8" y="([0-9]+)">([^<]*)</text>', document) == [
        ("27", "Bao Kingulu · Amani – Baraka · Village match · Mhonda, Morogoro · 2026.11.02"),
        ("51", "Round 1 · 1-0 · Score 35-13 · Annotator Zawadi")]
    assert header_lines(HEADER, 2 * width + GAP) == [
        "Bao Kingulu · Amani – Baraka · Village match · Mhonda, Morogoro · 2026.11.02",
        "Round 1 · 1-0 · Score 35-13 · Annotator Zawadi"]
    origins = re.findall(r'class="diagram" transform="translate\(([0-9]+) ([0-9]+)\)"', document)
    assert [tuple(map(int, o)) for o in origins] == [board_origin(game, k, columns=2, header_lines=2)
                                                      for k in range(6)]
    top = HEADER_H + HEADER_LEADING
    assert board_origin(game, 3, columns=2, header_lines=2) == (width + GAP, top + height + CAPTION_H + GAP)
    assert sheet_size(game, 6, columns=2, header=HEADER) == (2 * width + GAP,
                                                             top + 3 * (height + CAPTION_H) + 2 * GAP)
    legend = LEGEND_TOP + 2 * LEGEND_LEADING + MARGIN  # the legend below the grid, in two rows at this width
    assert sheet_size(game, 6, columns=2, header=HEADER, legend=RINGS) == (
        2 * width + GAP, top + 3 * (height + CAPTION_H) + 2 * GAP + legend)
    assert f'viewBox="0 0 {2 * width + GAP} {top + 3 * (height + CAPTION_H) + 2 * GAP + legend}"' in document
    # one board: the header in four lines, none wider than the board
    one = run("render", VILLAGE, "--sheet", "--plies", "3", "--columns", "5").stdout
    assert len(re.findall('class="header"', one)) == len(header_lines(HEADER, width)) == 4
    assert f'viewBox="0 0 {width} ' in one
    # a part wider than the grid gets a line of its own, and widens the sheet
    assert header_lines("A · " + "W" * 40 + " · B", 400) == ["A", "W" * 40, "B"]
    assert sheet_size(game, 1, columns=1, header="W" * 40)[0] == 8 * 2 + -(-40 * 1103 * 18 * 102 // 100_000)


def test_header_line_leaves_unknown_parts_out():
    game = get_game("kimasai-mackay")
    assert header_line(game, [("Game", "kimasai-mackay"), ("Event", "?"), ("Date", "????.??.??"),
                              ("South", "Juma"), ("Result", "*"), ("Termination", "abandoned")]) == (
        f"{game.name} · Juma – ? · * · Termination abandoned")
    assert header_line(game, [("Setup", "x"), ("Coordinates", "numeric")]) == game.name
    assert header_line(game, [("North", "Nuru"), ("Site", "Tanga")]) == f"{game.name} · ? – Nuru · Tanga"


def test_flip_and_style_reach_every_board():
    plain = run("render", VILLAGE, "--sheet", "--plies", "0,1").stdout
    flipped = run("render", VILLAGE, "--sheet", "--plies", "0,1", "--flip").stdout
    assert plain != flipped
    record = next(read(VILLAGE))
    assert flipped == sheet(record, plies=[0, 1], flip=True)
    styled = sheet(record, plies=[0], style=".caption { fill: red; }")
    assert styled.count("<style") == 2 and styled.index(".caption { fill: red; }") > styled.index(".sheet-background")


@pytest.mark.parametrize("args,message", [
    (["--sheet"], "--sheet needs --plies or --every"),
    (["--sheet", "--plies", "1", "--every", "2"], "give --plies or --every, not both"),
    (["--plies", "1"], "--plies needs --sheet"),
    (["--every", "2"], "--every needs --sheet"),
    (["--columns", "2"], "--columns needs --sheet"),
    (["--sheet", "--plies", "24"], "the record has 23 playable moves, no ply 24"),
    (["--sheet", "--plies", "3,1,3"], "ply 3 is given twice"),
    (["--sheet", "--plies", "1,,2"], "--plies must be ply numbers with a comma between, like 0,10,20 (got '1,,2')"),
    (["--sheet", "--plies", "-1"], "--plies must be ply numbers with a comma between, like 0,10,20 (got '-1')"),
    (["--sheet", "--every", "0"], "--every must be ≥ 1 (got 0)"),
    (["--sheet", "--every", "2", "--columns", "0"], "--columns must be ≥ 1 (got 0)"),
    (["--sheet", "--every", "2", "--ply", "3"], "--sheet draws plies of a record: it does not go with --ply"),
    (["--sheet", "--every", "2", "--format", "text"], "--sheet draws SVG or PNG: it does not go with --format text"),
    (["--sheet", "--every", "2", "--caption"], "--caption captions one diagram: a --sheet has its header and captions already"),
    (["--caption", "--format", "text"],
     "--caption captions SVG and PNG diagrams: a text board names the game and the move already"),
])
def test_usage_errors_are_one_line_exit_2(args, message, tmp_path):
    out = tmp_path / "sheet"  # (no extension: SVG unless told, so the errors tested come first)
    result = run("render", VILLAGE, *args, "-o", out)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"mancala: error: {message}\n"
    assert not out.exists()


def test_sheet_with_position_is_a_usage_error():
    result = run("render", "--game", "kingulu", "--position", "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1", "--sheet",
                 "--every", "2")
    assert (result.exit_code, result.stderr) == (
        2, "mancala: error: --sheet draws plies of a record: it does not go with --position\n")


def test_a_record_with_an_illegal_move_draws_what_can_be_played_and_exits_1(tmp_path):
    record = tmp_path / "bad.pmn"
    record.write_text('[Game "kingulu"]\n[South "A"]\n\n1. d1x6 d2x10 2. a2 *\n', encoding="utf-8")
    out = tmp_path / "sheet"  # (no extension: SVG unless told, so the errors tested come first)
    result = run("render", record, "--sheet", "--plies", "0,2", "-o", out)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{record}:4:")
    assert captions(out.read_text(encoding="utf-8")) == ["Start", "1... d2x10"]
    too_far = run("render", record, "--sheet", "--plies", "3")
    assert too_far.stderr == "mancala: error: the record has 2 playable moves, no ply 3\n"


def test_library_errors_are_bad_sheet():
    record = next(read(VILLAGE))
    for kwargs, message in (({}, "give plies or every"), ({"plies": [1], "every": 2}, "give plies or every, not both"),
                            ({"plies": []}, "a sheet needs at least one position"),
                            ({"plies": [2, 2]}, "ply 2 is given twice"), ({"every": 0}, "every must be at least 1 (got 0)"),
                            ({"every": 1, "columns": 0}, "columns must be at least 1 (got 0)")):
        with pytest.raises(BadSheet) as caught:
            sheet(record, **kwargs)
        assert str(caught.value) == message
        assert isinstance(caught.value, (mancala_cli.MancalaError, ValueError))
    with pytest.raises(ValueError):
        sheet(record, every=5, format="gif")  # type: ignore[call-overload]
    unknown = next(read(b'[Game "oware"]\n\n*\n'))
    with pytest.raises(BadSheet):
        sheet(unknown, every=1)


@pytest.mark.skipif(os.environ.get("MANCALA_PURE", "") not in ("", "0"),
                    reason="the rasteriser's tests run once, on the native-core run")
def test_a_sheet_as_png(tmp_path):
    pytest.importorskip("resvg_py", reason="the png extra is not installed")
    from mancala_cli.diagrams.png import png_size

    out = tmp_path / "sheet.png"
    result = run("render", VILLAGE, "--sheet", "--every", "10", "--format", "png", "--scale", "1", "-o", out)
    assert result.exit_code == 0, result.output
    game = get_game("kingulu")
    assert png_size(out.read_bytes()) == sheet_size(game, 4, columns=3, header=HEADER, legend=RINGS)
    assert out.read_bytes() == sheet(next(read(VILLAGE)), every=10, format="png", scale=1)
    assert png_size(sheet(next(read(VILLAGE)), every=10, format="png")) == tuple(
        2 * n for n in sheet_size(game, 4, columns=3, header=HEADER, legend=RINGS))


def test_the_example_sheet_is_what_the_command_draws():
    example = (EXAMPLES / "kingulu-village-match-sheet.svg").read_text(encoding="utf-8")
    assert example == run("render", VILLAGE, "--sheet", "--every", "6", "--columns", "2").stdout
    assert captions(example) == ["Start", "3... a2", "6... a2", "9... b2", "12. a1x1 · South wins 35–13 (KG-7)"]


def _hole_rings(group) -> set[str]:
    """The rings drawn on the holes of a board (the classes of its hole groups that name one)."""
    return {name for hole in group.iter(f"{SVG}g") if "hole" in (hole.get("class") or "").split()
            for name in hole.get("class").split() if name in RING_MEANINGS}


@pytest.mark.parametrize("plies, rings", [
    ([0], []),                                                    # the start: no ring, no legend
    ([0, 1], ["last-origin", "last-end"]),                        # a move, no reserved hole yet
    ([0, 10, 23], RINGS),
])
def test_the_legend_below_the_grid_says_what_the_rings_drawn_mean(plies, rings):
    """Below the boards, one entry for each ring drawn on any board (its
    sample ring, then what it means), none for a ring no board has; a
    sheet without rings has no legend and is as tall as before."""
    game = get_game("kingulu")
    record = next(read(VILLAGE))
    document = sheet(record, plies=plies)
    root = etree.fromstring(document.encode())
    boards = [g for g in root if g.get("class") == "diagram"]
    drawn = set().union(*(_hole_rings(board) for board in boards))
    assert sorted(drawn) == sorted(rings)
    replayed = replay(record, positions=True)
    diagrams = game_diagrams(game, replayed.start, replayed.positions, replayed.moves, plies)
    assert sheet_legend(game, diagrams) == rings
    width, height = sheet_size(game, len(plies), columns=3, header=HEADER, legend=rings)
    assert (int(root.get("width")), int(root.get("height"))) == (width, height)
    legend = root.find(f"{SVG}g[@id='legend']")
    if not rings:
        assert legend is None
        assert (width, height) == sheet_size(game, len(plies), columns=3, header=HEADER)
        return
    entries = legend.findall(f"{SVG}g")
    assert [e.get("class") for e in entries] == [f"legend-entry {kind}" for kind in rings]
    assert [e.find(f"{SVG}text").text for e in entries] == [RING_MEANINGS[kind] for kind in rings]
    # below the last row of boards, inside the sheet
    last = boards[-1]
    bottom = int(last.get("transform").split()[1].rstrip(")")) + viewbox_size(game)[1] + CAPTION_H
    assert all(bottom < float(e.find(f"{SVG}text").get("y")) < height for e in entries)
    assert all(float(e.find(f"{SVG}circle").get("cy")) - 6 > bottom for e in entries)


def test_a_sheet_shows_at_most_a_thousand_positions():
    from mancala_cli.diagrams.sheet import MAX_BOARDS, choose_plies

    assert MAX_BOARDS == 1000
    assert len(choose_plies(999, every=1)) == 1000 and len(choose_plies(1998, every=2)) == 1000
    with pytest.raises(ValueError, match=r"^a sheet shows at most 1,000 positions \(every 2 gives 1,001\)$"):
        choose_plies(1999, every=2)
    with pytest.raises(ValueError, match=r"^a sheet shows at most 1,000 positions \(got 1,001\)$"):
        choose_plies(5000, plies=list(range(1001)))
