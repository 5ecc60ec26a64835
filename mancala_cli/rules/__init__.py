"""The rules of the three games: what the games share (:mod:`.board`: sides
and the board's geometry; :mod:`.position`: positions; :mod:`.game`: games,
moves, sowing, results and the errors that name a rule), one module per game
that reads like its section of ``docs/rules.md`` (:mod:`.kimasai_mackay`,
:mod:`.kimasai_klamroth`, :mod:`.kingulu`), the registry of games by id
(:mod:`.registry`), perft (:mod:`.counting`) and random games
(:mod:`.randomgames`). The rules know no notation, no diagrams and no
command line: a hole is an integer, a position a tuple.

They run on the native kernel where the install built it (:mod:`.native`),
else on these pure-Python modules (:mod:`.selection`: ``CORE`` says which).
The package itself holds no names: each is imported from the module that
defines it, as ``from mancala_cli.rules.registry import get_game``::

    >>> from mancala_cli.rules.game import GameInProgress
    >>> from mancala_cli.rules.registry import get_game
    >>> game = get_game("kingulu")
    >>> line = GameInProgress(game)
    >>> move = line.play(game.board.index_of("c1"))
    >>> move.captured, line.position.banks
    (6, (7, 0))

Holes are plain integers: ``index = (rank - 1) * files + file`` with files
and ranks counted from 0 and 1 respectively, so ``a1`` is 0 and the index is
one less than the hole's ``numeric`` coordinate.

The search for game values and what is built on it (the solver, endgame
tables, proofs, annotation) is in :mod:`mancala_cli.solving`; the native
kernel's search stays here, in :mod:`.native`, beside the rules it runs on.
"""
