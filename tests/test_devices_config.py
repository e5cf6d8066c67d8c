"""The [hardware] section: defaults, every problem reported at once, cross-checks."""

from __future__ import annotations

import pytest

from companion.config import ConfigError, parse_config
from companion.devices import HardwareConfig
from tests.helpers import hardware_section


def test_defaults_match_the_pin_map() -> None:
    config = hardware_section({})
    assert config == HardwareConfig()
    assert (config.pins.hit, config.pins.ejector, config.pins.turret, config.pins.buzzer) == (
        17,
        12,
        13,
        16,
    )
    assert config.pins.next == -1  # optional parts: not fitted
    # The feed's exit pinch and the beam that counts the cards are part of the box.
    assert (config.pins.exit_motor, config.pins.card_sensor) == (4, 24)
    assert config.backend == "auto" and config.debounce_s == 0.03
    assert config.ejector.mode == "feed" and config.buzzer.kind == "tonal"
    # Seats all round: the servo's 180° through the 2:1 gear give the launcher 360°.
    turret = config.turret
    assert (turret.min_angle, turret.max_angle, turret.gear_ratio) == (0.0, 360.0, 2.0)
    assert turret.full_circle


def test_nested_tables_are_read() -> None:
    config = (
        parse_config(
            {
                "hardware": {
                    "backend": "mock",
                    "pins": {"next": 27, "card_sensor": 24},
                    "ejector": {"mode": "motor", "roller_run_s": 0.2},
                    "turret": {"seat_angles": [10, 60.5, 120]},
                    "buzzer": {"kind": "active"},
                }
            }
        )
    ).hardware
    assert config.pins.next == 27 and config.pins.card_sensor == 24
    assert config.ejector.mode == "motor" and config.ejector.roller_run_s == 0.2
    assert config.turret.seat_angles == [10.0, 60.5, 120.0]
    assert config.buzzer.kind == "active"


def test_every_problem_is_reported_at_once() -> None:
    with pytest.raises(ConfigError) as caught:
        hardware_section(
            {
                "backend": "wiringpi",
                "debounce_ms": 0,
                "pins": {"next": 12, "hit": 40},
                "ejector": {"mode": "spring", "min_pulse_us": 2000, "max_pulse_us": 1000},
                "turret": {"max_angle": 180, "seat_angles": [10, -100], "colour": "red"},
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
    assert "hardware.ejector.mode: 'spring' is not one of feed, motor" in problems
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
        hardware_section(
            {
                "pins": {"exit_motor": -1},
                "turret": {"min_angle": 0, "max_angle": 5, "min_pulse_us": 400},
                "card_sensor": {"card_pass_s": 0.2, "blocked_s": 0.25},
            }
        )
    text = str(caught.value)
    assert "mode 'feed' needs the exit pinch motor" in text
    assert "min_angle and max_angle must be at least 10° apart" in text
    assert "go beyond 500..2500 µs, which lgpio (Raspberry Pi 5) refuses" in text
    assert "blocked_s (0.25 s) must be longer than a double" in text


def test_the_turret_travel_fits_the_gear_and_the_cables() -> None:
    with pytest.raises(ConfigError) as caught:
        hardware_section({"turret": {"gear_ratio": 1.0}})
    assert "360° through a 1:1 gear needs 360° of servo travel, more than 270°" in str(caught.value)
    with pytest.raises(ConfigError, match="would wind the cables"):
        hardware_section({"turret": {"min_angle": -200, "max_angle": 200}})
    # The retrofit's launcher turns on the servo itself: 180° and gear 1 are fine.
    assert hardware_section({"turret": {"max_angle": 180, "gear_ratio": 1}}).turret.gear_ratio == 1


def test_no_part_may_sit_on_the_amplifiers_pins() -> None:
    with pytest.raises(ConfigError) as caught:
        hardware_section({"pins": {"buzzer": 18, "card_sensor": 21}})
    problems = caught.value.problems
    assert (
        "hardware.pins.buzzer: GPIO18 is the max98357a amplifier's (GPIO 18-21 carry its I2S "
        "sound)" in problems
    )
    assert any(p.startswith("hardware.pins.card_sensor: GPIO21 is the max98357a") for p in problems)
    # Without the amplifier (sound from the jack or USB) those pins are free.
    assert hardware_section({"amplifier": "none", "pins": {"buzzer": 18}}).pins.buzzer == 18


def test_every_output_is_known_for_stopping_after_a_crash() -> None:
    # The feed and turret are servos (pulses off); the exit motor and the buzzer are PWM (to 0).
    assert hardware_section({}).output_pins() == ({12, 13}, {4, 16})
    # The retrofit's ejector pin switches a motor: its PWM is stopped, it is no servo.
    retrofit = hardware_section({"ejector": {"mode": "motor"}})
    assert retrofit.output_pins() == ({13}, {12, 16})
