"""JSON booleans and numbers, and the line bound of XML documents."""
import io
import json
import pathlib
import re

import pytest
from typer.testing import CliRunner

from mancala_cli.cli import app
from mancala_cli.files.sources import MAX_LINE as MAX_TEXT_LINE
from notation.errors import XMLArchiveError
from notation.jsonl import JSONRecordError, json_line_to_record
from notation.xml import MAX_LINE, read_archive
from notation.xml_reader import CHUNK

ROOT = pathlib.Path(__file__).resolve().parents[1]
VILLAGE = ROOT / "examples" / "kingulu-village-match.pmn"
runner = CliRunner()


def village(target: str) -> bytes:
    return runner.invoke(app, ["convert", str(VILLAGE), "--to", target]).stdout_bytes


# -- JSON -------------------------------------------------------------------------------------

def _first_move_with(key: str, value) -> str:
    obj = json.loads(village("json"))
    obj["moves"][0][key] = value
    return json.dumps(obj)


@pytest.mark.parametrize("key", ["reserved", "x0"])
@pytest.mark.parametrize("value,shown", [("yes", "'yes'"), ("", "''"), (1, "1"), (0, "0"), (None, "None"),
                                         ([], "[]")])
def test_only_json_true_and_false_are_booleans(key, value, shown):
    with pytest.raises(JSONRecordError) as caught:
        json_line_to_record(_first_move_with(key, value))
    assert str(caught.value) == f'"{key}" must be true or false, not {shown}'


def test_json_booleans_read_as_they_are():
    assert json_line_to_record(_first_move_with("reserved", True)).moves[0].reserved is True
    assert json_line_to_record(_first_move_with("reserved", False)).moves[0].reserved is False
    obj = json.loads(_first_move_with("captured", 0))
    obj["moves"][0]["x0"] = True
    assert json_line_to_record(json.dumps(obj)).moves[0].text == "d1x0"


def test_a_bad_boolean_is_reported_at_the_records_line():
    good = village("json").decode()
    text = good + _first_move_with("reserved", "yes") + "\n"
    result = runner.invoke(app, ["validate", "-"], input=text)
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == ('<stdin>:2:1: error: syntax: not a JSON game record: '
                                             '"reserved" must be true or false, not \'yes\'')


def test_an_over_long_json_integer_has_a_message_of_the_project():
    text = _first_move_with("captured", 0).replace('"captured": 0', '"captured": ' + "9" * 5000, 1)
    with pytest.raises(JSONRecordError) as caught:
        json_line_to_record(text)
    assert str(caught.value) == "a number of more than 4,300 digits"
    result = runner.invoke(app, ["validate", "-"], input=text + "\n")
    assert result.stdout.splitlines()[0] == "<stdin>:1:1: error: syntax: not a JSON game record: " \
                                            "a number of more than 4,300 digits"
    assert "sys." not in result.stdout


# -- XML: no line longer than the line bound reaches libxml2 ---------------------------------

class Counted(io.BytesIO):
    """A document that counts the bytes read from it."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.taken = 0

    def read(self, size=-1):
        data = super().read(size)
        self.taken += len(data)
        return data


def _with_comment_line(text: bytes, line: bytes) -> tuple[bytes, int]:
    """The village match with a comment of ``line`` on a line of its own
    after its first move without one (``moves[K]``); the number of that line, and K."""
    end = re.search(rb"<move [^>]*/>", text).end() - 2
    head = text[:end] + b"><comment>\n"
    return head + line + b"</comment></move>" + text[end + 2:], head.count(b"\n") + 1


def test_the_xml_line_bound_is_the_text_line_bound():
    assert MAX_LINE == MAX_TEXT_LINE
    assert CHUNK < MAX_LINE


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16-le", "utf-16-be"])
def test_a_line_over_the_bound_ends_the_document_before_the_parser_holds_it(encoding):
    one = village("xml")
    root = b'<mancala version="1">\n'
    two = one.replace(b"</mancala>\n", one.split(root, 1)[1])  # the game twice
    # 30 MB of one comment line in the second game
    at = two.index(b"<move ", two.rindex(b"<game "))
    end = two.index(b"/>", at)
    head = two[:end] + b"><comment>\n"
    document = head + b"x" * (30 << 20) + b"\n</comment></move>" + two[end + 2:]
    number = head.count(b"\n") + 1
    width = 1
    if encoding != "utf-8":
        width = 2
        text = document.decode("utf-8").replace('encoding="UTF-8"', 'encoding="UTF-16"')
        document = ("\ufeff" + text).encode(encoding)
    source = Counted(document)
    read = []
    with pytest.raises(XMLArchiveError) as caught:
        for record in read_archive(source, file="big.xml"):
            read.append(record)
    assert str(caught.value) == (f"big.xml, line {number}: the line is longer than {MAX_LINE} bytes; "
                                 f"the rest of the input is not read")
    assert len(read) == 1 and not read[0].problems and len(read[0].moves) == 23  # the game before it
    assert source.taken <= (len(head) + 1) * width + MAX_LINE + 2 * CHUNK


def test_a_line_of_the_bound_is_read_and_one_byte_more_is_not():
    text = village("xml")
    fits, number = _with_comment_line(text, b"x" * (MAX_LINE - 1) + b"\n")
    (record,) = read_archive(fits)
    assert max(len(node.comment or "") for node in record.moves) == MAX_LINE + 1  # (the line ends around it)
    over, _ = _with_comment_line(text, b"x" * MAX_LINE + b"\n")
    with pytest.raises(XMLArchiveError) as caught:
        list(read_archive(over))
    assert caught.value.line == number


def test_a_long_document_of_short_lines_is_read_whole():
    text = village("xml")
    document, _ = _with_comment_line(text, b"words on a line\n" * ((MAX_LINE // 16) + 1000))
    (record,) = read_archive(document)
    assert sum((node.comment or "").count("words on a line") for node in record.moves) == (MAX_LINE // 16) + 1000


def test_validate_reports_the_long_line_in_one_line(tmp_path):
    document, number = _with_comment_line(village("xml"), b"x" * (MAX_LINE + 10) + b"\n")
    path = tmp_path / "long.xml"
    path.write_bytes(document)
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    assert result.stderr == (f"mancala: error: {path}, line {number}: the line is longer than {MAX_LINE} bytes; "
                             f"the rest of the input is not read\n")
