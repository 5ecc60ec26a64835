"""Deprecated: moved to mancala_cli.solving.table_file; this name stays for one release.

It only re-exports the public names of :mod:`mancala_cli.solving.table_file`;
importing it warns of nothing."""
from ..solving.table_file import (
    CHUNK_ENTRIES,
    SAVE_EVERY,
    TABLE_HEADER,
    TABLE_MAGIC,
    TABLE_VERSION,
    TableFile,
    TableFileError,
    remove_stale_temporaries,
)

__all__ = ["CHUNK_ENTRIES", "SAVE_EVERY", "TABLE_HEADER", "TABLE_MAGIC", "TABLE_VERSION",
           "remove_stale_temporaries", "TableFile", "TableFileError"]
