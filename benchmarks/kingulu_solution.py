"""The solved Bao Kingulu start: solves it, writes the proof, checks it.

usage: python benchmarks/kingulu_solution.py [--write]

1. ``mancala solve --game kingulu --format json`` from the start, in its own
   process: result, every first move's value, nodes, CPU seconds, peak memory.
2. ``mancala_cli.solving.proofs.write_proof`` (the solver chooses the winner's moves),
   in this process: a proof that South wins from the start
   (``docs/kingulu-proof.txt.xz``), and for each losing first move M one that
   North, to move after it, wins (``docs/kingulu-proof-M.txt.xz``); their
   sizes and cost, and the principal variation of the first (the loser's
   reply that makes the proof's line longest).
3. ``benchmarks/check_proof.py`` on the proofs, in its own process on the
   pure-Python core: their counts, CPU seconds and peak memory.

With ``--write`` it writes ``docs/kingulu-solution.json`` and the proofs;
without, it says whether those agree with what it found. Takes about six
minutes of one core and 0.85 GB. (The checker's peak memory, run from here,
includes this process's: Linux keeps the largest resident set across exec.
Run it on its own for its own.)
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
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode:
        sys.exit(f"{' '.join(command[:2])} failed: {done.stderr.strip()}")  # nothing written
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return done.stdout, cpu, after.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write docs/kingulu-solution.json and the proofs")
    args = parser.parse_args()
    from mancala_cli import CORE, Line, get_game
    from mancala_cli.solving.proofs import write_proof

    mancala = str(pathlib.Path(sys.executable).with_name("mancala"))
    out, solve_cpu, memory = run([mancala, "solve", "--game", "kingulu", "--format", "json"])
    solved = json.loads(out)
    print(f"mancala solve --game kingulu --format json ({CORE} core): {solved['result']} "
          f"(best {' '.join(solved['best'])}; "
          + ", ".join(f"{m['move']} {m['result']}" for m in solved["moves"])
          + f"); {solved['nodes']:,} nodes, {solve_cpu:.1f} s CPU, {memory:,.0f} MB peak", flush=True)

    game = get_game("kingulu")
    proofs = {}  # file -> (proof text, lzma)
    pv: list[str] = []
    for entry in solved["moves"]:
        # The start's proof covers the winning move; each losing move gets a proof
        # that North, to move after it, wins.
        if entry["result"] == "win":
            if PROOF in proofs:
                continue
            start, path = game.start(), PROOF
        else:
            line = Line(game)
            line.play(entry["move"])
            start, path = line.position, PROOF.with_name(f"kingulu-proof-{entry['move']}.txt.xz")
        began = time.process_time()
        proof = write_proof(game, start)
        seconds = time.process_time() - began
        text = proof.text()
        proofs[path] = text, lzma.compress(text.encode("ascii"), preset=9)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{path.name}: {proof.winner} wins, {len(proof.strategy):,} moves of the proof, {proof.solves:,} "
              f"solves, {proof.nodes:,} nodes, {seconds:.1f} s CPU, {peak:,.0f} MB peak so far; {len(text):,} "
              f"bytes, {len(proofs[path][1]):,} with lzma", flush=True)
        if path == PROOF:
            line = Line(game)
            pv = []
            for origin in proof.principal_variation():
                move = next(m for m in line.legal_moves() if m.origin == origin)
                pv.append(line.token(move))
                line.play(origin)
            print(f"principal variation, {len(pv)} moves, ends {line.outcome().result} "
                  f"({line.outcome().message}): {' '.join(pv)}", flush=True)

    with tempfile.TemporaryDirectory() as folder:
        for path, (_, packed) in proofs.items():
            (pathlib.Path(folder) / path.name).write_bytes(packed)
        out, cpu, _ = run([sys.executable, str(ROOT / "benchmarks" / "check_proof.py"),
                           *(str(pathlib.Path(folder) / path.name) for path in proofs)],
                          env=dict(os.environ, MANCALA_PURE="1"))
    print(f"check_proof.py:\n{out.rstrip()}\n{cpu:.1f} s CPU in all, with start-up", flush=True)

    solution = {"result": solved["result"], "side": game.start().side, "moves": solved["moves"], "pv": pv,
                "nodes": solved["nodes"], "cpu_seconds": round(solve_cpu, 1)}
    if args.write:
        SOLUTION.write_text("{\n" + ",\n".join(f" {json.dumps(name)}: {json.dumps(value)}"
                                                for name, value in solution.items()) + "\n}\n", encoding="utf-8")
        for path, (_, packed) in proofs.items():
            path.write_bytes(packed)
        print(f"wrote {SOLUTION.relative_to(ROOT)} and " + ", ".join(str(path.relative_to(ROOT)) for path in proofs))
        return
    stored = json.loads(SOLUTION.read_text(encoding="utf-8")) if SOLUTION.exists() else {}
    same = {name: stored.get(name) == solution[name] for name in ("result", "side", "moves", "pv", "nodes")}
    for path, (text, _) in proofs.items():
        same[path.name] = path.exists() and lzma.decompress(path.read_bytes()).decode("ascii") == text
    print("agrees with docs/: " + ", ".join(f"{name} {'yes' if ok else 'NO'}" for name, ok in same.items()))


if __name__ == "__main__":
    main()
