"""Where a move read from XML or JSON Lines is: a problem at a move gives a
line and a column counted from 1 (the ``<`` of its ``<move>`` element; a
JSON Lines record's line, column 1), never column 0."""
from __future__ import annotations

import io
import json
import pathlib

from typer.testing import CliRunner

from mancala_cli.cli.commands import whole
from notation.pmn_reader import read_games
from notation.record import GameRecord
from notation.xml_reader import read_archive
from notation.xml_writer import write_archive

app = whole()

runner = CliRunner()
TOURNAMENT = pathlib.Path(__file__).parent.parent / "examples" / "kingulu-tournament.pmn"
KG_ORIGIN = ("3. f2: KG-ORIGIN: f2 is not one of S's holes "
             "[position 1,1,11,2,4,5/2,1,5*,0,4,3 S 9-0 3; legal: a1 b1 e1 f1]")


def places(records: list[GameRecord]) -> list[list[tuple[str, int | None, int | None]]]:
    """Each game's moves (a move, then its variations) with their line and column."""
    out = []
    for record in records:
        found, work = [], [iter(record.moves)]
        while work:
            node = next(work[-1], None)
            if node is None:
                work.pop()
                continue
            found.append((node.hole, node.line, node.column))
            work.extend(iter(variation) for variation in reversed(node.variations))
        out.append(found)
    return out


def invoke(*args: str):
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output
    return result


def test_a_rule_error_in_an_xml_game_is_at_the_lt_of_its_move(tmp_path):
    xml = tmp_path / "t.xml"
    assert invoke("convert", str(TOURNAMENT), "-o", str(xml)).exit_code == 0
    lines = xml.read_text().split("\n")
    assert lines[19] == '      <move hole="f1" number="3" dots="."/>'  # 3. f1 of the first game
    lines[19] = '      <move hole="f2" number="3" dots="."/>'
    ill = tmp_path / "ill.xml"
    ill.write_text("\n".join(lines))
    result = invoke("validate", str(ill))
    assert (result.exit_code, result.stdout) == (1, f"{ill}:20:7: error: {KG_ORIGIN}\n"
                                                    "4 games, 106 moves, 1 error, 0 warnings\n")
    result = invoke("validate", "--format", "json", str(ill))
    (problem,) = json.loads(result.stdout.splitlines()[0])["problems"]
    assert (problem["line"], problem["column"], problem["rule"]) == (20, 7, "KG-ORIGIN")


def test_a_rule_error_in_a_json_lines_game_is_at_its_line_column_1(tmp_path):
    jsonl = tmp_path / "t.jsonl"
    assert invoke("convert", str(TOURNAMENT), "--to", "json", "-o", str(jsonl)).exit_code == 0
    lines = jsonl.read_text().split("\n")
    first = json.loads(lines[0])
    assert first["moves"][4]["move"] == "f1"
    first["moves"][4]["move"] = "f2"
    lines[0] = json.dumps(first, ensure_ascii=False)
    ill = tmp_path / "ill.jsonl"
    ill.write_text("\n".join(lines))
    result = invoke("validate", str(ill))
    assert (result.exit_code, result.stdout) == (1, f"{ill}:1:1: error: {KG_ORIGIN}\n"
                                                    "4 games, 106 moves, 1 error, 0 warnings\n")
    result = invoke("validate", "--format", "json", str(ill))
    (problem,) = json.loads(result.stdout.splitlines()[0])["problems"]
    assert (problem["line"], problem["column"]) == (1, 1)


GAME = '<game><tags><tag name="Game">kingulu</tag></tags>'
#: Moves two to a line, a start tag over two lines, ``<move`` in a comment,
#: a CDATA section and a processing instruction, a tab, a non-ASCII
#: character, two games on a line.
DOCUMENT = ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<mancala version="1">\n'
            '<!-- <move hole="a1"/> is no move -->\n'
            f'{GAME}\n'
            '<moves><move hole="c1"/><move hole="d2"><comment>é <![CDATA[<move hole="b1"/>]]></comment></move>\n'
            '\t<move\n'
            '   hole="e1"/><?pi <move?><move hole="f1"/></moves>\n'
            f'</game>{GAME}<moves><move hole="c1"><variation><move hole="d1"/></variation></move></moves></game>\n'
            '</mancala>\n')
PLACES = [[("c1", 5, 8), ("d2", 5, 25), ("e1", 6, 2), ("f1", 7, 27)], [("c1", 8, 64), ("d1", 8, 91)]]


def test_xml_moves_are_at_the_lt_of_their_start_tags():
    assert places(list(read_archive(DOCUMENT.encode()))) == PLACES


def test_xml_columns_count_characters_in_the_declared_encoding_and_in_utf_16():
    assert places(list(read_archive(DOCUMENT.encode("utf-16")))) == PLACES
    assert places(list(read_archive(b"\xef\xbb\xbf" + DOCUMENT.encode()))) == PLACES
    latin = (b'<?xml version="1.0" encoding="ISO-8859-1"?>\n<mancala version="1">' + GAME.encode()
             + b'<moves>\n<move hole="c1"><comment>\xc3\xa9</comment></move><move hole="d2"/></moves></game></mancala>')
    # (the two bytes of UTF-8's é are two characters in ISO-8859-1)
    assert places(list(read_archive(latin))) == [[("c1", 3, 1), ("d2", 3, 45)]]


class OneByteAtATime(io.RawIOBase):
    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        self.at += 1
        return self.data[self.at - 1:self.at]


def test_xml_columns_do_not_depend_on_how_the_input_comes():
    assert places(list(read_archive(OneByteAtATime(DOCUMENT.encode())))) == PLACES  # type: ignore[arg-type]
    games = list(read_games(TOURNAMENT.read_text())) * 40  # about 250 KB: many chunks of 32 KiB
    out = io.BytesIO()
    write_archive(games, out)
    lines = out.getvalue().decode().split("\n")
    read = places(list(read_archive(out.getvalue())))
    assert sum(map(len, read)) > 4000
    for game in read:
        for hole, line, column in game:
            assert line is not None and column is not None
            assert lines[line - 1][column - 1:].startswith(f'<move hole="{hole}"')


def test_a_damaged_xml_game_and_the_next_keep_the_columns_of_their_moves():
    document = ('<?xml version="1.0"?>\n<mancala version="1">\n'
                f'{GAME}<moves>\n'
                '  <move hole="c1"/>\n'
                '  <p:move xmlns:p="urn:x" hole="d2"/><move hole="e1"/>\n'
                '</moves></game>\n'
                f'{GAME}<moves>\n'
                '    <move hole="c1"/>\n'
                '</moves></game></mancala>\n')
    first, second = read_archive(document.encode())
    assert places([first, second]) == [[("c1", 4, 3)], [("c1", 8, 5)]]
    assert [(p.code, p.line, p.column) for p in first.problems] == [("syntax", 5, 3)]
