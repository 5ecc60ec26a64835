"""The library API (docs/library.md): read, check, write, diagrams, playing
moves by token, and one family of errors."""
from __future__ import annotations

import io
import pathlib

import pytest
from typer.testing import CliRunner

import mancala_cli as mancala
from mancala_cli.cli.commands import whole
from notation.notation_errors import PositionError
from notation.pmn_writer import write_game

app = whole()

ROOT = pathlib.Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").rglob("*.pmn"))
VILLAGE = ROOT / "examples" / "kingulu-village-match.pmn"
BROKEN = ROOT / "examples" / "broken" / "damaged-records.pmn"
TEXT = '[Game "kingulu"]\n[Event "x"]\n\n1. c1 d2 2. e1 *\n'


def events(records) -> list[str | None]:
    return [r.tag("Event") for r in records]


# -- read --------------------------------------------------------------------------

def test_read_takes_paths_files_bytes_and_text():
    expected = events(mancala.read(str(VILLAGE)))
    assert expected == ["Village match"]
    assert events(mancala.read(VILLAGE)) == expected
    with VILLAGE.open("rb") as binary:
        assert events(mancala.read(binary)) == expected
    with VILLAGE.open(encoding="utf-8") as textual:
        assert events(mancala.read(textual)) == expected
    assert events(mancala.read(VILLAGE.read_bytes())) == expected
    assert events(mancala.read(io.StringIO(VILLAGE.read_text(encoding="utf-8")))) == expected
    assert events(mancala.read(TEXT)) == ["x"]


def test_read_recognises_json_and_xml_and_obeys_format():
    json_text = mancala.write(next(mancala.read(TEXT)), format="json")
    xml_text = mancala.write(next(mancala.read(TEXT)), format="xml")
    assert events(mancala.read(json_text)) == events(mancala.read(xml_text.encode())) == ["x"]
    forced = next(mancala.read(json_text, format="pmn"))
    assert forced.problems and forced.problems[0].code == "syntax"
    with pytest.raises(ValueError, match="format must be one of pmn, json, xml"):
        next(mancala.read(TEXT, format="yaml"))


def test_read_in_another_encoding_and_with_a_default_game():
    data = '[Event "café"]\n\n1. c1x6 *\n'.encode("utf-16")
    record = next(mancala.read(data, encoding="utf-16", game="kingulu"))
    assert (record.tag("Event"), record.tag("Game"), record.default_game) == ("café", None, "kingulu")
    assert mancala.check(record).valid
    assert not mancala.check(next(mancala.read('[Event "x"]\n\n1. c1x6 *\n'))).valid


def test_read_numbers_records_and_keeps_damage_as_problems():
    records = list(mancala.read(BROKEN))
    assert [r.index for r in records] == [1, 2, 3]
    assert [p.code for p in records[1].problems] == ["syntax", "missing-result"]


@pytest.mark.parametrize("source,error,words", [
    ("no/such/file.pmn", mancala.UnreadableInput, "no/such/file.pmn: cannot open"),
    (str(ROOT / "examples"), mancala.UnreadableInput, "examples: cannot open: Is a directory"),
    (b"<mancala", mancala.BadArchive, "not well-formed XML"),
])
def test_unreadable_input_raises_one_family(source, error, words):
    with pytest.raises(error, match=words) as caught:
        list(mancala.read(source))
    assert isinstance(caught.value, mancala.MancalaError)


def test_unknown_encodings_and_games_are_errors_of_the_family():
    with pytest.raises(mancala.UnreadableInput, match="'rot13' is not a text encoding"):
        list(mancala.read(TEXT, encoding="rot13"))
    with pytest.raises(mancala.UnreadableInput, match="unknown encoding 'nonesuch'"):
        list(mancala.read(TEXT, encoding="nonesuch"))
    with pytest.raises(mancala.UnknownGame) as caught:
        list(mancala.read(TEXT, game="oware"))
    assert isinstance(caught.value, KeyError) and isinstance(caught.value, mancala.MancalaError)


# -- check --------------------------------------------------------------------------

def test_check_reports_data_and_leaves_the_record_untouched():
    record = next(mancala.read(BROKEN))
    before = write_game(record), [(p.severity, p.code) for p in record.problems]
    report = mancala.check(record, strict=True)
    assert [(p.severity, p.code, p.line, p.column, p.ply, p.move) for p in report.problems] == [
        ("error", "bad-mark", 7, 28, 5, "d1x2"), ("error", "KG-ORIGIN", 7, 42, 8, "c1")]
    assert report.problems[1].legal == ["b2", "d2"]
    assert (write_game(record), [(p.severity, p.code) for p in record.problems]) == before


def test_strict_makes_warnings_errors_without_changing_the_record():
    record = next(mancala.read('[Game "kingulu"]\n\n3. c1x6 *\n'))
    assert [(p.severity, p.code) for p in mancala.check(record).problems] == [("warning", "move-number")]
    assert mancala.check(record).valid
    strict = mancala.check(record, strict=True)
    assert [(p.severity, p.code) for p in strict.problems] == [("error", "move-number")] and not strict.valid
    assert [p.severity for p in mancala.check(record).problems] == ["warning"]


def test_report_positions_are_the_positions_convert_writes():
    record = next(mancala.read(VILLAGE))
    report = mancala.check(record)
    converted = next(mancala.read(mancala.write(record, format="json", positions=True)))
    assert [str(p) for p in report.positions[1:]] == [node.position for node in converted.moves]
    assert str(report.positions[0]) == "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1"
    assert report.final is report.positions[-1] and len(report.positions) == report.plies + 1
    assert (report.result, report.reason, report.outcome.score) == ("1-0", "KG-7", (35, 13))


def test_a_record_of_an_unknown_game_has_no_positions():
    report = mancala.check(next(mancala.read('[Game "oware"]\n\n1. a1 *\n')))
    assert (report.game, report.positions, report.final) == (None, [], None)
    assert [p.code for p in report.problems] == ["unknown-game"]


# -- write ----------------------------------------------------------------------------

@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
@pytest.mark.parametrize("target,extra", [("pmn", {}), ("json", {"positions": True}), ("xml", {}),
                                          ("pmn", {"coords": "relative"})])
def test_write_gives_the_bytes_convert_gives(path, target, extra):
    args = ["convert", "--to", target, str(path), "--coords", extra.get("coords", "algebraic")]
    if extra.get("positions"):
        args.append("--positions")
    expected = CliRunner().invoke(app, args).stdout
    assert mancala.write(mancala.read(path), format=target, **extra) == expected


def test_write_to_paths_and_file_objects_leaves_records_untouched(tmp_path):
    record = next(mancala.read(TEXT))
    text = mancala.write(record)
    assert text.endswith("1. c1x6 d2 2. e1^ *\n")
    assert (record.moves[0].captured, record.moves[2].reserved) == (None, False)  # marks filled in a copy
    mancala.write(record, tmp_path / "out.pmn")
    assert (tmp_path / "out.pmn").read_text(encoding="utf-8") == text
    stream, raw = io.StringIO(), io.BytesIO()
    mancala.write([record], stream)
    mancala.write([record], raw, format="xml")
    assert stream.getvalue() == text
    assert raw.getvalue().decode("utf-8") == mancala.write(record, format="xml")
    with pytest.raises(mancala.UnwritableOutput, match="is a directory"):
        mancala.write(record, tmp_path)


def test_copy_record_copies_variations_a_thousand_deep():
    from notation.record import MAX_VARIATION_DEPTH
    text = '[Game "kingulu"]\n\n1. c1x6 ' + "(1. d1x6 " * MAX_VARIATION_DEPTH + ")" * MAX_VARIATION_DEPTH + " *\n"
    record = next(mancala.read(text))
    twin = mancala.copy_record(record)
    assert write_game(twin) == write_game(record)
    node = twin.moves[0]
    for _ in range(MAX_VARIATION_DEPTH):
        node = node.variations[0][0]
        node.comment = "changed"
    assert "changed" not in write_game(record)


# -- diagrams and positions ----------------------------------------------------------

def test_diagrams_take_positions_strings_and_game_positions():
    from mancala_cli.diagrams.svg import board_svg
    from mancala_cli.diagrams.text import board_text
    game = mancala.get_game("kingulu")
    string = "0,1,0,3,1,6*/0,11,1,1,3,3 S 7-11 4"
    position = mancala.parse_position(game, string)
    paired = mancala.GamePosition.from_string("kingulu", string)
    assert str(paired) == string and paired.banks == (7, 11)
    expected = board_svg(game, position, flip=True)
    assert {mancala.svg(p, game=g, flip=True) for p in (position, string, paired) for g in (game, "kingulu")} \
        == {expected}
    assert mancala.text(string, game="kingulu") == board_text(game, position)
    assert paired._repr_svg_() == board_svg(game, position)


def test_a_bad_position_string_is_both_kinds_of_error():
    with pytest.raises(mancala.BadPosition) as caught:
        mancala.parse_position(mancala.get_game("kingulu"), "4,4,4,4,4,4/4,4,4,4,4,5 S 0-0 1")
    assert isinstance(caught.value, mancala.InvalidPosition) and isinstance(caught.value, PositionError)
    assert str(caught.value).startswith("seeds do not add up: 49 on the board")


# -- playing moves by token --------------------------------------------------------------

def test_tokens_in_every_style_play_the_same_move():
    game = mancala.get_game("kimasai-mackay")
    for token in ("h2", "16", "S9"):
        line = mancala.Line(game)
        line.play(token)
        assert line.moves[0].move.origin == game.board.index_of("h2") and line.moves[0] == "h2"


def test_wrong_marks_and_holes_leave_the_line_as_it_was():
    line = mancala.Line(mancala.get_game("kingulu"))
    start = line.position
    for token, error, words in [("c1x5", mancala.BadMove, "c1x5: the move is c1x6"),
                                ("c1^", mancala.BadMove, "c1\\^: the move is c1x6"),
                                ("N3", mancala.BadCoordinate, "'N3' names a hole of N, but S is to move"),
                                ("c1!", mancala.BadMove, "is not a move token"),
                                ("a2", mancala.IllegalMove, "KG-ORIGIN")]:
        with pytest.raises(error, match=words):
            line.play(token)
        assert (line.position, line.moves, line.history) == (start, [], set())


def test_klamroth_long_form_destination_is_checked():
    line = mancala.Line(mancala.get_game("kimasai-klamroth"))
    with pytest.raises(mancala.BadMove, match="b2-c2: the move is b2-a2x2"):
        line.play("b2-c2")
    assert line.play("b2-a2x2").captured == 2
    assert line.history  # Klamroth's line keeps its repetition history


def test_a_copied_line_is_a_library_line():
    line = mancala.Line(mancala.get_game("kingulu"))
    line.play("c1")
    twin = line.copy()
    assert isinstance(twin, mancala.Line) and twin.play("d2").origin == 9
    assert len(line.moves) == 1


def test_the_library_gives_no_command_line_advice():
    record = next(mancala.read('[Event "x"]\n\n1. c1x6 *\n'))
    assert [p.message for p in mancala.check(record).problems] == ["no Game tag"]
    shown = CliRunner().invoke(app, ["validate", "-"], input=b'[Event "x"]\n\n1. c1x6 *\n').stdout
    assert shown.startswith("<stdin>:1:1: error: unknown-game: no Game tag (give the game with --game)\n")


# -- solve and the classes' repr --------------------------------------------------------

ENDGAME = "0,0,0,0,3,2/1,0,0,0,0,2 S 20-20 12"


def test_solve_gives_what_the_command_gives():
    import json

    kingulu = mancala.get_game("kingulu")
    solution = mancala.solve(ENDGAME, game="kingulu")
    command = json.loads(runner_run("solve", "--game", "kingulu", "--position", ENDGAME, "--format", "json"))
    line = mancala.Line(kingulu, mancala.parse_position(kingulu, ENDGAME))
    # The moves are the tokens the command prints (str), each with the Move behind it.
    assert [{"move": m, "result": r, "low": lo, "high": hi}
            for (m, r), (lo, hi) in zip(solution.moves, solution.move_bounds)] == command["moves"]
    assert all(type(m) is not str and isinstance(m, str) for m, _ in solution.moves)
    assert [m.move for m, _ in solution.moves] == [m for m, _ in solution.found.moves] \
        == [m.move for m in line.legal_moves()]
    assert json.dumps([m for m, _ in solution.moves]) == json.dumps([m["move"] for m in command["moves"]])
    assert (solution.result, solution.best, solution.bounds, solution.complete,
            solution.stopped, solution.depth, solution.nodes) == (
        command["result"], command["best"], (command["low"], command["high"]), command["complete"],
        command["stopped"], command["depth"], command["nodes"])
    # The same from a GamePosition, a Position with its game, and a Line.
    for given in (mancala.GamePosition.from_string("kingulu", ENDGAME), line):
        assert mancala.solve(given).moves == solution.moves
    assert mancala.solve(line.position, game=kingulu).moves == solution.moves
    shallow = mancala.solve(ENDGAME, game="kingulu", depth=1)
    assert (shallow.result, shallow.complete, shallow.stopped) == ("unknown", False, "depth")


def test_solve_takes_a_lines_history_kk_4b():
    """In kimasai-klamroth a position that recurs on the line is a draw: a
    Line's earlier positions go into the search."""
    game = mancala.get_game("kimasai-klamroth")
    from mancala_cli.solving.search import Solver

    line = mancala.Line(game)
    for _ in range(6):
        line.play(line.legal_moves()[0])
    assert mancala.solve(line, depth=3).found.moves == Solver(game).solve(line.position, depth=3,
                                                                          history=line.history).moves


def test_solve_refuses_bad_arguments():
    for arguments, error in (({}, TypeError), ({"game": "kingulu", "time": 0}, ValueError),
                             ({"game": "kingulu", "depth": 0}, ValueError),
                             ({"game": "kingulu", "nodes": -1}, ValueError),
                             ({"game": "kingulu", "memory": -1}, ValueError)):
        with pytest.raises(error):
            mancala.solve(ENDGAME, **arguments)
    with pytest.raises(TypeError):
        mancala.solve(ENDGAME, "kingulu")  # (options are keyword-only)


def runner_run(*args) -> str:
    return CliRunner().invoke(app, list(args)).stdout


def test_every_public_class_has_a_useful_repr():
    """No public class prints as ``<… object at 0x…>``: each one's repr names
    what it holds."""
    import inspect

    kingulu = mancala.get_game("kingulu")
    line = mancala.Line(kingulu)
    line.play("c1x6")
    record = next(mancala.read(VILLAGE))
    examples = {
        "Board": kingulu.board, "Game": kingulu, "Move": line.moves[0].move, "Position": line.position,
        "MutablePosition": mancala.MutablePosition(line.position), "Outcome": mancala.check(record).outcome,
        "Line": line, "GamePosition": line.board(), "Report": mancala.check(record),
        "Solution": mancala.solve(ENDGAME, game="kingulu"),
        "SvgDiagram": mancala.svg(line.board()), "TextBoard": mancala.text(line.board()),
        "PngImage": mancala.PngImage(b"\x89PNG"),  # (a str and bytes: they print as one)
    }
    examples["MoveToken"] = examples["Solution"].best[0]
    exported = {name for name in dir(mancala) if inspect.isclass(getattr(mancala, name))
                and not issubclass(getattr(mancala, name), BaseException)}
    assert exported == set(examples)
    for name, value in examples.items():
        assert isinstance(value, getattr(mancala, name))
        assert " object at 0x" not in repr(value), (name, repr(value))
    assert repr(kingulu) == "<Game kingulu: Bao Kingulu, 2x6>"
    assert repr(line) == f"<Line kingulu after 1 move: {line.board()}>"
    assert eval(repr(line.board()), {"GamePosition": mancala.GamePosition}) == line.board()
    assert repr(mancala.check(record)) == "<Report kingulu: valid, 23 plies, 1-0 (KG-7), 0 errors, 0 warnings>"
    assert repr(examples["Solution"]).startswith("<Solution win: 2 moves, 1 best, depth ")
    twin = eval(repr(examples["MutablePosition"]).replace("MutablePosition(", "dict("))
    assert (tuple(twin["holes"]), twin["side"], tuple(twin["banks"])) == line.position[:3]
    # Errors print as Python's errors do: their class and message.
    assert repr(mancala.BadMove("x")) == "BadMove('x')"


# -- the library as a new user meets it ----------------------------------------------------

def test_read_takes_one_line_of_record_text_and_paths_as_paths(tmp_path, monkeypatch):
    """A ``str`` that begins with ``[``, ``{`` or ``<`` is record text even
    on one line; any other ``str`` is a path, and a ``pathlib.Path`` always."""
    record = next(mancala.read('[Game "kingulu"] 1. c1x6 *'))
    assert (record.tag("Game"), [m.text for m in record.moves], record.problems) == ("kingulu", ["c1x6"], [])
    assert next(mancala.read('  {"tags": {}}')).file == "<string>"  # (read as JSON text, not opened)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "[odd].pmn").write_text('[Game "kingulu"]\n\n1. c1x6 d2 *\n')
    (tmp_path / "plain.pmn").write_text('[Game "kingulu"]\n\n1. c1x6 *\n')
    assert len(next(mancala.read(pathlib.Path("[odd].pmn"))).moves) == 2
    assert len(next(mancala.read("plain.pmn")).moves) == 1
    with pytest.raises(mancala.UnreadableInput, match="^missing.pmn: cannot open"):
        list(mancala.read("missing.pmn"))


def test_a_game_position_plays_and_solves():
    start = mancala.GamePosition.from_string("kingulu", "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1")
    line = mancala.Line(start.game)
    tokens = start.legal_moves()
    assert tokens == line.legal_moves() == [line.token(m.move) for m in line.legal_moves()]
    assert [t.move for t in tokens] == [t.move for t in line.legal_moves()]
    assert start.legal_moves(coords="relative") == [line.token(m, "relative") for m in line.legal_moves()]
    with pytest.raises(ValueError):
        start.legal_moves(coords="chess")
    with pytest.raises(TypeError):
        start.legal_moves("relative")  # (options are keyword-only)
    # play: a token in any style, a hole index, a Move or a MoveToken; the position itself stays.
    line.play("c1x6")
    for move in ("c1x6", "S3", "3x6", 2, tokens[0], tokens[0].move):
        assert start.play(move) == line.board()
    assert str(start) == "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1"
    with pytest.raises(mancala.BadMove):
        start.play("c1x2")
    with pytest.raises(mancala.IllegalMove):
        start.play("a2")
    ending = mancala.GamePosition.from_string("kingulu", ENDGAME)
    solved = ending.solve(nodes=10_000)
    assert (solved.result, solved.moves, solved.best) == ("win", [("a1", "loss"), ("f1^", "win")], ["f1^"])
    assert solved.position == ending and solved.best[0].move.reserved
    assert ending.solve(depth=1).bounds == mancala.solve(ending, depth=1).bounds == ("loss", "win")


def test_help_is_a_short_guide():
    """help(mancala_cli) lists the entry points of __all__ under a docstring
    with examples of each; every other name still loads from the package.
    (What is measured is the package's own: its docstring and __all__, not
    the lines of pydoc's layout, which differs from one Python to the next.)"""
    import pydoc

    doc = mancala.__doc__
    for example in ("mancala.read(", "mancala.check(", "mancala.write(", "mancala.svg(", ".solve("):
        assert example in doc, example
    assert len(doc.splitlines()) <= 60 and len(mancala.__all__) <= 25
    shown = pydoc.render_doc(mancala, renderer=pydoc.plaintext)
    assert all(name in shown for name in mancala.__all__ if name != "__version__") and "perft(" not in shown
    assert {"Board", "Move", "perft", "BadMove", "SvgDiagram", "MoveToken"} <= set(dir(mancala))
    assert mancala.perft(mancala.get_game("kingulu"), mancala.get_game("kingulu").start(), 1) == 4


# -- many files: check_files and write_files ------------------------------------------

def _validate(*args: str) -> tuple[int, str, str]:
    done = CliRunner().invoke(app, ["validate", *args])
    return done.exit_code, done.stdout, done.stderr


@pytest.mark.parametrize("jobs", [1, 2])
def test_check_files_gives_what_validate_prints(jobs, tmp_path):
    """Each game's ``out`` is validate's text for it (in input order, on
    one process or two), and a file that cannot be read comes in its place
    as an UnreadableInput, the next file read after it."""
    missing = tmp_path / "missing.pmn"
    paths = [str(BROKEN), str(missing), *map(str, EXAMPLES)]
    results = list(mancala.check_files(paths, jobs=jobs))
    unreadable = [(path, error) for path, error in results if isinstance(error, Exception)]
    assert [(path, type(error)) for path, error in unreadable] == [(str(missing), mancala.UnreadableInput)]
    assert isinstance(unreadable[0][1], mancala.MancalaError)
    played = [result for _, result in results if not isinstance(result, Exception)]
    code, stdout, _ = _validate("--quiet", str(BROKEN), *map(str, EXAMPLES))
    assert "".join(result.out for result in played) == stdout and code == 1
    assert [path for path, _ in results] == [str(BROKEN)] * len(list(mancala.read(BROKEN))) + [str(missing)] + [
        str(p) for p in EXAMPLES for _ in mancala.read(p)]
    assert sum(result.errors for result in played) == stdout.count(": error: ") > 0


def test_check_files_takes_where_format_and_strict():
    tournament = ROOT / "examples" / "kingulu-tournament.pmn"
    chosen = [result for _, result in mancala.check_files(tournament, where="plies > 30", format="json")
              if not result.skipped]
    code, stdout, _ = _validate("--format", "json", "--where", "plies > 30", str(tournament))
    assert "".join(result.out + "\n" for result in chosen) == stdout and code == 0
    assert 0 < len(chosen) < len(list(mancala.read(tournament)))
    with pytest.raises(mancala.BadQuery):
        next(mancala.check_files(tournament, where="plies >"))
    with pytest.raises(ValueError, match="format must be text or json"):
        next(mancala.check_files(tournament, format="xml"))


def test_check_files_on_a_scheduler_that_is_not_there_is_one_error():
    from mancala_cli.batch.lifetime import BatchError

    with pytest.raises(BatchError, match="127.0.0.1:9"):
        next(mancala.check_files(VILLAGE, scheduler="tcp://127.0.0.1:9", scheduler_timeout=2))


@pytest.mark.parametrize("to", ["pmn", "json", "xml"])
def test_write_files_writes_what_convert_writes(to, tmp_path):
    told: list[str] = []
    output = tmp_path / f"games.{to}"
    status = mancala.write_files([str(BROKEN), *map(str, EXAMPLES)], str(output), to=to, coords="relative",
                                 jobs=2, tell=told.append)
    done = CliRunner().invoke(app, ["convert", "--to", to, "--coords", "relative", "--jobs", "1", str(BROKEN),
                                    *map(str, EXAMPLES)])
    assert output.read_bytes() == done.stdout_bytes and (status, done.exit_code) == (1, 1)
    assert "".join(line + "\n" for line in told) == done.stderr


def test_write_files_leaves_an_output_as_it_was(tmp_path):
    """An input that cannot be read, or an output that is an input with
    errors: NotWritten, with convert's exit status, and the file unchanged."""
    output = tmp_path / "out.pmn"
    output.write_text("before\n", encoding="utf-8")
    with pytest.raises(mancala.NotWritten, match="not written, as an input could not be read") as caught:
        mancala.write_files([str(VILLAGE), str(tmp_path / "missing.pmn")], str(output), tell=lambda line: None)
    assert caught.value.status == 2 and output.read_text(encoding="utf-8") == "before\n"
    damaged = tmp_path / "damaged.pmn"
    damaged.write_bytes(BROKEN.read_bytes())
    with pytest.raises(mancala.NotWritten, match="is an input with errors; not replaced") as caught:
        mancala.write_files([str(damaged)], str(damaged), tell=lambda line: None)
    assert caught.value.status == 2 and damaged.read_bytes() == BROKEN.read_bytes()
    assert mancala.write_files([str(damaged)], str(damaged), force=True, tell=lambda line: None) == 1
    assert damaged.read_bytes() != BROKEN.read_bytes()


@pytest.mark.parametrize("jobs", [1, 2])
def test_stats_files_gives_what_stats_prints(jobs):
    told: list[str] = []
    summary = mancala.stats_files([str(BROKEN), *map(str, EXAMPLES)], depth=1, where="plies >= 2", jobs=jobs,
                                  tell=told.append)
    done = CliRunner().invoke(app, ["stats", "--depth", "1", "--where", "plies >= 2", str(BROKEN),
                                    *map(str, EXAMPLES)])
    assert summary.as_text() == done.stdout and done.exit_code == 1 and summary.invalid > 0
    assert "".join(line + "\n" for line in told) == done.stderr != ""
    with pytest.raises(mancala.UnreadableInput, match="missing.pmn"):
        mancala.stats_files([str(VILLAGE), "missing.pmn"])


@pytest.mark.parametrize("jobs", [1, 2])
def test_filter_files_writes_what_filter_writes(jobs, tmp_path):
    told: list[str] = []
    output, dropped = tmp_path / "kept.json", tmp_path / "dropped.json"
    sources = [str(BROKEN), *map(str, EXAMPLES), *map(str, EXAMPLES)]  # (each example twice: duplicates)
    picked = mancala.filter_files(sources, str(output), where='game = "kingulu"', to="json", dedupe=True,
                                  duplicates=str(dropped), jobs=jobs, tell=told.append)
    done = CliRunner().invoke(app, ["filter", "--where", 'game = "kingulu"', "--to", "json", "--dedupe",
                                    "--duplicates", str(tmp_path / "cli-dropped.json"), *sources])
    assert output.read_bytes() == done.stdout_bytes and done.exit_code == 1
    assert dropped.read_bytes() == (tmp_path / "cli-dropped.json").read_bytes() != b""
    assert "".join(line + "\n" for line in told) == done.stderr
    assert picked == mancala_filtering().FilterCounts(done.stdout.count("\n"), picked.errors) and picked.errors > 0
    counted = mancala.filter_files(sources, where='game = "kingulu"', invert=True, count=True, jobs=jobs,
                                   tell=told.append)
    inverted = CliRunner().invoke(app, ["filter", "--where", 'game = "kingulu"', "--invert", "--count", *sources])
    assert str(counted.written) + "\n" == inverted.stdout


def mancala_filtering():
    from mancala_cli.batch import filtering

    return filtering


@pytest.mark.parametrize("jobs", [1, 2])
def test_annotate_files_writes_what_annotate_writes(jobs, tmp_path):
    """The same games and problems as the command (a node limit alone, so
    that both runs take the same path), and the totals of its summary."""
    told: list[str] = []
    output = tmp_path / "annotated.pmn"
    sources = [str(BROKEN), str(VILLAGE)]
    totals = mancala.annotate_files(sources, str(output), nodes=2000, time=60, jobs=jobs, tell=told.append)
    done = CliRunner().invoke(app, ["annotate", "--nodes", "2000", "--time", "60", *sources])
    assert output.read_bytes() == done.stdout_bytes and done.exit_code == 1
    problems, summary = done.stderr.rsplit("\n", 2)[0] + "\n", done.stderr.splitlines()[-1]
    assert "".join(lines + "\n" for lines in told) == problems
    assert summary == (f"{totals.games} games, {totals.searched} positions searched ({totals.nodes:,} nodes), "
                       f"{totals.proven} proven, {totals.marks} marks added")
    assert totals.errors > 0 and totals.proven > 0 and totals.games == len(list(mancala.read(BROKEN))) + 1


def test_render_writes_what_the_command_does_and_raises_its_errors(tmp_path, capsys):
    """``mancala_cli.render``: the command's drawing, its problem lines in
    ``problems`` (and to ``report``), its errors as RenderError with the
    command's message and exit status."""
    damaged = tmp_path / "damaged.pmn"
    damaged.write_text('[Game "kingulu"]\n\n1. c1x6 d2 2. c1 *\n', encoding="utf-8")
    reported = []
    done = mancala.render(str(damaged), output=str(tmp_path / "a.svg"), report=reported.append)
    command = CliRunner().invoke(app, ["render", str(damaged), "-o", str(tmp_path / "b.svg")])
    assert command.exit_code == 1 and done.problems == reported == command.stderr.splitlines() != []
    assert done.written == [str(tmp_path / "a.svg")] and done.removed == []
    assert (tmp_path / "a.svg").read_bytes() == (tmp_path / "b.svg").read_bytes()
    done = mancala.render(position="4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1", game="kingulu", format="text")
    assert done.written == ["-"] and capsys.readouterr().out.startswith("Bao Kingulu — move 1")
    with pytest.raises(mancala.RenderError) as caught:
        mancala.render(str(damaged), all_plies=True)
    assert (str(caught.value), caught.value.status) == ("--all needs --out-dir", 2)
    unplayable = tmp_path / "unplayable.pmn"
    unplayable.write_text('[Game "kingulu"]\n[Setup "bogus"]\n\n*\n', encoding="utf-8")
    with pytest.raises(mancala.RenderError) as caught:
        mancala.render(str(unplayable))
    command = CliRunner().invoke(app, ["render", str(unplayable)])
    assert (command.exit_code, command.stderr) == (caught.value.status, f"mancala: error: {caught.value}\n")
    assert caught.value.status == 1 and isinstance(caught.value, mancala.MancalaError)
