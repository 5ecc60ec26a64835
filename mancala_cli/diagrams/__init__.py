"""Diagrams of positions: standalone SVG documents (:mod:`.svg`), game
sheets of several positions in one SVG document (:mod:`.sheet`), PNG images
of either (:mod:`.png`, the ``png`` extra) and plain text boards for
terminals (:mod:`.text`)."""
