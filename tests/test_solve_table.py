"""``solve --table FILE``: a search cut short (a node or time limit, Ctrl-C,
SIGTERM) saves its table, and a later run with the same file goes on from
it: it finds the result of an uninterrupted search, with fewer nodes. A file
of another game or position, or a damaged one, is refused in one line."""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from mancala_cli import CORE, get_game
from mancala_cli.positions import parse_position
from mancala_cli.solving import search as solver_module, table_file
from mancala_cli.solving.search import Solver
from mancala_cli.solving.table_file import TableFileError

#: Positions of examples/kingulu-tournament.pmn (after plies 2, 4 and 5)
#: that the search proves in a few seconds (the first on the native core,
#: the others on either): a draw and two wins.
NATIVE_POSITION = "4,1,10,1,3,4/1,0,2,10,3,2 S 7-0 2"
DRAW_POSITION = "1,1,11,2,4,5/2,1,5*,0,4,3 S 9-0 3"
WIN_POSITION = "0,2,12,0,5,6/3,0,6*,1,4,0 N 9-0 3"
#: The position the command-line tests interrupt: some seconds of search.
LONG_POSITION = NATIVE_POSITION if CORE == "native" else WIN_POSITION
KINGULU = get_game("kingulu")


def summary(solution):
    return solution.result, solution.moves, solution.best


@pytest.mark.parametrize("text", [DRAW_POSITION, WIN_POSITION])
def test_a_search_stopped_by_a_node_limit_goes_on_from_its_table(tmp_path, text):
    position = parse_position(KINGULU, text)
    whole = Solver(KINGULU).solve(position)
    assert whole.complete and whole.result != "unknown"
    table = tmp_path / "t.table"
    # (A search with a node limit deepens step by step first, and may prove sooner than one without.)
    limit = whole.nodes // 3
    while Solver(KINGULU).solve(position, nodes=limit).complete:
        limit //= 2
    first = Solver(KINGULU).solve(position, nodes=limit, table=table)
    assert first.stopped == "nodes"
    assert table.stat().st_size > table_file.TABLE_HEADER
    solver = Solver(KINGULU)
    resumed = solver.solve(position, table=table)
    assert solver.loaded > 0
    assert resumed.complete
    assert summary(resumed) == summary(whole)
    assert resumed.nodes < whole.nodes
    # What the resumed search adds is saved too: a third run has less to do.
    again = Solver(KINGULU).solve(position, table=table)
    assert summary(again) == summary(whole) and again.nodes < resumed.nodes
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.table"]


def test_the_table_is_saved_while_the_search_runs(tmp_path):
    """Every ``save_every`` seconds (here: at every progress point), by an
    atomic replace: each file seen while the search runs is a whole table."""
    position = KINGULU.start()
    table = tmp_path / "t.table"
    seen = []

    def progress(depth, nodes, seconds):
        if table.exists():
            seen.append(table.read_bytes())

    solver = Solver(KINGULU)
    solver.save_every = 0.0
    solution = solver.solve(position, nodes=150_000, progress=progress, table=table)
    assert solution.nodes >= 2 * solver_module.PROGRESS_EVERY
    assert len(seen) >= 1
    for data in seen:  # each one loads
        check = tmp_path / "check.table"
        check.write_bytes(data)
        loader = Solver(KINGULU)
        loader.solve(position, nodes=1, table=check)
        assert loader.loaded > 0


def test_a_file_for_another_game_or_position_is_refused(tmp_path):
    table = tmp_path / "t.table"
    position = parse_position(KINGULU, WIN_POSITION)
    Solver(KINGULU).solve(position, nodes=5000, table=table)
    saved = table.read_bytes()
    mackay = get_game("kimasai-mackay")
    with pytest.raises(TableFileError, match=r"^the table of another game \(kingulu\), not kimasai-mackay$"):
        Solver(mackay).solve(mackay.start(), nodes=10, table=table)
    with pytest.raises(TableFileError, match="another position"):
        Solver(KINGULU).solve(parse_position(KINGULU, DRAW_POSITION), nodes=10, table=table)
    assert table.read_bytes() == saved  # a refused file is left as it was
    damaged = tmp_path / "damaged.table"
    damaged.write_bytes(saved[:-7])
    with pytest.raises(TableFileError, match="damaged"):
        Solver(KINGULU).solve(position, nodes=10, table=damaged)
    flipped = bytearray(saved)
    flipped[-3] ^= 1
    damaged.write_bytes(bytes(flipped))
    with pytest.raises(TableFileError, match="damaged"):
        Solver(KINGULU).solve(position, nodes=10, table=damaged)
    other = tmp_path / "other"
    other.write_text("not a table\n")
    with pytest.raises(TableFileError, match="not a table file"):
        Solver(KINGULU).solve(position, nodes=10, table=other)


def test_the_file_and_the_loaded_table_stay_within_the_memory(tmp_path):
    position = parse_position(KINGULU, LONG_POSITION)
    table = tmp_path / "t.table"
    memory = 1 << 20
    Solver(KINGULU, memory=memory).solve(position, nodes=200_000, table=table)
    assert table.stat().st_size <= memory
    big = tmp_path / "big.table"
    Solver(KINGULU, memory=64 << 20).solve(position, nodes=200_000, table=big)
    assert big.stat().st_size > memory
    solver = Solver(KINGULU, memory=memory)
    solver.solve(position, nodes=1, table=big)
    assert 0 < solver.loaded
    if solver.kernel is not None:
        assert solver.kernel.table_bytes <= memory
    else:
        assert solver.used <= memory


# -- the command line -----------------------------------------------------------

def mancala(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "mancala_cli", *args], capture_output=True, text=True,
                          timeout=600, **kwargs)


#: A node limit far above what the searches need: with one, the search stops
#: deepening after a share of it, not of its time, so every run takes the same path.
NODES = ("--nodes", "100000000")


def solve_json(table, *extra):
    done = mancala("solve", "--game", "kingulu", "--position", LONG_POSITION, "--format", "json",
                   "--table", str(table), *extra)
    return done.returncode, json.loads(done.stdout) if done.stdout else None, done.stderr


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_cpu():
    import resource
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    """The uninterrupted search, with the CPU time its process took."""
    before = children_cpu()
    code, found, _ = solve_json(tmp_path_factory.mktemp("whole") / "t.table", *NODES)
    assert code == 0 and found["result"] != "unknown"
    found["cpu"] = children_cpu() - before
    return found


def same_answer(found, whole):
    return (found["result"], found["best"], found["moves"]) == (whole["result"], whole["best"], whole["moves"])


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads the search's CPU time in /proc")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_solve_goes_on_from_its_table(tmp_path, uninterrupted, signum):
    table = tmp_path / "t.table"
    child = subprocess.Popen([sys.executable, "-m", "mancala_cli", "solve", "--game", "kingulu", "--position",
                              LONG_POSITION, "--format", "json", "--table", str(table), *NODES],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # Well into the search (start-up takes a fraction of this), but well before its end.
        deadline = time.monotonic() + 120
        while cpu_seconds(child.pid) < 0.4 * uninterrupted["cpu"] and child.poll() is None:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        child.send_signal(signum)
        out, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 128 + signum, err
    assert "Traceback" not in err
    stopped = json.loads(out)
    assert stopped["complete"] is False and stopped["stopped"] == "interrupted"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.table"]
    code, resumed, err = solve_json(table, *NODES)
    assert code == 0, err
    assert resumed["complete"] is True
    assert same_answer(resumed, uninterrupted)
    assert resumed["nodes"] < uninterrupted["nodes"]


def test_a_solve_stopped_by_its_time_limit_goes_on_from_its_table(tmp_path, uninterrupted):
    table = tmp_path / "t.table"
    # (A search with a time limit deepens step by step first, and may prove sooner than one without.)
    limit = uninterrupted["seconds"] / 4
    while True:
        code, stopped, err = solve_json(table, "--time", f"{limit:.3f}")
        if code != 0 or limit < 0.002:
            break
        table.unlink()
        limit /= 4
    assert code == 3, err
    assert stopped["stopped"] == "time"
    code, resumed, err = solve_json(table, *NODES)
    assert code == 0, err
    assert same_answer(resumed, uninterrupted)
    assert resumed["nodes"] < uninterrupted["nodes"]


def test_the_command_refuses_another_games_table_in_one_line(tmp_path):
    table = tmp_path / "t.table"
    assert mancala("solve", "--game", "kingulu", "--position", WIN_POSITION, "--nodes", "2000",
                   "--table", str(table)).returncode == 3
    before = table.read_bytes()
    done = mancala("solve", "--game", "kimasai-mackay", "--nodes", "10", "--table", str(table))
    assert done.returncode == 1
    assert done.stderr == f"mancala: error: {table}: the table of another game (kingulu), not kimasai-mackay\n"
    assert done.stdout == ""
    assert table.read_bytes() == before
    # A place where the table cannot be saved is refused before the search, not after it.
    began = time.monotonic()
    done = mancala("solve", "--game", "kingulu", "--time", "300", "--table", str(tmp_path / "no" / "t.table"))
    assert time.monotonic() - began < 60
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"mancala: error: {tmp_path / 'no' / 't.table'}: ") and \
        done.stderr.count("\n") == 1
