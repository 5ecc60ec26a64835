"""The native tokenizer (notation/_tokenize.c) against the pure one, which is
the reference: the same moves, result tokens and places where other text
starts on every line; the same records (moves, columns, problems and their
places) from the fuzz corpus, every PMN file of the tests, the examples and
the shared conformance records; and the checker's native runs of plain
moves (``plain_run`` with the kernel's ``play_line``) give the same
replays (moves, problems with their rule ids, messages and places,
outcomes) as move-by-move replay.

Both run in this one process; where the native tokenizer is not in use
(no compiler, or ``MANCALA_PURE=1``) the comparisons skip and only the
choice of tokenizer is checked.
"""
import io
import os
import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import notation.pmn_movetext as pmn
from mancala_cli import checking, get_game
from mancala_cli.checking import replay
from mancala_cli.random_records import random_game
from notation import tokenizer
from notation.grammar import PLAIN_LINE_RE
from notation.pmn_reader import read_games
from notation.pmn_writer import write_game
from notation.record import MoveNode

from .conftest import CONFORMANCE, ROOT

NATIVE = pmn._SCAN
native_only = pytest.mark.skipif(NATIVE is None, reason="the native tokenizer is not in use here")


def test_mancala_pure_selects_the_pure_tokenizer():
    code = "from notation import tokenizer; print(tokenizer.TOKENIZER)"
    env = {**os.environ, "MANCALA_PURE": "1"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env)
    assert done.stdout == "pure\n", done.stderr


def test_a_tokenizer_built_from_another_source_is_not_used(tmp_path):
    (tmp_path / tokenizer.SOURCE).write_text("/* one */\n")
    digest = tokenizer.source_digest(str(tmp_path))
    assert digest is not None and len(digest) == 64
    (tmp_path / tokenizer.SOURCE).write_text("/* two */\n")
    assert tokenizer.source_digest(str(tmp_path)) != digest
    assert tokenizer.source_digest(str(tmp_path / "elsewhere")) is None
    if NATIVE is not None:  # the one in use was built from the source beside it
        assert tokenizer.kernel.SOURCE_DIGEST == tokenizer.source_digest(os.path.dirname(tokenizer.__file__))


# -- one line --------------------------------------------------------------------


def pure_scan(line, pos, end, lineno):
    """What the pure reader's plain_moves reads: (moves, other, result, column)."""
    moves = []
    for m in PLAIN_LINE_RE.finditer(line, pos, end):
        number, dots, hole, cap, res, result, other = m.groups()
        if hole is not None:
            moves.append(MoveNode(hole, None, None if cap is None else int(cap), res is not None, [], [], None,
                                  None, [], None if number is None else int(number), dots, lineno,
                                  m.start(3) + 1))
            continue
        if result is not None:
            return moves, -1, result, m.start(6) + 1
        return moves, m.start(7), None, 0
    return moves, -1, None, 0


def native_scan(line, pos, end, lineno):
    moves = []
    count, other, result, col = NATIVE(line, pos, end, lineno, moves)
    assert count == len(moves)
    return moves, other, result, col


#: Pieces of movetext, plain and nearly plain, and the white space between them
#: (Unicode white space too: the regular expressions' \s).
WORDS = st.sampled_from([
    "1.", "12.", "12...", "1..", "123456789.", "1234567890.", "c1", "d2x6", "l9x0", "a1^", "f1x12^", "S7", "N12x3^",
    "14", "99999999999", "m1", "S", "N", "x", "^", "x5", "c1x", "c1x1234567890", "c1x123456789", "c1^x2", "c1!",
    "c1?!", "b2-a2", "14-13", "1-0", "0-1", "1/2-1/2", "*", "1-01", "**", "{c}", "(", ")", ";", "$3", "é", "٣",
    "c٣", "12.c1", "12...d2x10^", "7.S3", "9", "0", "00", "c01"])
SPACES = st.sampled_from([" ", "  ", "\t", "", "\u00a0", "\u2003", "\x1c", "\x85", "\u3000", " \t "])


@native_only
@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(SPACES, WORDS), max_size=30), st.sampled_from(["", " ", "\t", "\u00a0"]),
       st.integers(0, 6), st.integers(0, 6), st.integers(1, 10 ** 6))
def test_a_line_scans_the_same(words, tail, skip, cut, lineno):
    line = "".join(s + w for s, w in words) + tail
    pos = min(skip, len(line))
    for end in (len(line), len(line.rstrip()), max(pos, len(line) - cut)):
        assert native_scan(line, pos, end, lineno) == pure_scan(line, pos, end, lineno), (line, pos, end)


@native_only
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet="0123456789abclmxSN^.-/*! \t\u00a0{}()$", max_size=60))
def test_any_text_scans_the_same(line):
    end = len(line.rstrip())
    assert native_scan(line, 0, end, 3) == pure_scan(line, 0, end, 3)
    assert native_scan(line, 0, len(line), 3) == pure_scan(line, 0, len(line), 3)


@native_only
def test_scan_makes_the_moves_the_reader_makes():
    moves = []
    assert NATIVE("1. c1x6 d2^ 2... S12x10^ 1-0", 0, 28, 7, moves) == (3, -1, "1-0", 26)
    assert moves == [MoveNode("c1", captured=6, number=1, dots=".", line=7, column=4),
                     MoveNode("d2", reserved=True, line=7, column=9),
                     MoveNode("S12", captured=10, reserved=True, number=2, dots="...", line=7, column=18)]
    # each a MoveNode of its own, with lists of its own
    assert len({id(m.glyphs) for m in moves} | {id(m.nags) for m in moves} | {id(m.variations) for m in moves}) == 9
    moves[0].glyphs.append("!")
    assert moves[1].glyphs == [] and moves[0].text == "c1x6"
    assert NATIVE("c1 {x} d2", 0, 9, 1, moves) == (1, 3, None, 0)


# -- whole records ------------------------------------------------------------------


def records_both_ways(text):
    native = list(read_games(io.StringIO(text, newline="")))
    pmn._SCAN = None
    try:
        pure = list(read_games(io.StringIO(text, newline="")))
    finally:
        pmn._SCAN = NATIVE
    return native, pure


#: The PMN files of the project itself (the tests' and the examples').
PROJECT_CORPUS = "project"
#: The shared conformance records, beside the project's own clone only.
SHARED_CORPUS = "shared"


def _corpus_files(corpus):
    """The PMN files of one corpus; the shared one skips where it is absent."""
    if corpus == SHARED_CORPUS:
        if not CONFORMANCE.is_dir():
            pytest.skip("../shared/conformance is absent (it exists only beside the project's own clone)")
        files = sorted(CONFORMANCE.rglob("*.pmn"))
        assert len(files) >= 3
    else:
        files = sorted(p for folder in (ROOT / "tests", ROOT / "examples") for p in folder.rglob("*.pmn"))
        assert len(files) >= 8  # the examples (the broken ones among them) and the tests' own
    return files


@native_only
@pytest.mark.parametrize("corpus", [PROJECT_CORPUS, SHARED_CORPUS])
def test_every_pmn_file_reads_the_same(corpus):
    for path in _corpus_files(corpus):
        text = path.read_text(encoding="utf-8", errors="replace")
        native, pure = records_both_ways(text)
        assert native == pure, path


def _fuzz_corpus(count, seed):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import fuzz
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    seeds = fuzz.seeds()["pmn"]
    rng = random.Random(seed)
    return seeds + [fuzz.mutate(rng.choice(seeds), rng) for _ in range(count)]


@native_only
def test_the_fuzz_corpus_reads_the_same():
    """The mutations of benchmarks/fuzz.py (its seeds, fixed here): the same
    records, problems and their lines and columns included."""
    for text in _fuzz_corpus(4000, 23):
        native, pure = records_both_ways(text)
        assert native == pure, text


PMN_ALPHABET = "abcdefghijklSNx^0123456789 \n\r\t[]{}()\";.-/!?$*\\é\u00a0\ufeff"


@native_only
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=PMN_ALPHABET, max_size=300))
def test_any_text_reads_the_same(text):
    native, pure = records_both_ways(text)
    assert native == pure


# -- replaying runs of plain moves ---------------------------------------------------------


def replays_both_ways(record, **options):
    fast = replay(record, **options)
    checking._PLAIN_RUN, run = None, checking._PLAIN_RUN
    try:
        slow = replay(record, **options)
    finally:
        checking._PLAIN_RUN = run
    return fast, slow


def _same(fast, slow):
    assert fast.problems == slow.problems
    assert fast.moves == slow.moves
    assert fast.outcome == slow.outcome
    assert fast.positions == slow.positions


def _spoilt(record, rng):
    """A record with its marks, holes, numbers and length changed at random:
    marks that differ, illegal moves, moves after the end, wrong numbers."""
    moves = record.moves
    for _ in range(rng.randint(0, 3)):
        if not moves:
            break
        node = rng.choice(moves)
        what = rng.random()
        if what < 0.3:
            node.captured = rng.choice([None, 0, 1, 2, 6, 10, 999999999])
        elif what < 0.5:
            node.reserved = not node.reserved
        elif what < 0.7:
            node.hole = rng.choice(["a1", "b1", "c1", "d2", "f1", "a4", "l4", "e3", "1", "S1", "z9"])
        elif what < 0.85:
            node.number, node.dots = rng.randint(1, 40), rng.choice([".", "..."])
        else:
            del moves[rng.randrange(len(moves)):]
    if rng.random() < 0.3 and moves:  # moves after the game's end, or more of them
        moves.extend(MoveNode(m.hole) for m in moves[-rng.randint(1, min(4, len(moves))):])
    return record


@pytest.mark.skipif(checking._PLAIN_RUN is None, reason="the native tokenizer is not in use here")
@pytest.mark.parametrize("game_id", ["kingulu", "kimasai-mackay", "kimasai-klamroth"])
def test_runs_of_plain_moves_replay_as_move_by_move(game_id, monkeypatch):
    game = get_game(game_id)
    if not getattr(game, "plays_lines", False):
        pytest.skip("the native rules are not in use here")
    run, in_runs = game.play_line, [0]

    def counted(*args):
        played, flag = run(*args)
        in_runs[0] += played
        return played, flag

    monkeypatch.setattr(game, "play_line", counted)
    rng = random.Random(11)
    plies = 0
    for k in range(400):
        record = random_game(game, rng, max_plies=rng.choice([20, 60, 200]))
        plies += len(record.moves)
        if k % 2:
            record = _spoilt(record, rng)
        # through PMN, as validate reads it (numbers and columns written)
        (read,) = read_games(write_game(record))
        fast, slow = replays_both_ways(read)
        _same(fast, slow)
        fast, slow = replays_both_ways(read, positions=True)
        _same(fast, slow)
    assert plies > 8_000
    assert in_runs[0] > plies / 2  # most moves were played in runs


@pytest.mark.skipif(checking._PLAIN_RUN is None, reason="the native tokenizer is not in use here")
@pytest.mark.parametrize("corpus", [PROJECT_CORPUS, SHARED_CORPUS])
def test_every_pmn_file_replays_as_move_by_move(corpus):
    for path in _corpus_files(corpus):
        text = path.read_text(encoding="utf-8", errors="replace")
        for record in read_games(text):
            fast, slow = replays_both_ways(record)
            _same(fast, slow)


@pytest.mark.skipif(checking._PLAIN_RUN is None, reason="the native tokenizer is not in use here")
def test_the_fuzz_corpus_replays_as_move_by_move():
    for text in _fuzz_corpus(1500, 29):
        for record in read_games(text):
            fast, slow = replays_both_ways(record, default_game="kingulu")
            _same(fast, slow)


@pytest.mark.skipif(checking._PLAIN_RUN is None, reason="the native tokenizer is not in use here")
def test_a_lower_lap_limit_stops_the_run_as_it_stops_a_move(monkeypatch):
    """The kernel reads the rules' LAP_LIMIT at each run, as at each move."""
    from mancala_cli.rules import kingulu as rules
    game = get_game("kingulu")
    if not getattr(game, "plays_lines", False):
        pytest.skip("the native rules are not in use here")
    rng = random.Random(5)
    records = [random_game(game, rng, max_plies=80) for _ in range(60)]
    monkeypatch.setattr(rules, "LAP_LIMIT", 2)
    problems = 0
    for record in records:
        (read,) = read_games(write_game(record))
        fast, slow = replays_both_ways(read)
        _same(fast, slow)
        problems += len(fast.problems)  # (the records are valid at the rules' own limit)
    assert problems > 0


@pytest.mark.skipif(checking._PLAIN_RUN is None, reason="the native tokenizer is not in use here")
@pytest.mark.parametrize("number", ["1", "7", "1152921504606846976", "99999999999999999999999"])
def test_a_setup_move_number_of_any_size_replays_as_move_by_move(number):
    text = (f'[Game "kingulu"]\n[Setup "4,4,4,4,4,4/4,4,4,4,4,4 N 0-0 {number}"]\n\n'
            f'{number}... d2x10 {int(number) + 1}. c1 e1 c2x1 *\n')
    (record,) = read_games(text)
    fast, slow = replays_both_ways(record)
    _same(fast, slow)
    assert [p.code for p in fast.problems] == [p.code for p in slow.problems]


@native_only
def test_a_move_class_with_more_fields_is_called_not_filled():
    """The scanner fills a MoveNode's slots itself only when they are exactly
    the fields it knows; a class with another field is called by name."""
    from dataclasses import dataclass, field, fields

    @dataclass(slots=True)
    class Wider:
        hole: str
        destination: str | None = None
        captured: int | None = None
        reserved: bool = False
        glyphs: list = field(default_factory=list)
        nags: list = field(default_factory=list)
        before: str | None = None
        comment: str | None = None
        variations: list = field(default_factory=list)
        number: int | None = None
        dots: str | None = None
        line: int | None = None
        column: int | None = None
        position: str | None = None
        label: str = "made by __init__"

    try:
        tokenizer.kernel.init(Wider)
        moves = []
        assert NATIVE("7... d2x10^ e1", 0, 14, 3, moves) == (2, -1, None, 0)
    finally:
        tokenizer.kernel.init(MoveNode)
    assert [m.label for m in moves] == ["made by __init__"] * 2
    names = [f.name for f in fields(MoveNode)]
    assert [[getattr(m, n) for n in names] for m in moves] == [
        [getattr(m, n) for n in names] for m in (MoveNode("d2", None, 10, True, number=7, dots="...", line=3,
                                                          column=6), MoveNode("e1", line=3, column=13))]


@native_only
def test_each_module_object_of_the_tokenizer_has_its_own_state():
    """Multi-phase init (notation/_tokenize.c): another module object of the
    extension knows no MoveNode class until its own init(), and its init()
    does not change this one's."""
    import importlib.util

    spec = importlib.util.find_spec("notation._tokenize")
    other = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(other)
    assert other is not tokenizer.kernel and other.SOURCE_DIGEST == tokenizer.kernel.SOURCE_DIGEST
    with pytest.raises(RuntimeError, match="the tokenizer is not initialised"):
        other.scan("1. c1", 0, 5, 1, [])

    class Other(MoveNode):
        __slots__ = ()

    other.init(Other)
    theirs, ours = [], []
    assert other.scan("1. c1 d2", 0, 8, 1, theirs) == NATIVE("1. c1 d2", 0, 8, 1, ours) == (2, -1, None, 0)
    assert [type(m) for m in theirs] == [Other, Other] and [type(m) for m in ours] == [MoveNode, MoveNode]
