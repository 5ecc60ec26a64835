"""The one record writer (mancala_cli.files.writing) and the incremental XML
archive writer under it (notation.xml.ArchiveWriter), the move-token parser
and the move-number label of the record layer."""
from __future__ import annotations

import io
import os
import pathlib

import pytest

import mancala_cli as mancala
from mancala_cli.files.writing import GameFormat, RecordWriter, open_writer
from notation.coords import TokenParts, move_label, parse_move_token
from notation.notation_errors import XMLArchiveError
from notation.record import GameRecord, MoveNode
from notation.xml_reader import read_archive
from notation.xml_writer import ARCHIVE_HEAD, ARCHIVE_TAIL, ArchiveWriter, game_xml, write_archive

ROOT = pathlib.Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.pmn"))


def _records() -> list[GameRecord]:
    return [record for path in EXAMPLES for record in mancala.read(path)]


@pytest.mark.parametrize("positions", [False, True])
def test_the_archive_written_game_by_game_is_the_one_written_whole(positions):
    records = _records()
    for record in records:
        mancala.check(record)
    whole = io.BytesIO()
    write_archive(records, whole, positions=positions)
    parts = io.BytesIO()
    writer = ArchiveWriter(parts)
    for record in records:
        writer.write_bytes(game_xml(record, positions=positions))
    writer.close()
    assert parts.getvalue() == whole.getvalue()
    assert whole.getvalue().startswith(ARCHIVE_HEAD) and whole.getvalue().endswith(ARCHIVE_TAIL)
    assert [r.tags for r in read_archive(parts.getvalue())] == [r.tags for r in records]


def test_an_empty_archive_is_its_head_and_tail():
    out = io.BytesIO()
    write_archive([], out)
    assert out.getvalue() == ARCHIVE_HEAD + ARCHIVE_TAIL == (
        b'<?xml version="1.0" encoding="UTF-8"?>\n<mancala version="1">\n</mancala>\n')
    assert list(read_archive(out.getvalue())) == []


@pytest.mark.parametrize("format", ["pmn", "json", "xml"])
def test_the_writer_writes_what_write_returns(format):
    records = _records()
    out = io.BytesIO() if RecordWriter.binary(format) else io.StringIO()
    with RecordWriter(out, format, coords="relative", positions=True) as writer:
        for record in records:
            writer.write(record)
    data = out.getvalue()
    text = data.decode() if isinstance(data, bytes) else data
    assert text == mancala.write(records, format=format, coords="relative", positions=True)
    assert writer.games == len(records) > 2
    if format == "pmn":  # games a blank line apart, none before the first
        assert text.startswith("[") and text.count('\n\n[Game "') == len(records) - 1


def test_a_game_formatted_elsewhere_is_added_as_written():
    records = _records()
    style = GameFormat("json", "numeric")
    games = []
    for record in records:
        twin = mancala.copy_record(record)
        games.append(style.game(twin, style.replay(twin)))
    out = io.StringIO()
    with RecordWriter(out, "json") as writer:
        for game in games:
            writer.add(game)
    assert out.getvalue() == mancala.write(records, format="json", coords="numeric")


def test_the_records_written_are_left_untouched():
    record = next(mancala.read('[Game "kingulu"]\n\n1. c1 d2 *\n'))
    RecordWriter(io.StringIO(), "pmn", coords="numeric").write(record)
    assert [node.text for node in record.moves] == ["c1", "d2"]


def _unwritable() -> GameRecord:
    record = next(mancala.read('[Game "kingulu"]\n[Event "cup"]\n\n1. c1 {a\x01b} d2 *\n'))
    record.index = 7
    return record


def test_a_game_xml_cannot_hold_is_refused_with_its_line_and_nothing_written():
    record = _unwritable()
    style = GameFormat("xml")
    written = style.game(record, style.replay(mancala.copy_record(record)))
    assert written.data == b"" and written.unwritable is not None
    line, reason = written.unwritable
    assert (line, reason) == (1, "comment after move 'c1': character U+0001 is not allowed")
    out = io.BytesIO()
    writer = RecordWriter(out, "xml")
    with pytest.raises(XMLArchiveError) as caught:
        writer.write(record)
    assert caught.value.reason == f"game 7: {reason}" and caught.value.line == 1
    assert out.getvalue() == ARCHIVE_HEAD and writer.games == 0


def test_pmn_says_what_it_cannot_hold():
    record = GameRecord(tags=[("Game", "kingulu")], moves=[MoveNode("c1", comment="one\rtwo"), MoveNode("d2")])
    style = GameFormat("pmn")
    written = style.game(record, style.replay(record))
    assert [(p.code, p.message) for p in written.problems] == [
        ("pmn-inexact", "the comment after 1. c1x6: its carriage returns are written as line breaks")]
    assert written.data == '[Game "kingulu"]\n\n1. c1x6 {one\ntwo} 1... d2 *\n'


def test_an_output_file_appears_whole_or_not_at_all(tmp_path):
    target = tmp_path / "out.xml"
    target.write_bytes(b"old")
    records = _records()
    with pytest.raises(RuntimeError):
        with open_writer(str(target), "xml") as writer:
            writer.write(records[0])
            raise RuntimeError("stopped")
    assert target.read_bytes() == b"old" and os.listdir(tmp_path) == ["out.xml"]
    with open_writer(str(target), "xml", coords="algebraic") as writer:
        for record in records:
            writer.write(record)
    assert target.read_text(encoding="utf-8") == mancala.write(records, format="xml")


def test_a_bad_format_is_refused():
    with pytest.raises(ValueError, match="format must be one of pmn, json, xml"):
        GameFormat("sgf")


@pytest.mark.parametrize("token, parts, style", [
    ("c1", TokenParts("c1", None, None, False), "algebraic"),
    ("c1x6", TokenParts("c1", None, 6, False), "algebraic"),
    ("e2^", TokenParts("e2", None, None, True), "algebraic"),
    ("b2-a2x2", TokenParts("b2", "a2", 2, False), "algebraic"),
    ("N3x10^", TokenParts("N3", None, 10, True), "relative"),
    ("13", TokenParts("13", None, None, False), "numeric"),
])
def test_move_tokens_are_cut_into_their_parts(token, parts, style):
    assert parse_move_token(token) == parts and parts.style == style


@pytest.mark.parametrize("token", ["", "c", "c1x", "c1x1234567890", "c1 d2", "C1", "c1^x6", " c1"])
def test_what_is_no_move_token(token):
    assert parse_move_token(token) is None


def test_one_move_label_everywhere():
    assert (move_label(12, "S"), move_label(12, "N"), move_label("3", "N")) == ("12.", "12...", "3...")
    # the writer, the checker and the reporters all write it so
    record = next(mancala.read('[Game "kingulu"]\n\n1. c1 2... d2 *\n'))
    assert mancala.write(record).endswith("1. c1x6 d2 *\n")
    problems = mancala.check(record).problems
    assert [p.message for p in problems if p.code == "move-number"] == [
        "move number 2... does not match: this is 1..."]
    record = GameRecord(tags=[("Game", "kingulu")], moves=[MoveNode("c1"), MoveNode("d2", comment=None)])
    assert mancala.write(record).splitlines()[-1] == "1. c1x6 d2 *"


def test_a_game_too_long_for_a_pmn_reader_is_told_when_written_as_pmn(tmp_path):
    """A JSON or XML comment of 200,000 lines: the PMN written of it would be
    refused by the PMN reader (game-too-long), so converting it says so, a
    pmn-inexact warning and exit 1, instead of a silent 0."""
    import json
    import subprocess
    import sys

    def mancala_run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "mancala_cli", *args], capture_output=True, text=True,
                              timeout=120, stdin=subprocess.DEVNULL)

    village = str(ROOT / "examples" / "kingulu-village-match.pmn")
    data = json.loads(mancala_run("convert", village, "--to", "json").stdout)
    data["moves"][0]["comment"] = "\n".join(f"line {n}" for n in range(200_000))
    long_json = tmp_path / "long.jsonl"
    long_json.write_text(json.dumps(data) + "\n")
    long_xml = tmp_path / "long.xml"
    assert mancala_run("convert", str(long_json), "--to", "xml", "-o", str(long_xml)).returncode == 0
    for source in (long_json, long_xml):
        done = mancala_run("convert", str(source), "--to", "pmn", "-o", str(tmp_path / "long.pmn"))
        line = 1 if source is long_json else 3
        assert (done.returncode, done.stdout) == (1, "")
        assert done.stderr == (f"{source}:{line}:0: warning: pmn-inexact: the game is 200,017 lines of PMN, more "
                               "than the 100,000 lines a PMN reader reads of one game (game-too-long): it will "
                               "not read back\n")
        refused = mancala_run("validate", str(tmp_path / "long.pmn"))
        assert refused.returncode == 1 and "game-too-long" in refused.stdout
    # within the bound: no warning, and the PMN reads back
    data["moves"][0]["comment"] = "\n".join(f"line {n}" for n in range(99_000))
    long_json.write_text(json.dumps(data) + "\n")
    done = mancala_run("convert", str(long_json), "--to", "pmn", "-o", str(tmp_path / "fits.pmn"))
    assert (done.returncode, done.stderr) == (0, "")
    assert mancala_run("validate", str(tmp_path / "fits.pmn")).returncode == 0
