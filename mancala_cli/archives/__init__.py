"""Archives: picking games out of them, dropping duplicates, and summing
them up (``mancala filter``, ``split`` and ``stats``).

- :mod:`.tasks`: what those commands do per game (:class:`FilterTask`,
  :class:`StatsTask`, :class:`Summary`, :class:`DigestSet`), one record at
  a time, so that an archive of any size streams through worker processes;
- :mod:`.criteria`: what a game must be to be picked (:class:`Criteria`:
  the ``--where`` language compiled, ``Criteria.where(text)``, and the
  flags, ``Criteria.from_options(...)``), matching within
  :data:`REGEX_SECONDS`;
- :mod:`.texts` and :mod:`.patterns`: the flags' texts read (``--reaches``,
  ``--opening``, ``--game``) and the regular expressions of ``--tag``,
  bounded and compiled.

    >>> from mancala_cli import read
    >>> from mancala_cli.archives.criteria import Criteria
    >>> from mancala_cli.archives.tasks import FilterTask
    >>> record = next(read('[Game "kingulu"]\\n[Result "*"]\\n\\n1. c1 d2 *\\n'))
    >>> FilterTask(Criteria.where('result = "*" and plies = 2')).process(record).selected
    True
"""
