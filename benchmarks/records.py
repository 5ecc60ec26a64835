"""Validating a generated archive, against python-chess reading and replaying
a PGN file with the same number of plies; then --jobs 1 against --jobs 2.

usage: python benchmarks/records.py [--games N] [--big N] [--rounds N]

Prints plies per second, processor time and the peak memory (resident set)
of each run; the ratios to python-chess in wall time and in processor time
(which other work on the machine changes much less). The
archive mixes the three games; the chess file holds random legal games.
It also times the two halves of validate in this process: reading the
archive alone (the PMN reader) and replaying its moves alone (the rules
engine, in place, without any of replay's checks), each a ceiling for
validate as a whole.
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

from mancala_cli import MutablePosition, get_game
from mancala_cli.files.batches import fewer_collections
from mancala_cli.random_records import random_game
from notation.pmn_reader import read_games
from notation.pmn_writer import write_games

MIX = ("kingulu", "kingulu", "kimasai-mackay", "kimasai-klamroth")


def make_archive(path: str, games: int, seed: int = 1) -> int:
    """Write ``games`` random games; return the number of plies."""
    rng = random.Random(seed)
    plies = 0

    def records():
        nonlocal plies
        for i in range(games):
            record = random_game(get_game(MIX[i % len(MIX)]), rng, max_plies=120)
            plies += len(record.moves)
            yield record

    with open(path, "w", encoding="utf-8") as out:
        write_games(records(), out)
    return plies


#: GNU time, where installed: see measure().
GNU_TIME = shutil.which("time")


#: The processor seconds (user and system) of each command measure() ran, by
#: its command line: on a machine shared with other work they vary much less
#: than wall seconds.
CPU: dict[tuple[str, ...], float] = {}


def measure(command: list[str], env: dict[str, str] | None = None) -> tuple[float, float, int]:
    """Wall seconds, peak resident MiB and exit status of one command (its
    processor seconds go to :data:`CPU`).

    Linux counts in a child's peak the peak of the process it was started
    from (it keeps the larger across ``exec``), and this process grows while
    it makes archives; so the command is started from GNU time, a small
    process, which reports the peak of the command alone.
    """
    began = time.perf_counter()
    if GNU_TIME is None:
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        CPU[tuple(command)] = usage.ru_utime + usage.ru_stime
        return time.perf_counter() - began, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)
    with tempfile.NamedTemporaryFile("r") as report:
        child = subprocess.run([GNU_TIME, "-f", "%U %S %M", "-o", report.name, *command],
                               stdout=subprocess.DEVNULL, env=env)
        elapsed = time.perf_counter() - began
        user, system, peak_kib = report.read().split()[-3:]
    CPU[tuple(command)] = float(user) + float(system)
    return elapsed, int(peak_kib) / 1024, child.returncode


def halves(path: str) -> tuple[float, float]:
    """Plies per second of reading ``path`` alone, and of replaying its
    moves alone (each game's origins played in place, no checks)."""
    games = []
    began = time.perf_counter()
    with open(path, encoding="utf-8") as stream, fewer_collections():  # as validate reads
        for record in read_games(stream):
            games.append((record.tag("Game"), [node.hole for node in record.moves]))
    reading = time.perf_counter() - began
    plies = sum(len(holes) for _, holes in games)
    played = []
    for game_id, holes in games:
        game = get_game(game_id)
        played.append((game, [game.board.index_of(hole) for hole in holes]))
    began = time.perf_counter()
    for game, origins in played:
        now = MutablePosition(game.start())
        history: set = set()
        move, keep = game.move, game.uses_history
        for origin in origins:
            if keep:
                key = now.key()
                move(now, origin, history=history)
                history.add(key)
            else:
                move(now, origin, history=history)
    replaying = time.perf_counter() - began
    return plies / reading, plies / replaying


CHESS_SCRIPT = """
import sys, chess.pgn
plies = 0
with open(sys.argv[1], encoding="utf-8") as stream:
    while (game := chess.pgn.read_game(stream)) is not None:
        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
            plies += 1
print(plies)
"""


def make_chess(path: str, plies_wanted: int, seed: int = 1) -> int:
    import chess
    import chess.pgn
    rng = random.Random(seed)
    plies = 0
    with open(path, "w", encoding="utf-8") as out:
        while plies < plies_wanted:
            board = chess.Board()
            game = chess.pgn.Game()
            node = game
            while not board.is_game_over() and board.ply() < 120 and plies < plies_wanted:
                move = rng.choice(list(board.legal_moves))
                node = node.add_variation(move)
                board.push(move)
                plies += 1
            game.headers["Result"] = board.result(claim_draw=True) if board.is_game_over() else "*"
            print(game, file=out, end="\n\n")
    return plies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--big", type=int, default=100_000, help="games for the --jobs comparison (0: skip)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="run validate on both cores and python-chess this many times in turn; "
                        "the ratios compare the best times")
    args = parser.parse_args()
    mancala = [sys.executable, "-m", "mancala_cli"]
    with tempfile.TemporaryDirectory() as folder:
        archive = os.path.join(folder, "archive.pmn")
        plies = make_archive(archive, args.games)
        pure = {**os.environ, "MANCALA_PURE": "1"}
        default = {key: value for key, value in os.environ.items() if key != "MANCALA_PURE"}
        core = subprocess.run([*mancala, "--version"], capture_output=True, text=True, env=default).stdout.strip()
        print(f"default core: {core}")
        try:
            import chess  # noqa: F401
        except ImportError:
            print("python-chess: not installed (benchmarks/run installs it in the benchmarks' own environment)")
            chess_run = None
        else:
            pgn = os.path.join(folder, "archive.pgn")
            chess_plies = make_chess(pgn, plies)
            chess_run = [sys.executable, "-c", CHESS_SCRIPT, pgn]
        one_job = mancala + ["validate", "--quiet", "--jobs", "1", archive]
        # The best (least) wall and processor seconds of each, over the rounds,
        # taken in turn so that a change in the machine's load touches all.
        wall: dict[str, float] = {}
        cpu: dict[str, float] = {}
        ours_peak = 0.0
        for _ in range(args.rounds):
            for name, env in (("default", default), ("pure", pure)):
                seconds, peak, status = measure(one_job, env)
                wall[name] = min(wall.get(name, seconds), seconds)
                cpu[name] = min(cpu.get(name, CPU[tuple(one_job)]), CPU[tuple(one_job)])
                if name == "default":
                    ours_peak = max(ours_peak, peak)
                print(f"validate --jobs 1, {name} core: {args.games:,} games {plies:,} plies: {seconds:.2f} s, "
                      f"{plies / seconds:,.0f} plies/s, peak {peak:.0f} MiB (exit {status}); "
                      f"processor time {CPU[tuple(one_job)]:.2f} s, {plies / CPU[tuple(one_job)]:,.0f} plies/s")
            if chess_run is not None:
                seconds, peak, status = measure(chess_run)
                wall["chess"] = min(wall.get("chess", seconds), seconds)
                cpu["chess"] = min(cpu.get("chess", CPU[tuple(chess_run)]), CPU[tuple(chess_run)])
                print(f"python-chess read+replay {chess_plies:,} plies: {seconds:.2f} s, "
                      f"{chess_plies / seconds:,.0f} plies/s, peak {peak:.0f} MiB; processor time "
                      f"{CPU[tuple(chess_run)]:.2f} s, {chess_plies / CPU[tuple(chess_run)]:,.0f} plies/s")
        seconds, peak, status = measure(mancala + ["validate", "--quiet", archive], default)
        wall["auto"] = seconds
        print(f"validate, default --jobs (auto: {len(os.sched_getaffinity(0))} cores): {seconds:.2f} s, "
              f"{plies / seconds:,.0f} plies/s, peak {peak:.0f} MiB (exit {status})")
        theirs = None
        if chess_run is not None:
            theirs = chess_plies / wall["chess"]
            rates = {name: plies / wall[name] for name in ("default", "pure", "auto")}
            best = f"best of {args.rounds} rounds, " if args.rounds > 1 else ""
            print(f"ratio per core ({best}wall time): mancala validate is {rates['default'] / theirs:.1f}x "
                  f"python-chess on the default core (goal: 10x), {rates['pure'] / theirs:.1f}x on the pure core "
                  f"(goal: 4x); default --jobs: {rates['auto'] / theirs:.1f}x")
            cpu_theirs = chess_plies / cpu["chess"]
            print(f"the same in processor time: {plies / cpu['default'] / cpu_theirs:.1f}x on the default core, "
                  f"{plies / cpu['pure'] / cpu_theirs:.1f}x on the pure core")
        small = os.path.join(folder, "small.pmn")
        make_archive(small, max(1, args.games // 10), seed=2)
        seconds, peak_small, _ = measure(mancala + ["validate", "--quiet", small])
        print(f"memory: validate {args.games // 10:,} games peak {peak_small:.0f} MiB, "
              f"{args.games:,} games peak {ours_peak:.0f} MiB")
        if args.big:
            big = os.path.join(folder, "big.pmn")
            big_plies = make_archive(big, args.big, seed=3)
            rates = {}
            for jobs in (1, 2):
                seconds, peak, status = measure(mancala + ["validate", "--quiet", "--jobs", str(jobs), big])
                rates[jobs] = big_plies / seconds
                print(f"validate --jobs {jobs}: {args.big:,} games {big_plies:,} plies: {seconds:.2f} s, "
                      f"{rates[jobs]:,.0f} plies/s, peak {peak:.0f} MiB (exit {status})")
            print(f"speed-up with 2 jobs: {rates[2] / rates[1]:.2f}x")
        # Last: it holds the whole archive in this process, which a child
        # started afterwards would count in its peak memory.
        reading, replaying = halves(archive)
        print(f"halves of validate, in this process: reading alone {reading:,.0f} plies/s"
              f"{_versus(reading, theirs)}, replaying alone {replaying:,.0f} plies/s"
              f"{_versus(replaying, theirs)}")


def _versus(rate: float, theirs: float | None) -> str:
    return f" ({rate / theirs:.1f}x python-chess)" if theirs else ""


if __name__ == "__main__":
    main()
