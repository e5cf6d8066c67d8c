"""The buzzer: plays cue steps from :mod:`companion.core.cues`, the first one at once on the
caller's thread (a press's ding starts before :meth:`Buzzer.play` returns), the rest on its own.

Wiring, passive piezo (``kind = "tonal"``, the default)::

    GPIO16 ──[1 kΩ]── base of an NPN transistor (2N2222 / BC547)
    5 V ──── piezo + ;  piezo - ──── collector ;  emitter ──── GND

A small piezo disc may hang straight between GPIO16 and GND (quieter). An *active* buzzer (one
with its own oscillator, ``kind = "active"``) is wired the same way but only switches on and off,
so every cue plays at its one pitch, rhythm intact.

Tones come from ``BUZZER_SAFE_HZ``, frequencies pigpio produces exactly (field notes), so a cue
sounds the same on every backend. A new cue *replaces* the one playing: the press ding is never
queued behind a suspense pattern.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Any

from companion.core.cues import BUZZER_SAFE_HZ, Step

from .clock import SYSTEM_CLOCK, Clock

logger = logging.getLogger(__name__)


class Buzzer:
    """A tonal (passive piezo) or active buzzer on ``pin``; :meth:`play` never blocks."""

    def __init__(
        self, pin: int, *, factory: Any, kind: str = "tonal", clock: Clock = SYSTEM_CLOCK
    ) -> None:
        if kind not in ("tonal", "active"):
            raise ValueError(f"buzzer kind must be 'tonal' or 'active', got {kind!r}")
        self.kind = kind
        self._clock = clock
        self._device: Any
        if kind == "tonal":
            from gpiozero import TonalBuzzer
            from gpiozero.tones import Tone

            low, high = min(BUZZER_SAFE_HZ), max(BUZZER_SAFE_HZ)
            # TonalBuzzer only plays within mid_tone ± octaves: centre it on the cue range.
            mid = (low * high) ** 0.5
            self._device = TonalBuzzer(
                pin, mid_tone=Tone(frequency=mid), octaves=2, pin_factory=factory
            )
            self._tone_class = Tone
        else:
            from gpiozero import Buzzer as ActiveBuzzer

            self._device = ActiveBuzzer(pin, pin_factory=factory)
        self._cond = threading.Condition()
        # The cue waiting for the thread, and when its first step was sounded (None: not yet).
        self._pending: tuple[tuple[Step, ...], float | None] | None = None
        self._generation = 0
        self._playing = False
        self._sounding = False
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="buzzer", daemon=True)
        self._thread.start()

    @property
    def pin(self) -> Any:
        if self.kind == "tonal":
            return self._device.pwm_device.pin
        return self._device.pin

    @property
    def busy(self) -> bool:
        """True while a cue is queued or playing."""
        with self._cond:
            return self._playing or self._pending is not None

    def play(self, steps: Sequence[Step]) -> None:
        """Start playing ``steps`` now, cutting off whatever was playing. The first step sounds
        before this returns (the caller's thread sets the pin); the rest plays on the buzzer's
        thread, so a press's ding never waits for that thread to be scheduled."""
        cue = tuple(steps)
        with self._cond:
            if self._closed:
                return
            self._generation += 1
            started: float | None = self._clock.monotonic()
            try:
                self._attack(cue)
            except Exception:  # a failing pin must not fail the caller: the thread tries again
                logger.exception("buzzer failed")
                started = None
            self._pending = (cue, started)
            self._cond.notify_all()

    def stop(self) -> None:
        """Silence the buzzer now."""
        self.play(())

    def wait_silent(self, timeout: float | None = None) -> bool:
        """Block until no cue is queued or playing; False on timeout."""
        with self._cond:
            return self._cond.wait_for(
                lambda: not self._playing and self._pending is None, timeout=timeout
            )

    def _tone(self, frequency: int) -> None:
        if self.kind == "tonal":
            self._device.play(self._tone_class(frequency=float(frequency)))
        else:
            self._device.on()
        self._sounding = True

    def _silence(self) -> None:
        if self._sounding:
            if self.kind == "tonal":
                self._device.stop()
            else:
                self._device.off()
            self._sounding = False

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._pending is not None or self._closed)
                if self._closed:
                    break
                (steps, started), generation = self._pending or ((), None), self._generation
                self._pending = None
                self._playing = True
            try:
                self._play_steps(steps, generation, started)
            except Exception:  # a failing pin must not end the thread: the next cue may work
                logger.exception("buzzer failed")
            with self._cond:
                self._playing = False
                self._cond.notify_all()
        self._silence_safely()

    def _attack(self, steps: tuple[Step, ...]) -> None:
        # Silence first: a cue cut short restarts with a clear attack, and the pin changes at once.
        self._silence()
        if steps and steps[0][0] > 0:
            self._tone(steps[0][0])

    def _play_steps(self, steps: tuple[Step, ...], generation: int, started: float | None) -> None:
        clock = self._clock
        with self._cond:
            if self._generation != generation or self._closed:
                return
            if started is None:  # the caller could not sound it: this thread does
                self._attack(steps)
                started = clock.monotonic()
        deadline = started
        for index, (frequency, seconds) in enumerate(steps):
            if index:
                with self._cond:  # the pin is only set under the lock, by the newest cue
                    if self._generation != generation or self._closed:
                        return
                    if frequency > 0:
                        self._tone(frequency)
                    else:
                        self._silence()
            deadline += seconds  # absolute deadlines: late wake-ups do not add up
            with self._cond:
                replaced = clock.wait(
                    lambda seconds: self._cond.wait_for(
                        lambda: self._generation != generation or self._closed, seconds
                    ),
                    deadline - clock.monotonic(),
                )
            if replaced:
                return
        with self._cond:
            if self._generation == generation and not self._closed:
                self._silence()

    def _silence_safely(self) -> None:
        try:
            self._silence()
        except Exception:
            logger.warning("could not silence the buzzer", exc_info=True)

    def close(self) -> None:
        """Stop the thread, silence the pin and release it."""
        with self._cond:
            self._closed = True
            self._generation += 1
            self._cond.notify_all()
        self._thread.join(timeout=2.0)
        self._silence_safely()
        self._device.close()
