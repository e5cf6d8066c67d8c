"""Small owners: no class of the application layer or the phone page's adapter holds more than
300 lines (a class that grows past it has more than one job: split it)."""

from __future__ import annotations

import ast

from tests.test_imports import modules, tree, within

LIMIT = 300


def class_sizes() -> dict[str, int]:
    sizes = {}
    for module in modules():
        if not (within(module, "companion.app") or within(module, "companion.web")):
            continue
        for node in ast.walk(tree(module)):
            if isinstance(node, ast.ClassDef):
                assert node.end_lineno is not None
                sizes[f"{module}.{node.name}"] = node.end_lineno - node.lineno + 1
    return sizes


def test_no_class_of_the_application_or_the_web_is_over_300_lines() -> None:
    sizes = class_sizes()
    assert "companion.app.scorekeeper.ScoreKeeper" in sizes  # the walk sees the classes
    assert {name: size for name, size in sizes.items() if size > LIMIT} == {}
