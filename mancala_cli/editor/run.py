"""``mancala edit`` run: the file opened (:func:`.launch.prepare`) and the
application started on it."""
from __future__ import annotations

import gc

from .app import EditorApp
from .launch import Refused, prepare

__all__ = ["run"]


def run(path: str | None, *, game: str | None = None, index: int | None = None,
        position: str | None = None) -> tuple[int, str | None]:
    """Edit; returns the exit status and the one line of a refusal (or ``None``)."""
    try:
        opened = prepare(path, game=game, index=index, position=position)
    except Refused as refused:
        return refused.status, str(refused)
    # The modules and the opened file live as long as the editor: moved out
    # of the collector's reach, so that the first frame does not wait for a
    # full collection of them (docs/performance.md, 'Editor').
    gc.freeze()
    EditorApp(opened.document, opened.index, opened.edited, offer=opened.offer, choose=opened.choose).run()
    return 0, None
