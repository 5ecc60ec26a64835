"""The registry of games by id.

    >>> [game.id for game in all_games()]
    ['kimasai-mackay', 'kimasai-klamroth', 'kingulu']
"""
from __future__ import annotations

from .core import Game, MancalaError
from .kimasai_klamroth import KimasaiKlamroth
from .kimasai_mackay import KimasaiMackay
from .kingulu import Kingulu

_GAMES: dict[str, Game] = {game.id: game for game in (KimasaiMackay(), KimasaiKlamroth(), Kingulu())}

GAME_IDS = tuple(_GAMES)


class UnknownGame(MancalaError, KeyError):
    """No game has this id (``except KeyError`` catches it too)."""

    def __str__(self) -> str:
        return f"unknown game {self.args[0]!r} (known: {', '.join(GAME_IDS)})"


def get_game(game_id: str) -> Game:
    """The rules of the game called ``game_id``; :class:`UnknownGame` if none."""
    try:
        return _GAMES[game_id]
    except KeyError:
        raise UnknownGame(game_id) from None


def all_games() -> list[Game]:
    return list(_GAMES.values())
