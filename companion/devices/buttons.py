"""Table buttons with debounce done here, in our own code.

Wiring (every button)::

    GPIO pin (e.g. GPIO17, physical pin 11) ──── button ──── GND (e.g. physical pin 9)

No resistor: the Pi's internal pull-up holds the line high; a press pulls it low. Arcade buttons
have a 3-pin microswitch: use COM and NO (normally open).

Why our own debounce: gpiozero's ``bounce_time`` is not implemented by the mock pins (field notes),
so a test could never see it, and backends differ. :class:`Debouncer` decides from edge times
only, so it behaves the same on a real pin callback thread and on the mock, where callbacks run
synchronously inside the test's ``pin.drive_low()``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

logger = logging.getLogger(__name__)


class Debouncer:
    """Accept a press edge only if the line had been released and steady for ``window_s``.

    The first clean edge fires at once (no added latency). Contact bounce after a press or
    after a release re-arms nothing, because the line was never high for a whole window. A
    button stuck low fires once and never again until it has been released for a window.
    """

    def __init__(self, window_s: float, *, released_since: float | None) -> None:
        if window_s <= 0:
            raise ValueError("the debounce window must be positive")
        self.window_s = window_s
        # Time of the last rising edge while the line is high; None while it is low.
        self._released_since = released_since

    def falling(self, at: float) -> bool:
        """The line went low (pressed) at ``at``; True if this is a press to act on."""
        since = self._released_since
        self._released_since = None
        return since is not None and at - since >= self.window_s

    def rising(self, at: float) -> None:
        """The line went high (released) at ``at``."""
        if self._released_since is None:
            self._released_since = at


class TableButton:
    """A push button to GND on ``pin`` (BCM), with our own debounce.

    ``when_pressed`` is called with the monotonic time of each accepted press edge, in the thread
    that saw the edge (a backend thread on a Pi, the caller's thread on the mock): keep it quick.
    ``clock`` is injectable so tests can script exact edge times.
    """

    def __init__(
        self,
        name: str,
        pin: int,
        *,
        factory: Any,
        debounce_s: float = 0.03,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        from gpiozero import DigitalInputDevice

        self.name = name
        self.when_pressed: Callable[[float], None] | None = None
        self._clock = clock
        self._lock = threading.Lock()
        self._presses = 0
        self._last_press_at: float | None = None
        # A plain input, not gpiozero's Button: long holds are watched by the box's own hold
        # watcher, and Button's hold thread only adds a tenth of a second to every close.
        # bounce_time=None: gpiozero must pass every edge through; we debounce below.
        self._button = DigitalInputDevice(pin, pull_up=True, bounce_time=None, pin_factory=factory)
        now = clock()
        # A line already high at start counts as long released: the first press fires at once.
        # A line already low (stuck or held at boot) must be released first.
        released_since = None if self._button.is_active else now - debounce_s
        self._debouncer = Debouncer(debounce_s, released_since=released_since)
        self._button.when_activated = self._on_low
        self._button.when_deactivated = self._on_high

    @property
    def pin(self) -> Any:
        """The gpiozero pin object (on the mock: ``drive_low()`` presses)."""
        return self._button.pin

    @property
    def presses(self) -> int:
        """Accepted presses since start."""
        return self._presses

    @property
    def last_press_at(self) -> float | None:
        """Monotonic time of the last accepted press edge."""
        return self._last_press_at

    @property
    def is_pressed(self) -> bool:
        return bool(self._button.is_active)

    def _on_low(self) -> None:
        at = self._clock()
        with self._lock:
            accepted = self._debouncer.falling(at)
            if accepted:
                self._presses += 1
                self._last_press_at = at
        if not accepted:
            return
        callback = self.when_pressed
        if callback is None:
            return
        try:
            callback(at)
        except Exception:  # a bad handler must not kill the backend's callback thread
            logger.exception("%s button handler failed", self.name)

    def _on_high(self) -> None:
        at = self._clock()
        with self._lock:
            self._debouncer.rising(at)

    def close(self) -> None:
        self.when_pressed = None
        self._button.close()


class HitButton(TableButton):
    """The big HIT button on top of the launcher: every accepted press dings.

    Wiring: a 30 mm or 60 mm arcade button, COM to GND, NO to GPIO17 (default). Keep the wires
    away from the servo leads, or twist them together, so servo noise does not look like presses.
    """

    def __init__(
        self,
        pin: int,
        *,
        factory: Any,
        debounce_s: float = 0.03,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__("hit", pin, factory=factory, debounce_s=debounce_s, clock=clock)
