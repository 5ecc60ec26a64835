"""The ``--where`` language: its grammar (notation/query.py), the criteria it
compiles to (mancala_cli/archives.py), the flags as its shorthands, the
option on filter, split, stats and validate, ``where=`` of ``read``, and the
examples of docs/commands/filter.md."""
import json
import pathlib
import pickle
import re
import shlex
import subprocess
import sys

import pytest
from typer.testing import CliRunner

import mancala_cli as mancala
from mancala_cli.archives.criteria import Criteria
from mancala_cli.archives.tasks import FilterTask
from mancala_cli.archives.texts import BadCriterion
from mancala_cli.cli.commands import whole
from notation.notation_errors import NotationError, QueryError
from notation.query import And, Comparison, Not, Or, Test, parse
from tests.test_archives import make_games

app = whole()

ROOT = pathlib.Path(__file__).resolve().parents[1]
BIN = pathlib.Path(sys.executable).parent
runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, [str(a) for a in args], input=input)


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    path = tmp_path_factory.mktemp("query") / "archive.pmn"
    path.write_text("\n".join(make_games()), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def records(archive):
    return list(mancala.read(str(archive)))


@pytest.fixture(scope="module")
def reports(records):
    return [mancala.check(record) for record in records]


def picked(criteria, records):
    return [i for i, record in enumerate(records) if criteria.matches(record)]


# -- the grammar ----------------------------------------------------------------------

def test_precedence_not_and_or():
    a, b, c = (Comparison("plies", "=", n) for n in (1, 2, 3))
    assert parse("plies = 1 or plies = 2 and plies = 3") == Or((a, And((b, c))))
    assert parse("(plies = 1 or plies = 2) and plies = 3") == And((Or((a, b)), c))
    assert parse("not plies = 1 and plies = 2") == And((Not(a), b))
    assert parse("not (plies = 1 and plies = 2)") == Not(And((a, b)))
    assert parse("not not valid") == Not(Not(Comparison("valid", "=", True)))


def test_values_strings_numbers_and_words():
    assert parse('tag.Event = "a \\"b\\" \\\\ c"') == Comparison("tag.Event", "=", 'a "b" \\ c')
    assert parse(r'tag.Date ~ "^\d{4}\.\t"') == Comparison("tag.Date", "~", r"^\d{4}\.\t")  # a regex keeps its \d
    assert parse("game = kimasai-mackay") == Comparison("game", "=", "kimasai-mackay")
    assert parse("result = 1/2-1/2") == Comparison("result", "=", "1/2-1/2")
    assert parse("tag.Round >= 3") == Comparison("tag.Round", ">=", 3)
    assert parse('tag.Round >= "3"') == Comparison("tag.Round", ">=", "3")
    assert parse("valid = false") == Comparison("valid", "=", False)
    assert parse("valid != true") == Comparison("valid", "!=", True)
    assert parse('reaches "x" or opening "c1 d2"') == Or((Test("reaches", "x"), Test("opening", "c1 d2")))
    assert parse("plies>=3 and(valid)") == And((Comparison("plies", ">=", 3), Comparison("valid", "=", True)))


@pytest.mark.parametrize("text, message", [
    ("game = kingulu and )", 'expected a comparison at column 20: ")"'),
    ("game = kingulu and (plies < 20 or", "expected a comparison at column 34: the expression ends there"),
    ("(plies > 3", "expected ')' at column 11: the expression ends there"),
    ("plies >", "expected a value at column 8: the expression ends there"),
    ("plies 30", 'expected an operator (=, !=, <, <=, >, >=, ~) at column 7: "30"'),
    ("plies >= 30 x", "expected 'and', 'or' or the end at column 13: \"x\""),
    ("game = and", 'expected a value at column 8: "and"'),
    ("= 3", 'expected a comparison at column 1: "= 3"'),
    ('tag.X = "open', 'expected a value at column 9: "\\"open"'),
    ("reaches 3", 'expected a "quoted" argument at column 9: "3"'),
    ("", "expected a comparison at column 1: the expression is empty"),
    ('plies ~ "x"', "plies is a number: compare it with =, !=, <, <=, > or >=, not ~ at column 7"),
    ('plies = "x"', 'plies is a number, not "x" at column 9'),
    ("game = 3", 'game is text, not a number (write "3") at column 8'),
    ("valid < true", "valid is true or false: compare it with = or !=, not < at column 7"),
    ("valid = yes", "valid is true or false, not yes at column 9"),
    ("plies", "plies is not true or false: compare it (plies = …) at column 1"),
    ("nonsense = 3", "unknown field 'nonsense' (fields: game, plies, moves, result, ending, score, valid, start, "
                     "tag.NAME; tests: reaches STRING, opening STRING) at column 1"),
])
def test_a_bad_expression_names_the_column_and_what_was_expected(text, message):
    with pytest.raises(QueryError) as caught:
        parse(text)
    assert str(caught.value) == message
    assert isinstance(caught.value, NotationError) and isinstance(caught.value, ValueError)
    assert caught.value.column == int(re.search(r"column ([0-9]+)", message).group(1))


def test_columns_count_characters_across_tabs_and_line_breaks():
    assert parse('tag.X = "a\tb"') == Comparison("tag.X", "=", "a\tb")
    with pytest.raises(QueryError, match=r"^expected a value at column 20: \"and\"$"):
        parse("valid and\n\tplies > and")
    with pytest.raises(QueryError, match=r"at column 18$"):
        parse("valid or\n\tgame = 3")


def test_deep_nesting_and_long_expressions_are_errors_not_crashes():
    assert parse("(" * 32 + "valid" + ")" * 32) == Comparison("valid", "=", True)
    with pytest.raises(QueryError, match=r"^the expression nests more than 32 parentheses deep at column 51$"):
        parse('tag.X = "((((" or ' + "(" * 33 + "valid" + ")" * 33)
    with pytest.raises(QueryError, match="nests too deeply"):
        parse("not " * 2400 + "valid")
    with pytest.raises(QueryError, match="at most 10,000 characters"):
        parse("valid or " * 2000 + "valid")


# -- the criteria ----------------------------------------------------------------------

def test_every_flag_and_its_where_spelling_pick_the_same_games(records, reports):
    kingulu_start = "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1"
    middle = str(reports[0].positions[len(reports[0].positions) // 2])
    opening = " ".join(move.text for move in records[3].moves[:2])
    cases = [
        (dict(game="kimasai-klamroth"), "game = kimasai-klamroth"),
        (dict(tags=["South=^(Amani|Daudi)$"]), 'tag.South ~ "^(Amani|Daudi)$"'),
        (dict(tags=["Event=202[13]", "North=Chausiku"]), 'tag.Event ~ "202[13]" and tag.North ~ "Chausiku"'),
        (dict(result="1-0"), 'result = "1-0"'),
        (dict(result="*"), 'result = "*"'),
        (dict(min_plies=30), "plies >= 30"),
        (dict(max_plies=45), "plies <= 45"),
        (dict(reaches=[middle]), f'reaches "{middle}"'),
        (dict(reaches=[middle, kingulu_start]), f'reaches "{middle}" or reaches "{kingulu_start}"'),
        (dict(opening=opening), f'opening "{opening}"'),
        (dict(valid=True), "valid"),
        (dict(valid=False), "not valid"),
    ]
    for options, where in cases:
        by_flag = picked(Criteria.from_options(**options), records)
        assert 0 < len(by_flag) < len(records), options  # the case tells games apart
        assert picked(Criteria.where(where), records) == by_flag, where
        assert Criteria.from_options(**options) == Criteria.where(where)  # the same tree: the same tests


def test_the_fields_mean_what_the_documentation_says(records, reports):
    def chosen(where):
        return picked(Criteria.where(where), records)

    finished = [i for i, r in enumerate(reports) if r.outcome is not None]
    assert chosen("plies = 40") == [i for i, r in enumerate(records) if len(r.moves) == 40]
    first = " ".join(move.text for move in records[5].moves)
    assert chosen(f'moves = "{first}"') == [i for i, r in enumerate(records)
                                              if " ".join(m.text for m in r.moves) == first]
    assert chosen('ending ~ "."') == finished
    for reason in {reports[i].outcome.reason for i in finished}:
        assert chosen(f"ending = {reason}") == [i for i in finished if reports[i].outcome.reason == reason]
    scored = [i for i in finished if reports[i].outcome.score is not None]
    assert scored
    south, north = reports[scored[0]].outcome.score
    assert chosen(f'score = "{south}-{north}"') == [i for i in scored if reports[i].outcome.score == (south, north)]
    assert chosen('result = "1-0"') == [i for i, r in enumerate(records) if r.tag("Result") == "1-0"]
    assert chosen('start = "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1"') == \
        [i for i, r in enumerate(records) if r.tag("Game") == "kingulu"]
    # A field the game lacks: every comparison is false, != too; not picks those games.
    assert chosen('tag.Annotator != "nobody"') == [150]
    assert len(chosen('not tag.Annotator = "Z"')) == len(records) - 1
    # Text is compared exactly, case and all; ~ with (?i) ignores case.
    assert chosen('tag.South = "amani"') == []
    assert chosen('tag.South ~ "(?i)^amani$"') == chosen('tag.South = "Amani"') != []
    # A tag compared with a number: its value as a number ("Cup 2021" is not one).
    assert chosen('tag.Event >= 2021') == []
    numbered = [mancala.read('[Game "kingulu"]\n[Round "%s"]\n\n1. c1 *\n' % value) for value in ("9", "10", "x")]
    assert [Criteria.where("tag.Round >= 10").matches(next(r)) for r in numbered] == [False, True, False]


def test_criteria_that_need_no_replay_are_decided_first():
    record = next(mancala.read('[Game "kingulu"]\n[Event "Cup"]\n\n1. c1 d2 *\n'))
    replays = []

    def make(r):
        replays.append(mancala.check(r))
        return replays[-1]

    for where in ('valid and tag.Event = "Other"', 'opening "c1" and plies > 5', 'ending = KG-7 and game != kingulu',
                  '(valid or reaches "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1") and not tag.Event ~ "^C"'):
        assert Criteria.where(where).judge(record, make) == (False, None)
    assert replays == []
    assert Criteria.where('tag.Event = "Cup"').replays is False
    matched, report = Criteria.where('valid and tag.Event = "Cup"').judge(record, make)
    assert matched and report is replays[0] and len(replays) == 1  # made once, handed back


def test_criteria_travel_to_worker_processes_as_their_tree(records):
    criteria = Criteria.where('tag.South ~ "^A" and valid')
    again = pickle.loads(pickle.dumps(FilterTask(criteria)))
    assert again.criteria == criteria and picked(again.criteria, records) == picked(criteria, records) != []


def test_bad_values_are_errors_with_their_column():
    cases = {"game = oware": ("unknown game 'oware'", 8), 'result = "2-0"': ("a result is one of", 10),
             'tag.Event ~ "("': ("bad regular expression", 14), 'opening "z9"': ("'z9' is not a hole", 10),
             'plies > 1 and start = "1,2/3 S 0-0 1"': ("is a position of no game", 24)}
    for where, (message, column) in cases.items():
        with pytest.raises(mancala.BadQuery) as caught:
            Criteria.where(where)
        assert message in str(caught.value) and caught.value.column == column
        assert str(caught.value).endswith(f"at column {column}")
        assert isinstance(caught.value, mancala.MancalaError) and isinstance(caught.value, QueryError)


@pytest.mark.parametrize("where, message", [
    ('opening "c1 z9"', "'z9' is not a hole of any game's board at column 13"),
    ('opening "1. c1 2.z9"', "'z9' is not a hole of any game's board at column 18"),
    ('opening "c1 q"', "'q' is not a move token (a hole, then xN or ^ if any) at column 13"),
    ('reaches "1,2,3"', "'1,2,3' is a position of no game (its rows fit no board) at column 10"),
    ('reaches "4,4,4,4,4,4/4,4,4,4,4,4 X 0-0 1"', "bad position for kingulu: side to move must be S or N, not 'X' "
                                                  "at column 34"),
    ('reaches "4,4,4,4,4,4/4,4,x,4,4,4 S 0-0 1"', "bad position for kingulu: count 'x' in c1 is not a number "
                                                  "at column 26"),
    ('reaches "4,4,4,4,4,4/4,4,4x,4,4,4 S 0-0 1"', "bad position for kingulu: count '4x' in c1 is not a number "
                                                   "at column 27"),
    ('start = "4,4,4,4,4,4/-4,4,4,4,4,4 S 0-0 1"', "bad position for kingulu: negative count '-4' in a1 "
                                                   "at column 22"),
    ('tag.Event ~ "("', "bad regular expression: missing ), unterminated subpattern at column 14"),
    (r'tag.Event ~ "\\\\("', "bad regular expression: missing ), unterminated subpattern at column 18"),
    ('tag.Event ~ "[[:alpha:]]"', "bad regular expression: possible nested set (re and the regex package that "
                                  "matches it read it differently: write the character escaped, as \\[ or \\-) "
                                  "at column 15"),
])
def test_a_bad_argument_or_pattern_names_the_column_of_its_bad_token(where, message):
    with pytest.raises(mancala.BadQuery) as caught:
        Criteria.where(where)
    assert str(caught.value) == message
    assert caught.value.column == int(message.rsplit(" ", 1)[1])


@pytest.mark.parametrize("where, message", [
    ("tag.Event ~ 'cup'", 'expected a value at column 13: "\'cup\'" (did you mean "cup"? text is written in double '
                          'quotes)'),
    ("opening 'c1'", 'expected a "quoted" argument at column 9: "\'c1\'" (did you mean "c1"? text is written in '
                     'double quotes)'),
    ("plies == 3", 'expected a value at column 8: "= 3" (did you mean =?)'),
    ("plies <> 3", 'expected a value at column 8: "> 3" (did you mean !=?)'),
    ('tag.Event =~ "x"', 'expected a value at column 12: "~ \\"x\\"" (did you mean ~?)'),
    ("plies >= 3 && valid", "expected 'and', 'or' or the end at column 12: \"&& valid\" (did you mean and?)"),
    ("valid || plies > 3", "expected an operator (=, !=, <, <=, >, >=, ~) at column 7: \"|| plies > 3\" (did you mean or?)"),
    ("! valid", 'expected a comparison at column 1: "! valid" (did you mean not?)'),
])
def test_another_languages_spelling_gets_a_did_you_mean(where, message):
    with pytest.raises(QueryError) as caught:
        parse(where)
    assert str(caught.value) == message


KINGULU_C1X5 = "kingulu: c1x5: the move is c1x6"
EVERY_GAME_C1X5 = ("kimasai-mackay: KM-EMPTY: origin c1 is empty; kimasai-klamroth: KK-BLOCKED: c1 cannot step: d1 "
                   f"is occupied; {KINGULU_C1X5}")
SETUP_ONLY = "only a game with another start (Setup) can match it"


@pytest.mark.parametrize("where, warnings", [
    ('opening "c1x5"', (f'opening "c1x5" at column 1 opens no game from its usual start ({EVERY_GAME_C1X5}): '
                        f'{SETUP_ONLY}',)),
    ('valid and not opening "1. c1x6 d2x5"',
     ('opening "1. c1x6 d2x5" at column 15 opens no game from its usual start (kimasai-mackay: KM-EMPTY: origin c1 '
      'is empty; kimasai-klamroth: KK-BLOCKED: c1 cannot step: d1 is occupied; kingulu: d2x5: the move is d2): '
      f'{SETUP_ONLY}',)),
    ('opening "c1x6"', ()),
    ('opening "c1 d2"', ()),
    ('opening "S3"', ()),
])
def test_an_opening_no_game_can_open_with_is_a_warning(where, warnings):
    assert Criteria.where(where).warnings == warnings
    assert Criteria.from_options(game="kingulu", opening="c1x5").warnings == (
        f'--opening "c1x5" opens no game from its usual start ({KINGULU_C1X5}): {SETUP_ONLY}',)


def test_a_wrong_capture_mark_is_said_once_on_standard_error(archive):
    for command in (["validate"], ["stats"], ["filter", "--count"]):
        result = run(*command, archive, "--where", 'game = kingulu and opening "c1x5"', "--jobs", "2")
        assert result.exit_code == 0
        assert result.stderr == (f'mancala: warning: --where: opening "c1x5" at column 20 opens no game from its '
                                 f'usual start ({EVERY_GAME_C1X5}): {SETUP_ONLY}\n')
    flag = run("filter", archive, "--game", "kingulu", "--opening", "c1x5", "--count")
    assert (flag.exit_code, flag.stdout) == (0, "0\n")
    assert flag.stderr == f'mancala: warning: --opening "c1x5" opens no game from its usual start ({KINGULU_C1X5}): ' \
                          f'{SETUP_ONLY}\n'
    right = run("filter", archive, "--where", 'opening "c1x6"', "--count")
    assert right.stderr == "" and right.exit_code == 0


def test_flags_keep_their_own_messages():
    with pytest.raises(BadCriterion, match=r"^--tag: 'Event' is not NAME=REGEX$"):
        Criteria.from_options(tags=["Event"])
    with pytest.raises(BadCriterion, match=r"^--opening: 'z9' is not a hole of kingulu's"):
        Criteria.from_options(game="kingulu", opening="z9")
    with pytest.raises(BadCriterion, match=r"^--reaches: bad position for kingulu"):
        Criteria.from_options(reaches=["4,4,4,4,4,4/4,4,4,4,4,5 S 0-0 1"])


# -- the commands and the library ----------------------------------------------------------

def test_filter_where_writes_what_the_flags_write(archive):
    by_flags = run("filter", archive, "--game", "kingulu", "--tag", "North=Chausiku", "--min-plies", 20, "--valid")
    by_where = run("filter", archive, "--where", 'game = kingulu and tag.North ~ "Chausiku" and plies >= 20 and valid')
    both = run("filter", archive, "--game", "kingulu", "--where", 'tag.North ~ "Chausiku" and plies >= 20 and valid')
    assert by_flags.exit_code == by_where.exit_code == both.exit_code == 0
    assert by_flags.stdout == by_where.stdout == both.stdout and by_flags.stdout.count("[Game ") > 1


def test_a_bad_where_is_one_line_exit_2_before_any_record_is_read(tmp_path):
    for command in (["filter"], ["stats"], ["validate"], ["split", "--games", "1", "--out-dir", tmp_path / "parts"]):
        result = run(*command, "no/such/file.pmn", "--where", "game = kingulu and )")
        assert result.exit_code == 2
        assert result.stderr == 'mancala: error: --where: expected a comparison at column 20: ")"\n'
    assert not (tmp_path / "parts").exists()


def test_stats_split_and_validate_take_only_the_games_where_picks(archive, records, reports, tmp_path):
    where = 'game = kingulu and tag.South = "Amani"'
    chosen = [i for i, r in enumerate(records) if r.tag("Game") == "kingulu" and r.tag("South") == "Amani"]
    assert 1 < len(chosen) < len(records)
    stats = json.loads(run("stats", archive, "--where", where, "--format", "json").stdout)
    assert stats["games"] == len(chosen) and list(stats["by_game"]) == ["kingulu"]
    assert stats["by_game"]["kingulu"]["games"] == sum(reports[i].valid for i in chosen)
    assert run("split", archive, "--games", 2, "--out-dir", tmp_path, "--where", where).exit_code == 0
    files = [path for path in sorted(tmp_path.iterdir()) if path.name != ".mancala-split"]  # (the list of them)
    written = [r for path in files for r in mancala.read(str(path))]
    def key(r):
        return sorted(r.tags), [move.text for move in r.moves]
    assert [key(r) for r in written] == [key(records[i]) for i in chosen]
    assert len(files) == (len(chosen) + 1) // 2
    lines = run("validate", archive, "--where", where, "--format", "json").stdout.splitlines()
    assert [json.loads(line)["index"] for line in lines] == [i + 1 for i in chosen]
    text = run("validate", archive, "--where", "not valid")
    invalid = [i for i, report in enumerate(reports) if not report.valid]
    assert text.exit_code == 1 and len(invalid) == 1
    assert text.stdout.splitlines()[-1] == f"1 game, {len(records[invalid[0]].moves)} moves, 1 error, 0 warnings"


def test_read_where_picks_and_checks_at_once(archive, records):
    assert [r.tags for r in mancala.read(str(archive), where="plies >= 40 and valid")] == \
        [r.tags for r, report in zip(records, map(mancala.check, records)) if len(r.moves) >= 40 and report.valid]
    with pytest.raises(mancala.BadQuery, match="at column 7"):
        mancala.read("no/such/file.pmn", where="plies ~ 3")  # before the file is opened


def _rounds(*values):
    return "".join(f'[Game "kingulu"]\n[Round "{value}"]\n\n1. c1x6 *\n\n' for value in values)


LONG = "9" * 5000  # (past Python's 4,300 digits of int())


def test_a_tag_of_thousands_of_digits_compares_as_the_number_it_is(tmp_path):
    path = tmp_path / "rounds.pmn"
    path.write_text(_rounds(LONG, "2", "-" + LONG, "0" * 5000 + "4", "3x"), encoding="utf-8")
    want = [LONG, "0" * 5000 + "4"]
    assert [r.tag("Round") for r in mancala.read(str(path), where="tag.Round >= 3")] == want
    assert [r.tag("Round") for r in mancala.read(str(path), where="tag.Round < -99")] == ["-" + LONG]
    assert [r.tag("Round") for r in mancala.read(str(path), where="tag.Round = 4")] == ["0" * 5000 + "4"]
    big = "9" * 40
    assert [r.tag("Round") for r in mancala.read(str(path), where=f"tag.Round > {big}")] == [LONG]
    for command in (["validate"], ["filter", "--count"], ["stats", "--format", "json"],
                    ["split", "--games", "1", "--out-dir", tmp_path / "parts"]):
        result = run(*command, path, "--where", "tag.Round >= 3")
        assert (result.exit_code, result.stderr) == (0, ""), result.output
    assert run("filter", path, "--where", "tag.Round >= 3", "--count").stdout == "2\n"
    assert sorted(p.name for p in (tmp_path / "parts").iterdir()) == [".mancala-split", "00001.pmn", "00002.pmn"]


@pytest.mark.parametrize("where, column, digits", [
    (f"tag.Round >= {LONG}", 14, "5,000"), (f"plies < -{LONG}1", 9, "5,001"), ("tag.Round = " + "1" * 41, 13, "41")])
def test_a_number_of_too_many_digits_in_an_expression_is_one_line(tmp_path, where, column, digits):
    message = f"a number has at most 40 digits (got one of {digits}) at column {column}"
    with pytest.raises(mancala.BadQuery) as caught:
        Criteria.where(where)
    assert (str(caught.value), caught.value.column) == (message, column)
    path = tmp_path / "rounds.pmn"
    path.write_text(_rounds("3"), encoding="utf-8")
    for command in (["validate"], ["filter"], ["stats"], ["split", "--games", "1", "--out-dir", tmp_path / "p"]):
        result = run(*command, path, "--where", where)
        assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"mancala: error: --where: {message}\n")
    assert Criteria.where("tag.Round = " + "1" * 40).matches(next(mancala.read(_rounds("1" * 40))))


# -- the documentation ---------------------------------------------------------------------

def _commands_page():
    return (ROOT / "docs" / "commands" / "filter.md").read_text(encoding="utf-8")


def test_every_where_expression_in_the_documentation_compiles():
    expressions = re.findall(r"--where '([^']+)'", _commands_page() + (ROOT / "README.md").read_text(encoding="utf-8"))
    assert len(expressions) >= 8
    for expression in expressions:
        Criteria.where(expression)


def _where_examples():
    section = _commands_page().split("## Choosing games: `--where`")[1].split("\n## ")[0]
    steps = []
    for body in re.findall(r"```console\n(.*?)```", section, re.S):
        for line in body.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            else:
                steps[-1][1].append(line)
    return steps


@pytest.mark.skipif(not (BIN / "mancala").exists(), reason="mancala is not installed beside this Python")
@pytest.mark.parametrize("command, shown", _where_examples())
def test_the_where_examples_run_as_shown(command, shown):
    words = shlex.split(command)
    assert words[0] == "mancala" and "--where" in words
    done = subprocess.run([str(BIN / "mancala"), *words[1:]], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == shown
