"""--jobs N gives the same bytes as --jobs 1, in input order."""
import random

import pytest
from typer.testing import CliRunner

from mancala_cli import get_game
from mancala_cli.cli import app
from mancala_cli.files.batches import BATCH_LINES
from mancala_cli.random_records import random_game
from notation.pmn import write_game

from .conftest import on_terminal

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
