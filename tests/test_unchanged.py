"""Every command's output on every example, on random games and on damaged
input is stored in ``tests/outputs/`` and must stay the same, byte for byte
(standard output, standard error and exit status).

Regenerate after a deliberate change of some output with
``MANCALA_UPDATE_OUTPUTS=1 .venv/bin/pytest tests/test_unchanged.py`` and
read the diff before committing.
"""
from __future__ import annotations

import hashlib
import os
import pathlib
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from mancala_cli.cli.commands import whole

app = whole()

ROOT = pathlib.Path(__file__).resolve().parents[1]
STORED = ROOT / "tests" / "outputs"
UPDATE = os.environ.get("MANCALA_UPDATE_OUTPUTS") == "1"
GAMES = ("kimasai-mackay", "kimasai-klamroth", "kingulu")
EXAMPLES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "examples").rglob("*.pmn"))

#: Damaged records (each followed by an intact game), as the damaged-input tests make them.
INTACT = '[Game "kingulu"]\n[Event "intact"]\n[Result "*"]\n\n1. c1x6 d2 2. e1 *\n'
DAMAGED = {
    "unclosed-comment": '[Game "kingulu"]\n\n1. c1x6 {never closed\nd2 *\n',
    "unclosed-variation": '[Game "kingulu"]\n\n1. c1x6 (1. d1x6 d2\n',
    "unclosed-tag": '[Game "kingulu"\n[Event "x"]\n\n1. c1x6 *\n',
    "unknown-token": '[Game "kingulu"]\n\n1. c1x6 @@ d2 *\n',
    "illegal-move": '[Game "kingulu"]\n\n1. c1x6 c1 *\n',
    "bad-mark": '[Game "kingulu"]\n\n1. c1x5 d2 *\n',
    "bad-hole": '[Game "kingulu"]\n\n1. z9 *\n',
    "no-result": '[Game "kingulu"]\n\n1. c1x6 d2\n',
    "unknown-game": '[Game "oware"]\n\n1. a1 *\n',
    "bad-setup": '[Game "kingulu"]\n[Setup "1,2,3"]\n\n1. c1 *\n',
    "result-mismatch": '[Game "kingulu"]\n[Result "1-0"]\n\n1. c1x6 0-1\n',
    "junk": 'hello there\n\n',
    "bad-bytes": '[Game "kingulu"]\n[Event "caf\udce9"]\n\n1. c1x6 *\n',
    "deep-variation": '[Game "kingulu"]\n\n1. c1x6 ' + "(1. d1x6 " * 1200 + ")" * 1200 + " *\n",
    "empty": "",
}


def _random_games(game: str) -> str:
    """Ten random games of ``game`` with a fixed seed."""
    done = subprocess.run([sys.executable, "-m", "mancala_cli", "random", "--game", game, "-n", "10",
                           "--seed", "2026"], capture_output=True, check=True, text=True, timeout=120)
    return done.stdout


def _cases() -> dict[str, tuple[list[str], bytes | None]]:
    """name: (arguments, standard input)."""
    cases: dict[str, tuple[list[str], bytes | None]] = {"games": (["games"], None),
                                                         "games-json": (["games", "--format", "json"], None)}
    for game in GAMES:
        cases[f"moves-{game}"] = (["moves", "--game", game], None)
        cases[f"moves-{game}-relative"] = (["moves", "--game", game, "--coords", "relative"], None)
        cases[f"perft-{game}"] = (["perft", "--game", game, "--depth", "3"], None)
        cases[f"random-{game}"] = (["random", "--game", game, "-n", "10", "--seed", "2026"], None)
        cases[f"render-start-{game}"] = (["render", "--game", game, "--position",
                                          _start(game)], None)
        cases[f"render-start-{game}-text"] = (["render", "--game", game, "--position", _start(game),
                                               "--format", "text", "--flip"], None)
    for path in EXAMPLES:
        name = pathlib.Path(path).stem
        cases[f"validate-{name}"] = (["validate", path], None)
        cases[f"validate-{name}-json"] = (["validate", "--format", "json", path], None)
        for target in ("pmn", "json", "xml"):
            cases[f"convert-{name}-{target}"] = (["convert", "--to", target, path], None)
        cases[f"convert-{name}-json-positions"] = (["convert", "--to", "json", "--positions", path], None)
        cases[f"convert-{name}-xml-positions"] = (["convert", "--to", "xml", "--positions", path], None)
        cases[f"convert-{name}-pmn-numeric"] = (["convert", "--to", "pmn", "--coords", "numeric", path], None)
        cases[f"convert-{name}-pmn-relative"] = (["convert", "--to", "pmn", "--coords", "relative", path], None)
        cases[f"render-{name}"] = (["render", path], None)
        cases[f"render-{name}-ply1-flip"] = (["render", path, "--ply", "1", "--flip"], None)
        cases[f"render-{name}-text"] = (["render", path, "--format", "text"], None)
    for name, text in DAMAGED.items():
        data = (text + ("\n" + INTACT if text else "")).encode("utf-8", "surrogateescape")
        cases[f"damaged-{name}-validate"] = (["validate", "-"], data)
        cases[f"damaged-{name}-validate-json"] = (["validate", "--format", "json", "-"], data)
        cases[f"damaged-{name}-convert-json"] = (["convert", "--to", "json", "-"], data)
        cases[f"damaged-{name}-convert-pmn"] = (["convert", "--to", "pmn", "-"], data)
    return cases


def _start(game: str) -> str:
    from mancala_cli import get_game
    from notation.position_strings import format_position
    rules = get_game(game)
    return format_position(rules, rules.start())


CASES = _cases()
RANDOM_CASES = [(game, what) for game in GAMES for what in ("validate", "json-positions", "xml", "render",
                                                              "render-text")]


def _run(args: list[str], data: bytes | None) -> bytes:
    result = CliRunner().invoke(app, args, input=data)
    return (b"== stdout\n" + result.stdout_bytes + b"== stderr\n" + result.stderr_bytes
            + f"== exit {result.exit_code}\n".encode())


def _compare(name: str, output: bytes) -> None:
    path = STORED / f"{name}.out"
    if UPDATE:
        STORED.mkdir(exist_ok=True)
        path.write_bytes(output)
    assert path.exists(), f"no stored output {path.name}: run with MANCALA_UPDATE_OUTPUTS=1"
    stored = path.read_bytes()
    if output != stored:
        # Show where they part, not the whole of both.
        at = next(k for k in range(min(len(output), len(stored)) + 1)
                  if k == min(len(output), len(stored)) or output[k] != stored[k])
        pytest.fail(f"{name}: output differs from {path.name} at byte {at}: "
                    f"{output[max(0, at - 60):at + 60]!r} != {stored[max(0, at - 60):at + 60]!r}")


@pytest.mark.parametrize("name", sorted(CASES))
def test_output_is_unchanged(name, monkeypatch):
    monkeypatch.chdir(ROOT)
    args, data = CASES[name]
    _compare(name, _run(args, data))


@pytest.fixture(scope="module")
def random_records(tmp_path_factory) -> dict[str, pathlib.Path]:
    folder = tmp_path_factory.mktemp("random")
    paths = {}
    for game in GAMES:
        paths[game] = folder / f"{game}.pmn"
        paths[game].write_text(_random_games(game), encoding="utf-8")
    return paths


@pytest.mark.parametrize("game,what", RANDOM_CASES)
def test_random_game_output_is_unchanged(game, what, random_records, monkeypatch):
    monkeypatch.chdir(random_records[game].parent)
    path = random_records[game].name
    args = {"validate": ["validate", path], "json-positions": ["convert", "--to", "json", "--positions", path],
            "xml": ["convert", "--to", "xml", path], "render": ["render", path, "--index", "10"],
            "render-text": ["render", path, "--format", "text", "--index", "3"]}[what]
    _compare(f"random-{game}-{what}", _run(args, None))


def test_render_all_is_unchanged(tmp_path):
    """Every diagram of an annotated game, as one digest per file (not the
    folder's list of the diagrams render wrote, ``.mancala-render``, whose
    inodes and times differ from run to run)."""
    for path in EXAMPLES:
        if "annotated" not in path:
            continue
        out = tmp_path / pathlib.Path(path).stem
        result = CliRunner().invoke(app, ["render", str(ROOT / path), "--all", "--out-dir", str(out)])
        assert result.exit_code == 0, result.output
        digests = "".join(f"{p.name} {hashlib.sha256(p.read_bytes()).hexdigest()}\n"
                          for p in sorted(out.iterdir()) if p.name != ".mancala-render")
        _compare(f"render-all-{out.name}", digests.encode())
