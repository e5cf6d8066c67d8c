"""The tests reach the program through its public doors: no test reads, patches or imports a
private name (``_name``) of another module (a private name changes without notice; a test
that needs one asks for a public door instead)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
STANDARD = {"_exit"}  # os._exit: the standard library's own, documented
# Private names still read where their module is being reworked; each leaves with its door.
BEING_OPENED = {
    ("test_devices_mash.py", "_pending"),
    ("test_devices_pwm.py", "_PERIOD_NS"),
    ("test_table_log.py", "_rng"),
    ("test_long_work.py", "_nfc"),
    ("bench/daemon.py", "_last_change"),  # gpiozero's mock pin: the time of its last change
    ("bench/camera.py", "_last_change"),
}


def private_names(path: Path) -> set[str]:
    """The private names of other modules ``path`` reads, patches or imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = list(ast.walk(tree))
    own = {n.name for n in nodes if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    own |= {
        n.attr
        for n in nodes
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self"
    }
    found = set()
    for node in nodes:
        if isinstance(node, ast.Attribute):
            name, owner = node.attr, node.value
            if not (isinstance(owner, ast.Name) and owner.id in ("self", "cls")):
                found.add(name)
        elif isinstance(node, ast.ImportFrom):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "setattr":
            for arg in node.args[:2]:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.add(arg.value.rpartition(".")[2])
    return {
        name
        for name in found
        if name.startswith("_") and not name.startswith("__") and name not in own | STANDARD
    }


def test_no_test_reads_a_private_name_of_another_module() -> None:
    found = {
        (str(path.relative_to(TESTS)), name)
        for path in TESTS.rglob("*.py")
        for name in private_names(path)
    }
    assert found <= BEING_OPENED


def test_the_rule_sees_a_private_read(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("from m import _hidden\nx = storage._db\nmonkeypatch.setattr(a, '_run', f)\n")
    assert private_names(probe) == {"_hidden", "_db", "_run"}
