"""Every command the documents (docs/*.md, and the command pages
docs/commands/*.md) show runs as shown, from a fresh copy of the project, in
its top folder (so an example names files as ``examples/…``, whatever folder
its page is in): its output, line for line, where the page shows output,
and success where it shows none. The blocks of a page run in order in one
copy, so a later block may use what an earlier one wrote; each page gets a
copy of its own, so a page never relies on another's files.

What varies from run to run is compared normalised, on both sides: times
(``0.14 s``, ``"seconds": 0.004``, ``in 1.0 s``) and the checker's CPU
seconds and peak memory (``0.2 s CPU, 20 MB peak``). Node counts are
compared as shown: the examples use searches whose counts do not depend on
the machine (``--nodes`` and ``--depth`` limits, or searches to the end).

A block may be marked on the line before its fence:
``<!-- example: not run (REASON) -->`` for one that needs what a copy of the
project cannot have (a Dask cluster), ``<!-- example: native core -->`` for
one that takes minutes on the pure core, run only where the installed core
is native, and ``<!-- example: standard error -->`` for one whose output
shown is what the commands write on standard error. What the examples write
into the project is ignored by git, so a clone stays clean.

Every command page has at least one example that runs, and every link
between the documents (and from the README) names a file that exists and,
after ``#``, one of its headings."""
from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
BIN = pathlib.Path(sys.executable).parent
MARK = "@@docs-command-done@@"
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
COMMAND_PAGES = sorted((DOCS / "commands").glob("*.md"))
ENV = {"PATH": f"{BIN}:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": os.environ.get("HOME", "/tmp")}

#: What varies from run to run, and what it is compared as.
VARYING = [
    (re.compile(r"\b\d+(\.\d+)? s CPU, \d+ MB peak"), "T s CPU, M MB peak"),
    (re.compile(r'"seconds": \d+(\.\d+)?'), '"seconds": T'),
    (re.compile(r"\b\d+\.\d+ s\b"), "T s"),
]


def normalised(line: str) -> str:
    for pattern, replacement in VARYING:
        line = pattern.sub(replacement, line)
    return line


class Block:
    """One fenced block of commands: (command, lines shown after it), and its mark."""

    def __init__(self, page: str, line: int, mark: str | None, steps: list[tuple[str, list[str]]]) -> None:
        self.page, self.line, self.mark, self.steps = page, line, mark, steps

    def __repr__(self) -> str:
        return f"{self.page}:{self.line}"


def _name(path: pathlib.Path) -> str:
    """The page's path under docs/ (``commands/solve.md``)."""
    return path.relative_to(DOCS).as_posix()


def blocks(path: pathlib.Path) -> list[Block]:
    """The fenced blocks of ``path`` whose first line is a command (``$ ``)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found = []
    k = 0
    while k < len(lines):
        if not lines[k].startswith("```"):
            k += 1
            continue
        end = next(j for j in range(k + 1, len(lines)) if lines[j].startswith("```"))
        body = lines[k + 1:end]
        if body and body[0].startswith("$ "):
            before = lines[k - 1] if k else ""
            mark = re.fullmatch(r"<!-- example: (.*) -->", before)
            steps: list[tuple[str, list[str]]] = []
            for line in body:
                if line.startswith("$ "):
                    steps.append((line[2:], []))
                else:
                    steps[-1][1].append(line)
            found.append(Block(_name(path), k + 1, mark.group(1) if mark else None, steps))
        k = end + 1
    return found


def test_the_pages_have_examples_and_known_marks():
    every = [block for page in PAGES for block in blocks(page)]
    assert len(every) >= 10 and sum(len(b.steps) for b in every) >= 25
    assert {block.mark.split(" (")[0] for block in every if block.mark} <= {"not run", "native core", "standard error"}


def test_every_command_has_a_page_with_an_example_that_runs():
    """One page per command under docs/commands/, each with a block of
    commands the test above runs (not one marked "not run"), and each listed
    on the index, docs/commands.md."""
    from mancala_cli.cli.commands import COMMANDS, GROUPS

    index = (DOCS / "commands.md").read_text(encoding="utf-8")
    names = {name for name, *_ in COMMANDS + GROUPS}
    assert {p.stem for p in COMMAND_PAGES} == names
    for page in COMMAND_PAGES:
        assert f"](commands/{page.name})" in index, page.name
        assert [b for b in blocks(page) if not (b.mark or "").startswith("not run")], page.name


#: A heading's anchor as GitHub makes it: lower case, without what is not a
#: letter, digit, space, ``-`` or ``_``, each space a ``-``.
def _anchor(heading: str) -> str:
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(path: pathlib.Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)
    return {_anchor(h) for h in re.findall(r"^#+ (.*)$", text, re.M)}


def test_the_links_between_the_documents_hold():
    broken = []
    for path in [*PAGES, ROOT / "README.md"]:
        text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue  # (a web address)
            file, _, anchor = target.partition("#")
            linked = (path.parent / file).resolve() if file else path
            if not linked.exists():
                broken.append(f"{path.relative_to(ROOT)}: {target}: no such file")
            elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked):
                broken.append(f"{path.relative_to(ROOT)}: {target}: no such heading")
    assert not broken, "\n".join(broken)


def _core() -> str:
    return subprocess.run([str(BIN / "python"), "-c", "import mancala_cli; print(mancala_cli.CORE)"],
                          capture_output=True, text=True, env=ENV, timeout=60).stdout.strip()


@pytest.mark.skipif(not (BIN / "mancala").exists(), reason="mancala is not installed beside this Python")
@pytest.mark.parametrize("page", [p for p in PAGES if blocks(p)], ids=lambda p: _name(p))
def test_docs_console_examples(page, tmp_path):
    project = tmp_path / "project"
    shutil.copytree(ROOT, project, ignore=shutil.ignore_patterns(
        ".git", ".venv*", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".mypy_cache",
        ".ruff_cache", ".hypothesis", "*.so", "diagrams", "*.table", "*.tb"))
    before = {p.relative_to(project) for p in project.rglob("*")}
    core = _core()
    failures = []
    for block in blocks(page):
        if block.mark and (block.mark.startswith("not run") or (block.mark == "native core" and core != "native")):
            continue
        # One shell for the block, so that `echo $?` sees the command before it.
        wrap = "{{ {} ; }} 2>&1 >/dev/null" if block.mark == "standard error" else "{}"
        script = "".join(f"{wrap.format(command)}\n__status=$?\necho {MARK} $__status\n(exit $__status)\n"
                         for command, _ in block.steps)
        done = subprocess.run(["bash", "-c", script], cwd=project, capture_output=True, text=True, env=ENV,
                              timeout=300)
        outputs = done.stdout.split(f"{MARK} ")
        assert len(outputs) == len(block.steps) + 1, (block, done.stderr)
        for k, (command, shown) in enumerate(block.steps):
            printed = outputs[0] if k == 0 else outputs[k].split("\n", 1)[1]
            status = int(outputs[k + 1].split("\n", 1)[0])
            if shown:
                if [normalised(line) for line in printed.splitlines()] != [normalised(line) for line in shown]:
                    failures.append(f"{block}: {command}\n  shown:   {shown}\n  printed: {printed.splitlines()}")
            elif status != 0:
                failures.append(f"{block}: {command}: exit {status}: {done.stderr[-500:]}")
    assert not failures, "\n".join(failures)
    written = sorted({p.relative_to(project) for p in project.rglob("*")} - before)
    assert all(_ignored(str(name)) for name in written), written


def _ignored(name: str) -> bool:
    return subprocess.run(["git", "check-ignore", "-q", "--no-index", name], cwd=ROOT).returncode == 0
