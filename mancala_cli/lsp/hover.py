"""What hovering over a move shows (:func:`hover`): the move, its outcome
marks explained with the rules behind them (:func:`outcome_marks`, which
completion shows too), its problems, and the positions before and after
it as text boards and SVG diagrams.
"""
from __future__ import annotations

import base64

from notation.coords import move_label

from .. import Game as Rules, GamePosition, Line, Move, Position, svg, text
from .analysis import Document, problem_message
from .answers import HoverInfo, Span
from .replay import GameView, MoveInfo, TooManyMoves, view

__all__ = ["hover", "outcome_marks"]


def outcome_marks(rules: Rules, move: Move) -> list[str]:
    """What the move's outcome marks say, with the rules behind them."""
    out = []
    if move.captured:
        n = move.captured
        if rules.id == "kingulu":
            out.append(f"`x{n}`: the lap ended in an empty hole of the mover's row: the {n} seed{_s(n)} of the "
                       "facing hole and the capturing seed go to the store (KG-5)")
        elif rules.id == "kimasai-mackay":
            out.append(f"`x{n}`: cattle raids took {n} seed{_s(n)} in all from the opponent's holes facing "
                       "the laps' ends, sown on from there (KM-8)")
        elif rules.id == "kimasai-klamroth":
            what = "the opposite front stone" if n == 1 else "the opposite front stone and the one behind it"
            out.append(f"`x{n}`: stepping into the front row captured {what} (KK-3)")
        else:
            out.append(f"`x{n}`: the move took {n}")
    if move.reserved:
        out.append("`^`: the lap ended in an unreserved hole of the opponent that held 3 seeds: it is reserved "
                   "(kuweka mtoto): never lifted again, its seeds the mover's (KG-4, KG-6)")
    if not out:
        out.append("no outcome mark: the move takes nothing" + (" and reserves no hole" if rules.has_reserved_holes
                                                                 else ""))
    return out


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def _board(rules: Rules, position: Position, move: Move | None, title: str, markdown: bool,
           images: bool) -> list[str]:
    board = str(text(GamePosition(rules, position), last_move=move))
    if not markdown:
        return [f"{title}:", board, ""]
    out = [f"**{title}**", "", "```text", board, "```", ""]
    if images:
        picture = str(svg(GamePosition(rules, position), last_move=move, title=title))
        encoded = base64.b64encode(picture.encode("utf-8")).decode("ascii")
        out += [f"![{title}](data:image/svg+xml;base64,{encoded})", ""]
    return out


def hover(doc: Document, line0: int, column0: int, *, markdown: bool = True, images: bool = True) -> HoverInfo | None:
    """What hovering at the place shows: for a move, the move (number, side,
    ply), its outcome marks explained with their rule ids, its problems
    (rule ids and messages), and the positions before and after it as text
    boards (and, with ``markdown`` and ``images``, as SVG diagrams). In a
    game of more moves than :data:`~.replay.MAX_VIEW_MOVES`, anywhere, that
    it is not replayed (:class:`~.replay.TooManyMoves`'s words)."""
    if doc.too_large:
        return None
    game = doc.game_at(line0)
    if game is None:
        return None
    try:
        seen = view(doc, game)
    except TooManyMoves as error:
        return HoverInfo(f"{error}\n", Span(line0, 0, line0, len(doc.line(line0))), markdown)
    info = seen.move_at(line0, column0)
    return None if info is None else _about(seen, info, markdown, images)


def _about(seen: GameView, info: MoveInfo, markdown: bool, images: bool) -> HoverInfo:
    """The hover of the move of ``info``."""
    rules = seen.rules
    written = info.node.text
    label = move_label(info.number, info.side)
    who = "South" if info.side == "S" else "North"
    where = "main line" if info.depth == 0 else f"variation, depth {info.depth}"
    bold = "**" if markdown else ""
    out = [f"{bold}{label} {written}{bold} — {who}'s move, ply {info.ply} ({where})", ""]
    if rules is not None and info.move is not None:
        played = str(Line(rules, info.before).token(info.move, seen.style,
                                                   long_form=info.node.destination is not None))
        if played != written:
            out += [f"written {written}, but the move is {played}", ""]
        out += [f"- {line}" if markdown else f"- {line}".replace("`", "") for line in outcome_marks(rules, info.move)]
        if rules.id != "kimasai-klamroth":
            out.append(f"- sown in {info.move.laps} lap{_s(info.move.laps)}")
        out.append("")
    for problem in info.problems:
        out += [f"- {bold}{problem.code}{bold} ({problem.severity}): {problem_message(problem)}"]
    if info.problems:
        out.append("")
    if rules is not None and info.before is not None:
        out += _board(rules, info.before, None, "Before", markdown, images)
    if rules is not None and info.after is not None:
        out += _board(rules, info.after, info.move, "After", markdown, images)
        ended = GamePosition(rules, info.after).outcome()
        if ended is not None:
            out.append(f"The game ends: {ended.result} ({ended.reason}: {ended.message})")
    return HoverInfo("\n".join(out).rstrip() + "\n", Span(info.line, info.column, info.line, info.end), markdown)
