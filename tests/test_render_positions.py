"""``render --game ID --positions FILE --out-dir DIR``: one diagram per line
of position strings, named by the line (``pos-0001.svg``), the same bytes as
``render --position`` draws; bad lines reported with their number (exit 1)
while the others are drawn; usage errors; stale diagrams; bounded lines."""
from __future__ import annotations

import errno
import os
import pathlib
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from mancala_cli.cli.commands import whole
from mancala_cli.files.sources import MAX_POSITION_LINE

app = whole()

runner = CliRunner()

START = "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1"
LATER = "0,1,0,3,1,6*/0,11,1,1,3,3 S 7-11 4"
OVER = "0,0,0,0,0,0/0,0,0,0,0,1 N 35-12 20"  # North has no move: the game is over
MACKAY = "0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1/0,0,0,0,0,0,0,0 S 24-24 1"
SUM = "seeds do not add up: 49 on the board + 0-0 in the banks = 49, kingulu has 48"
FIELDS = "a position string has 4 fields (rows, side, banks, move number), not 1"


def run(*args, input=None):
    result = runner.invoke(app, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output
    return result


def drawn(position: str, *options: str, game: str = "kingulu") -> bytes:
    """What ``render --position`` writes for ``position``."""
    result = run("render", "--game", game, "--position", position, *options)
    assert result.exit_code == 0, result.stderr
    return result.stdout_bytes


def names(folder: pathlib.Path) -> list[str]:
    """The files of ``folder`` but the list of the diagrams render wrote there."""
    return sorted(p.name for p in folder.iterdir() if p.name != ".mancala-render")


def test_one_diagram_per_line_named_by_its_line_and_byte_identical(tmp_path):
    listing = tmp_path / "list.txt"
    listing.write_bytes(f"{START}\n\n{LATER}\r\n \t\n  {OVER}\t\n".encode())
    out = tmp_path / "out"
    result = run("render", "--game", "kingulu", "--positions", listing, "--out-dir", out)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")
    assert names(out) == ["pos-0001.svg", "pos-0003.svg", "pos-0005.svg"]
    assert (out / "pos-0001.svg").read_bytes() == drawn(START)
    assert (out / "pos-0003.svg").read_bytes() == drawn(LATER)
    assert (out / "pos-0005.svg").read_bytes() == drawn(f"  {OVER}\t") == drawn(OVER)
    assert "South wins 36–12 (KG-7)".encode() in (out / "pos-0005.svg").read_bytes()


def test_text_flip_and_style_apply_to_every_diagram(tmp_path):
    listing = tmp_path / "list.txt"
    listing.write_text(f"{START}\n{LATER}\n")
    out = tmp_path / "out"
    assert run("render", "-g", "kingulu", "--positions", listing, "--out-dir", out,
               "--format", "text", "--flip").exit_code == 0
    assert names(out) == ["pos-0001.txt", "pos-0002.txt"]
    assert (out / "pos-0001.txt").read_bytes() == drawn(START, "--format", "text", "--flip")
    assert (out / "pos-0002.txt").read_bytes() == drawn(LATER, "--format", "text", "--flip")
    css = tmp_path / "big.css"
    css.write_text(".count { font-size: 20px }\n")
    styled = tmp_path / "styled"
    assert run("render", "-g", "kingulu", "--positions", listing, "--out-dir", styled, "--style", css,
               "--flip").exit_code == 0
    assert (styled / "pos-0002.svg").read_bytes() == drawn(LATER, "--style", str(css), "--flip")
    assert b"font-size: 20px" in (styled / "pos-0002.svg").read_bytes()


def test_other_games(tmp_path):
    listing = tmp_path / "list.txt"
    listing.write_text(MACKAY + "\n")
    out = tmp_path / "out"
    assert run("render", "-g", "kimasai-mackay", "--positions", listing, "--out-dir", out).exit_code == 0
    assert (out / "pos-0001.svg").read_bytes() == drawn(MACKAY, game="kimasai-mackay")


def test_bad_lines_are_reported_and_the_others_drawn(tmp_path):
    listing = tmp_path / "list.txt"
    listing.write_bytes(f"{START}\nbogus\n\n4,4,4,4,4,4/4,4,4,4,4,5 S 0-0 1\n{MACKAY}\n{LATER}".encode())
    out = tmp_path / "out"
    result = run("render", "--game", "kingulu", "--positions", listing, "--out-dir", out)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == (f"{listing}:2: error: bad position for kingulu: {FIELDS}\n"
                             f"{listing}:4: error: bad position for kingulu: {SUM}\n"
                             f"{listing}:5: error: bad position for kingulu: 4 rows of holes, "
                             "kingulu has 2 rows of 6\n")
    assert names(out) == ["pos-0001.svg", "pos-0006.svg"]  # the last line has no line end
    assert (out / "pos-0006.svg").read_bytes() == drawn(LATER)


def test_standard_input(tmp_path):
    out = tmp_path / "out"
    result = run("render", "--game", "kingulu", "--positions", "-", "--out-dir", out,
                 input=f"{LATER}\nnonsense here\n".encode())
    assert result.exit_code == 1
    assert result.stderr == ("<stdin>:2: error: bad position for kingulu: a position string has 4 fields "
                             "(rows, side, banks, move number), not 2\n")
    assert names(out) == ["pos-0001.svg"]
    assert (out / "pos-0001.svg").read_bytes() == drawn(LATER)


def test_a_pipe_from_convert(tmp_path):
    """The pipeline the README shows: every position of a record, drawn in one process."""
    record = pathlib.Path(__file__).resolve().parents[1] / "examples" / "kingulu-village-match.pmn"
    convert = subprocess.run([sys.executable, "-m", "mancala_cli", "convert", str(record), "--to", "json",
                              "--positions"], capture_output=True, check=True, timeout=120)
    import json
    positions = [m["position"] for m in json.loads(convert.stdout)["moves"]]
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "mancala_cli", "render", "--game", "kingulu", "--positions",
                           "-", "--out-dir", str(out)], input="".join(p + "\n" for p in positions).encode(),
                          capture_output=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert names(out) == [f"pos-{k:04d}.svg" for k in range(1, len(positions) + 1)]
    assert (out / "pos-0023.svg").read_bytes() == drawn(positions[22])


def test_from_line_10000_the_number_is_wider(tmp_path):
    listing = tmp_path / "list.txt"
    listing.write_text(f"{START}\n" + "\n" * 9998 + f"{LATER}\n{START}\n")
    out = tmp_path / "out"
    assert run("render", "-g", "kingulu", "--positions", listing, "--out-dir", out).exit_code == 0
    assert names(out) == ["pos-0001.svg", "pos-10000.svg", "pos-10001.svg"]
    assert (out / "pos-10000.svg").read_bytes() == drawn(LATER)


def test_an_empty_input_draws_nothing(tmp_path):
    out = tmp_path / "out"
    result = run("render", "-g", "kingulu", "--positions", "-", "--out-dir", out, input=b"")
    assert (result.exit_code, result.stderr) == (0, "")
    assert names(out) == []


def test_a_bom_at_the_start_is_skipped(tmp_path):
    out = tmp_path / "out"
    result = run("render", "-g", "kingulu", "--positions", "-", "--out-dir", out,
                 input=b"\xef\xbb\xbf" + START.encode() + b"\n\xef\xbb\xbf" + START.encode() + b"\n")
    assert result.exit_code == 1
    assert result.stderr == "<stdin>:2: error: bad position for kingulu: count '\\ufeff4' in a2 is not a number\n"
    assert names(out) == ["pos-0001.svg"]


# -- lines that are not text -------------------------------------------------------

def test_undecodable_bytes_and_nul_bytes(tmp_path):
    listing = tmp_path / "list.txt"
    listing.write_bytes(START.encode() + b"\n4,4,\xff\xfe4\n" + b"4,4\0,4\n" + START.encode() + b"\n")
    out = tmp_path / "out"
    result = run("render", "-g", "kingulu", "--positions", listing, "--out-dir", out)
    assert result.exit_code == 1
    assert result.stderr == (f"{listing}:2: error: bytes ff at byte offset 36 are not valid UTF-8\n"
                             f"{listing}:3: error: a NUL byte at byte offset 43: the line is not text\n")
    assert names(out) == ["pos-0001.svg", "pos-0004.svg"]


def test_a_line_over_the_limit_is_an_error_and_reading_goes_on(tmp_path):
    listing = tmp_path / "list.txt"
    fits = " " * (MAX_POSITION_LINE - len(START) - 1) + START  # the limit counts the line end
    listing.write_bytes(f"{fits}\n{' ' + fits}\n{START}\n".encode())
    out = tmp_path / "out"
    result = run("render", "-g", "kingulu", "--positions", listing, "--out-dir", out)
    assert result.exit_code == 1
    assert result.stderr == f"{listing}:2: error: the line is longer than {MAX_POSITION_LINE} bytes; it is not read\n"
    assert names(out) == ["pos-0001.svg", "pos-0003.svg"]


@pytest.mark.skipif(not os.path.exists("/usr/bin/time"), reason="needs GNU time")
def test_a_huge_line_is_not_held(tmp_path):
    def peak(line: int) -> tuple[int, bytes, list[str]]:
        out = tmp_path / f"out-{line}"
        listing = tmp_path / f"{line}.txt"
        with listing.open("wb") as handle:
            handle.write(START.encode() + b"\n")
            for _ in range(line // 1_000_000):
                handle.write(b"4" * 1_000_000)
            handle.write(b"\n" + LATER.encode() + b"\n")
        done = subprocess.run(["/usr/bin/time", "-q", "-f", "%M", sys.executable, "-m", "mancala_cli", "render",
                               "-g", "kingulu", "--positions", str(listing), "--out-dir", str(out)],
                              capture_output=True, timeout=120)
        assert done.returncode == 1
        *errors, kilobytes = done.stderr.decode().splitlines()
        assert errors == [f"{listing}:2: error: the line is longer than {MAX_POSITION_LINE} bytes; it is not read"]
        return int(kilobytes), done.stdout, names(out)

    small, huge = peak(1_000_000), peak(100_000_000)
    assert small[1:] == huge[1:] == (b"", ["pos-0001.svg", "pos-0003.svg"])
    assert huge[0] - small[0] < 20_000  # KB: the 100 MB line is never held


# -- usage and I/O errors ----------------------------------------------------------

@pytest.mark.parametrize("args,message", [
    (["--positions", "L", "--out-dir", "D"], "--positions needs --game"),
    (["-g", "kingulu", "--positions", "L"], "--positions needs --out-dir"),
    (["-g", "kingulu", "record.pmn", "--positions", "L", "--out-dir", "D"],
     "give a record FILE or --positions, not both"),
    (["-g", "kingulu", "--position", START, "--positions", "L", "--out-dir", "D"],
     "give --position or --positions, not both"),
    (["-g", "kingulu", "--positions", "L", "--out-dir", "D", "--ply", "2"],
     "--all and --ply need a record, not --positions"),
    (["-g", "kingulu", "--positions", "L", "--out-dir", "D", "--all"],
     "--all and --ply need a record, not --positions"),
    (["-g", "kingulu", "--positions", "L", "--out-dir", "D", "-o", "x.svg"],
     "--positions writes into --out-dir: give --positions or -o, not both"),
    (["-g", "kingulu", "--positions", "L", "--out-dir", "D", "--index", "2"],
     "--index picks a game of a record, not of --positions"),
    (["-g", "kingulu", "--positions", "L", "--out-dir", "D", "--index", "1"],
     "--index picks a game of a record, not of --positions"),
    (["-g", "kingulu", "--positions", "L", "--out-dir", "D", "--encoding", "latin-1"],
     "--positions reads UTF-8: --encoding is for records"),
    (["-g", "kingulu", "--positions", "L", "--out-dir", "D", "--encoding", "no-such-code"],
     "--positions reads UTF-8: --encoding is for records"),
    (["-g", "kingulu", "--positions", "L", "--out-dir", "D", "--format", "text", "--style", "x.css"],
     "--style styles SVG diagrams: it does not go with --format text"),
    (["-g", "kingulu", "--positions", "", "--out-dir", "D"], "--positions: empty file name"),
    (["-g", "kingulu", "--out-dir", "D"], "--out-dir needs --all or --positions"),
    (["-g", "kingulu", "--position", START, "--out-dir", "D"], "--out-dir needs --all or --positions"),
    (["-g", "nosuch", "--positions", "L", "--out-dir", "D"],
     "unknown game 'nosuch' (known: kimasai-mackay, kimasai-klamroth, kingulu)"),
])
def test_usage_errors(args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "L").write_text(START + "\n")
    result = run("render", *args)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"mancala: error: {message}\n")
    assert names(tmp_path) == ["L"]  # no folder made


def test_with_a_record_out_dir_needs_all_or_positions():
    village = pathlib.Path(__file__).resolve().parents[1] / "examples" / "kingulu-village-match.pmn"
    result = run("render", village, "--out-dir", "D")
    assert (result.exit_code, result.stderr) == (2, "mancala: error: --out-dir needs --all or --positions\n")


def test_an_input_that_cannot_be_read(tmp_path):
    out = tmp_path / "out"
    missing = tmp_path / "none.txt"
    result = run("render", "-g", "kingulu", "--positions", missing, "--out-dir", out)
    assert (result.exit_code, result.stderr) == (
        2, f"mancala: error: {missing}: cannot open: No such file or directory\n")
    result = run("render", "-g", "kingulu", "--positions", tmp_path, "--out-dir", out)
    assert (result.exit_code, result.stderr) == (2, f"mancala: error: {tmp_path}: cannot open: Is a directory\n")
    assert not out.exists()


def test_an_out_dir_that_is_a_file(tmp_path):
    listing = tmp_path / "list.txt"
    listing.write_text(START + "\n")
    result = run("render", "-g", "kingulu", "--positions", listing, "--out-dir", listing)
    assert (result.exit_code, result.stderr) == (2, f"mancala: error: {listing}: is not a directory\n")
    assert listing.read_text() == START + "\n"


def test_a_diagram_never_replaces_the_input_without_force(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    listing = out / "pos-0001.svg"
    listing.write_text(START + "\n")
    result = run("render", "-g", "kingulu", "--positions", listing, "--out-dir", out)
    assert (result.exit_code, result.stderr) == (
        2, f"mancala: error: {listing}: is the input file; not replaced (--force replaces it)\n")
    assert listing.read_text() == START + "\n"
    assert run("render", "-g", "kingulu", "--positions", listing, "--out-dir", out, "--force").exit_code == 0
    assert listing.read_bytes() == drawn(START)


# -- a folder used before --------------------------------------------------------------

def test_files_named_like_diagrams_that_no_render_wrote_stay(tmp_path):
    """Only the diagrams an earlier render wrote (by the folder's list) are
    removed: files of the same names written by anyone else stay."""
    out = tmp_path / "out"
    out.mkdir()
    for name in ("pos-0002.svg", "pos-0004.svg", "pos-0001.txt", "pos-12345.svg", "pos-00003.svg",
                 "ply-000.svg", "pos-001.svg", "pos-0002.svg.bak", "notes.txt", "xpos-0002.svg"):
        (out / name).write_text("earlier\n")
    (out / "pos-0009.svg").mkdir()
    listing = out / "pos-0007.svg"  # an input that looks like a diagram
    listing.write_text(f"{START}\nbogus\n{LATER}\n")
    result = run("render", "-g", "kingulu", "--positions", listing, "--out-dir", out)
    assert result.exit_code == 1
    assert result.stderr == f"{listing}:2: error: bad position for kingulu: {FIELDS}\n"
    assert names(out) == sorted(["notes.txt", "ply-000.svg", "pos-0001.svg", "pos-0001.txt", "pos-0002.svg",
                                 "pos-0002.svg.bak", "pos-0003.svg", "pos-00003.svg", "pos-0004.svg", "pos-0007.svg",
                                 "pos-0009.svg", "pos-001.svg", "pos-12345.svg", "xpos-0002.svg"])
    assert (out / "pos-0002.svg").read_text() == "earlier\n"
    assert listing.read_text() == f"{START}\nbogus\n{LATER}\n"
    assert (out / "pos-0003.svg").read_bytes() == drawn(LATER)


def test_the_diagrams_of_an_earlier_render_are_removed_but_not_the_input_or_changed_ones(tmp_path):
    """A later render removes the earlier one's diagrams that it did not
    write (a longer input, a line that is bad now, the other format), unless
    they changed since or are the input; the ``ply-`` diagrams of ``--all``
    stay."""
    out = tmp_path / "out"
    listing = tmp_path / "list.txt"
    listing.write_text(f"{START}\n{LATER}\n{START}\n{LATER}\n{START}\n")
    assert run("render", "-g", "kingulu", "--positions", listing, "--out-dir", out).exit_code == 0
    assert run("render", "-g", "kingulu", "--positions", listing, "--out-dir", out, "-f", "text").exit_code == 0
    record = tmp_path / "one.pmn"
    record.write_text('[Game "kingulu"]\n\n1. c1x6 *\n')
    assert run("render", record, "--all", "--out-dir", out).exit_code == 0
    assert names(out) == ["ply-000.svg", "ply-001.svg", "pos-0001.txt", "pos-0002.txt", "pos-0003.txt",
                          "pos-0004.txt", "pos-0005.txt"]  # (the text run removed the SVG run's)
    (out / "pos-0004.txt").write_text("mine now\n")
    os.replace(listing, out / "pos-0005.txt")  # the next input, where a diagram was
    listing = out / "pos-0005.txt"
    listing.write_text(f"{LATER}\nbogus\n")
    result = run("render", "-g", "kingulu", "--positions", listing, "--out-dir", out)
    assert result.exit_code == 1
    assert names(out) == ["ply-000.svg", "ply-001.svg", "pos-0001.svg", "pos-0004.txt", "pos-0005.txt"]
    assert (out / "pos-0004.txt").read_text() == "mine now\n"
    assert (out / ".mancala-render").read_text().splitlines()[0] == "mancala render diagrams 1"
    listed = [line.split()[0] for line in (out / ".mancala-render").read_text().splitlines()[1:]]
    assert listed == ["ply-000.svg", "ply-001.svg", "pos-0001.svg"]


def test_a_failed_write_removes_nothing(tmp_path, monkeypatch):
    import mancala_cli.files.output as inputs

    out = tmp_path / "out"
    out.mkdir()
    (out / "pos-0002.svg").write_text("old\n")
    (out / "pos-0009.svg").write_text("stale\n")
    listing = tmp_path / "list.txt"
    listing.write_text(f"{START}\n{LATER}\n{START}\n")
    real = inputs._write
    written = []

    def full(fd, data):
        if written:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        written.append(len(data))
        return real(fd, data)

    monkeypatch.setattr(inputs, "_write", full)
    result = run("render", "-g", "kingulu", "--positions", listing, "--out-dir", out)
    assert (result.exit_code, result.stderr) == (
        2, f"mancala: error: {out / 'pos-0002.svg'}: cannot write: No space left on device\n")
    assert names(out) == ["pos-0001.svg", "pos-0002.svg", "pos-0009.svg"]
    assert (out / "pos-0002.svg").read_text() == "old\n"
    assert (out / "pos-0009.svg").read_text() == "stale\n"


def test_the_drawn_lines_take_a_bit_each():
    from mancala_cli.files.sources import LineNumbers as _LineNumbers

    numbers = _LineNumbers()
    for k in range(1, 1_000_001, 3):
        numbers.add(k)
    assert len(numbers.bits) <= 2 * 1_000_001 // 8
    assert [k for k in range(12) if k in numbers] == [1, 4, 7, 10]
    assert 1_000_000 in numbers and 999_999 not in numbers and 5_000_000 not in numbers
