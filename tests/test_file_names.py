"""Files named where the commands take a file: a name that ends in ``/``
names a folder and is refused where a file is written (``-o``, ``--table``,
``--duplicates``: one line, exit 2, nothing written), as the shell refuses
``> name/``; a FIFO given where a file is read whole before the command
starts (``--tablebase``, ``--proof``) is refused as a device is, not waited on."""
from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

import mancala_cli
import mancala_cli.errors
from mancala_cli.files.output import OutputError, atomic_output
from mancala_cli.solving.endgame import Tablebase, TablebaseError
from mancala_cli.solving.proofs import ProofBook, ProofError, is_proof_file

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RECORD = os.path.join(ROOT, "examples", "kingulu-tournament.pmn")


def mancala(cwd, *args):
    return subprocess.run([sys.executable, "-m", "mancala_cli", *map(str, args)], cwd=cwd, capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL,
                          env={**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")})


@pytest.mark.parametrize("args, option", [
    (["convert", RECORD, "-o", "name/"], "--output"),
    (["filter", RECORD, "-o", "name/"], "--output"),
    (["filter", RECORD, "--dedupe", "--duplicates", "name/"], "--duplicates"),
    (["render", RECORD, "-o", "name/"], "--output"),
    (["annotate", RECORD, "--depth", "1", "-o", "name/"], "--output"),
    (["tablebase", "build", "--stones", "1", "-o", "name/"], "--output"),
    (["solve", "--game", "kingulu", "--depth", "2", "--table", "name/"], "--table"),
], ids=lambda a: a if isinstance(a, str) else " ".join(a[:1] + a[2:]).replace(RECORD, "R"))
@pytest.mark.parametrize("there", [False, True], ids=["missing", "a-file"])
def test_a_file_name_that_ends_in_a_slash_is_refused(tmp_path, args, option, there):
    if there:
        (tmp_path / "name").write_text("mine\n")
    done = mancala(tmp_path, *args)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"mancala: error: {option} name/: a file name cannot end in /\n")
    assert sorted(os.listdir(tmp_path)) == (["name"] if there else [])
    if there:
        assert (tmp_path / "name").read_text() == "mine\n"


def test_a_folder_name_is_refused_by_the_library_too(tmp_path):
    for name, problem in (("name/", "a file name cannot end in /"), ("name/.", "names a folder, not a file"),
                          ("name/..", "names a folder, not a file")):
        path = f"{tmp_path}/{name}"  # (not a pathlib path, which drops a trailing / or /.)
        with pytest.raises(OutputError) as raised, atomic_output(path):
            pass
        assert str(raised.value) == f"{path}: {problem}"
    with pytest.raises(mancala_cli.errors.UnwritableOutput, match="name/: a file name cannot end in /$"):
        mancala_cli.write(list(mancala_cli.read(RECORD)), str(tmp_path / "name") + "/")
    assert os.listdir(tmp_path) == []


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("args, message, status", [
    (["solve", "--game", "kingulu", "--depth", "2", "--proof", "fifo"], "fifo: not a proof (not a regular file)", 2),
    (["solve", "--game", "kimasai-klamroth", "--depth", "2", "--tablebase", "fifo"],
     "fifo: not a mancala tablebase (not a regular file)", 1),
    (["annotate", RECORD, "--depth", "1", "--proof", "fifo"], "fifo: not a proof (not a regular file)", 2),
    (["annotate", RECORD, "--depth", "1", "--tablebase", "fifo"],
     "fifo: not a mancala tablebase (not a regular file)", 1),
], ids=lambda a: " ".join(a[2:]).replace(RECORD, "R") if isinstance(a, list) else None)
def test_a_fifo_is_refused_not_waited_on(tmp_path, fifo, args, message, status):
    done = mancala(tmp_path, *args)
    assert (done.returncode, done.stdout, done.stderr) == (status, "", f"mancala: error: {message}\n")


def test_a_device_is_not_a_proof():
    with pytest.raises(ProofError) as raised:
        ProofBook.read(["/dev/null"])
    assert str(raised.value) == "/dev/null: not a proof (not a regular file)"


def test_the_library_refuses_a_fifo_at_once(fifo):
    def late(signum, frame):
        raise TimeoutError("waited on the FIFO")

    previous = signal.signal(signal.SIGALRM, late)
    signal.alarm(20)
    try:
        with pytest.raises(TablebaseError) as table:
            Tablebase.read(str(fifo))
        with pytest.raises(ProofError) as proof:
            ProofBook.read([str(fifo)])
        compressed = fifo.with_name("proof.txt.xz")
        os.mkfifo(compressed)
        with pytest.raises(ProofError, match=r"proof\.txt\.xz: not a proof \(not a regular file\)"):
            ProofBook.read([str(compressed)])
        assert not is_proof_file(str(fifo)) and not is_proof_file(str(compressed))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert str(table.value) == f"{fifo}: not a mancala tablebase (not a regular file)"
    assert str(proof.value) == f"{fifo}: not a proof (not a regular file)"
