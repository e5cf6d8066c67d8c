"""The card-exit beam: an IR break-beam just after the exit pinch, counting the cards fired.

Wiring (e.g. Adafruit 3 mm or 5 mm IR break-beam, product 2167/2168)::

    emitter   red ── 3.3 V (or 5 V for more range) ;  black ── GND
    receiver  red ── 3.3 V ;  black ── GND ;  white (signal) ── GPIO24 (default)

The receiver's output is open-collector: it pulls the line low while the beam is broken and
floats otherwise; the Pi's internal pull-up (to 3.3 V) gives the high level. Power the receiver
from 3.3 V, or make sure nothing pulls its signal up to 5 V: a Pi GPIO is not 5 V tolerant.

A card darkens the beam once, for its length at the speed the exit pinch throws it: about
``card_pass_s`` at the pinch's full duty. The :class:`CardSensor` records each dark spell as a
:class:`Passage`; the ejector reads them while the feed runs and stops it once enough cards went
through (``ejector.py``). A beam dark longer than ``blocked_s`` is a card stuck in the mouth.

**Counting a burst** (:func:`count_burst`). Within a firing the pinch's duty steps down card by
card (the ejector's fan), and a loaded pinch slows each card more than its duty alone says, so a
burst's later cards darken the beam up to two or three times as long as its first. A spell is
therefore judged against the card expected *at that moment*, not against one fixed time: the
last single card of the same firing, scaled by how much the pinch's duty fell since, and never
less than ``card_pass_s`` at the duty the card passes at. Longer than ``double_factor`` such
cards, it is two overlapping cards (a *double*): one card plus the overlap, at the same speed.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .config import CardSensorConfig

# What stopped a firing before every card came out: "jam" (no card reached the beam in time:
# caught in the throat, or the magazine is empty) or "stuck" (a card sits in the beam).
FiringFault = Literal["jam", "stuck"]

# Two beam breaks closer than this are one card whose edge flickered.
_MIN_GAP_S = 0.004


# The slowest pinch a spell is judged at, as a fraction of full duty: a pinch stopped (duty 0)
# while a card is in the beam must not make its expected time endless.
_SLOWEST_DUTY = 0.05
# A spell shorter than this many cards at its duty (a flicker, a card's corner) does not set
# the pace the next cards are judged at.
_SHORTEST_CARD = 0.5


@dataclass(frozen=True)
class Passage:
    """One dark spell of the beam: ``cards`` is 2 or more for a double; ``duty`` the exit
    pinch's duty (a fraction of full) it was judged at, 1.0 outside a firing."""

    start: float
    dark_s: float
    cards: int
    duty: float = 1.0


def count_burst(
    dark_s: Sequence[float], config: CardSensorConfig, duties: Sequence[float] = ()
) -> list[int]:
    """The cards in each dark spell of one firing, in order (1, or 2 and more for a double).

    ``dark_s``: how long each spell of the firing darkened the beam, in seconds, in order.
    ``duties``: the exit pinch's duty while a spell passes, as a fraction of the duty
    ``card_pass_s`` was measured at; ``duties[k]`` is the duty for the spell that comes after
    ``k`` cards were counted (a double counts its cards), the last one standing for any later
    spell; empty: full duty throughout. The ejector gives :func:`~.ejector.passing_duties`.

    A spell is judged against the card expected then: the last single card before it in the
    firing, times how much the duty fell since (a card's time goes as one over its speed); the
    first spell (or one after doubles only) against ``card_pass_s`` over its duty. It is a
    double when longer than ``double_factor`` expected cards; then it holds as many cards as
    it is long, at least two. A spell shorter than half a card at its duty (a flicker) counts
    as one card but sets no pace. Pure (no pins, no clock): the ejector counts a firing
    with it as the spells end; the feed's simulation (``hardware/sim``) can count its own beam
    with it, giving :func:`~.ejector.passing_duties` for the firing.
    """
    counts: list[int] = []
    counted = 0
    last: tuple[float, float] | None = None  # the last single card: (dark_s, duty)
    for dark in dark_s:
        duty = _duty_at(duties, counted)
        expected = config.card_pass_s / duty
        if last is not None:
            expected = last[0] * last[1] / duty
        if dark < expected * config.double_factor:
            cards = 1
            if dark >= _SHORTEST_CARD * config.card_pass_s / duty:
                last = (dark, duty)
        else:
            cards = max(2, round(dark / expected))
        counts.append(cards)
        counted += cards
    return counts


def _duty_at(duties: Sequence[float], counted: int) -> float:
    if not duties:
        return 1.0
    return max(_SLOWEST_DUTY, duties[min(counted, len(duties) - 1)])


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
        self._burst: int | None = None  # index of the firing's first passage, during one
        self._duties: tuple[float, ...] = ()
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
        """Cards one dark spell of ``dark_s`` seconds holds, alone at full duty: 1, or 2+ for
        a double."""
        return count_burst([dark_s], self.config)[0]

    def begin_burst(self, duties: Sequence[float] = ()) -> int:
        """A firing starts: its spells are counted together (:func:`count_burst`, with the
        pinch's ``duties``) until :meth:`end_burst`. Returns the index of its first passage."""
        with self._cond:
            self._burst = len(self._passages)
            self._duties = tuple(duties)
            return self._burst

    def end_burst(self) -> None:
        """The firing is over: a later spell (a card pulled out by hand) is judged alone."""
        with self._cond:
            self._burst = None
            self._duties = ()

    def _judge(self, dark_s: float) -> tuple[int, float]:
        """Cards in a spell just ended, and the duty it was judged at (lock held)."""
        if self._burst is None:
            return self.cards_in(dark_s), 1.0
        before = self._passages[self._burst :]
        counts = count_burst([p.dark_s for p in before] + [dark_s], self.config, self._duties)
        return counts[-1], _duty_at(self._duties, sum(counts[:-1]))

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
                cards, duty = self._judge(dark)
                passage = Passage(self._broken_at, dark, cards, duty)
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
