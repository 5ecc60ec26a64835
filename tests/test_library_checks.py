"""The library checks what the command line checks: the format of an output
chosen by its extension (one table, one function), bad sources and outputs
said in one line, game ids or Games everywhere, positions spoken in move
tokens, and every option of the runs checked before anything runs."""
from __future__ import annotations

import io
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

import mancala_cli as mancala
from mancala_cli.cli.commands import whole

app = whole()

ROOT = Path(__file__).resolve().parent.parent
TOURNAMENT = str(ROOT / "examples" / "kingulu-tournament.pmn")
TEXT = '[Game "kingulu"]\n\n1. c1 d2 *\n'


def record():
    return next(mancala.read(TEXT))


# -- 6: the format of a path, from its extension -------------------------------------------

@pytest.mark.parametrize("name, start", [("w.json", '{"game": "kingulu"'), ("w.jsonl", '{"game": "kingulu"'),
                                         ("W.NDJSON", '{"game": "kingulu"'), ("a.xml", "<?xml"),
                                         ("a.pmn", '[Game "kingulu"]'), ("a.txt", '[Game "kingulu"]')])
def test_write_to_a_path_takes_the_format_of_its_extension(tmp_path, name, start):
    mancala.write([record()], tmp_path / name)
    assert (tmp_path / name).read_text(encoding="utf-8").startswith(start)


def test_write_refuses_a_format_its_path_contradicts(tmp_path):
    with pytest.raises(ValueError) as error:
        mancala.write(record(), tmp_path / "w.json", format="pmn")
    assert str(error.value) == (f"target {tmp_path / 'w.json'} asks for json, but format is pmn: "
                                "give one of them, or make them agree")
    assert not (tmp_path / "w.json").exists()
    mancala.write(record(), tmp_path / "w.json", format="json")  # (agreeing is fine)
    assert mancala.write(record(), io.StringIO(), format=None) is None


def test_the_command_line_and_the_library_share_one_table(tmp_path):
    from mancala_cli.cli import annotate, convert, filter as filter_command
    from mancala_cli.files import formats

    assert all(m.RECORD_EXTENSIONS is formats.RECORD_EXTENSIONS for m in (annotate, convert, filter_command))
    result = CliRunner().invoke(app, ["convert", TOURNAMENT, "-o", str(tmp_path / "x.json"), "--to", "pmn"])
    assert result.exit_code == 2
    assert f"-o {tmp_path / 'x.json'} asks for json, but --to is pmn: give one of them, or make them agree" \
        in result.stderr


def test_the_runs_take_the_format_of_their_output(tmp_path):
    mancala.filter_files([TOURNAMENT], str(tmp_path / "f.xml"), tell=lambda line: None)
    mancala.write_files([TOURNAMENT], str(tmp_path / "c.jsonl"), tell=lambda line: None)
    mancala.annotate_files([TOURNAMENT], str(tmp_path / "a.xml"), nodes=1, time=None, tell=lambda line: None)
    assert (tmp_path / "f.xml").read_bytes().startswith(b"<?xml")
    assert (tmp_path / "c.jsonl").read_bytes().startswith(b'{"')
    assert (tmp_path / "a.xml").read_bytes().startswith(b"<?xml")
    with pytest.raises(ValueError, match=r"^output .*f\.pmn asks for pmn, but to is xml: "):
        mancala.filter_files([TOURNAMENT], str(tmp_path / "f.pmn"), to="xml")


# -- 7: sources, outputs, games and tokens --------------------------------------------------

def test_one_line_of_moves_taken_for_a_path_says_so():
    with pytest.raises(mancala.UnreadableInput) as error:
        list(mancala.read("1. c1x6 d2 *", game="kingulu"))
    assert str(error.value) == ("1. c1x6 d2 *: cannot open: No such file or directory (the str was taken for a "
                                "path: a str is record text when it holds a line break or begins with [, { or <; "
                                "end the text with a line break, or give it as bytes)")
    assert [m.text for m in next(mancala.read("1. c1x6 d2 *\n", game="kingulu")).moves] == ["c1x6", "d2"]
    assert [m.text for m in next(mancala.read(b"1. c1x6 d2 *", game="kingulu")).moves] == ["c1x6", "d2"]


@pytest.mark.parametrize("source, kind, message", [
    ("", ValueError, "source is an empty str: give a path, or record text"),
    (3, TypeError, "source must be a path, record text, bytes or a file object, not int"),
    (None, TypeError, "source must be a path, record text, bytes or a file object, not NoneType"),
])
def test_read_refuses_what_is_no_source_at_once(source, kind, message):
    with pytest.raises(kind) as error:
        mancala.read(source)
    assert str(error.value) == message


@pytest.mark.parametrize("kind", [bytearray, memoryview])
def test_read_takes_every_kind_of_bytes(kind):
    assert [r.tag("Game") for r in mancala.read(kind(TEXT.encode()))] == ["kingulu"]


def test_a_character_that_cannot_be_encoded_is_one_line():
    with pytest.raises(mancala.UnreadableInput) as error:
        list(mancala.read('[Game "kingulu"]\n[Event "\udc80"]\n\n1. c1 *\n'))
    assert str(error.value) == ("<string>: character offset 25: '\\udc80' cannot be encoded in utf-8 "
                                "(surrogates not allowed)")
    with pytest.raises(mancala.UnreadableInput, match=r"^<string>: character offset 25: 'é' cannot be encoded in "
                                                      r"ascii \(ordinal not in range\(128\)\)$"):
        list(mancala.read('[Game "kingulu"]\n[Event "é"]\n\n1. c1 *\n', encoding="ascii"))


def test_an_output_that_cannot_be_written_is_an_output_error(tmp_path):
    with pytest.raises(mancala.UnwritableOutput) as error:
        mancala.write(record(), tmp_path)
    assert str(error.value) == f"{tmp_path}: is a directory"
    assert not isinstance(error.value, mancala.UnreadableInput) and isinstance(error.value, mancala.MancalaError)
    with pytest.raises(mancala.UnwritableOutput):
        mancala.page(record(), tmp_path)


def test_every_function_taking_a_game_takes_an_id_or_a_game():
    kingulu = mancala.get_game("kingulu")
    untagged = "1. c1x6 d2 *\n"
    for game in ("kingulu", kingulu):
        assert str(mancala.Line(game).board()) == "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1"
        found = next(mancala.read(untagged, game=game))
        assert found.default_game == "kingulu"
        plain = next(mancala.read(untagged))
        assert mancala.check(plain, game=game).valid
        assert mancala.annotate(plain, game=game, nodes=1).moves[0].hole == "c1"
        assert mancala.page(plain, game=game).startswith("<!DOCTYPE html>")
        assert mancala.sheet(plain, game=game, plies=[0]).startswith("<?xml")
    with pytest.raises(mancala.UnknownGame):
        mancala.Line("oware")
    with pytest.raises(mancala.UnknownGame):
        mancala.check(next(mancala.read(untagged)), game="oware")
    line = mancala.Line("kingulu", "0,0,0,0,3,2/1,0,0,0,0,2 S 20-20 12")
    assert line.legal_moves() == ["a1", "f1^"]


def test_a_line_speaks_in_tokens_as_a_game_position_does():
    line = mancala.Line("kingulu")
    position = line.board()
    assert line.legal_moves() == position.legal_moves() == ["c1x6", "d1x6", "e1", "f1"]
    assert line.legal_moves(coords="numeric") == position.legal_moves(coords="numeric") == ["3x6", "4x6", "5", "6"]
    assert all(isinstance(t, mancala.MoveToken) for t in line.legal_moves())
    played = line.play("c1")
    assert isinstance(played, mancala.Move)
    line.play("N3")
    assert line.moves == ["c1x6", "d2"] and [m.move for m in line.moves][0] == played
    assert line.token(line.legal_moves()[0], "relative") == line.legal_moves(coords="relative")[0] == "S1x1"
    twin = line.copy()
    assert twin.moves == line.moves and twin.moves is not line.moves
    with pytest.raises(ValueError):
        line.legal_moves(coords="chess")


# -- 17: the runs check their options ------------------------------------------------------

def test_filter_files_refuses_duplicates_written_over_the_games(tmp_path):
    output = str(tmp_path / "f.pmn")
    with pytest.raises(ValueError) as error:
        mancala.filter_files([TOURNAMENT], output, dedupe=True, duplicates=output)
    assert str(error.value) == "--duplicates and -o name the same file"
    assert not (tmp_path / "f.pmn").exists()
    with pytest.raises(ValueError, match="^--duplicates needs --dedupe$"):
        mancala.filter_files([TOURNAMENT], output, duplicates=str(tmp_path / "d.pmn"))


@pytest.mark.parametrize("limits, kind, message", [
    ({"time": math.nan}, ValueError, "time must be a number of seconds > 0, not nan"),
    ({"time": -1}, ValueError, "time must be a number of seconds > 0, not -1"),
    ({"time": math.inf}, ValueError, "time must be a number of seconds > 0, not inf"),
    ({"nodes": -5}, ValueError, "nodes must be at least 1, not -5"),
    ({"nodes": 0}, ValueError, "nodes must be at least 1, not 0"),
    ({"depth": -2}, ValueError, "depth must be at least 1, not -2"),
    ({"depth": 1.5}, TypeError, "depth must be an int, not float"),
    ({"time": "1"}, TypeError, "time must be a number of seconds, not str"),
])
def test_annotate_files_checks_its_limits_as_annotate_does(tmp_path, limits, kind, message):
    with pytest.raises(kind) as error:
        mancala.annotate_files([TOURNAMENT], str(tmp_path / "a.pmn"), **limits)
    assert str(error.value) == message
    with pytest.raises(kind) as same:
        mancala.annotate(record(), **limits)
    assert str(same.value) == message
    assert not (tmp_path / "a.pmn").exists()


@pytest.mark.parametrize("options, kind, message", [
    ({"jobs": 1.5}, TypeError, "jobs must be an int, not float"),
    ({"jobs": -1}, ValueError, "jobs must be 0 (every usable core) or more, not -1"),
    ({"scheduler_timeout": -1}, ValueError, "scheduler_timeout must be more than 0 and at most 86400 seconds, not -1"),
    ({"scheduler_timeout": math.nan, "scheduler": "tcp://127.0.0.1:1"}, ValueError,
     "scheduler_timeout must be more than 0 and at most 86400 seconds, not nan"),
])
def test_the_runs_check_jobs_and_the_scheduler_timeout(tmp_path, options, kind, message):
    for run in (lambda: list(mancala.check_files([TOURNAMENT], **options)),
                lambda: mancala.stats_files([TOURNAMENT], **options),
                lambda: mancala.filter_files([TOURNAMENT], str(tmp_path / "f.pmn"), **options),
                lambda: mancala.write_files([TOURNAMENT], str(tmp_path / "c.pmn"), **options),
                lambda: mancala.annotate_files([TOURNAMENT], str(tmp_path / "a.pmn"), nodes=1, **options)):
        with pytest.raises(kind) as error:
            run()
        assert str(error.value) == message
    assert list(tmp_path.iterdir()) == []


def test_proof_and_table_paths_that_cannot_be_read(tmp_path):
    output = str(tmp_path / "a.pmn")
    for run in (lambda: mancala.annotate(record(), proofs="nope.xz"),
                lambda: mancala.annotate_files([TOURNAMENT], output, proofs="nope.xz"),
                lambda: mancala.annotate_files([TOURNAMENT], output, proofs=["nope.xz"]),
                lambda: mancala.solve("0,0,0,0,3,2/1,0,0,0,0,2 S 20-20 12", game="kingulu", proofs="nope.xz")):
        with pytest.raises(mancala.UnreadableInput) as error:
            run()
        assert str(error.value) == "nope.xz: cannot read: No such file or directory"
    for run in (lambda: mancala.annotate(record(), tablebase="nope.tb"),
                lambda: mancala.annotate_files([TOURNAMENT], output, tablebase="nope.tb"),
                lambda: mancala.solve("0,0,0,0,3,2/1,0,0,0,0,2 S 20-20 12", game="kingulu", tablebase="nope.tb")):
        with pytest.raises(mancala.UnreadableInput) as error:
            run()
        assert str(error.value) == "nope.tb: cannot read: No such file or directory"
    assert not (tmp_path / "a.pmn").exists()
    result = CliRunner().invoke(app, ["annotate", TOURNAMENT, "--tablebase", "nope.tb"])
    assert (result.exit_code, result.stderr) == (2, "mancala: error: nope.tb: cannot read: No such file or directory\n")
