"""How a render draws and writes its diagrams (:class:`Drawing`), and the
folder of ``out_dir`` (:class:`DiagramFolder`): the diagrams of
``all_plies`` and ``positions``, and the list of those a render wrote there.

A render into ``out_dir`` writes each diagram atomically, and once all are
written removes the diagrams of the same kind (``ply-`` or ``pos-``) that an
earlier render wrote there and this one did not, then rewrites the folder's
list (``.mancala-render``: the names, inodes, sizes and modification times
of the diagrams its renders wrote). Only the files that list names, and
that are still the files it describes, are ever removed: a file of the same
name written by anyone else is left alone, and so is the input file. A
render stopped before the end (an error, Ctrl-C) removes nothing and leaves
the list as it was.
"""
from __future__ import annotations

import contextlib
import os
import re
import sys
from typing import Optional

from ..diagrams.png import svg_to_png
from ..diagrams.svg import board_svg
from ..diagrams.text import FROM_POSITION, FromPosition, board_text, caption_state, outcome_of
from ..errors import RenderError
from ..files import InputError
from ..files.output import atomic_output, make_folder, names_input
from ..files.parts import file_identity, read_written_list, still_as_written, written_list_text
from ..rules.game import Game, Move, Outcome
from ..rules.position import Position

#: PNG pixels per SVG unit, unless told.
DEFAULT_SCALE = 2.0
#: The longest ``style`` file read, in bytes.
MAX_STYLE = 1 << 20
#: The list, in ``out_dir``, of the diagrams renders wrote there.
DIAGRAM_LIST = ".mancala-render"
#: The list's first line.
_HEAD = "mancala render diagrams 1"
#: The names render gives the diagrams it writes into a folder.
_DIAGRAM = re.compile(r"(?:ply-[0-9]{3,}|pos-[0-9]{4,})\.(?:svg|txt|png)")


def read_style(style: Optional[str]) -> Optional[str]:
    """The CSS of ``style`` (UTF-8, line ends made ``\\n``), or ``None``: at
    most :data:`MAX_STYLE` bytes of characters an SVG (XML) can hold."""
    if style is None:
        return None
    try:
        with open(style, "rb") as handle:
            data = handle.read(MAX_STYLE + 1)
    except OSError as error:
        raise RenderError(f"{style}: cannot read: {error.strerror or error}") from None
    if len(data) > MAX_STYLE:
        raise RenderError(f"{style}: cannot read: longer than {MAX_STYLE:,} bytes")
    try:
        decoded = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RenderError(f"{style}: cannot read: bytes {data[error.start:error.end].hex(' ')} "
                          f"at byte offset {error.start} are not valid UTF-8") from None
    bad = re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]", decoded)
    if bad is not None:
        raise RenderError(f"{style}: cannot read: the character U+{ord(bad.group()):04X} at byte offset "
                          f"{len(decoded[:bad.start()].encode('utf-8'))} cannot be written in an SVG (XML)")
    return decoded.replace("\r\n", "\n").replace("\r", "\n")


class Drawing:
    """How a render draws and writes a diagram: the options every diagram
    shares (a plain class: start-up counts, and a dataclass costs some)."""

    def __init__(self, format: str, flip: bool, css: Optional[str], force: bool, source: Optional[str] = None,
                 scale: float = DEFAULT_SCALE, caption: bool = False) -> None:
        self.format = format
        self.flip = flip
        self.css = css
        self.force = force
        self.source = source  # the record file, once known
        self.scale = scale  # PNG pixels per SVG unit
        self.caption = caption  # lines above each SVG or PNG diagram
        self.written: list[str] = []  # the files written, "-" for standard output

    @property
    def suffix(self) -> str:
        """The file name ending of the diagrams of ``all_plies`` and ``positions``."""
        return {"svg": "svg", "text": "txt", "png": "png"}[self.format]

    def draw(self, rules: Game, pos: Position, last: Optional[Move], title: Optional[str],
             outcome: Optional[Outcome] | FromPosition = FROM_POSITION,
             caption: Optional[list[str]] = None) -> str:
        if self.format == "text":
            return board_text(rules, pos, last_move=last, flip=self.flip, outcome=outcome) + "\n"
        if self.caption and caption is None:  # a position without a record: the game and the move
            over = outcome_of(rules, pos, outcome)
            caption = [rules.name, f"Move {pos.move_number}, {caption_state(pos, over)}"]
        return board_svg(rules, pos, last_move=last, flip=self.flip, title=title, style=self.css, outcome=outcome,
                         caption=caption if self.caption else None, legend=self.caption)

    def write(self, path: Optional[str], text: str) -> None:
        """Write a drawing (rasterised first for PNG): to standard output, or
        atomically to a file."""
        to_stdout = path is None or path == "-"
        if not to_stdout and not self.force and self.source is not None:
            if names_input(path, [self.source]):
                raise RenderError(f"{path}: is the input file; not replaced (--force replaces it)")
        data: str | bytes = text
        if self.format == "png":
            try:
                data = svg_to_png(text, scale=self.scale)
            except ValueError as error:
                raise RenderError(f"cannot draw the PNG image: {error}") from None
        if to_stdout:  # (flushed here, as for any output of a command)
            stream = sys.stdout.buffer if isinstance(data, bytes) else sys.stdout
            stream.write(data)  # type: ignore[arg-type]
            stream.flush()
            self.written.append("-")
            return
        try:
            with atomic_output(path, binary=isinstance(data, bytes)) as stream:
                stream.write(data)
        except InputError as error:
            raise RenderError(str(error)) from None
        assert path is not None
        self.written.append(path)


class DiagramFolder:
    """The folder ``out_dir`` of one render, made when missing: the diagrams
    of ``kind`` (``ply-`` or ``pos-``) written into it are :meth:`added`,
    and :meth:`finish` removes the earlier render's that were not rewritten."""

    def __init__(self, folder: str, kind: str) -> None:
        try:
            make_folder(folder)
        except InputError as error:
            raise RenderError(str(error)) from None
        self.folder = folder
        self.kind = kind
        self.new: dict[str, str] = {}  # name -> identity, as written

    def path(self, name: str) -> str:
        return os.path.join(self.folder, name)

    def added(self, name: str) -> None:
        """The diagram ``name`` was written into the folder."""
        try:
            self.new[name] = file_identity(os.lstat(self.path(name)))
        except OSError:
            self.new.pop(name, None)  # (not a file of ours to remove later)

    def earlier(self) -> dict[str, str]:
        """The diagrams the folder's list names: name -> identity."""
        return read_written_list(self.path(DIAGRAM_LIST), _HEAD, _DIAGRAM)

    def finish(self, source: Optional[str]) -> list[str]:
        """Remove the diagrams of this kind that the list names and this
        render did not write, still as an earlier render left them (never the
        input file ``source``), and rewrite the list; the names removed."""
        removed = []
        listed = dict(self.new)
        try:
            for name, identity in sorted(self.earlier().items()):
                if name in self.new:
                    continue
                path = self.path(name)
                if not still_as_written(path, identity):
                    continue  # (no longer the file a render wrote)
                if name.startswith(self.kind) and not (source is not None and names_input(path, [source])):
                    os.unlink(path)
                    removed.append(name)
                else:
                    listed[name] = identity
            self._write_list(listed)
        except OSError as error:
            raise RenderError(f"{error.filename or self.folder}: cannot remove: {error.strerror or error}") from None
        return removed

    def _write_list(self, listed: dict[str, str]) -> None:
        """The folder's list, written beside it and renamed over it (none when it would be empty)."""
        target = self.path(DIAGRAM_LIST)
        if not listed:
            if os.path.lexists(target):
                os.unlink(target)
            return
        text = written_list_text(_HEAD, dict(sorted(listed.items())))
        temporary = self.path(f"{DIAGRAM_LIST}-{os.urandom(4).hex()}.tmp")
        try:
            with open(temporary, "x", encoding="utf-8", newline="\n") as file:
                file.write(text)
            os.replace(temporary, target)
        except OSError as error:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise RenderError(f"{target}: cannot write: {error.strerror or error}") from None
