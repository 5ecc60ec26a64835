"""The formats records are written in, and the one rule that chooses the
format of an output: the format given, else the one its file name's
extension stands for, else a default. ``convert``, ``filter`` and
``annotate`` choose with it for ``-o FILE``, ``render`` for its drawings,
and :func:`mancala_cli.write` and the library's runs for a path."""
from __future__ import annotations

import os

__all__ = ["FORMATS", "RECORD_EXTENSIONS", "FormatChoiceError", "chosen_format", "target_format"]

#: The formats records are written in.
FORMATS = ("pmn", "json", "xml")

#: The format a file name's extension stands for, for records: what
#: ``convert``, ``filter`` and ``annotate`` write to ``-o FILE`` and what
#: :func:`mancala_cli.write` and the library's runs write to a path.
RECORD_EXTENSIONS = {".pmn": "pmn", ".json": "json", ".jsonl": "json", ".ndjson": "json", ".xml": "xml"}


class FormatChoiceError(ValueError):
    """The format of an output cannot be chosen: none is given and the
    output's extension names none (where there is no default), or the one
    given contradicts the extension."""


def chosen_format(given: str | None, output: str | os.PathLike[str] | None, extensions: dict[str, str], *,
                  option: str, default: str | None, output_option: str = "-o") -> str:
    """The format to write to ``output``: ``given`` or, when it is not
    given, the one ``output``'s extension stands for in ``extensions``, else
    ``default``. No format and no default, or a given format that another
    format's extension contradicts, raise :class:`FormatChoiceError` in the
    words of the caller's options (``option``, ``output_option``). The
    command line (``--to``, ``--format``) and the library (``format=``,
    ``to=``) both choose with it.

        >>> chosen_format(None, "games.jsonl", RECORD_EXTENSIONS, option="--to", default=None)
        'json'
        >>> chosen_format("pmn", "a.xml", RECORD_EXTENSIONS, option="format", default="pmn", output_option="target")
        Traceback (most recent call last):
        ...
        mancala_cli.files.formats.FormatChoiceError: target a.xml asks for xml, but format is pmn: give one of them, ...
    """
    name = os.fspath(output) if output is not None else ""
    named = extensions.get(os.path.splitext(name)[1].lower()) if name else None
    if given is None:
        if named is not None:
            return named
        if default is None:
            raise FormatChoiceError(f"missing option {option} ({_listed(list(dict.fromkeys(extensions.values())))})")
        return default
    if named is not None and named != given:
        raise FormatChoiceError(f"{output_option} {name} asks for {named}, but {option} is {given}: "
                                "give one of them, or make them agree")
    return given


def _listed(names: list[str]) -> str:
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]


def target_format(to: str | None, output: str | os.PathLike[str] | None) -> str:
    """The format the library's runs (``write_files``, ``filter_files``,
    ``annotate_files``) write to ``output``: ``to``, else the one its
    extension stands for, as ``-o`` chooses it, else PMN. A ``to`` that is no
    format, or that the extension contradicts, raises :class:`ValueError`.

        >>> target_format(None, "picked.xml"), target_format("json", None), target_format(None, "-")
        ('xml', 'json', 'pmn')
    """
    if to is not None and to not in FORMATS:
        raise ValueError(f"to must be pmn, json or xml, not {to!r}")
    return chosen_format(to, None if output == "-" else output, RECORD_EXTENSIONS, option="to", default="pmn",
                         output_option="output")
