"""XML archives of game records, validated against a RELAX NG schema shipped
in the package (``notation/schema/mancala.rng``).

One document holds every game of the input::

    <?xml version="1.0" encoding="UTF-8"?>
    <mancala version="1">
      <game>
        <tags>
          <tag name="Game">kingulu</tag>
          <tag name="Result">*</tag>
        </tags>
        <moves>
          <move hole="d1" captured="6" number="1" dots=".">
            <comment>empty-hole capture</comment>
            <variation>
              <move hole="c1"/>
            </variation>
          </move>
        </moves>
        <result>*</result>
      </game>
    </mancala>

Writing streams the document game by game (:class:`ArchiveWriter`: one
game's element tree in memory at a time), and checks every value the
schema restricts before a game is written, so that every document written
validates. Reading streams too (:func:`lxml.etree.iterparse` over the
``<game>`` elements, each cleared once read) and validates every game against
the schema's ``game`` definition, and the root element and whatever lies
between the games against the whole schema: memory stays constant however many
games a document holds, and every document is validated in full.

Reading is safe: no DTD (a document with a DOCTYPE is refused, so no entity
is ever expanded and nothing is fetched), no network.

    >>> import io
    >>> from .record import GameRecord, MoveNode
    >>> record = GameRecord(tags=[("Game", "kingulu")], moves=[MoveNode("d1", captured=0)], result="*")
    >>> out = io.BytesIO()
    >>> write_archive([record], out)
    >>> [(r.tags, r.moves[0].text, r.result) for r in read_archive(out.getvalue())]
    [([('Game', 'kingulu')], 'd1x0', '*')]

Limits: libxml2 refuses documents whose elements nest deeper than 2048, so an
archive holds variations nested at most :data:`MAX_VARIATION_DEPTH` (1000)
deep; :func:`write_archive` refuses deeper records and :func:`read_archive`
deeper documents with an :class:`XMLArchiveError`. XML 1.0 cannot hold most
control characters (U+0000-U+001F but tab, newline and carriage return;
U+FFFE, U+FFFF; lone surrogates): a record holding one is refused too.

The modules: :mod:`notation.xml_schema` (the schema and the safe parser
settings), then :mod:`notation.xml_writer` and :mod:`notation.xml_reader`
on it; this module is their public face.
"""
from __future__ import annotations

from .errors import XMLArchiveError
from .record import MAX_VARIATION_DEPTH
from .sniffing import is_xml
from .xml_reader import (
    MAX_GAME_BYTES as MAX_GAME_BYTES,
    MAX_GAME_MARKUP as MAX_GAME_MARKUP,
    MAX_LINE as MAX_LINE,
    read_archive,
)
from .xml_schema import VERSION as VERSION, game_schema, schema
from .xml_writer import ARCHIVE_HEAD, ARCHIVE_TAIL, ArchiveWriter, FaultT as FaultT, game_xml, write_archive

__all__ = ["ARCHIVE_HEAD", "ARCHIVE_TAIL", "MAX_VARIATION_DEPTH", "ArchiveWriter", "XMLArchiveError", "game_schema",
           "game_xml", "is_xml", "read_archive", "schema", "write_archive"]
