"""``mancala edit``: a terminal editor of records (the ``edit`` extra, Textual).

:mod:`.model` is the record being edited (plain Python, no Textual: the
cursor, moves played through :class:`mancala_cli.Line`, variations,
comments, NAGs, tags, undo and redo); :mod:`.documents` opens and saves
files and keeps the recovery file; :mod:`.board`, :mod:`.movetext` and
:mod:`.app` are the Textual application. Only ``mancala edit`` imports
this package's Textual modules (Textual draws with rich, which the command
line alone imports directly: the editor itself imports Textual, never rich).
"""
