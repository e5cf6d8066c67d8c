"""The card-exit beam: an IR break-beam just after the exit pinch, counting the cards fired.

Wiring (e.g. Adafruit 3 mm or 5 mm IR break-beam, product 2167/2168)::

    emitter   red ── 3.3 V (or 5 V for more range) ;  black ── GND
    receiver  red ── 3.3 V ;  black ── GND ;  white (signal) ── GPIO24 (default)

The receiver's output is open-collector: it pulls the line low while the beam is broken and
floats otherwise; the Pi's internal pull-up (to 3.3 V) gives the high level. Power the receiver
from 3.3 V, or make sure nothing pulls its signal up to 5 V: a Pi GPIO is not 5 V tolerant.

A card darkens the beam once, for about ``card_pass_s`` (its length at the throw's speed). The
:class:`CardSensor` records each dark spell as a :class:`Passage`; the ejector reads them while
the feed runs and stops it once enough cards went through (``ejector.py``). A spell longer than
``double_factor`` cards is two overlapping cards (a *double*); a beam dark longer than
``blocked_s`` is a card stuck in the mouth.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from .config import CardSensorConfig

# What stopped a firing before every card came out: "jam" (no card reached the beam in time:
# caught in the throat, or the magazine is empty) or "stuck" (a card sits in the beam).
FiringFault = Literal["jam", "stuck"]

# Two beam breaks closer than this are one card whose edge flickered.
_MIN_GAP_S = 0.004


@dataclass(frozen=True)
class Passage:
    """One dark spell of the beam: ``cards`` is 2 or more for a double."""

    start: float
    dark_s: float
    cards: int


@dataclass(frozen=True)
class FiringCount:
    """What the beam saw for one firing: ``counted`` cards (a double counts its cards),
    ``doubles`` dark spells that were two or more cards, ``fault`` if it stopped short."""

    expected: int
    counted: int
    doubles: int = 0
    fault: FiringFault | None = None
    passages: tuple[Passage, ...] = ()


class CardSensor:
    """Records the dark spells of an IR beam on ``pin`` (low while broken).

    ``clock`` stamps the edges: give it the clock the ejector paces the feed on, so dark times
    and time-outs are measured on the same time line.
    """

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
        self._passages: list[Passage] = []
        self._total = 0
        self._changes = 0
        self._broken_at: float | None = None
        self._cleared_at = -1.0
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
    def changes(self) -> int:
        """Beam edges seen since start: a waiter compares it to know something happened."""
        with self._cond:
            return self._changes

    @property
    def blocked(self) -> bool:
        """True while the beam is broken."""
        with self._cond:
            return self._broken_at is not None

    def dark_for(self, now: float) -> float:
        """How long the beam has been dark at ``now`` (0 while clear)."""
        with self._cond:
            return 0.0 if self._broken_at is None else max(0.0, now - self._broken_at)

    def cards_in(self, dark_s: float) -> int:
        """Cards one dark spell of ``dark_s`` seconds holds: 1, or 2+ for a double."""
        one = self.config.card_pass_s
        if dark_s < one * self.config.double_factor:
            return 1
        return max(2, round(dark_s / one))

    def passages_since(self, index: int) -> list[Passage]:
        """The dark spells ended since the ``index``-th one (0: since start)."""
        with self._cond:
            return self._passages[index:]

    @property
    def passages(self) -> int:
        with self._cond:
            return len(self._passages)

    def _on_broken(self) -> None:
        at = self._clock()
        with self._cond:
            self._changes += 1
            if self._broken_at is None and at - self._cleared_at < _MIN_GAP_S and self._passages:
                # The same card's edge flickered: carry on with its spell.
                last = self._passages.pop()
                self._total -= last.cards
                self._broken_at = last.start
            elif self._broken_at is None:
                self._broken_at = at
            self._cond.notify_all()

    def _on_clear(self) -> None:
        at = self._clock()
        with self._cond:
            self._changes += 1
            if self._broken_at is not None:
                dark = at - self._broken_at
                passage = Passage(self._broken_at, dark, self.cards_in(dark))
                self._passages.append(passage)
                self._total += passage.cards
            self._broken_at = None
            self._cleared_at = at
            self._cond.notify_all()

    def wait_change(self, seen: int, seconds: float, stop: threading.Event) -> bool:
        """Block up to ``seconds`` (real time) for an edge after ``seen`` changes or ``stop``;
        True if one came. A :class:`~.clock.Clock` waiter."""
        deadline = time.monotonic() + seconds
        with self._cond:
            while self._changes == seen and not stop.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, 0.02))
            return True

    def close(self) -> None:
        self._device.close()
