"""The ``[hardware]`` section of the configuration file.

It arrives raw in ``Config.extra["hardware"]``; :func:`hardware_config` validates it with
:func:`companion.config.parse_section` and the cross-checks below, and reports every problem at
once. Pins are BCM numbers (``GPIO17``, not the physical pin 11); ``-1`` means "not fitted".
Example::

    [hardware]
    backend = "auto"
    debounce_ms = 30

    [hardware.pins]
    hit = 17
    next = 27

    [hardware.turret]
    seat_angles = [20.0, 70.0, 110.0, 160.0]
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from companion.config import Config, ConfigError, option, parse_section

NO_PIN = -1
BACKENDS = ("auto", "pigpio", "lgpio", "rpigpio", "mock")
# The header's GPIO lines (BCM). 0 and 1 are the HAT EEPROM bus: usable but best avoided.
_MAX_BCM = 27
# Pulses most hobby servos accept; lgpio refuses pulses outside 500..2500 µs.
_PULSE_RANGE_US = (500, 2500)
# Default pulses until calibrated: many small servos (SG90, MG90S) reach their end stops outside
# about 550..2400 µs and stall there, drawing their stall current. 600..2400 µs keeps every common
# servo off its stops; widen it only after reading the data sheet (hardware/calibration.md).
SAFE_PULSE_US = (600, 2400)


def _pin(default: int, help: str, *, optional: bool = False) -> Any:
    """A BCM pin option; an ``optional`` part may say -1 (not fitted)."""
    return option(default, help, min=NO_PIN if optional else 0, max=_MAX_BCM)


@dataclass(frozen=True)
class PinsConfig:
    """Which GPIO each part is wired to (see hardware/pinmap.md)."""

    hit: int = _pin(17, "the big HIT button, to GND (internal pull-up)")
    next: int = _pin(
        NO_PIN, "optional NEXT button: 'I played a card', to GND (-1: not fitted)", optional=True
    )
    reverse: int = _pin(NO_PIN, "optional REVERSE button, to GND (-1: not fitted)", optional=True)
    skip: int = _pin(NO_PIN, "optional SKIP button, to GND (-1: not fitted)", optional=True)
    ejector: int = _pin(12, "ejector servo signal (hardware-PWM capable pin)")
    turret: int = _pin(13, "turret servo signal (hardware-PWM capable pin)")
    buzzer: int = _pin(
        16, "buzzer, through a transistor (kept off GPIO 18-21, which speaker HATs use)"
    )
    card_sensor: int = _pin(
        NO_PIN, "optional IR break-beam receiver at the card exit (-1: not fitted)", optional=True
    )
    shutdown: int = _pin(
        3,
        "safe shutdown button, to GND: hold it 3 s (GPIO 3 also wakes a halted Pi; -1: none)",
        optional=True,
    )


@dataclass(frozen=True)
class EjectorConfig:
    """How cards are pushed out: a pusher arm (positional servo), a roller (continuous servo) or
    the motor of a retrofitted Mattel launcher (through a transistor or relay)."""

    mode: str = option(
        "pusher",
        "'pusher': a positional servo strokes once per card; 'roller': a continuous-rotation "
        "servo turns a friction wheel for roller_run_s per card; 'motor': the ejector pin "
        "switches a launcher's own DC motor on for roller_run_s per card (retrofit)",
        choices=("pusher", "roller", "motor"),
    )
    min_pulse_us: int = option(
        SAFE_PULSE_US[0], "servo pulse at 0° (pusher) or full reverse (roller)", min=400
    )
    max_pulse_us: int = option(
        SAFE_PULSE_US[1], "servo pulse at 180° (pusher) or full forward", max=2600
    )
    rest_angle: float = option(10.0, "pusher arm at rest, behind the bottom card", min=0, max=180)
    stroke_angle: float = option(120.0, "pusher arm fully out: one card leaves", min=0, max=180)
    pull_back_angle: float = option(
        0.0,
        "after the last card the arm goes here briefly to drag back a half-ejected card",
        min=0,
        max=180,
    )
    stroke_s: float = option(0.18, "time allowed for the arm to go out", min=0.0, max=2.0)
    retract_s: float = option(0.15, "time allowed for the arm to come back", min=0.0, max=2.0)
    pull_back_s: float = option(
        0.10, "pull-back after the last card (pusher and roller; 0: none)", min=0.0, max=1.0
    )
    roller_speed: float = option(
        1.0,
        "roller: speed while firing; motor: PWM duty (1.0 with a relay), 0..1",
        min=0.05,
        max=1.0,
    )
    roller_run_s: float = option(0.12, "roller and motor: run time per card", min=0.01, max=2.0)


@dataclass(frozen=True)
class TurretConfig:
    """The turret servo that points the launcher at a seat (set up with ``calibrate``)."""

    min_angle: float = option(0.0, "angle reached with min_pulse_us", min=-360, max=360)
    max_angle: float = option(180.0, "angle reached with max_pulse_us", min=-360, max=360)
    min_pulse_us: int = option(SAFE_PULSE_US[0], "servo pulse at min_angle", min=400)
    max_pulse_us: int = option(SAFE_PULSE_US[1], "servo pulse at max_angle", max=2600)
    slew_deg_s: float = option(
        120.0,
        "top turning speed, degrees per second (gentle on a loaded launcher)",
        min=5.0,
        max=2000.0,
    )
    seat_angles: list[float] = option(
        [], "angle facing each seat, in seat order (empty: seats spread over the range)"
    )
    home_angle: float = option(90.0, "where the turret goes at start", min=-360, max=360)
    settle_s: float = option(
        0.25,
        "hold after a move before the servo is detached (no jitter, no hum)",
        min=0.0,
        max=3.0,
    )


@dataclass(frozen=True)
class BuzzerConfig:
    kind: str = option(
        "tonal",
        "'tonal': passive piezo driven at each cue's pitch; 'active': a buzzer with its "
        "own oscillator, switched on and off (one pitch)",
        choices=("tonal", "active"),
    )


@dataclass(frozen=True)
class CardSensorConfig:
    timeout_s: float = option(
        0.5, "after the last stroke, how long cards may still cross the beam", min=0.05, max=5.0
    )
    blocked_s: float = option(
        0.4, "a beam broken longer than this means a card is stuck: a jam", min=0.05, max=5.0
    )


@dataclass(frozen=True)
class HardwareConfig:
    """Everything the devices need; defaults match hardware/pinmap.md and hardware/bom.md."""

    backend: str = option(
        "auto",
        "GPIO library: auto picks pigpio (Pi <= 4), lgpio (Pi 5), then RPi.GPIO",
        choices=BACKENDS,
    )
    debounce_ms: int = option(
        30, "a button edge counts only after the line was steady this long", min=1, max=500
    )
    pigpio_wait_s: float = option(
        5.0, "at boot, how long to wait for the pigpiod daemon", min=0.0, max=60.0
    )
    pins: PinsConfig = option(PinsConfig(), "BCM pins")
    ejector: EjectorConfig = option(EjectorConfig(), "card ejector")
    turret: TurretConfig = option(TurretConfig(), "turret")
    buzzer: BuzzerConfig = option(BuzzerConfig(), "buzzer")
    card_sensor: CardSensorConfig = option(CardSensorConfig(), "card-exit sensor")

    @property
    def debounce_s(self) -> float:
        return self.debounce_ms / 1000.0


def equivalent_angle(bearing: float, current: float | None, lo: float, hi: float) -> float | None:
    """The angle within ``[lo, hi]`` that faces ``bearing`` (same direction, modulo 360°),
    nearest ``current``; ``None`` when no turn of ``bearing`` lies inside the range.

    A servo cannot wrap round, so "the shortest safe path" is the nearest equivalent angle that
    stays between the end stops: the cables never wind up.
    """
    low, high = min(lo, hi), max(lo, hi)
    first = bearing + 360.0 * math.ceil((low - bearing) / 360.0 - 1e-9)
    candidates = []
    angle = first
    while angle <= high + 1e-9:
        candidates.append(min(max(angle, low), high))
        angle += 360.0
    if not candidates:
        return None
    reference = current if current is not None else candidates[0]
    return min(candidates, key=lambda a: abs(a - reference))


def check_hardware(config: HardwareConfig, where: str = "hardware") -> list[str]:
    """Problems that involve more than one key of the hardware section."""
    problems: list[str] = []
    fitted: dict[int, str] = {}
    for f in fields(PinsConfig):
        pin = getattr(config.pins, f.name)
        if pin == NO_PIN:
            continue
        if pin in fitted:
            problems.append(
                f"{where}.pins.{f.name}: GPIO{pin} is already used by pins.{fitted[pin]}"
            )
        fitted[pin] = f.name
    for name, section in (("ejector", config.ejector), ("turret", config.turret)):
        lo, hi = section.min_pulse_us, section.max_pulse_us
        if lo >= hi:
            problems.append(
                f"{where}.{name}: min_pulse_us ({lo}) must be below max_pulse_us ({hi})"
            )
        elif lo < _PULSE_RANGE_US[0] or hi > _PULSE_RANGE_US[1]:
            problems.append(
                f"{where}.{name}: pulses {lo}..{hi} µs go beyond 500..2500 µs, which lgpio "
                "(Raspberry Pi 5) refuses"
            )
    ejector = config.ejector
    if ejector.mode == "pusher" and abs(ejector.stroke_angle - ejector.rest_angle) < 5:
        problems.append(
            f"{where}.ejector: stroke_angle and rest_angle are less than 5° apart: no card leaves"
        )
    turret = config.turret
    if abs(turret.max_angle - turret.min_angle) < 10:
        problems.append(f"{where}.turret: min_angle and max_angle must be at least 10° apart")
    else:
        for index, angle in enumerate(turret.seat_angles):
            if equivalent_angle(angle, None, turret.min_angle, turret.max_angle) is None:
                problems.append(
                    f"{where}.turret.seat_angles[{index}]: {angle}° cannot be reached between "
                    f"{turret.min_angle}° and {turret.max_angle}°"
                )
        if equivalent_angle(turret.home_angle, None, turret.min_angle, turret.max_angle) is None:
            problems.append(f"{where}.turret.home_angle: {turret.home_angle}° is out of range")
    return problems


def parse_hardware(raw: Mapping[str, Any] | None, where: str = "hardware") -> HardwareConfig:
    """Validate a raw ``[hardware]`` table; raise :class:`ConfigError` listing every problem."""
    problems: list[str] = []
    config = parse_section(HardwareConfig, dict(raw or {}), where, problems)
    problems.extend(check_hardware(config, where))
    if problems:
        raise ConfigError(problems, "hardware configuration")
    return config


def hardware_config(config: Config) -> HardwareConfig:
    """The validated hardware section of a loaded :class:`~companion.config.Config`."""
    return parse_hardware(config.extra.get("hardware"))
