"""``mancala annotate`` and ``mancala_cli.annotate``: the engine's facts for a
record's main line, on a constructed Kingulu ending whose every position the
solver proves at once."""
import json
import re

from typer.testing import CliRunner

import mancala_cli as mancala
from mancala_cli.checking import replay
from mancala_cli.cli.commands import whole
from mancala_cli.solving.engine_facts import Limits, annotate_record
from mancala_cli.solving.search import Solver

app = whole()

runner = CliRunner()

# North to move wins; the moves, with each one's result for its mover:
# a2 (win), e1x2 (loss), d2 (the only win of three moves), f1 (loss),
# b2 (a loss: f2 wins), b1 (a draw: d1 wins), a2^ (a loss: f2x1 draws),
# e1x1 (the only win of two moves).
ENDING = """[Game "kingulu"]
[Event "Constructed ending"]
[Setup "1,2,11*,3,0,3/1,1,2,0,1,2 N 3-18 9"]
[Result "1-0"]

9... a2 10. e1x2 d2 11. f1 b2 12. b1 a2^ 13. e1x1 1-0
"""

ANNOTATED = """[Game "kingulu"]
[Event "Constructed ending"]
[Result "1-0"]
[Setup "1,2,11*,3,0,3/1,1,2,0,1,2 N 3-18 9"]

{Proven: win for North} 9... a2 10. e1x2 d2! 11. f1 b2?? {f2 keeps the win}
12. b1? {d1 keeps the win} 12... a2^? {f2x1 keeps the draw} 13. e1x1! 1-0
"""

# The third move is illegal (a1's first lap ends in c1, occupied).
ILLEGAL = """[Game "kingulu"]
[Event "Illegal"]
[Setup "1,2,11*,3,0,3/1,1,2,0,1,2 N 3-18 9"]
[Result "*"]

9... a2 10. e1x2 d2 11. a1 *
"""

#: A limit no position here needs: whatever the machine's load, every result is proven.
AMPLE = ("--time", "60")


def run(*args, input=None):
    return runner.invoke(app, [str(a) for a in args], input=input)


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def summary(games, searched, proven, marks):
    """The summary line's pattern (the nodes depend on the time limit)."""
    return (rf"{games} games?, {searched} positions? searched \([0-9,]+ nodes?\), {proven} proven, "
            rf"{marks} marks? added\n")


def test_blunders_and_only_moves(tmp_path):
    result = run("annotate", write(tmp_path, "ending.pmn", ENDING), *AMPLE)
    assert (result.exit_code, result.stdout) == (0, ANNOTATED)
    # The start and the seven positions after a move, all proven; a comment
    # and eight glyphs and comments of the moves.
    assert re.fullmatch(summary(1, 8, 8, 9), result.stderr), result.stderr
    assert run("annotate", "--quiet", write(tmp_path, "ending.pmn", ENDING), *AMPLE).stderr == ""


def test_glyphs_and_comments_in_json_and_xml(tmp_path):
    path = write(tmp_path, "ending.pmn", ENDING)
    result = run("annotate", path, "--to", "json", *AMPLE)
    assert result.exit_code == 0
    moves = json.loads(result.stdout)["moves"]
    assert [(m["move"], m["glyphs"], m["comment"]) for m in moves] == [
        ("a2", [], None), ("e1", [], None), ("d2", ["!"], None), ("f1", [], None),
        ("b2", ["??"], "f2 keeps the win"), ("b1", ["?"], "d1 keeps the win"),
        ("a2", ["?"], "f2x1 keeps the draw"), ("e1", ["!"], None)]
    assert moves[0]["before"] == "Proven: win for North"
    xml = run("annotate", path, "--to", "xml", *AMPLE)
    assert xml.exit_code == 0
    assert ('<move hole="b2">\n        <glyph>??</glyph>\n        <comment>f2 keeps the win</comment>\n'
            '      </move>') in xml.stdout
    # Read back, the annotated JSON and XML give the annotated PMN.
    for text in (result.stdout, xml.stdout):
        again = write(tmp_path, "again", text)
        assert run("convert", again, "--to", "pmn").stdout == ANNOTATED


def test_annotating_again_changes_nothing(tmp_path):
    result = run("annotate", write(tmp_path, "annotated.pmn", ANNOTATED), *AMPLE)
    assert (result.exit_code, result.stdout) == (0, ANNOTATED)
    assert re.fullmatch(summary(1, 8, 8, 0), result.stderr), result.stderr


def test_the_records_own_comments_glyphs_and_variations_stay(tmp_path):
    own = ENDING.replace("9... a2", "{Played at the fair.} 9... a2").replace(
        "b2 12. b1", "b2!? $7 {A trap?} (11... f2 {wins}) 12. b1")
    result = run("annotate", write(tmp_path, "own.pmn", own), *AMPLE)
    assert result.exit_code == 0
    # The engine's comments on lines of their own, not run on after the record's
    assert result.stdout.split("\n\n")[1] == (
        "{Played at the fair.\nProven: win for North} 9... a2 10. e1x2 d2! 11. f1 b2!? $4 $7 {A trap?\n"
        "f2 keeps the win} (11... f2 {wins}) 12. b1? {d1 keeps the win} 12... a2^?\n"
        "{f2x1 keeps the draw} 13. e1x1! 1-0\n")
    moves = json.loads(run("annotate", write(tmp_path, "own.pmn", own), "--to", "json", *AMPLE).stdout)["moves"]
    assert (moves[0]["before"], moves[4]["comment"]) == ("Played at the fair.\nProven: win for North",
                                                         "A trap?\nf2 keeps the win")
    xml = run("annotate", write(tmp_path, "own.pmn", own), "--to", "xml", *AMPLE).stdout
    assert ">Played at the fair.\nProven: win for North</before>" in xml
    assert ">A trap?\nf2 keeps the win</comment>" in xml
    # Annotated again, in every format: nothing changes, nothing is added.
    for target, text in (("pmn", result.stdout), ("json", None), ("xml", xml)):
        if text is None:
            text = run("annotate", write(tmp_path, "own.pmn", own), "--to", "json", *AMPLE).stdout
        again = run("annotate", write(tmp_path, f"once.{target}", text), "--to", target, *AMPLE)
        assert (again.exit_code, again.stdout) == (0, text)
        assert re.fullmatch(summary(1, 8, 8, 0), again.stderr), again.stderr


def test_a_record_annotated_a_space_apart_is_not_annotated_again(tmp_path):
    """An earlier version added the engine's comments after the record's a
    space apart, and its PMN broke long comments anywhere: the text is
    found there too."""
    old = ENDING.replace("9... a2", "{Played at the fair. Proven: win for North} 9... a2").replace(
        "b2 12. b1", "b2!? $4 $7 {A trap? f2 keeps the} {win} 12. b1? {d1\nkeeps the win}").replace(
        "a2^", "a2^? {f2x1 keeps the draw}").replace("d2 11.", "d2! 11.").replace("e1x1 1-0", "e1x1! 1-0")
    path = write(tmp_path, "old.pmn", old)
    result = run("annotate", path, *AMPLE)
    assert (result.exit_code, result.stdout) == (0, run("convert", path, "--to", "pmn").stdout)
    assert re.fullmatch(summary(1, 8, 8, 0), result.stderr), result.stderr


def test_what_the_limits_leave_unknown_is_left_alone(tmp_path):
    path = write(tmp_path, "ending.pmn", ENDING)
    converted = run("convert", path, "--to", "pmn").stdout
    result = run("annotate", path, "--nodes", "1")
    assert (result.exit_code, result.stdout) == (0, converted)
    assert result.stderr == "1 game, 8 positions searched (8 nodes), 0 proven, 0 marks added\n"
    # Six plies deep prove only that b2 throws North's win away (and which
    # move keeps it); the start, and every other move, stay unknown.
    shallow = run("annotate", path, "--depth", "6")
    assert shallow.stdout.split("\n\n")[1] == ("9... a2 10. e1x2 d2 11. f1 b2?? {f2 keeps the win} 12. b1 a2^ "
                                               "13. e1x1 1-0\n")


def test_an_invalid_record_is_reported_and_passed_through(tmp_path):
    bad = write(tmp_path, "bad.pmn", ILLEGAL)
    path = write(tmp_path, "both.pmn", ENDING + "\n" + ILLEGAL)
    validate = run("validate", "--quiet", bad)
    converted = run("convert", bad, "--to", "pmn")
    result = run("annotate", path, *AMPLE)
    error = (f"{path}:13:25: error: 11. a1: KG-FIRSTLAP: a1: the first lap ends in c1, an occupied hole of "
             f"S's own row [position 0,4,14*,0,0,0/2,0,1,2,0,1 S 6-18 11; legal: f1]\n")
    assert validate.stdout == error.replace(str(path), str(bad)).replace(":13:", ":6:")
    assert result.exit_code == 1
    assert result.stderr.startswith(error) and re.fullmatch(summary(2, 8, 8, 9), result.stderr[len(error):])
    assert result.stdout == ANNOTATED + "\n" + converted.stdout


def test_output_file_is_atomic_and_spares_an_input_with_errors(tmp_path):
    ending = write(tmp_path, "ending.pmn", ENDING)
    assert run("annotate", ending, "-o", ending, *AMPLE).exit_code == 0
    assert ending.read_text(encoding="utf-8") == ANNOTATED
    bad = write(tmp_path, "bad.pmn", ILLEGAL)
    result = run("annotate", bad, "-o", bad, *AMPLE)
    assert result.exit_code == 2
    assert result.stderr.endswith(f"mancala: error: {bad}: is an input with errors; not replaced "
                                  f"(--force replaces it)\n")
    assert bad.read_text(encoding="utf-8") == ILLEGAL
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.pmn", "ending.pmn"]


def test_bad_limits_are_usage_errors(tmp_path):
    path = write(tmp_path, "ending.pmn", ENDING)
    for option, value, message in (("--time", "0", "--time must be a number of seconds > 0 (got '0')"),
                                   ("--nodes", "0", None), ("--depth", "0", None)):
        result = run("annotate", path, option, value)
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("mancala: error: ")
        if message:
            assert result.stderr == f"mancala: error: {message}\n"


def test_examples_read_back_valid_and_annotate_the_same_again(tmp_path):
    import pathlib

    # Comments, variations and glyphs of their own; a game with a repetition
    # rule (KK-4b: the line's earlier positions go into every search).
    folder = pathlib.Path(__file__).resolve().parents[1] / "examples"
    examples = [folder / "kimasai-klamroth-annotated.pmn", folder / "kingulu-tournament.pmn"]
    once = run("annotate", *examples, "--nodes", "300", "--quiet")
    assert (once.exit_code, once.stderr) == (0, "")
    assert " ".join(once.stdout.split()).count("keeps the win}") >= 2  # (the tournament's short games)
    path = write(tmp_path, "once.pmn", once.stdout)
    assert run("validate", "--quiet", path).exit_code == 0
    again = run("annotate", path, "--nodes", "300")
    assert again.stdout == once.stdout
    assert again.stderr.endswith(" 0 marks added\n")


def test_library_annotate_leaves_the_record_alone():
    record = next(mancala.read(ENDING))
    before = mancala.write(record)
    annotated = mancala.annotate(record, time=60)
    assert mancala.write(annotated) == ANNOTATED
    assert mancala.write(record) == before
    bad = next(mancala.read(ILLEGAL))
    assert mancala.write(mancala.annotate(bad, time=60)) == mancala.write(bad)


def test_results_do_not_depend_on_the_order_positions_are_asked():
    record = next(mancala.read(ENDING))
    report = mancala.check(record)
    game = report.game
    positions = [p.position for p in report.positions[:-1]]  # before every move

    def answers(solver, position):
        solution = solver.solve(position)
        return solution.result, [r for _, r in solution.moves], solution.nodes

    fresh = [answers(Solver(game), p) for p in positions]
    one = Solver(game)
    assert [answers(one, p) for p in positions] == fresh
    assert [answers(one, p) for p in reversed(positions)] == fresh[::-1]
    annotated = annotate_record(record, limits=Limits(seconds=60))
    assert annotated.start == "win"
    assert annotated.results == ["win", "loss", "win", "loss", "loss", "draw", "loss", "win"]
    played = replay(record).moves
    assert annotated.results == [dict(((m.origin, m.end), r) for m, r in Solver(game).solve(p).moves)
                                 [(move.origin, move.end)] for p, move in zip(positions, played)]


def test_a_game_without_moves_gets_the_start_in_its_comment(tmp_path):
    study = ('[Game "kingulu"]\n[Setup "0,0,14*,0,0,1/4*,0,1,3,1,0 S 6-18 13"]\n[Result "*"]\n\n'
             '{A study.} *\n')
    result = run("annotate", write(tmp_path, "study.pmn", study), *AMPLE)
    assert (result.exit_code, result.stdout.split("\n\n")[1]) == (0, "{A study.\nProven: win for South} *\n")


def test_worker_processes_give_the_same_bytes(tmp_path):
    path = write(tmp_path, "many.pmn", "\n".join([ENDING] * 100))  # more than one batch
    one = run("annotate", path, "--jobs", "1", "--depth", "6")
    two = run("annotate", path, "--jobs", "2", "--depth", "6")
    assert (one.exit_code, two.exit_code) == (0, 0)
    assert one.stdout == two.stdout and one.stdout.count("??") == 100


def test_the_move_that_keeps_the_result_is_written_in_the_records_coordinates(tmp_path):
    relative = run("convert", write(tmp_path, "ending.pmn", ENDING), "--to", "pmn", "--coords", "relative").stdout
    result = run("annotate", write(tmp_path, "relative.pmn", relative), *AMPLE)
    assert (result.exit_code, result.stdout.split("\n\n")[1]) == (0, (
        "{Proven: win for North} 9... N6 10. S5x2 N3! 11. S6 N5?? {N1 keeps the win}\n"
        "12. S2? {S4 keeps the win} 12... N6^? {N1x1 keeps the draw} 13. S5x1! 1-0\n"))


def test_an_input_without_a_game_is_an_error_as_for_convert(tmp_path):
    empty = write(tmp_path, "empty.pmn", "")
    for args, name in (([str(empty)], str(empty)), (["/dev/null"], "/dev/null"), ([], "<stdin>")):
        converted = run("convert", *args, "--to", "pmn", input="")
        result = run("annotate", *args, input="")
        line = f"{name}:1:1: error: no-games: no game in the input\n"
        assert (converted.exit_code, converted.stderr) == (1, line)
        assert (result.exit_code, result.stdout) == (1, "")
        assert result.stderr == line + "0 games, 0 positions searched (0 nodes), 0 proven, 0 marks added\n"
    # A file without a game among others: the others are annotated.
    both = run("annotate", empty, write(tmp_path, "ending.pmn", ENDING), *AMPLE)
    assert (both.exit_code, both.stdout) == (1, ANNOTATED)


def test_progress_shows_on_a_terminal_only(tmp_path):
    import subprocess
    import sys

    from .conftest import on_terminal

    path = write(tmp_path, "ending.pmn", ENDING)
    command = [sys.executable, "-m", "mancala_cli", "annotate", str(path), *AMPLE]
    piped = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert piped.stdout == ANNOTATED and re.fullmatch(summary(1, 8, 8, 9), piped.stderr)
    out, seen = on_terminal(command)
    assert out.decode() == ANNOTATED
    steps = progress_steps(seen)
    assert [step[0] for step in steps] == [f"ending.pmn game 1, position {k} of 8".encode() for k in range(1, 9)] \
        + [b"ending.pmn, 1 game done"]
    # The counts go up position by position, before the game's answer is back
    # (they stayed at 0 until the end): the marks of the start's comment and
    # of each move as its position is solved (a2, e1x2: none; d2: !; f1:
    # none; b2, b1, a2^: a glyph and a comment each; e1x1: !).
    counts = [tuple(int(n) for n in step[1:]) for step in steps]
    assert counts[:-1] == [(k, k, marks) for k, marks in zip(range(1, 9), (1, 1, 2, 2, 4, 6, 8, 9))]
    assert counts[-1] == (8, 8, 9)
    # (the nodes a search limited in time takes depend on the machine's load: the summary's count apart)
    nodes = re.compile(rb"\([0-9,]+ nodes\)")
    assert nodes.sub(b"(N nodes)", seen).endswith(
        b"\r\x1b[K" + nodes.sub(b"(N nodes)", piped.stderr.replace("\n", "\r\n").encode()))


def progress_steps(seen: bytes) -> list[tuple[bytes, bytes, bytes, bytes]]:
    """The progress lines a terminal was shown: (what, searched, proven,
    marks), each count with its noun in the singular for 1, else plural."""
    found = re.findall(rb"\r\x1b\[Kannotating: ([^;]*); ([0-9,]+) (positions?) searched, ([0-9,]+) proven, "
                       rb"([0-9,]+) (marks?), [0-9]+\.[0-9] s", seen)
    for _, searched, position, _, marks, mark in found:
        assert (position, mark) == (b"position" if searched == b"1" else b"positions",
                                    b"mark" if marks == b"1" else b"marks")
    return [(what, searched, proven, marks) for what, searched, _, proven, marks, _ in found]


def test_progress_counts_the_games_of_a_batch_as_they_are_annotated(tmp_path):
    """The games of a batch are all annotated before the first is written:
    the second game's positions count on from the first's, and the counts
    do not jump when the games come back."""
    import sys

    from .conftest import on_terminal

    path = write(tmp_path, "two.pmn", ENDING + "\n" + ENDING)
    out, seen = on_terminal([sys.executable, "-m", "mancala_cli", "annotate", str(path), "--jobs", "1", *AMPLE])
    assert out.decode() == ANNOTATED + "\n" + ANNOTATED
    steps = progress_steps(seen)
    shown = [(step[0].decode(), *(int(n) for n in step[1:])) for step in steps]
    marks = (1, 1, 2, 2, 4, 6, 8, 9)
    assert shown == [(f"two.pmn game 1, position {k} of 8", k, k, marks[k - 1]) for k in range(1, 9)] \
        + [(f"two.pmn game 2, position {k} of 8", 8 + k, 8 + k, 9 + marks[k - 1]) for k in range(1, 9)] \
        + [("two.pmn, 1 game done", 16, 16, 18), ("two.pmn, 2 games done", 16, 16, 18)]
    assert re.search(rb"\r\x1b\[K2 games, 16 positions searched \([0-9,]+ nodes\), 16 proven, 18 marks added\r\n\Z",
                     seen)


def test_the_progress_callback_is_told_the_counts_so_far():
    told = []
    record = next(mancala.read(ENDING))
    done = annotate_record(record, limits=Limits(seconds=60),
                           progress=lambda k, total, so_far: told.append(
                               (k, total, so_far.searched, so_far.proven, so_far.marks)))
    marks = (1, 1, 2, 2, 4, 6, 8, 9)
    assert told == [(k, 8, k, k, marks[k - 1]) for k in range(1, 9)]
    assert (done.searched, done.proven, done.marks) == (8, 8, 9)
