"""Perft from each standard start, depths 1-4: the reference values published
in docs/rules.md."""
import pytest

from mancala_cli import get_game
from mancala_cli.rules.counting import divide, perft

REFERENCE = {
    "kimasai-mackay": [8, 64, 416, 2912],
    "kimasai-klamroth": [1, 2, 3, 7],
    "kingulu": [4, 15, 50, 130],
}


@pytest.mark.parametrize("game_id", sorted(REFERENCE))
def test_perft_depths_1_to_4(game_id):
    game = get_game(game_id)
    assert [perft(game, game.start(), d) for d in range(1, 5)] == REFERENCE[game_id]
    assert perft(game, game.start(), 0) == 1


def test_divide_sums_to_perft():
    game = get_game("kingulu")
    split = divide(game, game.start(), 3)
    assert [game.board.name(m.origin) for m, _ in split] == ["c1", "d1", "e1", "f1"]
    assert sum(n for _, n in split) == 50


def test_docs_publish_the_reference_values():
    import pathlib
    text = (pathlib.Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")
    for game_id, counts in REFERENCE.items():
        row = f"| `{game_id}` | " + " | ".join(f"{n:,}" for n in counts)
        assert row in text, row
