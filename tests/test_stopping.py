"""No process outlives its command, however the command ends: done, a
closed pipe, Ctrl-C, SIGTERM, SIGHUP, an error, a worker that dies, a main
process that is killed. Each command runs in a session of its own, and
what is left of it is found by scanning /proc for that session; busy
workers are those of ``annotate --time 2`` (minutes of work per batch), so
an interrupt finds them in the middle of a batch."""
from __future__ import annotations

import os
import pathlib
import random
import signal
import subprocess
import sys
import time

import pytest

from mancala_cli import get_game
from mancala_cli.random_records import random_game
from notation.pmn_writer import write_game

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc")


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> pathlib.Path:
    """600 random Kingulu games: six batches."""
    rng = random.Random(3)
    path = tmp_path_factory.mktemp("stopping") / "games.pmn"
    path.write_text("\n".join(write_game(random_game(get_game("kingulu"), rng)) for _ in range(600)),
                    encoding="utf-8")
    return path


def _stat(pid: int) -> list[str] | None:
    """Fields 3 on of /proc/PID/stat (state, ppid, pgrp, session, ...)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as stat:
            return stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _living(where: int, field: int) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            fields = _stat(int(name))
            if fields and fields[0] != "Z" and int(fields[field]) == where:
                found.append(int(name))
    return sorted(found)


def session(sid: int) -> list[int]:
    """The living processes of session ``sid`` (zombies are dead already)."""
    return _living(sid, 3)


def children(pid: int) -> list[int]:
    return _living(pid, 1)


def left_after(sid: int, within: float = 5.0) -> list[int]:
    """What is left of session ``sid`` after waiting at most ``within`` seconds."""
    deadline = time.monotonic() + within
    while session(sid) and time.monotonic() < deadline:
        time.sleep(0.02)
    return session(sid)


def writing(pid: int, folder: pathlib.Path) -> bool:
    """Whether process ``pid`` has a temporary output file in ``folder`` open
    (on Linux a file without a name, shown as ``FOLDER/#INODE (deleted)``;
    elsewhere ``.mancala-*.tmp``)."""
    if not os.path.isdir("/proc/self/fd"):
        return any(name.startswith(".mancala-") for name in os.listdir(folder))
    try:
        links = [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")]
    except OSError:
        return False
    return any(os.path.dirname(link) == str(folder) and
               (link.endswith(" (deleted)") or os.path.basename(link).startswith(".mancala-")) for link in links)


def wait_writing(process: subprocess.Popen, folder: pathlib.Path, within: float = 60.0) -> None:
    """Wait until ``process`` writes its temporary output file in ``folder``."""
    deadline = time.monotonic() + within
    while not writing(process.pid, folder):
        assert process.poll() is None and time.monotonic() < deadline, "the output file was never opened"
        time.sleep(0.02)


class Command:
    """``mancala ARGS`` in a session of its own; whatever is left of it is
    killed when the test ends."""

    def __init__(self, *args: str, stdout=subprocess.PIPE, prelude: str = "") -> None:
        if prelude:
            code = f"import sys\n{prelude}\nsys.argv = ['mancala', *sys.argv[1:]]\nfrom mancala_cli.cli import main\nmain()\n"
            argv = [sys.executable, "-c", code, *args]
        else:
            argv = [sys.executable, "-m", "mancala_cli", *args]
        self.process = subprocess.Popen(argv, start_new_session=True, stdout=stdout, stderr=subprocess.PIPE)
        self.sid = self.process.pid

    def workers(self, count: int = 2, within: float = 60.0) -> list[int]:
        """The worker processes, once ``count`` of them run."""
        deadline = time.monotonic() + within
        while len(found := children(self.process.pid)) < count:
            assert self.process.poll() is None, self.process.stderr.read().decode()
            assert time.monotonic() < deadline, "the workers never started"
            time.sleep(0.02)
        return found

    def end(self, within: float) -> tuple[int, str]:
        """The exit status and standard error, within ``within`` seconds."""
        try:
            _, err = self.process.communicate(timeout=within)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the command still ran {within} s later")
        return self.process.returncode, err.decode()

    def kill(self) -> None:
        for pid in session(self.sid):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)


@pytest.fixture
def command():
    started: list[Command] = []

    def start(*args: str, **kwargs) -> Command:
        started.append(Command(*args, **kwargs))
        return started[-1]

    yield start
    for one in started:
        one.kill()


def busy(command, games: pathlib.Path, target: pathlib.Path, prelude: str = "", seconds: int = 2) -> Command:
    """``annotate --time SECONDS -o TARGET`` with both workers in the middle of a batch."""
    target.write_text("old\n", encoding="utf-8")
    run = command("annotate", "--time", str(seconds), "--jobs", "2", "-o", str(target), str(games), prelude=prelude)
    run.workers(2)
    wait_writing(run.process, target.parent)
    time.sleep(0.3)
    return run


def listing(folder: pathlib.Path) -> list[str]:
    return sorted(os.listdir(folder))


# -- done and closed pipes -------------------------------------------------------------

def test_a_finished_command_leaves_no_process(command, games):
    run = command("convert", "--to", "xml", "--jobs", "2", str(games))
    out, err = run.process.communicate(timeout=120)
    assert run.process.returncode == 0 and err == b"" and out.count(b"<game ") == 600
    assert left_after(run.sid) == []


@pytest.mark.parametrize("args", [
    ["convert", "--to", "xml"],
    ["convert", "--to", "json"],
    ["filter", "--to", "xml", "--min-plies", "1"],
    ["convert", "--to", "xml", "-o", "/dev/stdout"],
])
def test_a_closed_pipe_exits_141_quietly_and_leaves_no_process(command, games, args):
    run = command(*args, "--jobs", "2", str(games))
    assert run.process.stdout.readline()
    run.process.stdout.close()
    assert run.end(60) == (141, "")
    assert left_after(run.sid) == []


def test_a_signal_while_a_closed_pipe_is_cleaned_up_prints_nothing(command, games):
    for _ in range(3):
        run = command("filter", "--to", "xml", "--min-plies", "1", "--jobs", "2", str(games))
        assert run.process.stdout.readline()
        run.process.stdout.close()
        time.sleep(0.01)
        try:
            os.killpg(run.sid, signal.SIGINT)
        except ProcessLookupError:
            pass
        code, err = run.end(10)
        assert code in (130, 141) and err == ""
        assert left_after(run.sid) == []


#: Sends SIGINT to the command itself as its workers are being stopped: a
#: signal in the middle of the cleanup after a closed pipe or another signal.
SIGNAL_IN_CLEANUP = """
import os, signal
from mancala_cli.batch import pipeline
made = pipeline.process_pool
def process_pool(workers):
    pool = made(workers)
    stop = pool.shutdown
    def shutdown(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGINT)
        return stop(*args, **kwargs)
    pool.shutdown = shutdown
    return pool
pipeline.process_pool = process_pool
"""


def test_a_signal_in_the_cleanup_after_a_closed_pipe_prints_no_traceback(command, games):
    run = command("convert", "--to", "xml", "--jobs", "2", str(games), prelude=SIGNAL_IN_CLEANUP)
    assert run.process.stdout.readline()
    run.process.stdout.close()
    assert run.end(10) == (141, "")
    assert left_after(run.sid) == []


def test_a_second_signal_in_the_cleanup_prints_no_traceback(command, games, tmp_path):
    target = tmp_path / "annotated.pmn"
    run = busy(command, games, target, SIGNAL_IN_CLEANUP)
    run.process.send_signal(signal.SIGTERM)
    assert run.end(3) == (143, "")
    assert left_after(run.sid, 2) == []
    assert target.read_text(encoding="utf-8") == "old\n" and listing(tmp_path) == ["annotated.pmn"]


def test_an_error_ends_the_workers(command, games):
    run = command("convert", "--to", "xml", "--jobs", "2", "-o", "/dev/full", str(games), stdout=subprocess.DEVNULL)
    assert run.end(60) == (2, "mancala: error: /dev/full: cannot write: No space left on device\n")
    assert left_after(run.sid) == []


# -- signals ---------------------------------------------------------------------------

@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_to_the_group_ends_busy_workers_at_once(command, games, tmp_path, signum):
    target = tmp_path / "annotated.pmn"
    run = busy(command, games, target)
    os.killpg(run.sid, signum)
    assert run.end(3) == (128 + signum, "")
    assert left_after(run.sid, 2) == []
    assert target.read_text(encoding="utf-8") == "old\n" and listing(tmp_path) == ["annotated.pmn"]


def test_sigterm_to_the_main_process_alone_ends_busy_workers_at_once(command, games, tmp_path):
    target = tmp_path / "annotated.pmn"
    run = busy(command, games, target)
    run.process.send_signal(signal.SIGTERM)
    assert run.end(3) == (143, "")
    assert left_after(run.sid, 2) == []
    assert target.read_text(encoding="utf-8") == "old\n" and listing(tmp_path) == ["annotated.pmn"]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL, signal.SIGSEGV])
def test_a_worker_that_dies_is_one_line_and_exit_2(command, games, tmp_path, signum):
    target = tmp_path / "annotated.pmn"
    run = busy(command, games, target)
    worker = run.workers()[0]
    os.kill(worker, signum)
    assert run.end(5) == (2, f"mancala: error: worker process {worker} was killed by {signal.Signals(signum).name}; "
                             "the command stopped\n")
    assert left_after(run.sid, 2) == []
    assert target.read_text(encoding="utf-8") == "old\n" and listing(tmp_path) == ["annotated.pmn"]


@pytest.mark.parametrize("prelude", [
    "",
    # where the kernel cannot be asked to end a worker with its parent
    "import mancala_cli.batch.pool as workers; workers._USE_PDEATHSIG = False",
])
def test_workers_end_with_a_killed_main_process(command, games, tmp_path, prelude):
    """Within a few seconds, even in the middle of a long native search (up to
    60 s a position here), which holds the interpreter's lock throughout."""
    target = tmp_path / "annotated.pmn"
    run = busy(command, games, target, prelude, seconds=60)
    run.process.kill()
    run.process.wait(timeout=10)
    assert left_after(run.sid, 3) == []
    # Nor is anything left of the output: it had no name yet (where the
    # system cannot make such a file, a .mancala-*.tmp file stays).
    assert target.read_text(encoding="utf-8") == "old\n"
    if unnamed_files(tmp_path):
        assert listing(tmp_path) == ["annotated.pmn"]


def unnamed_files(folder: pathlib.Path) -> bool:
    """Whether files without a name (``O_TMPFILE``) can be made in ``folder``."""
    try:
        os.close(os.open(folder, os.O_WRONLY | getattr(os, "O_TMPFILE", 0), 0o600))
    except (OSError, ValueError):
        return False
    return hasattr(os, "O_TMPFILE")
