"""The PMN language server (``mancala lsp``, docs/lsp.md): diagnostics as
you type, hover, completion, formatting, quick fixes and an outline of the
games of a ``.pmn`` file, over the Language Server Protocol on standard
input and output.

The logic is plain functions over the library (:mod:`mancala_cli.api`,
:mod:`notation`), testable without a client: :mod:`.analysis` keeps a
document's lines and games up to date edit by edit and checks each game
(:class:`~.analysis.Document`); the feature modules answer the requests from
it (hover, completion, formatting, code actions, symbols), in 0-based lines
and code-point columns, gathering the modules of each family
(:mod:`.hover`, :mod:`.completion`, :mod:`.formatting`, :mod:`.fixes`,
:mod:`.outline`; :mod:`.replay` replays a game for them, :mod:`.answers`
holds the answers' types). :mod:`.server` is the only module that imports pygls
and lsprotocol: it speaks the protocol (``pip install 'mancala[lsp]'``) and
converts columns to the client's position encoding.
"""
