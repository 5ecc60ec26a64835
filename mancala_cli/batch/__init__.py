"""Running a task over many games: in this process, on a pool of worker
processes (``--jobs``), or on a Dask cluster (``--scheduler``), with the
results in input order and the same bytes whichever runs them.

- :mod:`.pipeline`: the games of a source cut into batches
  (:mod:`mancala_cli.files.batches`), each batch read, checked and written
  where it runs, the results taken back in input order (:func:`.pipeline.results`,
  :func:`.pipeline.task_results`, :func:`.pipeline.run`);
- :mod:`.pool`: the local worker processes (:class:`.pool.WorkerPool`), which
  never outlive the run: they end with it, with their parent, or when
  killed, each death one line (:class:`.lifetime.BatchError`);
- :mod:`.cluster`: the Dask executor (:func:`.cluster.connect`), which makes
  a cluster that cannot run the batches fail in one line, and checks that
  every worker runs this very project;
- :mod:`.lifetime`: what a run leaves running (:data:`.lifetime.live`) and
  how it fails (:class:`.lifetime.BatchError`).

A sketch of the run that ``mancala validate --jobs 2`` makes::

    from mancala_cli.batch.pipeline import Options, results
    from mancala_cli.files.sources import open_source

    with open_source("examples/kingulu-tournament.pmn", "utf-8") as source:
        for result in results(source, Options("validate"), jobs=2):
            print(result.lines)
"""
from __future__ import annotations

from .lifetime import BatchError, live, stop_live

__all__ = ["BatchError", "live", "stop_live"]
