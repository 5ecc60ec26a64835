"""Records as JSON Lines (one object per game), read back without loss.

    >>> from notation.record import GameRecord, MoveNode
    >>> record = GameRecord(tags=[("Game", "kingulu")], moves=[MoveNode("c1", captured=6)], result="*")
    >>> text = record_to_json(record, "kingulu", "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1")
    >>> json_line_to_record(text).moves[0].text
    'c1x6'

The object is ``{"game", "tags", "start", "moves", "result"}``; a move is
``{"ply", "side", "move", "captured", "reserved", "glyphs", "nags",
"comment", "variations"}`` plus ``"position"`` when positions were asked
for, and ``"destination"`` (Klamroth long form), ``"before"`` (a comment
before the move) and ``"x0"`` (a written ``x0`` mark) only where they occur.
"""
from __future__ import annotations

import contextlib
import json
import re
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from . import json_nesting
from .coords import Side
from .grammar import HOLE
from .notation_errors import NotationError
from .record import (
    GLYPHS,
    MAX_DIGITS,
    MAX_VARIATION_DEPTH,
    RESULTS,
    GameRecord,
    MoveNode,
    Problem,
    Step,
    Visitor,
    bad_character,
    tag_problem,
    visit,
    walk,
)

#: The deepest nesting of arrays and objects a line may have: what variations
#: nested :data:`~notation.record.MAX_VARIATION_DEPTH` deep take (the game
#: object, its moves, a move, then a list of variations, a variation and a
#: move per level, and the innermost move's glyphs or NAGs).
MAX_JSON_DEPTH = 4 + 3 * MAX_VARIATION_DEPTH

_HOLE = re.compile(HOLE)
_MAX_COUNT = 10 ** MAX_DIGITS


class JSONRecordError(NotationError):
    """A JSON object that is not a game record; ``code`` is the problem code
    it is reported with (``syntax``, or ``bad-tag`` for a tag)."""

    def __init__(self, message: str, code: str = "syntax") -> None:
        super().__init__(message)
        self.code = code


def _too_deep() -> JSONRecordError:
    return JSONRecordError(f"nested deeper than {MAX_JSON_DEPTH} levels "
                           f"(variations nest at most {MAX_VARIATION_DEPTH} deep)")


def _check_depth(obj: Any) -> None:
    """Refuse arrays and objects nested deeper than :data:`MAX_JSON_DEPTH`, wherever they are."""
    work = [(obj, 1)]
    while work:
        value, depth = work.pop()
        if depth > MAX_JSON_DEPTH:
            raise _too_deep()
        if isinstance(value, dict):
            work.extend((item, depth + 1) for item in value.values() if isinstance(item, (dict, list)))
        else:
            work.extend((item, depth + 1) for item in value if isinstance(item, (dict, list)))


def _move_to_json(node: MoveNode, ply: int, side: str) -> dict[str, Any]:
    out: dict[str, Any] = {"ply": ply, "side": side, "move": node.hole}
    if node.destination is not None:
        out["destination"] = node.destination
    out["captured"] = node.captured or 0
    if node.captured == 0:
        out["x0"] = True
    out["reserved"] = node.reserved
    out["glyphs"] = list(node.glyphs)
    out["nags"] = list(node.nags)
    if node.before is not None:
        out["before"] = node.before
    out["comment"] = node.comment
    out["variations"] = []
    if node.position is not None:
        out["position"] = node.position
    return out


class _Moves(Visitor[list[dict[str, Any]]]):
    """The ``moves`` list of a record's JSON object, built along :func:`~notation.record.walk`."""

    def __init__(self) -> None:
        self.root: list[dict[str, Any]] = []
        #: Per depth: the list the moves of the line being walked go into.
        self.lines = [self.root]

    def visit_move(self, step: Step) -> None:
        self.lines[step.depth].append(_move_to_json(step.node, step.ply, step.side))

    def begin_variation(self, step: Step) -> None:
        branch: list[dict[str, Any]] = []
        lines = self.lines
        depth = step.depth
        lines[depth - 1][-1]["variations"].append(branch)
        if depth < len(lines):
            lines[depth] = branch
        else:
            lines.append(branch)

    def result(self) -> list[dict[str, Any]]:
        return self.root


def record_to_object(record: GameRecord, game: str | None, start: str | None) -> dict[str, Any]:
    """The JSON object of ``record`` (``start``: its start position string).

    Works without recursion, so deeply nested variations are safe.
    """
    side: Side = "N" if start and start.split()[1] == "N" else "S"
    root = visit(record, _Moves(), side=side)
    tags = dict(record.tags)
    obj: dict[str, Any] = {"game": game, "tags": tags, "start": start, "moves": root,
                           "result": record.result}
    if record.comment is not None:
        obj["comment"] = record.comment
    if len(tags) != len(record.tags):
        obj["tag_list"] = [list(pair) for pair in record.tags]
    return obj


@contextlib.contextmanager
def _deep_nesting() -> Iterator[None]:
    """The standard json module recurses once per nesting level; variations
    nested up to the reader's limit need about four levels each."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 12 * MAX_VARIATION_DEPTH))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


def record_to_json(record: GameRecord, game: str | None, start: str | None) -> str:
    """One JSON line (without the newline)."""
    obj = record_to_object(record, game, start)
    try:
        with _deep_nesting():
            return json.dumps(obj, ensure_ascii=False)
    except RecursionError:  # (Python 3.12's C encoder stops at about 1,500 levels)
        return json_nesting.dumps(obj)


def json_line_to_record(text: str) -> GameRecord:
    """The record of one JSON line; ValueError or :class:`JSONRecordError` if it is none
    (nested deeper than :data:`MAX_JSON_DEPTH`, or a value a record cannot hold)."""
    try:
        try:
            with _deep_nesting():
                obj = json.loads(text)
        except RecursionError:  # (Python 3.12's C decoder stops at about 1,500 levels)
            obj = json_nesting.loads(text, max_depth=12 * MAX_VARIATION_DEPTH)
    except RecursionError:
        raise _too_deep() from None
    except ValueError as error:
        if isinstance(error, json.JSONDecodeError):
            raise
        # Python reads integers of at most sys.get_int_max_str_digits() digits.
        raise JSONRecordError(f"a number of more than {sys.get_int_max_str_digits():,} digits") from None
    record = object_to_record(obj)
    if text.count("[") + text.count("{") > MAX_JSON_DEPTH:
        _check_depth(obj)  # only a line with that many brackets can nest that deep
    return record


def _move_from_json(item: Any) -> MoveNode:
    if not isinstance(item, dict) or not isinstance(item.get("move"), str):
        raise JSONRecordError("a move must be an object with a \"move\" string")
    captured = item.get("captured", 0)
    if not isinstance(captured, int) or isinstance(captured, bool) or not 0 <= captured < _MAX_COUNT:
        raise JSONRecordError(f"\"captured\" must be a count of at most {MAX_DIGITS} digits, "
                              f"not {_shown(captured)}")
    node = MoveNode(_hole(item["move"], "move"))
    node.destination = _optional_str(item, "destination")
    if node.destination is not None:
        _hole(node.destination, "destination")
    x0 = _flag(item, "x0")
    node.captured = captured if captured else (0 if x0 else None)
    node.reserved = _flag(item, "reserved")
    glyphs = item.get("glyphs", [])
    nags = item.get("nags", [])
    if not isinstance(glyphs, list) or not all(isinstance(g, str) for g in glyphs):
        raise JSONRecordError("\"glyphs\" must be a list of strings")
    for glyph in glyphs:
        if glyph not in GLYPHS:
            raise JSONRecordError(f"glyph {_shown(glyph)} is not one of {' '.join(GLYPHS)}")
    if not isinstance(nags, list) or not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 255
                                             for n in nags):
        raise JSONRecordError("\"nags\" must be a list of numbers 0-255")
    node.glyphs = list(glyphs)
    node.nags = list(nags)
    node.before = _optional_str(item, "before")
    node.comment = _optional_str(item, "comment")
    node.position = _optional_str(item, "position")
    return node


def _flag(item: dict[str, Any], key: str) -> bool:
    """A JSON ``true`` or ``false`` (``false`` when the key is absent); nothing else is one."""
    value = item.get(key, False)
    if not isinstance(value, bool):
        raise JSONRecordError(f"\"{key}\" must be true or false, not {_shown(value)}")
    return value


def _optional_str(item: dict[str, Any], key: str) -> str | None:
    value = item.get(key)
    if value is not None:
        if not isinstance(value, str):
            raise JSONRecordError(f"\"{key}\" must be a string or null")
        bad = bad_character(value)
        if bad:
            raise JSONRecordError(f"{key}: {bad}")
    return value


def _hole(text: str, key: str) -> str:
    """``text`` when it is a hole token in some coordinate style (docs/notation.md, "Coordinate styles")."""
    if not _HOLE.fullmatch(text):
        raise JSONRecordError(f"{key} {_shown(text)} is not a hole")
    return text


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def object_to_record(obj: Any) -> GameRecord:
    """The record of a JSON object written by :func:`record_to_object`."""
    if not isinstance(obj, dict):
        raise JSONRecordError("a game must be a JSON object")
    record = GameRecord(tags=_tags_from_json(obj))
    game = obj.get("game")
    if isinstance(game, str) and record.tag("Game") is None:
        record.tags.insert(0, ("Game", game))
    for name, value in record.tags:
        problem = tag_problem(name, value)
        if problem:
            raise JSONRecordError(problem, "bad-tag")
    result = obj.get("result")
    if result is not None and result not in RESULTS:
        raise JSONRecordError(f"\"result\" must be one of {', '.join(RESULTS)}, not {result!r}")
    record.result = result
    record.comment = _optional_str(obj, "comment")
    moves = obj.get("moves", [])
    if not isinstance(moves, list):
        raise JSONRecordError("\"moves\" must be a list")
    _moves_from_json(moves, record.moves)
    return record


def _tags_from_json(obj: dict[str, Any]) -> list[tuple[str, str]]:
    """The tags of a game object: ``tag_list`` (pairs, in order), else ``tags`` (an object)."""
    tags = obj.get("tag_list")
    if tags is None:
        tags = obj.get("tags", {})
        if not isinstance(tags, dict):
            raise JSONRecordError("\"tags\" must be an object")
        tags = list(tags.items())
    if not all(isinstance(pair, (list, tuple)) and len(pair) == 2
               and all(isinstance(v, str) for v in pair) for pair in tags):
        raise JSONRecordError("tag names and values must be strings")
    return [(k, v) for k, v in tags]


def _moves_from_json(moves: list[Any], out: list[MoveNode]) -> None:
    """The moves of a JSON list, with their variations, appended to ``out``, iteratively."""
    stack = [(moves, out, 0)]
    while stack:
        items, target, depth = stack.pop()
        if depth > MAX_VARIATION_DEPTH:
            raise JSONRecordError(f"variations nested deeper than {MAX_VARIATION_DEPTH} levels")
        for item in items:
            node = _move_from_json(item)
            target.append(node)
            variations = item.get("variations", [])
            if not isinstance(variations, list):
                raise JSONRecordError("\"variations\" must be a list of move lists")
            for variation in variations:
                if not isinstance(variation, list):
                    raise JSONRecordError("a variation must be a list of moves")
                branch: list[MoveNode] = []
                node.variations.append(branch)
                stack.append((variation, branch, depth + 1))


def json_records(lines: Iterable[str], file: str, first_line: int = 1) -> Iterator[GameRecord]:
    """Records from JSON Lines; a bad line gives a record holding only its
    problem. Every move of a record is at its line, column 1."""
    for number, text in enumerate(lines, first_line):
        if not text.strip():
            continue
        try:
            record = json_line_to_record(text)
        except (ValueError, JSONRecordError) as error:
            record = GameRecord(problems=[Problem("error", getattr(error, "code", "syntax"),
                                                  f"not a JSON game record: {error}",
                                                  number, 1)])
        record.file = file
        record.line = number
        for step in walk(record):  # (a move is where its record's line starts: a JSON line holds a whole game)
            step.node.line, step.node.column = number, 1
        yield record
