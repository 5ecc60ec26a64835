"""The library under ``mancala render FILE``: game N of a file read
(``files.batches.read_game_number``), its plies' titles and captions and a
sheet's boards (``diagrams.plies.Plies``), the lines of a file of position
strings (``positions.position_lines``) and the errors reported after a
drawing (``files.reports.error_lines``)."""
from __future__ import annotations

import pathlib

import pytest

from mancala_cli.checking import replay
from mancala_cli.diagrams.plies import Plies, caption_head
from mancala_cli.files.batches import NoSuchGame, read_game_number, read_input
from mancala_cli.files.reports import error_lines
from mancala_cli.positions import position_lines
from mancala_cli.rules.registry import get_game
from notation.pmn_reader import read_game
from notation.position_strings import format_position

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"
MATCH = str(EXAMPLES / "kingulu-village-match.pmn")
TOURNAMENT = str(EXAMPLES / "kingulu-tournament.pmn")
HEAD = "Bao Kingulu · Amani – Baraka · Village match · Mhonda, Morogoro · 2026.11.02 · Round 1"


def test_the_plies_of_a_record_say_each_diagrams_title_and_caption():
    plies = Plies.of(replay(read_game_number(MATCH, 1)), caption=True)
    assert plies.last == 23 and len(plies.states) == 24
    assert plies.caption_head == [HEAD]
    assert [(plies.title(k), plies.caption(k)) for k in (0, 1, 2, 23)] == [
        ("Bao Kingulu — start, South to move", [HEAD, "Start, South to move"]),
        ("Bao Kingulu — position after 1. d1x6, North to move", [HEAD, "After 1. d1x6, North to move"]),
        ("Bao Kingulu — position after 1... d2x10, South to move", [HEAD, "After 1... d2x10, South to move"]),
        ("Bao Kingulu — position after 12. a1x1, South wins 35–13 (KG-7)", [HEAD, "After 12. a1x1, game over"]),
    ]
    assert plies.outcome_at(22) is None and plies.outcome_at(23) == plies.outcome
    assert plies.outcome is not None and plies.outcome.reason == "KG-7"
    assert Plies.of(replay(read_game_number(MATCH, 1))).caption(5) is None  # (no captions asked for)


def test_the_boards_and_header_of_a_sheet():
    plies = Plies.of(replay(read_game_number(MATCH, 1)))
    assert [(d.ply, d.caption, d.outcome is not None) for d in plies.sheet_diagrams(every=10)] == [
        (0, "Start", False), (10, "5... b2", False), (20, "10... c2", False), (23, "12. a1x1", True)]
    assert [(d.ply, d.caption) for d in plies.sheet_diagrams(plies=[23, 0, 4])] == [
        (23, "12. a1x1"), (0, "Start"), (4, "2... a2")]
    assert plies.header == f"{HEAD} · 1-0 · Score 35-13 · Annotator Zawadi"
    with pytest.raises(ValueError, match="^the record has 23 playable moves, no ply 30$"):
        plies.sheet_diagrams(plies=[30])


def test_a_caption_names_the_game_the_players_and_the_event_only():
    tags = [("Game", "kingulu"), ("Result", "*"), ("North", "Baraka"), ("Annotator", "Zawadi"), ("Round", "3")]
    assert caption_head(get_game("kingulu"), tags) == ["Bao Kingulu · ? – Baraka · Round 3"]


def test_a_record_that_cannot_be_replayed_has_no_plies():
    with pytest.raises(ValueError, match="^no Game tag$"):
        Plies.of(replay(read_game("1. c1x6 *\n")))


def test_game_n_of_a_file_and_a_number_past_its_last_game(tmp_path):
    assert [record.tag("South") for record in read_input(TOURNAMENT)] == ["Amani", "Neema", "Baraka", "Zawadi"]
    assert read_game_number(TOURNAMENT, 3).tag("South") == "Baraka" and read_game_number(TOURNAMENT, 3).index == 3
    with pytest.raises(NoSuchGame) as raised:
        read_game_number(TOURNAMENT, 9)
    assert (str(raised.value), raised.value.index, raised.value.count) == (
        f"{TOURNAMENT}: has no game number 9 (it has 4 games)", 9, 4)
    empty = tmp_path / "empty.pmn"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(NoSuchGame, match=r"empty\.pmn: has no game number 1 \(it has 0 games\)$"):
        read_game_number(str(empty), 1)
    with pytest.raises(NoSuchGame, match=r": has no game number 2 \(it has 1 game\)$"):
        read_game_number(MATCH, 2)


def test_the_positions_of_numbered_lines():
    lines = [(1, "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1", ""), (2, " \t", ""), (3, "bad", ""), (4, None, "not UTF-8"),
             (5, "0,0,0,0,3,2/1,0,0,0,0,2 S 20-20 12", "")]
    game = get_game("kingulu")
    found = [(number, None if pos is None else format_position(game, pos), why)
             for number, pos, why in position_lines(game, lines)]
    assert found == [
        (1, "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1", ""),
        (3, None, "bad position for kingulu: a position string has 4 fields (rows, side, banks, move number), not 1"),
        (4, None, "not UTF-8"),
        (5, "0,0,0,0,3,2/1,0,0,0,0,2 S 20-20 12", ""),
    ]


def test_the_error_lines_of_a_damaged_record_in_file_order():
    report = replay(next(read_input(str(EXAMPLES / "broken" / "damaged-records.pmn"))))
    assert error_lines("d.pmn", report.problems) == [
        "d.pmn:7:28: error: 3. d1x2: bad-mark: d1x2: the move takes 0 (d1)",
        "d.pmn:7:42: error: 4... c1: KG-ORIGIN: c1 is not one of N's holes "
        "[position 0,1,1,4,0,7*/0,11,1,1,0,4 N 7-11 4; legal: b2 d2]",
    ]
