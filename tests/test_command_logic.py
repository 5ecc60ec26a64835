"""What the commands' modules hand to the library: a solve stopped by
signals and its exit status (``solving.stopping``), ``annotate``'s summary
and progress line and its proofs among the inputs, ``filter``'s options that
do not go together; each called as a Python user would call it."""
from __future__ import annotations

import io
import os
import pathlib
import signal
import sys

import pytest

from mancala_cli import get_game, parse_position
from mancala_cli.batch.annotating import AnnotateTotals, AnnotateWatch
from mancala_cli.batch.filtering import filter_conflict
from mancala_cli.cli.progress import SolveProgress, on_terminal
from mancala_cli.files.output import same_file
from mancala_cli.solving.engine_facts import Annotated
from mancala_cli.solving.proofs import ProofBook, proofs_among
from mancala_cli.solving.search import Solver
from mancala_cli.solving.stopping import (
    SOLVE_STOPPED,
    Solved,
    StopSignals,
    cluster_conflict,
    exit_status,
    solve_here,
)

ROOT = pathlib.Path(__file__).resolve().parents[1]
ENDING = "0,0,0,0,3,2/1,0,0,0,0,2 S 20-20 12"


# -- solve ---------------------------------------------------------------------------

def test_a_solve_here_gives_its_solution_and_lets_its_table_go():
    game = get_game("kingulu")
    solver = Solver(game)
    before = signal.getsignal(signal.SIGINT)  # (ignored where the suite runs in a background job)
    solved = solve_here(solver, parse_position(game, ENDING), depth=1)
    assert (solved.signal, solved.solution.stopped, solved.solution.bounds) == (None, "depth", ("loss", "win"))
    assert solved == Solved(solved.solution)
    assert solver.table == {}
    whole = solve_here(Solver(game), parse_position(game, ENDING))
    assert (whole.signal, whole.solution.result, whole.solution.stopped) == (None, "win", None)
    assert signal.getsignal(signal.SIGINT) is before  # the handler of before the solve, back


def test_a_solve_here_takes_what_it_leaves_unknown_from_the_proofs():
    game = get_game("kingulu")
    start = game.start()
    alone = solve_here(Solver(game), start, depth=1)
    assert (alone.solution.result, alone.solution.stopped) == ("unknown", "depth")
    # The start's proof gives its result; with the proofs of the other first moves, every move is decided.
    start_only = solve_here(Solver(game), start, depth=1,
                            proofs=ProofBook.read([str(ROOT / "docs" / "kingulu-proof.txt.xz")]))
    assert (start_only.solution.result, start_only.solution.stopped) == ("win", "depth")
    book = ProofBook.read([str(path) for path in sorted((ROOT / "docs").glob("kingulu-proof*.txt.xz"))])
    proven = solve_here(Solver(game), start, depth=1, proofs=book)
    assert (proven.solution.result, proven.solution.stopped) == ("win", None)
    assert proven.solution.moves == book.proven(game, start).moves
    assert proven.solution.nodes == alone.solution.nodes
    assert exit_status(proven.solution) == 0 and exit_status(alone.solution) == 3


def test_a_stop_signal_stops_the_search_not_the_process():
    stopped = []
    before = signal.getsignal(signal.SIGTERM)
    with StopSignals(lambda: stopped.append(True), (signal.SIGINT, signal.SIGTERM)) as stopping:
        os.kill(os.getpid(), signal.SIGTERM)
        os.kill(os.getpid(), signal.SIGINT)
    assert (stopped, stopping.received) == ([True, True], [signal.SIGTERM, signal.SIGINT])
    assert signal.getsignal(signal.SIGTERM) is before


class _Stopped:
    def __init__(self, stopped):
        self.stopped = stopped


@pytest.mark.parametrize("stopped, signum, status", [
    (None, None, 0), ("time", None, SOLVE_STOPPED), ("nodes", None, 3), ("depth", signal.SIGINT, 3),
    ("interrupted", None, 130), ("interrupted", signal.SIGTERM, 143), ("interrupted", signal.SIGHUP, 129),
])
def test_the_exit_status_says_how_a_solve_ended(stopped, signum, status):
    assert exit_status(_Stopped(stopped), signum) == status


@pytest.mark.parametrize("given, message", [
    ({}, None),
    ({"proofs": []}, None),
    ({"depth": 3}, "--depth and --nodes do not go with --scheduler (its tasks have node budgets of their own); "
                   "give --time"),
    ({"nodes": 3, "table": "t"}, "--depth and --nodes do not go with --scheduler (its tasks have node budgets of "
                                 "their own); give --time"),
    ({"tablebase": "x.tb", "table": "t"}, "--tablebase does not go with --scheduler (the workers would each need "
                                          "the file)"),
    ({"table": "t", "proofs": ["p"]}, "--table does not go with --scheduler (each task has a table of its own)"),
    ({"proofs": ["p"]}, "--proof does not go with --scheduler"),
])
def test_what_a_cluster_solve_does_not_take(given, message):
    assert cluster_conflict(**given) == message


# -- annotate ------------------------------------------------------------------------

def test_the_summary_line_of_annotate():
    assert AnnotateTotals(games=2, searched=16, proven=15, marks=9, nodes=4021).summary() == \
        "2 games, 16 positions searched (4,021 nodes), 15 proven, 9 marks added"
    assert AnnotateTotals(games=1, searched=1, proven=0, marks=1, nodes=1).summary() == \
        "1 game, 1 position searched (1 node), 0 proven, 1 mark added"


class _Shown(AnnotateWatch):
    def __init__(self):
        super().__init__()
        self.lines = []

    def show(self, line):
        self.lines.append(line.rpartition(", ")[0])  # (without the time taken)


class _Picked:
    def __init__(self, searched, proven, marks):
        self.searched, self.proven, self.marks = searched, proven, marks


def test_the_progress_line_counts_positions_at_once_and_games_as_they_come_back():
    watch = _Shown()
    watch.file("-")
    watch.position(1, 2, Annotated(None, None, searched=1, proven=1, marks=0))
    watch.position(2, 2, Annotated(None, None, searched=2, proven=1, marks=1))
    totals = AnnotateTotals()
    totals.add(_Picked(2, 1, 1))
    watch.game(1, _Picked(2, 1, 1), totals)
    watch.file("folder/next.pmn")
    watch.position(1, 3, Annotated(None, None, searched=1, proven=0, marks=0))
    assert watch.lines == [
        "annotating: <stdin> game 1, position 1 of 2; 1 position searched, 1 proven, 0 marks",
        "annotating: <stdin> game 1, position 2 of 2; 2 positions searched, 1 proven, 1 mark",
        "annotating: <stdin>, 1 game done; 2 positions searched, 1 proven, 1 mark",
        "annotating: next.pmn game 1, position 1 of 3; 3 positions searched, 1 proven, 1 mark",
    ]


def test_the_proofs_among_the_inputs_join_the_proofs():
    proof = str(ROOT / "docs" / "kingulu-proof-f1.txt.xz")
    game = str(ROOT / "examples" / "kingulu-village-match.pmn")
    assert proofs_among([game, proof, "-", "missing.pmn"], ["given.txt"]) == (
        [game, "-", "missing.pmn"], ["given.txt", proof])
    assert proofs_among([game], []) == ([game], [])


# -- filter --------------------------------------------------------------------------

@pytest.mark.parametrize("given, message", [
    ({}, None),
    ({"dedupe": True, "duplicates": "dropped.pmn", "output": "kept.pmn", "count": False}, None),
    ({"count": True, "dedupe": True, "duplicates": "dropped.pmn"}, None),
    ({"valid": True, "invalid": True, "min_plies": 9, "max_plies": 1}, "give --valid or --invalid, not both"),
    ({"min_plies": 9, "max_plies": 1}, "--min-plies 9 is more than --max-plies 1"),
    ({"min_plies": 1, "max_plies": 1, "duplicates": "d.pmn"}, "--duplicates needs --dedupe"),
    ({"count": True, "output": "-"}, "--count prints a number: give --count or -o, not both"),
    ({"dedupe": True, "duplicates": "same.pmn", "output": "same.pmn"}, "--duplicates and -o name the same file"),
    ({"dedupe": True, "duplicates": "-"}, "--duplicates - and the games written would both go to standard output: "
                                          "give --duplicates FILE or -o FILE"),
    ({"dedupe": True, "duplicates": "-", "count": True}, "--duplicates - and the count would both go to standard "
                                                         "output: give --duplicates FILE"),
])
def test_what_filters_options_do_not_take_together(given, message):
    assert filter_conflict(**given) == message


def test_one_file_under_two_names(tmp_path):
    real = tmp_path / "games.pmn"
    real.write_text("", encoding="utf-8")
    link = tmp_path / "link.pmn"
    link.symlink_to(real)
    assert same_file(str(real), str(link)) and same_file(str(link), str(real))
    assert not same_file(str(real), str(tmp_path / "other.pmn"))
    assert not same_file(str(tmp_path), str(tmp_path))  # (a folder is no regular file)
    assert filter_conflict(dedupe=True, duplicates=str(link), output=str(real)) == \
        "--duplicates and -o name the same file"


# -- the status line on a terminal -------------------------------------------------------

class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_status_line_is_cleared_before_an_error_is_told(monkeypatch):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    with pytest.raises(OSError):
        with on_terminal(SolveProgress) as progress:
            assert progress is not None
            progress(3, 93, 0.25)
            raise OSError("the table's folder is gone")
    terminal.write("mancala: error: the table's folder is gone\n")  # what the command then writes
    assert terminal.getvalue() == ("\r\x1b[Ksolving: depth 3 done, 93 nodes, 0.2 s\r\x1b[K"
                                   "mancala: error: the table's folder is gone\n")
    # Not a terminal: no status line at all.
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    with on_terminal(SolveProgress) as progress:
        assert progress is None
    assert sys.stderr.getvalue() == ""
