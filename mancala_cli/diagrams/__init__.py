"""Diagrams of positions: standalone SVG documents (:mod:`.svg`) and plain
text boards for terminals (:mod:`.text`)."""
