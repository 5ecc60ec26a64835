"""The engine against the shared conformance records (their .jsonl move lists):
every position after every ply, every illegal move with its rule id and the
legal moves there, every perft count. Skipped where ../shared is absent."""
import json
import re

import pytest

from mancala_cli import IllegalMove, Line, format_position, get_game, parse_position
from mancala_cli.rules.counting import perft
from notation.coords import format_move

from .conftest import conformance_dir

GAMES = ["kimasai-mackay", "kimasai-klamroth", "kingulu"]


def records(name):
    with open(conformance_dir() / name, encoding="utf-8") as stream:
        return [json.loads(line) for line in stream if line.strip()]


def origin(token):
    return re.match(r"[a-z][0-9]+", token).group(0)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_position_mark_and_result(game_id):
    game = get_game(game_id)
    for record in records(f"{game_id}-games.jsonl"):
        line = Line(game, parse_position(game, record["start"]))
        for token, expected in zip(record["moves"], record["positions"]):
            side = line.position.side
            move = line.play(game.board.index_of(origin(token)))
            assert format_move(game.board, move, "algebraic", side) == token
            assert format_position(game, line.position) == expected
        assert len(record["moves"]) == record["plies"]
        outcome = line.outcome()
        assert outcome is not None and outcome.result == record["result"]
        if "score" in record:
            assert "%d-%d" % outcome.score == record["score"]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_illegal_move(game_id):
    game = get_game(game_id)
    for record in records(f"{game_id}-illegal.jsonl"):
        position = parse_position(game, record["position_before"])
        legal = [format_move(game.board, m, "algebraic", position.side) for m in game.legal_moves(position)]
        assert legal == record["legal_moves"]
        with pytest.raises(IllegalMove) as caught:
            game.play(position, game.board.index_of(origin(record["move"])))
        assert caught.value.rule == record["rule"], record["event"]


@pytest.mark.parametrize("game_id", GAMES)
def test_perft_counts(game_id):
    game = get_game(game_id)
    with open(conformance_dir() / "perft.json", encoding="utf-8") as stream:
        counts = json.load(stream)[game_id]
    for depth, expected in counts.items():
        if int(depth) <= 6:
            assert perft(game, game.start(), int(depth)) == expected, (game_id, depth)
