"""The SVG diagrams in a real browser: headless Chromium screenshots, checked pixel by pixel.

Skipped when no Chromium is installed (Debian package ``chromium``).
"""
from __future__ import annotations

import os
import shutil
import struct
import subprocess
import tempfile
import zlib
from pathlib import Path

import pytest

from mancala_cli import Line, get_game
from mancala_cli.diagrams.svg import (BACKGROUND, HOLE_FILL, HOLE_R, SEED_FILL, SIDE_COLOURS, board_svg,
                             hole_centre, viewbox_size)
from mancala_cli import parse_position


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None


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


@pytest.fixture(scope="module")
def screenshots():
    chromium = _chromium()
    if chromium is None:
        pytest.skip("no Chromium found: install the Debian package 'chromium' to run the browser test")
    cases = _cases()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        jobs = {}
        for name, (game, position, move, flip) in cases.items():
            svg = tmp / f"{name}.svg"
            svg.write_text(board_svg(game, position, last_move=move, flip=flip), encoding="utf-8")
            width, height = viewbox_size(game)
            profile = tmp / f"profile-{name}"
            jobs[name] = subprocess.Popen(
                [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--hide-scrollbars", f"--user-data-dir={profile}",
                 "--force-device-scale-factor=1", f"--window-size={width},{height}",
                 f"--screenshot={tmp / (name + '.png')}", svg.as_uri()],
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
        yield cases, pictures


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
    from mancala_cli.diagrams.svg import CLUSTER_DY
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
    from mancala_cli.diagrams.svg import END_COLOUR, ORIGIN_COLOUR
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
