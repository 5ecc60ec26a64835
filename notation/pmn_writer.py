"""Writing PMN (docs/notation.md, "Canonical writing"): the canonical text
of a record, and what canonical text cannot hold of it.

:func:`write_game` walks the record's moves (:func:`~notation.record.visit`)
into units (a move with its number, a comment or a sentence of one, a
forced line break) and fills them greedily into lines of at most
:data:`WIDTH` characters (a unit longer than that stands alone on a
line). :func:`unheld` names what the text changes (a line break in a tag
value, a carriage return in a comment, …). All three are also in
:mod:`notation.pmn`.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TextIO

from .coords import Side, move_label, move_token
from .grammar import escape
from .pmn_reader import MAX_GAME_LINES, MAX_GAME_TEXT
from .record import BEGIN, MOVE, SEVEN_TAGS, GameRecord, MoveNode, Problem, Step, Visitor, visit, walk

__all__ = ["WIDTH", "write_game", "write_games", "numbered_moves", "unheld", "unreadable"]

#: Canonical movetext lines are at most this long (docs/notation.md, "Canonical writing").
WIDTH = 79

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_DIGITS = re.compile(r"[0-9]{1,9}\Z")

_NL = None  # a forced line break in the writer's unit stream
#: A unit of the writer's stream: a piece of text (a ``_Goes`` where a
#: comment goes on), or ``_NL``.
_Unit = str | None


class _Goes(str):
    """A sentence of a ``{…}`` comment that another sentence of the same
    comment follows on the same line of its text, one space after its
    ``.``, ``!`` or ``?``. A line broken after it closes the comment there
    and opens it again on the next line (``{A. B.}`` becomes ``{A.}`` and
    ``{B.}``): a reader joins neighbouring comments with one space, so the
    text reads back exactly as it was. A comment is cut nowhere else, so
    that no piece reads as a broken comment."""


def _ordered_tags(tags: list[tuple[str, str]]) -> list[tuple[str, str]]:
    order = SEVEN_TAGS + ("Setup",)
    out = [tag for name in order for tag in tags if tag[0] == name]
    out.extend(tag for tag in tags if tag[0] not in order)
    return out


def _start(record: GameRecord) -> tuple[Side, int]:
    """The side to move and the move number where the record starts."""
    setup = record.tag("Setup")
    if setup:
        fields = setup.split()
        side: Side = "N" if len(fields) > 1 and fields[1] == "N" else "S"
        number = int(fields[3]) if len(fields) > 3 and _DIGITS.match(fields[3]) else 1
        return side, number
    return "S", 1


def _no_tag_section(text: str) -> str:
    """``text`` with no blank line followed by a line starting with ``[`` (which
    a reader takes for the next game's tags): such line breaks become spaces."""
    out: list[str] = []
    for line in text.split("\n"):
        while len(out) >= 2 and not out[-1].strip() and line.lstrip().startswith("["):
            line = out.pop() + " " + line
        out.append(line)
    return "\n".join(out)


def _comment_units(text: str, units: list[_Unit]) -> None:
    """Append the units of one comment: ``{…}``, one unit per line of its
    text (a line break in the text is kept) or per sentence of a line (see
    :func:`_brace_units`). A text that holds ``}`` is cut at spaces into
    ``{…}`` parts (those with line breaks) and ``;`` parts (the stretches that
    hold a ``}``), each ``;`` part ending its line: a reader joins consecutive
    comments with one space, so the text reads back the same. (A word that
    holds both ``}`` and a line break cannot be written: its line break is
    written as a space.)"""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\n" in text:
        text = _no_tag_section(text)
    if "}" not in text:
        _brace_units(text, units)
        return
    words = text.split(" ")
    if any("}" in w and "\n" in w for w in words):
        words = " ".join(w.replace("\n", " ") if "}" in w else w for w in words).split(" ")
    for is_line, part in _comment_parts(words):
        if is_line:
            units.append(";" + " ".join(part))
            units.append(_NL)
        else:
            _brace_units(" ".join(part), units)


def _comment_parts(words: list[str]) -> list[tuple[bool, list[str]]]:
    """The words of a comment that holds ``}`` in parts: (is a ``;`` part,
    its words). A ``;`` part is a run of words without line breaks that
    holds a ``}``; the words between such runs make ``{…}`` parts."""
    parts: list[tuple[bool, list[str]]] = []
    run: list[str] = []
    for w in words + [None]:
        if w is not None and "\n" not in w:
            run.append(w)
            continue
        # a word with a line break (or the end): close the run before it
        if run:
            if any("}" in r for r in run):
                parts.append((True, run))
            elif parts and not parts[-1][0]:
                parts[-1][1].extend(run)
            else:
                parts.append((False, run))
            run = []
        if w is not None:
            if parts and not parts[-1][0]:
                parts[-1][1].append(w)
            else:
                parts.append((False, [w]))
    return parts


#: Where a comment may be cut into ``{…}`` pieces: a sentence end, that is
#: ``.``, ``!`` or ``?`` and exactly one space before more text (a reader
#: joins the pieces with that one space).
_SENTENCE_END = re.compile(r"(?<=[.!?]) (?=\S)")


def _brace_units(text: str, units: list[_Unit]) -> None:
    """The units of a ``{…}`` comment (a text without ``}``): one per line
    of its text, or per sentence of a line (see :data:`_SENTENCE_END`)."""
    lines = text.split("\n")
    last = len(lines) - 1
    for i, hard in enumerate(lines):
        pieces = _SENTENCE_END.split(hard)
        if i == 0:
            pieces[0] = "{" + pieces[0]
        else:
            units.append(_NL)
        if i == last:
            pieces[-1] += "}"
        units.extend(_Goes(piece) for piece in pieces[:-1])
        units.append(pieces[-1])


#: The numeric glyphs of the six glyphs (as in PGN), for a second glyph of a move.
_GLYPH_NAGS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}


def _move_text(node: MoveNode) -> str:
    """The move token: hole, destination, marks (``x0`` never) and its glyph."""
    out = move_token(node.hole, node.destination, node.captured, node.reserved)
    if node.glyphs:
        glyph = node.glyphs[0]
        if glyph in _GLYPH_NAGS:
            out += glyph
    return out


class _Numbering:
    """Where canonical writing puts move numbers, move by move along
    :func:`~notation.record.walk`: before every South move, and before a
    North move that opens the movetext or a variation or follows a comment
    or a variation (an empty variation, which is not written, counts for
    nothing). :class:`_Movetext` writes by it; :func:`numbered_moves` asks
    it alone."""

    __slots__ = ("force", "opening")

    def __init__(self) -> None:
        self.force = True  # the next North move is written with its number
        self.opening = False  # a variation has begun and has no move yet

    def begin(self) -> None:
        """A variation begins."""
        self.opening = True

    def end(self) -> bool:
        """A variation ends: whether it had moves (an empty one is not written)."""
        if self.opening:
            self.opening = False
            return False
        self.force = True
        return True

    def move(self, step: Step) -> tuple[bool, bool]:
        """A move: whether it opens a variation, and whether it is written
        with its number (a comment before it counts: the record's comment
        goes before the first move, which has its number anyway)."""
        node = step.node
        opens = self.opening
        self.opening = False
        numbered = step.side == "S" or opens or self.force or node.before is not None
        self.force = node.comment is not None or bool(node.variations and any(node.variations))
        return opens, numbered


class _Movetext(Visitor[list[_Unit]]):
    """The units of a record's movetext (a move with its number, a piece of
    a comment, ``_NL``), built along :func:`~notation.record.walk`; an empty
    variation is not written."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.units: list[_Unit] = []
        self.opener = ""  # "(" waiting to be glued to the next unit
        self.numbers = _Numbering()
        # The record's comment and the first move's "before" comment would read
        # back as one comment (the reader joins neighbours with a space): they
        # are written as one, at the start.
        self.joined: MoveNode | None = None
        if record.comment is not None:
            first = record.moves[0] if record.moves else None
            before = first.before if first is not None else None
            _comment_units(record.comment if before is None else record.comment + " " + before, self.units)
            self.joined = first

    def begin_variation(self, step: Step) -> None:
        self.numbers.begin()

    def end_variation(self, step: Step) -> None:
        if not self.numbers.end():  # an empty variation
            return
        units = self.units
        if units and units[-1] is not _NL:
            units[-1] += ")"
        else:
            units.append(")")

    def visit_move(self, step: Step) -> None:
        node = step.node
        units = self.units
        opens, numbered = self.numbers.move(step)
        if opens:
            self.opener += "("
        if node.before is not None and node is not self.joined:
            mark = len(units)
            _comment_units(node.before, units)
            if self.opener:
                first = units[mark]
                assert first is not None  # (a comment's first unit is text)
                glued = self.opener + first
                units[mark] = _Goes(glued) if isinstance(first, _Goes) else glued
                self.opener = ""
        move = _move_text(node)
        if numbered:
            move = f"{move_label(step.number, step.side)} {move}"
        if self.opener:
            move = self.opener + move
            self.opener = ""
        units.append(move)
        if len(node.glyphs) > 1:  # one glyph fits after the move: the others as NAGs
            units.extend(f"${_GLYPH_NAGS[g]}" for g in node.glyphs[1:] if g in _GLYPH_NAGS)
        for nag in node.nags:
            units.append(f"${nag}")
        if node.comment is not None:
            _comment_units(node.comment, units)

    def result(self) -> list[_Unit]:
        self.units.append(self.opener + (self.record.result or "*"))
        return self.units


def _movetext_units(record: GameRecord) -> list[_Unit]:
    side, number = _start(record)
    return visit(record, _Movetext(record), side=side, number=number)


def numbered_moves(record: GameRecord) -> list[Step]:
    """The moves :func:`write_game` writes with a move number, as steps of
    :func:`~notation.record.walk` (``step.number`` and ``step.side`` give
    the number, :func:`~notation.coords.move_label` its text): every South
    move, and a North move that opens the movetext or a variation or
    follows a comment or a variation. Writing's own rule, without writing.

        >>> from notation.pmn_reader import read_game
        >>> record = read_game('[Game "kingulu"]\\n\\nc1x6 {a note} d2 e1 f2 (b2) *\\n')
        >>> [(move_label(s.number, s.side), s.node.text) for s in numbered_moves(record)]
        [('1.', 'c1x6'), ('1...', 'd2'), ('2.', 'e1'), ('2...', 'b2')]
    """
    side, number = _start(record)
    numbers = _Numbering()
    out = []
    for step in walk(record, side=side, number=number):
        kind = step.kind
        if kind == MOVE:
            if numbers.move(step)[1]:
                out.append(step)
        elif kind == BEGIN:
            numbers.begin()
        else:
            numbers.end()
    return out


def _wrap(units: list[_Unit], width: int = WIDTH) -> list[str]:
    """Greedy filling: a unit goes on the current line when it fits, else
    starts a new one (a unit longer than a line stands alone on one);
    ``_NL`` forces a break. A break after a :class:`_Goes` piece closes its
    comment there with ``}`` and opens it again with ``{`` on the next line.

    A break never leaves a blank line, since a blank line followed by ``[``
    would start a new game: there is no break while the line is still
    blank, and a unit that is white space only (a blank line of a
    comment's text) always follows a ``_NL`` (see :func:`_brace_units`).
    """
    lines: list[str] = []
    cur = ""
    blank = True  # cur is white space only
    fresh = True  # nothing placed on cur yet
    inside = False  # the unit placed last is a _Goes: a comment goes on
    for unit in units:
        if unit is _NL:
            lines.append(cur)
            cur = ""
            blank = fresh = True
            inside = False
            continue
        goes = isinstance(unit, _Goes)  # room is kept for a "}" after it
        if fresh:
            cur = unit
            fresh = False
        elif len(cur) + 1 + len(unit) + goes <= width or blank:
            cur += " " + unit
        elif inside:  # a break inside a comment: "}" here, "{" on the next line
            lines.append(cur + "}")
            cur = "{" + unit
        else:
            lines.append(cur)
            cur = unit
        if blank and unit.strip():
            blank = False
        inside = goes
    if not fresh:
        lines.append(cur)
    return lines


def write_game(record: GameRecord, coords: str | None = None) -> str:
    """The canonical PMN text of ``record`` (PMN §5), ending with one ``\\n``.

    * Tags in the order ``Game Event Site Date Round South North Result``,
      then ``Setup``, then the others as they are in the record; none is
      added. A line break in a value is written as a space.
    * A blank line, then the movetext filled greedily into lines of at most
      :data:`WIDTH` characters (but for a comment's sentence longer than
      that, below); a move number and its move are one unit.
    * ``N.`` before every South move, ``N...`` before a North move that
      opens the movetext or a variation or follows a comment or a
      variation; numbers are counted from the ``Setup`` tag's side and move
      number (else South, 1), the move numbers stored in the nodes are not
      used.
    * Per move: its ``before`` comment, the number, the move with its marks
      (``xN`` only for N > 0, ``^``) and first glyph, NAGs (a second glyph
      as its NAG, ``!`` = ``$1`` … ``?!`` = ``$6``), its comment, its
      variations; then ``record.result`` or ``*``. ``record.comment`` comes
      first (a reader gives it back as ``record.comment`` when there are no
      moves, else as the first move's ``before``).
    * A comment is filled like any unit: when it does not fit on the line,
      it starts the next one. It is cut into ``{…}`` pieces only at a
      sentence end, ``.``, ``!`` or ``?`` and one space before more text
      (``{A. B.}`` as ``{A.}`` and ``{B.}`` on the next line; a reader joins
      neighbouring comments with one space, so it reads back as it was),
      never mid-sentence: a sentence longer than a line is written whole,
      on a line longer than :data:`WIDTH`. A line break in the text is
      written as one, inside the comment; a comment holding ``}`` is
      written with ``;`` comments for the parts that hold it. A line break
      inside a comment never leaves a blank line followed by ``[`` (that
      would start a new game).

    Reading canonical text and writing it again gives the same bytes.
    Purely textual: moves are written as stored; ``coords`` is accepted for
    the callers' convenience and ignored (converting coordinates is done
    before writing).
    """
    out = []
    for name, value in _ordered_tags(record.tags):
        if "\n" in value or "\r" in value:
            value = _LINE_BREAK.sub(" ", value)
        out.append(f'[{name} "{escape(value)}"]')
    if out:
        out.append("")
    out.extend(_wrap(_movetext_units(record)))
    return "\n".join(out) + "\n"


def write_games(records: Iterable[GameRecord], out: TextIO, coords: str | None = None) -> int:
    """Write ``records`` to ``out`` as canonical PMN, one blank line between
    games; returns how many were written."""
    count = 0
    for record in records:
        if count:
            out.write("\n")
        out.write(write_game(record, coords))
        count += 1
    return count


# ---------------------------------------------------------------- what PMN cannot hold


def _comment_change(text: str) -> str | None:
    """How :func:`write_game` changes a comment's text, or ``None`` when it
    reads back as it is."""
    if "\r" in text:
        return "its carriage returns are written as line breaks"
    if "\n" not in text:
        return None
    if _no_tag_section(text) != text:
        return "a blank line followed by '[' (a new game to a reader) is written with a space instead of its line break"
    if "}" in text and any("}" in w and "\n" in w for w in text.split(" ")):
        return "a line break in a word that holds '}' is written as a space"
    return None


def unheld(record: GameRecord) -> list[Problem]:
    """What canonical PMN cannot hold exactly in ``record``: one
    ``warning`` (code ``pmn-inexact``) per tag or comment whose text
    :func:`write_game` changes, naming it (PMN has no escape for a line
    break in a tag value, a carriage return in a comment, …; see
    docs/notation.md, "What PMN cannot hold"). Empty for a record read
    from PMN, but where an empty variation was dropped between a move and
    a comment.

        >>> from notation.pmn_reader import read_game
        >>> record = read_game('[Game "kingulu"]\\n\\n1. c1 *\\n')
        >>> record.tags.append(("Event", "a\\nb"))
        >>> [p.message for p in unheld(record)]
        ['the Event tag: its line breaks are written as spaces (a tag value is one line)']
    """
    found = _unheld_tags_and_comment(record)
    if record.moves:
        found.extend(_unheld_move_comments(record))
    return found


def _unheld_tags_and_comment(record: GameRecord) -> list[Problem]:
    """What :func:`unheld` finds in the tags and the record's comment."""
    found: list[Problem] = []
    for name, value in record.tags:
        if "\n" in value or "\r" in value:
            line, column = record.tag_at.get(name, (record.line, None))
            found.append(Problem("warning", "pmn-inexact", f"the {name} tag: its line breaks are written as "
                                 "spaces (a tag value is one line)", line, column))
    if record.comment is not None:
        why = _comment_change(record.comment)
        if why is None and record.moves:
            why = "it is written as (and reads back as) the comment before the first move"
        if why is not None:
            found.append(Problem("warning", "pmn-inexact", f"the comment before the moves: {why}", record.line, None))
    return found


def _merged_befores(record: GameRecord) -> set[int]:
    """The ids of the moves whose comment before them is read back as the
    comment after the move before them: a comment before a move that
    follows another move (not a variation); PMN has one place between two
    moves."""
    merged: set[int] = set()
    todo = [record.moves]
    while todo:
        seq = todo.pop()
        for k, node in enumerate(seq):
            if k and node.before is not None and not any(seq[k - 1].variations):
                merged.add(id(node))
            todo.extend(node.variations)
    return merged


def _unheld_move_comments(record: GameRecord) -> list[Problem]:
    """What :func:`unheld` finds in the comments of the moves."""
    found: list[Problem] = []
    merged = _merged_befores(record)
    side, number = _start(record)
    for step in walk(record, side=side, number=number):
        if step.kind != MOVE:
            continue
        node = step.node
        for where, text in (("before", node.before), ("after", node.comment)):
            if text is None:
                continue
            why = _comment_change(text)
            if why is None and where == "before" and id(node) in merged:
                why = "it reads back as the comment after the move before it (PMN has one place between two moves)"
            if why is not None:
                found.append(Problem("warning", "pmn-inexact",
                                     f"the comment {where} {move_label(step.number, step.side)} {node.text}: {why}",
                                     node.line, node.column))
    return found


def unreadable(text: str, record: GameRecord) -> list[Problem]:
    """A ``pmn-inexact`` warning when ``text``, the PMN :func:`write_game`
    wrote of ``record``, is longer than a PMN reader reads of one game
    (:data:`~notation.pmn_reader.MAX_GAME_LINES` lines or
    :data:`~notation.pmn_reader.MAX_GAME_TEXT` characters, past which it
    reports ``game-too-long``): a comment of 200,000 lines read from JSON,
    say. Empty for any game read from PMN.

        >>> from notation.pmn_reader import read_game
        >>> record = read_game('[Game "kingulu"]\\n\\n1. c1 {a} *\\n')
        >>> record.moves[0].comment = "\\n" * 100_000
        >>> [p.message for p in unreadable(write_game(record), record)]  # doctest: +NORMALIZE_WHITESPACE
        ['the game is 100,003 lines of PMN, more than the 100,000 lines a PMN reader reads of one game
          (game-too-long): it will not read back']
    """
    lines = text.count("\n")
    if lines > MAX_GAME_LINES:
        size = f"{lines:,} lines of PMN, more than the {MAX_GAME_LINES:,} lines"
    elif len(text) > MAX_GAME_TEXT:
        size = f"{len(text):,} characters of PMN, more than the {MAX_GAME_TEXT:,} characters"
    else:
        return []
    return [Problem("warning", "pmn-inexact", f"the game is {size} a PMN reader reads of one game "
                    "(game-too-long): it will not read back", record.line, None)]
