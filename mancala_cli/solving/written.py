"""A solution as ``mancala solve`` writes it: a line per move with its
result and a result line, or one JSON object (:func:`solution_text`)."""
from __future__ import annotations

import json
from typing import Any

from notation.coords import format_move
from notation.position_strings import format_position

from ..rules.game import Game, Move
from ..rules.position import Position

__all__ = ["solution_text"]


def _interval(low: str, high: str) -> str:
    """A result as ``solve`` writes it: ``win``, or ``unknown`` with what is
    known of it (``unknown (draw or win)``)."""
    if low == high:
        return low
    if (low, high) == ("loss", "win"):
        return "unknown"
    return f"unknown ({low} or {high})"


_STOPPED_TEXT = {"time": "stopped by the time limit", "nodes": "stopped by the node limit",
                 "depth": "stopped at the depth limit", "interrupted": "interrupted"}


def solution_text(rules: Game, start: Position, solution: Any, format: str = "text") -> str:
    """``solution`` of ``start`` (a :class:`~.search_result.SearchResult`, or the
    cluster's :class:`~.cluster.ClusterSolution`) as ``mancala solve``
    writes it: a line per move and the result line (``format="text"``), or
    one JSON object (``format="json"``), each line ended.

        >>> from mancala_cli import get_game, parse_position
        >>> from mancala_cli.solving.search import Solver
        >>> game = get_game("kingulu")
        >>> start = parse_position(game, "0,0,0,0,3,2/1,0,0,0,0,2 S 20-20 12")
        >>> print(solution_text(game, start, Solver(game).solve(start)).splitlines()[0])
        a1: loss
    """
    def text(move: Move) -> str:
        return format_move(rules.board, move, "algebraic", start.side)

    if format == "json":
        return _solution_json(rules, start, solution, text) + "\n"
    lines = [f"{text(move)}: {_interval(*bounds)}" for (move, result), bounds in zip(solution.moves,
                                                                                   solution.move_bounds)]
    over = solution.outcome
    if over is not None:
        lines.append(f"{solution.result} (the game is over: {over.result}, {over.reason}: {over.message})")
    else:
        lines.append(f"{_interval(*solution.bounds)} ({'; '.join(_result_notes(solution, text))})")
    return "".join(line + "\n" for line in lines)


def _solution_json(rules: Game, start: Position, solution: Any, text: Any) -> str:
    """``solve --format json``: the solution as one JSON object."""
    low, high = solution.bounds
    over = solution.outcome
    return json.dumps({
        "game": rules.id, "position": format_position(rules, start), "result": solution.result,
        "best": [text(move) for move in solution.best],
        "moves": [{"move": text(move), "result": result, "low": bounds[0], "high": bounds[1]}
                  for (move, result), bounds in zip(solution.moves, solution.move_bounds)],
        "nodes": solution.nodes, "seconds": round(solution.seconds, 3),
        "low": low, "high": high, "complete": solution.complete, "stopped": solution.stopped,
        "depth": solution.depth,
        "over": None if over is None else {"result": over.result, "reason": over.reason, "message": over.message},
        **({} if not hasattr(solution, "tasks") else
           {"pv": [text(move) for move in solution.pv], "tasks": solution.tasks, "split": solution.split})},
        ensure_ascii=False)


def _result_notes(solution: Any, text: Any) -> list[str]:
    """What the result line says after the result: the best moves, how the
    search ended, the cluster's tasks (``--scheduler``), depth, nodes, time."""
    parts = []
    if solution.best:
        parts.append("best: " + " ".join(text(move) for move in solution.best))
    if solution.stopped is not None:
        parts.append(_STOPPED_TEXT[solution.stopped])
    elif solution.result == "unknown":
        parts.append("unproven: lines that never end")
    else:
        parts.append("proven")
    if hasattr(solution, "tasks"):  # (solve --scheduler)
        if solution.pv:
            parts.append("pv: " + " ".join(text(move) for move in solution.pv))
        parts.append(f"{solution.tasks} task{'' if solution.tasks == 1 else 's'} at {solution.split} "
                     f"pl{'y' if solution.split == 1 else 'ies'}")
    nodes = solution.nodes
    parts.append(f"depth {solution.depth}, {nodes:,} node{'' if nodes == 1 else 's'}, {solution.seconds:.2f} s")
    return parts
