"""The registry of games by id.

    >>> [game.id for game in all_games()]
    ['kimasai-mackay', 'kimasai-klamroth', 'kingulu']
"""
from __future__ import annotations

import importlib

from .game import Game, MancalaError
from .selection import CORE

#: Each game's module and class, by id; a game's module loads when the game
#: is first asked for.
_MODULES = {
    "kimasai-mackay": ("kimasai_mackay", "KimasaiMackay"),
    "kimasai-klamroth": ("kimasai_klamroth", "KimasaiKlamroth"),
    "kingulu": ("kingulu", "Kingulu"),
}
if CORE == "native":  # the same classes on the native kernel (.native)
    _MODULES = {game_id: ("native", name) for game_id, (_, name) in _MODULES.items()}
_GAMES: dict[str, Game] = {}

GAME_IDS = tuple(_MODULES)


class UnknownGame(MancalaError, KeyError):
    """No game has this id (``except KeyError`` catches it too)."""

    def __str__(self) -> str:
        return f"unknown game {self.args[0]!r} (known: {', '.join(GAME_IDS)})"


def get_game(game_id: str) -> Game:
    """The rules of the game called ``game_id``; :class:`UnknownGame` if none."""
    game = _GAMES.get(game_id)
    if game is None:
        try:
            module, name = _MODULES[game_id]
        except (KeyError, TypeError):
            raise UnknownGame(game_id) from None
        loaded = importlib.import_module(f".{module}", __package__)
        game = _GAMES[game_id] = (loaded.game_class(name) if module == "native" else getattr(loaded, name))()
    return game


def game_id(game: Game | str) -> str:
    """The id of ``game``, a :class:`Game` or a game id (checked: :class:`UnknownGame`
    for one that names no game). Every function of the library that takes a
    game takes either.

        >>> game_id("kingulu"), game_id(get_game("kimasai-mackay"))
        ('kingulu', 'kimasai-mackay')
    """
    if isinstance(game, Game):
        return game.id
    return get_game(game).id


def all_games() -> list[Game]:
    """Every game, in the order of :data:`GAME_IDS`."""
    return [get_game(game_id) for game_id in GAME_IDS]
