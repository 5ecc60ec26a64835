"""The search for exact game values, and what is built on it.

- :mod:`.search`: :class:`Solver`, a solve (deepening, then a
  proof-number search, then every line to its end), its limits (depth,
  nodes, time, memory) and its answer, and the transposition table both
  searches share; on the native kernel where the game runs on it
  (``rules/native.py``), step for step the same;
- :mod:`.alpha_beta`: negamax with alpha-beta over the three values (win,
  draw, loss), with enhanced transposition cutoffs and the history
  heuristic (:class:`~.alpha_beta.AlphaBeta`, a part of a solve);
- :mod:`.proof_numbers`: the proof-number search (df-pn) of each goal that
  settles the value (:class:`~.proof_numbers.ProofNumbers`, a part of a solve);
- :mod:`.search_result`: what a solve finds (:class:`~.search_result.SearchResult`),
  the values and their names, the progress callback's type, and a solve's
  state (:class:`~.search_result.SearchState`), which the solver gives its
  parts with its steps;
- :mod:`.table_file`: a solve's table in a file (``solve --table``,
  :class:`~.table_file.TableFile`, a part of a solve);
- :mod:`.endgame`: the endgame tables of ``kimasai-klamroth``
  (:class:`Tablebase`, ``mancala tablebase build``), which the search asks;
- :mod:`.proofs`: proofs of a won position that a reader can check without
  the solver (:func:`write_proof`), and the stored proofs a solve or an
  annotation reads (:class:`ProofBook`, ``--proof``);
- :mod:`.cluster_search`: one position solved on a Dask cluster
  (:class:`ClusterSolver`, ``solve --scheduler``);
- :mod:`.stopping`: a solve that signals stop with what it found so far,
  here or on a cluster, and ``solve``'s exit status;
- :mod:`.engine_facts`: the engine's facts for a record's main line
  (:func:`annotate_record`, ``mancala annotate``).

The rules (:mod:`mancala_cli.rules`) do not use this package, save
:mod:`mancala_cli.rules.native`, which runs the search's steps on the
compiled kernel; the command line (``solve``, ``annotate``, ``tablebase``)
and the library's :func:`mancala_cli.solve` and :func:`mancala_cli.annotate`
call it. (Its name is not ``solve``: a subpackage ``mancala_cli.solve``
would replace the function :func:`mancala_cli.solve` as an
attribute of the package once imported.)
"""
