"""``uno-companion calibrate`` on the mock backend: prompt, bad input, saving into the config."""

from __future__ import annotations

import io
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from companion.cli.calibrate import calibrate, save_calibration
from companion.config import load_config
from companion.devices import hardware_config

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
stroke_s = 0.01
retract_s = 0.01
pull_back_s = 0.0
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
        ["s 2", "+", "++", "-3", "100", "s 3", "a 170.5", "stroke 110", "rest 15", "f", "w", "q"],
    )
    assert status == 0
    assert "seat 2 (Bruno): 90.0° (pulse 1500 µs)" in output
    assert "seat 2 (Bruno): 96.0°" in output  # + then ++: three 2° steps
    assert "seat 2 (Bruno): 93.0°" in output
    assert "fired one card (cards fired so far: 1)" in output
    assert f"saved to {path}" in output
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# The Dupont table\n")
    assert 'players = ["Alice", "Bruno", "Chloé"]  # left of the box first' in text
    assert "debounce_ms = 25  # a noisy button" in text
    hardware = hardware_config(load_config(path))
    assert hardware.turret.seat_angles == [0.0, 100.0, 170.5]
    assert (hardware.ejector.stroke_angle, hardware.ejector.rest_angle) == (110.0, 15.0)
    assert hardware.turret.slew_deg_s == 2000.0 and hardware.debounce_ms == 25


def test_bad_input_is_explained_and_nothing_is_lost(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    status, output = run_prompt(
        path, ["jump", "s 9", "s 1.5", "400", "step 0", "stroke 300", "rest 0", "5", "q"]
    )
    assert status == 0
    assert "? expected a number for the command or angle, got 'jump'" in output
    assert output.count("? seats go from 1 to 3") == 2
    assert "? 400° is outside the turret's range 0..180°" in output
    assert "? the step must be between 0 and 45 degrees" in output
    assert "? ejector angles go from 0 to 180°" in output
    assert "unsaved changes: 'w' saves them, 'q' again quits without saving" in output
    assert "end of input: changes NOT saved" in output
    assert path.read_text(encoding="utf-8") == CONFIG


def test_a_missing_config_file_is_created(tmp_path: Path) -> None:
    path = tmp_path / "new.toml"
    save_calibration(path, [20.0, 90.0, 160.0, 175.25], 100.0, 10.0)
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert data == {
        "hardware": {
            "turret": {"seat_angles": [20.0, 90.0, 160.0, 175.2]},
            "ejector": {"stroke_angle": 100.0, "rest_angle": 10.0},
        }
    }


def test_an_invalid_result_is_not_written(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    with pytest.raises(ValueError, match="less than 5° apart"):
        save_calibration(path, [10.0], 50.0, 48.0)
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
        input="s 3\n150\nw\nq\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "seat 3 (Chloé): 150.0°" in done.stdout
    assert "GPIO backend: mock" in done.stderr
    assert hardware_config(load_config(path)).turret.seat_angles == [0.0, 90.0, 150.0]
