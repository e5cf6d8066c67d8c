"""The maker's documents agree with themselves and with the files they show."""

from __future__ import annotations

import re
from pathlib import Path

from hardware.tools import scad

HARDWARE = Path(__file__).resolve().parents[1] / "hardware"


def table_rows(text: str, heading: str) -> list[list[str]]:
    """Body rows of the first Markdown table after ``heading``."""
    section = text.split(heading, 1)[1]
    rows = []
    for line in section.splitlines()[1:]:
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
        elif rows:
            break
    return rows[2:]  # skip the header and its rule


def euros(cell: str) -> float:
    return float(cell.strip("*€ "))


def test_bom_lines_and_totals_add_up() -> None:
    text = (HARDWARE / "bom.md").read_text()
    common = table_rows(text, "## Parts every box needs")
    assert len(common) >= 15
    for qty, part, _, unit, line, *_ in common:
        assert abs(int(qty) * euros(unit) - euros(line)) < 0.005, part
    common_total = sum(euros(row[4]) for row in common)
    stated = re.search(r"Common parts total: \*\*([\d.]+) €\*\*", text)
    assert stated is not None and abs(float(stated.group(1)) - common_total) < 0.005
    boards = {}
    for board, price, _, supply, card, total in table_rows(text, "## The board, its supply"):
        assert abs(euros(price) + euros(supply) + euros(card) - euros(total)) < 0.005, board
        boards[board.split(" (")[0]] = euros(total)
    totals = table_rows(text, "## Totals per board")
    assert [row[0] for row in totals] == list(boards)
    for board, common_cell, board_cell, box in totals:
        assert euros(common_cell) == common_total and euros(board_cell) == boards[board]
        assert abs(common_total + boards[board] - euros(box)) < 0.005, board


def test_the_readme_shows_pictures_of_every_part_and_they_exist() -> None:
    text = (HARDWARE / "README.md").read_text()
    shown = re.findall(r"\]\((pictures/[\w.]+\.png)\)", text)
    for picture in shown:
        assert (HARDWARE / picture).is_file(), picture
    for part in scad.part_names():
        assert f"pictures/part_{part}.png" in shown, part
        assert f"parts/{part}.scad" in text, part
