"""Files of records in the library, below the command line: inputs
(:mod:`.sources`: decoding, sniffing the format), games read in batches
that end at game boundaries (:mod:`.batches`), records written in PMN,
JSON Lines or XML (:mod:`.writing`) and output files that appear whole or
not at all (:mod:`.output`). See ``docs/library.md``, "Files of records".

The package is ``files``, not ``io``: a folder named ``io`` beside the
modules would shadow the standard library's ``io`` for any tool that puts
``mancala_cli/`` on the import path, and readers would have to tell
``io`` from ``.io`` in every module that uses both.
"""
from __future__ import annotations

import io
import os
import signal
import stat

#: The signals that stop a command (each ends it as Ctrl-C does); they are
#: held while an output file's temporary file is made, so that none is left.
STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGHUP})


def open_regular(path: str) -> io.BufferedReader | None:
    """The regular file ``path`` open for reading, or ``None`` (closed
    again) where ``path`` is something else: a device, a FIFO or a pipe
    (``/dev/stdin``, ``<(…)``). The file is opened without waiting, so that
    a FIFO no process writes to is refused at once instead of hanging;
    ``OSError`` where it cannot be opened. For the files a command reads
    whole before it starts (``--tablebase``, ``--proof``), which a device
    or a FIFO cannot be."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return None
    os.set_blocking(fd, True)
    return open(fd, "rb")


class InputError(Exception):
    """A file that cannot be read at all (missing, unreadable, unknown encoding)."""
