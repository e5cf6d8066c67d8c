"""The card ejector: the servo that pushes cards out of the magazine.

Wiring::

    servo brown/black ── GND of the 5 V servo supply AND a Pi GND pin (common ground)
    servo red         ── +5 V of the separate servo supply (never the Pi's 5 V pin)
    servo orange      ── GPIO12 (default), optionally through a 330 Ω resistor

Three mechanisms (``[hardware.ejector] mode``):

- ``pusher``: a positional servo (MG996R for a stiff magazine, MG90S for a light one) moves an arm
  from ``rest_angle`` to ``stroke_angle`` and back, once per card. After the last card it goes
  briefly to ``pull_back_angle`` to drag back a half-ejected card, as home-made launchers do.
- ``roller``: a continuous-rotation servo turns a rubber wheel under the bottom card for
  ``roller_run_s`` per card, then reverses for ``pull_back_s`` (the Arduino retrofit's 100 ms
  trick) and stops.

- ``motor``: a retrofitted Mattel launcher's own DC motor, switched by a logic-level MOSFET or
  an NPN transistor (or a relay module) on the ejector pin, runs ``roller_run_s`` per card at
  ``roller_speed`` duty. A single switch cannot reverse, so there is no pull-back. Wiring in
  hardware/retrofit.md.

Either way the output is released at the end: no pulses, no hum, no jitter, motor off.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from .clock import SYSTEM_CLOCK, Clock
from .config import EjectorConfig
from .servo import ServoOutput, ServoRange, make_servo_output


def ejector_range(config: EjectorConfig) -> ServoRange:
    """Pusher: 0..180° on the configured pulses. Roller and motor: speed -1..1."""
    low, high = (0.0, 180.0) if config.mode == "pusher" else (-1.0, 1.0)
    return ServoRange(low, high, config.min_pulse_us / 1e6, config.max_pulse_us / 1e6)


class MotorOutput:
    """A DC motor switched on ``pin`` (PWM duty = speed); stands where a servo output would.

    ``set_angle`` takes the speed: above zero runs the motor at that duty, zero or below stops it
    (one transistor or relay cannot reverse). ``pulse_width`` is the duty while running.
    """

    def __init__(self, pin: int, factory: Any) -> None:
        from gpiozero import PWMOutputDevice

        self._device = PWMOutputDevice(pin, frequency=100, pin_factory=factory)

    @property
    def pulse_width(self) -> float | None:
        value = float(self._device.value)
        return value if value > 0 else None

    def set_angle(self, angle: float) -> None:
        self._device.value = min(1.0, max(0.0, angle))

    def detach(self) -> None:
        self._device.off()

    def close(self) -> None:
        self._device.close()


class Ejector:
    """Fires cards; :meth:`fire` blocks for the whole sequence, so run it on a worker thread."""

    def __init__(
        self,
        pin: int,
        config: EjectorConfig,
        *,
        factory: Any,
        output: ServoOutput | None = None,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        self.config = config
        self.range = ejector_range(config)
        if output is None:
            if config.mode == "motor":
                output = MotorOutput(pin, factory)
            else:
                output = make_servo_output(pin, self.range, factory)
        self._servo = output
        self._clock = clock
        self._cards_fired = 0

    @property
    def servo(self) -> ServoOutput:
        return self._servo

    @property
    def cards_fired(self) -> int:
        """Strokes completed since start (cards the mechanism tried to push out)."""
        return self._cards_fired

    def home(self, stop: threading.Event | None = None) -> None:
        """Pusher: park the arm at rest, then detach. Roller: make sure it is stopped. A set
        ``stop`` cuts the wait short."""
        if self.config.mode == "pusher":
            self._servo.set_angle(self.config.rest_angle)
            Pacer(stop or threading.Event(), self._clock).hold(self.config.retract_s)
        self._servo.detach()

    def fire(
        self,
        cards: int,
        stop: threading.Event | None = None,
        on_start: Callable[[], None] | None = None,
    ) -> int:
        """Push out ``cards`` cards; returns how many strokes ran (fewer if ``stop`` was set).

        ``on_start`` is called just before the first movement (the card sensor opens its window).
        """
        stop = stop or threading.Event()
        if cards <= 0:
            return 0
        if on_start is not None:
            on_start()
        try:
            if self.config.mode in ("roller", "motor"):
                done = self._roll(cards, stop)
            else:
                done = self._push(cards, stop)
        finally:
            self._servo.detach()
        self._cards_fired += done
        return done

    def _push(self, cards: int, stop: threading.Event) -> int:
        config, servo = self.config, self._servo
        pacer = Pacer(stop, self._clock)
        done = 0
        for _ in range(cards):
            if stop.is_set():
                break
            servo.set_angle(config.stroke_angle)
            pacer.hold(config.stroke_s)
            servo.set_angle(config.rest_angle)  # even when stopping: never leave the arm out
            done += 1
            if not pacer.hold(config.retract_s):
                break
        if config.pull_back_s > 0 and not stop.is_set():
            servo.set_angle(config.pull_back_angle)
            pacer.hold(config.pull_back_s)
            servo.set_angle(config.rest_angle)
            pacer.hold(config.retract_s)
        return done

    def _roll(self, cards: int, stop: threading.Event) -> int:
        config, servo = self.config, self._servo
        pacer = Pacer(stop, self._clock)
        started = self._clock.monotonic()
        servo.set_angle(config.roller_speed)
        if not pacer.hold(config.roller_run_s * cards):
            return min(cards, int((self._clock.monotonic() - started) / config.roller_run_s))
        if config.pull_back_s > 0 and config.mode == "roller":
            servo.set_angle(-config.roller_speed)
            pacer.hold(config.pull_back_s)
        return cards

    def close(self) -> None:
        self._servo.close()


class Pacer:
    """Waits between the steps of a movement on absolute deadlines, so late wake-ups do not add
    up; a set ``stop`` event cuts the wait short."""

    def __init__(self, stop: threading.Event, clock: Clock = SYSTEM_CLOCK) -> None:
        self._stop = stop
        self._clock = clock
        self._deadline = clock.monotonic()

    def hold(self, seconds: float) -> bool:
        """Wait until ``seconds`` after the previous deadline; False if stopped meanwhile."""
        self._deadline += seconds
        left = self._deadline - self._clock.monotonic()
        return not self._clock.wait(self._stop.wait, left)
