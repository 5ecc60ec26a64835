"""Output files that appear whole or not at all, written as ``>`` writes
(links followed, modes kept, devices and open descriptors written in place)."""
from __future__ import annotations

import contextlib
import errno
import io
import os
import re
import signal
import stat
import sys
from collections.abc import Iterable, Iterator
from typing import IO, Any

from . import STOP_SIGNALS, InputError


class OutputError(InputError):
    """An output that cannot be written; an old file at that path is left as it was."""


_write = os.write  # the system call, named so that tests can make it fail


class _OutputFile(io.FileIO):
    """A file whose failing writes raise :class:`OutputError` naming
    ``display``; a pipe or FIFO whose reader went away (``-o /dev/stdout``
    into ``| head``) raises ``BrokenPipeError``, which ends the command
    quietly with status 141 as on standard output."""

    def __init__(self, fd: int, display: str) -> None:
        super().__init__(fd, "wb", closefd=True)
        self.display = display

    def write(self, data: Any) -> int:
        try:
            return _write(self.fileno(), data)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputError(f"{self.display}: cannot write: {error.strerror or error}") from None


def file_name_problem(path: str) -> str | None:
    """What is wrong with ``path`` as the name of a file to write, as the
    shell would refuse it: a name that ends in ``/`` (or is ``.`` or ``..``,
    or ends in ``/.`` or ``/..``) names a folder, which the path without it
    would not (``name/`` would write the file ``name``); else ``None``."""
    if path.endswith("/"):
        return "a file name cannot end in /"
    if os.path.basename(path) in (".", ".."):
        return "names a folder, not a file"
    return None


def _check_name(path: str) -> None:
    problem = file_name_problem(path)
    if problem is not None:
        raise OutputError(f"{path}: {problem}")


def _cannot(path: str, error: OSError) -> OutputError:
    return OutputError(f"{path}: cannot write: {error.strerror or error}")


_FD_FOLDER = re.compile(r"/proc/(\d+)(?:/task/\d+)?/fd")


def _resolve(path: str) -> tuple[str, int | None]:
    """Where writing to ``path`` goes, following symbolic links as open()
    does: (the path that is no link, None), or (a /proc/PID/fd/N link, N when
    PID is this process, else -1): such a path names an open file, not a
    place in a folder."""
    hop = os.path.abspath(path)
    for _ in range(40):
        folder = _FD_FOLDER.fullmatch(os.path.realpath(os.path.dirname(hop)))
        if folder:
            mine = int(folder.group(1)) == os.getpid() and os.path.basename(hop).isdigit()
            return hop, int(os.path.basename(hop)) if mine else -1
        try:
            link = os.readlink(hop)
        except OSError:  # not a link (or not there): open() decides
            return hop, None
        hop = os.path.join(os.path.dirname(hop), link)
    raise _cannot(path, OSError(errno.ELOOP, os.strerror(errno.ELOOP)))


def _writable(path: str, info: os.stat_result) -> bool:
    """Whether ``>`` would be allowed to write the file; as root, only a file
    with a write permission bit for someone."""
    if os.geteuid() == 0:
        return bool(info.st_mode & 0o222)
    return os.access(path, os.W_OK, effective_ids=os.access in os.supports_effective_ids)


def _stream(raw: _OutputFile, binary: bool) -> IO[Any]:
    buffered = io.BufferedWriter(raw)
    return buffered if binary else io.TextIOWrapper(buffered, encoding="utf-8", newline="\n")


def _finish(stream: IO[Any], raw: _OutputFile) -> None:
    stream.flush()
    try:
        raw.close()
    except OSError as error:
        raise _cannot(raw.display, error) from None


def _temporary(folder: str, path: str) -> tuple[int, str | None]:
    """A new empty file in ``folder``, created with mode 0666 so that the
    umask (and a default ACL) applies as to any new file, and its name:
    where the system can, a file without a name (Linux's ``O_TMPFILE``:
    nothing is left of it if the process is killed, even with SIGKILL),
    named only when it is complete (:func:`_named`); elsewhere a file
    ``.mancala-*.tmp``."""
    if _UNNAMED:
        try:
            return os.open(folder, os.O_WRONLY | _UNNAMED | os.O_CLOEXEC, 0o666), None
        except OSError as error:
            if error.errno not in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL):  # (not on this file system)
                raise _cannot(path, error) from None
    for _ in range(100):
        name = _temporary_name(folder)
        try:
            return os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666), name
        except FileExistsError:
            continue
        except OSError as error:
            raise _cannot(path, error) from None
    raise _cannot(path, FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST)))


#: ``O_TMPFILE`` where files without a name can be made and then linked into
#: a folder (through /proc/self/fd), else 0.
_UNNAMED = (getattr(os, "O_TMPFILE", 0) if os.path.isdir("/proc/self/fd") and os.link in os.supports_dir_fd
            and os.link in os.supports_follow_symlinks else 0)


def _temporary_name(folder: str) -> str:
    return os.path.join(folder, f".mancala-{os.urandom(4).hex()}.tmp")


def _named(fd: int, folder: str, path: str) -> str:
    """A name ``.mancala-*.tmp`` in ``folder`` for the unnamed file ``fd``
    (``linkat`` with ``AT_SYMLINK_FOLLOW``, which os.link uses with a
    folder's descriptor)."""
    try:
        where = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as error:
        raise _cannot(path, error) from None
    try:
        for _ in range(100):
            name = _temporary_name(folder)
            try:
                os.link(f"/proc/self/fd/{fd}", os.path.basename(name), dst_dir_fd=where, follow_symlinks=True)
                return name
            except FileExistsError:
                continue
            except OSError as error:
                raise _cannot(path, error) from None
        raise _cannot(path, FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST)))
    finally:
        os.close(where)


@contextlib.contextmanager
def atomic_output(path: str | None, binary: bool = False) -> Iterator[Any]:
    """Standard output, or a temporary file renamed over ``path`` only when the
    block succeeds (on error the old file stays untouched).

    Like ``>``: a symbolic link is followed (its target is replaced, the link
    stays), a new file gets mode 0666 less the umask, a replaced one keeps its
    mode, and a file nobody may write is refused. What is not a regular file
    (a device, a FIFO, an open file named as /dev/stdout or /proc/self/fd/N)
    is written in place. Raises :class:`OutputError` (a directory, a name
    that ends in ``/`` (:func:`file_name_problem`), a missing folder, a
    failing write).
    """
    if path is None or path == "-":
        with _standard_output(binary) as stream:
            yield stream
        return
    if not path:
        raise OutputError("empty output file name")
    _check_name(path)
    target, descriptor = _resolve(path)
    try:
        info: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise _cannot(path, error) from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise OutputError(f"{path}: is a directory")
    if descriptor is not None or (info is not None and not stat.S_ISREG(info.st_mode)):
        with _in_place(path, target, descriptor, binary) as stream:
            yield stream
        return
    if info is not None and not _writable(target, info):
        raise _cannot(path, PermissionError(errno.EACCES, os.strerror(errno.EACCES)))
    with _replacing(path, target, info, binary) as stream:
        yield stream


def regular_output(path: str, *, probe: bool = False) -> None:
    """Raise :class:`OutputError` unless :func:`atomic_output` would write
    ``path`` as a regular file (a new one, or one it replaces): not a
    device, a FIFO, an open file nor a directory. With ``probe``, also make
    the temporary file such a write would make, and remove it at once, so
    that a folder it cannot be written in fails now rather than later."""
    if not path or path == "-":
        raise OutputError(f"{path or 'an empty file name'}: not a regular file")
    _check_name(path)
    target, descriptor = _resolve(path)
    try:
        info: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise _cannot(path, error) from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise OutputError(f"{path}: is a directory")
    if descriptor is not None or (info is not None and not stat.S_ISREG(info.st_mode)):
        raise OutputError(f"{path}: not a regular file")
    if info is not None and not _writable(target, info):
        raise _cannot(path, PermissionError(errno.EACCES, os.strerror(errno.EACCES)))
    if probe:
        held = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            fd, temporary = _temporary(os.path.dirname(target), path)
            os.close(fd)
            if temporary is not None:
                os.unlink(temporary)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)


@contextlib.contextmanager
def _standard_output(binary: bool) -> Iterator[Any]:
    """Standard output (its bytes when ``binary``), flushed after the block."""
    if binary:
        yield sys.stdout.buffer
        sys.stdout.buffer.flush()
    else:
        yield sys.stdout
        sys.stdout.flush()


@contextlib.contextmanager
def _in_place(path: str, target: str, descriptor: int | None, binary: bool) -> Iterator[Any]:
    """What is not a regular file, written in place: an open file descriptor
    (``descriptor``, when ``path`` names one) or ``target`` opened for writing."""
    try:
        if descriptor is not None and descriptor >= 0:
            if descriptor == 1:
                sys.stdout.flush()
            fd = os.dup(descriptor)
        else:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o666)
    except OSError as error:
        raise _cannot(path, error) from None
    raw = _OutputFile(fd, path)
    try:
        stream = _stream(raw, binary)
        yield stream
        _finish(stream, raw)
    finally:
        with contextlib.suppress(OSError):
            raw.close()


@contextlib.contextmanager
def _replacing(path: str, target: str, info: os.stat_result | None, binary: bool) -> Iterator[Any]:
    """A temporary file beside ``target``, with the owner and mode of the file
    it replaces (``info``), renamed over it when the block succeeds and removed
    on any other way out."""
    # Signals wait while the temporary file is made and handed to the block
    # below, which removes it on any way out.
    held = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        fd, temporary = _temporary(os.path.dirname(target), path)
        raw = _OutputFile(fd, path)
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        raise
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)  # a held signal takes effect here
        if info is not None:
            if (info.st_uid, info.st_gid) != (os.geteuid(), os.getegid()):
                with contextlib.suppress(OSError):
                    os.fchown(fd, info.st_uid, info.st_gid)
            os.fchmod(fd, stat.S_IMODE(info.st_mode))
        stream = _stream(raw, binary)
        yield stream
        stream.flush()
        if temporary is None:
            temporary = _named(fd, os.path.dirname(target), path)
        _finish(stream, raw)
        try:
            os.replace(temporary, target)
        except OSError as error:
            raise _cannot(path, error) from None
    except BaseException:
        with contextlib.suppress(OSError):
            raw.close()
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        raise


def same_file(path: str, other: str) -> bool:
    """Whether two paths name one regular file (through links or other spellings)."""
    try:
        return os.path.isfile(path) and os.path.samefile(path, other)
    except (OSError, ValueError):
        return False


def names_input(target: str | None, paths: Iterable[str]) -> bool:
    """Whether writing ``target`` would replace one of the inputs ``paths``:
    the same regular file under any name, standard input (``-``) included
    when the file behind it is ``target`` (``< FILE``)."""
    if target is None or target in ("-", ""):
        return False
    try:
        info = os.stat(target)
    except (OSError, ValueError):
        return False
    if not stat.S_ISREG(info.st_mode):
        return False
    for path in paths:
        try:
            other = os.fstat(0) if path == "-" else os.stat(path)
        except (OSError, ValueError):
            continue
        if (other.st_dev, other.st_ino) == (info.st_dev, info.st_ino):
            return True
    return False


def refuse_damaged_input(target: str | None, paths: Iterable[str], errors: int, force: bool) -> None:
    """Raise :class:`InputError` when ``target`` is an input (:func:`names_input`)
    and reading found ``errors``, unless ``force``: called inside the block
    that writes ``target`` atomically, so the input stays as it was."""
    if errors and not force and names_input(target, paths):
        raise InputError(f"{target}: is an input with errors; not replaced (--force replaces it)")


def make_folder(path: str) -> None:
    """The folder ``path`` (``--out-dir``), created when missing (not its
    parent folders); :class:`OutputError` when it cannot be."""
    if not os.path.isdir(path):
        try:
            os.mkdir(path)
        except FileExistsError:
            raise OutputError(f"{path}: is not a directory") from None
        except OSError as error:
            raise OutputError(f"{path}: cannot create: {error.strerror or error}") from None
