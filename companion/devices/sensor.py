"""The optional card-exit sensor: an IR break-beam across the launcher's mouth.

Wiring (e.g. Adafruit 3 mm or 5 mm IR break-beam, product 2167/2168)::

    emitter   red ── 3.3 V (or 5 V for more range) ;  black ── GND
    receiver  red ── 3.3 V ;  black ── GND ;  white (signal) ── GPIO24 (e.g.)

The receiver's output is open-collector: it pulls the line low while the beam is broken and
floats otherwise; the Pi's internal pull-up (to 3.3 V) gives the high level. Power the receiver
from 3.3 V, or make sure nothing pulls its signal up to 5 V: a Pi GPIO is not 5 V tolerant.

Each time the beam is broken counts one card. :class:`CardSensor` counts within a window opened
by :meth:`begin` just before the ejector moves and closed by :meth:`finish` once the cards have
had time to leave: no card at all means a jam or an empty magazine; a beam still broken means a
card is stuck in the mouth.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from .config import CardSensorConfig

Outcome = Literal["counted", "nothing_out", "blocked"]

# Two beam breaks closer than this are one card whose edge flickered.
_MIN_GAP_S = 0.004


@dataclass(frozen=True)
class SensorResult:
    """What the sensor saw for one firing."""

    expected: int
    counted: int
    outcome: Outcome  # "nothing_out": jam or empty magazine; "blocked": a card stuck in the beam

    @property
    def jammed(self) -> bool:
        return self.outcome != "counted"


class CardSensor:
    """Counts cards crossing an IR beam on ``pin`` (low while broken)."""

    def __init__(
        self,
        pin: int,
        config: CardSensorConfig,
        *,
        factory: Any,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        from gpiozero import DigitalInputDevice

        self.config = config
        self._clock = clock
        self._cond = threading.Condition()
        self._counting = False
        self._count = 0
        self._total = 0
        self._broken_at: float | None = None
        self._last_break = -1.0
        # pull_up=True: active (beam broken) when the receiver pulls the line low.
        self._device = DigitalInputDevice(pin, pull_up=True, bounce_time=None, pin_factory=factory)
        if self._device.is_active:
            self._broken_at = clock()
        self._device.when_activated = self._on_broken
        self._device.when_deactivated = self._on_clear

    @property
    def pin(self) -> Any:
        return self._device.pin

    @property
    def total(self) -> int:
        """Cards counted since start, in or out of a firing."""
        with self._cond:
            return self._total

    @property
    def blocked(self) -> bool:
        """True while the beam is broken."""
        with self._cond:
            return self._broken_at is not None

    def _on_broken(self) -> None:
        at = self._clock()
        with self._cond:
            self._broken_at = at
            if at - self._last_break < _MIN_GAP_S:
                return
            self._last_break = at
            self._total += 1
            if self._counting:
                self._count += 1
                self._cond.notify_all()

    def _on_clear(self) -> None:
        with self._cond:
            self._broken_at = None
            self._cond.notify_all()

    def begin(self) -> None:
        """Open the counting window: call just before the ejector moves."""
        with self._cond:
            self._counting = True
            self._count = 0

    def finish(self, expected: int, stop: threading.Event | None = None) -> SensorResult:
        """Wait for the cards to clear (``timeout_s`` at most), close the window and judge.

        Returns early once ``expected`` cards went through and the beam is clear.
        """
        deadline = self._clock() + self.config.timeout_s
        with self._cond:
            while True:
                done = self._count >= expected and self._broken_at is None
                left = deadline - self._clock()
                if done or left <= 0 or (stop is not None and stop.is_set()):
                    break
                self._cond.wait(min(left, 0.02))
            counted = self._count
            self._counting = False
            broken_for = 0.0 if self._broken_at is None else self._clock() - self._broken_at
        if broken_for >= self.config.blocked_s or (
            broken_for > 0 and self._wait_still_blocked(stop)
        ):
            outcome: Outcome = "blocked"
        elif counted == 0 and expected > 0:
            outcome = "nothing_out"
        else:
            outcome = "counted"
        return SensorResult(expected=expected, counted=counted, outcome=outcome)

    def _wait_still_blocked(self, stop: threading.Event | None) -> bool:
        """The beam is broken at the end of the window: a card still leaving, or one stuck?"""
        with self._cond:
            while self._broken_at is not None:
                broken_for = self._clock() - self._broken_at
                if broken_for >= self.config.blocked_s:
                    return True
                if stop is not None and stop.is_set():
                    return False
                self._cond.wait(min(self.config.blocked_s - broken_for, 0.02))
            return False

    def close(self) -> None:
        self._device.close()
