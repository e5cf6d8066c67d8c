"""``docs/architecture.md`` names the rooms ``tests/test_imports.py`` checks, module for module."""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_imports import ROOMS, modules, room_of

DOC = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"


def rooms_in_the_doc() -> dict[str, set[str]]:
    """The rooms table of the doc: each room's modules as dotted names."""
    rooms: dict[str, set[str]] = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] not in ROOMS:
            continue
        names = set()
        for path in re.findall(r"`([^`]+)`", cells[1]):
            path = path.removeprefix("companion/").removesuffix("/").removesuffix(".py")
            names.add("companion." + path.replace("/", "."))
        rooms[cells[0]] = names
    return rooms


def test_the_rooms_table_matches_the_import_rules() -> None:
    assert rooms_in_the_doc() == {room: set(packages) for room, packages in ROOMS.items()}


def test_every_top_level_module_and_package_has_a_room_in_the_doc() -> None:
    documented = {name for names in rooms_in_the_doc().values() for name in names}
    top = {".".join(name.split(".")[:2]) for name in modules() if name != "companion"}
    assert top <= documented
    assert all(room_of(name) is not None for name in top)
