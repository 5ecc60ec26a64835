"""Start-up: the wall time of short commands, as ratios to ``python -c pass``
from the same environment, measured in the same run (medians; every command
taken once in each round, in turn): wall time, and the processor time of
the process (user and system), which a busy machine changes much less.

usage: python benchmarks/startup.py [--runs N] [--mancala PATH] [--import MODULE ...] [--phases] [--classes]
                                    [--against DIR]

The goals: ``mancala --version`` at most 1.5x ``python -c pass``; one SVG
diagram (``render --game kingulu --position …``) and ``validate`` of a
one-game file at most 1.35x ``python -c "import typer"`` (the floor of any
command: the last column is the ratio to it). The lines "library alone" do
the same work as the command above them in a plain Python process (through
:mod:`mancala_cli`, no command line): what a command could cost without
typer; the lines "exit scans kept" run the commands with the interpreter's
exit-time scans of every object for reference cycles, which the command
line spares by freezing its objects once done (``gc.freeze`` in
``cli/commands.main``): what that saves; ``python -c 'import typer'`` is
typer's import alone, against the goals. ``--import`` also times
``python -c "import MODULE"`` for each module named (to see what a module
costs on its own); ``--against DIR`` also times the three commands from the
sources of another checkout (say, the commit before a change), in the same
rounds; ``--phases`` also prints where the processor time of the render
and validate commands goes: typer's import, the command line's modules, the
click command, parsing and running; ``--classes`` also prints how many of
the project's classes ``dataclasses`` makes for them, and the time it
takes. The last lines are the shares of typer and lxml: their import on top
of the standard modules every command loads anyway (lxml only reads and
writes XML archives now).

The project's bytecode is compiled first, as an install does, so that no
figure includes compiling the sources (which happens at every start when
PYTHONDONTWRITEBYTECODE is set and the bytecode is out of date).
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

#: Each goal: the yardstick (``pass``: ``python -c pass``, ``typer``: ``python -c "import typer"``) and the ratio.
GOALS = {"mancala --version": ("pass", 1.5), "render one SVG (kingulu)": ("typer", 1.35),
         "validate a one-game file": ("typer", 1.35)}

GAME = """[Game "kingulu"]
[Event "start-up benchmark"]
[Result "*"]

1. c1x6 d2 2. a1 *
"""


def median_ms(command: list[str], runs: int, env: dict[str, str] | None = None) -> float:
    return medians({"": command}, runs, env)[""]


def medians(commands: dict[str, list[str]], runs: int, env: dict[str, str] | None = None,
            envs: dict[str, dict[str, str]] | None = None) -> dict[str, float]:
    """The median wall time of each command in milliseconds, the commands
    taken in turn in every round, so that a change of the machine's load
    weighs on all of them alike (``envs``: another environment for some)."""
    return {name: wall for name, (wall, _) in timings(commands, runs, env, envs).items()}


def timings(commands: dict[str, list[str]], runs: int, env: dict[str, str] | None = None,
            envs: dict[str, dict[str, str]] | None = None) -> dict[str, tuple[float, float]]:
    """:func:`medians` of the wall time, and of the processor time (user and
    system) of each command, which a busy machine changes much less."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            began = time.perf_counter()
            subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           env=(envs or {}).get(name, env), check=False)
            times[name].append(time.perf_counter() - began)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return {name: (statistics.median(times[name]) * 1000, statistics.median(cpu[name]) * 1000) for name in commands}


#: One command run in process, its processor time taken phase by phase.
PHASES = r'''
import io, sys, time
t0 = time.process_time()
import typer, typer.main
t1 = time.process_time()
from mancala_cli.cli import commands
t2 = time.process_time()
command = typer.main.get_command(commands.app_for(sys.argv[1:]))
t3 = time.process_time()
real, sys.stdout = sys.stdout, io.StringIO()
try:
    command(sys.argv[1:], standalone_mode=False)
except SystemExit:
    pass
sys.stdout = real
t4 = time.process_time()
print((t1 - t0) * 1000, (t2 - t1) * 1000, (t3 - t2) * 1000, (t4 - t3) * 1000)
'''


def phases(name: str, args: list[str], runs: int, env: dict[str, str]) -> None:
    """Where a command's processor time goes beyond the interpreter's start:
    typer's import, the project's modules up to the command line's, building
    the click command of the command run, and parsing and running it (with
    the modules it loads then). Medians of ``runs`` runs."""
    taken = []
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-c", PHASES, *args], capture_output=True, text=True, env=env,
                              check=True)
        taken.append([float(value) for value in done.stdout.split()])
    typer_ms, modules, click, run = (statistics.median(column) for column in zip(*taken))
    print(f"{name:40} typer's import {typer_ms:5.1f} ms, then the command line's modules {modules:5.1f} ms, "
          f"its click command {click:4.1f} ms, parsing and running {run:5.1f} ms "
          f"({(modules + click + run) / typer_ms:.0%} of typer's import)")


#: A command run in this process, with the time ``dataclasses`` takes to make
#: the project's classes (its generated methods are compiled at each start).
CLASSES = """
import sys, time, dataclasses
made = []
process_class = dataclasses._process_class
def timed(cls, *args, **kwargs):
    start = time.process_time()
    try:
        return process_class(cls, *args, **kwargs)
    finally:
        made.append((time.process_time() - start, cls.__module__))
dataclasses._process_class = timed
sys.argv = ["mancala", *sys.argv[1:]]
from mancala_cli.cli.commands import main
try:
    main()
except SystemExit:
    pass
ours = [seconds for seconds, module in made if module.split(".")[0] in ("mancala_cli", "notation")]
print(len(ours), sum(ours) * 1000, file=sys.stderr)
"""


def classes(name: str, args: list[str], runs: int, env: dict[str, str]) -> None:
    """How many of the project's classes ``dataclasses`` makes for a command,
    and the processor time it takes (median of ``runs`` runs)."""
    taken = []
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-c", CLASSES, *args], capture_output=True, text=True, env=env,
                              check=True)
        count, ms = done.stderr.split()[-2:]
        taken.append(float(ms))
    print(f"{name:40} {int(count)} classes made by dataclasses, {statistics.median(taken):.1f} ms")


def compile_sources(root: str) -> None:
    subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(root, "mancala_cli"),
                    os.path.join(root, "notation")], stdout=subprocess.DEVNULL, check=False)


def report(timed: dict[str, tuple[float, float]]) -> None:
    """A line per command: wall and processor time, as ratios to ``python
    -c pass`` and to typer's import, and the verdict on its goal."""
    (baseline, baseline_cpu), (typer_ms, typer_cpu) = timed["python -c pass"], timed["python -c 'import typer'"]
    print(f"{'':40} {'wall':>8} {'/ pass':>7} {'/ typer':>8} {'CPU':>9} {'/ pass':>7} {'/ typer':>8}")
    for name, (ms, cpu) in timed.items():
        verdict = ""
        if name in GOALS:
            yardstick, goal = GOALS[name]
            ratio = ms / (baseline if yardstick == "pass" else typer_ms)
            verdict = f"   goal <= {goal}x {yardstick}: {'met' if ratio <= goal else 'MISSED'}"
        print(f"{name:40} {ms:5.1f} ms {ms / baseline:6.2f}x {ms / typer_ms:7.2f}x {cpu:6.1f} ms "
              f"{cpu / baseline_cpu:6.2f}x {cpu / typer_cpu:7.2f}x{verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--mancala", default=os.path.join(os.path.dirname(sys.executable), "mancala"))
    parser.add_argument("--import", dest="modules", nargs="*", default=[])
    parser.add_argument("--pure", action="store_true", help="Set MANCALA_PURE=1 for the commands.")
    parser.add_argument("--phases", action="store_true",
                        help="Also print where the processor time of render and validate goes, phase by phase.")
    parser.add_argument("--classes", action="store_true",
                        help="Also print how many classes dataclasses makes for render and validate, and its time.")
    parser.add_argument("--against", metavar="DIR",
                        help="Also run the three commands from the sources in DIR (another checkout, put first "
                             "on PYTHONPATH, its compiled core beside its sources), in the same rounds.")
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
        # The same commands with the interpreter's exit-time scans for reference
        # cycles over every object, as before the command line froze its
        # objects at the end (gc.freeze in cli/commands.main): what that spares.
        unfrozen = "import gc, sys; gc.freeze = lambda: None; from mancala_cli.cli import main; sys.argv[0] = 'mancala'; main()"
        for name in ("render one SVG (kingulu)", "validate a one-game file"):
            commands[f"  {name.split()[0]}, exit scans kept"] = [sys.executable, "-c", unfrozen,
                                                                     *commands[name][1:]]
        envs = {}
        if args.against:
            compile_sources(os.path.abspath(args.against))
            for name in list(commands)[:3]:
                commands[f"  {name}, {os.path.basename(os.path.abspath(args.against))}"] = commands[name]
                envs[f"  {name}, {os.path.basename(os.path.abspath(args.against))}"] = {
                    **env, "PYTHONPATH": os.path.abspath(args.against)}
        for module in args.modules:
            commands[f"import {module}"] = [sys.executable, "-c", f"import {module}"]
        compile_sources(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        timed = timings({"python -c pass": [sys.executable, "-c", "pass"],
                         "python -c 'import typer'": [sys.executable, "-c", "import typer"], **commands}, args.runs, env,
                        envs)
        report(timed)
        baseline = timed["python -c pass"][0]
        if args.phases:
            for name in ("render one SVG (kingulu)", "validate a one-game file"):
                phases(name, commands[name][1:], args.runs, env)
        if args.classes:
            for name in ("render one SVG (kingulu)", "validate a one-game file"):
                classes(name, commands[name][1:], args.runs, env)
        common = "import typing, dataclasses, enum, re, inspect"
        shared = median_ms([sys.executable, "-c", common], args.runs, env)
        for library in ("typer", "lxml.etree"):
            ms = median_ms([sys.executable, "-c", f"{common}, {library}"], args.runs, env) - shared
            label = f"{library}'s own share"
            print(f"{label:40} {ms:5.1f} ms {ms / baseline:6.2f}x  (its import on top of {common[7:]})")


if __name__ == "__main__":
    main()
