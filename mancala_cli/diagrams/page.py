"""A game page: one self-contained HTML document to play through records
(docs/commands/render.md, "A game page: --format html").

The engine works out every position of the tree here, in Python: each
record is replayed (:func:`mancala_cli.checking.replay`, on a copy) and then
walked with a :class:`~notation.record.Visitor` that plays each move the
replay could play from the position before it, the main line and every
variation. The page embeds those positions as JSON, with the SVG diagram
of :func:`~mancala_cli.diagrams.svg.board_svg` and its geometry; its script
only shows them (it knows no rules). Nothing is loaded from elsewhere.

    >>> from notation.pmn_reader import read_game
    >>> page = game_page([read_game('[Game "kingulu"]\\n\\n1. c1 (1. d1^) d2 *\\n')])
    >>> page.html.startswith("<!DOCTYPE html>"), page.plies, len(page.games[0].nodes)
    (True, 3, 4)
"""
from __future__ import annotations

import dataclasses
import html
import itertools
import json
import re
from collections.abc import Iterable
from importlib import resources
from typing import Any

from notation.coords import STYLES, format_move, move_label, parse_hole
from notation.position_strings import format_position
from notation.record import MOVE, SKIP, GameRecord, Problem, SkipType, Step, Visitor, copy_record, visit, walk

from ..checking import Replay, replay
from ..rules.game import Game, MancalaError, Outcome
from ..rules.position import Position, PositionKey
from .caption import RING_MEANINGS, legend_sample
from .svg import board_svg, page_geometry
from .text import default_title, result_words

__all__ = ["game_page", "Page", "PageGame", "PageTooLarge", "MAX_PAGE_POSITIONS", "MAX_PAGE_TEXT",
           "record_positions", "record_text", "bounded_records", "check_page_budget"]

#: The most positions (each game's start and every move, variations too) one
#: page holds. The page budget (docs/commands/render.md) is 60 KB plus 1 KB a move;
#: this keeps a page within 10 MB (about 3 MB in practice) and the memory of
#: writing it within about 100 MB; a larger archive gets a page a game
#: (``--index N``).
MAX_PAGE_POSITIONS = 10_000


#: The most bytes (UTF-8) of tags, comments and moves one page holds: twice
#: the text of the longest game PMN reads (4 MiB), so that a page of one game
#: always fits, and a page of many games with long comments stays within
#: about 50 MB, written in a few hundred MB of memory.
MAX_PAGE_TEXT = 8 << 20


class PageTooLarge(MancalaError, ValueError):
    """Records that hold more positions than one page shows
    (:data:`MAX_PAGE_POSITIONS`), or more text (:data:`MAX_PAGE_TEXT`, when
    ``text`` is given): ``number`` is the record that went past it (counted
    from 1), ``positions`` how many positions (or bytes of text) the records
    up to it hold."""

    def __init__(self, number: int, positions: int, single: bool = False, *, text: bool = False) -> None:
        self.number, self.positions = number, positions
        held = f"game {number} holds {positions:,}" if single else f"game {number} takes them to {positions:,}"
        if text:
            super().__init__(f"a page shows at most {MAX_PAGE_TEXT:,} bytes of tags, comments and moves, "
                             f"and {held}")
        else:
            super().__init__(f"a page shows at most {MAX_PAGE_POSITIONS:,} positions (starts and moves, "
                             f"variations too), and {held}")


def record_positions(record: GameRecord) -> int:
    """The positions ``record`` gives a page: its start and one a move,
    variations too (whether or not the moves can be played), counted
    without playing them.

        >>> from notation.pmn_reader import read_game
        >>> record_positions(read_game('[Game "kingulu"]\\n\\n1. c1 (1. d1 (1. e1) b2) d2 *\\n'))
        6
    """
    return 1 + sum(1 for step in walk(record) if step.kind == MOVE)


def _utf8(text: str | None) -> int:
    return 0 if not text else len(text.encode("utf-8", "surrogatepass"))


def record_text(record: GameRecord) -> int:
    """The bytes (UTF-8) of the text ``record`` gives a page: its tags, its
    comments and its moves, variations too.

        >>> from notation.pmn_reader import read_game
        >>> record_text(read_game('[Game "kingulu"]\\n\\n{Opening} 1. c1 {good} (1. d1) d2 *\\n'))
        28
    """
    total = _utf8(record.comment) + sum(_utf8(name) + _utf8(value) for name, value in record.tags)
    for step in walk(record):
        if step.kind == MOVE:
            node = step.node
            total += _utf8(node.hole) + _utf8(node.destination) + _utf8(node.comment) + _utf8(node.before)
    return total


def check_page_budget(number: int, positions: int, text: int, single: bool) -> None:
    """Raises :class:`PageTooLarge` when records up to record ``number``
    holding ``positions`` positions and ``text`` bytes of text are more than
    a page shows (``single``: that record alone)."""
    if positions > MAX_PAGE_POSITIONS:
        raise PageTooLarge(number, positions, single=single)
    if text > MAX_PAGE_TEXT:
        raise PageTooLarge(number, text, single=single, text=True)


def bounded_records(records: Iterable[GameRecord], *, first: int = 1) -> list[GameRecord]:
    """``records`` in a list, counted one by one as they come: raises
    :class:`PageTooLarge` as soon as they hold more positions or text than
    a page shows, so that nothing more is read and nothing is played.
    ``first`` is the number of the first record, for the message."""
    kept: list[GameRecord] = []
    total = text = 0
    for number, record in enumerate(records, first):
        total += record_positions(record)
        text += record_text(record)
        check_page_budget(number, total, text, not kept)
        kept.append(record)
    return kept


@dataclasses.dataclass(slots=True)
class PageGame:
    """One game of a page: its record, what replay found, and its nodes
    (the start first, then every move that could be played, in the order
    PMN writes them), each a dict of what the page shows there."""

    record: GameRecord
    report: Replay
    nodes: list[dict[str, Any]]
    moves_html: str


@dataclasses.dataclass(slots=True)
class Page:
    """The page's HTML (``""`` when no game could be drawn), its games, the
    first error of each record left out (``unplayable``), and how many moves
    it holds (``plies``: every move of every game that could be played,
    variations too)."""

    html: str
    games: list[PageGame]
    unplayable: list[Problem]

    @property
    def plies(self) -> int:
        return sum(len(game.nodes) - 1 for game in self.games)


def game_page(records: Iterable[GameRecord], *, default_game: str | None = None, flip: bool = False,
              numbers: Iterable[int] | None = None) -> Page:
    """The page of ``records`` (several give a game chooser). A record that
    cannot be replayed at all (no game, a bad ``Setup``) is left out; one
    with an illegal move shows the moves up to it, and its problems.
    ``numbers`` are the records' numbers in their file, for the chooser
    (the default: 1, 2, …). Records of more than :data:`MAX_PAGE_POSITIONS`
    positions or :data:`MAX_PAGE_TEXT` bytes of text raise
    :class:`PageTooLarge` before any is played."""
    games, unplayable, kept = [], [], []
    records = bounded_records(records)
    for k, record in zip(numbers if numbers is not None else itertools.count(1), records):
        game, problem = _page_game(record, default_game)
        if game is not None:
            games.append(game)
            kept.append(k)
        elif problem is not None:
            unplayable.append(problem)
    return Page(_html(games, flip, kept) if games else "", games, unplayable)


# -- the tree of positions ------------------------------------------------------------

def _page_game(record: GameRecord, default_game: str | None) -> tuple[PageGame | None, Problem | None]:
    """The game of ``record``, or the error that keeps it off the page."""

    twin = copy_record(record)
    report = replay(twin, default_game, fill_positions=True)
    if report.game is None or report.start is None:
        return None, report.stopped_by
    builder = _Tree(report.game, report.start, twin.tag("Coordinates") or "algebraic", report.outcome)
    visit(twin, builder, side=report.start.side, number=report.start.move_number)
    return PageGame(record, report, builder.nodes, builder.moves_html(twin, report)), None


class _Tree(Visitor[None]):
    """Plays every move that replay played (those with a position) from the
    position before it, keeping per depth the node reached, the repetition
    history and where the variations of the move just played start."""

    def __init__(self, game: Game, start: Position, style: str, outcome: Outcome | None) -> None:
        self.game = game
        self.style = style if style in STYLES else "algebraic"
        self.positions: list[Position] = [start]
        self.nodes: list[dict[str, Any]] = [self._node(None, start, None, None)]
        #: Per depth: the node the line has reached (None: the line stopped), its history.
        self.at: list[int | None] = [0]
        self.history: list[set[PositionKey]] = [set()]
        #: Per depth: where the variations of the last move start (its parent node and history).
        self.branch: list[tuple[int | None, set[PositionKey]]] = [(None, set())]
        #: The id of each played move node, by ``id()`` of its MoveNode.
        self.ids: dict[int, int] = {}
        self.main_end = 0
        self.outcome = outcome

    def begin_variation(self, step: Step) -> SkipType | None:
        parent, history = self.branch[step.depth - 1]
        if parent is None:
            return SKIP
        depth = step.depth
        if depth == len(self.at):
            self.at.append(parent)
            self.history.append(set(history))
            self.branch.append((None, set()))
        else:
            self.at[depth], self.history[depth] = parent, set(history)
        return None

    def visit_move(self, step: Step) -> None:
        depth, node = step.depth, step.node
        at = self.at[depth]
        if node.variations:
            self.branch[depth] = (at, set(self.history[depth])) if at is not None else (None, set())
        if at is None or node.position is None:
            self.at[depth] = None
            return
        game = self.game
        before = self.positions[at]
        origin = parse_hole(game.board, node.hole, self.style, step.side)
        history = self.history[depth]
        move, after = game.play(before, origin, history=history)
        if game.uses_history:
            history.add(before.key())
        text = format_position(game, after)
        assert text == node.position, (text, node.position)  # (the replay played the same move)
        over = game.outcome(after, history=history) if depth else None
        number = move_label(step.number, step.side)
        token = format_move(game.board, move, self.style, step.side, long_form=node.destination is not None)
        self.positions.append(after)
        self.ids[id(node)] = len(self.nodes)
        self.nodes.append(self._node(at, after, (move.origin, move.end), over, f"{number} {token}"))
        self.at[depth] = len(self.nodes) - 1
        if depth == 0:
            self.main_end = len(self.nodes) - 1

    def result(self) -> None:
        # The main line's last position: the engine's verdict where the rules ended the game.
        if self.outcome is not None:
            self.nodes[self.main_end].update(self._over(self.positions[self.main_end], self.outcome))

    def _node(self, parent: int | None, position: Position, move: tuple[int, int] | None,
              over: Outcome | None, label: str = "start") -> dict[str, Any]:
        game = self.game
        node: dict[str, Any] = {"u": parent, "h": list(position.holes), "b": [position.banks[0], position.banks[1]],
                      "p": format_position(game, position), "m": move, "l": label}
        if position.reserved:
            node["r"] = [[hole, game.reserver(hole)] for hole in sorted(position.reserved)]
        node.update(self._over(position, over))
        return node

    def _over(self, position: Position, over: Outcome | None) -> dict[str, Any]:
        """The side to move or the result, and the diagram's title."""
        game = self.game
        return {"t": default_title(game, position, over), "s": position.side,
                "o": None if over is None else result_words(over)}

    # -- the move list ---------------------------------------------------------------

    def moves_html(self, record: GameRecord, report: Replay) -> str:
        writer = _MoveList(self.ids)
        if record.comment:
            writer.comment(record.comment)
        visit(record, writer, side=report.start.side if report.start else "S",
              number=report.start.move_number if report.start else 1)
        writer.out.append(f'<span class="result">{html.escape(report.record.result or record.tag("Result") or "*")}'
                          "</span>")
        return "".join(writer.out)


class _MoveList(Visitor[None]):
    """The moves as HTML, as PMN writes them: each played move a button
    naming its node, variations in parentheses, comments and glyphs."""

    def __init__(self, ids: dict[int, int]) -> None:
        self.ids = ids
        self.out: list[str] = []
        self.number_next = True

    def comment(self, text: str) -> None:
        self.out.append(f'<span class="comment">{html.escape(text)}</span> ')
        self.number_next = True

    def begin_variation(self, step: Step) -> None:
        self.out.append('<span class="variation">( ')
        self.number_next = True

    def end_variation(self, step: Step) -> None:
        self.out.append(")</span> ")
        self.number_next = True

    def visit_move(self, step: Step) -> None:
        node = step.node
        if node.before:
            self.comment(node.before)
        if step.side == "S" or self.number_next:
            self.out.append(f'<span class="number">{move_label(step.number, step.side)}</span>')
        self.number_next = False
        key = self.ids.get(id(node))
        marks = marks_html(node.glyphs, node.nags)
        if key is None:
            self.out.append(f'<span class="move unplayed" title="not played: see the problems">'
                            f"{html.escape(node.text)}{marks}</span>")
        else:
            self.out.append(f'<button type="button" class="move" data-node="{key}">{html.escape(node.text)}{marks}'
                            "</button>")
        self.out.append(" ")
        if node.comment:
            self.comment(node.comment)

    def result(self) -> None:
        pass


#: The numeric annotation glyphs shown as their symbols (the PGN standard's
#: meanings, South for White and North for Black), with what they mean.
NAG_GLYPHS: dict[int, tuple[str, str]] = {
    1: ("!", "good move"), 2: ("?", "mistake"), 3: ("!!", "brilliant move"), 4: ("??", "blunder"),
    5: ("!?", "interesting move"), 6: ("?!", "dubious move"), 7: ("□", "only move"), 8: ("□", "only move"),
    10: ("=", "equal position"), 11: ("=", "equal chances, quiet position"),
    12: ("=", "equal chances, active position"), 13: ("∞", "unclear position"),
    14: ("⩲", "South is slightly better"), 15: ("⩱", "North is slightly better"),
    16: ("±", "South is better"), 17: ("∓", "North is better"),
    18: ("+−", "South is winning"), 19: ("−+", "North is winning"),
    22: ("⨀", "South is in zugzwang"), 23: ("⨀", "North is in zugzwang"),
    32: ("⟳", "South has the lead in development"), 33: ("⟳", "North has the lead in development"),
    36: ("↑", "South has the initiative"), 37: ("↑", "North has the initiative"),
    40: ("→", "South has the attack"), 41: ("→", "North has the attack"),
    44: ("=∞", "South has compensation"), 45: ("=∞", "North has compensation"),
    132: ("⇆", "South has counterplay"), 133: ("⇆", "North has counterplay"),
    138: ("⨁", "South is in time trouble"), 139: ("⨁", "North is in time trouble"),
    140: ("∆", "with the idea"), 146: ("N", "novelty"),
}
#: The glyphs of a move's quality (and their NAGs): joined to the move; the others follow a thin space.
_MOVE_MARKS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}


def marks_html(glyphs: Iterable[str], nags: Iterable[int]) -> str:
    """A move's glyphs (``!?``) and NAGs as symbols (``$6`` as ``?!``, ``$14``
    as ``⩲``; one without a symbol as ``$N``) in one ``<span class="glyph">``
    to write right after the move, each with its meaning as a title::

        >>> marks_html(["!?"], [14])
        '<span class="glyph"><abbr title="interesting move">!?</abbr>\u2009<abbr title="South is slightly better">⩲</abbr></span>'
    """
    marks = [(glyph, NAG_GLYPHS[_MOVE_MARKS[glyph]][1] if glyph in _MOVE_MARKS else glyph) for glyph in glyphs]
    marks += [NAG_GLYPHS.get(nag, (f"${nag}", f"annotation ${nag}")) for nag in nags]
    parts: list[str] = []
    for symbol, meaning in marks:
        mark = f'<abbr title="{html.escape(meaning)}">{html.escape(symbol)}</abbr>'
        parts.append(mark if symbol in _MOVE_MARKS and not parts else f"\u2009{mark}")
    return f'<span class="glyph">{"".join(parts)}</span>' if parts else ""


# -- the page ---------------------------------------------------------------------------

def _template_text() -> str:
    return resources.files("mancala_cli.diagrams").joinpath("page.html").read_text(encoding="utf-8")


def _json(value: object) -> str:
    """JSON that is safe inside ``<script>``: no ``<``, ``>`` or ``&`` as such
    (so no ``</script>`` or ``<!--``), nor the line separators U+2028/U+2029."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _problem_text(problem: Problem) -> str:
    """``line 14, column 40: error: 2... c2x9: KG-ORIGIN: message``."""
    where = f"line {problem.line}, column {problem.column}: " if problem.line is not None else ""
    move = f"{problem.move}: " if problem.move is not None else ""
    return f"{where}{problem.severity}: {move}{problem.code}: {problem.message}"


def _header(record: GameRecord, game: Game) -> str:
    title = record.tag("Event") or game.name
    players = _players(record)
    if players:
        title += f": {players}"
    rows = [("Game", game.name)] + [(name, value) for name, value in record.tags if name != "Game"]
    cells = "".join(f"<dt>{html.escape(name)}</dt><dd>{html.escape(value)}</dd>" for name, value in rows)
    return f"<h2>{html.escape(title)}</h2><dl class=\"tags\">{cells}</dl>"


def _html(games: list[PageGame], flip: bool, numbers: list[int]) -> str:
    diagrams: dict[str, int] = {}
    svgs: list[str] = []
    geometry: list[dict[str, Any]] = []
    data: list[dict[str, Any]] = []
    sections = []
    for k, page_game in enumerate(games):
        report = page_game.report
        rules, start = report.game, report.start
        assert rules is not None and start is not None
        if rules.id not in diagrams:
            diagrams[rules.id] = len(svgs)
            svg = board_svg(rules, start, flip=flip)
            svgs.append(svg[svg.index("<svg"):])
            geometry.append(page_geometry(rules, flip))
        data.append({"diagram": diagrams[rules.id], "nodes": page_game.nodes})
        problems = sorted(report.problems, key=lambda p: (p.line is None, p.line or 0, p.column or 0))
        listed = "".join(f"<li class=\"{p.severity}\">{html.escape(_problem_text(p))}</li>" for p in problems)
        problem_box = (f'<section class="problems" aria-label="Problems"><h3>Problems</h3><ul>{listed}</ul>'
                       "</section>") if problems else ""
        sections.append(f'<section class="game" id="game-{k}" data-game="{k}"{"" if k == 0 else " hidden"}>'
                        f"<header>{_header(page_game.record, rules)}</header>{problem_box}"
                        f'<div class="moves" aria-label="Moves">{page_game.moves_html}</div></section>')
    if len(games) > 1:
        labels = [_choice_name(number, g.record) for number, g in zip(numbers, games)]
        options = "".join(f'<option value="{k}">{html.escape(label)}</option>' for k, label in enumerate(labels))
        chooser = (f'<p class="chooser"><label for="chooser">Game</label> <select id="chooser" '
                   f'aria-describedby="chooser-help">{options}</select> <span class="help" id="chooser-help">'
                   "↑ ↓ show another game; Enter goes to its moves.</span></p>")
    else:
        chooser = ""
    first = games[0].record
    title = first.tag("Event") or (games[0].report.game.name if games[0].report.game else "Game")
    if len(games) > 1:
        title = _archive_title(games)
    # The first game's diagram is in the page; the others' wait in templates.
    templates = "".join(f'<template class="diagram" data-diagram="{k}">{svg}</template>'
                        for k, svg in enumerate(svgs) if k != 0)
    parts = {
        "{{title}}": html.escape(title),
        "{{chooser}}": chooser,
        "{{games}}": "".join(sections),
        "{{diagram}}": svgs[0],
        "{{legend}}": _legend(games),
        "{{templates}}": templates,
        "{{data}}": _json({"geometry": geometry, "games": data}),
    }
    # One pass: a marker written in a tag or comment is text, not a marker.
    return re.sub(r"\{\{[a-z]+\}\}", lambda match: parts[match.group()], _template_text())


def _legend(games: list[PageGame]) -> str:
    """What the rings the page can draw mean (the last move's origin and
    end where a game has a move, reserved holes where a position has one):
    a list below the board, each ring drawn before its words; ``""`` when
    no position of the page has a ring."""
    drawn: set[str] = set()
    for page_game in games:
        for node in page_game.nodes:
            if node["m"] is not None:
                drawn.update(("last-origin", "last-end"))
            for _, reserver in node.get("r", ()):
                drawn.add("reserved-by-south" if reserver == "S" else "reserved-by-north")
    entries = "".join(f'<li class="{kind}">{legend_sample(kind)} {html.escape(meaning)}</li>'
                      for kind, meaning in RING_MEANINGS.items() if kind in drawn)
    return f'<ul class="legend" id="legend" aria-label="What the rings mean">{entries}</ul>' if entries else ""


def _archive_title(games: list[PageGame]) -> str:
    """``Morogoro kingulu cup — 4 games``: the events of an archive's page (the
    first two, ``…`` for more), or its games' names when no game names one."""
    events: list[str] = []
    for page_game in games:
        event = (page_game.record.tag("Event") or "").strip()
        if event.strip("?- ") and event not in events:
            events.append(event)
    if not events:
        events = list(dict.fromkeys(g.report.game.name for g in games if g.report.game is not None))
    named = ", ".join(events[:2]) + (", …" if len(events) > 2 else "")
    return f"{named} — {len(games)} games"


def _players(record: GameRecord) -> str | None:
    """``South – North``, or ``None`` when neither is known."""
    south, north = record.tag("South") or "?", record.tag("North") or "?"
    return None if south == north == "?" else f"{south} – {north}"


def _choice_name(number: int, record: GameRecord) -> str:
    """``3. Baraka – Neema (Morogoro kingulu cup, round 2)``: what the chooser lists."""
    round_ = record.tag("Round")
    parts = [record.tag("Event") or "", f"round {round_}" if round_ not in (None, "?", "-") else ""]
    where = ", ".join(part for part in parts if part)
    words = [f"{number}.", _players(record) or "", f"({where})" if where else ""]
    return " ".join(word for word in words if word)
