"""The library's solve and annotate with what the command line gives them:
endgame tables (``tablebase=``, as ``--tablebase``), a table file that a
search goes on from (``table=``, as ``--table``) and proof files
(``proofs=``, as ``--proof``). Runs on both cores."""
from __future__ import annotations

import pathlib
import random

import pytest

import mancala_cli
from mancala_cli import get_game
from mancala_cli.rules.position import Position
from mancala_cli.rules.selection import CORE
from mancala_cli.solving.cluster_search import ClusterSolveError
from mancala_cli.solving.endgame import Tablebase, TablebaseError
from mancala_cli.solving.proofs import NoProof, ProofError
from mancala_cli.solving.table_file import TableFileError
from notation.pmn_reader import read_game

ROOT = pathlib.Path(__file__).resolve().parents[1]
KLAMROTH = get_game("kimasai-klamroth")
STONES = 5 if CORE == "native" else 4


@pytest.fixture(scope="module")
def table_file(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    path = tmp_path_factory.mktemp("tables") / f"kk{STONES}.tb"
    Tablebase.build(STONES).write(str(path))
    return path


#: The node limit of a search here: the pure core is far slower.
#: (The search's proof-number phase proves as many of the six positions
#: without the tables as with them at 200,000 nodes: a budget where the
#: tables still decide.)
LIMIT = 50_000 if CORE == "native" else 20_000
SEEDS = 10 if CORE == "native" else 6


def endgame(seed: int) -> Position:
    """A position with one stone more than the table holds: two of South's,
    the rest North's."""
    rng = random.Random(seed)
    holes = [0] * 48
    for hole in rng.sample(range(24), 2) + rng.sample(range(24, 48), STONES - 1):
        holes[hole] = 1
    return Position(tuple(holes), "S", (21, 24 - STONES), 60)


def test_solve_with_the_tables_proves_more_in_fewer_nodes(table_file):
    proven = {"without": 0, "with": 0}
    nodes = {"without": 0, "with": 0}
    for seed in range(SEEDS):
        position = endgame(seed)
        plain = mancala_cli.solve(position, game="kimasai-klamroth", nodes=LIMIT, time=None)
        told = mancala_cli.solve(position, game="kimasai-klamroth", nodes=LIMIT, time=None, tablebase=table_file)
        if "unknown" not in (plain.result, told.result):
            assert told.result == plain.result
        for name, solution in (("without", plain), ("with", told)):
            proven[name] += solution.result != "unknown"
            nodes[name] += solution.nodes
    assert proven["with"] > proven["without"] and nodes["with"] < nodes["without"]
    # a table given as an object, not a path, is the same
    again = mancala_cli.solve(endgame(1), game="kimasai-klamroth", nodes=LIMIT, time=None,
                              tablebase=Tablebase.read(str(table_file)))
    first = mancala_cli.solve(endgame(1), game="kimasai-klamroth", nodes=LIMIT, time=None, tablebase=table_file)
    assert (again.result, again.nodes) == (first.result, first.nodes)


def test_solve_refuses_a_file_that_is_not_a_table(tmp_path):
    bad = tmp_path / "kk.tb"
    bad.write_bytes(b"not a table\n")
    with pytest.raises(TablebaseError) as caught:
        mancala_cli.solve(endgame(0), game="kimasai-klamroth", nodes=10, tablebase=bad)
    # The library's one except catches it, and so does the usual Python one.
    assert isinstance(caught.value, mancala_cli.MancalaError) and isinstance(caught.value, ValueError)


def test_the_search_files_errors_are_the_librarys_errors():
    """The errors of the search's files and runs derive from MancalaError
    (and ValueError, the usual Python error for a bad file, where they did)."""
    for error in (TablebaseError, ProofError, NoProof, TableFileError):
        assert issubclass(error, mancala_cli.MancalaError) and issubclass(error, ValueError), error
    assert issubclass(ClusterSolveError, mancala_cli.MancalaError)


def test_solve_goes_on_from_its_table_file(tmp_path):
    position = "0,0,0,0,3,2/1,0,0,0,0,2 S 20-20 12"
    whole = mancala_cli.solve(position, game="kingulu", time=None)
    path = tmp_path / "search.table"
    cut = mancala_cli.solve(position, game="kingulu", nodes=3, time=None, table=path)
    assert cut.stopped == "nodes" and path.exists()
    resumed = mancala_cli.solve(position, game="kingulu", time=None, table=path)
    assert (resumed.result, resumed.moves, resumed.best) == (whole.result, whole.moves, whole.best)
    assert resumed.complete


def test_annotate_takes_what_the_searches_leave_unknown_from_the_proofs():
    record = read_game((ROOT / "examples" / "kingulu-relative.pmn").read_text(encoding="utf-8"))
    proofs = sorted(ROOT.glob("docs/kingulu-proof*.txt.xz"))
    assert len(proofs) == 4
    plain = mancala_cli.annotate(record, nodes=20_000, time=None)
    told = mancala_cli.annotate(record, nodes=20_000, time=None, proofs=proofs)
    # The searches alone prove nothing at the start; the proofs say the
    # start is South's win and that 1. d1x6 throws it away (c1x6 keeps it).
    assert plain.moves[0].glyphs == [] and told.moves[0].glyphs == ["??"]
    assert "Proven:" not in mancala_cli.write(plain).split(" 1. ", 1)[0]
    assert mancala_cli.write(told).split(" 1. ", 1)[0].endswith("advise.\nProven: win for South}")
    # the end, proven by the searches alone, is the same either way
    assert [m.glyphs for m in told.moves][-2:] == [m.glyphs for m in plain.moves][-2:] == [["?"], ["!"]]
    # a ProofBook object does the same as the paths
    from mancala_cli.solving.proofs import ProofBook

    book = ProofBook.read([str(path) for path in proofs])
    assert mancala_cli.write(mancala_cli.annotate(record, nodes=20_000, time=None, proofs=book)) == \
        mancala_cli.write(told)
