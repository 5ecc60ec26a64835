"""The drawing API (``mancala_cli.drawing``): a GamePosition brings its
game, what comes back shows itself in Jupyter and stays the str or bytes it
was, the bytes are the golden ones, and a record draws itself."""
from __future__ import annotations

import io
from pathlib import Path

import pytest

from mancala_cli import (
    BadSheet,
    GamePosition,
    Line,
    PngImage,
    SvgDiagram,
    TextBoard,
    get_game,
    parse_position,
    png,
    read,
    sheet,
    svg,
    text,
)
from mancala_cli.checking import replay
from mancala_cli.diagrams.svg import board_svg

GOLDEN = Path(__file__).parent / "golden"
VILLAGE = str(Path(__file__).resolve().parents[1] / "examples" / "kingulu-village-match.pmn")
START = "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1"
KINGULU_START_TEXT = ("Bao Kingulu — move 1, South to move\n"
                      "   North  store 0\n"
                      "     a    b    c    d    e    f\n"
                      " 2   4    4    4    4    4    4   2\n"
                      " 1   4    4    4    4    4    4   1\n"
                      "     a    b    c    d    e    f\n"
                      "   South  store 0   <- to move")


def test_svg_of_a_game_position_needs_no_game_and_is_the_golden_diagram():
    golden = (GOLDEN / "kingulu-start.svg").read_bytes()
    start = GamePosition.from_string("kingulu", START)
    picture = svg(start)
    assert type(picture) is SvgDiagram and isinstance(picture, str)
    assert picture.encode("utf-8") == golden
    assert picture._repr_svg_().encode("utf-8") == golden and type(picture._repr_svg_()) is str
    # The former call forms give the same bytes: a string or a position with game=, or the pair.
    kingulu = get_game("kingulu")
    assert svg(START, game="kingulu").encode("utf-8") == golden
    assert svg(kingulu.start(), game=kingulu).encode("utf-8") == golden
    assert svg(start, game="kingulu") == svg(start, game=kingulu) == picture
    assert start._repr_svg_() == picture


def test_options_reach_the_diagram_and_a_line_draws_its_position():
    golden = (GOLDEN / "klamroth-b2-styled.svg").read_bytes()
    klamroth = get_game("kimasai-klamroth")
    line = Line(klamroth)
    move = line.play("b2")
    style = ".pit { fill: #223344; }"
    assert svg(line.board(), last_move=move, style=style).encode("utf-8") == golden
    assert svg(line, last_move=move, style=style).encode("utf-8") == golden
    flipped = GamePosition.from_string("kingulu", "10,11,12,13,2,0/0*,0,0,0,0,0 S 0-0 9")
    assert svg(flipped, flip=True).encode("utf-8") == (GOLDEN / "kingulu-many-flipped.svg").read_bytes()


def test_a_position_without_its_game_or_with_another_game_is_refused():
    start = GamePosition.from_string("kingulu", START)
    for draw in (svg, png, text):
        with pytest.raises(TypeError, match=rf"{draw.__name__}\(\) needs game= for a position"):
            draw(START)
        with pytest.raises(TypeError, match=rf"{draw.__name__}\(\) needs game="):
            draw(get_game("kingulu").start())
        with pytest.raises(ValueError, match=r"the position is one of kingulu, not of kimasai-mackay"):
            draw(start, game="kimasai-mackay")
        with pytest.raises(TypeError, match="not int"):
            draw(3)


def test_text_of_a_game_position_prints_as_the_board():
    start = GamePosition.from_string("kingulu", START)
    board = text(start)
    assert type(board) is TextBoard and board == KINGULU_START_TEXT == text(START, game="kingulu")

    class Printer:  # what IPython's pretty printer is given
        def __init__(self):
            self.out = io.StringIO()

        def text(self, value):
            self.out.write(value)

    printer = Printer()
    board._repr_pretty_(printer, False)
    assert printer.out.getvalue() == KINGULU_START_TEXT


def test_png_of_a_game_position_is_the_golden_diagram_rasterised():
    pytest.importorskip("resvg_py", reason="the png extra is not installed")
    from mancala_cli.diagrams.png import svg_to_png

    golden = svg_to_png((GOLDEN / "kingulu-start.svg").read_text(encoding="utf-8"), scale=1.5)
    start = GamePosition.from_string("kingulu", START)
    image = png(start, scale=1.5)
    assert type(image) is PngImage and isinstance(image, bytes)
    assert image == golden == png(START, game="kingulu", scale=1.5)
    assert image._repr_png_() == golden and type(image._repr_png_()) is bytes


def test_a_sheet_shows_itself_too():
    record = next(read(VILLAGE))
    drawing = sheet(record, every=10)
    assert type(drawing) is SvgDiagram and drawing._repr_svg_() == drawing
    pytest.importorskip("resvg_py", reason="the png extra is not installed")
    image = sheet(record, every=10, format="png", scale=1)
    assert type(image) is PngImage and image[:4] == b"\x89PNG"


def test_a_record_is_drawn_at_its_last_position():
    record = next(read(VILLAGE))
    replayed = replay(record)
    expected = board_svg(replayed.game, replayed.positions[-1], last_move=replayed.moves[-1],
                         outcome=replayed.outcome)
    picture = svg(record)
    assert type(picture) is SvgDiagram and picture == expected
    assert "South wins" in expected and 'id="last-end"' in expected  # the result strip, the last move
    # The golden diagram of the same position, without the last move's marks and the result strip.
    assert replayed.positions[-1] == parse_position(replayed.game, "0,0,0,8*,0,12*/0,0,0,0,0,3 N 12-13 12")
    assert svg(GamePosition(replayed.game, replayed.positions[-1])).encode("utf-8") == \
        (GOLDEN / "kingulu-over.svg").read_bytes()
    # flip, title and style are a position's.
    assert svg(record, flip=True, title="T", style="rect{}") == board_svg(
        replayed.game, replayed.positions[-1], last_move=replayed.moves[-1], outcome=replayed.outcome,
        flip=True, title="T", style="rect{}")


def test_a_record_without_a_game_tag_is_drawn_with_game():
    record = next(read("1. c1x6 d2 *\n"))
    with pytest.raises(BadSheet, match="cannot be replayed"):
        svg(record)
    start = GamePosition.from_string("kingulu", START)
    after = start.play("c1x6").play("d2")
    assert svg(record, game="kingulu") == board_svg(after.game, after.position, last_move=after.position_move
                                                    if False else replay(record, "kingulu").moves[-1])


def test_a_record_that_cannot_be_replayed_is_not_drawn():
    record = next(read('[Game "nonesuch"]\n\n1. c1 *\n'))
    with pytest.raises(BadSheet, match="^the record cannot be replayed: "):
        svg(record)
    with pytest.raises(TypeError, match="own last move"):
        svg(next(read(VILLAGE)), last_move=replay(next(read(VILLAGE))).moves[0])
    # The record layer knows no rules: a record draws nothing by itself.
    assert not hasattr(record, "svg") and not hasattr(record, "_repr_svg_")



def test_a_replay_says_what_stopped_it():
    stopped = replay(next(read('[Game "nonesuch"]\n\n1. c1 *\n')))
    assert stopped.game is None
    assert (stopped.stopped_by.code, stopped.stopped_by.line, stopped.stopped_by.column) == ("unknown-game", 1, 8)
    played = replay(next(read('[Game "kingulu"]\n\n1. c1x6 zz *\n')))
    assert (played.stopped_by.code, played.stopped_by.message, played.stopped_by.column) == (
        "syntax", "unknown token 'zz'", 9)
