"""The native kernel as an extension module (docs/native.md): multi-phase
init with the state in each module object, the constants the pure modules
must agree on, and native.py reading the codes of the illegal moves from the
module rather than from copies of its own. The run with ``MANCALA_PURE=1``
skips the file."""
import gc
import importlib.util
import os
import sys
import types
import weakref

import pytest

from mancala_cli.rules.board import NORTH, SOUTH
from mancala_cli.rules.game import LAP_LIMIT, WATCH_FROM, Move
from mancala_cli.rules.position import MutablePosition, Position
from mancala_cli.solving import alpha_beta, endgame as tablebase, proof_numbers, search

native = pytest.importorskip("mancala_cli.rules.native", reason="the native kernel is not built here")
from mancala_cli.rules import _native  # noqa: E402

pytestmark = pytest.mark.skipif(os.environ.get("MANCALA_PURE", "") not in ("", "0"),
                                reason="the run on the default core has the kernel")

#: Each code of an illegal move, and the rule id of the error native.py makes of it.
CODES = {"ERR_ORIGIN": "KG-ORIGIN", "ERR_EMPTY": "KG-EMPTY", "ERR_RESERVED": "KG-RESERVED",
         "ERR_BLOCKED": "KK-BLOCKED", "ERR_FIRSTLAP": "KG-FIRSTLAP", "ERR_ENDLESS_LIMIT": "ENDLESS",
         "ERR_ENDLESS_REPEAT": "ENDLESS"}


def _another_instance():
    """A second module object of the same extension (multi-phase init makes
    a new one, with its own state, each time)."""
    spec = importlib.util.find_spec(_native.__name__)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_module_exports_the_codes_of_the_illegal_moves():
    codes = {name: getattr(_native, name) for name in CODES}
    assert len(set(codes.values())) == len(codes) and 0 not in codes.values()
    assert sorted(name for name in dir(_native) if name.startswith("ERR_")) == sorted(CODES)


def test_native_py_reads_the_codes_from_the_module(monkeypatch):
    """native.py loaded beside a module whose codes are others: its errors
    follow the module's codes, so it keeps no copy of its own."""
    from mancala_cli import rules

    fake = types.ModuleType(_native.__name__)
    fake.__dict__.update({name: value for name, value in vars(_native).items() if not name.startswith("__")})
    for name in CODES:
        setattr(fake, name, getattr(_native, name) + 100)
    monkeypatch.setattr(rules, "_native", fake)
    monkeypatch.setitem(sys.modules, _native.__name__, fake)
    spec = importlib.util.spec_from_file_location("mancala_cli.rules._native_codes_copy", native.__file__)
    copy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(copy)
    game = copy.game_class("Kingulu")()
    now = MutablePosition(game.start())
    for name, rule in CODES.items():
        error = game._illegal((getattr(fake, name), 1, 2, 1), now, 0, None)
        assert error.rule == rule, name
    limit = game._illegal((fake.ERR_ENDLESS_LIMIT, 1, 2, 1), now, 0, None)
    repeat = game._illegal((fake.ERR_ENDLESS_REPEAT, 1, 2, 1), now, 0, None)
    assert "limit" in str(limit) and "repeats the end of lap 1" in str(repeat)


def test_the_constants_both_cores_share():
    assert (_native.LAP_LIMIT, _native.WATCH_FROM) == (LAP_LIMIT, WATCH_FROM)
    assert (_native.ETC, _native.HISTORY, _native.PN) == (alpha_beta.ETC, alpha_beta.HISTORY, proof_numbers.PN)
    assert (_native.PN_INF, _native.HISTORY_MAX) == (proof_numbers.PN_INF, alpha_beta.HISTORY_MAX)
    assert (_native.CLOCK_EVERY, _native.PROGRESS_EVERY) == (search.CLOCK_EVERY, search.PROGRESS_EVERY)
    assert (_native.TABLEBASE_MAX_STONES, _native.TABLEBASE_PLACES, _native.TABLEBASE_DEEP) == (
        tablebase.MAX_STONES, tablebase.PLACES, tablebase.DEEP)
    assert (_native.TABLEBASE_WIN, _native.TABLEBASE_DRAW, _native.TABLEBASE_LOSS) == (
        tablebase.WIN, tablebase.DRAW, tablebase.LOSS)


def test_each_module_object_has_its_own_state():
    other = _another_instance()
    assert other is not _native and other.Search is not _native.Search
    assert other.Search.__module__ == _native.Search.__module__ == "mancala_cli.rules._native"
    # native.py initialised the first one; the second knows no classes yet.
    with pytest.raises(RuntimeError, match="the kernel is not initialised"):
        other.Search(2, 1000, 10, -1, -1.0, None)
    with pytest.raises(RuntimeError, match="the kernel is not initialised"):
        other.tablebase_probe((0,) * 48, "S")
    _native.Search(2, 1000, 10, -1, -1.0, None)
    # A table in use by one module is not the other's.
    other.init(Move, Position, SOUTH, NORTH)
    stones = 2
    data = bytearray(tablebase.entries(stones))
    other.tablebase_build(stones, data, None)
    holes = [0] * 48
    holes[0] = holes[47] = 1  # a stone of each side: a position of the table
    _native.tablebase_use(None, 0)  # (as a search without a table sets it)
    other.tablebase_use(data, stones)
    assert other.tablebase_probe(holes, "S") is not None
    assert _native.tablebase_probe(holes, "S") is None
    other.tablebase_use(None, 0)


def test_a_search_and_its_progress_callback_are_collected_together():
    """Search is a garbage-collected heap type: a cycle through its progress
    callback (as a solver and its search make) does not keep it alive."""

    class Holder:
        pass

    def made():
        holder = Holder()
        holder.search = _native.Search(2, 1000, 10, -1, -1.0, lambda nodes: holder)
        return weakref.ref(holder)

    gone = made()
    gc.collect()
    assert gone() is None
