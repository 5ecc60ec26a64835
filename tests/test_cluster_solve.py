"""solve --scheduler ADDRESS: the tree split into tasks for a Dask cluster (a
LocalCluster of two worker processes on 127.0.0.1 here) gives the one
process's results, with a worker killed mid-run too; a time limit and
Ctrl-C print what is known (exit 3, 130) and leave no task running; the
history of kimasai-klamroth (KK-4b) travels with the tasks; a bad address
is one line."""
import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from mancala_cli.cli.commands import whole
from mancala_cli.solving.cluster_search import GRACE_SECONDS

app = whole()

pytestmark = pytest.mark.skipif(os.environ.get("MANCALA_PURE", "") not in ("", "0"),
                                reason="the cluster tests run once, on the native-core run")
distributed = pytest.importorskip("distributed", reason="Dask distributed is not installed (pip install '.[dask]')")

runner = CliRunner()

#: Positions that each process proves in seconds: late in the example games
#: (examples/*.pmn; the first Kingulu one is 2 plies into the tournament game).
POSITIONS = [
    ("kingulu", "4,1,10,1,3,4/1,0,2,10,3,2 S 7-0 2"),
    ("kingulu", "0,3,13,1,6,0/5*,0,6*,1,4,0 S 9-0 4"),
    ("kingulu", "3,9*,0,3,1,0/8*,1,9*,0,2,3 S 9-0 6"),
    ("kimasai-mackay", "5,0,1,2,0,6,4,1/4,4,2,9,2,3,3,4/0,0,3,1,1,0,1,1/1,1,1,0,1,0,1,2 S 0-0 36"),
    ("kimasai-mackay", "6,1,2,3,1,0,5,2/5,5,3,1,3,4,4,5/0,0,3,1,1,0,1,1/1,1,1,1,0,0,1,2 S 0-0 37"),
    ("kimasai-klamroth", "0,1,0,1,0,1,0,0,0,0,0,0/1,1,0,0,0,0,0,0,0,0,0,0/"
                         "0,0,0,0,0,0,1,0,1,0,0,0/0,0,0,0,0,0,0,0,0,0,0,0 N 18-21 69"),
    ("kimasai-klamroth", "1,0,1,0,1,0,0,0,0,0,0,0/1,1,0,0,0,0,0,0,0,0,0,0/"
                         "0,0,0,1,0,0,0,0,1,0,0,0/0,0,0,0,0,0,0,0,0,0,0,0 N 18-21 72"),
]
#: What both searches must agree on (nodes, time, depth are each search's own).
SAME = ("game", "position", "result", "best", "moves", "low", "high", "complete", "stopped", "over")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None, memory_limit="1GiB") as local:
        with distributed.Client(local.scheduler_address, set_as_default=False) as client:
            yield local.scheduler_address, client


def _executing(dask_worker):
    return sorted(str(task.key) for task in dask_worker.state.tasks.values() if task.state in ("executing", "cancelled"))


def _stacks(dask_worker):
    """Where each of the worker's task threads is (for a failure's message)."""
    import sys
    import traceback

    frames = sys._current_frames()
    return {ident: "".join(traceback.format_stack(frames[ident])[-8:])
            for ident in list(dask_worker.active_threads) if ident in frames}


def _idle(client, seconds=20.0):
    """Whether every worker's threads are idle within ``seconds`` (no task
    left running: a task reads whether to stop every second, and stops when
    it cannot read it within 5 s)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(client.run(lambda dask_worker: dask_worker.state.executing_count).values()):
            return True
        time.sleep(0.1)
    print("still running:", client.run(_executing))
    for worker, stacks in client.run(_stacks).items():
        for stack in stacks.values():
            print(worker, stack)
    return False


def _solve(*args):
    done = runner.invoke(app, ["solve", "--format", "json", "--memory", "64M", *args])
    return done.exit_code, done.stderr, json.loads(done.stdout) if done.stdout else None


def _check_pv(game_id, position, answer, solve):
    """The principal variation: legal moves from the position, the first a
    best move, each side's move keeping the proven result (checked by
    solving each position when ``solve``). The proven result of a position
    comes long before every move's value is known (which the search goes on
    to find), so a node limit ends each check without weakening it."""
    from mancala_cli import get_game, parse_position
    from mancala_cli.solving.search import Solver
    from notation.coords import format_move

    game = get_game(game_id)
    now = parse_position(game, position)
    assert answer["pv"] and answer["pv"][0] in answer["best"]
    value = answer["result"]
    for token in answer["pv"]:
        moves = {format_move(game.board, move, "algebraic", now.side): after for move, after in game.successors(now)}
        assert token in moves
        now = moves[token]
        value = {"win": "loss", "loss": "win", "draw": "draw"}[value]
        if not solve:
            continue
        solved = Solver(game, memory=64 << 20).solve(now, nodes=2_000_000, seconds=60)
        assert solved.result == value or solved.outcome is not None


@pytest.mark.parametrize("game, position", POSITIONS)
def test_the_cluster_gives_the_results_of_one_process(cluster, game, position):
    address, client = cluster
    code, err, one = _solve("--game", game, "--position", position)
    spread_code, spread_err, spread = _solve("--game", game, "--position", position, "--scheduler", address)
    assert (spread_code, spread_err) == (code, err) == (0, "")
    assert {k: spread[k] for k in SAME} == {k: one[k] for k in SAME}
    assert one["result"] != "unknown" and one["complete"]
    assert spread["tasks"] >= 1 and spread["split"] >= 1 and spread["nodes"] > spread["tasks"]
    _check_pv(game, position, spread, one["nodes"] < 500_000)
    assert _idle(client)


def test_text_output_and_a_finished_position(cluster):
    address, _ = cluster
    position = "0,3,13,1,6,0/5*,0,6*,1,4,0 S 9-0 4"
    one = runner.invoke(app, ["solve", "--game", "kingulu", "--position", position])
    spread = runner.invoke(app, ["solve", "--game", "kingulu", "--position", position, "--scheduler", address])
    assert spread.exit_code == one.exit_code == 0
    head, last = spread.stdout.rsplit("\n", 2)[0], spread.stdout.splitlines()[-1]
    assert head == one.stdout.rsplit("\n", 2)[0]
    assert re.fullmatch(r"loss \(best: e1\^; proven; pv: e1\^( \S+)+; \d+ tasks at \d+ plies; depth \d+, [\d,]+ nodes, "
                        r"\d+\.\d\d s\)", last), last
    over = "0,0,0,0,0,2/0,0,0,0,0,0 S 20-26 20"
    one = runner.invoke(app, ["solve", "--game", "kingulu", "--position", over])
    spread = runner.invoke(app, ["solve", "--game", "kingulu", "--position", over, "--scheduler", address])
    assert (spread.exit_code, spread.stdout) == (one.exit_code, one.stdout) == (
        0, "loss (the game is over: 0-1, KG-7: S to move has no legal move; score 20-28)\n")


def test_the_history_travels_with_the_tasks(cluster):
    """KK-4b: with a position three moves on in the history, the move that
    leads there is a draw, not a loss; whether the repetition falls inside a
    task (a split of one ply) or in the split tree (a deep split), the
    cluster finds what one process finds."""
    from mancala_cli import get_game, parse_position
    from mancala_cli.solving.cluster_search import ClusterSolver
    from mancala_cli.solving.search import Solver

    _, client = cluster
    game = get_game("kimasai-klamroth")
    start = parse_position(game, POSITIONS[-1][1])
    later = start
    for name in ("b3", "i2", "c4"):
        later = game.play(later, game.board.index_of(name))[1]
    history = {later.key()}
    one = Solver(game, memory=64 << 20).solve(start, history=history)
    plain = Solver(game, memory=64 << 20).solve(start)
    assert [r for _, r in plain.moves] == ["loss", "loss", "loss"]
    assert [r for _, r in one.moves] == ["loss", "draw", "loss"] and one.result == "draw"
    for tasks, split in ((1, 1), (200, 4)):
        spread = ClusterSolver(client, game, memory=64 << 20, tasks=tasks).solve(start, history=history)
        assert (spread.result, spread.moves, spread.best, spread.bounds) == (one.result, one.moves, one.best,
                                                                             one.bounds)
        assert spread.split >= split and spread.complete
        assert repr(spread).startswith("<Solution draw: 3 moves, 1 best, depth ") and \
            repr(spread).endswith(f", {spread.tasks} tasks>")
    plain_spread = ClusterSolver(client, game, memory=64 << 20, tasks=1).solve(start)
    assert plain_spread.moves == plain.moves


def _run(address, *args):
    return subprocess.Popen([sys.executable, "-m", "mancala_cli", "solve", "--format", "json", "--memory", "64M",
                             "--scheduler", address, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _busy(client, seconds=30.0):
    """The workers with a task under way (once one has one)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        busy = {worker: keys for worker, keys in client.processing().items() if keys}
        if busy:
            return busy
        time.sleep(0.01)
    return {}


#: A position whose spread search lasts long enough to kill a worker under
#: way (South to move two plies into a kingulu game: about 1.8 s spread over
#: two workers, the first task on a worker after about 0.3 s, on an idle
#: machine; in one process it takes much longer, so a clean spread run is
#: the yardstick here, and the tests above hold the spread to one process).
LONGER = ("kingulu", "1,0,4,2,0,10/9,3,2,9,0,5 S 0-3 2")
#: The runs tried until one is still under way when its worker is killed.
ATTEMPTS = 3


def test_a_killed_worker_costs_nothing(cluster):
    from tests.test_cluster import wait_replaced

    address, client = cluster
    game, position = LONGER
    clean = _run(address, "--game", game, "--position", position)
    out, err = clean.communicate(timeout=180)
    assert (clean.returncode, err) == (0, b"")
    whole = json.loads(out)
    for _ in range(ATTEMPTS):
        run = _run(address, "--game", game, "--position", position)
        try:
            pids = client.run(os.getpid)
            busy = _busy(client)
            assert busy, "no task ever reached a worker"
            killed = next(iter(busy))
            under_way = run.poll() is None
            os.kill(pids[killed], signal.SIGKILL)
            out, err = run.communicate(timeout=180)
        finally:
            run.kill()
            run.wait()
        assert (run.returncode, err) == (0, b"")
        spread = json.loads(out)
        assert {k: spread[k] for k in SAME} == {k: whole[k] for k in SAME}
        wait_replaced(client, killed)  # the nanny starts another worker
        if under_way:
            break
    else:
        pytest.fail(f"each of {ATTEMPTS} runs ended before its worker was killed")
    assert _idle(client)


def test_a_task_asks_whether_to_stop(cluster):
    """A task reads the control variable: go on, stop (all, or this task),
    and stop at once when the variable is gone (the command has ended)."""
    from distributed import Variable

    from mancala_cli.solving.cluster_search import ASK_SECONDS, _told_to_stop

    _, client = cluster
    name = "mancala-solve-probe"
    variable = Variable(name, client=client)

    def ask(index):
        started = time.monotonic()
        return _told_to_stop(name, index), time.monotonic() - started

    def asked(index):
        return client.submit(ask, index, pure=False).result(timeout=60)

    variable.set([0, [3]])
    assert asked(1)[0] is False and asked(3)[0] is True
    variable.set([1, []])
    assert asked(1)[0] is True
    variable.delete()
    stop, took = asked(1)
    assert stop is True and took < ASK_SECONDS / 2


def test_the_time_limit_gives_what_is_known(cluster):
    """The start of kimasai-mackay is far from proven in 2 s (the search
    proves nothing of its example game before move 55): exit 3, every move
    unknown, within the limit and the wait for the tasks' answers, and no
    task left running. (The kingulu start, used before, is now proven in
    2 s by the cluster's two workers.)"""
    address, client = cluster
    started = time.monotonic()
    code, err, answer = _solve("--game", "kimasai-mackay", "--time", "2", "--scheduler", address)
    took = time.monotonic() - started
    assert (code, err) == (3, "")
    assert (answer["complete"], answer["stopped"], answer["result"]) == (False, "time", "unknown")
    assert len(answer["moves"]) > 1
    assert {move["result"] for move in answer["moves"]} == {"unknown"}
    assert took < 2 + GRACE_SECONDS + 5  # (connecting takes a second or two)
    assert _idle(client)


def test_ctrl_c_prints_what_is_known_and_stops_the_tasks(cluster):
    address, client = cluster
    run = _run(address, "--game", "kimasai-mackay")  # (far from proven: the kingulu start now takes a second)
    try:
        assert _busy(client), "no task ever reached a worker"
        time.sleep(1)
        run.send_signal(signal.SIGINT)
        out, err = run.communicate(timeout=30)
    finally:
        run.kill()
        run.wait()
    assert (run.returncode, err) == (130, b"")
    answer = json.loads(out)
    assert (answer["complete"], answer["stopped"]) == (False, "interrupted")
    assert _idle(client, 5), "a task still runs after Ctrl-C"


def test_bad_addresses_and_options_are_one_line():
    from tests.test_cluster import free_port

    port = free_port()
    started = time.monotonic()
    done = runner.invoke(app, ["solve", "--game", "kingulu", "--scheduler", f"tcp://127.0.0.1:{port}",
                               "--scheduler-timeout", "1.5"])
    assert (done.exit_code, done.stdout, done.stderr) == (
        2, "", f"mancala: error: --scheduler tcp://127.0.0.1:{port}: no Dask scheduler answered within 1.5 s\n")
    assert time.monotonic() - started < 6
    done = runner.invoke(app, ["solve", "--game", "kingulu", "--scheduler", "host"])
    assert (done.exit_code, done.stdout, done.stderr) == (
        2, "", "mancala: error: --scheduler host: not a scheduler address (missing port number in address 'host')\n")
    done = runner.invoke(app, ["solve", "--game", "kingulu", "--scheduler", " "])
    assert (done.exit_code, done.stderr) == (2, "mancala: error: --scheduler: empty address\n")
    done = runner.invoke(app, ["solve", "--game", "kingulu", "--scheduler-timeout", "3"])
    assert (done.exit_code, done.stdout, done.stderr) == (2, "", "mancala: error: --scheduler-timeout needs --scheduler\n")
    for option in (["--nodes", "5"], ["--depth", "3"]):
        done = runner.invoke(app, ["solve", "--game", "kingulu", "--scheduler", "tcp://127.0.0.1:1", *option])
        assert (done.exit_code, done.stdout, done.stderr) == (
            2, "", "mancala: error: --depth and --nodes do not go with --scheduler (its tasks have node budgets of "
                   "their own); give --time\n")
    done = runner.invoke(app, ["solve", "--game", "kingulu", "--scheduler", "tcp://127.0.0.1:1",
                               "--tablebase", "kk.tb"])
    assert (done.exit_code, done.stdout, done.stderr) == (
        2, "", "mancala: error: --tablebase does not go with --scheduler (the workers would each need the file)\n")
    done = runner.invoke(app, ["solve", "--game", "kingulu", "--scheduler", "tcp://127.0.0.1:1", "--table", "t.table"])
    assert (done.exit_code, done.stdout, done.stderr) == (
        2, "", "mancala: error: --table does not go with --scheduler (each task has a table of its own)\n")
    done = runner.invoke(app, ["solve", "--game", "kingulu", "--scheduler", "tcp://127.0.0.1:1",
                               "--scheduler-timeout", "0"])
    assert (done.exit_code, done.stderr) == (
        2, "mancala: error: --scheduler-timeout must be more than 0 and at most 86400 seconds (got 0)\n")


def test_a_task_that_fails_everywhere_is_one_line(cluster):
    """A worker that cannot load the project fails its task: one line, exit 2."""
    from mancala_cli import get_game, parse_position
    from mancala_cli.solving.cluster_search import ClusterSolveError, ClusterSolver
    from tests.test_cluster import _hide_project, _show_project

    _, client = cluster
    game = get_game("kingulu")
    client.run(_hide_project)
    try:
        with pytest.raises(ClusterSolveError) as failed:
            ClusterSolver(client, game, memory=64 << 20).solve(parse_position(game, POSITIONS[1][1]), seconds=60)
    finally:
        client.run(_show_project)
    assert re.fullmatch(r"a worker cannot load the project \(.*'mancala_cli'.*\); install mancala on every worker",
                        str(failed.value))
    assert _idle(client)
