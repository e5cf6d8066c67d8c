"""The import rules of ``companion/``, read from the source with :mod:`ast`.

Dependencies point one way: the command line wires the daemon, the daemon builds the application
layer and the adapters around the core. Every module lives in one room (below); these tests name
the module and the line at fault.
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
# Every module's room. A new package (the camera's) must be placed here before it can pass.
ROOMS: dict[str, tuple[str, ...]] = {
    "core": ("companion.core",),
    "shared": ("companion.config", "companion.i18n", "companion.locations", "companion.logs"),
    "application": ("companion.app",),
    "adapters": ADAPTERS,
    "root": (
        "companion.daemon",
        "companion.cli",
        "companion.terminal",
        "companion.pi",
        "companion.__main__",
    ),
}


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
def tree(module: str) -> ast.Module:
    return ast.parse(modules()[module].read_text(encoding="utf-8"))


@cache
def imports(module: str) -> tuple[tuple[str, int], ...]:
    """Every module ``module`` imports (at the top or inside a function), with its line."""
    path = modules()[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree(module)):
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


def room_of(module: str) -> str | None:
    if module == "companion":
        return "root"
    found = [room for room, packages in ROOMS.items() if any(within(module, p) for p in packages)]
    return found[0] if len(found) == 1 else None


def test_every_module_lives_in_one_room():
    assert [m for m in modules() if room_of(m) is None] == []


def test_the_application_layer_imports_only_the_core_and_the_shared_modules():
    """The services talk to adapters through the objects the root hands them (typed by
    Protocols), never by importing them; nor do they import the root."""

    def forbidden(module: str, target: str) -> bool:
        return within(target, "companion") and room_of(target) not in (
            "core",
            "shared",
            "application",
        )

    assert violations("companion.app", forbidden) == []


def test_the_shared_modules_import_no_adapter_and_build_no_engine():
    def forbidden(module: str, target: str) -> bool:
        return room_of(target) in ("adapters", "application", "root") or within(
            target, "companion.core.table"
        )

    assert violations("companion.config", forbidden) == []
    assert violations("companion.locations", forbidden) == []


def private_reads(module: ast.Module) -> list[tuple[int, str]]:
    """``thing._name`` read in ``module`` (line, name) where ``thing`` is not ``self``/``cls``
    and ``_name`` is not one the module defines itself (a class of the module reaching into its
    neighbour, as a subscription into its hub). ``os._exit`` is the standard library's own
    public way out of a child process."""
    nodes = list(ast.walk(module))
    own = {node.name for node in nodes if isinstance(node, ast.FunctionDef)}
    own |= {
        node.attr
        for node in nodes
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in ("self", "cls")
    }
    return [
        (node.lineno, node.attr)
        for node in nodes
        if isinstance(node, ast.Attribute)
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
        and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
        and node.attr not in own
        and not (isinstance(node.value, ast.Name) and (node.value.id, node.attr) == ("os", "_exit"))
    ]


def test_no_module_reads_another_modules_private_attributes():
    found = [
        f"{module}:{line} reads .{name}"
        for module in modules()
        if room_of(module) in ("application", "root")
        for line, name in private_reads(tree(module))
    ]
    assert found == []


TESTS = PACKAGE.parent / "tests"


def test_no_test_reads_another_modules_private_attributes():
    """The tests go through the same doors as everyone else: the hub's state and queries, the
    parts' public methods."""
    found = [
        f"{path.relative_to(TESTS.parent)}:{line} reads .{name}"
        for path in sorted(TESTS.rglob("*.py"))
        for line, name in private_reads(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert found == []


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
    assert "companion.core.table" in targets("companion.daemon")  # builds the engine
    assert "companion.app.inputs" in targets("companion.app.hub")  # one door for the phone too
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
