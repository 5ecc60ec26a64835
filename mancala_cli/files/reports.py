"""The reporters: what the command line prints of a check. Checking returns
data (:class:`~notation.record.Problem`\\ s); these turn it into the lines
of ``validate`` and ``convert`` (``FILE:LINE:COL: error: …``) and into the
objects of ``validate --format json``, adding the command line's own advice
where a problem calls for it.
"""
from __future__ import annotations

from typing import Any

from notation.coords import move_label
from notation.record import Problem


def counted(number: int, noun: str, *, grouped: bool = False) -> str:
    """``1 game``, ``2 games``, ``0 errors``; ``grouped``: ``1,024 nodes``."""
    return f"{number:{',' if grouped else ''}} {noun}{'' if number == 1 else 's'}"

__all__ = ["sorted_problems", "problem_line", "error_lines", "problem_json", "game_report", "report_line",
           "report_json"]

#: What the command line adds to a library message: how to fix it here.
_ADVICE = {("unknown-game", "no Game tag"): "no Game tag (give the game with --game)"}


def message(problem: Problem) -> str:
    """The problem's message as the command line says it."""
    return _ADVICE.get((problem.code, problem.message), problem.message)


def sorted_problems(problems: list[Problem]) -> list[Problem]:
    """By where they are (problems without a line last), otherwise in the order found."""
    return sorted(problems, key=lambda p: (p.line is None, p.line or 0, p.column or 0))


def move_place(problem: Problem) -> str:
    """The move a problem is about, as ``4... c1: `` (``ply 7 (c1): `` where
    its position is not known), or nothing."""
    if problem.ply is None or problem.move is None:
        return ""
    fields = (problem.position or "").split()
    if len(fields) == 4:
        return f"{move_label(fields[3], fields[1])} {problem.move}: "
    return f"ply {problem.ply} ({problem.move}): "


def position_note(problem: Problem) -> str:
    """`` [position …; legal: …]`` after an illegal move's message, or nothing."""
    if problem.position is None or problem.legal is None:
        return ""
    return f" [position {problem.position}; legal: {' '.join(problem.legal) or 'none'}]"


def problem_line(path: str, problem: Problem) -> str:
    """``FILE:LINE:COL: error: 4... c1: KG-ORIGIN: message [position …; legal: …]``."""
    return (f"{path}:{problem.line or 0}:{problem.column or 0}: {problem.severity}: "
            f"{move_place(problem)}{problem.code}: {message(problem)}{position_note(problem)}")


def error_lines(path: str, problems: list[Problem]) -> list[str]:
    """The lines of the errors among ``problems`` (:func:`problem_line`),
    in file order (:func:`sorted_problems`)."""
    return [problem_line(path, problem) for problem in sorted_problems(problems) if problem.severity == "error"]


def unwritable_line(path: str, index: int | None, unwritable: tuple[int, str]) -> str:
    """``FILE:LINE:0: error: unwritable: game N: reason``: game ``index``
    cannot be written in the format asked for (its ``(line, reason)``), and
    is left out."""
    line, reason = unwritable
    return f"{path}:{line}:0: error: unwritable: game {index}: {reason}"


def problem_json(problem: Problem) -> dict[str, Any]:
    """A problem as ``validate --format json`` writes it."""
    out: dict[str, Any] = {"severity": problem.severity, "line": problem.line, "column": problem.column,
                           "ply": problem.ply, "move": problem.move, "rule": problem.code,
                           "message": message(problem)}
    if problem.position is not None:
        out["position"] = problem.position
    if problem.legal is not None:
        out["legal"] = problem.legal
    return out


def game_report(file: str, line: int | None, game: str | None, plies: int, result: str | None, valid: bool,
                problems: list[Problem]) -> dict[str, Any]:
    """One game's object of ``validate --format json``; its ``index`` is
    given when games are numbered in input order (:func:`report_line`)."""
    return _report(file, line, game, plies, result, valid, [problem_json(p) for p in problems])


def _report(file: str, line: int | None, game: str | None, plies: int, result: str | None, valid: bool,
            problems: list[dict[str, Any]]) -> dict[str, Any]:
    return {"file": file, "index": None, "line": line, "game": game, "plies": plies, "result": result,
            "valid": valid, "problems": problems}


def report_line(report: dict[str, Any], index: int | None, *, ensure_ascii: bool = False) -> str:
    """The JSON line of a game's report, numbered ``index``."""
    import json  # (local: not for plain validate, which loads this module; docs/performance.md, 'Start-up')

    report["index"] = index
    return json.dumps(report, ensure_ascii=ensure_ascii)


def report_json(file: str, line: int | None, game: str | None, plies: int, result: str | None, valid: bool,
                problems: list[dict[str, Any]], ensure_ascii: bool = True) -> str:
    """A line of ``validate --format json`` with ``"index": null`` (a file that
    cannot be read)."""
    return report_line(_report(file, line, game, plies, result, valid, problems), None, ensure_ascii=ensure_ascii)
