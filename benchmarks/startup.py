"""Start-up: the wall time of short commands, as ratios to ``python -c pass``
from the same environment, measured in the same run (medians).

usage: python benchmarks/startup.py [--runs N] [--mancala PATH] [--import MODULE ...]

The goals: ``mancala --version`` at most 1.5x, one SVG diagram at most 2.5x,
``validate`` of a one-game file at most 3x. The lines "library alone" do
the same work as the command above them in a plain Python process (through
:mod:`mancala_cli`, no command line): what a command could cost without
typer; ``python -c 'import typer'`` is typer's import alone, against the
goals. ``--import`` also times
``python -c "import MODULE"`` for each module named (to see what a module
costs on its own). The last lines are the shares of typer and lxml: their
import on top of the standard modules every command loads anyway.

The project's bytecode is compiled first, as an install does, so that no
figure includes compiling the sources (which happens at every start when
PYTHONDONTWRITEBYTECODE is set and the bytecode is out of date).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

GOALS = {"mancala --version": 1.5, "render one SVG (kingulu)": 2.5, "validate a one-game file": 3.0}

GAME = """[Game "kingulu"]
[Event "start-up benchmark"]
[Result "*"]

1. c1x6 d2 2. a1 *
"""


def median_ms(command: list[str], runs: int, env: dict[str, str] | None = None) -> float:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--mancala", default=os.path.join(os.path.dirname(sys.executable), "mancala"))
    parser.add_argument("--import", dest="modules", nargs="*", default=[])
    parser.add_argument("--pure", action="store_true", help="Set MANCALA_PURE=1 for the commands.")
    args = parser.parse_args()
    env = dict(os.environ)
    if args.pure:
        env["MANCALA_PURE"] = "1"
    with tempfile.TemporaryDirectory() as folder:
        record = os.path.join(folder, "one.pmn")
        with open(record, "w", encoding="utf-8") as out:
            out.write(GAME)
        commands = {
            "mancala --version": [args.mancala, "--version"],
            "render one SVG (kingulu)": [args.mancala, "render", "--game", "kingulu", "--position",
                                         "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1"],
            "validate a one-game file": [args.mancala, "validate", "--quiet", record],
        }
        # The same work through the library in a plain Python process, with
        # no command line at all: the floor a command could reach without typer.
        position = "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 1"
        commands["  the same SVG, library alone"] = [
            sys.executable, "-c",
            f"import sys; from mancala_cli import svg; sys.stdout.write(svg({position!r}, game='kingulu'))"]
        commands["  the same validate, library alone"] = [
            sys.executable, "-c",
            f"from mancala_cli import read, check; [check(r).valid for r in read({record!r})]"]
        commands["  python -c 'import typer'"] = [sys.executable, "-c", "import typer"]
        for module in args.modules:
            commands[f"import {module}"] = [sys.executable, "-c", f"import {module}"]
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(root, "mancala_cli"),
                        os.path.join(root, "notation")], stdout=subprocess.DEVNULL, check=False)
        baseline = median_ms([sys.executable, "-c", "pass"], args.runs, env)
        print(f"{'python -c pass':34} {baseline:7.1f} ms   1.00x")
        for name, command in commands.items():
            ms = median_ms(command, args.runs, env)
            goal = GOALS.get(name)
            verdict = "" if goal is None else f"   goal <= {goal}x: {'met' if ms / baseline <= goal else 'MISSED'}"
            print(f"{name:34} {ms:7.1f} ms {ms / baseline:6.2f}x{verdict}")
        common = "import typing, dataclasses, enum, re, inspect"
        shared = median_ms([sys.executable, "-c", common], args.runs, env)
        for library in ("typer", "lxml.etree"):
            ms = median_ms([sys.executable, "-c", f"{common}, {library}"], args.runs, env) - shared
            label = f"{library}'s own share"
            print(f"{label:34} {ms:7.1f} ms {ms / baseline:6.2f}x  (its import on top of {common[7:]})")


if __name__ == "__main__":
    main()
