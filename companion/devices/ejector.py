"""The ejector: the feed that takes the bottom card and the exit pinch that throws it.

Wiring (hardware/wiring.md)::

    feed servo (FS90R)   brown ── GND   red ── +5 V servo rail   orange ── GPIO12
    DRV8833              IN1 ── GPIO4 (PWM)   IN2 ── GND   VM ── +5 V servo rail
                         OUT1/OUT2 ── exit pinch motor   GND ── GND (common with the Pi)
    IR beam receiver     signal ── GPIO24 (sensor.py)

Two mechanisms (``[hardware.ejector] mode``):

- ``feed``: the exit pinch spins up first (``exit_spin_up_s``), then the continuous-rotation
  servo turns two silicone-tyred wheels under the stack and slides the bottom card under the
  gate and the separator's shoe into the pinch, which throws it. The pinch's duty steps down a
  little after each card counted (``exit_fan``), so a burst lands in a row toward the player.
  After the last card the feed stops (its wheels turn on one-way bearings: nothing to pull back)
  and the pinch runs on ``exit_run_on_s`` so the last card leaves.
- ``motor``: a retrofitted Mattel launcher's own DC motor, switched by a MOSFET, transistor or
  relay on the ejector pin (hardware/retrofit.md).

**Counted, not timed.** With the beam fitted, the feed runs until the beam has seen the cards
asked for and the last one has left it, or a time-out names the fault: no card reached the beam
within ``margin`` times the time one should take (``jam``: caught in the throat or magazine
empty), or the beam stayed dark longer than ``blocked_s`` (``stuck``). Without a beam the feed
runs for the time the cards should take (``EjectorConfig.timed_run_s``) and the count is what
was asked.

Either way every output is released at the end: no pulses, no hum, motors off.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from .clock import SYSTEM_CLOCK, Clock
from .config import NO_PIN, EjectorConfig
from .sensor import CardSensor, FiringCount, FiringFault, Passage
from .servo import ServoOutput, ServoRange, make_servo_output


def fan_duty(duty: float, fan: float, card: int, cards: int) -> float:
    """The exit pinch's duty while card ``card`` (0 first) of ``cards`` goes out: ``duty`` for
    the first, falling evenly to ``duty * (1 - fan)`` for the last."""
    if cards <= 1:
        return duty
    return duty * (1.0 - fan * min(card, cards - 1) / (cards - 1))


def passing_duties(config: EjectorConfig, cards: int) -> list[float]:
    """The exit pinch's duty, as a fraction of ``exit_duty``, while the beam sees the card that
    comes after ``k`` cards were counted (``[k]``), in a firing of ``cards``: the duty steps down
    as soon as a card is in the beam, so each card passes at the next card's step (the last
    at the last step). What :func:`~.sensor.count_burst` judges a firing's spells at."""
    return [fan_duty(1.0, config.exit_fan, k + 1, cards) for k in range(max(cards, 1))]


def feed_range(config: EjectorConfig) -> ServoRange:
    """The feed servo's speed, -1 (full reverse) .. 1 (full forward), on the configured pulses."""
    return ServoRange.from_us(-1.0, 1.0, config.min_pulse_us, config.max_pulse_us)


class MotorOutput:
    """A DC motor switched on ``pin`` (PWM duty = speed); stands where a servo output would.

    ``set_angle`` takes the speed: above zero runs the motor at that duty, zero or below stops it
    (one transistor, relay or DRV8833 input with the other tied low cannot reverse).
    ``pulse_width`` is the duty while running.
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
    """Fires cards; :meth:`fire` blocks for the whole sequence, so run it on a worker thread.

    ``pin`` drives the feed (``feed`` mode: a continuous servo) or the launcher's motor
    (``motor`` mode); ``exit_pin`` the exit pinch's motor (``feed`` mode). ``sensor``, when
    fitted, counts the cards and stops the feed (see the module docstring).
    """

    def __init__(
        self,
        pin: int,
        config: EjectorConfig,
        *,
        factory: Any,
        exit_pin: int = NO_PIN,
        sensor: CardSensor | None = None,
        output: ServoOutput | None = None,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        self.config = config
        self.range = feed_range(config)
        if output is None:
            if config.mode == "motor":
                output = MotorOutput(pin, factory)
            else:
                output = make_servo_output(pin, self.range, factory)
        self._feed = output
        self._exit: MotorOutput | None = None
        if config.mode == "feed" and exit_pin != NO_PIN:
            try:
                self._exit = MotorOutput(exit_pin, factory)
            except BaseException:
                self._feed.close()
                raise
        self.sensor = sensor
        self._clock = clock
        self._cards_fired = 0
        self._feeding = False

    @property
    def servo(self) -> ServoOutput:
        """The feed's output (the feed servo, or the retrofit's motor)."""
        return self._feed

    @property
    def exit_motor(self) -> MotorOutput | None:
        return self._exit

    @property
    def feeding(self) -> bool:
        """True while the feed pushes cards forward."""
        return self._feeding

    @property
    def pinch_duty(self) -> float:
        """The exit pinch's duty now as a fraction of ``exit_duty`` (1.0 without a pinch, or
        while it is off): what a card in the beam is thrown at."""
        pulse = self._exit.pulse_width if self._exit is not None else None
        return 1.0 if pulse is None else pulse / self.config.exit_duty

    @property
    def counted(self) -> bool:
        """True when the beam counts the cards; False when firing is timed."""
        return self.sensor is not None

    @property
    def cards_fired(self) -> int:
        """Cards fired since start: counted by the beam, or asked for when timed."""
        return self._cards_fired

    def home(self, stop: threading.Event | None = None) -> None:
        """Make sure the feed and the pinch are stopped."""
        self._feed.detach()
        if self._exit is not None:
            self._exit.detach()

    def fire(self, cards: int, stop: threading.Event | None = None) -> FiringCount:
        """Fire ``cards`` cards; returns what came out (see :class:`FiringCount`).

        Counted with a beam, timed without (then ``counted`` is what ran, fewer if ``stop``
        was set). A set ``stop`` ends the firing at once, outputs released.
        """
        stop = stop or threading.Event()
        if cards <= 0:
            return FiringCount(expected=0, counted=0)
        pacer = Pacer(stop, self._clock)
        try:
            if self._exit is not None:
                self._exit.set_angle(self.config.exit_duty)
                if not pacer.hold(self.config.exit_spin_up_s):
                    return FiringCount(expected=cards, counted=0)
            self._set_feed(self._forward)
            if self.sensor is not None:
                result = self._count(cards, stop, self.sensor)
            else:
                result = self._timed(cards, stop, pacer)
            self._set_feed(0.0)
            self._finish(stop, result)
        finally:
            self._set_feed(0.0)
            self.home()
        self._cards_fired += result.counted
        return result

    @property
    def _forward(self) -> float:
        return self.config.roller_speed if self.config.mode == "motor" else self.config.feed_speed

    def _set_feed(self, speed: float) -> None:
        self._feeding = speed > 0
        if speed == 0.0:
            self._feed.detach()
        else:
            self._feed.set_angle(speed)

    def _timed(self, cards: int, stop: threading.Event, pacer: Pacer) -> FiringCount:
        started = self._clock.monotonic()
        run = self.config.timed_run_s(cards)
        if pacer.hold(run):
            return FiringCount(expected=cards, counted=cards)
        ran = self._clock.monotonic() - started
        return FiringCount(expected=cards, counted=min(cards, int(cards * ran / run)))

    def _count(self, cards: int, stop: threading.Event, sensor: CardSensor) -> FiringCount:
        """Feed until the beam has seen ``cards`` cards, or name the fault."""
        # The beam judges each card at the duty the pinch throws it (the fan's step).
        pinch = self._exit is not None
        first = sensor.begin_burst(passing_duties(self.config, cards) if pinch else ())
        try:
            fault = self._feed_until(cards, stop, sensor, first)
        finally:
            sensor.end_burst()
        self._set_feed(0.0)
        passages = tuple(sensor.passages_since(first))
        counted = _seen(passages, sensor)
        doubles = sum(1 for p in passages if p.cards > 1)
        return FiringCount(cards, counted, doubles, fault, passages)

    def _feed_until(
        self, cards: int, stop: threading.Event, sensor: CardSensor, first: int
    ) -> FiringFault | None:
        """Feed until the beam has seen ``cards`` cards and the last has left it; the fault
        that stopped it short, if any."""
        config, clock = self.config, self._clock
        margin = config.margin
        deadline = clock.monotonic() + config.first_card_s * margin
        fault: FiringFault | None = None
        while not stop.is_set():
            now = clock.monotonic()
            done = sensor.passages_since(first)
            dark = sensor.dark_for(now)
            seen = _seen(done, sensor)
            if self._exit is not None:
                self._exit.set_angle(fan_duty(config.exit_duty, config.exit_fan, seen, cards))
            if seen >= cards:
                break
            if dark >= sensor.config.blocked_s:
                fault = "stuck"
                break
            if sensor.blocked:
                # A card is going through: the next time-out starts when it is out.
                wait_s = sensor.config.blocked_s - dark
            else:
                if done:
                    last = done[-1]
                    deadline = last.start + last.dark_s + config.card_interval_s * margin
                if now >= deadline:
                    fault = "jam"
                    break
                wait_s = deadline - now
            self._wait_beam(sensor, stop, wait_s)
        # The last card is in the beam: the feed runs on until it has left it. Its tail is then
        # past both tyres, so the pinch never drags it alone from under the stack's weight; the
        # next card, the bottom one only since, is still short of the pinch.
        if fault is None and sensor.blocked and not stop.is_set():
            fault = self._wait_clear(sensor, stop)
        return fault

    def _wait_clear(self, sensor: CardSensor, stop: threading.Event) -> FiringFault | None:
        """The last card is in the beam: wait for it to leave; "stuck" if it does not."""
        while sensor.blocked and not stop.is_set():
            dark = sensor.dark_for(self._clock.monotonic())
            if dark >= sensor.config.blocked_s:
                return "stuck"
            self._wait_beam(sensor, stop, sensor.config.blocked_s - dark)
        return None

    def _wait_beam(self, sensor: CardSensor, stop: threading.Event, seconds: float) -> None:
        seen = sensor.changes
        self._clock.wait(lambda s: sensor.wait_change(seen, s, stop), seconds)

    def _finish(self, stop: threading.Event, result: FiringCount) -> None:
        """After the feed: unless a fault stopped the firing, let the pinch run on so the last
        card leaves."""
        if stop.is_set():
            return
        if self._exit is not None and result.fault is None:
            Pacer(stop, self._clock).hold(self.config.exit_run_on_s)

    def close(self) -> None:
        self._feed.close()
        if self._exit is not None:
            self._exit.close()


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


def _seen(passages: Sequence[Passage], sensor: CardSensor) -> int:
    """Cards the beam has seen: those of the passages, and one in the beam now."""
    return sum(p.cards for p in passages) + (1 if sensor.blocked else 0)
