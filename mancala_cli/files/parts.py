"""The files ``mancala split`` writes into a folder (``00001.pmn``,
``00002.pmn`` …), put in place of an earlier split's as one set.

A split writes its files into a staging folder inside the folder
(``.mancala-split-XXXXXXXX.tmp``), and only when they are all written does
:meth:`NewParts.commit` move them into the folder, remove the files of the
earlier split that the new set does not replace, and rewrite the folder's
list of the files its last split wrote (``.mancala-split``: their names,
inodes, sizes and modification times). Only the files that list names, and
that are still the files it describes, are ever removed: a file of the same
name written by anyone else is left alone.

The stop signals (Ctrl-C, SIGTERM, SIGHUP) wait while the set is moved in,
so that a split stopped at any point leaves either the old set or the new
one; a split killed outright (SIGKILL) leaves at most its staging folder,
which the next split into the folder removes, and, if it was killed while
the files were being moved, a list that names both sets, all of which the
next split replaces or removes.
"""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import stat
from collections.abc import Callable
from dataclasses import dataclass, field

from . import STOP_SIGNALS
from .output import OutputError

__all__ = ["MANIFEST", "NewParts", "earlier_parts", "file_identity", "read_written_list", "still_as_written",
           "written_list_text"]

#: The list, in the folder, of the files its last split wrote.
MANIFEST = ".mancala-split"
#: The list's first line.
_HEAD = "mancala split parts 1"
#: The names split gives its files.
_PART = re.compile(r"[0-9]{5,}\.(?:pmn|jsonl|xml)")
#: The staging folders of splits under way (or killed).
_STAGING = re.compile(r"\.mancala-split-[0-9a-f]{8}\.tmp")


def file_identity(info: os.stat_result) -> str:
    """What a list of written files keeps of a file to know it again:
    inode, size, modification time."""
    return f"{info.st_ino} {info.st_size} {info.st_mtime_ns}"


def read_written_list(path: str, head: str, names: re.Pattern[str]) -> dict[str, str]:
    """A list of the files a command wrote into a folder (``.mancala-split``,
    ``.mancala-render``): name -> identity, the names matching ``names``
    under the first line ``head`` (an unreadable or foreign list: none). The
    list is read only when it is a regular file (a FIFO in its place is not
    waited on)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOFOLLOW)
    except OSError:
        return {}
    with open(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return {}
        lines = file.read(1 << 24).decode("utf-8", "replace").splitlines()
    if not lines or lines[0] != head:
        return {}
    listed = {}
    for line in lines[1:]:
        name, _, identity = line.partition(" ")
        if names.fullmatch(name) and re.fullmatch(r"[0-9]+ [0-9]+ [0-9]+", identity):
            listed[name] = identity
    return listed


def written_list_text(head: str, listed: dict[str, str]) -> str:
    """The text of a list of written files (:func:`read_written_list` reads it)."""
    return "".join(f"{line}\n" for line in [head, *(f"{name} {identity}" for name, identity in listed.items())])


def still_as_written(path: str, identity: str) -> bool:
    """Whether ``path`` is still the regular file a list describes by ``identity``."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return False
    return stat.S_ISREG(info.st_mode) and file_identity(info) == identity


def earlier_parts(folder: str) -> dict[str, str]:
    """The files of ``folder`` that its last split wrote, from its list: name -> identity."""
    return read_written_list(os.path.join(folder, MANIFEST), _HEAD, _PART)


def _remove_staging(path: str) -> None:
    shutil.rmtree(path, ignore_errors=True)


@dataclass
class NewParts:
    """A new set of files being written into ``staging``, a folder inside
    ``folder``: :meth:`path` names each, :meth:`commit` puts the set in
    place, :meth:`discard` drops it (the folder as it was)."""

    folder: str
    staging: str
    #: The names of the files written, in order.
    names: list[str] = field(default_factory=list)

    @classmethod
    def begin(cls, folder: str) -> NewParts:
        """A new set for ``folder``, after removing the staging folders of
        splits killed there; :class:`OutputError` if it cannot be made."""
        try:
            for entry in os.scandir(folder):
                if _STAGING.fullmatch(entry.name) and entry.is_dir(follow_symlinks=False):
                    _remove_staging(entry.path)
        except OSError as error:
            raise OutputError(f"{folder}: cannot read: {error.strerror or error}") from None
        held = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            for _ in range(100):
                staging = os.path.join(folder, f".mancala-split-{os.urandom(4).hex()}.tmp")
                try:
                    os.mkdir(staging, 0o700)
                    return cls(folder, staging)
                except FileExistsError:
                    continue
                except OSError as error:
                    raise OutputError(f"{folder}: cannot write: {error.strerror or error}") from None
            raise OutputError(f"{folder}: cannot write: no free staging name")
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)

    def path(self, name: str) -> str:
        """Where the new file ``name`` is written (in the staging folder); it joins the set."""
        self.names.append(name)
        return os.path.join(self.staging, name)

    def shown(self, message: str) -> str:
        """``message`` with the path of a file of the set where it will be, not where it is written."""
        return message.replace(self.staging + os.sep, os.path.join(self.folder, ""))

    def discard(self) -> None:
        """Drop the files written (nothing when the set was committed)."""
        _remove_staging(self.staging)

    def commit(self, kept: Callable[[str], bool] = lambda name: False) -> list[str]:
        """Put the new set in place of the old: the new files moved into the
        folder, the old ones it does not replace removed (those still as the
        earlier split left them, and not ``kept``: those stay listed), the
        list rewritten.
        Returns the names of the files removed; :class:`OutputError` if the
        folder cannot be written (the files already moved stay listed)."""
        held = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            old = earlier_parts(self.folder)
            new = {name: file_identity(os.lstat(os.path.join(self.staging, name))) for name in self.names}
            # First a list of both sets, so that a kill while the files move leaves none unlisted.
            self._write_list({**old, **new})
            for name in self.names:
                os.replace(os.path.join(self.staging, name), os.path.join(self.folder, name))
            removed, listed = [], dict(new)
            for name, identity in sorted(old.items()):
                if name in new:
                    continue
                path = os.path.join(self.folder, name)
                if still_as_written(path, identity):
                    if kept(name):
                        listed[name] = identity  # (still the earlier split's: a later one removes it)
                    else:
                        os.unlink(path)
                        removed.append(name)
            if listed:
                self._write_list(listed)
            else:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(os.path.join(self.folder, MANIFEST))
            os.rmdir(self.staging)
            return removed
        except OSError as error:
            raise OutputError(f"{error.filename or self.folder}: cannot write: {error.strerror or error}") from None
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)

    def _write_list(self, parts: dict[str, str]) -> None:
        """The folder's list, written in the staging folder and renamed over the old one."""
        path = os.path.join(self.staging, MANIFEST)
        with open(path, "w", encoding="utf-8", newline="\n") as file:
            file.write(written_list_text(_HEAD, parts))
        os.replace(path, os.path.join(self.folder, MANIFEST))
