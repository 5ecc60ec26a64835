"""filter, split and stats: every criterion, dedupe, split's files and the
figures of stats, each checked against answers worked out here from the
library (records read back and replayed with ``mancala_cli.check``)."""
import json
import random
import re
import statistics

import pytest
from typer.testing import CliRunner

import mancala_cli as mancala
from mancala_cli import get_game, parse_position
from mancala_cli.cli.commands import whole
from mancala_cli.files.batches import BATCH_LINES
from mancala_cli.random_records import random_game
from notation.pmn_reader import read_game
from notation.pmn_writer import write_game

app = whole()

runner = CliRunner()
PLAYERS = ("Amani", "Baraka", "Chausiku", "Daudi")


def run(*args, input=None):
    return runner.invoke(app, [str(a) for a in args], input=input)


def make_games():
    """Random games of the three games, with players and events, an illegal
    game, and copies that differ from an earlier game only in tags and comments."""
    rng = random.Random(2024)
    texts = []
    for i in range(150):
        game = ("kingulu", "kimasai-mackay", "kimasai-klamroth")[i % 3]
        record = random_game(get_game(game), rng, None if game == "kingulu" else 40 + i % 30,
                             event=f"Cup {2020 + i % 4}")
        record.tags[2:2] = [("South", PLAYERS[i % 4]), ("North", PLAYERS[(i // 4) % 4])]
        texts.append(write_game(record))
    # Duplicates: a game again with other tags, and with a comment.
    texts.append(texts[0].replace('[Event "Cup 2020"]', '[Event "Replayed"]\n[Annotator "Z"]'))
    texts.append(texts[4].replace("1. ", "1. {the same game} ", 1))
    texts.append(texts[0])
    # A game whose moves break the rules (kingulu: c2 is North's hole).
    texts.append(texts[3].replace(" 2. ", " 2. c2 ", 1))
    return texts


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    folder = tmp_path_factory.mktemp("archives")
    path = folder / "archive.pmn"
    data = "\n".join(make_games())
    path.write_text(data, encoding="utf-8")
    assert data.count("\n") > 2 * BATCH_LINES  # several batches, so --jobs 2 has work
    records = list(mancala.read(str(path)))
    (folder / "archive.jsonl").write_text(mancala.write(records, format="json"), encoding="utf-8")
    (folder / "archive.xml").write_text(mancala.write(records, format="xml"), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def records(archive):
    return list(mancala.read(str(archive)))


@pytest.fixture(scope="module")
def reports(records):
    return [mancala.check(record) for record in records]


def canonical(records, picked, to="pmn"):
    """What convert writes for the picked records."""
    return mancala.write([records[i] for i in picked], format=to) if picked or to == "xml" else ""


def filtered(archive, *args):
    result = run("filter", archive, "--jobs", "1", *args)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_the_archive_holds_what_the_tests_need(records, reports):
    assert len(records) == 154
    assert sum(not r.valid for r in reports) == 1
    assert {r.result for r in reports} >= {"1-0", "0-1", "*"}


def test_no_criterion_writes_every_game_as_convert_does(archive, records):
    assert filtered(archive) == canonical(records, range(len(records)))


def test_game_tag_result_and_plies(archive, records):
    assert filtered(archive, "--game", "kimasai-klamroth") == \
        canonical(records, [i for i, r in enumerate(records) if r.tag("Game") == "kimasai-klamroth"])
    expected = [i for i, r in enumerate(records) if re.search("^(Amani|Daudi)$", r.tag("South"))
                and re.search("202[13]", r.tag("Event"))]
    assert filtered(archive, "--tag", "South=^(Amani|Daudi)$", "--tag", "Event=202[13]") == canonical(records, expected)
    assert filtered(archive, "--tag", "Annotator=") == canonical(records, [150])  # the one game with the tag
    for result in ("1-0", "0-1", "1/2-1/2", "*"):
        assert filtered(archive, "--result", result) == \
            canonical(records, [i for i, r in enumerate(records) if r.tag("Result") == result])
    assert filtered(archive, "--min-plies", 30, "--max-plies", 45) == \
        canonical(records, [i for i, r in enumerate(records) if 30 <= len(r.moves) <= 45])
    assert filtered(archive, "--max-plies", 0) == ""


def test_criteria_combine(archive, records, reports):
    expected = [i for i, r in enumerate(records) if r.tag("Game") == "kingulu" and r.tag("Result") == "1-0"
                and r.tag("North") == "Chausiku" and len(r.moves) >= 20]
    assert expected
    assert filtered(archive, "--game", "kingulu", "--result", "1-0", "--tag", "North=Chausiku",
                    "--min-plies", 20) == canonical(records, expected)
    others = [i for i in range(len(records)) if i not in expected]
    assert filtered(archive, "--game", "kingulu", "--result", "1-0", "--tag", "North=Chausiku",
                    "--min-plies", 20, "--invert") == canonical(records, others)
    result = run("filter", archive, "--game", "kingulu", "--result", "1-0", "--count")
    assert (result.exit_code, result.stdout) == (0, f"{sum(r.tag('Game') == 'kingulu' and r.tag('Result') == '1-0' for r in records)}\n")


def _key(position):
    return position.holes, tuple(sorted(position.reserved)), position.side, position.banks


def test_reaches_any_position_ignoring_the_move_number(archive, records, reports):
    game = get_game("kimasai-mackay")
    one = reports[1].positions[7]      # kimasai-mackay, after 7 moves
    two = reports[4].positions[3]
    texts = [re.sub(r" [0-9]+$", " 99", str(p)) for p in (one, two)]
    wanted = {_key(parse_position(game, text)) for text in texts}
    expected = [i for i, rep in enumerate(reports) if rep.game.id == game.id
                and any(_key(p.position) in wanted for p in rep.positions)]
    assert 1 in expected and 4 in expected
    assert filtered(archive, "--reaches", texts[0], "--reaches", texts[1]) == canonical(records, expected)
    # Kingulu, with reserved holes: the reserved holes must match too.
    reserved = next(p for rep in reports if rep.game.id == "kingulu" for p in rep.positions if p.reserved)
    kingulu = get_game("kingulu")
    wanted = {_key(reserved.position)}
    expected = [i for i, rep in enumerate(reports) if rep.game.id == "kingulu"
                and any(_key(p.position) in wanted for p in rep.positions)]
    assert filtered(archive, "--reaches", str(reserved), "--game", "kingulu") == canonical(records, expected)
    unreserved = str(reserved).replace("*", "")  # the same holes, none reserved: no game reaches it
    assert not any(_key(p.position) == _key(parse_position(kingulu, unreserved)) for rep in reports for p in rep.positions)
    assert filtered(archive, "--reaches", unreserved) == ""
    start = str(reports[0].positions[0])
    assert filtered(archive, "--reaches", start, "--count") == \
        f"{sum(r.game.id == 'kingulu' for r in reports)}\n"  # every kingulu game starts there


def test_opening_in_any_coordinate_style(archive, records):
    first = records[0]
    holes = [node.hole for node in first.moves[:3]]
    expected = [i for i, r in enumerate(records) if r.tag("Game") == "kingulu"
                and [node.hole for node in r.moves[:3]] == holes]
    assert filtered(archive, "--opening", " ".join(holes)) == canonical(records, expected)
    line = mancala.Line(get_game("kingulu"))
    relative = []
    for hole in holes:
        move = line.legal_moves()[[m.move.origin for m in line.legal_moves()].index(get_game("kingulu").board.index_of(hole))]
        relative.append(line.token(move, "relative"))
        line.play(move)
    assert filtered(archive, "--opening", "1. " + " ".join(relative)) == canonical(records, expected)
    two = [i for i, r in enumerate(records) if r.tag("Game") == "kingulu"
           and [node.hole for node in r.moves[:1]] == holes[:1]]
    assert filtered(archive, "--opening", first.moves[0].text) == canonical(records, two)
    wrong = first.moves[0].hole + "x99"  # a mark the move does not have
    assert filtered(archive, "--opening", wrong) == ""


def test_valid_and_invalid(archive, records, reports):
    bad = [i for i, rep in enumerate(reports) if not rep.valid]
    assert filtered(archive, "--invalid") == canonical(records, bad)
    assert filtered(archive, "--valid") == canonical(records, [i for i in range(len(records)) if i not in bad])


def test_dedupe_ignores_tags_and_comments(archive, records, tmp_path):
    dropped = tmp_path / "dropped.pmn"
    result = run("filter", archive, "--dedupe", "--duplicates", dropped, "--jobs", "1")
    assert result.exit_code == 0
    assert result.stdout == canonical(records, [i for i in range(len(records)) if i not in (150, 151, 152)])
    assert dropped.read_text(encoding="utf-8") == canonical(records, [150, 151, 152])
    counted = run("filter", archive, "--dedupe", "--count")
    assert counted.stdout == f"{len(records) - 3}\n"
    # Among the games picked: the kingulu games of 2020 hold game 0 once.
    picked = filtered(archive, "--dedupe", "--tag", "Event=Cup 2020|Replayed", "--game", "kingulu")
    assert picked == canonical(records, [i for i, r in enumerate(records)
                                         if r.tag("Game") == "kingulu" and i not in (150, 152)
                                         and re.search("Cup 2020|Replayed", r.tag("Event"))])


def test_the_digest_set_is_a_set_in_at_most_40_bytes_a_digest():
    import hashlib

    from mancala_cli.archives.tasks import DigestSet

    seen, plain = DigestSet(), set()
    rng = random.Random(9)
    for n in range(30_000):
        digest = hashlib.blake2b(str(rng.randrange(20_000)).encode(), digest_size=20).digest()
        assert seen.add(digest) == (digest not in plain)
        plain.add(digest)
        assert len(seen) == len(plain)
        if len(seen) >= DigestSet.SMALLEST:
            assert seen.nbytes <= 40 * len(seen)
    assert len(plain) > 15_000  # it grew several times
    assert seen.add(bytes(20)) and not seen.add(bytes(20))


@pytest.mark.parametrize("to", ["pmn", "json", "xml"])
@pytest.mark.parametrize("source", ["archive.pmn", "archive.jsonl", "archive.xml"])
def test_every_input_and_output_format(archive, source, to):
    records = list(mancala.read(str(archive.parent / source)))  # (JSON and XML keep the move numbers)
    assert len(records) == 154
    expected = [i for i, r in enumerate(records) if r.tag("Result") == "0-1"]
    assert filtered(archive.parent / source, "--result", "0-1", "--to", to) == canonical(records, expected, to)


@pytest.mark.parametrize("args", [
    ["filter", "--dedupe", "--to", "xml"], ["filter", "--reaches", "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1", "--to", "json"],
    ["filter", "--invert", "--valid"], ["stats", "--format", "json", "--depth", "3"], ["stats"],
])
def test_jobs_give_identical_bytes(archive, args):
    one = run(*args, "--jobs", "1", archive)
    two = run(*args, "--jobs", "2", archive)
    assert one.exit_code == two.exit_code == (1 if args[0] == "stats" else 0)  # (stats: the archive's invalid game)
    assert one.stderr == two.stderr
    assert one.stdout_bytes == two.stdout_bytes and len(one.stdout_bytes) > 100


def test_output_file_and_reading_errors(archive, records, tmp_path):
    out = tmp_path / "won.pmn"
    result = run("filter", archive, "--result", "1-0", "-o", out)
    assert (result.exit_code, result.stdout) == (0, "")
    assert out.read_text(encoding="utf-8") == canonical(records, [i for i, r in enumerate(records)
                                                                  if r.tag("Result") == "1-0"])
    damaged = "examples/broken/damaged-records.pmn"
    result = run("filter", damaged, "--count")
    assert (result.exit_code, result.stdout) == (1, "3\n")
    assert result.stderr == (
        f"{damaged}:13:20: error: syntax: unterminated comment: '{{' opened here is never closed\n"
        f"{damaged}:14:11: error: missing-result: the movetext has no result token (1-0, 0-1, 1/2-1/2 or *)\n")
    # Rule errors are no reading problem: the game is read, and judged invalid.
    result = run("filter", archive, "--invalid", "--count")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "1\n", "")
    result = run("filter", tmp_path / "missing.pmn")
    assert (result.exit_code, result.stderr) == (2, f"mancala: error: {tmp_path / 'missing.pmn'}: cannot open: "
                                                    "No such file or directory\n")
    out.write_text("old", encoding="utf-8")
    (tmp_path / "broken.xml").write_text("<mancala version='1'><game>", encoding="utf-8")
    result = run("filter", tmp_path / "broken.xml", "-o", out)
    assert result.exit_code == 1 and result.stderr.count("\n") == 1
    assert result.stderr.startswith("mancala: error: ")
    assert out.read_text(encoding="utf-8") == "old"  # never a partly written output


def test_empty_input_is_no_game_and_no_error():
    result = run("filter", "-", "--count", input="")
    assert (result.exit_code, result.stdout) == (0, "0\n")
    result = run("stats", "-", "--format", "json", input="")
    assert (result.exit_code, json.loads(result.stdout)) == (0, {"games": 0, "invalid": 0, "by_game": {}})


@pytest.mark.parametrize("args, message", [
    (["--tag", "Event"], "--tag: 'Event' is not NAME=REGEX"),
    (["--tag", "Event=(x"], "--tag: 'Event=(x': bad regular expression: missing ), unterminated subpattern at position 0"),
    (["--reaches", "4,4/4,4 S 0-0 1"], "--reaches: '4,4/4,4 S 0-0 1' is a position of no game (its rows fit no board)"),
    (["--reaches", "4,4,4,4,4,4/4,4,4,4,4,5 S 0-0 1"],
     "--reaches: bad position for kingulu: seeds do not add up: 49 on the board + 0-0 in the banks = 49, kingulu has 48"),
    (["--reaches", "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1", "--game", "kimasai-mackay"],
     "--reaches: bad position for kimasai-mackay: 2 rows of holes, kimasai-mackay has 4 rows of 8"),
    (["--valid", "--invalid"], "give --valid or --invalid, not both"),
    (["--min-plies", "9", "--max-plies", "3"], "--min-plies 9 is more than --max-plies 3"),
    (["--duplicates", "d.pmn"], "--duplicates needs --dedupe"),
    (["--opening", "c1 q"], "--opening: 'q' is not a move token (a hole, then xN or ^ if any)"),
    (["--game", "chess"], "--game: unknown game 'chess' (known: kimasai-mackay, kimasai-klamroth, kingulu)"),
    (["--result", "2-0"], "--result must be one of 1-0, 0-1, 1/2-1/2, * (got '2-0')"),
    (["--count", "-o", "x.pmn"], "--count prints a number: give --count or -o, not both"),
])
def test_usage_errors_are_one_line(archive, args, message):
    result = run("filter", archive, *args)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"mancala: error: {message}\n")


def test_split_files_names_and_contents(archive, records, tmp_path):
    parts = tmp_path / "parts"
    result = run("split", archive, "--games", 40, "--out-dir", parts)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")
    names = sorted(p.name for p in parts.iterdir())
    assert names == [".mancala-split", "00001.pmn", "00002.pmn", "00003.pmn", "00004.pmn"]  # (the list of them)
    names.remove(".mancala-split")
    for k, name in enumerate(names):
        assert (parts / name).read_text(encoding="utf-8") == canonical(records, range(40 * k, min(40 * k + 40, 154)))
    (parts / "notes.txt").write_text("mine", encoding="utf-8")
    result = run("split", archive.parent / "archive.xml", "--games", 100, "--out-dir", parts, "--to", "xml",
                 "--jobs", "2")
    assert (result.exit_code, result.stderr) == (0, f"mancala: {parts}: removed 4 files of the earlier split "
                                                    "(00001.pmn … 00004.pmn)\n")
    assert sorted(p.name for p in parts.iterdir()) == [".mancala-split", "00001.xml", "00002.xml", "notes.txt"]
    assert (parts / "00002.xml").read_text(encoding="utf-8") == canonical(records, range(100, 154), "xml")
    # An input inside DIR with a name split gives is read, and neither replaced nor removed.
    (parts / "00009.pmn").write_text(archive.read_text(encoding="utf-8"), encoding="utf-8")
    result = run("split", archive, parts / "00009.pmn", "--games", 100, "--out-dir", parts)
    assert (result.exit_code, result.stderr) == (0, f"mancala: {parts}: removed 2 files of the earlier split "
                                                    "(00001.xml, 00002.xml)\n")
    assert sorted(p.name for p in parts.iterdir()) == [".mancala-split", "00001.pmn", "00002.pmn", "00003.pmn",
                                                       "00004.pmn", "00009.pmn", "notes.txt"]
    assert (parts / "00004.pmn").read_text(encoding="utf-8") == canonical(records, range(146, 154))
    result = run("split", archive, parts / "00009.pmn", "--games", 1, "--out-dir", parts)
    assert (result.exit_code, result.stderr) == (2, f"mancala: error: {parts / '00009.pmn'}: is an input file; "
                                                    "not replaced\n")
    result = run("split", archive, "--games", 0, "--out-dir", parts)
    assert (result.exit_code, result.stderr) == (2, "mancala: error: --games must be ≥ 1 (got 0)\n")


def expected_stats(records, depth=2):
    """The figures of stats, from the records replayed by the library."""
    by_game: dict = {}
    invalid = 0
    for record in records:
        report = mancala.check(record)
        if not report.valid:
            invalid += 1
            continue
        by_game.setdefault(report.game.id, []).append((record, report))
    points = {"1-0": 1, "0-1": 0, "1/2-1/2": 0.5}
    out = {}
    for game in ("kimasai-mackay", "kimasai-klamroth", "kingulu"):
        if game not in by_game:
            continue
        games = by_game[game]
        plies = [len(r.moves) for r, _ in games]
        median = statistics.median(plies)
        results = {key: sum(r.tag("Result") == key for r, _ in games) for key in ("1-0", "0-1", "1/2-1/2", "*")}
        endings: dict = {}
        for _, rep in games:
            if rep.reason is not None:
                endings[rep.reason] = endings.get(rep.reason, 0) + 1
        prefixes: dict = {}
        for record, _ in games:
            holes = [node.hole for node in record.moves[:depth]]
            for k in range(1, len(holes) + 1):
                prefixes.setdefault(tuple(holes[:k]), []).append(record.tag("Result"))
        openings = [{"moves": list(moves), "games": len(found),
                     "south_score": round(sum(points[r] for r in found if r in points)
                                          / sum(r in points for r in found), 3) if any(r in points for r in found)
                     else None}
                    for moves, found in prefixes.items()]
        openings.sort(key=lambda o: (-o["games"], len(o["moves"]), o["moves"]))
        out[game] = {"games": len(games),
                     "plies": {"min": min(plies), "median": int(median) if median == int(median) else median,
                               "max": max(plies), "mean": round(statistics.mean(plies), 2)},
                     "results": results,
                     "endings": dict(sorted(endings.items(), key=lambda e: (-e[1], e[0]))),
                     "openings": openings}
    return {"games": len(records), "invalid": invalid, "by_game": out}


@pytest.mark.parametrize("source", ["archive.pmn", "archive.jsonl", "archive.xml"])
def test_stats_json_is_the_figures_worked_out_here(archive, records, source):
    result = run("stats", archive.parent / source, "--format", "json", "--depth", 3)
    expected = expected_stats(records, 3)
    assert expected["invalid"] == 1 and result.exit_code == 1  # (an invalid game: exit 1, its errors told)
    assert result.stdout.count("\n") == 1
    assert json.loads(result.stdout) == expected
    default = json.loads(run("stats", archive.parent / source, "--format", "json").stdout)
    assert default == expected_stats(records, 2)


def test_stats_text_table(tmp_path):
    rng = random.Random(5)
    games = [random_game(get_game("kingulu"), rng) for _ in range(3)]
    games.append(random_game(get_game("kimasai-klamroth"), rng, 5))
    path = tmp_path / "small.pmn"
    path.write_text("\n".join(map(write_game, games)) + "\n[Game \"kingulu\"]\n\n1. a2 *\n", encoding="utf-8")
    result = run("stats", path, "--depth", 1)
    assert result.exit_code == 1  # (the last game is invalid)
    assert result.stdout == SMALL_TABLE


def test_stats_names_the_invalid_games_as_validate_does_and_exits_1():
    damaged = "examples/broken/damaged-records.pmn"
    result = run("stats", damaged)
    assert (result.exit_code, result.stdout.splitlines()[0]) == (1, "3 games, 3 invalid")
    validated = run("validate", damaged, "--quiet")
    errors = [line for line in validated.stdout.splitlines() if ": error: " in line]
    assert len(errors) >= 3 and result.stderr.splitlines() == errors
    picked = run("stats", damaged, "--where", 'tag.Event ~ "no such event"')  # (games not picked: not told)
    assert (picked.exit_code, picked.stdout.splitlines()[0], picked.stderr) == (0, "0 games, 0 invalid", "")


SMALL_TABLE = """\
5 games, 1 invalid

game              games  min  median  max   mean  1-0  0-1  1/2-1/2  *
kimasai-klamroth      1    5       5    5   5.00    0    0        0  1
kingulu               3   10      26   32  22.67    0    3        0  0

kimasai-klamroth openings  games  south
b2                             1      -

kingulu endings  games
KG-7                 3

kingulu openings  games  south
d1                    2  0.000
e1                    1  0.000
"""


def test_help_and_examples_of_the_help_run(tmp_path, monkeypatch):
    import pathlib

    monkeypatch.chdir(pathlib.Path(__file__).resolve().parents[1])
    for command in ("filter", "split", "stats"):
        result = run(command, "--help")
        assert result.exit_code == 0 and "Example: mancala " + command in result.output
    assert run("filter", "examples/kingulu-tournament.pmn", "--tag", "South=^Amani", "--result", "0-1",
               "--count").stdout == "1\n"
    assert run("split", "examples/kingulu-tournament.pmn", "--games", 3, "--out-dir", tmp_path).exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [".mancala-split", "00001.pmn", "00002.pmn"]


def test_a_game_xml_cannot_hold_is_left_out_as_convert_leaves_it(tmp_path):
    path = tmp_path / "bell.pmn"
    path.write_text('[Game "kingulu"]\n[Result "*"]\n\n1. c1 {bell \x07} *\n\n'
                    '[Game "kingulu"]\n[Result "*"]\n\n1. d1 *\n', encoding="utf-8")
    converted = run("convert", path, "--to", "xml")
    picked = run("filter", path, "--to", "xml")
    assert picked.exit_code == converted.exit_code == 1
    assert picked.stdout == converted.stdout and picked.stdout.count("<game") == 1
    assert picked.stderr == converted.stderr == \
        f"{path}:1:0: error: unwritable: game 1: comment after move 'c1': character U+0007 is not allowed\n"


def test_stats_counts_a_bounded_number_of_openings_and_says_so(tmp_path, monkeypatch):
    from mancala_cli.archives import tasks as archives

    rng = random.Random(7)
    texts = [write_game(random_game(get_game("kingulu"), rng, 12)) for _ in range(30)]
    path = tmp_path / "a.pmn"
    path.write_text("\n".join(texts))
    full = run("stats", path, "--depth", 12, "--format", "json", "--jobs", 1)
    every = json.loads(full.stdout)["by_game"]["kingulu"]
    assert "openings_cut" not in every
    monkeypatch.setattr(archives, "MAX_OPENINGS", 40)
    result = run("stats", path, "--depth", 12, "--format", "json", "--jobs", 1)
    kept = json.loads(result.stdout)["by_game"]["kingulu"]
    assert len(kept["openings"]) == 40
    # The first 40 distinct prefixes seen, in input order, each with its full count.
    seen = []
    cut = 0
    for text in texts:
        moves = [node.hole for node in read_game(text).moves[:12]]
        for k in range(1, len(moves) + 1):
            if tuple(moves[:k]) not in seen:
                if len(seen) == 40:
                    cut += 1
                    break
                seen.append(tuple(moves[:k]))
    counts = {tuple(o["moves"]): o for o in every["openings"]}
    assert sorted(tuple(o["moves"]) for o in kept["openings"]) == sorted(seen)
    assert all(o == counts[tuple(o["moves"])] for o in kept["openings"])
    assert kept["openings_cut"] == cut > 0
    text = run("stats", path, "--depth", 12, "--jobs", 1).stdout
    assert text.endswith(f"\n(40 openings at most are counted, the first seen; {cut} games went past them and "
                         "counted only in their shorter openings)\n")
