"""Deprecated: moved to mancala_cli.solving.cluster; this name stays for one release.

It only re-exports the public names of :mod:`mancala_cli.solving.cluster`;
importing it warns of nothing."""
from .solving.cluster import (
    ASK_SECONDS,
    BUDGET_GROWTH,
    FIRST_BUDGET,
    GRACE_SECONDS,
    MAX_SPLIT_PLIES,
    POLL_SECONDS,
    RETRIES,
    TASK_DEEPENING,
    TASKS_PER_THREAD,
    ClusterSolution,
    ClusterSolveError,
    ClusterSolver,
    Progress,
    solve_task,
)

__all__ = ["ASK_SECONDS", "BUDGET_GROWTH", "FIRST_BUDGET", "GRACE_SECONDS", "MAX_SPLIT_PLIES",
           "POLL_SECONDS", "RETRIES", "TASKS_PER_THREAD", "TASK_DEEPENING", "ClusterSolution",
           "ClusterSolveError", "ClusterSolver", "Progress", "solve_task"]
