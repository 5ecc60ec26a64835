"""``mancala solve``: a position's result with best play
(:class:`mancala_cli.solving.search.Solver`, or
:class:`mancala_cli.solving.cluster_search.ClusterSolver` on a Dask cluster),
stopped by signals as :mod:`mancala_cli.solving.stopping` runs it."""
from __future__ import annotations

from typing import Optional

import typer

from ..files.output import OutputError
from ..rules.game import Game
from ..rules.position import Position
from ..solving.cluster_search import ClusterSolveError, ClusterSolver
from ..solving.proofs import ProofError
from ..solving.search import Solver
from ..solving.stopping import Solved, cluster_conflict, exit_status, solve_here, solve_on_cluster
from ..solving.table_file import TableFileError
from ..solving.written import solution_text
from .engine_options import proof_book, tablebase_file
from .options import (
    GAME_OPTION,
    POSITION_OPTION,
    SCHEDULER_TIMEOUT_OPTION,
    choice_option,
    fail,
    game_rules,
    position_of,
)
from .progress import ClusterProgress, SolveProgress, on_terminal
from .reading import cluster_for, no_scheduler_timeout
from .solve_options import (
    DEPTH_OPTION,
    MEMORY_OPTION,
    MORE_PROOFS_ARGUMENT,
    NODES_OPTION,
    PROOF_OPTION,
    SCHEDULER_OPTION,
    TABLE_OPTION,
    TABLEBASE_OPTION,
    TIME_OPTION,
)
from .streams import end_now


def solve(
    game: str = GAME_OPTION,
    position: Optional[str] = POSITION_OPTION,
    depth: Optional[int] = DEPTH_OPTION,
    nodes: Optional[int] = NODES_OPTION,
    time: float = TIME_OPTION,
    memory: int = MEMORY_OPTION,
    format: str = choice_option("text", "--format", "-f", values=("text", "json"), help="Output format."),
    scheduler: Optional[str] = SCHEDULER_OPTION,
    scheduler_timeout: float = SCHEDULER_TIMEOUT_OPTION,
    tablebase: Optional[str] = TABLEBASE_OPTION,
    table: Optional[str] = TABLE_OPTION,
    proof: Optional[list[str]] = PROOF_OPTION,
    more_proofs: Optional[list[str]] = MORE_PROOFS_ARGUMENT,
) -> None:
    """Solve a position: the result with best play for the side to move (win,
    draw or loss; unknown where the limits leave it unproven), one line per
    move with its result, then the result and the best moves. On a terminal,
    standard error shows the search under way.

    A limit (--time, --nodes, --depth) or Ctrl-C prints what is known so far:
    each move's result or interval, the depth reached and why the search
    stopped. Exit status 0 when the search ran to its end, 3 when a limit
    stopped it, 130 after Ctrl-C.

    With --scheduler the tree is split into tasks for a Dask cluster, with
    the same results (docs/scale-out.md).

    With --table FILE, a search cut short (a limit, Ctrl-C, SIGTERM) saves its
    table, and the next run with the same FILE goes on from there.

    With --proof FILE, what the search leaves unknown is taken from the proof
    where it covers it; a position whose every move the proof decides is not
    searched at all. The files after it are proof files too: --proof
    docs/kingulu-proof*.txt.xz gives every shipped proof.

    Example: mancala solve --game kingulu --position "0,0,0,0,3,2/1,0,0,0,0,2 S 20-20 12"
    """
    if more_proofs:
        if not proof:
            fail(f"{more_proofs[0]}: solve reads no input files (proof files go after --proof: "
                 "--proof FILE [PROOF]...)")
        proof = [*proof, *more_proofs]
    rules = game_rules(game)
    start = position_of(rules, position)
    if scheduler is not None:
        if conflict := cluster_conflict(depth=depth, nodes=nodes, tablebase=tablebase, table=table, proofs=proof):
            fail(conflict)
        solved = _solve_on_cluster(rules, start, scheduler, scheduler_timeout, time, memory)
    else:
        no_scheduler_timeout()
        solved = _solve_here(rules, start, depth, nodes, time, memory, tablebase, table, proof)
    typer.echo(solution_text(rules, start, solved.solution, format), nl=False)
    raise typer.Exit(exit_status(solved.solution, solved.signal))


def _solve_here(rules: Game, start: Position, depth: Optional[int], nodes: Optional[int], time: float, memory: int,
                tablebase: Optional[str], table: Optional[str], proofs: Optional[list[str]]) -> Solved:
    """``solve`` in this process (:func:`~mancala_cli.solving.stopping.solve_here`):
    the search, its errors as one line."""
    book = proof_book(proofs)
    try:
        proven = None if book is None else book.proven(rules, start)
    except ProofError as error:
        fail(str(error))
    if proven is not None:  # (every move decided by the proofs: nothing to search)
        return Solved(proven)
    solver = Solver(rules, memory=memory, tablebase=tablebase_file(tablebase))
    try:
        with on_terminal(SolveProgress) as progress:
            return solve_here(solver, start, depth=depth, nodes=nodes, seconds=time, progress=progress,
                              table=table, proofs=book)
    except TableFileError as error:
        fail(f"{table}: {error}", 1)
    except (OutputError, ProofError) as error:
        fail(str(error))
    except OSError as error:
        fail(f"{table}: {error.strerror or error}")
    except (MemoryError, SystemError):
        # (Under an address-space limit, CPython reports some failed
        # allocations deep in the search as a SystemError, "error return
        # without exception set", instead of a MemoryError.)
        typer.echo(f"mancala: error: out of memory while solving (the table may use {memory:,} bytes; "
                   "--memory gives it less)", err=True)
        # The interpreter ran out of memory deep in the search: its own
        # clean-up at exit (the final collection) is not safe to run after
        # that, so the process leaves at once, its message flushed.
        end_now(2)


def _solve_on_cluster(rules: Game, start: Position, address: str, timeout: float, time: float,
                      memory: int) -> Solved:
    """``solve --scheduler``: the search split into tasks for the cluster
    (:func:`~mancala_cli.solving.stopping.solve_on_cluster`), its errors as one line."""
    cluster = cluster_for(address, timeout)
    try:
        with on_terminal(ClusterProgress) as progress:
            return solve_on_cluster(ClusterSolver(cluster.client, rules, memory=memory), start, seconds=time,
                                    progress=progress)
    except ClusterSolveError as error:
        fail(str(error))
