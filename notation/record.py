"""Game records as read from PMN, JSON or XML, before replay.

A record keeps what was written (tags in their order, moves as written in
the record's coordinate style, marks, glyphs, comments, variations) and
where it was written, so that a checker can point at line and column.

    >>> record = GameRecord(tags=[("Game", "kingulu"), ("Result", "*")])
    >>> record.tag("Game"), record.tag("Site")
    ('kingulu', None)
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Generic, NamedTuple, TypeVar

from .coords import Side

#: Canonical tag order (docs/notation.md, "Canonical writing"); ``Setup`` follows it, then the others as read.
SEVEN_TAGS = ("Game", "Event", "Site", "Date", "Round", "South", "North", "Result")
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
GLYPHS = ("!!", "??", "!?", "?!", "!", "?")
#: Variations nest at most this deep (deeper ones are a syntax error); every
#: format (PMN, JSON, XML) holds records up to this depth (libxml2 reads at
#: most 2048 nested elements, and in XML each level takes two: variation and move).
MAX_VARIATION_DEPTH = 1000
#: The longest tag value (in characters, as meant) and tag name any reader
#: accepts; a longer one is an error and the tag is skipped.
MAX_TAG_VALUE = 10_000
MAX_TAG_NAME = 255
#: The longest digit string read as a capture count or a move number.
MAX_DIGITS = 9
#: Syntax problems reported per game, and warnings per game; after that one
#: closing problem says so.
MAX_PROBLEMS = 100

#: What a tag name is made of (docs/notation.md, "Tags"), as a pattern.
TAG_NAME = r"[A-Za-z0-9_]+"
#: Characters no text of a record (tag, comment) may hold: control characters
#: (C0 but tab, line feed and carriage return; DEL; C1), lone surrogates,
#: U+FFFE and U+FFFF. Such a text could not be written as UTF-8 or in XML.
#: (This pattern and the one above are compiled by :mod:`re`, and kept in its
#: cache, when first used: reading PMN uses neither.)
_BAD_CHARACTER = "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]"


def bad_character(text: str) -> str | None:
    """``character U+XXXX is not allowed`` for the first such character of ``text``, else ``None``."""
    match = re.search(_BAD_CHARACTER, text)
    return None if match is None else f"character U+{ord(match.group()):04X} is not allowed"


def tag_problem(name: str, value: str) -> str | None:
    """What is wrong with a tag pair read from JSON or XML, or ``None``."""
    if len(name) > MAX_TAG_NAME:
        return f"tag name {name[:37] + '...'!r} is longer than {MAX_TAG_NAME} characters"
    if not re.fullmatch(TAG_NAME, name):
        return f"tag name {name!r} is not letters, digits and _"
    if len(value) > MAX_TAG_VALUE:
        return f"tag {name}: value longer than {MAX_TAG_VALUE} characters"
    bad = bad_character(value)
    return None if bad is None else f"tag {name}: {bad}"


@dataclass(slots=True)
class Problem:
    """One thing wrong with a record: where, what, and for rule problems the
    position before the move and the legal moves there.

    ``code`` is a rule id (``KG-FIRSTLAP``) or a kebab-case code (``syntax``,
    ``bad-mark``, ``result-mismatch`` …).
    """

    severity: str  # "error" or "warning"
    code: str
    message: str
    line: int | None = None
    column: int | None = None
    ply: int | None = None
    move: str | None = None
    position: str | None = None
    legal: list[str] | None = None


@dataclass(slots=True)
class MoveNode:
    """A move as written.

    ``hole`` is the origin token (``c1``, ``11``, ``S11``); ``destination`` the
    second hole of Klamroth's long form ``b2-a2``; ``captured`` and
    ``reserved`` the outcome marks as written (``None``/``False`` when absent);
    ``before`` a comment written before the move (at the start of a game or
    variation, or after a variation), ``comment`` the one after it;
    ``variations`` alternatives to this move, each a list of moves;
    ``number`` the move number written before it, if any, with ``dots``
    (``"."`` or ``"..."``); ``line``/``column`` where the move token starts
    (1-based).
    """

    hole: str
    destination: str | None = None
    captured: int | None = None
    reserved: bool = False
    glyphs: list[str] = field(default_factory=list)
    nags: list[int] = field(default_factory=list)
    before: str | None = None
    comment: str | None = None
    variations: list[list[MoveNode]] = field(default_factory=list)
    number: int | None = None
    dots: str | None = None
    line: int | None = None
    column: int | None = None
    #: The position string after the move, filled by replay when asked for.
    position: str | None = None

    @property
    def text(self) -> str:
        """The move with its marks as written: ``c1x6``, ``e2^``, ``b2-a2x2``."""
        out = self.hole
        if self.destination is not None:
            out += "-" + self.destination
        if self.captured is not None:
            out += f"x{self.captured}"
        if self.reserved:
            out += "^"
        return out


@dataclass(slots=True)
class GameRecord:
    """One game of a file: tags, main line, result token and where it starts.

    ``problems`` holds what the reader found wrong while reading (syntax);
    replay adds rule problems elsewhere. ``comment`` keeps a comment of a
    game without moves.
    """

    tags: list[tuple[str, str]] = field(default_factory=list)
    moves: list[MoveNode] = field(default_factory=list)
    result: str | None = None
    comment: str | None = None
    file: str | None = None
    index: int = 1
    line: int = 1
    problems: list[Problem] = field(default_factory=list)
    #: (line, column) of the result token and of each tag value, for problems.
    result_at: tuple[int, int] | None = None
    tag_at: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: The game of a record without a ``Game`` tag, when the reader was told it.
    default_game: str | None = None

    def tag(self, name: str) -> str | None:
        """The value of tag ``name`` (the first one), or ``None``."""
        for key, value in self.tags:
            if key == name:
                return value
        return None

    def set_tag(self, name: str, value: str) -> None:
        for i, (key, _) in enumerate(self.tags):
            if key == name:
                self.tags[i] = (name, value)
                return
        self.tags.append((name, value))


# -- the walk over a record's tree of moves ------------------------------------------

#: What a :class:`Step` of :func:`walk` is: a move, or the start or end of a variation.
MOVE, BEGIN, END = "move", "begin", "end"

ResultT = TypeVar("ResultT")


class SkipType:
    """The type of :data:`SKIP`."""

    def __repr__(self) -> str:
        return "SKIP"


class Step(NamedTuple):
    """One event of :func:`walk`.

    ``kind`` is :data:`MOVE` (``node`` is the move), :data:`BEGIN` (a
    variation starts: ``node`` is the move it replaces) or :data:`END` (it
    ends: ``node`` is again that move). ``ply``, ``side`` and ``number`` are
    those of the move (for :data:`BEGIN` and :data:`END`, of the variation's
    first move); ``depth`` is 0 on the main line, 1 in a variation and so on.
    """

    kind: str
    node: MoveNode
    ply: int
    side: Side
    number: int
    depth: int


def walk(record: GameRecord | list[MoveNode], *, side: Side = "S", number: int = 1) -> Iterator[Step]:
    """Every move of ``record`` in the order PMN writes them: a move, then
    its variations (each between :data:`BEGIN` and :data:`END`), then the
    next move. ``side`` and ``number`` are the first move's (the ``Setup``
    position's). The move number, ply and side of every move are worked out
    here once, and the walk is iterative: any depth of variations is walked
    without recursion::

        >>> record = GameRecord(moves=[MoveNode("c1", variations=[[MoveNode("d1")]]), MoveNode("d2")])
        >>> [(s.kind, s.node.hole, s.ply, s.side, s.number, s.depth) for s in walk(record)]
        [('move', 'c1', 1, 'S', 1, 0), ('begin', 'c1', 1, 'S', 1, 1), ('move', 'd1', 1, 'S', 1, 1), \
('end', 'c1', 1, 'S', 1, 1), ('move', 'd2', 2, 'N', 1, 0)]

    A line's :data:`END` comes after those of the variations inside it, so
    the lines in the reverse order of their ends (the main line, which has
    no :data:`END`, first) are those of a walk that plays a whole line and
    then its variations, the last one first: the order in which problems
    of a record are reported.
    """
    moves = record.moves if isinstance(record, GameRecord) else record
    new = tuple.__new__  # Step(...) without the keyword handling, for speed
    # A frame: a line, the index of its next move, that move's ply, side and
    # number, and the line's BEGIN (None: the main line). A move with
    # variations leaves the rest of its line on the stack under them.
    stack: list[tuple[list[MoveNode], int, int, str, int, Step | None]] = [(moves, 0, 1, side, number, None)]
    while stack:
        line, i, ply, mover, count, begin = stack.pop()
        depth = 0 if begin is None else begin.depth
        if i == 0 and begin is not None:
            yield begin
        for i in range(i, len(line)):
            node = line[i]
            yield new(Step, (MOVE, node, ply, mover, count, depth))
            if node.variations:
                opening = new(Step, (BEGIN, node, ply, mover, count, depth + 1))
                stack.append((line, i + 1, ply + 1, "S" if mover == "N" else "N",
                              count + 1 if mover == "N" else count, begin))
                for variation in reversed(node.variations):
                    stack.append((variation, 0, ply, mover, count, opening))
                break
            ply += 1
            if mover == "S":
                mover = "N"
            else:
                mover = "S"
                count += 1
        else:
            if begin is not None:
                yield new(Step, (END, *begin[1:]))


#: What :meth:`Visitor.begin_variation` returns to have a variation skipped.
SKIP = SkipType()


class Visitor(Generic[ResultT]):
    """What :func:`visit` drives over a record's moves, as python-chess's
    ``BaseVisitor`` is driven by ``Game.accept``: each method gets the
    :class:`Step` of :func:`walk`, and :meth:`result` is what
    :func:`visit` returns. A variation whose :meth:`begin_variation`
    returns :data:`SKIP` is left out, its :meth:`end_variation` too.

        >>> class Count(Visitor[int]):
        ...     def __init__(self) -> None:
        ...         self.moves = 0
        ...     def visit_move(self, step: Step) -> None:
        ...         self.moves += 1
        ...     def begin_variation(self, step: Step) -> SkipType | None:
        ...         return SKIP if step.depth > 1 else None
        ...     def result(self) -> int:
        ...         return self.moves
        >>> deep = [MoveNode("a1", variations=[[MoveNode("b1", variations=[[MoveNode("c1")]])]])]
        >>> visit(deep, Count())
        2
    """

    def begin_variation(self, step: Step) -> SkipType | None:
        """A variation of ``step.node`` starts (``step.depth`` is its depth)."""
        return None

    def end_variation(self, step: Step) -> None:
        """The variation begun with the same step ends."""

    def visit_move(self, step: Step) -> None:
        """A move, with its ply, side, number and depth."""

    def result(self) -> ResultT:
        """What :func:`visit` returns, once every step has been given."""
        raise NotImplementedError


def visit(record: GameRecord | list[MoveNode], visitor: Visitor[ResultT], *, side: Side = "S",
          number: int = 1) -> ResultT:
    """Give every :class:`Step` of :func:`walk` (with ``side`` and
    ``number``) to ``visitor``; return its :meth:`~Visitor.result`::

        >>> class Moves(Visitor[list[str]]):
        ...     def __init__(self) -> None:
        ...         self.out: list[str] = []
        ...     def visit_move(self, step: Step) -> None:
        ...         self.out.append(f"{step.number}{'.' if step.side == 'S' else '...'}{step.node.hole}")
        ...     def begin_variation(self, step: Step) -> None:
        ...         self.out.append("(")
        ...     def end_variation(self, step: Step) -> None:
        ...         self.out.append(")")
        ...     def result(self) -> list[str]:
        ...         return self.out
        >>> record = GameRecord(moves=[MoveNode("c1", variations=[[MoveNode("d1")]]), MoveNode("d2")])
        >>> " ".join(visit(record, Moves(), side="N", number=7))
        '7...c1 ( 7...d1 ) 8.d2'
    """
    move, begin, end = visitor.visit_move, visitor.begin_variation, visitor.end_variation
    skipping = 0  # the depth of the variation being skipped, 0 if none
    for step in walk(record, side=side, number=number):
        kind = step.kind
        if skipping:
            if kind == END and step.depth == skipping:
                skipping = 0
        elif kind == MOVE:
            move(step)
        elif kind == BEGIN:
            if begin(step) is SKIP:
                skipping = step.depth
        else:
            end(step)
    return visitor.result()


def copy_record(record: GameRecord) -> GameRecord:
    """A copy of ``record`` whose moves, tags and problems can change without
    changing the original (iterative: any depth of variations)."""
    twin = replace(record, tags=list(record.tags), moves=[], problems=list(record.problems),
                   tag_at=dict(record.tag_at))
    lines: list[list[MoveNode]] = [twin.moves]
    for step in walk(record):
        if step.kind == MOVE:
            node = step.node
            lines[-1].append(replace(node, glyphs=list(node.glyphs), nags=list(node.nags), variations=[]))
        elif step.kind == BEGIN:
            variation: list[MoveNode] = []
            lines[-1][-1].variations.append(variation)
            lines.append(variation)
        elif step.kind == END:
            lines.pop()
    return twin
