"""The maker's documents agree with themselves, with each other and with the files they show."""

from __future__ import annotations

import re
from pathlib import Path

from hardware.tools import scad

ROOT = Path(__file__).resolve().parents[1]
HARDWARE = ROOT / "hardware"
# the documents that name the box's supply
SUPPLY_DOCS = [
    HARDWARE / "README.md",
    HARDWARE / "bom.md",
    HARDWARE / "power.md",
    HARDWARE / "wiring.md",
    ROOT / "README.md",
]


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


def bom_parts() -> list[list[str]]:
    return table_rows((HARDWARE / "bom.md").read_text(), "## Parts every box needs")


def test_bom_lines_and_totals_add_up() -> None:
    text = (HARDWARE / "bom.md").read_text()
    common = bom_parts()
    assert len(common) >= 25
    for qty, part, _, unit, line, *_ in common:
        assert abs(int(qty) * euros(unit) - euros(line)) < 0.005, part
    common_total = sum(euros(row[4]) for row in common)
    stated = re.search(r"Common parts total: \*\*([\d.]+) €\*\*", text)
    assert stated is not None and abs(float(stated.group(1)) - common_total) < 0.005
    boards = {}
    for board, price, card, total in table_rows(text, "## The board and its card"):
        assert abs(euros(price) + euros(card) - euros(total)) < 0.005, board
        boards[board.split(" (")[0]] = euros(total)
    totals = table_rows(text, "## Totals per board")
    assert [row[0] for row in totals] == list(boards)
    for board, common_cell, board_cell, box in totals:
        assert abs(euros(common_cell) - common_total) < 0.005 and euros(board_cell) == boards[board]
        assert abs(common_total + boards[board] - euros(box)) < 0.005, board


def test_one_supply_rating_everywhere() -> None:
    ratings = {
        (path.name, rating)
        for path in SUPPLY_DOCS
        for rating in re.findall(r"5 V (\d+(?:\.\d+)?) A", path.read_text())
    }
    assert ratings and {rating for _, rating in ratings} == {"5"}, ratings
    supplies = [row for row in bom_parts() if row[1] == "Supply"]
    assert len(supplies) == 1 and supplies[0][0] == "1" and "5 V 5 A" in supplies[0][2]


SERVO_MODEL = re.compile(r"\b(?:MG|SG|FS|DS|HS)\d{2,4}[A-Z]*\b")


def test_the_turret_servo_is_named_the_same_in_every_guide() -> None:
    models = {row[1]: SERVO_MODEL.findall(row[2]) for row in bom_parts() if "servo" in row[1]}
    turret, feed = models["Turret servo"], models["Feed servo"]
    assert len(turret) == 1 and len(feed) == 1, models
    for name in ("power.md", "wiring.md", "calibration.md", "README.md"):
        named = set(SERVO_MODEL.findall((HARDWARE / name).read_text()))
        assert turret[0] in named, f"{name} does not name the turret's {turret[0]}"
        assert named <= {turret[0], feed[0]}, f"{name} names {named - {turret[0], feed[0]}}"


def test_the_horn_screw_is_one_size_in_the_readme_the_bom_and_the_model() -> None:
    size, length = scad.fit_values()["horn"][0]
    screw = f"M{size} × {length}"
    readme = (HARDWARE / "README.md").read_text()
    assert re.findall(r"\*\*(M[\d.]+ × \d+) self-tapping screws\*\*", readme) == [screw]
    kits = [row[2] for row in bom_parts() if row[1] == "Screw kit"]
    assert len(kits) == 1 and f"{screw} self-tapping (horns)" in kits[0]
    # no other horn screw named anywhere in the guide
    assert set(re.findall(r"(M[\d.]+ × \d+)[^.]*horn", readme)) <= {screw}


# every wired part of the BOM, and the fit.scad value that gives it its printed place
PLACES = {
    "Feed servo": "feed_servo_holes",
    "Turret servo": "turret_servo_holes",
    "Exit motor": "exit",
    "Motor driver": "dist_holes",  # on the distribution board
    "HIT button": "button",
    "Shutdown button": "panel_holes",
    "Piezo buzzer": "base_boxes:piezo cradle",
    "IR break-beam pair": "beam",
    "Amplifier for the voice": "base_boxes:amplifier",
    "Speaker": "base_boxes:speaker",
    "Barrel jack": "panel_holes",
    "Distribution board": "dist_holes",
    "Pi power lead": "pi_holes",
}
WIRED = re.compile(r"servo|motor|driver|button|buzzer|beam|amplifier|speaker|jack|board|lead")


def test_every_wired_part_has_a_bom_line_and_a_printed_place() -> None:
    fit = scad.fit_values()
    parts = {row[1] for row in bom_parts()}
    wired = {part for part in parts if WIRED.search(part.lower())}
    assert wired == set(PLACES), wired ^ set(PLACES)
    boxes = {name for name, _, _ in fit["base_boxes"]}
    for part, place in PLACES.items():
        name, _, box = place.partition(":")
        assert fit[name], part
        assert not box or box in boxes, part


def test_the_readme_shows_pictures_of_every_part_and_they_exist() -> None:
    text = (HARDWARE / "README.md").read_text()
    shown = re.findall(r"\]\((pictures/[\w.]+\.png)\)", text)
    for picture in shown:
        assert (HARDWARE / picture).is_file(), picture
    for part in scad.part_names():
        assert f"pictures/part_{part}.png" in shown, part
        assert f"parts/{part}.scad" in text, part
    guides = "".join(p.read_text() for p in [*HARDWARE.glob("*.md"), ROOT / "README.md"])
    for picture in (HARDWARE / "pictures").glob("*.png"):
        assert f"pictures/{picture.name}" in guides, f"{picture.name} is shown nowhere"


# the camera's wired parts and the fit.scad value that gives each its printed place
CAMERA_PLACES = {"Camera": "mount", "Camera cable": "cable_slot", "LED strip": "led"}


def test_the_camera_bom_adds_up_and_each_wired_part_has_a_place() -> None:
    text = (HARDWARE / "bom.md").read_text()
    rows = table_rows(text, "## The camera (optional")
    for qty, part, _, unit, line, *_ in rows:
        assert abs(int(qty) * euros(unit) - euros(line)) < 0.005, part
    stated = re.search(r"Camera total: \*\*([\d.]+) €\*\*", text)
    assert stated is not None
    assert abs(float(stated.group(1)) - sum(euros(row[4]) for row in rows)) < 0.005
    fit = scad.fit_values()
    parts = {row[1] for row in rows}
    for part, place in CAMERA_PLACES.items():
        assert part in parts and fit[place], part
    # the light's current is the same in the model, the budget and the wiring
    amperes = fit["led"][2]
    total = f"{2 * amperes:.2f} A"
    for name in ("power.md", "wiring.md", "README.md"):
        assert total in (HARDWARE / name).read_text(), name


# the documents a maker sets the launcher up with
SETUP_DOCS = [HARDWARE / "README.md", HARDWARE / "calibration.md", HARDWARE / "bom.md"]


def figures(pattern: str) -> set[tuple[str, ...]]:
    """Every match of ``pattern`` (its groups) in the setup documents, newlines as spaces."""
    found: set[tuple[str, ...]] = set()
    for path in SETUP_DOCS:
        text = " ".join(path.read_text().split())
        found |= {m if isinstance(m, tuple) else (m,) for m in re.findall(pattern, text)}
    return found


def test_one_set_of_calibration_numbers_read_from_dims_scad() -> None:
    """The throat and its feeler, the separator's spring, the pinch's springs, the floors, the
    follower and the O-ring sizes: every document gives the numbers dims.scad gives."""
    fit = scad.fit_values()
    throat = f"{fit['throat_h']:.2f}"
    assert figures(r"(\d+\.\d+) mm (?:blade|feeler)") == {(throat,)}
    assert figures(r"edge (?:stands|rests) \**(\d+\.\d+) mm") == {(throat,)}
    _, _, force, _, rate, _, _ = fit["separator"]
    spring = figures(r"\(\**(\d+\.\d+) N\**, (\d+\.\d+) N/mm\)")
    assert spring == {(f"{force:.2f}", f"{rate:.3f}")}, spring
    pinch = figures(r"(\d+\.\d+) N together|with \*\*(\d+\.\d+) N\*\*")
    assert {value for pair in pinch for value in pair if value} == {f"{fit['pinch'][0]:.1f}"}
    relief = fit["path_z"] - fit["floor_top"]
    drop = fit["land"][0] - fit["nose_top"]
    assert figures(r"floor (?:under the stack|between them) stands \**(\d+\.\d+) mm") == {
        (f"{relief:.1f}",)
    }
    assert figures(r"nose floor[^.]{0,40}?\**(\d+\.\d+) mm\** under the land") == {(f"{drop:.1f}",)}
    # the tyres' sink the floor allows for, and the steel shim that sets the throat
    low, high = fit["tyre_sink"]
    assert figures(r"sink \**(\d+\.\d+)[–-](\d+\.\d+) mm") == {(f"{low:.1f}", f"{high:.2f}")}
    shim_t, shim_h = fit["gate_shim"][1], fit["gate_shim"][5]
    assert figures(r"(\d+\.\d+) × (\d+\.\d+) mm steel shim") == {(f"{shim_t:.2f}", f"{shim_h:.1f}")}
    assert figures(r"(\d+) g in all") == {(f"{fit['follower'][1]:.0f}",)}
    # the O-rings the BOM lists are the ones the model stretches into its grooves
    drawn = {name: ring for name, ring, *_ in fit["orings"]}
    listed = figures(r"(\d+) × (\d+(?:\.\d+)?) mm \((tyres|exit roller|idler)\)")
    assert {(part.removesuffix("s"), float(i), float(c)) for i, c, part in listed} == {
        (name, float(ring[0]), float(ring[1])) for name, ring in drawn.items()
    }
    # and the assembly guide rolls the same sizes on
    guide = " ".join((HARDWARE / "README.md").read_text().split())
    for _, (inside, cord) in ((n, r) for n, r in drawn.items()):
        assert f"{inside:g} × {cord:g} mm" in guide, (inside, cord)
