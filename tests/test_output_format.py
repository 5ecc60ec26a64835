"""The format of what a command writes follows ``-o``'s extension unless
``--to``/``--format`` says otherwise (then a name that names another format
is a usage error and nothing is written), for every command with
``--to``/``--format`` and ``-o``: convert, filter, annotate, render."""
from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
VILLAGE = str(ROOT / "examples" / "kingulu-village-match.pmn")
TOURNAMENT = str(ROOT / "examples" / "kingulu-tournament.pmn")


def mancala(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "mancala_cli", *args], capture_output=True, timeout=120,
                          stdin=subprocess.DEVNULL, cwd=ROOT)


@pytest.mark.parametrize("name, to", [("out.pmn", "pmn"), ("out.json", "json"), ("out.jsonl", "json"),
                                      ("out.ndjson", "json"), ("out.xml", "xml"), ("OUT.XML", "xml")])
def test_convert_takes_the_format_from_the_name(tmp_path, name, to):
    named = mancala("convert", TOURNAMENT, "-o", str(tmp_path / name))
    told = mancala("convert", TOURNAMENT, "--to", to)
    assert (named.returncode, named.stdout, named.stderr) == (0, b"", b"")
    assert (tmp_path / name).read_bytes() == told.stdout and told.returncode == 0


def test_convert_without_to_and_without_a_known_name_names_the_missing_option(tmp_path):
    for args in ([], ["-o", str(tmp_path / "out.txt")], ["-o", str(tmp_path / "out")]):
        done = mancala("convert", TOURNAMENT, *args)
        assert (done.returncode, done.stdout) == (2, b"")
        assert done.stderr == b"mancala: error: missing option --to (pmn, json or xml)\n"
    assert list(tmp_path.iterdir()) == []


def test_a_format_the_name_contradicts_is_refused_and_nothing_is_written(tmp_path):
    kept = tmp_path / "kept.xml"
    kept.write_bytes(b"old")
    cases = [
        (["convert", TOURNAMENT, "--to", "json", "-o", str(kept)], "--to is json"),
        (["filter", TOURNAMENT, "--to", "pmn", "-o", str(kept)], "--to is pmn"),
        (["annotate", VILLAGE, "--nodes", "10", "--to", "json", "-o", str(kept)], "--to is json"),
    ]
    for args, said in cases:
        done = mancala(*args)
        assert (done.returncode, done.stdout) == (2, b"")
        assert done.stderr.decode() == (f"mancala: error: -o {kept} asks for xml, but {said}: "
                                        "give one of them, or make them agree\n")
        assert kept.read_bytes() == b"old"
    board = tmp_path / "board.png"
    done = mancala("render", VILLAGE, "--format", "svg", "-o", str(board))
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.decode() == (f"mancala: error: -o {board} asks for png, but --format is svg: "
                                    "give one of them, or make them agree\n")
    assert not board.exists()


def test_a_format_given_with_an_unknown_name_is_written_as_given(tmp_path):
    out = tmp_path / "games.txt"
    assert mancala("convert", TOURNAMENT, "--to", "xml", "-o", str(out)).returncode == 0
    assert out.read_bytes() == mancala("convert", TOURNAMENT, "--to", "xml").stdout
    agreed = tmp_path / "games.xml"
    assert mancala("convert", TOURNAMENT, "--to", "xml", "-o", str(agreed)).returncode == 0
    assert agreed.read_bytes() == out.read_bytes()


def test_filter_and_annotate_take_the_format_from_the_name(tmp_path):
    filtered = tmp_path / "picked.jsonl"
    assert mancala("filter", TOURNAMENT, "-o", str(filtered)).returncode == 0
    assert filtered.read_bytes() == mancala("filter", TOURNAMENT, "--to", "json").stdout
    assert filtered.read_bytes().startswith(b'{"game": "kingulu"')
    annotated = tmp_path / "annotated.xml"
    done = mancala("annotate", VILLAGE, "--nodes", "200", "--time", "60", "-o", str(annotated))
    assert done.returncode == 0, done.stderr
    told = mancala("annotate", VILLAGE, "--nodes", "200", "--time", "60", "--to", "xml")
    assert annotated.read_bytes() == told.stdout and told.stdout.startswith(b"<?xml ")


@pytest.mark.parametrize("name, fmt", [("board.svg", "svg"), ("board.txt", "text"), ("game.html", "html"),
                                       ("game.HTM", "html")])
def test_render_takes_the_format_from_the_name(tmp_path, name, fmt):
    out = tmp_path / name
    named = mancala("render", VILLAGE, "-o", str(out))
    told = mancala("render", VILLAGE, "--format", fmt)
    assert (named.returncode, named.stderr) == (told.returncode, told.stderr) == (0, b"")
    assert out.read_bytes() == told.stdout


def test_render_writes_a_png_to_a_png_name(tmp_path):
    pytest.importorskip("resvg_py", reason="the png extra is not installed: pip install -e '.[test]'")
    named, told = tmp_path / "board.png", tmp_path / "told.out"
    assert mancala("render", VILLAGE, "-o", str(named)).returncode == 0
    assert mancala("render", VILLAGE, "--format", "png", "-o", str(told)).returncode == 0
    assert named.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert named.read_bytes() == told.read_bytes()
