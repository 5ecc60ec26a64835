"""The layers import one way: the record layer (``notation``) knows nothing of
``mancala_cli``; the rules know no notation, diagrams or command line; only
the command line imports typer and rich. Every import statement counts, at
the top of a module or inside a function."""
from __future__ import annotations

import ast
import io
import pathlib
import re
import subprocess
import sys
import tokenize
import tomllib
from collections.abc import Iterator

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _module_name(path: pathlib.Path, root: pathlib.Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: pathlib.Path, root: pathlib.Path = ROOT) -> set[str]:
    """Every module ``path`` imports, as absolute dotted names."""
    name = _module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def modules(folder: str) -> list[pathlib.Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def _offending(paths, forbidden, root: pathlib.Path = ROOT) -> list[str]:
    bad = []
    for path in paths:
        for module in sorted(imports(path, root)):
            if any(module == f or module.startswith(f + ".") for f in forbidden):
                bad.append(f"{path.relative_to(root)} imports {module}")
    return bad


def test_the_import_scan_sees_relative_and_nested_imports():
    assert "mancala_cli.rules.game" in imports(ROOT / "mancala_cli" / "rules" / "kingulu.py")
    assert "mancala_cli.checking" in imports(ROOT / "mancala_cli" / "rendering" / "records.py")


def test_notation_imports_nothing_from_mancala_cli():
    assert _offending(modules("notation"), ["mancala_cli"]) == []


def test_the_rules_import_no_notation_diagrams_checking_or_command_line():
    forbidden = ["notation", "mancala_cli.diagrams", "mancala_cli.cli", "mancala_cli.checking",
                 "mancala_cli.random_records", "mancala_cli.positions", "mancala_cli.api", "typer", "rich", "lxml",
                 "pyparsing"]
    assert _offending(modules("mancala_cli/rules"), forbidden) == []


def test_only_the_command_line_imports_typer_or_rich():
    outside = [p for p in modules("mancala_cli") + modules("notation")
               if not p.is_relative_to(ROOT / "mancala_cli" / "cli")]
    assert outside and _offending(outside, ["typer", "rich"]) == []


def test_only_the_language_servers_protocol_module_imports_pygls():
    """The language server's logic (``lsp.analysis`` and the feature modules) is
    plain functions over the library; ``lsp.server`` alone speaks the
    protocol (pygls, lsprotocol), and the command line loads it only in
    ``mancala lsp``."""
    users = [p for p in modules("mancala_cli") + modules("notation")
             if _offending([p], ["pygls", "lsprotocol", "mancala_cli.lsp.server"])]
    assert [p.relative_to(ROOT).as_posix() for p in users] == ["mancala_cli/cli/lsp.py", "mancala_cli/lsp/server.py"]
    assert _offending(modules("mancala_cli/lsp"), ["mancala_cli.cli", "typer", "rich"]) == []


def test_only_the_editor_imports_textual():
    """``mancala edit`` (``mancala_cli/editor``, the ``edit`` extra) alone
    imports Textual; its model and files modules none of it, and no module
    of it imports rich or typer: Textual draws with rich, which only the
    command line imports directly (the editor builds Textual's own content)."""
    users = [p.relative_to(ROOT).as_posix() for p in modules("mancala_cli") + modules("notation")
             if _offending([p], ["textual"])]
    assert users == ["mancala_cli/editor/app.py", "mancala_cli/editor/board_widget.py", "mancala_cli/editor/movetext.py"]
    editor = modules("mancala_cli/editor")
    assert _offending(editor, ["typer", "rich", "mancala_cli.cli"]) == []
    plain = [p for p in editor if p.stem in ("model", "edited_files", "launch")]
    assert len(plain) == 3 and _offending(plain, ["textual", "mancala_cli.editor.app"]) == []


def test_importing_the_library_loads_no_command_line():
    done = subprocess.run([sys.executable, "-c", "import mancala_cli, sys; "
                           "print(sorted({m.split('.')[0] for m in sys.modules} & {'typer', 'rich', 'click'}))"],
                          capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "[]", done.stderr


def test_the_scan_catches_a_nested_relative_offender(tmp_path):
    bad = tmp_path / "mancala_cli" / "rules" / "bad.py"
    bad.parent.mkdir(parents=True)
    bad.write_text("def f():\n    from ..diagrams import svg\n    from notation import walk\n", encoding="utf-8")
    assert _offending([bad], ["notation", "mancala_cli.diagrams"], tmp_path) == [
        "mancala_cli/rules/bad.py imports mancala_cli.diagrams",
        "mancala_cli/rules/bad.py imports mancala_cli.diagrams.svg",
        "mancala_cli/rules/bad.py imports notation",
        "mancala_cli/rules/bad.py imports notation.walk",
    ]


# -- the command line on top, and no cycles ------------------------------------------

def _is_module(name: str, known: set[str], root: pathlib.Path) -> bool:
    """A module of the tree: a ``.py`` file, or a compiled extension beside
    the package's sources (``rules/_native.c`` builds ``rules._native``)."""
    if name in known:
        return True
    folder = root.joinpath(*name.split(".")[:-1])
    leaf = name.rpartition(".")[2]
    return folder.is_dir() and any(folder.glob(f"{leaf}.*")) and not (folder / leaf).is_dir()


def _imported(path: pathlib.Path, root: pathlib.Path) -> Iterator[tuple[str, list[str]]]:
    """Per import statement: the module named, and the names it takes from it."""
    name = _module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")
                module = ".".join(base[:len(base) - node.level + 1] + ([module] if module else []))
            yield module, [alias.name for alias in node.names]


def module_graph(root: pathlib.Path = ROOT, packages: tuple[str, ...] = ("mancala_cli", "notation")
                 ) -> dict[str, set[str]]:
    """Every module of ``packages`` and the modules of them it imports (at the
    top, inside functions and for type checking alike). ``from PACKAGE
    import NAME`` is an import of the module ``PACKAGE.NAME`` when there is
    one (a ``.py`` file or a compiled extension), else of the package."""
    paths = [p for package in packages for p in sorted((root / package).rglob("*.py"))]
    known = {_module_name(p, root) for p in paths}
    graph: dict[str, set[str]] = {}
    for path in paths:
        name = _module_name(path, root)
        targets = set()
        for module, names in _imported(path, root):
            submodules = [f"{module}.{n}" for n in names if _is_module(f"{module}.{n}", known, root)]
            targets.update(submodules)
            if len(submodules) < len(names) or not names:
                parts = module.split(".")
                targets.update([prefix for prefix in (".".join(parts[:k]) for k in range(len(parts), 0, -1))
                                if prefix in known][:1])  # (the module itself, else its nearest package)
        graph[name] = {target for target in targets if target in known and target != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan's
    algorithm, without recursion), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.append(member)
                    if member == node:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return sorted(found)


#: The one module outside the command line that starts it: ``python -m mancala_cli``.
ENTRY_POINTS = {"mancala_cli.__main__"}


def _outside_the_command_line(graph: dict[str, set[str]]) -> list[str]:
    return sorted(f"{module} imports {target}" for module, targets in graph.items()
                  if module not in ENTRY_POINTS and not (module + ".").startswith("mancala_cli.cli.")
                  for target in targets if (target + ".").startswith("mancala_cli.cli."))


def test_nothing_outside_the_command_line_imports_it():
    graph = module_graph()
    assert "mancala_cli.batch.conversion" in graph["mancala_cli.cli.convert"]  # (the scan sees the command line)
    assert _outside_the_command_line(graph) == []


def test_no_module_imports_itself_back():
    graph = module_graph()
    assert "mancala_cli.solving.search" in graph["mancala_cli.playing"]
    assert cycles(graph) == []


def test_the_scans_catch_a_cycle_and_a_library_that_imports_the_command_line(tmp_path):
    files = {
        "mancala_cli/__init__.py": "",
        "mancala_cli/a.py": "from . import b\n",
        "mancala_cli/b.py": "def later():\n    from .c import thing\n",
        "mancala_cli/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import x\n",
        "mancala_cli/d.py": "def run():\n    from .cli.commands import main\n",
        "mancala_cli/cli/__init__.py": "",
        "mancala_cli/cli/commands.py": "from ..a import b\n",
        "mancala_cli/ext/__init__.py": "from . import _fast\n",
        "mancala_cli/ext/_fast.c": "",
        "notation/__init__.py": "",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    graph = module_graph(tmp_path)
    assert cycles(graph) == [["mancala_cli.a", "mancala_cli.b", "mancala_cli.c"]]
    assert _outside_the_command_line(graph) == ["mancala_cli.d imports mancala_cli.cli.commands"]
    assert graph["mancala_cli.ext"] == set()  # (the compiled module, not the package itself)


def test_every_package_is_installed():
    """Each folder of modules is a package the install ships (a new one
    missing from pyproject.toml works here, from the source tree, and fails
    once installed)."""
    import tomllib

    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    mapped = setuptools.get("package-dir", {})

    def folder(package: str) -> pathlib.Path:
        """Where a listed package's files are (docs/ for mancala_cli.docs)."""
        for prefix, place in mapped.items():
            if package == prefix or package.startswith(prefix + "."):
                return ROOT / place / package[len(prefix):].lstrip(".").replace(".", "/")
        return ROOT / package.replace(".", "/")

    # (a folder of data alone, such as docs/ or diagrams/fonts/, holds no modules)
    data = {name for name in setuptools["packages"] if not any(folder(name).glob("*.py"))}
    assert all(folder(name).is_dir() for name in data)
    listed = set(setuptools["packages"]) - data
    found = {_module_name(init, ROOT) for package in ("mancala_cli", "notation")
             for init in (ROOT / package).rglob("__init__.py")}
    assert found and found == listed


# -- private names stay in their module ----------------------------------------------

def _is_private(part: str) -> bool:
    return part.startswith("_") and not (part.startswith("__") and part.endswith("__"))


def private_imports(path: pathlib.Path, root: pathlib.Path = ROOT) -> list[str]:
    """Each import in ``path`` (at the top or inside a function) of a name
    private to another module: ``from X import _name``, ``import X._name``,
    ``from X._name import y``, third-party modules included (a top-level
    module whose name starts with ``_`` is its own). The one kind
    allowed is a package's modules importing a private submodule of that
    same package (``from . import _native`` in ``rules``)."""
    name = _module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    known = {_module_name(p, root) for folder in ("mancala_cli", "notation") for p in (root / folder).rglob("*.py")}
    bad = []
    for module, names in _imported(path, root):
        for target in [f"{module}.{n}" for n in names] or [module]:
            parts = target.split(".")
            for k, part in enumerate(parts):
                if k == 0 or not _is_private(part):  # (a top-level module such as _sha256 is no one's name)
                    continue
                own = ".".join(parts[:k]) == package and _is_module(".".join(parts[:k + 1]), known, root)
                if not own:
                    bad.append(f"{path.relative_to(root)} imports {target}")
                    break
    return bad


#: typer's internals that the command line uses (click's classes, typer's
#: value checks that it replaces): allowed in the one adapter module alone, and
#: only while pyproject.toml pins typer to the releases the patch is tested
#: with (an upper bound on its version).
PINNED_INTERNALS = ("typer._click", "typer._coercion")
TYPER_ADAPTER = "mancala_cli/cli/typer_adapter.py"


def _pinned(bad: str) -> bool:
    target = bad.rpartition(" imports ")[2]
    return bad.startswith(TYPER_ADAPTER + " ") and any(
        target == name or target.startswith(name + ".") for name in PINNED_INTERNALS)


def typer_internal_imports(paths: list[pathlib.Path], root: pathlib.Path = ROOT) -> list[str]:
    """Every import of typer's private modules (``typer._*``) or of
    ``typer.core`` (typer's own classes, not its public API)."""
    found = []
    for path in paths:
        for module in sorted(imports(path, root)):
            parts = module.split(".")
            if parts[0] == "typer" and len(parts) > 1 and (parts[1].startswith("_") or parts[1] == "core"):
                found.append(f"{path.relative_to(root)} imports {module}")
    return found


def test_only_the_typer_adapter_imports_typers_internals():
    found = typer_internal_imports(modules("mancala_cli") + modules("notation"))
    assert found and {bad.partition(" imports ")[0] for bad in found} == {TYPER_ADAPTER}


def test_the_typer_scan_sees_private_modules_core_and_their_names(tmp_path):
    (tmp_path / "mancala_cli" / "cli").mkdir(parents=True)
    bad = tmp_path / "mancala_cli" / "cli" / "x.py"
    bad.write_text("import typer\nfrom typer import Option, _click\nfrom typer.core import TyperGroup\n"
                   "def f():\n    from typer._click.globals import get_current_context\n", encoding="utf-8")
    assert typer_internal_imports([bad], tmp_path) == [
        "mancala_cli/cli/x.py imports typer._click",
        "mancala_cli/cli/x.py imports typer._click.globals",
        "mancala_cli/cli/x.py imports typer._click.globals.get_current_context",
        "mancala_cli/cli/x.py imports typer.core",
        "mancala_cli/cli/x.py imports typer.core.TyperGroup",
    ]


def test_no_module_imports_another_modules_private_name():
    found = [bad for path in modules("mancala_cli") + modules("notation") for bad in private_imports(path)]
    assert [bad for bad in found if not _pinned(bad)] == []


def test_typers_internals_are_used_only_under_a_pin():
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    typer = [d for d in dependencies if d.replace(" ", "").startswith("typer")]
    assert len(typer) == 1 and "<" in typer[0], typer
    assert _pinned("mancala_cli/cli/typer_adapter.py imports typer._click")
    assert not _pinned("mancala_cli/cli/running.py imports typer._click")
    assert not _pinned("mancala_cli/files/sources.py imports typer._click")
    assert not _pinned("mancala_cli/cli/running.py imports typer.main._private")


def test_the_private_scan_allows_only_a_packages_own_private_submodule(tmp_path):
    files = {
        "mancala_cli/__init__.py": "",
        "mancala_cli/rules/__init__.py": "from . import _fast\n",
        "mancala_cli/rules/_fast.c": "",
        "mancala_cli/rules/_slow.py": "from ._fast import _inner\n",
        "mancala_cli/rules/native.py": "from . import _fast, _slow\nfrom ._slow import thing\nimport os.path\n",
        "mancala_cli/rules/helper.py": "from . import _cache\nfrom .native import _Mixin as Mixin\n",
        "mancala_cli/tablebase.py": ("from .rules import _fast\nfrom .rules._slow import y\n"
                                     "def f():\n    import mancala_cli.rules._slow\n    from typer import _click\n"
                                     "    from dataclasses import field as _field\n    from . import __version__\n"
                                     "    from _sha256 import sha256\n"),
        "notation/__init__.py": "",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    found = [bad for folder in ("mancala_cli", "notation") for path in sorted((tmp_path / folder).rglob("*.py"))
             for bad in private_imports(path, tmp_path)]
    assert found == [
        "mancala_cli/rules/_slow.py imports mancala_cli.rules._fast._inner",
        "mancala_cli/rules/helper.py imports mancala_cli.rules._cache",  # (a name, not a submodule)
        "mancala_cli/rules/helper.py imports mancala_cli.rules.native._Mixin",
        "mancala_cli/tablebase.py imports mancala_cli.rules._fast",
        "mancala_cli/tablebase.py imports mancala_cli.rules._slow.y",
        "mancala_cli/tablebase.py imports mancala_cli.rules._slow",
        "mancala_cli/tablebase.py imports typer._click",
    ]


#: The hidden links left, each with why: a module that reaches into
#: ``sys.modules`` or ``sys.meta_path`` instead of importing. (None: a record
#: is drawn by ``mancala_cli.svg(record)``, not by a drawer the record layer
#: would look up.)
HIDDEN_LINKS: dict[str, str] = {}

#: What a module does when imported beyond defining its own names: a call at
#: its top level, or an assignment to another object's attribute. Each with why.
IMPORT_EFFECTS = {
    "mancala_cli/__main__.py": "python -m mancala_cli runs the command line",
    "mancala_cli/files/encodings.py": "codecs' error handler 'mancala-report', a name of its own, that counts "
                                    "the bad bytes of a line as it decodes",
    "mancala_cli/rules/native.py": "the compiled kernel is handed the rules' own types (Move, Position, the sides)",
    "mancala_cli/rules/board.py": "the docstring of its own alias Side",
}


def import_effects(paths: list[pathlib.Path], root: pathlib.Path = ROOT) -> dict[str, list[int]]:
    """The top-level calls and attribute assignments of each module, by line."""
    found: dict[str, list[int]] = {}
    for path in paths:
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            targets = (node.targets if isinstance(node, ast.Assign)
                       else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
            if (any(isinstance(target, (ast.Attribute, ast.Subscript)) for target in targets)
                    or isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)):
                found.setdefault(str(path.relative_to(root)), []).append(node.lineno)
    return found


def test_importing_a_module_changes_nothing_outside_it_but_the_named_list():
    found = import_effects([*modules("mancala_cli"), *modules("notation")])
    assert set(found) == set(IMPORT_EFFECTS), found


def test_the_effect_scan_sees_a_call_and_an_assignment_to_another_objects_attribute(tmp_path):
    (tmp_path / "a.py").write_text("import codecs, record\n"
                                   "X = 1\n"
                                   "record.GameRecord.drawer = print\n"
                                   "codecs.register_error('x', print)\n"
                                   "def f():\n    record.y = 2\n", encoding="utf-8")
    assert import_effects([tmp_path / "a.py"], tmp_path) == {"a.py": [3, 4]}


def test_no_module_reaches_into_the_import_system():
    """No ``sys.modules`` look-ups of other packages and no finders added to
    ``sys.meta_path``: what a module needs, it imports (but the named list)."""
    found = {}
    for path in [*modules("mancala_cli"), *modules("notation")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr in ("modules", "meta_path")
                    and isinstance(node.value, ast.Name) and node.value.id == "sys"):
                found.setdefault(str(path.relative_to(ROOT)), []).append(node.lineno)
    assert set(found) == set(HIDDEN_LINKS), found


# -- short files and functions ---------------------------------------------------------

#: The most lines a module may have, and a function (from its ``def`` line to
#: its last, nested functions counted in it and on their own).
MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 60
#: The most cyclomatic complexity (radon's, the command ``radon cc``) a
#: function or class may have: rank C. Checked where radon is installed
#: (``pip install radon``), else skipped.
MAX_COMPLEXITY = 20

#: Every file and function over a limit, with why: a file by its path, a
#: function by ``path::qualified.name``. A pure hot path that must stay one
#: function (for speed, or as ``WHOLE_MID`` says) is listed with its reason;
#: the rest were over a limit when the limits came in ("not yet split"). An
#: entry that no longer applies fails the test: remove it.
TOO_LONG: dict[str, str] = {}
TOO_COMPLEX: dict[str, str] = {}


def _functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function in ``tree`` with its qualified name (``Class.method``, ``outer.inner``)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield prefix + node.name, node
            yield from _functions(node, f"{prefix}{node.name}.")
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node, f"{prefix}{node.name}.")
        else:
            yield from _functions(node, prefix)


def too_long(root: pathlib.Path = ROOT) -> dict[str, int]:
    """Every module of ``mancala_cli`` and ``notation`` over
    :data:`MAX_FILE_LINES` lines and every function over
    :data:`MAX_FUNCTION_LINES`, with its lines."""
    found = {}
    for path in sorted(p for package in ("mancala_cli", "notation") for p in (root / package).rglob("*.py")):
        name = str(path.relative_to(root))
        text = path.read_text(encoding="utf-8")
        lines = len(text.splitlines())
        if lines > MAX_FILE_LINES:
            found[name] = lines
        for qualified, node in _functions(ast.parse(text)):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                found[f"{name}::{qualified}"] = length
    return found


def too_complex(root: pathlib.Path = ROOT) -> dict[str, int]:
    """Every function, method and class of ``mancala_cli`` and ``notation``
    whose cyclomatic complexity (radon's) is over :data:`MAX_COMPLEXITY`."""
    from radon.complexity import cc_visit

    found = {}
    for path in sorted(p for package in ("mancala_cli", "notation") for p in (root / package).rglob("*.py")):
        for block in cc_visit(path.read_text(encoding="utf-8")):
            if block.complexity > MAX_COMPLEXITY:
                found[f"{path.relative_to(root)}::{block.fullname}"] = block.complexity
    return found


def _against(found: dict[str, int], allowed: dict[str, str]) -> tuple[list[str], list[str]]:
    """What is over a limit and not allowed, and what is allowed but no longer over it."""
    return ([f"{name}: {size}" for name, size in found.items() if name not in allowed],
            sorted(name for name in allowed if name not in found))


def test_files_and_functions_are_short():
    assert _against(too_long(), TOO_LONG) == ([], [])


def test_functions_are_simple():
    pytest.importorskip("radon.complexity", reason="radon is not installed")
    assert _against(too_complex(), TOO_COMPLEX) == ([], [])


def _function(name: str, lines: int, indent: str = "") -> str:
    """The text of a function of ``lines`` lines."""
    return f"{indent}def {name}():\n" + "".join(f"{indent}    x{i} = {i}\n" for i in range(lines - 1))


def test_the_size_scans_see_long_files_functions_methods_and_nested_ones(tmp_path):
    branches = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(21))
    files = {
        "mancala_cli/__init__.py": "",
        "mancala_cli/short.py": _function("fits", 60) + "\n" * 539,  # 600 lines
        "mancala_cli/long.py": ("class A:\n" + _function("method", 61, "    ")
                                + _function("outer", 63).replace("    x0 = 0\n", _function("inner", 61, "    "))
                                + "\n" * 416),  # 601 lines
        "mancala_cli/branchy.py": f"def twenty_one(x):\n{branches}",  # complexity 22
        "notation/__init__.py": "",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert too_long(tmp_path) == {"mancala_cli/long.py": 601, "mancala_cli/long.py::A.method": 61,
                                  "mancala_cli/long.py::outer": 123, "mancala_cli/long.py::outer.inner": 61}
    assert _against({"a.py": 700, "b.py::f": 70}, {"b.py::f": "why", "c.py": "why"}) == (["a.py: 700"], ["c.py"])
    pytest.importorskip("radon.complexity", reason="radon is not installed")
    assert too_complex(tmp_path) == {"mancala_cli/branchy.py::twenty_one": 22}


#: The most lines a module of the command line has: a command parses its
#: options and calls the library, which does the work.
MAX_COMMAND_LINES = 150

def test_the_command_line_is_thin():
    lines = {str(path.relative_to(ROOT)): len(path.read_text(encoding="utf-8").splitlines())
             for path in sorted((ROOT / "mancala_cli" / "cli").glob("*.py"))}
    assert "mancala_cli/cli/render.py" in lines
    assert {path: count for path, count in lines.items() if count > MAX_COMMAND_LINES} == {}


# -- imports at the top ------------------------------------------------------------------

#: The most imports inside functions in the whole tree: only the entry's laziness
#: (one command module per run) and what an optional extra or a costly module that
#: most runs do without needs (each says which, in a comment on its line).
MAX_LOCAL_IMPORTS = 31


def local_imports(root: pathlib.Path = ROOT) -> list[tuple[str, int, str]]:
    """Every import inside a function of ``mancala_cli`` and ``notation``:
    (path, line, the text of its line with the two lines above it)."""
    found = []
    for path in sorted(p for package in ("mancala_cli", "notation") for p in (root / package).rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        seen = set()
        for function in ast.walk(ast.parse(text)):
            if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(function):
                    if isinstance(node, (ast.Import, ast.ImportFrom)) and node.lineno not in seen:
                        seen.add(node.lineno)
                        # (the line and the two above it: where its comment says why)
                        found.append((str(path.relative_to(root)), node.lineno,
                                      "\n".join(lines[max(0, node.lineno - 3):node.lineno])))
    return found


def test_imports_are_at_the_top_but_a_few_that_say_why():
    found = local_imports()
    assert len(found) <= MAX_LOCAL_IMPORTS, "\n".join(f"{path}:{line}: {text}" for path, line, text in found)
    assert [f"{path}:{line}" for path, line, text in found if "#" not in text] == []


def test_the_local_import_count_sees_nested_functions(tmp_path):
    (tmp_path / "mancala_cli").mkdir()
    (tmp_path / "notation").mkdir()
    (tmp_path / "mancala_cli" / "a.py").write_text(
        "import os\n\ndef f():\n    import re  # (why)\n\n    def g():\n        from os import path\n", encoding="utf-8")
    assert [(line, text.splitlines()[-1].strip()) for _, line, text in local_imports(tmp_path)] == [
        (4, "import re  # (why)"), (7, "from os import path")]


# -- figures live in docs/performance.md -------------------------------------------------

#: A time written with its unit: milli-, micro- or nanoseconds always, seconds
#: unless a limit or an option's value ("at most 86400 seconds", "--time 3
#: seconds", "the default 300 s"), and a speed-up ("3 × faster").
_TIMING = re.compile(
    r"\d(?:[\d,]*\d)?(?:\.\d+)?\s?(?:ms|µs|μs|ns)\b"
    r"|(?<!at most )(?<!at least )(?<!within )(?<!after )(?<!every )(?<!--time )(?<!default )(?<!limit of )"
    r"(?<![\d.,])\d(?:[\d,]*\d)?(?:\.\d+)?\s?(?:s|seconds?)\b"
    r"|\d(?:\.\d+)?\s?(?:×|x|times)\s+(?:faster|slower|quicker)")

#: Comments and docstrings that may carry a timing, by ``path: the timing``,
#: and why (none: a figure is measured, and lives in docs/performance.md; a
#: comment names the section there).
TIMINGS_ALLOWED: dict[str, str] = {}


def _comments_and_docstrings(path: pathlib.Path) -> Iterator[tuple[int, str]]:
    """The comments (``#`` in Python, ``/* */`` and ``//`` in C) and the
    docstrings of ``path``, each with its first line."""
    text = path.read_text(encoding="utf-8")
    if path.suffix in (".c", ".h"):
        for match in re.finditer(r"/\*.*?\*/|//[^\n]*", text, re.S):
            yield text.count("\n", 0, match.start()) + 1, match.group()
        return
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            docstring = ast.get_docstring(node, clean=False)
            if docstring is not None:
                yield node.body[0].lineno, docstring


def timings_in_comments(root: pathlib.Path = ROOT) -> dict[str, int]:
    """Every timing (:data:`_TIMING`) in a comment or docstring of
    ``mancala_cli`` and ``notation``, as ``path: the timing`` with its line."""
    found = {}
    for package in ("mancala_cli", "notation"):
        for path in sorted(p for p in (root / package).rglob("*") if p.suffix in (".py", ".c", ".h")):
            for line, text in _comments_and_docstrings(path):
                for match in _TIMING.finditer(" ".join(text.split())):
                    found[f"{path.relative_to(root)}: {match.group()}"] = line
    return found


def test_no_comment_or_docstring_carries_a_timing():
    """A measured figure lives in docs/performance.md, with its command and
    date; a comment says why the code is so and names the section there."""
    found = timings_in_comments()
    assert _against(found, TIMINGS_ALLOWED) == ([], []), "\n".join(f"{name} (line {line})"
                                                                   for name, line in found.items())


def test_the_timing_scan_sees_comments_docstrings_and_c_but_not_limits(tmp_path):
    (tmp_path / "mancala_cli").mkdir()
    (tmp_path / "notation").mkdir()
    (tmp_path / "mancala_cli" / "a.py").write_text(
        '"""Reading takes 9 µs a position."""\n'
        "import re  # (local: 27 ms that validate does without)\n"
        "X = 1  # the kingulu start: 7.3 million positions and 4.4 s, 3 × faster\n"
        "def f():\n"
        '    """Give up after 30 seconds, or at most 86400 seconds (--time 3 seconds\n'
        '    is the default 300 s of a 4 × 8 board, 1.5 × python -c pass; 10 s\n'
        '    wall)."""\n', encoding="utf-8")
    (tmp_path / "notation" / "k.c").write_text("/* 0.8\n   ms a ply */\nint x; // 2,5 seconds\n", encoding="utf-8")
    assert timings_in_comments(tmp_path) == {
        "mancala_cli/a.py: 9 µs": 1, "mancala_cli/a.py: 27 ms": 2, "mancala_cli/a.py: 4.4 s": 3,
        "mancala_cli/a.py: 3 × faster": 3, "mancala_cli/a.py: 10 s": 5,
        "notation/k.c: 0.8 ms": 1, "notation/k.c: 2,5 seconds": 3}


# -- one name, one path ------------------------------------------------------------------

#: The package's entry: its lazy table (``_LATER``) is the one place a name
#: may be imported from beside its home.
ENTRY = "mancala_cli"


def _top_level(tree: ast.Module) -> Iterator[ast.stmt]:
    """The statements run at import (into ``if``/``try`` blocks, but not
    ``if TYPE_CHECKING:``, which only type checkers run)."""
    work = list(tree.body)
    while work:
        node = work.pop(0)
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            work[:0] = node.orelse
            continue
        yield node
        if isinstance(node, ast.If):
            work[:0] = [*node.body, *node.orelse]
        elif isinstance(node, ast.Try):
            work[:0] = [*node.body, *[s for h in node.handlers for s in h.body], *node.orelse, *node.finalbody]


def defined_names(path: pathlib.Path) -> set[str]:
    """The names a module defines itself (functions, classes, assignments),
    not those it imports."""
    found: set[str] = set()
    for node in _top_level(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                found.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return found


def lazy_table(root: pathlib.Path = ROOT) -> dict[str, str]:
    """The entry's lazy table, ``_LATER``: each name and the module (relative
    to the package) that defines it."""
    tree = ast.parse((root / ENTRY / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and any(
                isinstance(t, ast.Name) and t.id == "_LATER"
                for t in (node.targets if isinstance(node, ast.Assign) else [node.target])):
            assert node.value is not None
            value = eval(compile(ast.Expression(node.value), "_LATER", "eval"), {})  # (our own source)
            assert isinstance(value, dict)
            return value
    return {}


def second_paths(root: pathlib.Path = ROOT, folders: tuple[str, ...] = ("mancala_cli", "notation", "tests",
                                                                       "benchmarks")) -> list[str]:
    """Every import of a project's name from a module that does not define
    it (a second path to the name), but the entry's lazy table; every
    ``__all__`` that lists a name its module does not define."""
    paths = {_module_name(p, root): p for package in ("mancala_cli", "notation") for p in (root / package).rglob("*.py")}
    defined = {name: defined_names(path) for name, path in paths.items()}
    later = set(lazy_table(root))
    bad = []
    for folder in folders:
        for path in sorted((root / folder).rglob("*.py")):
            where = path.relative_to(root).as_posix()
            for module, names in _imported(path, root):
                if module not in paths:
                    continue
                for name in names:
                    if (name == "*" or _is_module(f"{module}.{name}", set(paths), root) or name in defined[module]
                            or (module == ENTRY and name in later) or name == "__version__" and module == ENTRY):
                        continue
                    bad.append(f"{where} imports {name} from {module}")
    for module, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
                    and isinstance(node.value, (ast.List, ast.Tuple))):
                listed = {e.value for e in node.value.elts if isinstance(e, ast.Constant)}
                extra = listed - defined[module] - (later | {"__version__"} if module == ENTRY else set())
                bad.extend(f"{path.relative_to(root).as_posix()} lists {name} in __all__" for name in sorted(extra))
    return bad


def module_getattrs(root: pathlib.Path = ROOT) -> list[str]:
    """The modules of the project with a module-level ``__getattr__`` (PEP 562)."""
    return sorted(path.relative_to(root).as_posix() for package in ("mancala_cli", "notation")
                  for path in (root / package).rglob("*.py")
                  if any(isinstance(node, ast.FunctionDef) and node.name == "__getattr__"
                         for node in _top_level(ast.parse(path.read_text(encoding="utf-8")))))


def re_export_modules(root: pathlib.Path = ROOT) -> list[str]:
    """The modules that only re-export: they import names of the project and
    define none of their own."""
    found = []
    for package in ("mancala_cli", "notation"):
        for path in sorted((root / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            takes = [node for node in _top_level(tree) if isinstance(node, ast.ImportFrom)
                     and (node.level or (node.module or "").split(".")[0] in ("mancala_cli", "notation"))
                     and node.module != "__future__"]
            if takes and not defined_names(path) - {"__all__"} and not any(
                    isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) for node in tree.body):
                found.append(path.relative_to(root).as_posix())
    return found


def entry_stubs(root: pathlib.Path = ROOT) -> dict[str, str]:
    """The entry's type stubs (its ``if TYPE_CHECKING:`` imports): each name
    and the module it is imported from, as absolute names."""
    path = root / ENTRY / "__init__.py"
    stubs = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom) and statement.module != "typing":
                    module = ((ENTRY + "." if statement.level else "") + (statement.module or "")).rstrip(".")
                    stubs.update({alias.asname or alias.name: module for alias in statement.names})
    return stubs


def test_each_name_is_imported_from_the_module_that_defines_it():
    """One path per name: nothing of the project is imported from a module
    that does not define it (no facade, no re-export), but the package's
    lazy table (``mancala_cli.NAME``), and no ``__all__`` lists a name
    defined elsewhere."""
    assert second_paths() == []


def test_only_the_entry_has_a_module_level_getattr():
    assert module_getattrs() == ["mancala_cli/__init__.py"]


def test_no_module_only_re_exports():
    assert re_export_modules() == []


def test_the_entrys_type_stubs_are_its_lazy_table():
    """The ``if TYPE_CHECKING:`` imports of ``mancala_cli/__init__.py`` name
    exactly the names of ``_LATER``, each from the module the table loads it
    from, and that module defines it."""
    later, stubs = lazy_table(), entry_stubs()
    assert later and stubs == later
    paths = {_module_name(p, ROOT): p for package in ("mancala_cli", "notation") for p in (ROOT / package).rglob("*.py")}
    assert [name for name, module in later.items() if name not in defined_names(paths[module])] == []
    import mancala_cli

    assert set(mancala_cli.__all__) - {"__version__"} <= set(later)


def test_one_type_checking_constant():
    """``TYPE_CHECKING`` is defined once (``mancala_cli/version.py``, for the
    modules ``mancala --version`` loads); the others import typing's."""
    found = [path.relative_to(ROOT).as_posix() for package in ("mancala_cli", "notation")
             for path in (ROOT / package).rglob("*.py") if "TYPE_CHECKING" in defined_names(path)]
    assert found == ["mancala_cli/version.py"]


def test_the_one_path_scans_see_re_exports_getattrs_and_stubs(tmp_path):
    files = {
        "mancala_cli/__init__.py": ("TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from .a import thing as thing\n"
                                    "_LATER = {'thing': 'mancala_cli.a', 'other': 'mancala_cli.a'}\n"
                                    "def __getattr__(name):\n    pass\n"),
        "mancala_cli/a.py": "thing = 1\nother = 2\n",
        "mancala_cli/b.py": "from .a import thing\n__all__ = ['thing']\n",
        "mancala_cli/c.py": "from .b import thing\nfrom . import thing as x, a\nfrom mancala_cli import other\ny = x\n",
        "mancala_cli/d.py": "if True:\n    def __getattr__(name):\n        pass\n",
        "notation/__init__.py": "",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert second_paths(tmp_path, ("mancala_cli",)) == ["mancala_cli/c.py imports thing from mancala_cli.b",
                                                         "mancala_cli/b.py lists thing in __all__"]
    assert module_getattrs(tmp_path) == ["mancala_cli/__init__.py", "mancala_cli/d.py"]
    assert re_export_modules(tmp_path) == ["mancala_cli/b.py"]
    assert entry_stubs(tmp_path) == {"thing": "mancala_cli.a"} != lazy_table(tmp_path)


# -- names that explain themselves, once ---------------------------------------------------

def shared_file_names(root: pathlib.Path = ROOT) -> dict[str, list[str]]:
    """The file names (``__init__.py`` aside) that more than one module of
    ``mancala_cli`` and ``notation`` has, with those modules."""
    found: dict[str, list[str]] = {}
    for package in ("mancala_cli", "notation"):
        for path in sorted((root / package).rglob("*.py")):
            if path.name != "__init__.py":
                found.setdefault(path.name, []).append(path.relative_to(root).as_posix())
    return {name: paths for name, paths in found.items() if len(paths) > 1}


def shared_class_names(root: pathlib.Path = ROOT) -> dict[str, list[str]]:
    """The public class names that more than one module defines (at its top
    level), with those modules."""
    found: dict[str, list[str]] = {}
    for package in ("mancala_cli", "notation"):
        for path in sorted((root / package).rglob("*.py")):
            for node in _top_level(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                    found.setdefault(node.name, []).append(path.relative_to(root).as_posix())
    return {name: paths for name, paths in found.items() if len(paths) > 1}


def test_no_two_modules_share_a_file_name():
    assert shared_file_names() == {}


def test_no_two_public_classes_share_a_name():
    assert shared_class_names() == {}


def test_the_name_scans_see_a_shared_file_name_and_class(tmp_path):
    files = {
        "mancala_cli/__init__.py": "",
        "mancala_cli/errors.py": "class Fault(Exception):\n    pass\nclass _Own:\n    pass\n",
        "mancala_cli/cli/solve.py": "if True:\n    class Fault:\n        pass\nclass _Own:\n    pass\n",
        "notation/__init__.py": "",
        "notation/errors.py": "",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert shared_file_names(tmp_path) == {"errors.py": ["mancala_cli/errors.py", "notation/errors.py"]}
    assert shared_class_names(tmp_path) == {"Fault": ["mancala_cli/cli/solve.py", "mancala_cli/errors.py"]}
