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
- :mod:`.dask_executor`: the Dask executor and the stamp that tells a worker of
  this very project; :mod:`.dask_client` connects to a cluster
  (:func:`.dask_client.connect`, loaded for ``--scheduler`` alone), which
  makes a cluster that cannot run the batches fail in one line;
- :mod:`.runs`, :mod:`.conversion`, :mod:`.filtering`, :mod:`.statistics`,
  :mod:`.annotating`: the commands' runs over many files as library
  functions (``check_files``, ``write_files``, ``filter_files``,
  ``stats_files``, ``annotate_files``), with what runs them
  (:func:`.runs.workers`);
- :mod:`.lifetime`: what a run leaves running (:data:`.lifetime.live`) and
  how it fails (:class:`.lifetime.BatchError`, :class:`.lifetime.ClusterError`).

The run that ``mancala validate --jobs 2`` makes:

    >>> from mancala_cli.batch.runs import check_files
    >>> [(result.index, result.errors) for _, result in check_files("examples/kingulu-tournament.pmn", jobs=2)]
    [(1, 0), (2, 0), (3, 0), (4, 0)]
"""
