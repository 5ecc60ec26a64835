"""The files of ``solve --table`` and ``tablebase build``: written by the
project's output writer's rules, safe from changes while in use, and a
damaged one refused in one line before anything large is made from it."""
from __future__ import annotations

import hashlib
import json
import os
import random
import resource
import signal
import stat
import subprocess
import sys
import threading
import time

import pytest

from mancala_cli import CORE, get_game
from mancala_cli.positions import parse_position
from mancala_cli.solving.endgame import HEADER_BYTES, Tablebase, TablebaseError
from mancala_cli.solving.search import Solver
from mancala_cli.solving.table_file import TABLE_HEADER, TableFileError

KINGULU = get_game("kingulu")
KLAMROTH = get_game("kimasai-klamroth")
POSITION = "0,2,12,0,5,6/3,0,6*,1,4,0 N 9-0 3"
#: A kimasai-klamroth position of 7 stones: its search asks a 3-stone table
#: after its captures, long enough to change the file meanwhile.
ENDGAME = ("0,0,0,0,0,0,0,0,0,1,0,1/0,0,0,0,0,0,0,0,1,0,0,0/"
           "0,0,0,0,0,0,1,0,0,0,0,1/0,0,0,0,0,0,0,0,0,1,0,1 S 20-19 60")


#: Positions the search of ENDGAME takes: a few seconds on either core.
SEARCH_NODES = 500_000 if CORE == "native" else 30_000


def mancala(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mancala_cli", *args], capture_output=True, timeout=300, **kwargs)


@pytest.fixture(scope="module")
def tablebase_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("tb") / "kk3.tb"
    Tablebase.build(3).write(str(path))
    return path


# -- item: never replace what is not ours ----------------------------------

def test_tablebase_build_writes_devices_and_fifos_in_place(tmp_path):
    device = tmp_path / "null"
    os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    done = mancala("tablebase", "build", "--stones", "2", "-q", "-o", str(device))
    assert done.returncode == 0, done.stderr
    assert stat.S_ISCHR(device.stat().st_mode)  # still the device, not a regular file
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    done = mancala("tablebase", "build", "--stones", "2", "-q", "-o", str(fifo))
    reader.join(60)
    assert done.returncode == 0 and stat.S_ISFIFO(fifo.stat().st_mode)
    assert got[0][HEADER_BYTES:] == bytes(Tablebase.build(2).data)
    assert sorted(os.listdir(tmp_path)) == ["fifo", "null"]


def test_tablebase_build_keeps_links_and_modes_and_writes_dash_to_standard_output(tmp_path):
    target = tmp_path / "real.tb"
    target.write_bytes(b"old")
    os.chmod(target, 0o4751)
    link = tmp_path / "link.tb"
    link.symlink_to(target.name)
    done = mancala("tablebase", "build", "--stones", "2", "-q", "-o", str(link))
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and stat.S_IMODE(target.stat().st_mode) == 0o4751
    assert Tablebase.read(str(link)).data == Tablebase.build(2).data
    other = tmp_path / "other.tb"
    other.write_bytes(b"old")
    os.chmod(other, 0o640)
    assert mancala("tablebase", "build", "--stones", "1", "-q", "-o", str(other)).returncode == 0
    assert stat.S_IMODE(other.stat().st_mode) == 0o640
    done = mancala("tablebase", "build", "--stones", "1", "-q", "-o", "-", cwd=tmp_path)
    assert done.returncode == 0 and not (tmp_path / "-").exists()
    assert done.stdout[HEADER_BYTES:] == bytes(Tablebase.build(1).data)


def test_a_table_save_keeps_links_and_modes_and_refuses_a_fifo(tmp_path):
    target = tmp_path / "real.table"
    link = tmp_path / "t.table"
    link.symlink_to(target.name)
    position = parse_position(KINGULU, POSITION)
    Solver(KINGULU).solve(position, nodes=500, table=link)
    os.chmod(target, 0o640)
    Solver(KINGULU).solve(position, nodes=1000, table=link)
    assert link.is_symlink() and target.is_file() and stat.S_IMODE(target.stat().st_mode) == 0o640
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    done = mancala("solve", "-g", "kingulu", "-p", POSITION, "--nodes", "100", "--table", str(fifo))
    assert done.returncode == 2 and done.stderr.decode() == f"mancala: error: {fifo}: not a regular file\n"
    assert sorted(os.listdir(tmp_path)) == ["fifo", "real.table", "t.table"]


def test_a_save_killed_midway_leaves_nothing_and_stale_temporaries_are_removed(tmp_path):
    table = tmp_path / "t.table"
    script = (
        "import os, signal, sys\n"
        "from mancala_cli import get_game\n"
        "from mancala_cli.files import output\n"
        "from mancala_cli.positions import parse_position\n"
        "from mancala_cli.solving.search import Solver\n"
        "def killed(fd, data):\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        "output._write = killed\n"
        "game = get_game('kingulu')\n"
        f"Solver(game).solve(parse_position(game, {POSITION!r}), nodes=500, table={str(table)!r})\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=120)
    assert done.returncode == -signal.SIGKILL
    assert os.listdir(tmp_path) == []
    # what earlier versions left: removed where its process is gone, kept where it runs
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / f".t.table.{dead.pid}.tmp"
    stale.write_bytes(b"x" * 1000)
    running = tmp_path / f".t.table.{os.getpid()}.tmp"
    running.write_bytes(b"x")
    Solver(KINGULU).solve(parse_position(KINGULU, POSITION), nodes=500, table=table)
    assert sorted(os.listdir(tmp_path)) == sorted([running.name, "t.table"])


# -- item: a file changed while a search uses it --------------------------

def test_a_tablebase_cut_short_while_a_search_asks_it(tmp_path, tablebase_file):
    path = tmp_path / "kk3.tb"
    path.write_bytes(tablebase_file.read_bytes())
    args = ("solve", "-g", "kimasai-klamroth", "-p", ENDGAME, "--nodes", str(SEARCH_NODES), "--time", "600",
            "--tablebase", str(path), "--format", "json")
    whole = mancala(*args)
    assert whole.returncode in (0, 3), whole.stderr
    process = subprocess.Popen([sys.executable, "-m", "mancala_cli", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    time.sleep(1.5)
    os.truncate(path, HEADER_BYTES + 100)  # cut short as the search runs, then written over as cp does
    time.sleep(1.0)
    path.write_bytes(tablebase_file.read_bytes()[:HEADER_BYTES] + bytes(Tablebase.build(3).data)[::-1])
    out, err = process.communicate(timeout=300)
    assert process.returncode not in (135, -signal.SIGBUS)
    if process.returncode == 1:  # (changed before it was read: one line)
        assert len(err.splitlines()) == 1
    else:  # the search asks the table it read, as if nothing happened
        assert process.returncode == whole.returncode
        assert json.loads(out)["result"] == json.loads(whole.stdout)["result"]
        assert json.loads(out)["nodes"] == json.loads(whole.stdout)["nodes"]


def test_a_search_asks_the_table_it_read_not_the_file(tmp_path, tablebase_file):
    path = tmp_path / "kk3.tb"
    path.write_bytes(tablebase_file.read_bytes())
    table = Tablebase.read(str(path))
    position = parse_position(KLAMROTH, ENDGAME)
    before = Solver(KLAMROTH, tablebase=table).solve(position, nodes=3000)
    os.truncate(path, HEADER_BYTES)
    after = Solver(KLAMROTH, tablebase=table).solve(position, nodes=3000)
    assert (after.result, after.nodes) == (before.result, before.nodes)


# -- item: damaged files ----------------------------------------------------

def header_of(data: bytes) -> dict:
    return json.loads(data[len(b"mancala search table\n"):TABLE_HEADER].decode())


def with_header(data: bytes, header: dict) -> bytes:
    line = b"mancala search table\n" + json.dumps(header, sort_keys=True).encode() + b"\n"
    return line.ljust(TABLE_HEADER, b" ") + data[TABLE_HEADER:]


@pytest.fixture(scope="module")
def saved_table(tmp_path_factory):
    path = tmp_path_factory.mktemp("table") / "t.table"
    Solver(KINGULU).solve(parse_position(KINGULU, POSITION), nodes=3000, table=path)
    return path.read_bytes()


def refused_in_one_line(path) -> str:
    done = mancala("solve", "-g", "kingulu", "-p", POSITION, "--nodes", "10", "--table", str(path),
                   preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)))
    err = done.stderr.decode()
    assert done.returncode == 1 and len(err.splitlines()) == 1 and err.startswith("mancala: error: "), err
    return err


def test_a_header_with_too_many_records(tmp_path, saved_table):
    header = header_of(saved_table)
    for field in ("records", "chunks"):
        header[field] = 1 << 63
    path = tmp_path / "t.table"
    path.write_bytes(with_header(saved_table, header))
    assert "damaged" in refused_in_one_line(path)


def test_a_file_that_ends_early(tmp_path, saved_table):
    path = tmp_path / "t.table"
    for cut in (TABLE_HEADER + 3, TABLE_HEADER + 20, len(saved_table) - 1):
        path.write_bytes(saved_table[:cut])
        assert "damaged" in refused_in_one_line(path)
    if CORE != "native":  # a chunk whose marshal data ends before its items do (a smaller length)
        size = int.from_bytes(saved_table[TABLE_HEADER:TABLE_HEADER + 8], "little")
        shorter = (size - 10).to_bytes(8, "little")
        path.write_bytes(saved_table[:TABLE_HEADER] + shorter + saved_table[TABLE_HEADER + 8:])
        assert "damaged" in refused_in_one_line(path)


@pytest.mark.skipif(CORE == "native", reason="the pure core's chunks (marshal)")
def test_a_chunk_declaring_many_items_is_refused_before_it_is_decoded(tmp_path, saved_table):
    # a chunk whose list declares 2^28 items, with a checksum that matches
    # (as a file made on purpose would have): refused, within 1 GiB
    data = b"[" + (1 << 28).to_bytes(4, "little") + b"\0" * 64
    body = len(data).to_bytes(8, "little") + data
    header = header_of(saved_table)
    header.update(chunks=1, checksum=hashlib.sha256(body).hexdigest())
    path = tmp_path / "t.table"
    path.write_bytes(with_header(bytes(TABLE_HEADER) + body, header))
    assert "damaged" in refused_in_one_line(path)


def test_random_byte_flips_in_a_table_file(tmp_path, saved_table):
    position = parse_position(KINGULU, POSITION)
    intact = tmp_path / "intact.table"
    intact.write_bytes(saved_table)
    solver = Solver(KINGULU)
    expected = solver.solve(position, nodes=10, table=intact)
    loaded = solver.loaded
    rng = random.Random(33)
    path = tmp_path / "t.table"
    places = [rng.randrange(len(saved_table)) for _ in range(60)] + list(range(0, TABLE_HEADER, 37))
    for place in places:
        flipped = bytearray(saved_table)
        flipped[place] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(flipped))
        solver = Solver(KINGULU)
        try:
            found = solver.solve(position, nodes=10, table=path)
        except TableFileError as error:
            assert "\n" not in str(error)
            continue
        assert place < TABLE_HEADER  # (only the header's padding or its harmless fields)
        assert (solver.loaded, found.result, found.nodes) == (loaded, expected.result, expected.nodes)


def test_random_byte_flips_in_a_tablebase_file(tmp_path, tablebase_file):
    raw = tablebase_file.read_bytes()
    good = Tablebase.read(str(tablebase_file)).data
    rng = random.Random(33)
    path = tmp_path / "kk.tb"
    for place in [rng.randrange(len(raw)) for _ in range(60)] + list(range(0, 160, 3)):
        flipped = bytearray(raw)
        flipped[place] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(flipped))
        try:
            table = Tablebase.read(str(path))
        except TablebaseError as error:
            assert "\n" not in str(error)
            continue
        assert place < HEADER_BYTES and table.data == good


def test_a_damaged_or_old_tablebase_is_one_line_exit_1(tmp_path, tablebase_file):
    raw = tablebase_file.read_bytes()
    path = tmp_path / "kk.tb"
    damaged = bytearray(raw)
    damaged[HEADER_BYTES + 1000] ^= 4  # a value changed: found by the checksum
    old = raw.replace(b"mancala tablebase 2", b"mancala tablebase 1")
    for data, message in ((bytes(damaged), "checksum differs"), (old, "build it again")):
        path.write_bytes(data)
        done = mancala("solve", "-g", "kimasai-klamroth", "-p", ENDGAME, "--nodes", "10", "--tablebase", str(path))
        err = done.stderr.decode()
        assert done.returncode == 1 and len(err.splitlines()) == 1 and message in err, err


# -- item: damaged headers said in the user's words -------------------------

@pytest.mark.parametrize("change, message", [
    ({"core": None}, "a damaged table file (its header has no core)"),  # (was "a table of the None core")
    ({"byteorder": None}, "a damaged table file (its header has no byte order)"),  # ("a None-endian machine")
    ({"format": None}, "a damaged table file (its header has no format version)"),
    ({"game": None}, "a damaged table file (its header has no game)"),  # ("another game (None)")
    ({"iteration": [1]}, "a damaged table file (its header has no iteration)"),  # ("int() argument must be ...")
    ({"iteration": "x"}, "a damaged table file (its header has no iteration)"),  # ("invalid literal for int()")
    ({"iteration": -1}, "a damaged table file (its header has no iteration)"),
    *[pytest.param({"checksum": value}, "a damaged table file (its header has no checksum)",
                   marks=pytest.mark.skipif(CORE != "native", reason="the pure core compares its SHA-256 whole: "
                                                                       "'its checksum differs'"))
      for value in (5, "xyz")],
])
def test_a_table_file_with_a_damaged_header_says_what_is_missing(tmp_path, saved_table, change, message):
    header = header_of(saved_table)
    for name, value in change.items():
        if value is None:
            del header[name]
        else:
            header[name] = value
    path = tmp_path / "t.table"
    path.write_bytes(with_header(saved_table, header))
    with pytest.raises(TableFileError) as refused:
        Solver(KINGULU).solve(parse_position(KINGULU, POSITION), nodes=10, table=path)
    assert str(refused.value) == message


@pytest.mark.parametrize("change, message", [
    ((b"\ngame kimasai-klamroth", b"\ngxme kimasai-klamroth"), "a damaged table (no game in its header)"),
    ((b"\nrules kimasai-klamroth", b"\nrulez kimasai-klamroth"), "a damaged table (no rules in its header)"),
    ((b"\nentries ", b"\nentriez "), "a damaged table (no entries in its header)"),
    ((b"\nstones 3", b"\nstones \xd9"), "no number of stones in its header"),
])
def test_a_tablebase_with_a_damaged_header_says_what_is_missing(tmp_path, tablebase_file, change, message):
    raw = tablebase_file.read_bytes()
    assert raw.count(change[0]) == 1
    path = tmp_path / "kk.tb"
    path.write_bytes(raw.replace(*change))
    with pytest.raises(TablebaseError) as refused:
        Tablebase.read(str(path))
    assert str(refused.value) == f"{path}: {message}"
