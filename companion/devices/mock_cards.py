"""Cards for the mock pins: a magazine whose cards cross the beam while the feed turns.

On gpiozero's mock pins nothing breaks the IR beam by itself, so ``simulate`` and the tests
give the ejector a :class:`MockCardPath`: while the feed runs, the next card's front edge
travels ``feed_path_mm`` (then one card length for each following card) at the feed's real
speed, darkens the beam for ``card_pass_s`` at the exit pinch's full duty (longer as the pinch's
duty falls through a burst: ``slowing``) and leaves. A card can be marked to come out as a
double, to jam in the throat or to stick in the beam; a slow servo is a ``speed`` below 1.

:class:`CardPathClock` puts the path on the ejector's clock: a wait that a card edge falls
into ends at that edge, the beam pin changes, and the ejector sees it as it would a real card.
It works on real time (``simulate``) and on the tests' virtual time alike.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from typing import Any, Literal

from .clock import Clock, Waiter
from .config import CardSensorConfig, EjectorConfig

CardFault = Literal["double", "jam", "stuck"]
# How much longer two overlapping cards darken the beam than one.
DOUBLE_DARK = 1.7


class MockCardPath:
    """A simulated magazine, throat and beam on the mock ``beam_pin``.

    ``faults`` marks cards by their number in the order they are fed (0: the first): a
    ``double`` leaves with the card after it, a ``jam`` never reaches the beam (nor does any
    card after it) and a ``stuck`` card stays in the beam, until :meth:`clear`.

    ``pinch()`` gives the exit pinch's duty now as a fraction of full (the launcher wires the
    ejector's); a card in the beam leaves it after ``card_pass_s / duty ** slowing``: 1 is a
    card thrown at a speed in proportion to the duty, more a pinch the card loads (the feed's
    simulation slows a burst's later cards about as ``slowing`` 2).
    """

    def __init__(
        self,
        beam_pin: Any,
        ejector: EjectorConfig,
        beam: CardSensorConfig,
        *,
        cards: int = 112,
        speed: float = 1.0,
        faults: dict[int, CardFault] | None = None,
        slowing: float = 1.0,
    ) -> None:
        self.pin = beam_pin
        self.ejector = ejector
        self.beam = beam
        self.full = cards
        self.cards_left = cards
        self.speed = speed
        self.faults = dict(faults or {})
        self.fed = 0  # cards that reached the beam
        self.blocked_by: CardFault | None = None
        self.slowing = slowing
        self.feeding: Callable[[], bool] = lambda: False
        self.pinch: Callable[[], float] = lambda: 1.0
        self._lock = threading.Lock()
        # While an edge is driven, the time it was due: the beam stamps its edges exactly then,
        # however late the lane woke up (a busy machine must not turn one card into a double).
        self._due = threading.local()
        self._last: float | None = None
        self._was_feeding = False
        self._travelled = 0.0  # mm the next card's front edge has moved
        # The card(s) in the beam: since when, and how many (its time out follows the pinch).
        self._in_beam: tuple[float, int] | None = None

    @property
    def _clear_at(self) -> float | None:
        """When the card in the beam leaves, at the pinch's duty now (None: none leaving)."""
        if self._in_beam is None:
            return None
        since, cards = self._in_beam
        duty = max(0.05, min(1.0, self.pinch()))
        dark = self.beam.card_pass_s / math.pow(duty, self.slowing)
        return since + dark * (DOUBLE_DARK if cards == 2 else 1.0)

    @property
    def mm_s(self) -> float:
        """The feed's real rim speed."""
        return self.ejector.feed_mm_s * self.speed

    def _need_mm(self) -> float:
        return self.ejector.feed_path_mm if self.fed == 0 else self.ejector.card_length_mm

    def _next_arrival(self, now: float) -> float | None:
        if not self._was_feeding or self.cards_left <= 0 or self.blocked_by is not None:
            return None
        return now + max(0.0, self._need_mm() - self._travelled) / self.mm_s

    def next_edge(self, now: float) -> float | None:
        """When the beam pin changes next, if nothing else changes (the feed keeps its state)."""
        with self._lock:
            self._advance(now)
            self._was_feeding = self.feeding()
            if not self._was_feeding and self.blocked_by is None:
                self._travelled = 0.0  # stopped and pulled back: the next card waits again
            clear_at = self._clear_at
            if clear_at is not None:
                return clear_at
            return self._next_arrival(now)

    def _advance(self, now: float) -> None:
        """Move time on to ``now``: cards arrive and leave on the way (pin edges at once)."""
        last = self._last if self._last is not None else now
        while True:
            events = [t for t in (self._clear_at, self._next_arrival(last)) if t is not None]
            if not events or min(events) > now + 1e-12:
                break
            at = min(events)
            if self._was_feeding:
                self._travelled += (at - last) * self.mm_s
            last = at
            self._due.at = at
            try:
                clear_at = self._clear_at
                if clear_at is not None and at >= clear_at:
                    self._in_beam = None
                    self.pin.drive_high()
                else:
                    self._arrive(at)
            finally:
                self._due.at = None
        if self._was_feeding:
            self._travelled += (now - last) * self.mm_s
        self._last = now

    def _arrive(self, at: float) -> None:
        fault = self.faults.get(self.fed)
        if fault == "jam":
            self.blocked_by = "jam"
            return
        cards = 2 if fault == "double" and self.cards_left >= 2 else 1
        self.cards_left -= cards
        self.fed += cards
        self._travelled = 0.0
        self.pin.drive_low()
        if fault == "stuck":
            self.blocked_by = "stuck"
        else:
            self._in_beam = (at, cards)

    def due(self) -> float | None:
        """The time the edge being driven was due (None outside an edge)."""
        return getattr(self._due, "at", None)

    def clear(self) -> None:
        """The players cleared the jam or the stuck card: the path runs again."""
        with self._lock:
            if self.blocked_by == "jam":
                self.faults.pop(self.fed, None)  # the jammed card comes free
            elif self.blocked_by == "stuck":
                self.pin.drive_high()  # the stuck card (already counted) is pulled out
            self.blocked_by = None
            self._travelled = 0.0

    def reload(self, cards: int | None = None) -> None:
        """A full magazine again (or ``cards`` cards)."""
        self.clear()
        with self._lock:
            self.cards_left = self.full if cards is None else cards


class CardPathClock:
    """``clock`` for the ejector, with ``path``'s beam edges ending the waits they fall into."""

    def __init__(self, clock: Clock, path: MockCardPath) -> None:
        self._clock = clock
        self.path = path

    def monotonic(self) -> float:
        due = self.path.due()
        return self._clock.monotonic() if due is None else due

    def wait(self, waiter: Waiter, seconds: float) -> bool:
        now = self._clock.monotonic()
        edge = self.path.next_edge(now)
        if edge is None or edge > now + seconds:
            if self._clock.wait(waiter, seconds):
                return True
            self.path.next_edge(self._clock.monotonic())
            return False
        if self._clock.wait(waiter, max(0.0, edge - now)):
            return True
        self.path.next_edge(self._clock.monotonic())  # the pin changes: the waiter's event
        return True
