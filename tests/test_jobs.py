"""--jobs N gives the same bytes as --jobs 1, in input order."""
import random
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from mancala_cli import get_game
from mancala_cli.cli.commands import whole
from mancala_cli.files.batches import BATCH_LINES
from mancala_cli.random_records import random_game
from notation.pmn_writer import write_game

from .conftest import on_terminal

app = whole()

runner = CliRunner()


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    rng = random.Random(11)
    games = []
    for i in range(240):
        record = random_game(get_game(("kingulu", "kimasai-mackay", "kimasai-klamroth")[i % 3]), rng, 60)
        text = write_game(record)
        if i % 37 == 5:
            text = text.replace("1. ", "1. {a comment never closed ", 1)
        if i % 41 == 7:
            text = text.replace(" 2. ", " 2. i9 ", 1)
        games.append(text)
    path = tmp_path_factory.mktemp("jobs") / "archive.pmn"
    data = "\n".join(games)
    path.write_text(data, encoding="utf-8")
    assert data.count("\n") > 3 * BATCH_LINES       # several batches
    return path


@pytest.mark.parametrize("args", [
    ["validate"], ["validate", "--format", "json"], ["validate", "--strict", "--quiet"],
    ["convert", "--to", "pmn"], ["convert", "--to", "json", "--positions"], ["convert", "--to", "xml"],
])
def test_jobs_give_identical_bytes(archive, args):
    one = runner.invoke(app, [*args, "--jobs", "1", str(archive)])
    two = runner.invoke(app, [*args, "--jobs", "2", str(archive)])
    assert one.exit_code == two.exit_code == 1
    assert one.stdout_bytes == two.stdout_bytes
    assert len(one.stdout_bytes) > 1000


def test_json_indexes_count_games_in_input_order(archive):
    out = runner.invoke(app, ["validate", "--format", "json", "--jobs", "2", str(archive)]).stdout
    assert [line.split('"index": ')[1].split(",")[0] for line in out.splitlines()] == \
        [str(i) for i in range(1, 241)]


def test_progress_bar_only_on_a_terminal(archive):
    import os
    import subprocess
    import sys

    command = [sys.executable, "-m", "mancala_cli", "validate", "--jobs", "1", str(archive)]
    piped = subprocess.run(command, capture_output=True, text=True)
    assert "%" not in piped.stderr and "━" not in piped.stderr
    _, seen = on_terminal(command, env={**os.environ, "COLUMNS": "80"})
    assert b"archive.pmn" in seen and b"%" in seen
    quiet = subprocess.run(command + ["--quiet"], capture_output=True, text=True)
    assert quiet.stderr == ""


def test_the_collector_runs_less_while_games_are_processed_and_as_before_after():
    import gc
    import io

    from mancala_cli.batch.pipeline import Options, results
    from mancala_cli.files.batches import YOUNG_COLLECTIONS
    from mancala_cli.files.sources import Source

    text = write_game(random_game(get_game("kingulu"), random.Random(2))).encode()
    before = gc.get_threshold()
    seen = []
    for result in results(Source("x.pmn", io.BytesIO(text + b"\n" + text)), Options("validate")):
        seen.append((gc.get_threshold()[0], gc.get_freeze_count() > 0, result.errors))
    assert seen == [(max(before[0], YOUNG_COLLECTIONS), True, 0)] * 2
    assert (gc.get_threshold(), gc.get_freeze_count()) == (before, 0)


#: A program that starts the pool of --jobs 2 with or without a second
#: thread running, under warnings as errors, and prints how each worker came
#: to be: "forked" with this process's environment, or "new", an interpreter
#: started with this package's folder put first on its PYTHONPATH; and
#: whether this process is each worker's parent.
POOL_PROGRAM = """
import os, sys, threading, warnings
warnings.simplefilter("error")
import mancala_cli.batch.pool as pool
if sys.argv[1] == "threaded":
    stop = threading.Event()
    threading.Thread(target=stop.wait, daemon=True).start()
workers = pool.WorkerPool(2)
paths = [workers.submit(os.getenv, "PYTHONPATH") for _ in range(4)]
parents = [workers.submit(os.getppid) for _ in range(4)]
kinds = ["forked" if path.result() == os.getenv("PYTHONPATH") else "new" for path in paths]
print(pool.threads_running() > 1, kinds, all(parent.result() == os.getpid() for parent in parents))
workers.shutdown()
"""


@pytest.mark.parametrize("threads, expected", [
    ("single", "False ['forked', 'forked', 'forked', 'forked'] True"),
    ("threaded", "True ['new', 'new', 'new', 'new'] True"),
])
def test_workers_are_forked_only_from_a_process_of_one_thread(threads, expected):
    """Forking a process that runs other threads can deadlock the child
    (Python 3.12 and later warn of it): from such a process the workers are
    new interpreters, from one of a single thread they are forked (cheaper);
    either way each is this process's child and answers its calls."""
    done = subprocess.run([sys.executable, "-c", POOL_PROGRAM, threads], capture_output=True, text=True,
                          timeout=120)
    assert (done.returncode, done.stderr, done.stdout) == (0, "", expected + "\n")
