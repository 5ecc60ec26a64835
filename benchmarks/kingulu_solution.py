"""The solved Bao Kingulu start: solves it, writes the proof, checks it.

usage: python benchmarks/kingulu_solution.py [--write]

1. ``mancala solve --game kingulu --format json`` from the start, in its own
   process: result, every first move's value, nodes, CPU seconds, peak memory.
2. ``mancala_cli.proof.write_proof`` from the start (the solver chooses the
   winner's moves), in this process: the proof's size and cost, and its
   principal variation (the loser's reply that makes the proof's line longest).
3. ``benchmarks/check_proof.py`` on the proof, in its own process on the
   pure-Python core: its counts, CPU seconds and peak memory.

With ``--write`` it writes ``docs/kingulu-solution.json`` and
``docs/kingulu-proof.txt.xz`` (the proof is checked first); without, it says
whether they agree with what it found. Takes about three minutes of one core
and 0.8 GB.
"""
from __future__ import annotations

import argparse
import json
import lzma
import os
import pathlib
import resource
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
SOLUTION = ROOT / "docs" / "kingulu-solution.json"
PROOF = ROOT / "docs" / "kingulu-proof.txt.xz"


def run(command: list[str], env: dict | None = None) -> tuple[str, float, float]:
    """Output, CPU seconds (user + system) and peak memory (MB) of a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return done.stdout, cpu, after.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write docs/kingulu-solution.json and the proof")
    args = parser.parse_args()
    from mancala_cli import CORE, Line, get_game
    from mancala_cli.proof import write_proof

    mancala = str(pathlib.Path(sys.executable).with_name("mancala"))
    out, solve_cpu, memory = run([mancala, "solve", "--game", "kingulu", "--format", "json"])
    solved = json.loads(out)
    print(f"mancala solve --game kingulu --format json ({CORE} core): {solved['result']} "
          f"(best {' '.join(solved['best'])}; "
          + ", ".join(f"{m['move']} {m['result']}" for m in solved["moves"])
          + f"); {solved['nodes']:,} nodes, {solve_cpu:.1f} s CPU, {memory:,.0f} MB peak", flush=True)

    game = get_game("kingulu")
    began = time.process_time()
    proof = write_proof(game, game.start())
    seconds = time.process_time() - began
    text = proof.text()
    packed = lzma.compress(text.encode("ascii"), preset=9)
    line = Line(game)
    pv = []
    for origin in proof.principal_variation():
        move = next(m for m in line.legal_moves() if m.origin == origin)
        pv.append(line.token(move))
        line.play(origin)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"proof: {len(proof.strategy):,} positions of South, {proof.solves:,} solves of North's positions, "
          f"{proof.nodes:,} nodes, {seconds:.1f} s CPU, {peak:,.0f} MB peak; {len(text):,} bytes, "
          f"{len(packed):,} with lzma", flush=True)
    print(f"principal variation, {len(pv)} moves, ends {line.outcome().result} "
          f"({line.outcome().message}): {' '.join(pv)}", flush=True)

    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / PROOF.name
        path.write_bytes(packed)
        out, cpu, _ = run([sys.executable, str(ROOT / "benchmarks" / "check_proof.py"), str(path)],
                          env=dict(os.environ, MANCALA_PURE="1"))
    print(f"check_proof.py: {out.strip()}; {cpu:.1f} s CPU with start-up", flush=True)

    solution = {"result": solved["result"], "side": game.start().side, "moves": solved["moves"], "pv": pv,
                "nodes": solved["nodes"], "cpu_seconds": round(solve_cpu, 1)}
    if args.write:
        SOLUTION.write_text("{\n" + ",\n".join(f" {json.dumps(name)}: {json.dumps(value)}"
                                                for name, value in solution.items()) + "\n}\n", encoding="utf-8")
        PROOF.write_bytes(packed)
        print(f"wrote {SOLUTION.relative_to(ROOT)} and {PROOF.relative_to(ROOT)}")
        return
    stored = json.loads(SOLUTION.read_text(encoding="utf-8")) if SOLUTION.exists() else {}
    same = {name: stored.get(name) == solution[name] for name in ("result", "side", "moves", "pv", "nodes")}
    same["proof"] = PROOF.exists() and lzma.decompress(PROOF.read_bytes()).decode("ascii") == text
    print("agrees with docs/: " + ", ".join(f"{name} {'yes' if ok else 'NO'}" for name, ok in same.items()))


if __name__ == "__main__":
    main()
