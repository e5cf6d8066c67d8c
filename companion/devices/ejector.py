"""The card ejector: the servo that pushes cards out of the magazine.

Wiring::

    servo brown/black ── GND of the 5 V servo supply AND a Pi GND pin (common ground)
    servo red         ── +5 V of the separate servo supply (never the Pi's 5 V pin)
    servo orange      ── GPIO12 (default), optionally through a 330 Ω resistor

Two mechanisms (``[hardware.ejector] mode``):

- ``pusher``: a positional servo (MG996R for a stiff magazine, MG90S for a light one) moves an arm
  from ``rest_angle`` to ``stroke_angle`` and back, once per card. After the last card it goes
  briefly to ``pull_back_angle`` to drag back a half-ejected card, as home-made launchers do.
- ``roller``: a continuous-rotation servo turns a rubber wheel under the bottom card for
  ``roller_run_s`` per card, then reverses for ``pull_back_s`` (the Arduino retrofit's 100 ms
  trick) and stops.

Either way the servo is detached at the end: no pulses, no hum, no jitter.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from .clock import SYSTEM_CLOCK, Clock
from .config import EjectorConfig
from .servo import ServoOutput, ServoRange, make_servo_output


def ejector_range(config: EjectorConfig) -> ServoRange:
    """Pusher: 0..180° on the configured pulses. Roller: speed -1..1 on the same pulses."""
    low, high = (-1.0, 1.0) if config.mode == "roller" else (0.0, 180.0)
    return ServoRange(low, high, config.min_pulse_us / 1e6, config.max_pulse_us / 1e6)


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
        self._servo = output or make_servo_output(pin, self.range, factory)
        self._clock = clock
        self._cards_fired = 0

    @property
    def servo(self) -> ServoOutput:
        return self._servo

    @property
    def cards_fired(self) -> int:
        """Strokes completed since start (cards the mechanism tried to push out)."""
        return self._cards_fired

    def home(self) -> None:
        """Pusher: park the arm at rest, then detach. Roller: make sure it is stopped."""
        if self.config.mode == "pusher":
            self._servo.set_angle(self.config.rest_angle)
            Pacer(threading.Event(), self._clock).hold(self.config.retract_s)
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
            if self.config.mode == "roller":
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
        if config.pull_back_s > 0:
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
