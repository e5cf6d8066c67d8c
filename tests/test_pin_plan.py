"""The pin plan: pinmap.md, wiring.md, config.example.toml and the code say the same, no two parts
share a pin, and no output sits on the pins a sound output needs."""

from __future__ import annotations

import re
import tomllib
from dataclasses import fields
from pathlib import Path

import pytest

from companion.devices import NO_PIN, PinsConfig
from companion.speech.audio import AUDIO_OUTPUTS, AUDIO_PINS

ROOT = Path(__file__).resolve().parent.parent
# BCM number → physical pin of the 40-pin header (every Pi since the B+).
HEADER = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31,
    13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26,
    1: 28, 12: 32, 16: 36, 20: 38, 21: 40,
}  # fmt: skip
OUTPUTS = ("ejector", "exit_motor", "turret", "buzzer")


def pinmap_rows() -> dict[str, tuple[int, int, int]]:
    """config key → (default BCM or -1, BCM to wire, header pin) from hardware/pinmap.md."""
    rows = {}
    text = (ROOT / "hardware" / "pinmap.md").read_text(encoding="utf-8")
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 4 or not cells[1].startswith("`"):
            continue
        key = cells[1].strip("`")
        wired = int(re.search(r"GPIO(\d+)", cells[2]).group(1))  # type: ignore[union-attr]
        default = NO_PIN if "default -1" in cells[2] else wired
        rows[key] = (default, wired, int(cells[3]))
    return rows


def wiring_pairs() -> set[tuple[int, int]]:
    text = (ROOT / "hardware" / "wiring.md").read_text(encoding="utf-8")
    return {(int(b), int(h)) for b, h in re.findall(r"GPIO(\d+)\s*\((\d+)\)", text)}


def example_pins() -> dict[str, int]:
    data = tomllib.loads((ROOT / "config.example.toml").read_text(encoding="utf-8"))
    return dict(data["hardware"]["pins"])


def code_pins() -> dict[str, int]:
    defaults = PinsConfig()
    return {f.name: getattr(defaults, f.name) for f in fields(PinsConfig)}


def test_pinmap_example_and_code_agree() -> None:
    rows = pinmap_rows()
    assert set(rows) == set(code_pins()), "every config key has one row in pinmap.md"
    assert {key: row[0] for key, row in rows.items()} == code_pins()
    assert example_pins() == code_pins()


def test_header_pins_are_right_and_wiring_matches() -> None:
    rows = pinmap_rows()
    for key, (_, bcm, header) in rows.items():
        assert HEADER[bcm] == header, f"{key}: GPIO{bcm} is header pin {HEADER[bcm]}"
    pairs = wiring_pairs()
    for bcm, header in pairs:
        assert HEADER[bcm] == header, f"wiring.md: GPIO{bcm} is header pin {HEADER[bcm]}"
    wired = {bcm for bcm, _ in pairs}
    for key, pin in code_pins().items():
        if pin != NO_PIN:
            assert pin in wired, f"wiring.md does not show {key} on GPIO{pin}"


def test_no_two_parts_share_a_pin_even_with_every_option_fitted() -> None:
    planned = [row[1] for row in pinmap_rows().values()]
    assert len(planned) == len(set(planned))


@pytest.mark.parametrize("output", AUDIO_OUTPUTS)
def test_outputs_leave_every_sound_output_alone(output: str) -> None:
    pins = code_pins()
    taken = AUDIO_PINS.get(output, frozenset())
    for part in OUTPUTS:
        assert pins[part] not in taken, f"{part} on GPIO{pins[part]} clashes with {output} audio"
    # Nothing at all on the I2S pins, inputs included: a HAT can be added later.
    assert not set(row[1] for row in pinmap_rows().values()) & AUDIO_PINS["hat"]


def test_servos_sit_on_hardware_pwm_channels() -> None:
    pins = code_pins()
    assert {pins["ejector"], pins["turret"]} == {12, 13}
