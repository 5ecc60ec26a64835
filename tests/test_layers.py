"""The layers import one way: the record layer (``notation``) knows nothing of
``mancala_cli``; the rules know no notation, diagrams or command line; only
the command line imports typer and rich. Every import statement counts, at
the top of a module or inside a function."""
from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

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
    assert "mancala_cli.rules.core" in imports(ROOT / "mancala_cli" / "rules" / "kingulu.py")
    assert "mancala_cli.checking" in imports(ROOT / "mancala_cli" / "cli" / "drawing.py")  # inside a function


def test_notation_imports_nothing_from_mancala_cli():
    assert _offending(modules("notation"), ["mancala_cli"]) == []


def test_the_rules_import_no_notation_diagrams_checking_or_command_line():
    forbidden = ["notation", "mancala_cli.diagrams", "mancala_cli.cli", "mancala_cli.checking",
                 "mancala_cli.records", "mancala_cli.positions", "mancala_cli.api", "typer", "rich", "lxml",
                 "pyparsing"]
    assert _offending(modules("mancala_cli/rules"), forbidden) == []


def test_only_the_command_line_imports_typer_or_rich():
    outside = [p for p in modules("mancala_cli") + modules("notation")
               if not p.is_relative_to(ROOT / "mancala_cli" / "cli")]
    assert outside and _offending(outside, ["typer", "rich"]) == []


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
