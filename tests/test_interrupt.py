"""An interrupted conversion leaves the old output file intact (and no
temporary file behind)."""
import signal
import subprocess
import sys
import time

import pytest

from mancala_cli import get_game
from mancala_cli.random_records import random_game
from notation.pmn_writer import write_game

from .test_stopping import wait_writing


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    import random
    rng = random.Random(4)
    path = tmp_path_factory.mktemp("big") / "big.pmn"
    text = "\n".join(write_game(random_game(get_game("kimasai-mackay"), rng)) for _ in range(300))
    path.write_text(text * 20, encoding="utf-8")
    return path


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_interrupted_convert_keeps_the_old_file(tmp_path, archive, signum, jobs):
    target = tmp_path / "out.xml"
    target.write_text("old\n", encoding="utf-8")
    child = subprocess.Popen([sys.executable, "-m", "mancala_cli", "convert", "--to", "xml", "--positions",
                              "--jobs", jobs, "-o", str(target), str(archive)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # Wait until the temporary file is open: the conversion is under way.
    wait_writing(child, tmp_path)
    time.sleep(0.2)
    child.send_signal(signum)
    _, err = child.communicate(timeout=30)
    assert child.returncode != 0
    assert "Traceback" not in err
    assert target.read_text(encoding="utf-8") == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.xml"]
