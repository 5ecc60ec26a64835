"""What ``mancala edit`` opens: the file (or a new game), the game of an
archive, the recovery file's offer; every refusal a :class:`Refused` with
its one line and exit status."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from notation.notation_errors import NotationError
from notation.position_strings import format_position
from notation.record import GameRecord

from ..files import InputError
from ..positions import parse_position
from ..rules.game import InvalidPosition
from ..rules.registry import UnknownGame, get_game
from .edited_files import EditedFile, Recovery, new_document, open_document
from .model import EditedGame, EditError

__all__ = ["Refused", "Opened", "prepare"]


class Refused(Exception):
    """``mancala edit`` cannot start: ``message`` and the exit ``status``."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Opened:
    """What the editor starts on: the document, the game's ``index`` (from
    1) and the model, the recovery file's ``offer`` if any, and whether to
    show the archive's games first (``choose``)."""

    document: EditedFile
    index: int
    edited: EditedGame
    offer: dict[str, Any] | None = None
    choose: bool = False
    recovery: Recovery = field(init=False)

    def __post_init__(self) -> None:
        self.recovery = Recovery(self.document.path, self.index)


def _new_record(game: str | None, position: str | None) -> GameRecord:
    if game is None:
        raise Refused("a new game needs --game (kingulu, kimasai-mackay or kimasai-klamroth)")
    try:
        rules = get_game(game)
    except UnknownGame as error:
        raise Refused(str(error)) from None
    tags = [("Game", rules.id)]
    if position is not None:
        try:
            tags.append(("Setup", format_position(rules, parse_position(rules, position))))
        except InvalidPosition as error:
            raise Refused(f"bad position for {rules.id}: {error}") from None
    tags.append(("Result", "*"))
    return GameRecord(tags=tags, result="*")


def prepare(path: str | None, *, game: str | None = None, index: int | None = None,
            position: str | None = None) -> Opened:
    """The file at ``path`` opened (a path that does not exist, or none: a
    new game of ``game``, from ``position``), game ``index`` chosen."""
    if path is not None and os.path.exists(path):
        if position is not None:
            raise Refused("--position starts a new game: the file exists already")
        try:
            document = open_document(path)
        except (InputError, NotationError, OSError) as error:
            raise Refused(f"{path}: {error}") from None
        if not document.records:
            document.records, document.problems = [_new_record(game, None)], [[]]
        count = len(document.records)
        if index is not None and not 1 <= index <= count:
            raise Refused(f"{path} has {count} game{'s' if count > 1 else ''}: --index {index} names none")
        chosen = index or next((n for n in range(1, count + 1) if document.editable(n)), 1)
        if index is not None and not document.editable(index):
            raise Refused(document.problems[index - 1][0], 1)
        choose = index is None and (count > 1 or not document.editable(chosen))
    else:
        document = new_document(path, _new_record(game, position))
        chosen, choose = 1, False
    try:
        edited = EditedGame(document.records[chosen - 1], default_game=game)
    except (EditError, UnknownGame, InvalidPosition) as error:
        raise Refused(f"{path or 'the game'}: {error}", 1) from None
    opened = Opened(document, chosen, edited, choose=choose)
    opened.offer = opened.recovery.found()
    return opened
