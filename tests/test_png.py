"""PNG images (``render --format png``, ``mancala_cli.png``): the size from
--scale, the same bytes on every run and with no system fonts, labels drawn
with the shipped font, a missing extra, a terminal refused, atomic writes,
--all and --positions. The rasteriser's tests run once, on the native core."""
from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from mancala_cli import get_game, png
from mancala_cli.cli.commands import whole
from mancala_cli.diagrams.layout import COUNT_DY, RESULT_H, hole_centre, result_box, viewbox_size
from mancala_cli.diagrams.png import FONT_FILES, png_size, svg_to_png
from mancala_cli.diagrams.style import HOLE_FILL, ORIGIN_COLOUR
from mancala_cli.diagrams.svg import board_svg
from mancala_cli.errors import INSTALL_HINT

from .test_browser import Picture, _close

app = whole()

pytestmark = [
    pytest.mark.skipif(os.environ.get("MANCALA_PURE", "") not in ("", "0"),
                       reason="the rasteriser's tests run once, on the native-core run"),
]
resvg_py = pytest.importorskip("resvg_py", reason="the png extra is not installed: pip install -e '.[test]'")

ROOT = pathlib.Path(__file__).resolve().parents[1]
VILLAGE = ROOT / "examples" / "kingulu-village-match.pmn"  # 23 moves
START = "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1"
runner = CliRunner()


def mancala(*args, env=None, **kwargs):
    return subprocess.run([sys.executable, "-m", "mancala_cli", *map(str, args)], capture_output=True,
                          timeout=60, env=env, stdin=subprocess.DEVNULL, **kwargs)


def picture(data: bytes, tmp_path: pathlib.Path, name: str = "image.png") -> Picture:
    path = tmp_path / name
    path.write_bytes(data)
    return Picture(path)


@pytest.mark.parametrize("scale,size", [(None, (912, 568)), ("1", (456, 284)), ("1.5", (684, 426)),
                                        ("3", (1368, 852))])
def test_scale_sets_the_size_default_2(tmp_path, scale, size):
    out = tmp_path / "board.png"
    args = ["render", "--game", "kingulu", "--position", START, "--format", "png", "-o", out]
    result = runner.invoke(app, [str(a) for a in args + ([] if scale is None else ["--scale", scale])])
    assert result.exit_code == 0, result.output
    assert png_size(out.read_bytes()) == size


def test_same_bytes_every_run_and_without_any_system_font(tmp_path):
    """Two processes, the second with no font anywhere it could look: the same bytes."""
    first = mancala("render", VILLAGE, "--ply", "7", "--format", "png")
    empty = tmp_path / "empty"
    empty.mkdir()
    bare = {"PATH": os.environ.get("PATH", ""), "HOME": str(empty), "XDG_DATA_HOME": str(empty),
            "XDG_DATA_DIRS": str(empty), "FONTCONFIG_FILE": os.devnull, "FONTCONFIG_PATH": str(empty),
            "PYTHONPATH": os.pathsep.join(sys.path)}
    second = mancala("render", VILLAGE, "--ply", "7", "--format", "png", env=bare)
    assert (first.returncode, first.stderr, second.returncode, second.stderr) == (0, b"", 0, b"")
    assert first.stdout[:8] == b"\x89PNG\r\n\x1a\n"
    assert first.stdout == second.stdout
    # and the same whether the game is given by id or by its rules
    game = get_game("kingulu")
    assert png(START, game="kingulu") == png(START, game=game)


def _light_pixels(pic: Picture, box: tuple[int, int, int, int], colour: str) -> int:
    x0, y0, x1, y1 = box
    return sum(_close(pic.at(x, y), colour, 40) for x in range(x0, x1) for y in range(y0, y1))


def test_labels_are_drawn_with_the_shipped_font(tmp_path):
    """A hole's count is light text on the dark pit; with no font at all resvg
    draws no text, so the shipped font is what puts it there."""
    game = get_game("kingulu")
    svg = board_svg(game, game.start())
    cx, cy = hole_centre(game, game.board.index_of("a1"))
    box = (2 * cx - 12, 2 * (cy + COUNT_DY) - 18, 2 * cx + 12, 2 * (cy + COUNT_DY) + 2)  # the "4", at scale 2
    with_font = picture(svg_to_png(svg), tmp_path, "font.png")
    no_font = picture(bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=2, skip_system_fonts=True)), tmp_path,
                      "none.png")
    assert _light_pixels(with_font, box, "#fff3d6") >= 30
    assert _light_pixels(no_font, box, "#fff3d6") == 0
    assert all(_close(no_font.at(x, y), HOLE_FILL) for x in range(box[0], box[2]) for y in range(box[1], box[3]))
    for path in FONT_FILES:
        assert os.path.getsize(path) > 100_000
    assert (pathlib.Path(FONT_FILES[0]).parent / "LICENSE").read_text().count("Bitstream") >= 3


def test_png_of_a_board_puts_the_holes_where_the_geometry_does(tmp_path):
    game = get_game("kingulu")
    result = runner.invoke(app, ["render", "--game", "kingulu", "--position", "0,1,0,3,1,6*/0,11,1,1,3,3 S 7-11 4",
                                 "--format", "png"])
    pic = picture(result.stdout_bytes, tmp_path)
    assert (pic.width, pic.height) == tuple(2 * n for n in viewbox_size(game))
    for name in ("a1", "c1", "a2"):   # the empty holes
        x, y = hole_centre(game, game.board.index_of(name))
        assert _close(pic.at(2 * x, 2 * y), HOLE_FILL), name
        assert not _close(pic.at(2 * x, 2 * (y - 28)), HOLE_FILL), name


def test_stdout_and_file_give_the_same_bytes(tmp_path):
    out = tmp_path / "last.png"
    to_file = mancala("render", VILLAGE, "--format", "png", "--scale", "1", "-o", out)
    to_stdout = mancala("render", VILLAGE, "--format", "png", "--scale", "1")
    assert to_file.returncode == to_stdout.returncode == 0
    assert to_file.stdout == b""
    assert out.read_bytes() == to_stdout.stdout


def test_png_is_not_written_to_a_terminal(tmp_path):
    import pty

    leader, follower = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "mancala_cli", "render", str(VILLAGE), "--format", "png"],
                              stdout=follower, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, timeout=60)
    finally:
        os.close(follower)
        os.close(leader)
    assert done.returncode == 2
    assert done.stderr == (b"mancala: error: PNG is binary: not written to a terminal "
                           b"(give -o FILE or redirect standard output)\n")


def test_a_missing_extra_is_one_line_naming_the_install_command(tmp_path):
    fake = tmp_path / "no-resvg" / "resvg_py"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('No module named resvg_py')\n")
    env = {**os.environ, "PYTHONPATH": str(fake.parent)}
    out = tmp_path / "board.png"
    done = mancala("render", VILLAGE, "--format", "png", "-o", out, env=env)
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.decode() == f"mancala: error: PNG output needs the png extra: {INSTALL_HINT}\n"
    assert INSTALL_HINT == "pip install 'mancala[png]'"
    assert not out.exists()
    library = subprocess.run([sys.executable, "-c", "import mancala_cli\ntry:\n    mancala_cli.png("
                              f"{START!r}, game='kingulu')\nexcept mancala_cli.PngUnavailable as error:\n"
                              "    print(type(error).__mro__[1].__name__, isinstance(error, ImportError), error)"],
                             capture_output=True, text=True, timeout=60, env=env)
    assert library.stdout == f"MancalaError True PNG output needs the png extra: {INSTALL_HINT}\n"


def test_svg_and_text_still_work_without_the_extra(tmp_path):
    fake = tmp_path / "no-resvg" / "resvg_py"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('No module named resvg_py')\n")
    done = mancala("render", VILLAGE, env={**os.environ, "PYTHONPATH": str(fake.parent)})
    assert done.returncode == 0 and done.stdout.startswith(b"<?xml")


def test_a_failed_png_keeps_the_old_file(tmp_path):
    out = tmp_path / "sheet.png"
    out.write_bytes(b"old")
    result = runner.invoke(app, ["render", str(VILLAGE), "--sheet", "--every", "1", "--columns", "24",
                                 "--format", "png", "--scale", "10", "-o", str(out)])
    assert result.exit_code == 2
    assert result.stderr == ("mancala: error: cannot draw the PNG image: 113,120 × 3,840 pixels is more than "
                             "the 100,000,000 drawn at most\n")
    assert out.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sheet.png"]  # no temporary file left


@pytest.mark.parametrize("args,message", [
    (["--scale", "2"], "--scale sizes PNG images: it needs --format png"),
    (["--format", "png", "--scale", "0"], "--scale must be between 0.1 and 10 (got 0)"),
    (["--format", "png", "--scale", "11"], "--scale must be between 0.1 and 10 (got 11)"),
    (["--format", "png", "--scale", "two"], "--scale must be a number (got 'two')"),
    (["--format", "png", "--scale", "-1"], "--scale must be a number (got '-1')"),
    (["--format", "png", "--scale", "nan"], "--scale must be a number (got 'nan')"),
])
def test_scale_errors(args, message):
    result = runner.invoke(app, ["render", str(VILLAGE), *args])
    assert result.exit_code == 2
    assert result.stderr == f"mancala: error: {message}\n"


def test_every_ply_and_many_positions_as_png(tmp_path):
    plies = tmp_path / "plies"
    (tmp_path / "plies").mkdir()
    (plies / "ply-099.png").write_bytes(b"no render's: left alone")
    (plies / "ply-000.svg").write_text("no render's either\n")
    result = runner.invoke(app, ["render", str(VILLAGE), "--all", "--out-dir", str(plies), "--format", "png",
                                 "--scale", "1"])
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in plies.iterdir())
    assert names == sorted([".mancala-render", "ply-000.svg", "ply-099.png"] + [f"ply-{k:03d}.png" for k in range(24)])
    assert png_size((plies / "ply-022.png").read_bytes()) == (456, 284)
    assert png_size((plies / "ply-023.png").read_bytes()) == (456, 284 + RESULT_H)  # the game is over
    single = runner.invoke(app, ["render", str(VILLAGE), "--ply", "23", "--format", "png", "--scale", "1"])
    assert (plies / "ply-023.png").read_bytes() == single.stdout_bytes
    out = tmp_path / "positions"
    result = runner.invoke(app, ["render", "--game", "kingulu", "--positions", "-", "--out-dir", str(out),
                                 "--format", "png"], input=f"{START}\n\nnot a position\n")
    assert result.exit_code == 1
    assert sorted(p.name for p in out.iterdir()) == [".mancala-render", "pos-0001.png"]
    assert (out / "pos-0001.png").read_bytes() == png(START, game="kingulu")


def test_library_errors_of_the_family():
    import mancala_cli

    for scale in (0.05, 11):
        with pytest.raises(mancala_cli.BadImage) as caught:
            png(START, game="kingulu", scale=scale)
        assert str(caught.value) == f"scale must be between 0.1 and 10 (got {scale:g})"
        assert isinstance(caught.value, (mancala_cli.MancalaError, ValueError))
    with pytest.raises(mancala_cli.BadImage) as caught:
        svg_to_png('<svg xmlns="http://www.w3.org/2000/svg" width="100%" height="10"/>')
    assert str(caught.value) == "the SVG document has no width in pixels"
    with pytest.raises(mancala_cli.BadImage) as caught:
        svg_to_png('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><g></svg>')
    assert str(caught.value).startswith("resvg cannot draw the document: ")


def _dark_rows(pic: Picture, colour: str = "#3b2a18") -> list[int]:
    """The rows holding pixels of ``colour`` (the captions' and the result strip's dark brown)."""
    return [y for y in range(pic.height) if any(_close(pic.at(x, y), colour, 40) for x in range(pic.width))]


def test_the_final_png_shows_the_result_strip_below_the_board(tmp_path):
    """The last position of the village match: a dark strip across the
    bottom, below South's bank, that the unfinished positions lack."""
    game = get_game("kingulu")
    final = picture(runner.invoke(app, ["render", str(VILLAGE), "--format", "png", "--scale", "1"]).stdout_bytes,
                    tmp_path, "final.png")
    width, height = viewbox_size(game)
    assert (final.width, final.height) == (width, height + RESULT_H)
    x, y, w, h = result_box(game)
    inside = [final.at(x + dx, y + h // 2) for dx in range(12, w - 12, 7)]
    assert sum(_close(p, "#3b2a18", 8) for p in inside) > len(inside) // 2   # the strip's fill
    assert sum(_close(p, "#fff3d6", 60) for p in inside) >= 2                # and its light text
    earlier = picture(runner.invoke(app, ["render", str(VILLAGE), "--ply", "22", "--format", "png",
                                          "--scale", "1"]).stdout_bytes, tmp_path, "earlier.png")
    assert (earlier.width, earlier.height) == (width, height)


def test_caption_is_visible_text_above_the_diagram(tmp_path):
    """--caption: lines of dark text above the diagram, which moves down;
    without it the image is the same as before."""
    plain = runner.invoke(app, ["render", str(VILLAGE), "--ply", "9", "--format", "png", "--scale", "1"])
    captioned = runner.invoke(app, ["render", str(VILLAGE), "--ply", "9", "--format", "png", "--scale", "1",
                                    "--caption"])
    assert plain.exit_code == captioned.exit_code == 0
    before, after = picture(plain.stdout_bytes, tmp_path, "plain.png"), picture(captioned.stdout_bytes, tmp_path)
    game = get_game("kingulu")
    assert (before.width, before.height) == viewbox_size(game)
    assert after.width == before.width and after.height > before.height
    shift = after.height - before.height
    assert [row for row in _dark_rows(after) if row < shift]             # text above the diagram
    assert not [row for row in _dark_rows(before) if row < 8]            # (the plain one starts with its bank)
    # The diagram itself is unchanged, lower down by the caption's height.
    for y in range(0, before.height, 13):
        assert after.rows[y + shift] == before.rows[y]
    # Between them the legend of the rings: the dashed green sample among them.
    assert any(_close(after.at(x, y), ORIGIN_COLOUR, 40) for x in range(20, 50) for y in range(shift))
    assert plain.stdout_bytes == runner.invoke(app, ["render", str(VILLAGE), "--ply", "9", "--format", "png",
                                                     "--scale", "1"]).stdout_bytes
