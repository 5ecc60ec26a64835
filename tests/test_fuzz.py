"""Bounded fuzzing of every reader: whatever the input, the readers raise
only their own documented errors, and replay never raises at all.
(benchmarks/fuzz.py runs the same targets over a million inputs.)"""
import io
import json
import string

from hypothesis import HealthCheck, given, settings, strategies as st

from mancala_cli import InvalidPosition, get_game, parse_position
from mancala_cli.checking import replay
from notation.jsonl import JSONRecordError, json_line_to_record
from notation.notation_errors import XMLArchiveError
from notation.pmn_reader import read_games
from notation.pmn_writer import write_game
from notation.xml_reader import read_archive

PMN_ALPHABET = string.ascii_letters + string.digits + ' \n\r\t[]{}()";.-/!?$*^x\\' + "é\u00a0\ufeff"
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SAMPLE = ('[Game "kingulu"]\n[Event "x"]\n[Result "*"]\n\n'
          '1. d1x6 {c} 1... d2x10 2. f1^ a2 (2... c2x9!? $1) 3. d1 a2 *\n')


@FUZZ
@given(st.text(alphabet=PMN_ALPHABET, max_size=300))
def test_pmn_reader_and_replay_never_raise(text):
    for record in read_games(io.StringIO(text, newline="")):
        replay(record, "kingulu")
        write_game(record)


@FUZZ
@given(st.integers(0, len(SAMPLE) - 1), st.integers(0, len(SAMPLE)), st.text(alphabet=PMN_ALPHABET, max_size=20))
def test_mutated_records_never_raise(start, stop, insert):
    text = SAMPLE[:start] + insert + SAMPLE[max(start, stop):]
    records = list(read_games(io.StringIO(text, newline="")))
    for record in records:
        report = replay(record)
        assert report.problems or report.valid
        again = list(read_games(io.StringIO(write_game(record), newline="")))
        assert len(again) == 1


@FUZZ
@given(st.text(alphabet="0123456789,/*SN- x\t", max_size=80), st.sampled_from(["kingulu", "kimasai-mackay",
                                                                                 "kimasai-klamroth"]))
def test_position_strings_raise_only_invalid_position(text, game_id):
    try:
        parse_position(get_game(game_id), text)
    except InvalidPosition as error:
        assert str(error)


@FUZZ
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda children: st.lists(children, max_size=4)
                    | st.dictionaries(st.sampled_from(["game", "tags", "moves", "move", "captured", "variations",
                                                       "glyphs", "nags", "result", "comment", "x0", "before"]),
                                      children, max_size=5), max_leaves=20))
def test_json_reader_raises_only_its_errors(obj):
    try:
        record = json_line_to_record(json.dumps(obj))
    except (ValueError, JSONRecordError):
        return
    replay(record, "kingulu")


@FUZZ
@given(st.text(alphabet='<>/="& abcdegimnorstuv1\n!-[]', max_size=200))
def test_xml_reader_raises_only_its_errors(text):
    try:
        for record in read_archive(text.encode("utf-8")):
            replay(record, "kingulu")
    except XMLArchiveError as error:
        assert str(error)
