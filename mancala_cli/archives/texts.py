"""The texts of the flags of ``filter``, ``split`` and ``stats`` read into
the terms of criteria (:mod:`mancala_cli.archives.criteria`): the positions of
``--reaches`` (:func:`parse_reaches`), the moves of ``--opening``
(:func:`parse_opening`) and the game of ``--game`` (:func:`known_game`);
a text that cannot be used raises :class:`BadCriterion`, with where in the
text the mistake is. (``--tag``'s ``NAME=REGEX``: :mod:`.patterns`.)
"""
from __future__ import annotations

import re
from typing import Literal, NoReturn

from notation.coords import hole_table, parse_move_token

from ..positions import parse_position
from ..rules.game import Game, InvalidPosition
from ..rules.registry import GAME_IDS, UnknownGame, get_game

#: A position to reach: the game's id, then the holes, the reserved holes
#: (sorted), the side to move and the banks (the move number is left out).
Target = tuple[str, tuple[int, ...], tuple[int, ...], str, tuple[int, int]]


class BadCriterion(ValueError):
    """A criterion that cannot be used (a bad regular expression, position or move).
    ``offset`` (from 0), when known, is where in the criterion's text the
    mistake is, and ``reason`` the message without it (an expression of
    ``--where`` gives that place as its column)."""

    def __init__(self, message: str, offset: int | None = None, reason: str | None = None) -> None:
        super().__init__(message)
        self.offset = offset
        self.reason = message if reason is None else reason


def _target(game: Game, text: str) -> Target:
    position = parse_position(game, text)
    return (game.id, position.holes, tuple(sorted(position.reserved)), position.side, position.banks)


def parse_reaches(text: str, game: str | None = None) -> tuple[Target, ...]:
    """The positions a position string names: in ``game``, or in every game
    whose board it fits (the games' boards differ, so that is at most one).

        >>> parse_reaches("4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 9")[0][0]
        'kingulu'
    """
    rules = [get_game(game)] if game is not None else [get_game(g) for g in GAME_IDS]
    found: list[Target] = []
    errors: list[tuple[Game, str]] = []
    for rule in rules:
        try:
            found.append(_target(rule, text))
        except InvalidPosition as error:
            errors.append((rule, str(error)))
    if found:
        return tuple(found)
    rows = text.strip().split(" ")[0].split("/")
    for rule, message in errors:  # the game whose board has the string's shape says what is wrong
        if len(rows) == rule.board.ranks and all(len(row.split(",")) == rule.board.files for row in rows):
            return _raise(f"bad position for {rule.id}: {message}", _bad_field(text))
    if len(errors) == 1:
        return _raise(f"bad position for {errors[0][0].id}: {errors[0][1]}", _bad_field(text))
    return _raise(f"{text!r} is a position of no game (its rows fit no board)", _bad_field(text))


def _raise(message: str, offset: int | None = None) -> NoReturn:
    raise BadCriterion(message, offset)


_FIELD = re.compile(r"[^ \t]+")
_NOT_ROWS = re.compile(r"[^0-9*,/]")
_FIELD_FORMS = (re.compile(r"[0-9*,/]+\Z"), re.compile(r"[SN]\Z"), re.compile(r"[0-9]+-[0-9]+\Z"),
                re.compile(r"[0-9]+\Z"))


def _bad_field(text: str) -> int:
    """Where in a position string that cannot be read the mistake is: the
    first field not of its form (rows, side, banks, move number; in the
    rows, the first character that is no digit, ``*``, ``,`` or ``/``), a
    fifth field, else the rows (their shape or their counts)."""
    fields = list(_FIELD.finditer(text))
    for number, (field, form) in enumerate(zip(fields, _FIELD_FORMS)):
        if not form.match(field[0]):
            bad = _NOT_ROWS.search(field[0]) if number == 0 else None
            return field.start() + (bad.start() if bad else 0)
    if len(fields) > len(_FIELD_FORMS):
        return fields[len(_FIELD_FORMS)].start()
    return fields[0].start() if fields else 0


_MOVE_NUMBER = re.compile(r"[0-9]+\.(?:\.\.)?\Z")
_HOLE_TOKEN = re.compile(r"[SN]?[0-9]+|[a-z][0-9]+")
_WORD = re.compile(r"\S+")


#: The coordinate styles and sides an opening's hole may be written in.
_HOLE_STYLES: tuple[tuple[str, Literal["S", "N"]], ...] = (
    ("algebraic", "S"), ("numeric", "S"), ("relative", "S"), ("relative", "N"))


def parse_opening(text: str, game: str | None = None) -> tuple[str, ...]:
    """The move tokens of ``"1. c1 d2 2. e1"`` (move numbers dropped); each
    hole must be one of the board of ``game``, or of some game's board.

        >>> parse_opening("1. c1x6 1... N3 e1^")
        ('c1x6', 'N3', 'e1^')
    """
    tokens = []
    boards = [get_game(game).board] if game is not None else [get_game(g).board for g in GAME_IDS]
    for found in _WORD.finditer(text):
        word, at = found[0], found.start()
        if _MOVE_NUMBER.match(word):
            continue
        number, dot, rest = word.partition(".")
        if dot and number.isascii() and number.isdigit() and rest:  # "1.c1", "1...d2"
            at += len(word) - len(rest.lstrip("."))
            word = rest.lstrip(".")
        if parse_move_token(word) is None:
            raise BadCriterion(f"{word!r} is not a move token (a hole, then xN or ^ if any)", at)
        for hole in _HOLE_TOKEN.finditer(word.split("x")[0]):
            if not any(hole[0] in hole_table(board, style, side) for board in boards
                       for style, side in _HOLE_STYLES):
                where = f"of {game}'s {boards[0].ranks} × {boards[0].files} board" if game else "of any game's board"
                raise BadCriterion(f"{hole[0]!r} is not a hole {where}", at + hole.start())
        tokens.append(word)
    if not tokens:
        raise BadCriterion("no moves")
    return tuple(tokens)


def known_game(game: str) -> str:
    """``game`` if it is a game id; raises :class:`BadCriterion`."""
    try:
        get_game(game)
    except UnknownGame as error:
        raise BadCriterion(str(error)) from None
    return game
