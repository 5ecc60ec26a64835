"""The SVG diagrams in a real browser: headless Chromium screenshots, checked pixel by pixel.

Skipped when no Chromium is installed (Debian package ``chromium``).
"""
from __future__ import annotations

import os
import struct
import subprocess
import tempfile
import zlib
from pathlib import Path

import pytest

from mancala_cli import Line, get_game, parse_position
from mancala_cli.diagrams.layout import HOLE_R, hole_centre, viewbox_size
from mancala_cli.diagrams.style import BACKGROUND, HOLE_FILL, SEED_FILL, SIDE_COLOURS
from mancala_cli.diagrams.svg import board_svg

from .cdp import chromium as chromium_path


# -- a minimal PNG decoder (8-bit RGB/RGBA, non-interlaced: what Chromium writes) --
def decode_png(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the rows as RGB bytes."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos = 8
    idat = []
    width = height = channels = None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    rows = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        line = bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            upper_left = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + ((left + up) >> 1)) & 0xFF
            elif kind == 4:
                p = left + up - upper_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - upper_left)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else upper_left
                line[i] = (line[i] + pred) & 0xFF
            else:
                assert kind == 0, f"bad filter {kind}"
        previous = line
        if channels == 4:
            rgb = bytearray(width * 3)
            rgb[0::3], rgb[1::3], rgb[2::3] = line[0::4], line[1::4], line[2::4]
            rows.append(bytes(rgb))
        else:
            rows.append(bytes(line))
    return width, height, rows


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


class Picture:
    def __init__(self, path: Path) -> None:
        self.width, self.height, self.rows = decode_png(path.read_bytes())

    def at(self, x: int, y: int) -> tuple[int, int, int]:
        row = self.rows[y]
        return tuple(row[3 * x:3 * x + 3])

    def colours(self) -> set:
        return {row[i:i + 3] for row in self.rows for i in range(0, len(row), 3)}


def _close(actual, expected_hex, tolerance=3) -> bool:
    return all(abs(a - e) <= tolerance for a, e in zip(actual, _rgb(expected_hex)))


def _cases():
    kingulu = get_game("kingulu")
    mackay = get_game("kimasai-mackay")
    klamroth = get_game("kimasai-klamroth")
    line = Line(kingulu)
    c1 = line.play(kingulu.board.index_of("c1"))
    kk = Line(klamroth)
    b2 = kk.play(klamroth.board.index_of("b2"))
    return {
        "kingulu": (kingulu, parse_position(kingulu, "0,1,0,3,1,6*/0,11,1,1,3,3 S 7-11 4"), None, False),
        "kingulu-c1": (kingulu, line.position, c1, False),
        "mackay-flipped": (mackay, mackay.start(), None, True),
        "klamroth": (klamroth, kk.position, b2, False),
    }


def screenshot_all(chromium: str, tmp: Path, pages: dict[str, tuple[Path, int, int]]) -> dict[str, Picture]:
    """Each page (a file, and the window's width and height) screenshot in
    headless Chromium, all at once; the screenshots as pictures."""
    jobs = {}
    for name, (page, width, height) in pages.items():
        profile = tmp / f"profile-{name}"
        jobs[name] = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--no-first-run", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--hide-scrollbars", f"--user-data-dir={profile}",
             "--force-device-scale-factor=1", f"--window-size={width},{height}",
             f"--screenshot={tmp / (name + '.png')}", page.as_uri()],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pictures = {}
    for name, job in jobs.items():
        try:
            job.wait(timeout=90)
        except subprocess.TimeoutExpired:
            job.kill()
            job.wait()
            pytest.fail(f"Chromium took too long to screenshot {name}")
        png = tmp / f"{name}.png"
        assert png.exists(), f"Chromium wrote no screenshot for {name}"
        pictures[name] = Picture(png)
    return pictures


@pytest.fixture(scope="module")
def screenshots():
    chromium = chromium_path()
    if chromium is None:
        pytest.skip("no Chromium found: install the Debian package 'chromium' to run the browser test")
    cases = _cases()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        pages = {}
        for name, (game, position, move, flip) in cases.items():
            svg = tmp / f"{name}.svg"
            svg.write_text(board_svg(game, position, last_move=move, flip=flip), encoding="utf-8")
            width, height = viewbox_size(game)
            pages[name] = (svg, width, height)
        yield cases, screenshot_all(chromium, tmp, pages)


@pytest.mark.parametrize("name", ["kingulu", "kingulu-c1", "mackay-flipped", "klamroth"])
def test_not_blank_and_right_size(screenshots, name):
    cases, pictures = screenshots
    game = cases[name][0]
    picture = pictures[name]
    assert (picture.width, picture.height) == viewbox_size(game)
    assert len(picture.colours()) > 50
    assert _close(picture.at(2, 2), BACKGROUND)


@pytest.mark.parametrize("name", ["kingulu", "kingulu-c1", "mackay-flipped", "klamroth"])
def test_empty_holes_show_the_hole_colour_at_their_centre(screenshots, name):
    cases, pictures = screenshots
    game, position, _, flip = cases[name]
    picture = pictures[name]
    empty = [h for h in range(game.board.size) if position.holes[h] == 0]
    assert empty
    for hole in empty:
        x, y = hole_centre(game, hole, flip)
        assert _close(picture.at(x, y), HOLE_FILL), (game.board.name(hole), picture.at(x, y))
        # just outside the pit: the board, not the hole
        assert not _close(picture.at(x, y - HOLE_R - 3), HOLE_FILL)


@pytest.mark.parametrize("name", ["kingulu", "mackay-flipped", "klamroth"])
def test_a_single_seed_is_a_light_dot(screenshots, name):
    from mancala_cli.diagrams.layout import CLUSTER_DY
    cases, pictures = screenshots
    game, position, _, flip = cases[name]
    singles = [h for h in range(game.board.size) if position.holes[h] == 1]
    assert singles
    for hole in singles:
        x, y = hole_centre(game, hole, flip)
        assert _close(pictures[name].at(x, y + CLUSTER_DY), SEED_FILL), game.board.name(hole)


def test_reserved_ring_in_the_reservers_colour(screenshots):
    cases, pictures = screenshots
    game, position, _, flip = cases["kingulu"]
    (hole,) = position.reserved                       # f2, North's row, reserved by South
    x, y = hole_centre(game, hole, flip)
    assert _close(pictures["kingulu"].at(x - HOLE_R - 4, y), SIDE_COLOURS[game.reserver(hole)])


def test_last_move_end_ring(screenshots):
    from mancala_cli.diagrams.style import END_COLOUR, ORIGIN_COLOUR
    cases, pictures = screenshots
    game, _, move, flip = cases["kingulu-c1"]
    x, y = hole_centre(game, move.end, flip)
    assert _close(pictures["kingulu-c1"].at(x + HOLE_R - 1, y), END_COLOUR)
    # the origin's ring is dashed: somewhere on its circle the origin colour shows
    ox, oy = hole_centre(game, move.origin, flip)
    ring = [pictures["kingulu-c1"].at(ox + dx, oy + dy)
            for dx, dy in ((HOLE_R - 1, 0), (-HOLE_R, 0), (0, HOLE_R - 1), (0, -HOLE_R),
                           (17, 17), (-18, -18), (17, -18), (-18, 17))]
    assert any(_close(colour, ORIGIN_COLOUR, 40) for colour in ring), ring


# -- a game sheet and a PNG image, in the browser ----------------------------------------
SHEET_PLIES = [0, 5, 10, 23]   # of the village match: empty holes in all but the start


def sheet_rings(record, game) -> list[str]:
    """The rings the boards of the sheet of SHEET_PLIES draw: what its legend lists."""
    from mancala_cli.checking import replay
    from mancala_cli.diagrams.sheet import game_diagrams, sheet_legend

    replayed = replay(record, positions=True)
    return sheet_legend(game, game_diagrams(game, replayed.start, replayed.positions, replayed.moves, SHEET_PLIES))
PNG_POSITION = "0,1,0,3,1,6*/0,11,1,1,3,3 S 7-11 4"


@pytest.fixture(scope="module")
def image_screenshots():
    if os.environ.get("MANCALA_PURE", "") not in ("", "0"):
        pytest.skip("the sheet and PNG screenshots run once, on the native-core run")
    pytest.importorskip("resvg_py", reason="the png extra is not installed: pip install -e '.[test]'")
    chromium = chromium_path()
    if chromium is None:
        pytest.skip("no Chromium found: install the Debian package 'chromium' to run the browser test")
    from mancala_cli import png, read, sheet
    from mancala_cli.diagrams.sheet import header_line, header_lines, sheet_size

    record = next(read(Path(__file__).resolve().parents[1] / "examples" / "kingulu-village-match.pmn"))
    game = get_game("kingulu")
    header = header_line(game, record.tags)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        document = tmp / "sheet.svg"
        document.write_text(sheet(record, plies=SHEET_PLIES, columns=2), encoding="utf-8")
        width, height = sheet_size(game, len(SHEET_PLIES), columns=2, header=header,
                                   legend=sheet_rings(record, game))
        image = tmp / "board.png"
        data = png(PNG_POSITION, game="kingulu")  # scale 2
        image.write_bytes(data)
        page = tmp / "board.html"
        page.write_text(f'<!DOCTYPE html><html><body style="margin:0"><img src="{image.name}" '
                        'style="display:block"></body></html>', encoding="utf-8")
        board_w, board_h = viewbox_size(game)
        pictures = screenshot_all(chromium, tmp, {"sheet": (document, width, height),
                                                  "png": (page, 2 * board_w, 2 * board_h)})
        lines = len(header_lines(header, 2 * board_w + 16))
        yield record, game, lines, pictures, Picture(image)


def test_sheet_in_the_browser_is_not_blank_and_the_right_size(image_screenshots):
    record, game, lines, pictures, _ = image_screenshots
    from mancala_cli.diagrams.sheet import header_line, sheet_size

    sheet_picture = pictures["sheet"]
    assert (sheet_picture.width, sheet_picture.height) == sheet_size(game, len(SHEET_PLIES), columns=2,
                                                                     header=header_line(game, record.tags),
                                                                     legend=sheet_rings(record, game))
    assert len(sheet_picture.colours()) > 50
    assert _close(sheet_picture.at(2, 2), BACKGROUND)
    # the header is dark text on the background
    header = [sheet_picture.at(x, y) for x in range(8, 300) for y in range(10, 32)]
    assert sum(max(colour) < 120 for colour in header) > 200


def test_sheet_holes_are_where_the_geometry_puts_them(image_screenshots):
    from mancala_cli.checking import replay
    from mancala_cli.diagrams.sheet import CAPTION_H, board_origin

    record, game, lines, pictures, _ = image_screenshots
    replayed = replay(record, positions=True)
    states = [replayed.start, *replayed.positions]
    picture = pictures["sheet"]
    width, height = viewbox_size(game)
    for index, ply in enumerate(SHEET_PLIES):
        ox, oy = board_origin(game, index, columns=2, header_lines=lines)
        position = states[ply]
        for hole in range(game.board.size):
            x, y = hole_centre(game, hole)
            if position.holes[hole] == 0:
                assert _close(picture.at(ox + x, oy + y), HOLE_FILL), (ply, game.board.name(hole))
            assert not _close(picture.at(ox + x, oy + y - HOLE_R - 3), HOLE_FILL)
        # the caption: dark text in the strip under the board, centred
        caption = [picture.at(ox + x, oy + y) for x in range(width // 2 - 30, width // 2 + 30)
                   for y in range(height + 4, height + CAPTION_H - 4)]
        assert sum(max(colour) < 120 for colour in caption) > 20, ply


def test_sheet_legend_in_the_browser_is_below_the_boards(image_screenshots):
    """Below the last row of boards: a sample of each ring in its colour and
    dark words beside it, on the background."""
    from mancala_cli.diagrams.sheet import CAPTION_H, board_origin
    from mancala_cli.diagrams.style import END_COLOUR, ORIGIN_COLOUR

    record, game, lines, pictures, _ = image_screenshots
    assert sheet_rings(record, game) == ["last-origin", "last-end", "reserved-by-south"]
    picture = pictures["sheet"]
    _, oy = board_origin(game, len(SHEET_PLIES) - 1, columns=2, header_lines=lines)
    top = oy + viewbox_size(game)[1] + CAPTION_H
    legend = [picture.at(x, y) for x in range(picture.width) for y in range(top, picture.height)]
    for colour in (ORIGIN_COLOUR, END_COLOUR, SIDE_COLOURS["S"]):
        assert any(_close(pixel, colour, 40) for pixel in legend), colour
    assert sum(max(pixel) < 120 for pixel in legend) > 300  # the words


def test_png_in_the_browser_shows_the_holes_where_the_geometry_puts_them(image_screenshots):
    from mancala_cli.diagrams.layout import CLUSTER_DY

    _, game, _, pictures, ours = image_screenshots
    shown = pictures["png"]
    assert (shown.width, shown.height) == (ours.width, ours.height) == tuple(2 * n for n in viewbox_size(game))
    assert len(shown.colours()) > 50
    position = parse_position(game, PNG_POSITION)
    for hole in range(game.board.size):
        x, y = hole_centre(game, hole)
        if position.holes[hole] == 0:
            assert _close(shown.at(2 * x, 2 * y), HOLE_FILL), game.board.name(hole)
        if position.holes[hole] == 1:
            assert _close(shown.at(2 * x, 2 * (y + CLUSTER_DY)), SEED_FILL), game.board.name(hole)
        assert not _close(shown.at(2 * x, 2 * (y - HOLE_R - 3)), HOLE_FILL)
    # the browser shows the image's own pixels
    for x, y in ((4, 4), (100, 100), (450, 300), (900, 560)):
        assert _close(shown.at(x, y), "#%02x%02x%02x" % ours.at(x, y), 2), (x, y)
    # the reserved ring in the reserver's colour, at twice the diagram's size
    (hole,) = position.reserved
    x, y = hole_centre(game, hole)
    assert _close(shown.at(2 * (x - HOLE_R - 4), 2 * y), SIDE_COLOURS[game.reserver(hole)])
