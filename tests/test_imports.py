"""The import rules of ``companion/``, read from the source with :mod:`ast`.

Dependencies point one way: the command line wires the daemon, the daemon builds the application
layer and the adapters around the core. These tests name the module and the line at fault.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "companion"
ADAPTERS = (
    "companion.devices",
    "companion.speech",
    "companion.web",
    "companion.storage",
    "companion.vision",
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


@cache
def imports(module: str) -> tuple[tuple[str, int], ...]:
    """Every module ``module`` imports (at the top or inside a function), with its line."""
    path = modules()[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                # ``from package import module`` depends on that module, else on the package.
                target = f"{base}.{alias.name}"
                found.append((target if target in modules() else base, node.lineno))
    return tuple(found)


def companion_imports(module: str) -> list[tuple[str, int]]:
    return [(target, line) for target, line in imports(module) if within(target, "companion")]


def violations(importers: str, forbidden: Callable[[str, str], bool]) -> list[str]:
    """``module:line imports target`` for each import of a module under ``importers`` that
    ``forbidden(module, target)`` refuses."""
    return [
        f"{module}:{line} imports {target}"
        for module in modules()
        if within(module, importers)
        for target, line in imports(module)
        if forbidden(module, target)
    ]


def test_the_core_imports_only_the_core_and_the_standard_library():
    def outside(module: str, target: str) -> bool:
        top = target.split(".")[0]
        if top == "companion":
            return not within(target, "companion.core")
        return top not in sys.stdlib_module_names

    assert violations("companion.core", outside) == []


def test_adapters_import_neither_each_other_nor_the_application_layer():
    found = []
    for adapter in ADAPTERS:

        def forbidden(module: str, target: str, adapter: str = adapter) -> bool:
            others = [a for a in ADAPTERS if a != adapter]
            upward = ("companion.app", "companion.daemon", "companion.cli", "companion.terminal")
            return any(within(target, p) for p in (*others, *upward))

        found += violations(adapter, forbidden)
    assert found == []


def test_the_camera_reader_imports_only_the_core_of_companion():
    def forbidden(module: str, target: str) -> bool:
        inside = within(target, "companion.vision") or within(target, "companion.core")
        return within(target, "companion") and not inside

    assert violations("companion.vision", forbidden) == []
    assert "companion.core.script" in {t for t, _ in companion_imports("companion.vision.kinds")}


def test_only_main_imports_the_command_line():
    def forbidden(module: str, target: str) -> bool:
        allowed = within(module, "companion.cli") or module == "companion.__main__"
        return within(target, "companion.cli") and not allowed

    assert violations("companion", forbidden) == []


def test_no_import_loop_between_companion_modules():
    graph = {m: sorted({t for t, _ in companion_imports(m) if t in modules()}) for m in modules()}
    loops = strongly_connected(graph)
    assert [sorted(loop) for loop in loops if len(loop) > 1] == []


def test_the_rules_see_real_imports():
    """The parser resolves relative imports and ``from package import module`` (else the
    rules above would pass on nothing)."""

    def targets(module: str) -> set[str]:
        return {target for target, _ in companion_imports(module)}

    assert "companion.app.hub" in targets("companion.app.device_actions")  # from .hub import Hub
    assert "companion.locations" in targets("companion.cli.common")  # from companion import ...
    assert "companion.core.table" in targets("companion.config")  # builds the engine
    assert "companion.daemon" in targets("companion.cli.run")  # inside a function


def strongly_connected(graph: dict[str, list[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative: the groups of modules that import one another."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, child = work.pop()
            if child == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            targets = graph[node]
            if child < len(targets):
                work.append((node, child + 1))
                target = targets[child]
                if target not in index:
                    work.append((target, 0))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                groups.append(group)
    return groups
