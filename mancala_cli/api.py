"""The library: read records, check them against the rules, write them in
any format and draw their positions; play moves by their tokens. See
``docs/library.md``.

    >>> import mancala_cli as mancala
    >>> record = next(mancala.read("examples/kingulu-village-match.pmn"))
    >>> report = mancala.check(record)
    >>> report.valid, report.plies, report.result, report.reason
    (True, 23, '1-0', 'KG-7')
    >>> str(report.final)
    '0,0,0,8*,0,12*/0,0,0,0,0,3 N 12-13 12'
"""
from __future__ import annotations

import dataclasses
import io
import os
from collections.abc import Iterable, Iterator
from typing import IO, Any

from notation.notation_errors import XMLArchiveError
from notation.record import GameRecord, Problem

from .archives.criteria import Criteria
from .checking import replay
from .diagrams.page import game_page
from .errors import UnreadableInput, library_error
from .files import InputError
from .files.batches import read_records
from .files.encodings import check_encoding
from .files.formats import FORMATS, RECORD_EXTENSIONS, chosen_format
from .files.output import atomic_output
from .files.sources import open_any
from .files.writing import RecordWriter, open_writer
from .playing import GamePosition, check_coords
from .rules.game import Game, Outcome
from .rules.registry import game_id
from .solving.endgame import Tablebase
from .solving.engine_facts import Limits, annotate_record
from .solving.engine_files import check_limits, endgame_tables, proof_book
from .solving.proofs import ProofBook

__all__ = ["read", "write", "check", "annotate", "page", "Report"]



# -- diagrams (mancala_cli.drawing) ---------------------------------------------------

def page(records: GameRecord | Iterable[GameRecord], target: str | os.PathLike[str] | IO[Any] | None = None,
         *, game: Game | str | None = None, flip: bool = False) -> str | None:
    """A self-contained HTML page to play through ``records`` (several get a
    game chooser), as ``mancala render --format html`` writes it: the tags,
    the diagram, the move list with comments, glyphs and variations, buttons
    and arrow keys, the position string. Every position, variations too, is
    worked out here by the engine; the page's script only shows them. A
    record with an illegal move shows the moves up to it and its problems; a
    record that cannot be replayed at all (no game, a bad ``Setup``) is left
    out, and when none is left :class:`ValueError` names the first one's
    error. ``game`` is the game of records without a ``Game`` tag; ``flip``
    puts North at the bottom. Returns the page when ``target`` is ``None``;
    otherwise writes it to a path (atomically) or a file object.

        >>> from mancala_cli import page, read
        >>> html = page(read('[Game "kingulu"]\\n\\n1. c1x6 (1. d1x6) d2 *\\n'))
        >>> html.startswith("<!DOCTYPE html>"), html.count('class="move"')
        (True, 3)
    """
    default = None if game is None else game_id(game)
    built = game_page([records] if isinstance(records, GameRecord) else records, default_game=default, flip=flip)
    if not built.games:
        first = built.unplayable[0].message if built.unplayable else "no record"
        raise ValueError(f"no record can be drawn: {first}")
    if target is None:
        return built.html
    _deliver(built.html.encode("utf-8"), target)
    return None


# -- reading ----------------------------------------------------------------------------

def read(source: str | os.PathLike[str] | bytes | IO[Any], *, format: str | None = None,
         game: Game | str | None = None, encoding: str = "utf-8", where: str | None = None) -> Iterator[GameRecord]:
    """Every record of ``source``, read as ``mancala validate`` reads it;
    with ``where``, only those that match this expression of the ``--where``
    language (docs/commands/filter.md, "Choosing games: --where"), which is
    checked at once: a bad one raises :class:`BadQuery`.

        >>> archive = '[Game "kingulu"]\\n\\n1. c1 *\\n\\n[Game "kingulu"]\\n\\n1. c1 d2 *\\n'
        >>> [len(r.moves) for r in read(archive, where="plies >= 2 and valid")]
        [2]
    """
    source = _source(source)
    if where is None:
        return _read(source, format=format, game=game, encoding=encoding)

    criteria = Criteria.where(where)
    return (record for record in _read(source, format=format, game=game, encoding=encoding)
            if criteria.matches(record))


def _read(source: str | os.PathLike[str] | bytes | IO[Any], *, format: str | None = None,
          game: Game | str | None = None, encoding: str = "utf-8") -> Iterator[GameRecord]:
    """Every record of ``source``, read as ``mancala validate`` reads it.

    ``source`` is a path, a binary or text file object, ``bytes``, or a
    ``str`` of record text (a ``str`` without a line break is a path). The format (``pmn``, ``json`` or
    ``xml``) is recognised by content unless ``format`` says it. ``game``
    is the game of records without a ``Game`` tag. A record that is
    damaged comes with its ``problems``; an input that cannot be read at all
    raises :class:`UnreadableInput` or :class:`BadArchive`.

        >>> from mancala_cli import read
        >>> [r.tag("Event") for r in read('[Game "kingulu"]\\n[Event "x"]\\n\\n1. c1x6 *\\n')]
        ['x']
    """
    if format is not None and format not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {format!r}")
    default = None if game is None else game_id(game)
    try:
        check_encoding(encoding)
        with open_any(source, encoding) as opened:
            for record in read_records(opened, format):
                if default is not None and record.tag("Game") is None:
                    record.default_game = default
                yield record
    except LookupError:
        raise UnreadableInput(f"unknown encoding {encoding!r}") from None
    except InputError as error:
        if isinstance(source, str) and any(blank in source for blank in " \t") \
                and str(error).startswith(f"{source}: cannot open:") and not os.path.lexists(source):
            # (a missing path with blanks in it: most likely one line of moves)
            raise UnreadableInput(f"{error} (the str was taken for a path: a str is record text when it holds "
                                  "a line break or begins with [, { or <; end the text with a line break, or give it as bytes)") from None
        raise library_error(error) from None
    except XMLArchiveError as error:
        raise library_error(error) from None


def _source(source: object) -> str | os.PathLike[str] | bytes | IO[Any]:
    """What :func:`read` is given, checked: ``bytearray`` and ``memoryview``
    read as ``bytes``; an empty ``str`` raises :class:`ValueError` and
    anything that is no path, text, bytes or file object :class:`TypeError`."""
    if isinstance(source, (bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, str) and not source:
        raise ValueError("source is an empty str: give a path, or record text")
    if isinstance(source, (str, bytes, os.PathLike)) or callable(getattr(source, "read", None)):
        return source  # type: ignore[return-value]
    raise TypeError(f"source must be a path, record text, bytes or a file object, not {type(source).__name__}")


# -- checking ----------------------------------------------------------------------------

@dataclasses.dataclass(slots=True)
class Report:
    """What checking one record found: data, not text (the command line's
    reporters turn it into lines).

    ``problems`` are sorted by where they are; ``result`` is the engine's
    result where the rules ended the game, else the record's, and ``reason``
    the rule that ended it (``None`` when the game did not end);
    ``positions`` holds the start and the position after every main-line
    move that could be played, ``final`` the last of them.
    """

    record: GameRecord
    game: Game | None
    problems: list[Problem]
    result: str
    reason: str | None
    plies: int
    positions: list[GamePosition]
    outcome: Outcome | None

    @property
    def valid(self) -> bool:
        """No error (warnings allowed)."""
        return not any(p.severity == "error" for p in self.problems)

    @property
    def final(self) -> GamePosition | None:
        """The last position reached, or ``None`` where the record has none."""
        return self.positions[-1] if self.positions else None

    @property
    def errors(self) -> list[Problem]:
        """The problems of severity ``error``."""
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        """The problems of severity ``warning``."""
        return [p for p in self.problems if p.severity == "warning"]

    def __repr__(self) -> str:
        game = "unknown game" if self.game is None else self.game.id
        errors, warnings = len(self.errors), len(self.warnings)
        ended = f" ({self.reason})" if self.reason else ""
        return (f"<Report {game}: {'valid' if self.valid else 'invalid'}, {self.plies} "
                f"pl{'y' if self.plies == 1 else 'ies'}, {self.result}{ended}, {errors} "
                f"error{'' if errors == 1 else 's'}, {warnings} warning{'' if warnings == 1 else 's'}>")


def check(record: GameRecord, *, game: Game | str | None = None, strict: bool = False) -> Report:
    """Replay ``record`` against the rules, with every check of ``mancala
    validate``: syntax found while reading, every move of the main line and
    the variations, outcome marks, move numbers, result and score. The
    record is left untouched. ``game`` is the game when the record has no
    ``Game`` tag; ``strict`` makes warnings errors.

        >>> from mancala_cli import check, read
        >>> record = next(read('[Game "kingulu"]\\n\\n1. c1x5 *\\n'))
        >>> [(p.code, p.line, p.column, p.move) for p in check(record).problems]
        [('bad-mark', 3, 4, 'c1x5')]
    """
    replayed = replay(record, None if game is None else game_id(game), positions=True)
    problems = [dataclasses.replace(p, severity="error") if strict else dataclasses.replace(p)
                for p in replayed.problems]
    problems.sort(key=lambda p: (p.line is None, p.line or 0, p.column or 0))
    rules = replayed.game
    positions = [] if rules is None or replayed.start is None else \
        [GamePosition(rules, p) for p in [replayed.start, *replayed.positions]]
    outcome = replayed.outcome
    return Report(record, rules, problems, replayed.result, outcome.reason if outcome else None,
                  replayed.plies, positions, outcome)


def annotate(record: GameRecord, *, depth: int | None = None, nodes: int | None = None,
             time: float | None = 1.0, game: Game | str | None = None,
             tablebase: Tablebase | str | os.PathLike[str] | None = None,
             proofs: ProofBook | str | os.PathLike[str] | Iterable[str | os.PathLike[str]] | None = None) \
        -> GameRecord:
    """A copy of ``record`` with the engine's facts for its main line, as
    ``mancala annotate`` writes them: the start's proven result as the
    comment before the first move, ``?`` or ``??`` with a move that keeps
    the result where a move lowers the mover's proven result, ``!`` for the
    only move of two or more that keeps a win. Each position is searched
    within ``depth`` plies, ``nodes`` positions and ``time`` seconds
    (``None``: no such limit); what they leave unproven is left alone. An
    invalid record (see :func:`check`) comes back unannotated; ``record``
    itself is left untouched. ``game`` is the game when the record has no
    ``Game`` tag. The searches ask the endgame tables ``tablebase`` (a
    :class:`~mancala_cli.solving.endgame.Tablebase` or the path of a file of
    ``mancala tablebase build``), and what they leave unknown is taken from
    ``proofs`` where they cover it (a :class:`~mancala_cli.solving.proofs.ProofBook`
    or the paths of proof files, such as ``docs/kingulu-proof*.txt.xz``), as
    ``mancala annotate --tablebase``/``--proof`` do.

        >>> from mancala_cli import annotate, read, write
        >>> record = next(read('[Game "kingulu"]\\n[Setup "0,0,14*,0,0,1/4*,0,1,3,1,0 S 6-18 13"]\\n\\n'
        ...                    '13. e1x1 1-0\\n'))
        >>> print(write(annotate(record, time=10)), end="")
        [Game "kingulu"]
        [Setup "0,0,14*,0,0,1/4*,0,1,3,1,0 S 6-18 13"]
        <BLANKLINE>
        {Proven: win for South} 13. e1x1! 1-0
        >>> annotate(record, nodes=1).moves[0].glyphs  # nothing is proven within one position
        []
    """
    check_limits(time=time, depth=depth, nodes=nodes)
    return annotate_record(record, None if game is None else game_id(game), limits=Limits(depth, nodes, time),
                           tablebase=endgame_tables(tablebase), proofs=proof_book(proofs)).record


# -- writing -----------------------------------------------------------------------------

def write(records: GameRecord | Iterable[GameRecord], target: str | os.PathLike[str] | IO[Any] | None = None,
          *, format: str | None = None, coords: str = "algebraic", positions: bool = False) -> str | None:
    """Write ``records`` as ``mancala convert`` does: canonical PMN, JSON
    Lines or one XML archive, moves in ``coords`` with the outcome marks the
    rules find (and, with ``positions``, the position after every move in
    JSON and XML). Returns the text when ``target`` is ``None``; otherwise
    writes it to a path (atomically) or a file object. The records are left
    untouched. Without ``format``, a path's extension chooses it as
    ``convert -o`` does (``.pmn``, ``.json``, ``.jsonl``, ``.ndjson``,
    ``.xml``), and anything else is PMN; a ``format`` that the path's
    extension contradicts raises :class:`ValueError`. A path that cannot be
    written raises :class:`UnwritableOutput`.

        >>> from mancala_cli import read, write
        >>> record = next(read('[Game "kingulu"]\\n\\n1. c1 d2 *\\n'))
        >>> print(write(record, coords="relative"), end="")
        [Game "kingulu"]
        [Coordinates "relative"]
        <BLANKLINE>
        1. S3x6 N3 *
    """
    if format is not None and format not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {format!r}")
    check_coords(coords)
    if isinstance(target, (str, os.PathLike)):
        format = chosen_format(format, target, RECORD_EXTENSIONS, option="format", default="pmn",
                               output_option="target")
    elif format is None:
        format = "pmn"

    if isinstance(records, GameRecord):
        records = [records]
    try:
        if isinstance(target, (str, os.PathLike)):
            try:
                with open_writer(os.fspath(target), format, coords=coords, positions=positions) as writer:
                    for record in records:
                        writer.write(record)
            except InputError as error:
                raise library_error(error) from None
            return None
        buffer: io.BytesIO | io.StringIO = io.BytesIO() if RecordWriter.binary(format) else io.StringIO()
        with RecordWriter(buffer, format, coords=coords, positions=positions) as writer:
            for record in records:
                writer.write(record)
    except XMLArchiveError as error:
        raise library_error(error) from None
    data = buffer.getvalue()
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    if target is None:
        return text
    _deliver(text.encode("utf-8"), target)
    return None


def _deliver(data: bytes, target: str | os.PathLike[str] | IO[Any]) -> None:
    if isinstance(target, (str, os.PathLike)):
        try:
            with atomic_output(os.fspath(target), binary=True) as stream:
                stream.write(data)
        except InputError as error:
            raise library_error(error) from None
        return
    if isinstance(target, io.TextIOBase) or hasattr(target, "encoding"):
        target.write(data.decode("utf-8"))
    else:
        target.write(data)

