"""The search for exact game values, and what is built on it.

- :mod:`.search`: :class:`Solver`, a solve (deepening, then a
  proof-number search, then every line to its end), its limits (depth,
  nodes, time, memory) and its answer, and the transposition table both
  searches share; on the native kernel where the game runs on it
  (``rules/native.py``), step for step the same;
- :mod:`.alpha_beta`: negamax with alpha-beta over the three values (win,
  draw, loss), with enhanced transposition cutoffs and the history
  heuristic, a mix-in of :class:`Solver`;
- :mod:`.proof_numbers`: the proof-number search (df-pn) of each goal that
  settles the value, a mix-in of :class:`Solver`;
- :mod:`.solution`: what a solve finds (:class:`Solution`), the values and
  their names, the progress callback's type;
- :mod:`.table_file`: a solve's table in a file (``solve --table``), a
  mix-in of :class:`Solver`;
- :mod:`.tablebase`: the endgame tables of ``kimasai-klamroth``
  (:class:`Tablebase`, ``mancala tablebase build``), which the search asks;
- :mod:`.proofs`: proofs of a won position that a reader can check without
  the solver (:func:`write_proof`), and the stored proofs a solve or an
  annotation reads (:class:`ProofBook`, ``--proof``);
- :mod:`.cluster`: one position solved on a Dask cluster
  (:class:`ClusterSolver`, ``solve --scheduler``);
- :mod:`.stopping`: a solve that signals stop with what it found so far,
  here or on a cluster, and ``solve``'s exit status;
- :mod:`.annotation`: the engine's facts for a record's main line
  (:func:`annotate_record`, ``mancala annotate``).

The rules (:mod:`mancala_cli.rules`) do not use this package, save
:mod:`mancala_cli.rules.native`, which runs the search's steps on the
compiled kernel; the command line (``solve``, ``annotate``, ``tablebase``)
and the library's :func:`mancala_cli.solve` and :func:`mancala_cli.annotate`
call it. (Its name is not ``solve``: a subpackage ``mancala_cli.solve``
would replace the function :func:`mancala_cli.solve` as an attribute of
the package once imported.) Every name here loads when first used:
``mancala tablebase`` imports :mod:`.tablebase` alone (so this package), and
importing the rest here (the annotation brings the archives and the
criteria with it) would add about 30 ms of processor time to its start, a
third more.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .annotation import AnnotateTask as AnnotateTask, Limits as Limits, annotate_record as annotate_record
    from .cluster import (
        ClusterSolution as ClusterSolution,
        ClusterSolveError as ClusterSolveError,
        ClusterSolver as ClusterSolver,
    )
    from .proofs import (
        NoProof as NoProof,
        Proof as Proof,
        ProofBook as ProofBook,
        ProofError as ProofError,
        write_proof as write_proof,
    )
    from .search import DEFAULT_MEMORY as DEFAULT_MEMORY, DEFAULT_SECONDS as DEFAULT_SECONDS, Solver as Solver
    from .solution import Solution as Solution, result_name as result_name
    from .table_file import TableFileError as TableFileError
    from .tablebase import Tablebase as Tablebase, TablebaseError as TablebaseError

_LATER = {
    **{name: "search" for name in ("Solver", "DEFAULT_MEMORY", "DEFAULT_SECONDS")},
    **{name: "solution" for name in ("Solution", "result_name")},
    "TableFileError": "table_file",
    **{name: "tablebase" for name in ("Tablebase", "TablebaseError")},
    **{name: "proofs" for name in ("ProofBook", "Proof", "ProofError", "NoProof", "write_proof")},
    **{name: "cluster" for name in ("ClusterSolver", "ClusterSolution", "ClusterSolveError")},
    **{name: "annotation" for name in ("annotate_record", "Limits", "AnnotateTask")},
}

__all__ = list(_LATER)


def __getattr__(name: str) -> Any:
    module = _LATER.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
