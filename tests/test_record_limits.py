"""JSON booleans and numbers, and the line bound of XML documents and the
bounds of their games."""
import io
import json
import pathlib
import re
import subprocess
import sys
import textwrap

import pytest
from typer.testing import CliRunner

from mancala_cli.cli.commands import whole
from mancala_cli.files.sources import MAX_LINE as MAX_TEXT_LINE
from notation.jsonl import JSONRecordError, json_line_to_record
from notation.notation_errors import XMLArchiveError
from notation.xml_reader import CHUNK, MAX_GAME_BYTES, MAX_GAME_MARKUP, MAX_LINE, read_archive

app = whole()

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


# -- XML: a game, and the input between games, is bounded -------------------------------------

HEAD = b'<?xml version="1.0" encoding="UTF-8"?>\n<mancala version="1">\n'  # 2 lines
GAME = (b'  <game>\n    <tags>\n      <tag name="Game">kingulu</tag>\n    </tags>\n'
        b'    <moves>\n      <move hole="c1" captured="6"/>\n    </moves>\n  </game>\n')  # 8 lines
TAIL = b"</mancala>\n"
OPEN = b'  <game>\n    <tags>\n      <tag name="Game">kingulu</tag>\n    </tags>\n    <moves>\n'
CLOSE = b"    </moves>\n  </game>\n"

#: The hostile documents: what follows two good games (or comes before them),
#: written a line at a time by a child so that the test holds none of it.
HOSTILE = {
    # one game of 2,000,000 <move> lines
    "moves": """
        w(HEAD + GAME + GAME + OPEN)
        for _ in range(200):
            w(b'      <move hole="d1"/>\\n' * 10_000)
        w(CLOSE + TAIL)
    """,
    # 5,000,000 comments in the root before the first game, or after the second
    "comments-before": """
        w(HEAD)
        for _ in range(500):
            w(b"<!-- x -->\\n" * 10_000)
        w(GAME + GAME + TAIL)
    """,
    "comments-after": """
        w(HEAD + GAME + GAME)
        for _ in range(500):
            w(b"<!-- x -->\\n" * 10_000)
        w(GAME + TAIL)
    """,
    # 1,000,000 attributes on one element, one a line
    "attributes": """
        w(HEAD + GAME + GAME + OPEN + b'      <move hole="d1"\\n')
        for i in range(1_000_000):
            w(b'        a%d="x"\\n' % i)
        w(b"      />\\n" + CLOSE + TAIL)
    """,
}
TOO_MUCH = f"has more than {MAX_GAME_MARKUP:,} tags and attributes"
NOT_READ = "the rest of the input is not read"
EXPECTED = {  # the error, and the games read before it
    "moves": (f"big.xml, line 19: game 3 {TOO_MUCH}; {NOT_READ}", 2),
    "comments-before": (f"big.xml, line 3: the input before the first game {TOO_MUCH}; {NOT_READ}", 0),
    "comments-after": (f"big.xml, line 19: the input after game 2 {TOO_MUCH} without another game; {NOT_READ}", 2),
    "attributes": (f"big.xml, line 19: game 3 {TOO_MUCH}; {NOT_READ}", 2),
}


@pytest.mark.parametrize("kind", HOSTILE)
def test_hostile_xml_stops_at_its_game_in_bounded_memory(tmp_path, kind):
    """Without the bounds, these took 1.9 GB, 1.4 GB and 370 MB: the parser
    built the whole game (or all the comments) first."""
    make = textwrap.dedent(f"""
        import sys
        HEAD, GAME, TAIL, OPEN, CLOSE = {HEAD!r}, {GAME!r}, {TAIL!r}, {OPEN!r}, {CLOSE!r}
        with open("big.xml", "wb") as out:
            w = out.write
    """) + textwrap.indent(textwrap.dedent(HOSTILE[kind]), "    ")
    subprocess.run([sys.executable, "-c", make], cwd=tmp_path, check=True, timeout=60)
    # (measured in a child of its own: the peak of its children is the commands')
    measure = textwrap.dedent("""
        import json, resource, subprocess, sys
        runs = [subprocess.run([sys.executable, "-m", "mancala_cli", *args, "big.xml"], capture_output=True,
                               text=True, timeout=60)
                for args in (["validate"], ["convert", "--to", "pmn"])]
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
        print(json.dumps([peak] + [[run.returncode, run.stdout, run.stderr] for run in runs]))
    """)
    done = subprocess.run([sys.executable, "-c", measure], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    peak, validated, converted = json.loads(done.stdout)
    error, games = EXPECTED[kind]
    good = HEAD + GAME * games + TAIL
    for code, stdout, stderr in (validated, converted):
        assert (code, stderr) == (1, f"mancala: error: {error}\n")
    assert validated[1].splitlines()[-1] == f"{games} games, {games} moves, 1 error, 0 warnings"
    assert converted[1] == runner.invoke(app, ["convert", "--to", "pmn", "-"], input=good).stdout
    assert peak < 256, peak


def _game_with_comment(text: bytes) -> bytes:
    return b'  <game>\n    <comment>' + text + b'</comment>\n  </game>\n'


def _read_all(document: bytes) -> tuple[list, XMLArchiveError | None]:
    read = []
    try:
        for record in read_archive(document, file="a.xml"):
            read.append(record)
    except XMLArchiveError as error:
        return read, error
    return read, None


def test_a_game_of_the_bounds_is_read_and_a_longer_one_is_not():
    """The bounds themselves, cheaply: ``=`` in a comment count as markup,
    and a comment of short lines makes a game of many bytes; a game of as
    many as the bound is read, one more than a few chunks over is not."""
    shell = _game_with_comment(b"")
    marks = shell.count(b"<") + shell.count(b"=")
    fits = _game_with_comment(b"=" * (MAX_GAME_MARKUP - marks))
    assert fits.count(b"<") + fits.count(b"=") == MAX_GAME_MARKUP
    over = _game_with_comment(b"=" * (MAX_GAME_MARKUP - marks + 3 * CHUNK))
    line = b"x" * 1023 + b"\n"
    text = line * ((MAX_GAME_BYTES - len(shell)) // len(line))
    text += b"x" * (MAX_GAME_BYTES - len(shell) - len(text))
    long = _game_with_comment(text)
    assert len(long) == MAX_GAME_BYTES
    longer = _game_with_comment(text + line * (3 * CHUNK // len(line)))
    for game, error in ((fits, None), (long, None), (over, f"game 2 {TOO_MUCH}"),
                        (longer, f"game 2 is longer than {MAX_GAME_BYTES:,} bytes")):
        read, caught = _read_all(HEAD + GAME + game + GAME + TAIL)
        assert not any(record.problems for record in read)
        if error is None:
            assert caught is None and len(read) == 3
            assert len(read[1].comment) == len(game) - len(shell)
        else:
            assert len(read) == 1
            assert str(caught) == f"a.xml, line 11: {error}; {NOT_READ}"


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_markup_is_counted_in_code_units(encoding):
    """м and н (U+043C, U+043D) hold the bytes of < and = but are not markup."""
    def document(text: str) -> bytes:
        return ("\ufeff" + (HEAD + GAME + _game_with_comment(b"") + TAIL).decode()
                .replace("UTF-8", "UTF-16").replace("<comment>", "<comment>" + text)).encode(encoding)

    read, caught = _read_all(document("мн" * MAX_GAME_MARKUP))
    assert caught is None and read[1].comment == "мн" * MAX_GAME_MARKUP
    read, caught = _read_all(document("=" * (MAX_GAME_MARKUP + 3 * CHUNK)))
    assert len(read) == 1 and str(caught) == f"a.xml, line 11: game 2 {TOO_MUCH}; {NOT_READ}"


def test_the_input_between_games_is_bounded(monkeypatch):
    """Comments, processing instructions and white space between games take
    the same bounds (here made small): as many as the bound are read."""
    from notation import xml_reader

    monkeypatch.setattr(xml_reader, "MAX_GAME_MARKUP", 1000)
    monkeypatch.setattr(xml_reader, "MAX_GAME_BYTES", 100_000)
    # between two games: 999 comments and the next game's start tag
    read, caught = _read_all(HEAD + GAME + b"<!---->\n" * 999 + GAME + TAIL)
    assert caught is None and len(read) == 2
    read, caught = _read_all(HEAD + GAME + b"<?pi?>" + b"<!---->\n" * (3 * CHUNK) + GAME + TAIL)
    assert len(read) == 1
    assert str(caught) == f"a.xml, line 11: the input after game 1 has more than 1,000 tags and attributes " \
                          f"without another game; {NOT_READ}"
    read, caught = _read_all(HEAD + b"\n<!---->" * (3 * CHUNK) + GAME + TAIL)
    assert str(caught) == f"a.xml, line 4: the input before the first game has more than 1,000 tags and " \
                          f"attributes; {NOT_READ}"
    # white space: bytes
    read, caught = _read_all(HEAD + GAME + b" \n" * 49_000 + GAME + TAIL)
    assert caught is None and len(read) == 2
    read, caught = _read_all(HEAD + GAME + b"<!---->" + b" \n" * 51_000 + 3 * CHUNK * b"\n" + GAME + TAIL)
    assert len(read) == 1
    assert str(caught) == f"a.xml, line 11: the input after game 1 is longer than 100,000 bytes " \
                          f"without another game; {NOT_READ}"


class _Trickle(io.RawIOBase):
    """A pipe that gives ``first`` bytes, then one byte at each read."""

    def __init__(self, data: bytes, first: int) -> None:
        self.data, self.at, self.first = data, 0, first

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        byte = self.data[self.at:self.at + (self.first if self.at == 0 else 1)]
        self.at += len(byte)
        return byte


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16-le", "utf-16-be", "utf-16"])
def test_an_input_given_a_byte_at_a_time_is_read_whole(encoding):
    """A byte kept back for the next UTF-16 code unit (or to tell the
    encoding by) is not taken for the end of the input."""
    text = (HEAD + GAME + GAME + TAIL).decode()
    if encoding != "utf-8":
        text = text.replace("UTF-8", "UTF-16")
    document = text.encode(encoding)
    whole = list(read_archive(document, file="a.xml"))
    assert len(whole) == 2
    for first in (1, 2, 4):
        trickled = list(read_archive(_Trickle(document, first), file="a.xml"))
        assert [(r.tags, r.line) for r in trickled] == [(r.tags, r.line) for r in whole]
        assert [r.problems for r in trickled] == [r.problems for r in whole] == [[], []]
