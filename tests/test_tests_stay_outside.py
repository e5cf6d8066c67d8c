"""The tests reach the program through its public doors: besides reading (``tests/test_imports.py``
checks every ``thing._name``), no test imports or patches a private name (``_name``) of another
module: a private name changes without notice; a test that needs one asks for a public door."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def imported_or_patched(path: Path) -> set[str]:
    """The private names ``path`` imports from a module or patches with ``setattr``."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "setattr":
            for arg in node.args[:2]:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.add(arg.value.rpartition(".")[2])
    return {name for name in found if name.startswith("_") and not name.startswith("__")}


def test_no_test_imports_or_patches_a_private_name() -> None:
    found = {
        (str(path.relative_to(TESTS)), name)
        for path in TESTS.rglob("*.py")
        for name in imported_or_patched(path)
    }
    assert sorted(found) == []


def test_the_rule_sees_an_import_and_a_patch(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("from m import _hidden, shown\nmonkeypatch.setattr(a, '_run', f)\n")
    assert imported_or_patched(probe) == {"_hidden", "_run"}
