"""The answers of the language server's features, as plain values in
0-based lines and code-point columns: a :class:`Span` of text, a
:class:`TextEdit`, what hover shows (:class:`HoverInfo`), a
:class:`Completion`, a quick :class:`Fix` and a game in the outline
(:class:`Symbol`). :mod:`.server` turns them into the protocol's types, in
the client's position encoding.
"""
from __future__ import annotations

from dataclasses import dataclass

from .analysis import Diagnostic

__all__ = ["Span", "TextEdit", "HoverInfo", "Completion", "Fix", "Symbol"]


@dataclass(frozen=True)
class Span:
    """A range of text: 0-based lines, code-point columns, the end exclusive."""

    line: int
    column: int
    end_line: int
    end_column: int


@dataclass(frozen=True)
class TextEdit:
    span: Span
    text: str


@dataclass(frozen=True)
class HoverInfo:
    """What hovering over a move shows: ``text`` (Markdown when
    ``markdown``, else plain text) and the move's span."""

    text: str
    span: Span
    markdown: bool


@dataclass(frozen=True)
class Completion:
    """One completion: ``kind`` is ``move``, ``result``, ``tag`` or
    ``value``; ``edit`` puts ``label``'s text in place of what is typed;
    ``snippet``, where given, is the same with placeholders (``$1``) for
    clients that take snippets."""

    label: str
    kind: str
    detail: str
    edit: TextEdit
    sort: str
    documentation: str | None = None
    snippet: str | None = None


@dataclass(frozen=True)
class Fix:
    """A quick fix: its title, its edits and the diagnostic it fixes (a
    problem of validate's, or the server's hint where a move number is
    missing)."""

    title: str
    edits: list[TextEdit]
    diagnostic: Diagnostic | None
    preferred: bool = True


@dataclass(frozen=True)
class Symbol:
    """A game in the outline: ``span`` its lines, ``selection`` its first line."""

    name: str
    detail: str
    span: Span
    selection: Span
