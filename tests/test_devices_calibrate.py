"""``uno-companion calibrate`` on the mock backend: prompt, bad input, saving into the config."""

from __future__ import annotations

import io
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion.cli.calibrate import Calibration, calibrate, save_calibration
from companion.config import load_config
from tests.doubles import VirtualClock
from tests.helpers import hardware_section

CONFIG = """\
# The Dupont table
[table]
players = ["Alice", "Bruno", "Chloé"]  # left of the box first
language = "fr"

[hardware]
backend = "mock"
debounce_ms = 25  # a noisy button

[hardware.turret]
slew_deg_s = 2000.0
settle_s = 0.01

[hardware.ejector]
feed_mm_s = 2000.0  # a fast feed: the prompt's test card takes a few milliseconds
exit_spin_up_s = 0.0
exit_run_on_s = 0.0
"""


def run_prompt(path: Path, lines: list[str], backend: str | None = "mock") -> tuple[int, str]:
    out = io.StringIO()
    status = calibrate(path, backend, 2.0, io.StringIO("\n".join(lines) + "\n"), out)
    return status, out.getvalue()


def test_aim_nudge_fire_and_save_keeps_the_rest_of_the_file(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    status, output = run_prompt(
        path,
        ["s 2", "+", "++", "-3", "100", "s 3", "a 300.5", "f", "w", "q"],
    )
    assert status == 0
    # Three seats all round; bearing 120° is the servo's 60° through the 2:1 gear.
    assert "seat 2 (Bruno): 120.0° (servo 60.0°, pulse 1200 µs)" in output
    assert "seat 2 (Bruno): 126.0°" in output  # + then ++: three 2° steps
    assert "seat 2 (Bruno): 123.0°" in output
    assert "fired 1 card(s) (cards fired so far: 1)" in output
    assert "beam: 1 card(s) counted" in output
    assert f"saved to {path}" in output
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# The Dupont table\n")
    assert 'players = ["Alice", "Bruno", "Chloé"]  # left of the box first' in text
    assert "debounce_ms = 25  # a noisy button" in text
    hardware = load_config(path).hardware
    assert hardware.turret.seat_angles == [0.0, 100.0, 300.5]
    assert hardware.turret.slew_deg_s == 2000.0 and hardware.debounce_ms == 25


def test_bad_input_is_explained_and_nothing_is_lost(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    status, output = run_prompt(path, ["jump", "s 9", "s 1.5", "400", "step 0", "m 1", "5", "q"])
    assert status == 0
    assert "? expected a number for the command or angle, got 'jump'" in output
    assert output.count("? seats go from 1 to 3") == 2
    assert "? 400° is outside the turret's range 0..360°" in output
    assert "? the step must be between 0 and 45 degrees" in output
    assert "? measure with 2 to 10 cards" in output
    assert "unsaved changes: 'w' saves them, 'q' again quits without saving" in output
    assert "end of input: changes NOT saved" in output
    assert path.read_text(encoding="utf-8") == CONFIG


def test_a_missing_config_file_is_created(tmp_path: Path) -> None:
    path = tmp_path / "new.toml"
    save_calibration(path, [20.0, 90.0, 160.0, 175.25], feed_mm_s=141.26, card_pass_s=0.05512)
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert data == {
        "hardware": {
            "turret": {"seat_angles": [20.0, 90.0, 160.0, 175.2]},
            "ejector": {"feed_mm_s": 141.3},
            "card_sensor": {"card_pass_s": 0.0551},
        }
    }


def test_an_invalid_result_is_not_written(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    with pytest.raises(ValueError, match="must be longer than a double"):
        save_calibration(path, [10.0], card_pass_s=0.5)  # a double would outlast blocked_s
    assert path.read_text(encoding="utf-8") == CONFIG


def test_a_broken_config_or_missing_backend_gives_one_message(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[hardware]\ndebounce_ms = -4\n", encoding="utf-8")
    status, output = run_prompt(path, ["q"])
    assert status == 2
    assert "hardware.debounce_ms: -4 is below the minimum 1" in output
    path.write_text("[hardware]\n", encoding="utf-8")
    status, output = run_prompt(path, ["q"], backend="pigpio")
    assert status == 2
    assert output.startswith("uno-companion: GPIO backend 'pigpio' is unavailable")
    assert "Traceback" not in output


def test_the_subcommand_runs_from_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "companion", "calibrate", "-c", str(path), "--backend", "mock"],
        input="s 3\n250\nw\nq\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "seat 3 (Chloé): 250.0°" in done.stdout
    assert "GPIO backend: mock" in done.stderr
    assert load_config(path).hardware.turret.seat_angles == [0.0, 120.0, 250.0]


def measured(
    tmp_path: Path, factory: MockFactory, clock: VirtualClock, speed: float
) -> tuple[str, Path]:
    """``m`` then ``w`` on the mock pins, the simulated feed turning at ``speed`` of what the
    config expects; the launcher runs on virtual time."""
    from companion.devices import LauncherHardware, MockCardPath

    path = tmp_path / "config.toml"
    path.write_text("[hardware]\nbackend = 'mock'\n", encoding="utf-8")
    hardware = hardware_section({"backend": "mock"})
    beam = factory.pin(hardware.pins.card_sensor)
    cards = MockCardPath(beam, hardware.ejector, hardware.card_sensor, speed=speed)
    launcher = LauncherHardware(hardware, factory, seats=2, motion_clock=clock, card_path=cards)
    lines: list[str] = []
    try:
        assert launcher.wait_idle(5)
        session = Calibration(path, ["Alice", "Bruno"], launcher, 2.0, lines.append)
        session.loop(["m 4", "f", "w", "q"])
    finally:
        launcher.close()
    return "\n".join(lines), path


def test_measure_times_one_card_and_the_feed_and_saves_them(
    tmp_path: Path, mock_factory: MockFactory, virtual_clock: VirtualClock
) -> None:
    output, path = measured(tmp_path, mock_factory, virtual_clock, speed=1.0)
    # The simulated feed moves at the expected 150 mm/s and a card darkens the beam 60 ms.
    assert "beam: 4 card(s) counted" in output
    assert "one card darkens the beam 60 ms; the feed moves 150 mm/s" in output
    # Each card as the fan slowed it (60 ms at full duty, 65 % at the last step), brought back
    # to full duty for card_pass_s.
    assert "the cards darkened the beam 68, 78, 92, 92 ms, in turn" in output
    assert "SLOW FEED" not in output
    hardware = load_config(path).hardware
    assert hardware.ejector.feed_mm_s == 150.0 and hardware.card_sensor.card_pass_s == 0.06


def test_a_slow_feed_servo_is_caught_by_calibrate(
    tmp_path: Path, mock_factory: MockFactory, virtual_clock: VirtualClock
) -> None:
    # 60 mm/s: so slow that a firing with the expected speed's time-outs would call it a jam.
    output, path = measured(tmp_path, mock_factory, virtual_clock, speed=0.4)
    assert "beam: 4 card(s) counted" in output  # measured, not taken for a jam
    assert "the feed moves 60 mm/s (the config expected 150 mm/s)" in output
    assert "SLOW FEED: 60 mm/s is 40% of the 150 mm/s expected" in output
    assert "Check the feed servo's supply" in output
    # Measured, the time-outs fit this feed: the test card after it is no false jam.
    assert output.endswith("beam: 1 card(s) counted\n" + f"saved to {path}")
    assert load_config(path).hardware.ejector.feed_mm_s == 60.0
