"""The ``[hardware]`` section of the configuration file: the launcher's parts and their pins.

Read with the rest of the file (:func:`companion.config.load_config`): every key is checked
against its declaration, then :meth:`HardwareConfig.check` checks what involves several keys
(two parts on one pin, pulse limits, the turret's travel). Pins are BCM numbers (``GPIO17``,
not the physical pin 11); ``-1`` means "not fitted".
Example::

    [hardware]
    backend = "auto"
    debounce_ms = 30

    [hardware.pins]
    hit = 17
    next = 27

    [hardware.turret]
    seat_angles = [0.0, 90.0, 180.0, 270.0]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from companion.core.model import option

NO_PIN = -1
BACKENDS = ("auto", "pigpio", "lgpio", "rpigpio", "mock")
AMPLIFIERS = ("max98357a", "none")
# The I2S pins the MAX98357A's overlay takes (BCLK, LRC, DIN; 20 is I2S input, kept free too).
I2S_PINS = frozenset({18, 19, 20, 21})
# The header's GPIO lines (BCM). 0 and 1 are the HAT EEPROM bus: usable but best avoided.
_MAX_BCM = 27
# Default pulses until calibrated: many small servos (SG90, MG90S) reach their end stops outside
# about 550..2400 µs and stall there, drawing their stall current. 600..2400 µs keeps every common
# servo off its stops; widen it only after reading the data sheet (hardware/calibration.md).
SAFE_PULSE_US = (600, 2400)
# Pulses lgpio accepts (it refuses anything else), and most hobby servos' outermost ones.
PULSE_LIMITS_US = (500, 2500)
# A positional servo's travel between its pulse limits: 180° (MG90S, MG996R); 270° servos exist.
MAX_SERVO_TRAVEL = 270.0


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
    ejector: int = _pin(
        12, "feed servo signal (mode 'feed'), or the launcher's motor switch (mode 'motor')"
    )
    exit_motor: int = _pin(
        4,
        "exit pinch motor: the DRV8833's IN1 (PWM; IN2 to GND); -1 with mode 'motor'",
        optional=True,
    )
    turret: int = _pin(13, "turret servo signal (hardware-PWM capable pin)")
    buzzer: int = _pin(
        16, "buzzer, through a transistor (kept off GPIO 18-21, the I2S amplifier's pins)"
    )
    card_sensor: int = _pin(
        24,
        "IR break-beam receiver after the exit pinch: counts the cards (-1: not fitted, "
        "firing is then timed)",
        optional=True,
    )
    shutdown: int = _pin(
        3,
        "safe shutdown button, to GND: hold it 3 s (GPIO 3 also wakes a halted Pi; -1: none)",
        optional=True,
    )


# Datasheet speeds, unloaded, at 4.8 V: FS90R about 110 rpm (field notes); its tyres' top (the
# O-rings seated on the wheel, 30.4 mm across) then moves pi * 30.4 mm * 110 / 60 s = 175 mm/s.
# The stack's weight on the tyres slows it: the default expects 150 mm/s (about 15 % margin)
# until `calibrate` measures the real speed.
DEFAULT_FEED_MM_S = 150.0


@dataclass(frozen=True)
class EjectorConfig:
    """How cards leave: a friction feed (continuous-rotation servo) into an exit pinch pair (DC
    motor through a DRV8833), counted by the beam; or a retrofitted Mattel launcher's motor.

    ``pull_back_s``, which older files may hold, is read past: the feed tyres turn on one-way
    bearings, so reversing the feed never pulled a card back."""

    RETIRED_KEYS: ClassVar[frozenset[str]] = frozenset({"pull_back_s"})

    mode: str = option(
        "feed",
        "'feed': a continuous-rotation servo turns the feed tyre under the stack and a DC motor "
        "spins the exit pinch that throws each card; 'motor': the ejector pin switches a "
        "retrofitted launcher's own DC motor (hardware/retrofit.md)",
        choices=("feed", "motor"),
    )
    min_pulse_us: int = option(SAFE_PULSE_US[0], "feed servo pulse at full reverse", min=400)
    max_pulse_us: int = option(SAFE_PULSE_US[1], "feed servo pulse at full forward", max=2600)
    feed_speed: float = option(1.0, "feed servo speed while firing, 0..1 of full", min=0.1, max=1.0)
    feed_mm_s: float = option(
        DEFAULT_FEED_MM_S,
        "the feed tyre's rim speed at feed_speed (FS90R datasheet: 175 mm/s unloaded; "
        "measured by calibrate)",
        min=10.0,
        max=5000.0,
    )
    card_length_mm: float = option(87.0, "card length along the feed (UNO: 87 mm)", min=20, max=150)
    feed_path_mm: float = option(
        35.0,
        "how far a card's front edge travels from the stack to the exit pinch's nip",
        min=0.0,
        max=200.0,
    )
    exit_duty: float = option(1.0, "exit pinch motor PWM duty while firing, 0..1", min=0.1, max=1.0)
    exit_spin_up_s: float = option(
        0.1,
        "the exit pinch spins this long before the feed runs (the N20 and its roller reach "
        "their speed in about 0.05 s; the first card reaches the pinch 0.1 s later still)",
        min=0.0,
        max=3.0,
    )
    exit_run_on_s: float = option(
        0.2, "the exit pinch runs on after the last card, so it leaves", min=0.0, max=3.0
    )
    exit_fan: float = option(
        0.35,
        "the exit pinch's duty falls by this fraction of exit_duty from a firing's first card "
        "to its last, so the cards land in a row toward the player, not in one heap (0: off)",
        min=0.0,
        max=0.8,
    )
    margin: float = option(
        2.0,
        "time-outs are this many times the time a card should take (a slow card is not a jam)",
        min=1.2,
        max=10.0,
    )
    roller_speed: float = option(
        1.0, "mode 'motor': PWM duty of the launcher's motor (1.0 with a relay)", min=0.05, max=1.0
    )
    roller_run_s: float = option(
        0.12, "mode 'motor' without a beam: run time per card", min=0.01, max=2.0
    )

    @property
    def first_card_s(self) -> float:
        """Time the first card should take to reach the beam once the feed turns."""
        return (self.feed_path_mm + self.card_length_mm) / self.feed_mm_s

    @property
    def card_interval_s(self) -> float:
        """Time between two cards at the beam: the feed moves one card length."""
        return self.card_length_mm / self.feed_mm_s

    def timed_run_s(self, cards: int) -> float:
        """Without a beam: how long the feed (or motor) runs for ``cards`` cards."""
        if self.mode == "motor":
            return self.roller_run_s * cards
        return self.feed_path_mm / self.feed_mm_s + self.card_interval_s * cards


@dataclass(frozen=True)
class TurretConfig:
    """The turret: a positional servo turning the launcher through a gear (set up with
    ``calibrate``). Angles are the launcher's bearings, 0..360° by default: the servo's
    0..180° times ``gear_ratio``."""

    min_angle: float = option(0.0, "launcher bearing reached with min_pulse_us", min=-720, max=720)
    max_angle: float = option(
        360.0, "launcher bearing reached with max_pulse_us", min=-720, max=720
    )
    gear_ratio: float = option(
        2.0,
        "launcher turns per servo turn (the 2:1 gear: servo 0..180° gives 0..360°; 1: the "
        "servo turns the launcher directly)",
        min=0.25,
        max=8.0,
    )
    min_pulse_us: int = option(SAFE_PULSE_US[0], "servo pulse at min_angle", min=400)
    max_pulse_us: int = option(SAFE_PULSE_US[1], "servo pulse at max_angle", max=2600)
    # An MG90S turns 60° in about 0.1 s at 4.8 V (datasheet, unloaded): 600°/s, 1200°/s for the
    # launcher through the gear. 120°/s, a tenth of that, leaves its small torque (1.8 kg cm) a
    # wide margin for a loaded launcher.
    slew_deg_s: float = option(
        120.0,
        "top turning speed of the launcher, degrees per second (gentle on a loaded launcher)",
        min=5.0,
        max=2000.0,
    )
    seat_angles: list[float] = option(
        [], "bearing facing each seat, in seat order (empty: seats spread all round)"
    )
    home_angle: float = option(180.0, "where the turret goes at start", min=-720, max=720)
    # The servo trails its last pulse by at most one slew frame's 2.4° (MG90S: about 4 ms);
    # 0.25 s also lets a loaded launcher stop swinging before the pulses stop.
    settle_s: float = option(
        0.25,
        "hold after a move before the servo is detached (no jitter, no hum)",
        min=0.0,
        max=3.0,
    )

    @property
    def full_circle(self) -> bool:
        """True when the range covers every bearing (seats all round the table)."""
        return abs(self.max_angle - self.min_angle) >= 360.0 - 1e-9


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
    """The IR beam after the exit pinch: the cards it sees are the cards fired."""

    card_pass_s: float = option(
        0.06,
        "how long one card darkens the beam as the pinch throws it at full duty (87 mm at "
        "about 1.5 m/s; measured by calibrate)",
        min=0.002,
        max=1.0,
    )
    double_factor: float = option(
        1.5,
        "a beam dark longer than this many cards is two overlapping cards (a double); a card "
        "is the firing's last single one, slowed as the pinch's duty fell since (the first: "
        "card_pass_s at its duty)",
        min=1.2,
        max=3.0,
    )
    blocked_s: float = option(
        0.4, "a beam dark longer than this is a card stuck in the mouth", min=0.05, max=5.0
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
    amplifier: str = option(
        "max98357a",
        "the speaker amplifier on the header: 'max98357a' (I2S on GPIO 18, 19, 21: install.sh "
        "enables its overlay) or 'none' (sound from the jack, USB or HDMI)",
        choices=AMPLIFIERS,
    )
    pins: PinsConfig = option(PinsConfig(), "BCM pins")
    ejector: EjectorConfig = option(EjectorConfig(), "card ejector")
    turret: TurretConfig = option(TurretConfig(), "turret")
    buzzer: BuzzerConfig = option(BuzzerConfig(), "buzzer")
    card_sensor: CardSensorConfig = option(CardSensorConfig(), "card-exit sensor")

    @property
    def debounce_s(self) -> float:
        return self.debounce_ms / 1000.0

    def output_pins(self) -> tuple[set[int], set[int]]:
        """(servo pins, other outputs: buzzer and motors) fitted, for stopping them after a
        crash: a servo's pulses are stopped, a motor's or the buzzer's PWM set to 0."""
        pins = self.pins
        servos = {pins.turret}
        others = {pins.buzzer}
        if self.ejector.mode == "motor":
            others.add(pins.ejector)  # the retrofitted launcher's own motor
        else:
            servos.add(pins.ejector)
            others.add(pins.exit_motor)
        return servos - {NO_PIN}, others - {NO_PIN}

    def check(self, where: str) -> list[str]:
        """Problems that involve more than one key of the section."""
        return check_hardware(self, where)


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
        if config.amplifier != "none" and pin in I2S_PINS:
            problems.append(
                f"{where}.pins.{f.name}: GPIO{pin} is the {config.amplifier} amplifier's "
                "(GPIO 18-21 carry its I2S sound)"
            )
    for name, section in (("ejector", config.ejector), ("turret", config.turret)):
        lo, hi = section.min_pulse_us, section.max_pulse_us
        if lo >= hi:
            problems.append(
                f"{where}.{name}: min_pulse_us ({lo}) must be below max_pulse_us ({hi})"
            )
        elif lo < PULSE_LIMITS_US[0] or hi > PULSE_LIMITS_US[1]:
            low, high = PULSE_LIMITS_US
            problems.append(
                f"{where}.{name}: pulses {lo}..{hi} µs go beyond {low}..{high} µs, which lgpio "
                "(Raspberry Pi 5) refuses"
            )
    if config.ejector.mode == "feed" and config.pins.exit_motor == NO_PIN:
        problems.append(
            f"{where}.pins.exit_motor: mode 'feed' needs the exit pinch motor that throws the card"
        )
    beam = config.card_sensor
    if beam.card_pass_s * beam.double_factor >= beam.blocked_s:
        problems.append(
            f"{where}.card_sensor: blocked_s ({beam.blocked_s} s) must be longer than a double "
            f"(card_pass_s x double_factor = {beam.card_pass_s * beam.double_factor:.3f} s)"
        )
    turret = config.turret
    span = abs(turret.max_angle - turret.min_angle)
    if span < 10:
        problems.append(f"{where}.turret: min_angle and max_angle must be at least 10° apart")
    elif span > 360.0 + 1e-9:
        problems.append(f"{where}.turret: {span:g}° of travel would wind the cables: at most 360°")
    elif span / turret.gear_ratio > MAX_SERVO_TRAVEL:
        problems.append(
            f"{where}.turret: {span:g}° through a {turret.gear_ratio:g}:1 gear needs "
            f"{span / turret.gear_ratio:g}° of servo travel, more than {MAX_SERVO_TRAVEL:g}°"
        )
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
