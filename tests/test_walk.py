"""The one walk over a record's moves (notation.record.walk and visit), and
the order in which the checker and the XML writer report what they find."""
import doctest
import io
import json

import pytest

import notation.record
from mancala_cli.checking import replay
from notation.jsonl import json_records, record_to_json
from notation.notation_errors import XMLArchiveError
from notation.pmn_reader import read_game
from notation.record import BEGIN, END, MOVE, SKIP, GameRecord, MoveNode, Step, Visitor, visit, walk
from notation.xml_writer import write_archive


def test_the_doctests_of_the_record_module_pass():
    failed, tried = doctest.testmod(notation.record)
    assert (failed, tried >= 6) == (0, True)


def test_walk_numbers_moves_from_the_given_side_and_number():
    record = read_game('[Game "kingulu"]\n\n7... a2 (7... b2 (7... c2) 8. d1) 8. e1 f2 *\n')
    record.moves[0].variations[0][0].variations.append([])  # an empty variation
    got = [(s.kind, s.node.hole, s.ply, s.side, s.number, s.depth) for s in walk(record, side="N", number=7)]
    assert got == [
        (MOVE, "a2", 1, "N", 7, 0),
        (BEGIN, "a2", 1, "N", 7, 1), (MOVE, "b2", 1, "N", 7, 1),
        (BEGIN, "b2", 1, "N", 7, 2), (MOVE, "c2", 1, "N", 7, 2), (END, "b2", 1, "N", 7, 2),
        (BEGIN, "b2", 1, "N", 7, 2), (END, "b2", 1, "N", 7, 2),
        (MOVE, "d1", 2, "S", 8, 1), (END, "a2", 1, "N", 7, 1),
        (MOVE, "e1", 2, "S", 8, 0), (MOVE, "f2", 3, "N", 8, 0),
    ]


def test_walk_and_visit_take_variations_nested_far_deeper_than_the_recursion_limit():
    moves = [MoveNode("a1")]
    inner = moves
    for _ in range(5000):
        branch = [MoveNode("b1")]
        inner[0].variations.append(branch)
        inner = branch
    kinds = [s.kind for s in walk(moves)]
    assert (kinds.count(MOVE), kinds.count(BEGIN), kinds.count(END)) == (5001, 5000, 5000)
    assert max(s.depth for s in walk(moves)) == 5000

    class Deepest(Visitor[int]):
        def __init__(self) -> None:
            self.deepest = 0

        def visit_move(self, step: Step) -> None:
            self.deepest = max(self.deepest, step.depth)

        def result(self) -> int:
            return self.deepest

    assert visit(moves, Deepest()) == 5000


def test_a_skipped_variation_is_neither_visited_nor_ended():
    record = read_game('[Game "kingulu"]\n\n1. c1 (1. d1 (1. e1) 1... a2) (1. f1) 1... b2 *\n')

    class Log(Visitor[list]):
        def __init__(self) -> None:
            self.log: list = []

        def visit_move(self, step: Step) -> None:
            self.log.append(step.node.hole)

        def begin_variation(self, step: Step):
            self.log.append("(")
            return SKIP if step.depth == 1 and len(self.log) == 2 else None

        def end_variation(self, step: Step) -> None:
            self.log.append(")")

        def result(self) -> list:
            return self.log

    assert visit(record, Log()) == ["c1", "(", "(", "f1", ")", "b2"]


def _json_record(pmn: str) -> GameRecord:
    line = record_to_json(read_game(pmn), "kingulu", None)
    (record,) = json_records([line], "game.jsonl")
    assert all(s.node.column == 1 and s.node.line == 1 for s in walk(record))
    return record


def test_the_checker_reports_a_whole_line_then_its_variations_the_last_first():
    # Every node of a JSON record is on line 1, column None: a sort by place
    # keeps this order. Lines: the main line (c1, a2, b1), then the variations
    # of its moves from the last: (f2), (c2 with its (d2)), (d1).
    pmn = ('[Game "kingulu"]\n\n1. c1x5 (1. d1x5) 1... a2x2 (1... c2x3 (1... d2x4)) (1... f2x7) '
           '2. b1x9 *\n')
    for record in (read_game(pmn), _json_record(pmn)):
        report = replay(record)
        assert [(p.code, p.move, p.ply) for p in report.problems] == [
            ("bad-mark", "c1x5", 1), ("bad-mark", "a2x2", 2), ("bad-mark", "b1x9", 3),
            ("bad-mark", "f2x7", 2), ("bad-mark", "c2x3", 2), ("bad-mark", "d2x4", 2),
            ("bad-mark", "d1x5", 1)]


def test_a_move_that_cannot_be_played_ends_its_line_but_not_its_own_variations():
    pmn = '[Game "kingulu"]\n\n1. c1 e2 (1... a2x5 (1... l9)) (1... f2x3) 2. b1x3 (2. k1) 2... c2x4 *\n'
    for record in (read_game(pmn), _json_record(pmn)):
        report = replay(record, fill_positions=True)
        assert [(p.code, p.move) for p in report.problems] == [
            ("KG-EMPTY", "e2"), ("bad-mark", "f2x3"), ("bad-mark", "a2x5"), ("bad-hole", "l9")]
        assert len(report.moves) == 1 and report.outcome is None
        main = report.record.moves
        assert [node.position is not None for node in main] == [True, False, False, False]
        assert main[1].variations[0][0].position == "0,0,6,6,0,2/0,7,3,8,0,7 S 7-2 2"


def test_the_xml_writer_refuses_a_record_for_the_fault_of_its_main_line_first():
    record = read_game('[Game "kingulu"]\n\n1. c1 (1. d1 $3 (1. e1 $4)) 1... a2 2. b1 *\n')
    variation = record.moves[0].variations[0][0]
    variation.nags = [300]
    variation.variations[0][0].nags = [301]
    record.moves[2].nags = [302]
    with pytest.raises(XMLArchiveError, match=r"move 'b1': NAG \$302"):
        write_archive([record], io.BytesIO())
    record.moves[2].nags = []
    with pytest.raises(XMLArchiveError, match=r"move 'd1': NAG \$300"):
        write_archive([record], io.BytesIO())
    variation.nags = []
    with pytest.raises(XMLArchiveError, match=r"move 'e1': NAG \$301"):
        write_archive([record], io.BytesIO())


def test_json_moves_carry_the_ply_and_side_of_the_walk():
    record = read_game('[Game "kingulu"]\n\n1... a2 (1... b2 2. c1) 2. d1 *\n')
    obj = json.loads(record_to_json(record, "kingulu", "4,4,4,4,4,4/4,4,4,4,4,4 N 0-0 1"))
    first, second = obj["moves"]
    (variation,) = first["variations"]
    assert [(m["move"], m["ply"], m["side"]) for m in (first, second, *variation)] == [
        ("a2", 1, "N"), ("d1", 2, "S"), ("b2", 1, "N"), ("c1", 2, "S")]
