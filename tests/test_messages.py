"""What the command line says: missing options, bad numbers and holes,
help, shell completion, unreadable inputs, and the progress bar's --quiet."""
import os
import pathlib
import re
import subprocess
import sys

import pytest
import typer.main
from typer.testing import CliRunner

from mancala_cli import get_game
from mancala_cli.cli.commands import whole
from mancala_cli.rules.registry import GAME_IDS
from notation.coords import format_hole

from .conftest import on_terminal

app = whole()

ROOT = pathlib.Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
TOURNAMENT = EXAMPLES / "kingulu-tournament.pmn"
runner = CliRunner()


def run(*args, input=None, env=None):
    return runner.invoke(app, [str(a) for a in args], input=input, env=env)


def commands():
    """Every command of the app, as click runs it: (name, click command)."""
    group = typer.main.get_command(app)
    return sorted(group.commands.items())


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    """200 random kingulu games."""
    path = tmp_path_factory.mktemp("messages") / "k.pmn"
    result = run("random", "--game", "kingulu", "-n", "200", "--seed", "3")
    path.write_text(result.stdout, encoding="utf-8")
    return path


# -- missing required options ---------------------------------------------------------

#: A good value of every required option (a new one must be added here).
GOOD = {"--game": "kingulu", "--to": "pmn", "--depth": "1", "--games": "5", "--out-dir": "parts"}


def _long(param) -> str:
    return next(name for name in param.opts if name.startswith("--"))


REQUIRED = [(name, _long(param)) for name, command in commands() for param in command.params
            if param.required and param.param_type_name == "option"]


def test_the_required_options_are_found():
    assert set(REQUIRED) >= {("moves", "--game"), ("perft", "--depth"), ("perft", "--game"),
                             ("random", "--game"), ("solve", "--game"), ("split", "--games"), ("split", "--out-dir")}


def _choices(param) -> list[str]:
    """The values an option takes, as its help shows them: GAME, or [a|b|c]."""
    if param.metavar == "GAME":
        return list(GAME_IDS)
    if param.metavar and param.metavar.startswith("["):
        return param.metavar[1:-1].split("|")
    return []


@pytest.mark.parametrize("command,missing", REQUIRED, ids=[f"{c} {o}" for c, o in REQUIRED])
def test_a_missing_required_option_is_named_with_its_choices(command, missing, tmp_path):
    group = typer.main.get_command(app)
    args = [command]
    for param in group.commands[command].params:
        if param.required and param.param_type_name == "option" and _long(param) != missing:
            args += [_long(param), GOOD[_long(param)]]
        if param.param_type_name == "argument":
            args.append(str(TOURNAMENT))
    result = run(*args)
    values = next(_choices(param) for param in group.commands[command].params
                  if param.param_type_name == "option" and _long(param) == missing)
    listed = f" ({', '.join(values[:-1])} or {values[-1]})" if values else ""
    expected = f"mancala: error: missing option {missing}{listed}\n"
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", expected)


def test_missing_options_as_told(archive):
    assert run("convert", archive).stderr == "mancala: error: missing option --to (pmn, json or xml)\n"
    assert run("moves").stderr == ("mancala: error: missing option --game "
                                   "(kimasai-mackay, kimasai-klamroth or kingulu)\n")
    assert run("perft", "--game", "kingulu").stderr == "mancala: error: missing option --depth\n"
    assert run("split", archive, "--games", "5").stderr == "mancala: error: missing option --out-dir\n"


# -- numbers: ASCII digits, ranges said ---------------------------------------------------

@pytest.mark.parametrize("args,message", [
    (["validate", "--jobs", "٢", TOURNAMENT], "--jobs must be a whole number or auto (got '٢')"),
    (["validate", "--jobs", "²", TOURNAMENT], "--jobs must be a whole number or auto (got '²')"),
    (["validate", "--jobs", "+-2", TOURNAMENT], "--jobs must be a whole number or auto (got '+-2')"),
    (["perft", "--game", "kingulu", "--depth", "٣"], "--depth must be a whole number (got '٣')"),
    (["stats", "--depth", "1_0", TOURNAMENT], "--depth must be a whole number (got '1_0')"),
    (["random", "--game", "kingulu", "-n", "１"], "-n must be a whole number (got '１')"),
    (["render", TOURNAMENT, "--sheet", "--plies", "١,2"],
     "--plies must be ply numbers with a comma between, like 0,10,20 (got '١,2')"),
    (["solve", "--game", "kingulu", "--time", "١"], "--time must be a number of seconds > 0 (got '١')"),
    (["solve", "--game", "kingulu", "--time", "1_0"], "--time must be a number of seconds > 0 (got '1_0')"),
    (["validate", "--scheduler", "tcp://127.0.0.1:9", "--scheduler-timeout", "١", TOURNAMENT],
     "--scheduler-timeout must be a number of seconds (got '١')"),
    (["random", "--game", "kingulu", "--seed", "1" + "0" * 99],
     "--seed must be a whole number from -2^128 to 2^128 (got a number of 100 digits)"),
    (["random", "--game", "kingulu", "--seed", str(2**128 + 1)], f"--seed must be ≤ 2^128 (got {2**128 + 1})"),
    (["perft", "--game", "kingulu", "--depth", "9" * 50],
     "--depth must be a whole number from 0 to 30 (got a number of 50 digits)"),
    (["solve", "--game", "kingulu", "--nodes", "9" * 50],
     "--nodes must be a whole number ≥ 1 (got a number of 50 digits)"),
])
def test_numbers_are_ascii_digits_and_a_range_is_said(args, message):
    result = run(*args)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"mancala: error: {message}\n")


def test_ascii_numbers_still_work():
    assert run("perft", "--game", "kingulu", "--depth", "+2").stdout.splitlines()[-1] == "15"
    assert run("solve", "--game", "kingulu", "--position", "0,0,0,0,3,2/1,0,0,0,0,2 S 20-20 12",
               "--time", "2.5").exit_code == 0
    assert run("random", "--game", "kingulu", "--seed", str(-(2**128))).exit_code == 0


# -- filter ------------------------------------------------------------------------------------

@pytest.mark.parametrize("args,message", [
    (["--game", "kingulu", "--opening", "z9"], "--opening: 'z9' is not a hole of kingulu's 2 × 6 board"),
    (["--opening", "z9"], "--opening: 'z9' is not a hole of any game's board"),
    (["--game", "kingulu", "--opening", "d1 h2"], "--opening: 'h2' is not a hole of kingulu's 2 × 6 board"),
    (["--game", "kingulu", "--opening", "S3 N7"], "--opening: 'N7' is not a hole of kingulu's 2 × 6 board"),
    (["--game", "kingulu", "--opening", "13"], "--opening: '13' is not a hole of kingulu's 2 × 6 board"),
    (["--opening", "١.d1"], "--opening: '١.d1' is not a move token (a hole, then xN or ^ if any)"),
])
def test_an_opening_hole_that_does_not_exist_is_a_usage_error(archive, args, message):
    result = run("filter", archive, *args, "--count")
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"mancala: error: {message}\n")


def test_opening_holes_of_any_style_and_game_are_taken(archive):
    algebraic = run("filter", archive, "--game", "kingulu", "--opening", "d1 d2", "--count")
    assert algebraic.exit_code == 0 and int(algebraic.stdout) > 0
    board = get_game("kingulu").board
    d1, d2 = board.index_of("d1"), board.index_of("d2")
    relative = f"{format_hole(board, d1, 'relative', 'S')} {format_hole(board, d2, 'relative', 'N')}"
    numeric = f"{d1 + 1} {d2 + 1}"
    for other in (relative, numeric):
        assert run("filter", archive, "--game", "kingulu", "--opening", other, "--count").stdout == algebraic.stdout
    assert run("filter", archive, "--opening", "1.d1 d2", "--count").stdout == algebraic.stdout
    assert run("filter", archive, "--opening", "h2", "--count").stdout == "0\n"  # (a Klamroth hole)


@pytest.mark.parametrize("args,message", [
    (["--dedupe", "--duplicates", "-"],
     "--duplicates - and the games written would both go to standard output: give --duplicates FILE or -o FILE"),
    (["--dedupe", "--duplicates", "-", "-o", "-"],
     "--duplicates - and the games written would both go to standard output: give --duplicates FILE or -o FILE"),
    (["--dedupe", "--duplicates", "-", "--count"],
     "--duplicates - and the count would both go to standard output: give --duplicates FILE"),
])
def test_duplicates_and_games_never_share_standard_output(archive, args, message):
    result = run("filter", archive, *args)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"mancala: error: {message}\n")


def test_duplicates_to_standard_output_with_games_to_a_file(archive, tmp_path):
    result = run("filter", archive, "--dedupe", "--duplicates", "-", "-o", tmp_path / "kept.pmn")
    assert result.exit_code == 0
    kept = run("filter", archive, "--dedupe").stdout
    assert (tmp_path / "kept.pmn").read_text(encoding="utf-8") == kept
    assert result.stdout.count("[Game ") == 200 - kept.count("[Game ") > 0


# -- render ------------------------------------------------------------------------------------

def test_render_index_past_the_end_says_how_many_games(tmp_path):
    for extra in ([], ["--format", "html"]):
        result = run("render", TOURNAMENT, "--index", "9", *extra)
        assert result.stderr == f"mancala: error: {TOURNAMENT}: has no game number 9 (it has 4 games)\n"
    one = run("render", "-", "--index", "2", input=TOURNAMENT.read_text(encoding="utf-8").split("\n\n[")[0])
    assert one.stderr == "mancala: error: <stdin>: has no game number 2 (it has 1 game)\n"
    empty = run("render", "-", "--index", "2", input="")
    assert empty.stderr == "mancala: error: <stdin>: has no game number 2 (it has 0 games)\n"


def test_render_out_dir_names_both_options_that_take_it():
    result = run("render", TOURNAMENT, "--out-dir", "d3")
    assert result.stderr == "mancala: error: --out-dir needs --all or --positions\n"


# -- unreadable inputs: validate and convert alike ---------------------------------------------

def test_validate_and_convert_report_a_missing_file_and_go_on(tmp_path):
    missing = tmp_path / "nosuch.pmn"
    line = f"mancala: error: {missing}: cannot open: No such file or directory\n"
    alone = run("validate", TOURNAMENT)
    validated = run("validate", missing, TOURNAMENT)
    counted = alone.stdout.replace(" 0 errors,", " 1 error,")  # (the file that could not be read)
    assert (validated.exit_code, validated.stdout, validated.stderr) == (2, counted, line)
    for target in ("pmn", "json", "xml"):
        alone = run("convert", TOURNAMENT, "--to", target)
        converted = run("convert", missing, TOURNAMENT, "--to", target)
        assert (converted.exit_code, converted.stdout, converted.stderr) == (2, alone.stdout, line)
        after = run("convert", TOURNAMENT, missing, "--to", target)
        assert (after.exit_code, after.stdout, after.stderr) == (2, alone.stdout, line)


def test_convert_with_an_unreadable_input_leaves_the_output_file_as_it_was(tmp_path):
    missing = tmp_path / "nosuch.pmn"
    target = tmp_path / "out.jsonl"
    target.write_text("old\n", encoding="utf-8")
    result = run("convert", missing, TOURNAMENT, "--to", "json", "-o", target)
    assert result.exit_code == 2
    assert result.stderr == (f"mancala: error: {missing}: cannot open: No such file or directory\n"
                             f"mancala: error: {target}: not written, as an input could not be read\n")
    assert target.read_text(encoding="utf-8") == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl"]


def test_convert_goes_on_after_a_broken_xml_document(tmp_path):
    whole = run("convert", TOURNAMENT, "--to", "xml").stdout_bytes
    broken = tmp_path / "broken.xml"
    broken.write_bytes(whole[:whole.index(b"<game ", 200)] + b"<game><tags")
    result = run("convert", broken, TOURNAMENT, "--to", "pmn")
    assert result.exit_code == 1
    assert result.stdout == run("convert", broken, "--to", "pmn").stdout + "\n" + TOURNAMENT.read_text(encoding="utf-8")
    assert result.stderr.count("mancala: error: ") == 1 and "not well-formed XML" in result.stderr


# -- --quiet and the progress bar -----------------------------------------------------------

@pytest.mark.parametrize("args", [["filter", "--count"], ["split", "--games", "50", "--out-dir", "{tmp}"],
                                  ["stats"]])
def test_filter_split_and_stats_show_a_progress_bar_that_quiet_hides(archive, args, tmp_path):
    command = [sys.executable, "-m", "mancala_cli", *(a.format(tmp=tmp_path / "parts") for a in args),
               "--jobs", "1", str(archive)]
    env = {**os.environ, "COLUMNS": "80"}
    out, seen = on_terminal(command, env=env)
    assert b"k.pmn" in seen and b"%" in seen
    quiet_out, quiet_seen = on_terminal(command + ["--quiet"], env=env)
    assert quiet_seen == b"" and quiet_out == out
    piped = subprocess.run(command, capture_output=True, env=env)
    assert piped.stderr == b"" and piped.stdout == out


def _frames(seen: bytes) -> list[str]:
    """What a terminal was shown, escape sequences left out, one entry a line drawn."""
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", seen.decode("utf-8", "replace"))
    return [line.strip() for line in re.split(r"[\r\n]+", text) if line.strip()]


@pytest.mark.parametrize("command", ["validate", "stats"])
def test_the_progress_bar_follows_xml_inputs_too(archive, tmp_path, command):
    xml = tmp_path / "b.xml"
    assert run("convert", archive, "--to", "xml", "-o", xml).exit_code == 0
    env = {**os.environ, "COLUMNS": "80"}
    for files, bars in (([archive, xml], ["k.pmn", "b.xml"]), ([xml], ["b.xml"])):
        cli = [sys.executable, "-m", "mancala_cli", command, *map(str, files)]
        out, seen = on_terminal(cli, env=env)
        last = {line.split()[0]: line.split()[-2] for line in _frames(seen) if line.split()[0] in ("k.pmn", "b.xml")}
        assert last == {name: "100%" for name in bars}  # (each input its own bar, the XML one filled too)
        assert out == subprocess.run(cli, capture_output=True, env=env).stdout


# -- help ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("name,command", commands())
def test_usage_lines_show_each_argument_once(name, command):
    usage = run(name, "--help").stdout.splitlines()[0]
    assert "[[" not in usage and "]]" not in usage and "...]..." not in usage
    if name in ("validate", "convert", "filter", "split", "stats", "annotate"):
        assert usage.endswith(f" {name} [OPTIONS] [FILE]...")


@pytest.mark.parametrize("columns", ["80", "60"])
def test_command_summaries_are_short_complete_sentences(columns):
    text = run("--help", env={"COLUMNS": columns}).stdout
    listed = text.split("Commands:\n")[1].splitlines()
    summaries: dict[str, str] = {}
    for line in listed:
        name, _, rest = line.strip().partition(" ")
        if line.startswith("  ") and not line.startswith("   "):
            summaries[name] = rest.strip()
        else:  # a summary wrapped onto the next line
            summaries[list(summaries)[-1]] += " " + line.strip()
    assert sorted(summaries) == [name for name, _ in commands()]
    for name, command in commands():
        summary = summaries[name]
        assert summary == command.short_help, name
        assert summary.endswith(".") and not summary.endswith("...") and ". " not in summary, name
        assert len(summary) <= 60, name


# -- shell completion --------------------------------------------------------------------

def _completions(words: str) -> list[str]:
    env = {"_MANCALA_COMPLETE": "complete_bash", "COMP_WORDS": words,
           "COMP_CWORD": str(len(words.split(" ")) - 1)}
    result = runner.invoke(app, [], env=env, prog_name="mancala")
    return result.stdout.splitlines()


CHOICES = [(name, _long(param), _choices(param)) for name, command in commands() for param in command.params
           if param.param_type_name == "option" and _choices(param)]


def test_every_option_with_choices_is_found():
    options = {option for _, option, _ in CHOICES}
    assert options == {"--game", "--to", "--format", "--coords", "--result"}
    assert len(CHOICES) >= 20


@pytest.mark.parametrize("name,option,values", CHOICES, ids=[f"{n} {o}" for n, o, _ in CHOICES])
def test_option_values_complete(name, option, values):
    assert _completions(f"mancala {name} {option} ") == values
    first = values[-1][:2]
    assert _completions(f"mancala {name} {option} {first}") == [v for v in values if v.startswith(first)]


def test_completion_of_a_value_through_the_shell_script():
    env = {**os.environ, "_MANCALA_COMPLETE": "complete_bash", "COMP_WORDS": "mancala convert --to j",
           "COMP_CWORD": "3"}
    done = subprocess.run([sys.executable, "-m", "mancala_cli"], env=env, capture_output=True, text=True, timeout=60)
    assert done.stdout == "json\n"


# -- the test command says why tests were skipped ---------------------------------------------

def test_pytest_lists_skipped_tests_with_their_reasons(tmp_path):
    (tmp_path / "test_skipping.py").write_text(
        "import pytest\n\ndef test_needs_something():\n    pytest.skip('no Chromium found: a reason')\n")
    done = subprocess.run([sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "--rootdir",
                           str(tmp_path), "-p", "no:cacheprovider", str(tmp_path)],
                          capture_output=True, text=True, timeout=120)
    assert re.search(r"^SKIPPED \[1\] \S*test_skipping\.py:4: no Chromium found: a reason$", done.stdout, re.M), done.stdout
