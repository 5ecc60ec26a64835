"""The process around the commands: worker counts, exit statuses for broken
pipes and signals, one-line usage errors, closed and full standard
streams, options that do not go together, the summary's wording and the
diagram of a finished game."""
from __future__ import annotations

import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from mancala_cli.batch import pipeline
from mancala_cli.cli.commands import whole
from mancala_cli.files.batches import Batch

from .test_stopping import wait_writing

app = whole()

ROOT = pathlib.Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
VILLAGE = str(EXAMPLES / "kingulu-village-match.pmn")
runner = CliRunner()


def mancala(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mancala_cli", *args], capture_output=True, text=True,
                          timeout=120, **kwargs)


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> pathlib.Path:
    """About 3,000 random games: many batches."""
    path = tmp_path_factory.mktemp("process") / "archive.pmn"
    with path.open("w", encoding="utf-8") as out:
        subprocess.run([sys.executable, "-m", "mancala_cli", "random", "--game", "kingulu", "-n", "3000",
                        "--seed", "11"], stdout=out, check=True, timeout=300)
    return path


# -- --jobs -----------------------------------------------------------------------

class _Pool:
    """Stands in for the worker pool and records how many workers were asked for."""

    made: list[int] = []

    def __init__(self, max_workers: int, initializer=None) -> None:
        self.made.append(max_workers)

    def submit(self, fn, *args):
        from concurrent.futures import Future
        future: Future = Future()
        future.set_result(fn(*args))
        return future

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        pass


def _batches(count: int):
    lines = ['[Game "kingulu"]\n', '[Result "*"]\n', "\n", "1. c1x6 *\n", "\n"]
    return [Batch("pmn", "x.pmn", 1 + 5 * k, lines, []) for k in range(count)]


@pytest.mark.parametrize("jobs,batches,workers", [
    (64, 1, None),      # one batch: no worker process at all
    (64, 3, 2),         # capped at the usable cores (2 here, or fewer)
    (2, 40, 2),
    (3, 2, 2),          # capped at the number of batches
])
def test_workers_are_capped_at_cores_and_batches(monkeypatch, jobs, batches, workers):
    monkeypatch.setattr(pipeline, "process_pool", lambda workers: _Pool(max_workers=workers))
    monkeypatch.setattr(pipeline, "usable_cores", lambda: 2)
    _Pool.made = []
    options = pipeline.Options("validate")
    results = list(pipeline.run(options, _batches(batches), jobs))
    assert len(results) == batches
    assert _Pool.made == ([] if workers is None else [workers])


def test_far_too_many_jobs_is_a_warning_and_the_output_is_unchanged(archive):
    one = mancala("validate", "--jobs", "1", str(archive))
    many = mancala("validate", "--jobs", "99999999999999999999", str(archive))
    cores = pipeline.usable_cores()
    assert many.returncode == one.returncode == 0
    assert many.stdout == one.stdout
    assert many.stderr == (f"mancala: warning: --jobs 99999999999999999999 is more than 4 × the {cores} "
                           f"usable core{'s' if cores != 1 else ''}; using {cores}\n")


def test_all_cores_by_default_give_the_output_of_one_job(archive):
    one = mancala("validate", "--jobs", "1", str(archive))
    default = mancala("validate", str(archive))
    auto = mancala("validate", "--jobs", "auto", str(archive))
    assert default.returncode == one.returncode == 0
    assert default.stdout == auto.stdout == one.stdout and default.stderr == ""
    one = mancala("convert", "--to", "json", "--positions", "--jobs", "1", str(archive))
    default = mancala("convert", "--to", "json", "--positions", str(archive))
    assert default.stdout == one.stdout and default.returncode == 0


def test_auto_is_the_usable_cores_and_a_small_input_starts_no_worker(monkeypatch, tmp_path):
    from typer.testing import CliRunner

    from mancala_cli.cli import reading
    from mancala_cli.cli.reading import workers_for

    asked = []
    monkeypatch.setattr(pipeline, "usable_cores", lambda: 2)
    monkeypatch.setattr(reading, "usable_cores", lambda: 3)  # (not this machine's cores: the value is the one read)
    monkeypatch.setattr(pipeline, "process_pool", lambda workers: asked.append(workers) or _Pool(workers))
    small = tmp_path / "small.pmn"
    small.write_text('[Game "kingulu"]\n[Result "*"]\n\n1. c1x6 *\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(small)])
    assert (result.exit_code, asked) == (0, [])  # one batch: checked in this process
    assert workers_for(0) == 3
    assert CliRunner().invoke(app, ["validate", "--jobs", "many", str(small)]).output == (
        "mancala: error: --jobs must be a whole number or auto (got 'many')\n")


# -- broken pipes and signals ------------------------------------------------------

def _left_behind(marker: str) -> list[str]:
    """Processes still running whose command line names ``marker``."""
    found = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True)
    return found.stdout.split()


@pytest.mark.skipif(not pathlib.Path("/usr/bin/pgrep").exists(), reason="needs pgrep")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_closed_pipe_exits_141_quietly_and_leaves_no_worker(archive, jobs, tmp_path):
    source = tmp_path / f"pipe-{jobs}.pmn"
    source.write_bytes(archive.read_bytes())
    child = subprocess.Popen([sys.executable, "-m", "mancala_cli", "convert", "--to", "json", "--jobs", jobs,
                              str(source)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout.read(10) == b'{"game": "'
    child.stdout.close()
    err = child.stderr.read().decode()
    assert child.wait(timeout=60) == 141
    assert err == ""
    deadline = time.monotonic() + 10
    while _left_behind(str(source)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _left_behind(str(source)) == []


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_signals_exit_128_plus_their_number(archive, tmp_path, signum):
    big = tmp_path / "big.pmn"
    big.write_text("\n".join([archive.read_text(encoding="utf-8")] * 10), encoding="utf-8")
    target = tmp_path / "out.xml"
    target.write_text("old\n", encoding="utf-8")
    child = subprocess.Popen([sys.executable, "-m", "mancala_cli", "convert", "--to", "xml", "--positions",
                              "--jobs", "2", "-o", str(target), str(big)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_writing(child, tmp_path)
    child.send_signal(signum)
    _, err = child.communicate(timeout=60)
    assert child.returncode == 128 + signum
    assert "Traceback" not in err
    assert target.read_text(encoding="utf-8") == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.pmn", "out.xml"]


# -- standard streams --------------------------------------------------------------

def test_closed_standard_output_is_one_line_exit_2():
    done = subprocess.run([sys.executable, "-m", "mancala_cli", "validate", VILLAGE], stdout=subprocess.DEVNULL,
                          capture_output=False, stderr=subprocess.PIPE, text=True, timeout=60,
                          preexec_fn=lambda: os.close(1))
    assert (done.returncode, done.stderr) == (2, "mancala: error: standard output is closed\n")


def test_closed_standard_input_is_one_line_exit_2():
    done = subprocess.run([sys.executable, "-m", "mancala_cli", "validate", "-"], capture_output=True,
                          text=True, timeout=60, preexec_fn=lambda: os.close(0))
    assert (done.returncode, done.stderr) == (2, "mancala: error: standard input is closed\n")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_full_standard_output_is_one_line_exit_2():
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "mancala_cli", "validate", VILLAGE], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == "mancala: error: standard output: cannot write: No space left on device\n"


# -- usage errors -------------------------------------------------------------------

@pytest.mark.parametrize("args,message", [
    (["perft", "--game", "kingulu", "--depth", "-1"], "--depth must be ≥ 0 (got -1)"),
    (["perft", "--game", "kingulu", "--depth", "abc"], "--depth must be a whole number (got 'abc')"),
    (["perft", "--game", "kingulu", "--depth", "99999999999999999999"],
     "--depth must be ≤ 30 (got 99999999999999999999)"),
    (["random", "--game", "kingulu", "-n", "99999999999999999999"],
     "-n must be ≤ 10,000,000 (got 99999999999999999999)"),
    (["random", "--game", "kingulu", "--max-plies", "0"], "--max-plies must be ≥ 1 (got 0)"),
    (["convert", "--to", "yaml", VILLAGE], "--to must be one of pmn, json, xml (got 'yaml')"),
    (["convert", "--to", "json", "--coords", "hex", VILLAGE],
     "--coords must be one of algebraic, numeric, relative (got 'hex')"),
    (["validate", "--format", "yaml", VILLAGE], "--format must be one of text, json (got 'yaml')"),
    (["validate", "--jobs", "0", VILLAGE], "--jobs must be ≥ 1 (got 0)"),
    (["validate", "--scheduler-timeout", "3", VILLAGE], "--scheduler-timeout needs --scheduler"),
    (["stats", "--jobs", "1", "--scheduler-timeout", "3", VILLAGE], "--scheduler-timeout needs --scheduler"),
    (["games", "--format", "xml"], "--format must be one of text, json (got 'xml')"),
    (["render", VILLAGE, "--format", "gif"], "--format must be one of svg, text, png, html (got 'gif')"),
    (["render", VILLAGE, "--index", "0"], "--index must be ≥ 1 (got 0)"),
    (["validate", "--bogus"], "No such option: --bogus (Possible options: --jobs)"),
    (["validate", "--jobs"], "Option '--jobs' requires an argument."),
    (["nosuch"], "No such command 'nosuch'."),
])
def test_usage_errors_are_one_line(args, message):
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"mancala: error: {message}\n"


@pytest.mark.parametrize("args,message", [
    (["render", VILLAGE, "--out-dir", "d"], "--out-dir needs --all or --positions"),
    (["render", VILLAGE, "--all", "--out-dir", "d", "--ply", "3"],
     "--all draws every ply: give --all or --ply, not both"),
    (["render", VILLAGE, "--all", "--out-dir", "d", "-o", "x.svg"],
     "--all writes into --out-dir: give --all or -o, not both"),
    (["render", VILLAGE, "--position", "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1", "--game", "kingulu"],
     "give a record FILE or --position, not both"),
    (["render", VILLAGE, "--format", "text", "--style", "my.css"],
     "--style styles SVG diagrams: it does not go with --format text"),
])
def test_options_that_do_not_go_together_are_usage_errors(args, message, tmp_path):
    result = runner.invoke(app, args)
    assert (result.exit_code, result.stderr) == (2, f"mancala: error: {message}\n")
    assert result.stdout == ""


START = "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1"


@pytest.mark.parametrize("args,message", [
    (["--index", "2"], "--index picks a game of a record, not of --position"),
    (["--index", "1"], "--index picks a game of a record, not of --position"),
    (["--encoding", "latin-1"], "--encoding is for records: --position is read as given"),
    (["--encoding", "utf-8"], "--encoding is for records: --position is read as given"),
    (["--force"], "--force writes over the input file: --position has none"),
    (["--force", "-o", "x.svg"], "--force writes over the input file: --position has none"),
])
def test_the_options_of_a_record_are_refused_with_a_position(args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["render", "--position", START, "--game", "kingulu", *args])
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"mancala: error: {message}\n")
    assert list(tmp_path.iterdir()) == []


def test_a_record_file_with_a_position_is_reported_before_the_missing_game():
    result = runner.invoke(app, ["render", VILLAGE, "--position", START])
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", "mancala: error: give a record FILE or --position, not both\n")


@pytest.mark.parametrize("name", ["x.pdf", "board.SVGZ", "out.jpeg"])
def test_an_output_name_of_no_format_render_writes_is_refused(name, tmp_path):
    out = tmp_path / name
    result = runner.invoke(app, ["render", VILLAGE, "-o", str(out)])
    extension = os.path.splitext(name)[1]
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", f"mancala: error: -o {out}: render writes .svg, .txt, .png or .html files, not {extension} "
               "(give --format to write one under this name)\n")
    assert not out.exists()


def test_an_output_name_with_a_format_or_without_an_extension_is_written(tmp_path):
    svg = runner.invoke(app, ["render", VILLAGE]).stdout
    for name, args in (("x.pdf", ["--format", "svg"]), ("board", []), ("board.SVG", [])):
        result = runner.invoke(app, ["render", VILLAGE, "-o", str(tmp_path / name), *args])
        assert (result.exit_code, result.stderr) == (0, "")
        assert (tmp_path / name).read_text(encoding="utf-8") == svg


@pytest.mark.parametrize("args,extra,quoted", [
    (["render", "--position", "0,1,0,3,1,6*/0,11,1,1,3,3", "S", "7-11", "4", "--game", "kingulu"],
     "7-11 4", "'0,1,0,3,1,6*/0,11,1,1,3,3 S 7-11 4'"),
    (["moves", "--game", "kingulu", "-p", "4,4,4,4,4,4/4,4,4,4,4,4", "S", "0-0", "1"],
     "S 0-0 1", "'4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1'"),
    (["perft", "--game", "kingulu", "--depth", "1", "--position=4,4,4,4,4,4/4,4,4,4,4,4", "S", "0-0", "1"],
     "S 0-0 1", "'4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1'"),
])
def test_an_unquoted_position_string_is_told_to_be_quoted(args, extra, quoted):
    result = runner.invoke(app, args)
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", f"mancala: error: Got unexpected extra argument(s) ({extra}); "
               f"a position string with spaces must be quoted: --position {quoted}\n")


def test_extra_arguments_without_a_position_get_no_hint():
    result = runner.invoke(app, ["games", "x", "y"])
    assert (result.exit_code, result.stderr) == (2, "mancala: error: Got unexpected extra argument(s) (x y)\n")


def test_help_shows_choices_and_h_is_help():
    long = runner.invoke(app, ["render", "--help"])
    short = runner.invoke(app, ["render", "-h"])
    assert long.exit_code == short.exit_code == 0
    assert long.stdout == short.stdout
    assert "--format [svg|text|png|html]" in long.stdout
    assert "<" not in long.stdout  # no <str>, <int range> or <list[str]>
    convert = runner.invoke(app, ["convert", "-h"]).stdout
    assert "--to [pmn|json|xml]" in convert and "--coords [algebraic|numeric|relative]" in convert
    top = runner.invoke(app, ["-h"]).stdout
    assert "--install-completion" in top and "--show-completion" in top


def test_shell_completion_script():
    done = mancala("--show-completion", "bash", env={**os.environ, "SHELL": "/bin/bash"})
    assert done.returncode == 0
    assert "complete" in done.stdout and "mancala" in done.stdout


# -- wording -------------------------------------------------------------------------

def test_summary_counts_in_the_singular_and_plural():
    one = runner.invoke(app, ["validate", VILLAGE])
    assert one.stdout.splitlines()[-1] == "1 game, 23 moves, 0 errors, 0 warnings"


def test_empty_input_is_no_games_and_one_error():
    result = runner.invoke(app, ["validate", "-"], input=b"")
    assert result.exit_code == 1
    assert result.stdout == ("<stdin>:1:1: error: no-games: no game in the input\n"
                             "0 games, 0 moves, 1 error, 0 warnings\n")


# -- diagrams of a finished game -------------------------------------------------------

def test_a_finished_game_is_drawn_with_its_result():
    result = runner.invoke(app, ["render", VILLAGE, "--format", "text"])
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "Bao Kingulu — move 12, South wins 35–13 (KG-7)",
        "   North  store 13",
        "     a    b    c    d    e    f",
        " 2   0    0    0    8*   0   12*  2",
        " 1  [0]  (0)   0    0    0    3   1",
        "     a    b    c    d    e    f",
        "   South  store 12",
        "reserved: d2 by South, f2 by South",
        "last move: a1 → b1",
        "game over: 1-0 (KG-7: N to move has no legal move; score 35-13)",
    ]
    svg = runner.invoke(app, ["render", VILLAGE]).stdout
    assert "<title>Bao Kingulu — position after 12. a1x1, South wins 35–13 (KG-7)</title>" in svg
    assert 'id="to-move"' not in svg
    assert '<g id="result" class="result">' in svg and ">South wins 35–13 (KG-7)</text>" in svg
    # The position before the last move is not over: North... South is to move.
    before = runner.invoke(app, ["render", VILLAGE, "--format", "text", "--ply", "22"]).stdout
    assert before.splitlines()[0] == "Bao Kingulu — move 12, South to move"
    assert "<- to move" in before and "game over" not in before


def test_standard_input_has_one_name_in_every_command():
    damaged = b'[Game "kingulu"]\n\n1. c1x5 *\n'
    shown = "<stdin>:3:4: error: 1. c1x5: bad-mark: c1x5: the move takes 6 (c1x6)"
    assert runner.invoke(app, ["validate", "-"], input=damaged).stdout.splitlines()[0] == shown
    assert runner.invoke(app, ["convert", "--to", "json", "-"], input=damaged).stderr.splitlines()[0] == shown
    rendered = runner.invoke(app, ["render", "-f", "text", "-"], input=damaged)
    assert rendered.exit_code == 1 and rendered.stderr.splitlines()[0] == shown
    missing = runner.invoke(app, ["render", "--index", "2", "-"], input=damaged)
    assert missing.stderr == "mancala: error: <stdin>: has no game number 2 (it has 1 game)\n"


def test_a_ply_past_a_one_move_record_is_counted_in_the_singular(tmp_path):
    record = tmp_path / "one.pmn"
    record.write_text('[Game "kingulu"]\n\n1. d1x6 *\n', encoding="utf-8")
    for args in (["--ply", "3"], ["--sheet", "--plies", "0,3"]):
        result = runner.invoke(app, ["render", str(record), *args])
        assert (result.exit_code, result.stdout, result.stderr) == (
            2, "", "mancala: error: the record has 1 playable move, no ply 3\n")
