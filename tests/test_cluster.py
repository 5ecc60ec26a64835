"""--scheduler ADDRESS: the batches on a Dask cluster (a LocalCluster of two
worker processes here) give the bytes of --jobs 1; a killed worker costs
nothing; an unreachable scheduler, a worker without the project or with
another version of it, and Dask not installed are one-line errors."""
import os
import re
import signal
import socket
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from mancala_cli.cli.commands import whole

app = whole()

pytestmark = pytest.mark.skipif(os.environ.get("MANCALA_PURE", "") not in ("", "0"),
                                reason="the cluster tests run once, on the native-core run")
distributed = pytest.importorskip("distributed", reason="Dask distributed is not installed (pip install '.[dask]')")

runner = CliRunner()


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as local:
        with distributed.Client(local.scheduler_address, set_as_default=False) as client:
            yield local.scheduler_address, client


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    """2,400 random games of the three rules, a few of them damaged."""
    parts = []
    for seed, game in enumerate(("kingulu", "kimasai-mackay", "kimasai-klamroth")):
        done = runner.invoke(app, ["random", "--game", game, "-n", "800", "--seed", str(seed), "--max-plies", "50"])
        assert done.exit_code == 0
        parts.append(done.stdout)
    games = "\n".join(parts).split("\n\n")
    for k in range(5, len(games), 397):
        games[k] = games[k].replace(" 2. ", " 2. i9 ", 1)
    path = tmp_path_factory.mktemp("cluster") / "archive.pmn"
    path.write_text("\n\n".join(games), encoding="utf-8")
    return path


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("args, code, damaged", [
    (["validate", "--format", "json"], 1, 7),
    (["convert", "--to", "json", "--positions"], 1, 7),
    (["filter", "--min-plies", "45", "--invalid", "--to", "pmn"], 0, 0),
    (["stats", "--depth", "1"], 1, 7),  # (its invalid games told, as validate tells them)
])
def test_cluster_gives_the_bytes_of_one_job(cluster, archive, args, code, damaged):
    address, _ = cluster
    one = runner.invoke(app, [*args, "--jobs", "1", str(archive)])
    spread = runner.invoke(app, [*args, "--scheduler", address, str(archive)])
    assert (spread.exit_code, spread.stderr) == (one.exit_code, one.stderr)
    assert spread.stdout_bytes == one.stdout_bytes
    assert one.exit_code == code and len(one.stdout_bytes) > 1000
    assert one.stderr.count("bad-hole") + one.stdout.count("bad-hole") == damaged


def test_annotate_on_the_cluster_gives_the_bytes_of_one_job(cluster, archive, tmp_path):
    address, _ = cluster
    some = tmp_path / "some.pmn"
    some.write_text("\n\n".join(archive.read_text(encoding="utf-8").split("\n\n")[:60]) + "\n", encoding="utf-8")  # 30 games
    args = ["annotate", "--nodes", "300", str(some)]
    one = runner.invoke(app, [*args, "--jobs", "1"])
    spread = runner.invoke(app, [*args, "--scheduler", address])
    assert (spread.exit_code, spread.stderr, spread.stdout_bytes) == (one.exit_code, one.stderr, one.stdout_bytes)
    assert one.stdout.count("[Game ") == 30


def test_output_file_and_progress_count_every_batch(cluster, archive, tmp_path):
    from mancala_cli.batch.dask_client import connect
    from mancala_cli.batch.pipeline import Options, results
    from mancala_cli.files.batches import batches
    from mancala_cli.files.sources import open_source

    address, _ = cluster
    out = tmp_path / "games.jsonl"
    assert runner.invoke(app, ["convert", "--to", "json", "-o", str(out), "--scheduler", address,
                               str(archive)]).exit_code == 1
    assert out.read_bytes() == runner.invoke(app, ["convert", "--to", "json", "--jobs", "1", str(archive)]).stdout_bytes
    with open_source(str(archive), "utf-8") as source:
        sizes = [batch.size for batch in batches(source.lines(), "pmn", source.name, source.problems)]
    done = []
    connected = connect(address, 10)
    try:
        with open_source(str(archive), "utf-8") as source:
            assert sum(1 for _ in results(source, Options("validate"), connected, done.append)) == 2400
    finally:
        connected.close()
    assert done == sizes and len(sizes) > 20


def wait_replaced(client, killed, seconds=30.0):
    """Wait until the scheduler has dropped the killed worker (its address)
    and the nanny's new worker has joined: until then a worker list may
    still name the dead one, and ``client.run`` on it fails with a reset
    connection."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        workers = client.scheduler_info()["workers"]
        if killed not in workers and len(workers) == 2:
            return
        time.sleep(0.1)
    raise AssertionError(f"the killed worker {killed} was not replaced within {seconds} s")


def test_a_killed_worker_costs_nothing(cluster, archive, tmp_path):
    address, client = cluster
    big = tmp_path / "big.pmn"
    text = archive.read_text(encoding="utf-8")
    big.write_text("\n\n".join([text] * 3), encoding="utf-8")
    expected = runner.invoke(app, ["validate", "--jobs", "1", str(big)]).stdout_bytes
    run = subprocess.Popen([sys.executable, "-m", "mancala_cli", "validate", "--scheduler", address, str(big)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    pids = client.run(os.getpid)
    deadline = time.monotonic() + 15
    busy = {}
    while not busy and time.monotonic() < deadline:  # a worker in the middle of a batch
        busy = {worker: keys for worker, keys in client.processing().items() if keys}
        time.sleep(0.01)
    assert busy, "no batch ever reached a worker"
    killed = next(iter(busy))
    os.kill(pids[killed], signal.SIGKILL)
    assert run.poll() is None, "the run ended before the worker was killed"
    out, err = run.communicate(timeout=60)
    assert (run.returncode, err) == (1, b"")
    assert out == expected
    wait_replaced(client, killed)  # the nanny starts another worker


def test_unreachable_scheduler_is_one_line_and_leaves_the_output(archive, tmp_path):
    port = free_port()
    out = tmp_path / "out.jsonl"
    out.write_text("old\n")
    started = time.monotonic()
    done = runner.invoke(app, ["convert", "--to", "json", "-o", str(out), "--scheduler", f"tcp://127.0.0.1:{port}",
                               "--scheduler-timeout", "1.5", str(archive)])
    took = time.monotonic() - started
    assert (done.exit_code, done.stdout, done.stderr) == (
        2, "", f"mancala: error: --scheduler tcp://127.0.0.1:{port}: no Dask scheduler answered within 1.5 s\n")
    assert out.read_text() == "old\n" and os.listdir(tmp_path) == ["out.jsonl"]
    assert 1.4 < took < 6


@pytest.mark.parametrize("address, reason", [
    ("tcp://127.0.0.1:99999", "tcp://127.0.0.1:99999: not a scheduler address (port 99999 is not in 1-65535)"),
    ("tcp://127.0.0.1:0", "tcp://127.0.0.1:0: not a scheduler address (port 0 is not in 1-65535)"),
    ("tcp://127.0.0.1:1\nx", "'tcp://127.0.0.1:1\\nx': not a scheduler address (it holds a control character)"),
    ("tcp://127.0.0.1\r:1", "'tcp://127.0.0.1\\r:1': not a scheduler address (it holds a control character)"),
])
def test_a_bad_scheduler_address_is_one_line_at_once(archive, address, reason):
    started = time.monotonic()
    done = runner.invoke(app, ["validate", "--scheduler", address, "--scheduler-timeout", "3", str(archive)])
    assert (done.exit_code, done.stdout, done.stderr) == (2, "", f"mancala: error: --scheduler {reason}\n")
    assert time.monotonic() - started < 1


def test_scheduler_with_jobs_is_a_usage_error(archive):
    for jobs in ("2", "auto"):
        done = runner.invoke(app, ["validate", "--jobs", jobs, "--scheduler", "tcp://127.0.0.1:1", str(archive)])
        assert (done.exit_code, done.stdout, done.stderr) == (
            2, "", "mancala: error: give --jobs or --scheduler, not both\n")
    done = runner.invoke(app, ["validate", "--scheduler", "http://127.0.0.1:8786", str(archive)])
    assert (done.exit_code, done.stdout) == (2, "")
    assert done.stderr.startswith("mancala: error: --scheduler http://127.0.0.1:8786: not a scheduler address "
                                  "(unknown address scheme 'http'") and done.stderr.count("\n") == 1
    done = runner.invoke(app, ["split", "--games", "5", "--out-dir", "parts", "--scheduler", "host", str(archive)])
    assert (done.exit_code, done.stderr) == (
        2, "mancala: error: --scheduler host: not a scheduler address (missing port number in address 'host')\n")
    done = runner.invoke(app, ["stats", "--scheduler-timeout", "0", "--scheduler", "tcp://127.0.0.1:1", str(archive)])
    assert (done.exit_code, done.stderr) == (
        2, "mancala: error: --scheduler-timeout must be more than 0 and at most 86400 seconds (got 0)\n")


def _set_stamp(value):
    from mancala_cli.batch import dask_executor as cluster

    cluster._stamp = value


def test_a_worker_of_another_version_is_one_line(cluster, archive):
    from mancala_cli.batch.dask_client import connect
    from mancala_cli.batch.dask_executor import stamp
    from mancala_cli.batch.lifetime import BatchError
    from mancala_cli.batch.pipeline import Options, results
    from mancala_cli.files.sources import open_source

    address, client = cluster
    connected = connect(address, 10)  # (the workers were of this version then)
    client.run(_set_stamp, "mancala 0.0.9 0123456789abcdef")
    try:
        done = runner.invoke(app, ["validate", "--scheduler", address, str(archive)])
        with open_source(str(archive), "utf-8") as source, pytest.raises(BatchError) as failed:
            list(results(source, Options("validate"), connected))
    finally:
        client.run(_set_stamp, None)
        connected.close()
    assert str(failed.value) == (f"a worker runs mancala 0.0.9 0123456789abcdef, this command {stamp()}; "
                                    "install the same version on every worker")
    assert done.exit_code == 2 and done.stdout == ""
    assert re.fullmatch(r"mancala: error: worker tcp://127\.0\.0\.1:\d+ runs mancala 0\.0\.9 0123456789abcdef, "
                        rf"this command {re.escape(stamp())}; install the same version on every worker\n",
                        done.stderr)
    assert re.fullmatch(r"mancala 0\.1\.0 [0-9a-f]{16}", stamp())


def test_every_batch_carries_the_stamp():
    from mancala_cli.batch.dask_executor import ProjectMismatch, checked, stamp

    assert checked(stamp(), len, "abc") == 3
    with pytest.raises(ProjectMismatch, match=r"^a worker runs mancala 0\.1\.0 [0-9a-f]{16}, this command other$"):
        checked("other", len, "abc")


def _hide_project():
    import sys

    class Hidden:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("mancala_cli", "notation"):
                raise ModuleNotFoundError(f"No module named {name!r}")
            return None

    sys.meta_path.insert(0, Hidden())
    for name in [name for name in sys.modules if name.split(".")[0] in ("mancala_cli", "notation")]:
        del sys.modules[name]


def _show_project():
    import sys

    sys.meta_path[:] = [finder for finder in sys.meta_path if type(finder).__name__ != "Hidden"]


def test_a_worker_without_the_project_is_one_line(cluster, archive):
    from mancala_cli.batch.dask_client import connect
    from mancala_cli.batch.lifetime import BatchError
    from mancala_cli.batch.pipeline import Options, results
    from mancala_cli.files.sources import open_source

    address, client = cluster
    connected = connect(address, 10)  # (the workers had the project then)
    client.run(_hide_project)
    try:
        done = runner.invoke(app, ["validate", "--scheduler", address, str(archive)])
        with open_source(str(archive), "utf-8") as source, pytest.raises(BatchError) as failed:
            list(results(source, Options("validate"), connected))
    finally:
        client.run(_show_project)
        connected.close()
    assert done.exit_code == 2 and done.stdout == ""
    assert re.fullmatch(r"mancala: error: worker tcp://127\.0\.0\.1:\d+ cannot load the project \(.*No module "
                        r"named 'mancala_cli'.*\); install mancala on every worker\n", done.stderr)
    assert re.fullmatch(r"a worker cannot load the project \(.*'mancala_cli'.*\); install mancala on every worker",
                        str(failed.value))


def test_without_dask_the_error_names_the_install(archive):
    hide = ("import sys\n"
            "class Hidden:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name.split('.')[0] == 'distributed': raise ModuleNotFoundError(name)\n"
            "sys.meta_path.insert(0, Hidden())\n"
            "from mancala_cli.cli import main\n"
            "sys.argv = ['mancala', 'validate', '--scheduler', 'tcp://127.0.0.1:1', sys.argv[1]]\n"
            "main()\n")
    done = subprocess.run([sys.executable, "-c", hide, str(archive)], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", "mancala: error: --scheduler needs Dask distributed, which is not installed: "
               "pip install 'mancala[dask]'\n")


def test_the_dask_bag_pattern_of_scale_out_md(cluster, archive, tmp_path):
    import json
    import pathlib

    address, _ = cluster
    page = (pathlib.Path(__file__).resolve().parents[1] / "docs" / "scale-out.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", page, re.S).group(1)
    code, example = code.rsplit("\n\n\n", 1)
    assert example == 'check_archive("tcp://10.0.0.5:8786", "/shared/games/*.pmn", "/shared/checked")\n'
    shards = tmp_path / "games"
    assert runner.invoke(app, ["split", "--games", "1000", "--out-dir", str(shards), "--jobs", "1",
                               str(archive)]).exit_code == 0
    namespace: dict = {}
    exec(compile(code, "docs/scale-out.md", "exec"), namespace)
    namespace["check_archive"](address, str(shards / "*.pmn"), str(tmp_path / "checked"))
    rows = [json.loads(line) for part in ("0.part", "1.part", "2.part")
            for line in (tmp_path / "checked" / part).read_text(encoding="utf-8").splitlines()]
    assert sorted(os.listdir(tmp_path / "checked")) == ["0.part", "1.part", "2.part"]
    assert [row["file"][-9:] for row in rows[::1000]] == ["00001.pmn", "00002.pmn", "00003.pmn"]
    assert [row["index"] for row in rows] == [*range(1, 1001), *range(1, 1001), *range(1, 401)]
    reports = [json.loads(line) for line in runner.invoke(
        app, ["validate", "--format", "json", "--jobs", "1", str(archive)]).stdout.splitlines()]
    assert [(row["plies"], row["valid"], len(row["errors"])) for row in rows] == \
        [(report["plies"], report["valid"], len(report["problems"])) for report in reports]
    assert sum(not row["valid"] for row in rows) == 7


class _FakePeer:
    """A TCP server on 127.0.0.1 that is no Dask scheduler: it answers HTTP,
    sends 0xFF bytes, closes each connection at once, announces a first
    message of 3 GiB (and sends zeros until the client goes), or accepts and
    never says a word."""

    def __init__(self, kind):
        import threading

        self.kind = kind
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(8)
        self.port = self.server.getsockname()[1]
        self.held = []
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            try:
                peer, _ = self.server.accept()
            except OSError:
                return
            self.held.append(peer)
            try:
                if self.kind == "http":
                    peer.recv(65536)
                    peer.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
                elif self.kind == "0xff":
                    peer.sendall(b"\xff" * 4096)
                elif self.kind == "closes":
                    peer.close()
                elif self.kind == "3gib":
                    peer.sendall((3 << 30).to_bytes(8, sys.byteorder))
                    peer.settimeout(10)
                    zeros = bytes(1 << 20)
                    for _ in range(3 << 10):
                        peer.sendall(zeros)
            except OSError:
                pass

    def close(self):
        self.server.close()
        for peer in self.held:
            peer.close()


NOT_DASK = "what answered is not a Dask scheduler"


@pytest.mark.parametrize("kind, reason", [
    ("http", rf"{NOT_DASK} \(it announces a message of [0-9,]+ bytes, more than a Dask handshake's 1,048,576\)"),
    ("0xff", rf"{NOT_DASK} \(it announces a message of 18,446,744,073,709,551,615 bytes, .*\)"),
    ("closes", rf"{NOT_DASK} \(it closed the connection without a Dask handshake\)"),
    ("3gib", rf"{NOT_DASK} \(it announces a message of 3,221,225,472 bytes, more than a Dask handshake's "
             r"1,048,576\)"),
    ("silent", r"no Dask scheduler answered within 2 s"),
])
def test_a_peer_that_is_no_scheduler_is_one_line_within_the_timeout(archive, tmp_path, kind, reason):
    """Within the timeout and 1 GiB of address space (Dask's reader would
    allocate the 3 GiB a peer announces)."""
    peer = _FakePeer(kind)
    out = tmp_path / "out.jsonl"
    out.write_text("old\n")
    address = f"tcp://127.0.0.1:{peer.port}"
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "
            "from mancala_cli.cli import main; sys.argv = ['mancala', *sys.argv[1:]]; main()")
    # Dask's connect tries again within the timeout, each try given a share of
    # it: on a busy machine a share of 2 s can end before a peer's closing is
    # seen. The silent peer needs the timeout itself; the others answer at once.
    timeout = "2" if kind == "silent" else "10"
    try:
        started = time.monotonic()
        done = subprocess.run([sys.executable, "-c", code, "convert", "--to", "json", "-o", str(out),
                               "--scheduler", address, "--scheduler-timeout", timeout, str(archive)],
                              capture_output=True, text=True, timeout=60)
        took = time.monotonic() - started
    finally:
        peer.close()
    assert (done.returncode, done.stdout) == (2, "")
    assert re.fullmatch(rf"mancala: error: --scheduler {re.escape(address)}: {reason}\n", done.stderr), done.stderr
    assert out.read_text() == "old\n" and os.listdir(tmp_path) == ["out.jsonl"]
    assert took < 15


def _recv_exactly(peer, size):
    data = b""
    while len(data) < size:
        chunk = peer.recv(size - len(data))
        if not chunk:
            raise OSError("closed")
        data += chunk
    return data


class _HandshakingPeer(_FakePeer):
    """A TCP server on 127.0.0.1 that answers Dask's handshake (it sends the
    client's own back, after ``delay`` seconds) and then announces a message
    of 3 GiB (and sends zeros until the client goes) or says no more
    ("late"); or that answers the first connection's handshake alone (the
    command's probe) and says nothing on the next ("once")."""

    def __init__(self, kind, delay=0.0):
        self.delay = delay
        self.answered = 0
        self.first = 0.0  # (when the first connection came: the command's start-up is not the peer's doing)
        super().__init__(kind)

    def serve(self):
        import threading

        while True:
            try:
                peer, _ = self.server.accept()
            except OSError:
                return
            self.first = self.first or time.monotonic()
            self.held.append(peer)
            threading.Thread(target=self.answer, args=(peer,), daemon=True).start()

    def answer(self, peer):
        try:
            size = _recv_exactly(peer, 8)
            handshake = _recv_exactly(peer, int.from_bytes(size, sys.byteorder))
            time.sleep(self.delay)
            self.answered += 1
            if self.kind == "once" and self.answered > 1:
                return
            peer.sendall(size + handshake)
            if self.kind == "3gib":
                peer.sendall((3 << 30).to_bytes(8, sys.byteorder))
                peer.settimeout(10)
                zeros = bytes(1 << 20)
                for _ in range(3 << 10):
                    peer.sendall(zeros)
        except OSError:
            pass


@pytest.mark.parametrize("command", [["validate"], ["solve", "--game", "kingulu", "--time", "5"]], ids=["validate", "solve"])
@pytest.mark.parametrize("kind, delay, timeout, reason", [  # (ids: the kinds)
    ("3gib", 0.0, "3", rf"{NOT_DASK} \(it announces a message of 3,221,225,472 bytes, more than 16,777,216, the most "
                       r"a scheduler's answer may have while connecting\)"),
    ("late", 3.5, "4", r"no Dask scheduler answered within 4 s"),
    ("once", 0.0, "3", r"no Dask scheduler answered within 3 s"),
])
def test_a_peer_that_answers_the_handshake_is_bounded_in_memory_and_time(archive, command, kind, delay, timeout,
                                                                        reason):
    """A peer that answers Dask's handshake and then announces 3 GiB is
    refused within 1 GiB of address space; one that answers it just before
    the timeout and then says nothing ends within the timeout too (not the
    probe's timeout and then the client's), and so does one that answers the
    probe's handshake and not the client's (Dask would wait for ever)."""
    peer = _HandshakingPeer(kind, delay)
    address = f"tcp://127.0.0.1:{peer.port}"
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "
            "from mancala_cli.cli import main; sys.argv = ['mancala', *sys.argv[1:]]; main()")
    inputs = [str(archive)] if command == ["validate"] else []
    try:
        done = subprocess.run([sys.executable, "-c", code, *command, "--scheduler", address,
                               "--scheduler-timeout", timeout, *inputs], capture_output=True, text=True, timeout=30)
        took = time.monotonic() - peer.first
    finally:
        peer.close()
    assert (done.returncode, done.stdout) == (2, "")
    assert re.fullmatch(rf"mancala: error: --scheduler {re.escape(address)}: {reason}\n", done.stderr), done.stderr
    assert took < float(timeout) + 1.5  # (the late peer took 7.5 s and more before: the probe's 3.5, the client's 4)
