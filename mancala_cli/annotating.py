"""Deprecated: moved to mancala_cli.solving.annotation; this name stays for one release.

It only re-exports the public names of :mod:`mancala_cli.solving.annotation`;
importing it warns of nothing."""
from .solving.annotation import (
    DEFAULT_SECONDS,
    Annotated,
    AnnotatedPicked,
    AnnotateTask,
    Limits,
    annotate_record,
    watch_positions,
)

__all__ = ["DEFAULT_SECONDS", "annotate_record", "Annotated", "AnnotatedPicked", "AnnotateTask", "Limits",
           "watch_positions"]
