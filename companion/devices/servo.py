"""Servo outputs: one small interface over gpiozero's AngularServo and lgpio's servo pulses.

Why two: gpiozero's lgpio pins send PWM with a whole-percent duty cycle (gpiozero issue #1209), so
on a Raspberry Pi 5 a servo gets about six positions. :class:`LgpioServoOutput` sends microsecond
pulses with ``lgpio.tx_servo`` instead. Everywhere else (pigpio, RPi.GPIO, the mock)
:class:`GpiozeroServoOutput` wraps :class:`gpiozero.AngularServo`.

Both start *detached* (no pulses): a servo must not jump to its middle at power-up.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

from .pulse_output import SERVO_FRAME_S, PulseOutput, pulse_us

logger = logging.getLogger(__name__)

__all__ = ["SERVO_FRAME_S", "GpiozeroServoOutput", "LgpioServoOutput", "ServoOutput", "ServoRange"]


@dataclass(frozen=True)
class ServoRange:
    """How angles map to pulse widths: ``min_angle`` ↔ ``min_pulse_s``, linear in between."""

    min_angle: float
    max_angle: float
    min_pulse_s: float
    max_pulse_s: float

    @classmethod
    def from_us(
        cls, min_angle: float, max_angle: float, min_pulse_us: float, max_pulse_us: float
    ) -> ServoRange:
        """The range from pulses in microseconds, as the configuration gives them."""
        return cls(min_angle, max_angle, min_pulse_us / 1e6, max_pulse_us / 1e6)

    def clamp(self, angle: float) -> float:
        low, high = sorted((self.min_angle, self.max_angle))
        return min(max(angle, low), high)

    def pulse_for(self, angle: float) -> float:
        """Pulse width in seconds for ``angle`` (clamped to the range)."""
        fraction = (self.clamp(angle) - self.min_angle) / (self.max_angle - self.min_angle)
        return self.min_pulse_s + fraction * (self.max_pulse_s - self.min_pulse_s)


class ServoOutput(Protocol):
    """A servo signal line: set an angle (pulses start), or detach (pulses stop)."""

    @property
    def pulse_width(self) -> float | None:
        """The pulse being sent, in seconds; ``None`` while detached."""
        ...

    def set_angle(self, angle: float) -> None: ...

    def detach(self) -> None: ...

    def close(self) -> None: ...


class GpiozeroServoOutput:
    """A servo on any gpiozero pin factory, through :class:`gpiozero.AngularServo`.

    On the mock backend the pin's state is the duty cycle: ``pulse_width / 0.020``.
    """

    def __init__(self, pin: int, servo_range: ServoRange, factory: Any) -> None:
        from gpiozero import AngularServo  # adapters import gpiozero lazily: no import side effects

        self.range = servo_range
        self._servo = AngularServo(
            pin,
            initial_angle=None,
            min_angle=servo_range.min_angle,
            max_angle=servo_range.max_angle,
            min_pulse_width=servo_range.min_pulse_s,
            max_pulse_width=servo_range.max_pulse_s,
            frame_width=SERVO_FRAME_S,
            pin_factory=factory,
        )

    @property
    def pulse_width(self) -> float | None:
        value = self._servo.pulse_width
        return None if value is None else float(value)

    def set_angle(self, angle: float) -> None:
        self._servo.angle = self.range.clamp(angle)

    def detach(self) -> None:
        self._servo.detach()

    def close(self) -> None:
        self._servo.close()


class LgpioServoOutput(PulseOutput):
    """A servo driven by ``lgpio.tx_servo``: microsecond pulses on a Raspberry Pi 5.

    ``handle`` is the open gpiochip handle (gpiozero's ``LGPIOFactory`` keeps it); ``lgpio``
    may be given for tests, else the real module is imported.
    """

    def __init__(
        self, pin: int, servo_range: ServoRange, handle: int, lgpio: ModuleType | None = None
    ) -> None:
        if lgpio is None:
            import lgpio as real_lgpio

            lgpio = real_lgpio
        self.range = servo_range
        self.pin = pin
        self._lgpio: Any = lgpio
        self._handle = handle
        self._lgpio.gpio_claim_output(handle, pin, 0)

    def _send(self, pulse: float) -> float:
        micros = pulse_us(pulse)  # lgpio refuses anything outside 500..2500 µs
        self._lgpio.tx_servo(self._handle, self.pin, micros, round(1 / SERVO_FRAME_S))
        return micros / 1e6

    def _stop(self) -> None:
        if self._pulse is not None:
            self._lgpio.tx_servo(self._handle, self.pin, 0)

    def _release(self) -> None:
        self._lgpio.gpio_free(self._handle, self.pin)


def is_lgpio_factory(factory: Any) -> bool:
    """True for gpiozero's ``LGPIOFactory`` (checked by module, so lgpio is not imported)."""
    return type(factory).__module__ == "gpiozero.pins.lgpio"


def servo_driver(factory: Any, pin: int, pwm_root: Path | None = None) -> str:
    """How a servo on ``pin`` gets its pulses with ``factory``: ``hardware-pwm`` (Pi 5 with the
    pwm-2chan overlay), ``lgpio`` (``tx_servo``, software-timed) or ``gpiozero``."""
    if not is_lgpio_factory(factory):
        return "gpiozero"
    from .pwm import PWM_ROOT, hardware_pwm_channel

    return "hardware-pwm" if hardware_pwm_channel(pin, pwm_root or PWM_ROOT) else "lgpio"


def make_servo_output(
    pin: int, servo_range: ServoRange, factory: Any, pwm_root: Path | None = None
) -> ServoOutput:
    """The most precise servo output for ``factory``: RP1 hardware PWM when a Pi 5 has the
    overlay, else lgpio pulses on lgpio, else gpiozero's AngularServo."""
    driver = servo_driver(factory, pin, pwm_root)
    if driver == "hardware-pwm":
        from .pwm import PWM_ROOT, HardwarePwmServoOutput, hardware_pwm_channel

        found = hardware_pwm_channel(pin, pwm_root or PWM_ROOT)
        assert found is not None
        logger.info("GPIO%d: servo pulses from hardware PWM (%s)", pin, found[0])
        return HardwarePwmServoOutput(pin, servo_range, *found)
    if driver == "lgpio":
        return LgpioServoOutput(pin, servo_range, factory._handle)
    return GpiozeroServoOutput(pin, servo_range, factory)
