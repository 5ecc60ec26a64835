"""What the language server answers, as plain functions of a
:class:`~.analysis.Document` and a place in it (0-based lines, code-point
columns): hover, completion, formatting, quick fixes and the outline.

This module gathers them, for :mod:`.server` and for the library's users;
each feature family is a module of its own:

- :mod:`.answers`: the answers' types (:class:`Span`, :class:`TextEdit`,
  :class:`HoverInfo`, :class:`Completion`, :class:`Fix`, :class:`Symbol`);
- :mod:`.replay`: a game read again and replayed, each move with the
  positions before and after it (:class:`GameView`, :func:`view`), which
  hover, completion and quick fixes answer from;
- :mod:`.hover`: :func:`hover`;
- :mod:`.completion`: :func:`completions`, :func:`line_at` (the game
  played up to a place), :data:`TAGS`, :data:`VALUES`;
- :mod:`.formatting`: :func:`format_document`, :func:`format_range`;
- :mod:`.fixes`: :func:`code_actions`;
- :mod:`.outline`: :func:`symbols`, :func:`symbol_name`.
"""
from __future__ import annotations

from .answers import Completion, Fix, HoverInfo, Span, Symbol, TextEdit
from .completion import TAGS, VALUES, completions, line_at
from .fixes import code_actions
from .formatting import format_document, format_range
from .hover import hover
from .outline import symbol_name, symbols
from .replay import GameView, MoveInfo, view

__all__ = ["Span", "TextEdit", "HoverInfo", "Completion", "Fix", "Symbol", "MoveInfo", "GameView", "view",
           "hover", "line_at", "completions", "format_document", "format_range", "code_actions", "symbols",
           "symbol_name", "TAGS", "VALUES"]
