"""Press-path latency on the mock backend: HIT pin edge → first buzzer / ejector pin change.

Each of 1,000 presses goes through LauncherHardware exactly as on the box: the debounced HIT
button delivers a notice, a stand-in for the engine answers ``[Cue("ding"), Eject(n)]`` (about
40 % of presses fire 1-3 cards, as the authentic profile does), and the buzzer and motion lanes
change their pins from their own threads. The floor is a bare gpiozero ``Button`` callback on
another mock pin, measured in the same loop. The full engine path is added by the daemon's bench.
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import threading
import time
from typing import Any

from gpiozero import Button
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.core.commands import Cue, Eject
from companion.devices import ButtonPressed, InputNotice, LauncherHardware
from tests.doubles import QUICK_FEED
from tests.helpers import hardware_section

PRESSES = 1000
HIT, FLOOR, EJECTOR, TURRET, BUZZER = 17, 5, 12, 13, 16


class StampedPin(MockPWMPin):
    """A mock PWM pin that notes the monotonic time of every change (duty or frequency)."""

    def __init__(self, factory: Any, info: Any) -> None:
        super().__init__(factory, info)
        self.first_change: float | None = None
        self.changed = threading.Event()

    def arm(self) -> None:
        self.first_change = None
        self.changed.clear()

    def _stamp(self) -> None:
        if self.first_change is None:
            self.first_change = time.monotonic()
            self.changed.set()

    def _change_state(self, value: Any) -> bool:
        changed = bool(super()._change_state(value))
        if changed and hasattr(self, "changed"):
            self._stamp()
        return changed

    def _set_frequency(self, value: Any) -> None:
        super()._set_frequency(value)
        if hasattr(self, "changed"):
            self._stamp()


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p50 = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return (
        f"p50 {p50 * 1e6:8.1f} µs   p99 {p99 * 1e6:8.1f} µs   max {ordered[-1] * 1e6:8.1f} µs"
        f"   (n={len(ordered)})"
    )


def main() -> None:
    factory = MockFactory(pin_class=StampedPin)
    config = hardware_section(
        {
            "backend": "mock",
            "debounce_ms": 2,  # only limits the press rate: the first clean edge fires at once
            "pins": {
                "hit": HIT,
                "ejector": EJECTOR,
                "turret": TURRET,
                "buzzer": BUZZER,
                "card_sensor": -1,  # timed: the bench measures the lanes, not the beam
            },
            "ejector": QUICK_FEED,
        }
    )
    hardware = LauncherHardware(config, factory, seats=4)
    hardware.wait_idle(10)
    rng = random.Random(7)
    plan: list[int] = []

    def engine(notice: InputNotice) -> None:
        if isinstance(notice, ButtonPressed) and notice.button == "hit":
            cards = plan[-1]
            hardware.execute([Cue("ding"), Eject(cards)] if cards else [Cue("ding")])

    hardware.on_input(engine)
    floor_button = Button(FLOOR, pull_up=True, bounce_time=None, pin_factory=factory)
    floor_at: list[float] = []
    floor_button.when_pressed = lambda: floor_at.append(time.monotonic())

    hit, floor = factory.pin(HIT), factory.pin(FLOOR)
    buzzer, ejector = factory.pin(BUZZER), factory.pin(EJECTOR)
    to_buzzer: list[float] = []
    to_ejector: list[float] = []
    to_first: list[float] = []
    to_floor: list[float] = []
    lost = 0
    started = time.monotonic()
    for _ in range(PRESSES):
        plan.append(rng.choice((1, 2, 3)) if rng.random() < 0.4 else 0)
        buzzer.arm()
        ejector.arm()
        edge = time.monotonic()
        hit.drive_low()
        if not buzzer.changed.wait(1.0) or (plan[-1] and not ejector.changed.wait(1.0)):
            lost += 1
        if buzzer.first_change is not None:
            to_buzzer.append(buzzer.first_change - edge)
        if plan[-1] and ejector.first_change is not None:
            to_ejector.append(ejector.first_change - edge)
        firsts = [t for t in (buzzer.first_change, ejector.first_change) if t is not None]
        if firsts:
            to_first.append(min(firsts) - edge)
        hit.drive_high()
        edge = time.monotonic()
        floor.drive_low()
        to_floor.append(floor_at[-1] - edge)
        floor.drive_high()
        hardware.wait_idle(5, sound=False)
        hardware.buzzer.stop()
        hardware.buzzer.wait_silent(1)
        time.sleep(0.003)  # released longer than the debounce window
    elapsed = time.monotonic() - started
    status = hardware.status()
    hardware.close()
    floor_button.close()
    factory.close()

    print(
        f"devices: {PRESSES} presses through LauncherHardware on MockFactory(MockPWMPin), "
        f"Python {platform.python_version()}, {os.cpu_count()} CPU(s), {elapsed:.1f} s"
    )
    print(f"  HIT edge -> first buzzer/ejector pin change  {percentiles(to_first)}")
    print(f"  HIT edge -> first buzzer pin change (ding)   {percentiles(to_buzzer)}")
    print(f"  HIT edge -> feed starts (firings)          {percentiles(to_ejector)}")
    print(f"  floor: bare gpiozero Button callback         {percentiles(to_floor)}")
    print(
        f"  presses without a pin change within 1 s: {lost}; "
        f"cards fired {status['cards_fired']} of {sum(plan)} planned"
    )


if __name__ == "__main__":
    main()
