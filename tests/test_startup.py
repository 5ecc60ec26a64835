"""Start-up: a command loads what it needs and nothing more (the figures are
in ``benchmarks/startup.py``; these tests check what makes them)."""
import os
import pathlib
import signal
import subprocess
import sys

import pytest

from mancala_cli import CORE
from mancala_cli.cli.streams import BROKEN_PIPE

KINGULU_START = "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1"
HEAVY = {"typer", "rich", "lxml", "pyparsing", "pydantic", "click"}


def loaded(*args, env=None):
    """The modules ``mancala ARGS`` imports (from ``python -X importtime``), and its exit status."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "mancala_cli", *args], capture_output=True,
                          text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)
    names = {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    names.discard("package")  # the header line
    return names, done.returncode


def top(names):
    return {name.split(".")[0] for name in names}


def test_importing_the_library_loads_no_heavy_dependency():
    done = subprocess.run([sys.executable, "-c", "import sys, mancala_cli; game = mancala_cli.get_game('kingulu'); "
                           "print(sorted({m.split('.')[0] for m in sys.modules})); "
                           "print(sorted(m for m in sys.modules if m.startswith('mancala_cli.rules.')))"],
                          capture_output=True, text=True, timeout=60)
    packages, rules = done.stdout.splitlines()
    assert set(eval(packages)) & HEAVY == set(), done.stderr
    # Only the game asked for is loaded, with the shared core.
    native = ["mancala_cli.rules._native", "mancala_cli.rules.native"] if CORE == "native" else []
    assert eval(rules) == sorted(["mancala_cli.rules.board", "mancala_cli.rules.game",
                                  "mancala_cli.rules.kingulu", "mancala_cli.rules.position",
                                  "mancala_cli.rules.registry", "mancala_cli.rules.selection", *native])


def test_version_loads_neither_the_command_line_nor_the_rules():
    """Nor typing: with what it loads (re, enum, collections...) it is 11 ms,
    more than ``python -c pass`` on a regular install (hence the few
    ``TYPE_CHECKING = False`` on this path)."""
    names, code = loaded("--version")
    assert code == 0
    assert top(names) & HEAVY == set()
    assert "typing" not in names
    # Nor signal, whose enums (6 ms with the enum module) it does without.
    assert "signal" not in names
    assert not any(name.startswith(("mancala_cli.rules.board", "mancala_cli.rules.position",
                                    "mancala_cli.rules.game", "mancala_cli.cli.commands", "notation"))
                   for name in names)


def test_version_says_which_core_and_pure_can_be_forced():
    fast = subprocess.run([sys.executable, "-m", "mancala_cli", "--version"], capture_output=True, text=True,
                          timeout=60)
    assert (fast.returncode, fast.stdout, fast.stderr) == (0, f"mancala 0.1.0 ({CORE} core)\n", "")
    # The same line from the command line proper (--version among other options).
    slow = subprocess.run([sys.executable, "-m", "mancala_cli", "--version", "games"], capture_output=True,
                          text=True, timeout=60)
    assert slow.stdout == fast.stdout
    pure = subprocess.run([sys.executable, "-m", "mancala_cli", "--version"], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "MANCALA_PURE": "1"})
    assert pure.stdout == "mancala 0.1.0 (pure core)\n"


def test_the_broken_pipes_status_is_128_and_sigpipe():
    assert BROKEN_PIPE == 128 + signal.SIGPIPE


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_version_on_a_full_disk_or_a_closed_pipe():
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "mancala_cli", "--version"], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (2, "mancala: error: standard output: cannot write: "
                                                 "No space left on device\n")
    reader, writer = os.pipe()
    os.close(reader)
    with os.fdopen(writer, "w") as closed:
        done = subprocess.run([sys.executable, "-m", "mancala_cli", "--version"], stdout=closed,
                              stderr=subprocess.PIPE, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (141, "")


def test_rendering_one_position_loads_one_game_and_no_reader():
    names, code = loaded("render", "--game", "kingulu", "--position", KINGULU_START)
    assert code == 0
    assert top(names) & HEAVY == {"typer"}  # the SVG is written with the standard library
    assert not any(name.startswith(("notation.xml", "mancala_cli.rules.kimasai")) for name in names)


def test_only_png_output_loads_the_rasteriser(tmp_path):
    names, code = loaded("render", "--game", "kingulu", "--position", KINGULU_START)
    assert code == 0
    assert "resvg_py" not in top(names)
    pytest.importorskip("resvg_py", reason="the png extra is not installed")
    names, code = loaded("render", "--game", "kingulu", "--position", KINGULU_START, "--format", "png",
                         "-o", str(tmp_path / "board.png"))
    assert code == 0
    assert "resvg_py" in names


def test_validating_a_pmn_file_loads_no_xml_no_pyparsing_and_no_pydantic(tmp_path):
    record = tmp_path / "one.pmn"
    game = subprocess.run([sys.executable, "-m", "mancala_cli", "random", "--game", "kingulu", "--seed", "1",
                           "--max-plies", "20"], capture_output=True, text=True, timeout=60, check=True)
    record.write_text(game.stdout, encoding="utf-8")
    names, code = loaded("validate", "--quiet", str(record))
    assert code == 0
    assert top(names) & HEAVY == {"typer"}
    assert "mancala_cli.rules.kimasai_mackay" not in names
    assert "notation.pmn_writer" not in names  # reading loads no writer
    # Dask loads only with --scheduler.
    assert {"distributed", "dask", "tornado", "asyncio"} & top(names) == set()


def test_names_made_when_first_asked_for_are_those_made_at_import_before():
    """Reading loads no PMN writer and no pyparsing: the grammar's pyparsing
    expressions are made from its compiled patterns when first asked for;
    and the patterns that coords and record leave to :mod:`re` (in a fresh
    process, so that nothing was asked for before)."""
    script = """if True:
        import re, sys
        import notation.grammar as grammar, notation.pmn_reader
        assert "notation.pmn_writer" not in sys.modules and "pyparsing" not in sys.modules
        assert grammar.TAG_PAIR_RE == re.compile(grammar.TAG_PAIR_PATTERN)
        assert grammar.PLAIN_MOVE_RE == re.compile(grammar.PLAIN_MOVE_PATTERN)
        assert grammar.expression("TAG_PAIR") is grammar.expression("TAG_PAIR")
        try:
            grammar.expression("TAG_PAIR_PATTERNS")
        except KeyError:
            pass
        else:
            raise AssertionError("TAG_PAIR_PATTERNS")
        # The expressions are made from the same compiled patterns.
        assert (grammar.expression("TAG_PAIR").re, grammar.expression("TOKEN").re) == (grammar.TAG_PAIR_RE,
                                                                                       grammar.TOKEN_RE)
        from notation.coords import parse_hole, parse_move_token
        from notation.record import bad_character, tag_problem
        from mancala_cli import get_game
        board = get_game("kingulu").board
        assert parse_hole(board, "12", "numeric") == 11 and parse_hole(board, "S3", "relative", "S") == 2
        for token, style, message in (("x", "numeric", "'x' is not a hole number of the 2 × 6 board (1-12)"),
                                      ("3", "relative", "'3' is not a relative coordinate (S1, N12 …)")):
            try:
                parse_hole(board, token, style, "S")
            except ValueError as error:
                assert str(error) == message, error
            else:
                raise AssertionError(token)
        assert parse_move_token("N3-N4x2^") == ("N3", "N4", 2, True)
        assert bad_character("a\x7fb") == "character U+007F is not allowed" and bad_character("ab") is None
        assert tag_problem("a-b", "") == "tag name 'a-b' is not letters, digits and _"
        print("ok")
        """
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (done.stdout, done.stderr) == ("ok\n", "")


def test_the_game_page_loads_no_xml_reader_and_one_game(tmp_path):
    """``render --format html`` loads the rules of its game only, and no XML
    reader."""
    record = pathlib.Path(__file__).resolve().parents[1] / "examples" / "kingulu-village-match.pmn"
    names, code = loaded("render", str(record), "--format", "html", "-o", str(tmp_path / "game.html"))
    assert code == 0 and "mancala_cli.diagrams.page" in names
    assert top(names) & HEAVY == {"typer"}  # the page's SVG too is written with the standard library
    assert not any(name.startswith(("notation.xml", "mancala_cli.rules.kimasai")) for name in names)


def test_typer_values_are_still_checked_without_pydantic():
    """The parsed values reach the commands as before: choices and numbers
    checked by our parsers, lists of files as lists."""
    from typer.testing import CliRunner

    from mancala_cli.cli.commands import whole

    app = whole()
    runner = CliRunner()
    assert runner.invoke(app, ["perft", "--game", "kingulu", "--depth", "x"]).output == (
        "mancala: error: --depth must be a whole number (got 'x')\n")
    assert runner.invoke(app, ["perft", "--game", "kingulu", "--depth", "2"]).output.splitlines()[-1] == "15"
    assert runner.invoke(app, ["games", "--format", "yaml"]).exit_code == 2


def test_a_command_runs_from_an_app_of_that_command_alone():
    """``mancala COMMAND …`` builds the click command of COMMAND only; its
    help, its usage errors and its output are those of the whole app."""
    from typer.testing import CliRunner

    from mancala_cli.cli.commands import app_for, whole

    app = whole()

    runner = CliRunner()
    names = [info.name or info.callback.__name__ for info in app.registered_commands]
    assert set(names) >= {"games", "moves", "perft", "solve", "random", "validate", "convert", "render", "filter",
                          "split", "stats"}
    for name in names:
        alone = app_for([name])
        assert alone is not app and len(alone.registered_commands) == 1
        for args in ([name, "--help"], [name, "--no-such-option"], [name, "--game"], [name, "-h", "extra"]):
            whole, one = runner.invoke(app, args), runner.invoke(alone, args)
            assert (one.exit_code, one.output) == (whole.exit_code, whole.output), args
    for args in (["render", "--game", "kingulu", "--position", KINGULU_START],
                 ["moves", "--game", "kimasai-klamroth", "--coords", "numeric"],
                 ["perft", "--game", "kingulu", "--depth", "x"]):
        whole, one = runner.invoke(app, args), runner.invoke(app_for(args), args)
        assert (one.exit_code, one.output) == (whole.exit_code, whole.output) and whole.output, args
    for args in (["tablebase"], ["tablebase", "--help"], ["tablebase", "build", "-h"], ["tablebase", "bild"],
                 ["tablebase", "build", "--stones", "x", "-o", "t.tb"]):
        alone = app_for(args)
        assert alone is not app and not alone.registered_commands and len(alone.registered_groups) == 1
        whole, one = runner.invoke(app, args), runner.invoke(alone, args)
        assert (one.exit_code, one.output) == (whole.exit_code, whole.output) and whole.output, args
    # No command first: the whole app (top-level help, a misspelt name, options).
    for args in ([], ["--help"], ["rende"], ["--version"], ["--install-completion"]):
        assert app_for(args) is app
    misspelt = runner.invoke(app, ["rende"])
    assert misspelt.exit_code == 2 and "rende" in misspelt.output


def test_the_console_script_runs_one_command_as_the_whole_app_would():
    """Through the real console script, against the same script made to run
    the whole app: a command's help, a usage error and an output."""
    whole_app = ("import sys; from mancala_cli.cli import commands; "
                 "commands.app_for = lambda args: commands.whole(); sys.argv[0] = 'mancala'; commands.main()")
    for args in (["render", "--help"], ["validate", "--bogus"], ["moves", "--game", "kingulu"],
                 ["tablebase", "--help"], ["tablebase", "build", "--help"], ["tablebase", "build", "--stones", "x"]):
        one = subprocess.run([sys.executable, "-m", "mancala_cli", *args], capture_output=True, text=True,
                             timeout=60, stdin=subprocess.DEVNULL)
        whole = subprocess.run([sys.executable, "-c", whole_app, *args], capture_output=True, text=True,
                               timeout=60, stdin=subprocess.DEVNULL)
        assert one.stdout + one.stderr
        assert (one.returncode, one.stdout, one.stderr) == (whole.returncode, whole.stdout, whole.stderr), args


def _modules_after(*args):
    """Every module loaded by the end of ``mancala ARGS`` (``-X importtime``
    misses those imported through :func:`importlib.import_module`, as the
    commands' modules are), and its exit status."""
    script = ("import atexit, sys\n"
              "atexit.register(lambda: sys.__stderr__.write('\\nmodules: ' + ' '.join(sorted(sys.modules)) + '\\n'))\n"
              "from mancala_cli.cli import main\n"
              "sys.argv = ['mancala', *sys.argv[1:]]\n"
              "main()\n")
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    listed = [line for line in done.stderr.splitlines() if line.startswith("modules: ")]
    assert len(listed) == 1, done.stderr
    return set(listed[0].split()[1:]), done.returncode


def test_a_command_loads_its_own_module_and_no_other_command(tmp_path):
    """Each command is a module of its own, imported only when the command
    is named (the one laziness of the command line: below a command's
    module, imports are at the top of modules); the tablebase group loads
    only when used."""
    commands = {"games", "moves", "perft", "solve", "random_games", "validate", "convert", "annotate", "render",
                "filter", "split", "stats", "tablebase", "lsp"}
    record = tmp_path / "one.pmn"
    record.write_text('[Game "kingulu"]\n[Result "*"]\n\n1. c1x6 d2 2. a1 *\n', encoding="utf-8")
    for args, own in ((["validate", "--quiet", str(record)], {"validate"}),
                      (["render", "--game", "kingulu", "--position", KINGULU_START], {"render"}),
                      (["render", str(record)], {"render"}),
                      (["moves", "--game", "kingulu"], {"moves"}),
                      (["tablebase", "--help"], {"tablebase"})):
        names, code = _modules_after(*args)
        assert code == 0, args
        assert {name for name in names if name.removeprefix("mancala_cli.cli.") in commands} == {
            f"mancala_cli.cli.{module}" for module in own}, args
        assert {"distributed", "asyncio", "pygls", "lxml"} & top(names) == set(), args
        assert ("mancala_cli.solving.endgame" in names) == (args[0] == "tablebase"), args
        assert ("mancala_cli.rendering.records" in names) == (args == ["render", str(record)]), args


#: A run of the command line where pygls and lsprotocol cannot be imported.
WITHOUT_PYGLS = """if True:
    import sys

    class Missing:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("pygls", "lsprotocol"):
                raise ImportError(f"No module named {name!r}")
            return None

    sys.meta_path.insert(0, Missing())
    from mancala_cli.cli import main
    sys.argv = ["mancala", *sys.argv[1:]]
    main()
    """


def test_the_language_server_alone_loads_pygls():
    """Only ``mancala lsp`` itself imports pygls: not the other commands,
    nor ``mancala lsp --help``; without pygls, ``mancala --help`` works and
    ``mancala lsp`` says what to install, in one line, with status 2."""
    names, code = _modules_after("validate", "--quiet", str(pathlib.Path(__file__).resolve().parents[1] / "examples"
                                                            / "kingulu-village-match.pmn"))
    assert code == 0 and not {name.split(".")[0] for name in names} & {"pygls", "lsprotocol"}
    assert not any(name.startswith("mancala_cli.lsp") for name in names)
    names, code = _modules_after("lsp", "--help")
    assert code == 0 and not {name.split(".")[0] for name in names} & {"pygls", "lsprotocol"}
    done = subprocess.run([sys.executable, "-c", WITHOUT_PYGLS, "--help"], capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 0 and "lsp" in done.stdout
    done = subprocess.run([sys.executable, "-c", WITHOUT_PYGLS, "lsp"], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", "mancala: error: the language server needs pygls: pip install 'mancala[lsp]'\n")


#: ``mancala ARGS`` run in a process that reports, from an exit handler, how
#: many objects are frozen (left out of the collector's scans) and whether
#: the collector runs, once the command is done.
AT_EXIT = """if True:
    import atexit, gc, sys
    atexit.register(lambda: sys.__stderr__.write(f"frozen {gc.get_freeze_count()} enabled {gc.isenabled()}\\n"))
    from mancala_cli.cli import main
    sys.argv = ["mancala", *sys.argv[1:]]
    main()
    """


@pytest.mark.parametrize("args, code, out, err", [
    (["render", "--game", "kingulu", "--position", KINGULU_START], 0, "</svg>\n", ""),
    (["validate", "--quiet", "{record}"], 0, "", ""),
    (["validate", "{bad}"], 1, "1 game, 1 move, 1 error, 0 warnings\n", ""),
    (["moves", "--game", "nosuch"], 2, "", "mancala: error: unknown game 'nosuch' (known: kimasai-mackay, "
                                          "kimasai-klamroth, kingulu)\n"),
])
def test_a_finished_command_leaves_its_objects_out_of_the_exit_collections(tmp_path, args, code, out, err):
    """The interpreter's exit scans every object for reference cycles (8 to
    10 ms, an eighth of a short command); a command that has finished leaves the
    objects it holds out of those scans, whatever its status, while exit
    handlers still run and its output is whole."""
    record = tmp_path / "one.pmn"
    record.write_text('[Game "kingulu"]\n[Result "*"]\n\n1. c1x6 d2 2. a1 *\n', encoding="utf-8")
    bad = tmp_path / "bad.pmn"
    bad.write_text('[Game "kingulu"]\n[Result "*"]\n\n1. a2 *\n', encoding="utf-8")
    args = [arg.format(record=record, bad=bad) for arg in args]
    done = subprocess.run([sys.executable, "-c", AT_EXIT, *args], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == code
    assert done.stdout.endswith(out) and (out or not done.stdout)
    lines = done.stderr.splitlines(keepends=True)
    assert lines[-1].startswith("frozen ") and lines[-1].endswith(" enabled True\n"), done.stderr
    assert int(lines[-1].split()[1]) > 10_000
    assert "".join(lines[:-1]) == err


def test_edit_loads_textual_only_when_it_edits():
    """``mancala edit`` imports Textual (the ``edit`` extra) inside the
    command, after its options are read: its help, and every other command,
    load none of it."""
    names, code = _modules_after("edit", "--help")
    assert code == 0 and "textual" not in top(names) and "mancala_cli.editor" not in names
    names, code = _modules_after("edit", "examples/kingulu-village-match.pmn")  # (no terminal: refused)
    assert code == 2 and "textual" in top(names) and "mancala_cli.cli.edit" in names
