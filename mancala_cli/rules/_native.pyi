# The native kernel's interface (mancala_cli/rules/_native.c and the units beside it).
from typing import Any

SOURCE_DIGEST: str
LAP_LIMIT: int
WATCH_FROM: int
# The codes of the illegal moves (native.h).
ERR_ORIGIN: int
ERR_EMPTY: int
ERR_RESERVED: int
ERR_BLOCKED: int
ERR_FIRSTLAP: int
ERR_ENDLESS_LIMIT: int
ERR_ENDLESS_REPEAT: int
# The search's (solver.py's ETC, HISTORY, PN, PN_INF, HISTORY_MAX, CLOCK_EVERY, PROGRESS_EVERY).
ETC: int
HISTORY: int
PN: int
PN_INF: int
HISTORY_MAX: int
CLOCK_EVERY: int
PROGRESS_EVERY: int
# The endgame tables' (tablebase.py's MAX_STONES, PLACES, DEEP, WIN, DRAW, LOSS).
TABLEBASE_MAX_STONES: int
TABLEBASE_PLACES: int
TABLEBASE_DEEP: int
TABLEBASE_WIN: int
TABLEBASE_DRAW: int
TABLEBASE_LOSS: int

def init(move: type, position: type, south: str, north: str) -> None: ...
def move(game: int, now: Any, origin: int, lap_limit: int = ...) -> Any: ...
def successors(game: int, position: Any, positions: bool, lap_limit: int = ...) -> list[Any] | None: ...
def ended(game: int, holes: Any, side: str) -> bool | None: ...
def play_line(game: int, now: Any, origins: bytes, marks: bytes, lap_limit: int, history: set[Any] | None,
              moves: list[Any]) -> tuple[int, int]: ...
def entry_bytes() -> int: ...
def tablebase_build(stones: int, out: Any, progress: Any) -> None: ...
def tablebase_use(data: Any, stones: int) -> None: ...
def tablebase_probe(holes: Any, side: str) -> int | None: ...

class Search:
    nodes: int
    stopped: bool
    entries: int
    table_bytes: int
    def __init__(self, game: int, max_entries: int, max_plies: int, node_limit: int, deadline: float,
                 progress: Any, max_bytes: int = ..., features: int = ...) -> None: ...
    def root(self, position: Any) -> None: ...
    def search(self, position: Any, depth: int, alpha: int, beta: int, past: Any, ply: int,
               nodes: int) -> tuple[int, int]: ...
    def dump(self, write: Any) -> tuple[int, int]: ...
    def load(self, read: Any, records: int, checksum: int) -> int: ...

def __getattr__(name: str) -> Any: ...
