import os
import pathlib
import pty
import subprocess

import pytest

from mancala_cli import IllegalMove, Line, format_position, get_game, parse_position

ROOT = pathlib.Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CONFORMANCE = SHARED / "conformance"


def conformance_dir() -> pathlib.Path:
    """The shared conformance records; skip when this clone has none."""
    if not CONFORMANCE.is_dir():
        pytest.skip("../shared/conformance is absent (it exists only beside the project's own clone)")
    return CONFORMANCE


def play(game_id: str, start: str, *holes: str):
    """Play ``holes`` from position string ``start``: (last move, position string)."""
    game = get_game(game_id)
    line = Line(game, parse_position(game, start))
    move = None
    for hole in holes:
        move = line.play(game.board.index_of(hole))
    return move, format_position(game, line.position)


def marks(game_id: str, position: str) -> list[str]:
    from notation.coords import format_move
    game = get_game(game_id)
    pos = parse_position(game, position)
    return [format_move(game.board, m, "algebraic", pos.side) for m in game.legal_moves(pos)]


def illegal(game_id: str, position: str, hole: str) -> IllegalMove:
    """The error of playing ``hole`` in ``position`` (the test fails if it is legal)."""
    game = get_game(game_id)
    with pytest.raises(IllegalMove) as caught:
        game.play(parse_position(game, position), game.board.index_of(hole))
    return caught.value


def on_terminal(command: list[str], env: dict[str, str] | None = None) -> tuple[bytes, bytes]:
    """Run ``command`` with its standard error on a pseudo-terminal: what it
    wrote to standard output (a pipe) and what the terminal saw."""
    master, slave = pty.openpty()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    out = child.communicate(timeout=60)[0]
    os.close(master)
    return out, seen
