"""The [hardware] section: defaults, every problem reported at once, cross-checks."""

from __future__ import annotations

import pytest

from companion.config import ConfigError, parse_config
from companion.devices import HardwareConfig, hardware_config, parse_hardware


def test_defaults_match_the_pin_map() -> None:
    config = parse_hardware({})
    assert config == HardwareConfig()
    assert (config.pins.hit, config.pins.ejector, config.pins.turret, config.pins.buzzer) == (
        17,
        12,
        13,
        16,
    )
    assert config.pins.next == config.pins.card_sensor == -1  # optional parts: not fitted
    assert config.backend == "auto" and config.debounce_s == 0.03
    assert config.ejector.mode == "pusher" and config.buzzer.kind == "tonal"


def test_nested_tables_are_read() -> None:
    config = hardware_config(
        parse_config(
            {
                "hardware": {
                    "backend": "mock",
                    "pins": {"next": 27, "card_sensor": 24},
                    "ejector": {"mode": "roller", "roller_run_s": 0.2},
                    "turret": {"seat_angles": [10, 60.5, 120]},
                    "buzzer": {"kind": "active"},
                }
            }
        )
    )
    assert config.pins.next == 27 and config.pins.card_sensor == 24
    assert config.ejector.mode == "roller" and config.ejector.roller_run_s == 0.2
    assert config.turret.seat_angles == [10.0, 60.5, 120.0]
    assert config.buzzer.kind == "active"


def test_every_problem_is_reported_at_once() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_hardware(
            {
                "backend": "wiringpi",
                "debounce_ms": 0,
                "pins": {"next": 12, "hit": 40},
                "ejector": {"mode": "spring", "min_pulse_us": 2000, "max_pulse_us": 1000},
                "turret": {"seat_angles": [10, -100], "colour": "red"},
                "buzzers": {},
            }
        )
    problems = caught.value.problems
    assert "hardware.backend: 'wiringpi' is not one of auto, pigpio, lgpio, rpigpio, mock" in (
        problems
    )
    assert "hardware.debounce_ms: 0 is below the minimum 1" in problems
    assert "hardware.pins.hit: 40 is above the maximum 27" in problems
    assert "hardware.pins.next: GPIO12 is already used by pins.ejector" not in problems
    assert "hardware.pins.ejector: GPIO12 is already used by pins.next" in problems
    assert "hardware.ejector.mode: 'spring' is not one of pusher, roller, motor" in problems
    assert "hardware.ejector: min_pulse_us (2000) must be below max_pulse_us (1000)" in problems
    assert any(p.startswith("hardware.turret.colour: unknown key") for p in problems)
    assert any(p.startswith("hardware.buzzers: unknown key") for p in problems)
    assert (
        "hardware.turret.seat_angles[1]: -100.0° cannot be reached between 0.0° and 180.0°"
        in problems
    )
    assert len(problems) == 9


def test_servo_cross_checks() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_hardware(
            {
                "ejector": {"rest_angle": 90, "stroke_angle": 92},
                "turret": {"min_angle": 0, "max_angle": 5, "min_pulse_us": 400},
            }
        )
    text = str(caught.value)
    assert "stroke_angle and rest_angle are less than 5° apart" in text
    assert "min_angle and max_angle must be at least 10° apart" in text
    assert "go beyond 500..2500 µs, which lgpio (Raspberry Pi 5) refuses" in text
