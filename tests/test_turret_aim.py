"""The turret knows where it is: at start and after a restart it homes, then turns to whoever
the table faces, and a press fires only once the turret faces the seat the cards go to (the
ding stays immediate); the page reads where the turret is and where it is going.

The daemon runs on gpiozero's mock pins whose changes are logged in one order across pins, and
on a launcher clock the test holds shut: the turret is caught mid-move, a press comes then,
and what the pins did is read back once the clock runs again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.config import Config, LauncherConfig, parse_config
from companion.core.events import Press
from companion.daemon import Daemon, DaemonOptions
from companion.devices.launcher import LauncherHardware
from companion.devices.servo import SERVO_FRAME_S
from companion.devices.turret import turret_range
from tests.doubles import ScaledClock
from tests.helpers import wait_for

SPEED = 25  # the launcher's moves run 25 times faster than on the box


class LaneClock(ScaledClock):
    """The launcher's clock, whose waits on the motion lane stop from the ``hold_at``-th on
    until :attr:`running` is set: at first the lane stops at its first step's wait (the turret
    has sent its first angle). The buzzer's waits run free: its sounds are not the lane's."""

    def __init__(self, speed: float) -> None:
        super().__init__(speed)
        self.running = threading.Event()
        self.waiting = threading.Event()  # set once the lane is held
        self.hold_at = 1
        self.lane_waits = 0

    def hold_after(self, steps: int) -> None:
        """Hold the lane (idle now) ``steps`` waits into its next movement."""
        self.waiting.clear()
        self.hold_at = self.lane_waits + steps
        self.running.clear()

    def wait(self, waiter: Callable[[float], bool], seconds: float) -> bool:
        if threading.current_thread().name == "motion-lane":
            self.lane_waits += 1
            if self.lane_waits >= self.hold_at:
                self.waiting.set()
                self.running.wait()
        return super().wait(waiter, seconds)


class PinLog:
    """Every level change of every mock pin, in the order they happened: (pin name, level)."""

    def __init__(self) -> None:
        self.changes: list[tuple[str, float]] = []
        self.lock = threading.Lock()
        log = self

        class LoggedPin(MockPWMPin):
            @property
            def state(self) -> Any:
                return MockPWMPin.state.fget(self)  # type: ignore[attr-defined]

            @state.setter
            def state(self, value: Any) -> None:
                before = self.state
                MockPWMPin.state.fset(self, value)  # type: ignore[attr-defined]
                if self.state != before:
                    with log.lock:
                        log.changes.append((self.info.name, float(self.state)))

        self.factory = MockFactory(pin_class=LoggedPin)

    def of(self, pin: int) -> list[tuple[int, float]]:
        """(index in the log, level) of each change of GPIO ``pin``."""
        with self.lock:
            return [(i, v) for i, (name, v) in enumerate(self.changes) if name == f"GPIO{pin}"]


def servo_duty(hardware: LauncherHardware, bearing: float) -> float:
    """The mock pin's level (the pulse's share of a 20 ms frame) for a turret bearing."""
    return turret_range(hardware.turret.config).pulse_for(bearing) / SERVO_FRAME_S


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Callable[[], tuple[Daemon, PinLog, LaneClock]]]:
    """Start a daemon on logged mock pins and a held launcher clock, in the same state folder
    each time (a second one is the box restarted); four players, two cards a press."""
    config = replace(
        parse_config({"hardware": {"pins": {"card_sensor": -1}}}),
        launcher=LauncherConfig(profile="fixed", fixed_cards=2),
    )
    assert Config().table.players[:4] == config.table.players[:4]
    started: list[tuple[Daemon, PinLog, LaneClock]] = []

    def make() -> tuple[Daemon, PinLog, LaneClock]:
        log = PinLog()
        clock = LaneClock(SPEED)
        options = DaemonOptions(
            state_dir=tmp_path,
            simulate=True,
            web=False,
            voice=False,
            motion_clock=clock,
            check_thread=True,
            pin_factory=log.factory,
            seed=5,
        )
        daemon = Daemon(config, options).start()
        started.append((daemon, log, clock))
        return daemon, log, clock

    yield make
    for daemon, log, clock in started:
        clock.running.set()  # a test that failed while the lane was held
        daemon.stop()
        log.factory.close()


def press_mid_turn(daemon: Daemon, log: PinLog, clock: LaneClock) -> None:
    """The launcher is held at its first step (homing); HIT is pressed and handled: the ding
    sounds at once, nothing is fired; then the clock runs and the launcher does its work."""
    assert clock.waiting.wait(10), "the launcher never started homing"
    hardware = daemon.hardware
    assert hardware is not None
    pins = hardware.config.pins
    hit = hardware.hit_button.pin
    sounds = len(log.of(pins.buzzer))
    hit.drive_low()
    hit.drive_high()
    assert hardware.hit_button.presses == 1
    daemon.hub.call(lambda: None).result(timeout=10)  # the press was handled
    assert len(log.of(pins.buzzer)) > sounds, "the ding waits for nothing"
    moved = [level for _, level in log.of(pins.ejector) + log.of(pins.exit_motor) if level > 0]
    assert not moved, "fired before turning"
    clock.running.set()
    assert hardware.wait_idle(timeout=30, sound=False)


def first_card_bearing(daemon: Daemon, log: PinLog) -> float:
    """The turret's level when the ejector first moved (the exit pinch or the feed), as a
    bearing among the seats'."""
    hardware = daemon.hardware
    assert hardware is not None
    pins = hardware.config.pins
    fired = min(i for i, level in log.of(pins.ejector) + log.of(pins.exit_motor) if level > 0)
    sent = [level for i, level in log.of(pins.turret) if i < fired and level > 0]
    assert sent, "the turret never moved before the first card"
    angles = {servo_duty(hardware, a): a for a in hardware.turret.seat_angles}
    nearest = min(angles, key=lambda duty: abs(duty - sent[-1]))
    assert sent[-1] == pytest.approx(nearest, abs=1e-6), "fired while the turret was turning"
    return angles[nearest]


def test_the_first_press_fires_at_the_presser_not_where_the_turret_homed(start: Any) -> None:
    daemon, log, clock = start()
    hardware = daemon.hardware
    table = daemon.hub.state()["table"]
    # Four players: Bruno (seat 1, 90°) is the first to play; home is 180°, Chloé's seat.
    assert table["active"] == "Bruno" and table["facing_seat"] == 1
    assert hardware.turret.seat_angles == [0.0, 90.0, 180.0, 270.0]
    assert hardware.turret.config.home_angle == 180.0
    press_mid_turn(daemon, log, clock)
    assert first_card_bearing(daemon, log) == 90.0  # at Bruno, who pressed
    assert hardware.ejector.cards_fired == 2
    assert daemon.hub.state()["table"]["players"][1]["hand"] == 9  # and the table gave them him
    # Then on to Chloé, whose turn it is; the page is told once it is there, at rest.
    wait_for(lambda: daemon.hub.state()["device"]["seat"] == 2, what="the page told")
    device = daemon.hub.state()["device"]
    assert (device["seat"], device["target_seat"], device["turning"]) == (2, 2, False)
    assert device["turret_angle"] == device["turret_target"] == 180.0


def test_after_a_restart_the_turret_turns_to_the_player_the_memory_names(start: Any) -> None:
    first, _, clock = start()
    clock.running.set()
    for _ in range(2):  # Bruno, then Chloé press: David (seat 3, 270°) plays next
        first.post(Press()).result(timeout=10)
    assert first.hardware.wait_idle(timeout=30, sound=False)
    assert first.hardware.turret.seat == 3
    assert first.hub.state()["table"]["active"] == "David"
    first.stop()
    daemon, log, clock = start()  # the box restarted: the table put back from its memory
    assert daemon.hub.state()["table"]["active"] == "David"
    press_mid_turn(daemon, log, clock)
    assert first_card_bearing(daemon, log) == 270.0  # at David, not at 180° where it homed
    assert daemon.hub.state()["table"]["players"][3]["hand"] == 9


def test_at_start_the_turret_faces_the_active_player_before_any_press(start: Any) -> None:
    daemon, log, clock = start()
    hardware = daemon.hardware
    assert clock.waiting.wait(10)
    # Held at homing: the turn to Bruno waits behind it.
    assert hardware.waiting() == [("turn", 1)]
    device = daemon.hub.state()["device"]
    assert (device["turret_angle"], device["turret_target"], device["seat"]) == (180.0, 180.0, None)
    clock.running.set()
    assert hardware.wait_idle(timeout=30, sound=False)
    wait_for(lambda: daemon.hub.state()["device"]["seat"] == 1, what="the page told")
    assert daemon.hub.state()["device"]["turret_angle"] == 90.0
    levels = [level for _, level in log.of(hardware.config.pins.turret) if level > 0]
    assert levels[0] == pytest.approx(servo_duty(hardware, 180.0))  # home first
    assert levels[-1] == pytest.approx(servo_duty(hardware, 90.0))  # then to Bruno
    assert hardware.ejector.cards_fired == 0


def test_the_page_follows_the_turret_while_it_turns(start: Any) -> None:
    daemon, _, clock = start()
    hardware = daemon.hardware
    clock.running.set()
    wait_for(lambda: daemon.hub.state()["device"]["seat"] == 1, what="facing Bruno")
    clock.hold_after(10)  # ten frames into the next turn: 24° on at 2.4° a frame
    daemon.hub.dispatch("device.face", {"seat": 3})  # from Bruno (90°) to David (270°)
    assert clock.waiting.wait(10)

    def held_there() -> bool:
        angle = daemon.hub.state()["device"]["turret_angle"]
        return bool(angle == pytest.approx(90.0 + 24.0))

    # Told while it turns (not only once it stops): where it is, and where it is going.
    wait_for(held_there, what="the page told mid-turn")
    device = daemon.hub.state()["device"]
    assert device["turning"]
    assert (device["turret_target"], device["target_seat"], device["seat"]) == (270.0, 3, None)
    clock.running.set()
    assert hardware.wait_idle(timeout=30, sound=False)
    wait_for(lambda: daemon.hub.state()["device"]["seat"] == 3, what="the page told")
    assert daemon.hub.state()["device"]["turret_angle"] == 270.0
