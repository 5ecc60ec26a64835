"""The outline (:func:`symbols`): one symbol per game of a document, named
from its tags (:func:`symbol_name`).
"""
from __future__ import annotations

from .analysis import Document, DocumentGame
from .answers import Span, Symbol

__all__ = ["symbols", "symbol_name"]


def symbol_name(game: DocumentGame, index: int) -> str:
    """``Event, Round: South – North`` from the game's tags, as many parts
    as it has (``Game N`` when it has none)."""
    head = ", ".join(value for value in (game.tag("Event"), game.tag("Round")) if value)
    south, north = game.tag("South"), game.tag("North")
    players = f"{south or '?'} – {north or '?'}" if south or north else ""
    name = f"{head}: {players}" if head and players else head or players
    return name.strip() or f"Game {index}"


def symbols(doc: Document) -> list[Symbol]:
    """One symbol per game, in order: its name from its tags, the game id
    (``Game`` tag) and result as detail, its lines as range."""
    if doc.too_large:
        return []
    out = []
    for index, game in enumerate(doc.all_games(), 1):
        last = game.end - 1
        detail = " ".join(part for part in (game.game or game.tag("Game") or "unknown game", game.result) if part)
        first = game.start - 1
        out.append(Symbol(symbol_name(game, index), detail, Span(first, 0, last, len(doc.line(last))),
                          Span(first, 0, first, len(doc.line(first)))))
    return out

