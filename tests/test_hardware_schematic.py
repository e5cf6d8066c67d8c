"""The wiring schematic is drawn from the code's default pins and kept up to date."""

from __future__ import annotations

from companion.devices.config import NO_PIN, PinsConfig
from hardware.tools import schematic


def test_the_committed_schematic_is_up_to_date() -> None:
    assert schematic.SVG.read_text() == schematic.draw(), "run `make schematic` and commit"


def test_the_schematic_follows_the_pin_plan() -> None:
    defaults = PinsConfig()
    drawn = schematic.draw()
    for key, bcm in schematic.rows(defaults):
        if bcm == NO_PIN:
            assert f"optional: pins.{key}" in drawn
        else:
            assert f">GPIO{bcm}<" in drawn and f">{schematic.HEADER_PIN[bcm]}<" in drawn, key
    moved = schematic.draw(PinsConfig(buzzer=26, card_sensor=24))
    assert ">GPIO26<" in moved and ">37<" in moved  # BCM 26 is header pin 37
    assert ">GPIO24<" in moved and "optional: pins.card_sensor" not in moved
    # the protection parts are on the drawing
    for part in (
        "330 Ω",
        "1 kΩ across the piezo",
        "1N4148",
        "1000 µF",
        "servo rail",
        "fuse 4 A",
        "5 V 5 A",
        "MAX98357A",
        "dtoverlay=max98357a",
        "speaker",
        "DRV8833",
        "exit pinch",
    ):
        assert part in drawn, part
