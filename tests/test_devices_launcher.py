"""LauncherHardware on gpiozero's mock pins: press → ding and a timed feed, turret lanes, ordering.

The counted firing (beam, faults) has its own tests in test_devices_feed.py.

Button edges are stamped on a settable :class:`ManualClock` and the moving parts run on a
:class:`VirtualClock` (each lane on its own exact timeline), so nothing waits on real time.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from companion.core.commands import Cue, Eject, Say, Turn
from companion.devices import (
    ButtonPressed,
    InputNotice,
    LauncherHardware,
)
from companion.devices.clock import Clock
from companion.devices.config import SAFE_PULSE_US
from tests.doubles import HeldClock, ManualClock, VirtualClock
from tests.helpers import assert_states_and_times, hardware_section

HIT, NEXT, REVERSE, SKIP, EJECTOR, EXIT, TURRET, BUZZER = 17, 27, 22, 23, 12, 4, 13, 16
FRAME = 0.020
EXACT = 1e-6  # virtual time: pin histories are exact


def make_config(**sections: dict[str, Any]) -> Any:
    raw: dict[str, Any] = {
        "backend": "mock",
        "debounce_ms": 10,
        "pins": {
            "hit": HIT,
            "ejector": EJECTOR,
            "exit_motor": EXIT,
            "turret": TURRET,
            "buzzer": BUZZER,
            "card_sensor": -1,  # timed firing: the beam's tests are in test_devices_feed.py
        },
        # 100 mm/s, no way to the pinch: 0.87 s per card
        "ejector": {
            "feed_mm_s": 100.0,
            "feed_path_mm": 0.0,
        },
        "turret": {
            "seat_angles": [30.0, 90.0, 150.0],
            "home_angle": 30.0,
            "slew_deg_s": 600.0,
            "settle_s": 0.1,
        },
    }
    for name, values in sections.items():
        if isinstance(raw.get(name), dict):
            raw[name] = {**raw[name], **values}
        else:
            raw[name] = values
    return hardware_section(raw)


@pytest.fixture
def factory(mock_factory: MockFactory) -> MockFactory:
    return mock_factory


@pytest.fixture
def input_clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def build(
    factory: MockFactory,
    input_clock: ManualClock,
    virtual_clock: VirtualClock,
    closing: Callable[[LauncherHardware], LauncherHardware],
) -> Callable[..., LauncherHardware]:
    def build(
        config: Any = None,
        seats: int = 3,
        clock: Callable[[], float] = input_clock,
        motion_clock: Clock = virtual_clock,
    ) -> LauncherHardware:
        hardware = closing(
            LauncherHardware(
                config or make_config(),
                factory,
                seats=seats,
                clock=clock,
                motion_clock=motion_clock,
            )
        )
        assert hardware.wait_idle(5)  # homing done
        for pin in (EJECTOR, EXIT, TURRET, BUZZER):
            factory.pin(pin).clear_states()
        return hardware

    return build


def change_times(pin: Any) -> list[float]:
    """Times of a pin's changes, relative to its last clear_states()."""
    total, times = 0.0, []
    for state in pin.states[1:]:
        total += state.timestamp
        times.append(total)
    return times


def duty(pulse_us: float) -> float:
    return pulse_us / 1e6 / FRAME


def pulse_at(bearing: float) -> float:
    """The default (uncalibrated) pulse for a launcher bearing: 0..360° through the 2:1 gear is
    the servo's 0..180°, in µs."""
    low, high = SAFE_PULSE_US
    return low + (high - low) * (bearing / 2) / 180


def press(factory: MockFactory, clock: ManualClock, pin: int = HIT) -> None:
    """A clean press: released for longer than the debounce, pressed, held, released."""
    clock.advance(0.02)
    factory.pin(pin).drive_low()
    clock.advance(0.02)
    factory.pin(pin).drive_high()


def test_a_press_gives_a_ding_and_a_feed_run_for_the_cards(
    factory: MockFactory, input_clock: ManualClock, build: Callable[..., LauncherHardware]
) -> None:
    hardware = build()
    notices: list[InputNotice] = []

    def engine(notice: InputNotice) -> None:  # stands in for the table engine
        notices.append(notice)
        hardware.execute([Cue("ding"), Eject(3)])

    hardware.on_input(engine)
    press(factory, input_clock)
    assert hardware.wait_idle(5)
    assert len(notices) == 1 and isinstance(notices[0], ButtonPressed)
    assert notices[0].button == "hit"
    # The ding starts with the press: 1600 Hz then 2000 Hz (duty 0.5), silent after 160 ms.
    assert_states_and_times(factory.pin(BUZZER), [(0.0, 0.0), (0.0, 0.5), (0.16, 0.0)], EXACT)
    # The exit pinch spins up 0.1 s, the feed runs full forward (2400 µs) for three cards at
    # 0.87 s each and stops, and the pinch runs on 0.2 s: all off at the end.
    forward = duty(SAFE_PULSE_US[1])
    feed = [(0.0, 0.0), (None, forward), (2.61, 0.0)]
    assert_states_and_times(factory.pin(EJECTOR), feed, EXACT)
    assert_states_and_times(factory.pin(EXIT), [(0.0, 0.0), (None, 1.0), (2.91, 0.0)], EXACT)
    status = hardware.status()
    assert status["cards_fired"] == 3 and not status["busy"] and not status["jam"]
    assert status["counted"] is False  # no beam: the cards asked for are the cards fired


def test_the_turret_lands_on_the_calibrated_pulse_and_detaches(
    factory: MockFactory, build: Callable[..., LauncherHardware]
) -> None:
    hardware = build()
    assert hardware.status()["turret_angle"] == 30.0
    hardware.execute(Turn(seat=2, player="Chloé"))
    assert hardware.wait_idle(5)
    pin = factory.pin(TURRET)
    states = [s.state for s in pin.states]
    landed = states[-2] * FRAME  # the last pulse before detaching
    assert math.isclose(landed, pulse_at(150) / 1e6, abs_tol=1e-9)
    assert states[-1] == 0.0 and pin.frequency is None  # detached: no jitter, no hum
    # 30° → 150° at 600°/s is 12° per frame: ten frames, then the settle time.
    assert len(states) == 1 + 10 + 1
    times = change_times(pin)
    assert math.isclose(times[-1] - times[0], 9 * FRAME + 0.1, abs_tol=EXACT)
    status = hardware.status()
    assert status["seat"] == 2 and status["turret_angle"] == 150.0 and not status["turning"]


def test_an_ejection_turns_to_its_seat_before_the_first_card_leaves(
    factory: MockFactory, build: Callable[..., LauncherHardware]
) -> None:
    hardware = build()  # homed at 30°: seat 0
    factory.pin(TURRET).clear_states()
    factory.pin(EXIT).clear_states()
    # The table's commands for a press by seat 2 (the turret never told to face it), then the
    # turn to the next player.
    hardware.execute([Cue("ding"), Eject(2, seat=2), Turn(seat=0, player="Alice")])
    assert hardware.wait_idle(5)
    pulses = [s.state * FRAME * 1e6 for s in factory.pin(TURRET).states[1:]]
    turret_times = change_times(factory.pin(TURRET))
    # 30° → 150° in ten frames, held, detached; only then the pinch spins up (same lane clock).
    assert pulses[9] == pytest.approx(pulse_at(150)) and pulses[10] == 0.0
    first_card = change_times(factory.pin(EXIT))[0]
    assert first_card == pytest.approx(turret_times[10])  # at once after the settle, not before
    assert pulses[-2] == pytest.approx(pulse_at(30))  # then back to seat 0, whose turn it is
    assert hardware.turret.seat == 0 and hardware.ejector.cards_fired == 2


def test_ejections_for_two_seats_are_not_merged(
    factory: MockFactory, build: Callable[..., LauncherHardware]
) -> None:
    clock = HeldClock()
    hardware = build(motion_clock=clock)
    clock.hold()
    hardware.execute(Eject(1, seat=0))  # under way
    assert clock.holding.wait(5)
    hardware.execute([Eject(2, seat=1), Eject(1, seat=1), Eject(3, seat=2)])
    assert hardware.waiting() == [("eject", 3), ("eject", 3)]  # Bruno's 2 + 1, Chloé's 3
    clock.release()
    assert hardware.wait_idle(5)
    assert hardware.ejector.cards_fired == 7 and hardware.turret.seat == 2


def test_a_turn_waits_for_the_ejection_so_cards_go_to_the_right_player(
    factory: MockFactory, build: Callable[..., LauncherHardware]
) -> None:
    clock = HeldClock()
    hardware = build(motion_clock=clock)
    clock.hold()
    hardware.execute([Eject(2), Turn(seat=1, player="Bruno"), Cue("ding")])
    assert clock.holding.wait(5)  # the lane is spinning the exit pinch up
    assert factory.pin(TURRET).states[1:] == []  # still ejecting: the turret has not moved
    assert hardware.buzzer.wait_silent(5)
    assert [s.state for s in factory.pin(BUZZER).states[1:]] == [0.5, 0.0]  # the ding did not wait
    clock.release()
    assert hardware.wait_idle(5)
    ejector_done = change_times(factory.pin(EJECTOR))[-1]
    turret_start = change_times(factory.pin(TURRET))[0]
    assert turret_start >= ejector_done  # on the lane's own timeline


def test_100_fast_presses_give_100_notices_in_order_and_100_cards(
    factory: MockFactory, input_clock: ManualClock, build: Callable[..., LauncherHardware]
) -> None:
    quick = {"feed_mm_s": 2000.0, "exit_spin_up_s": 0.0}
    hardware = build(make_config(ejector=quick))
    notices: list[InputNotice] = []

    def engine(notice: InputNotice) -> None:
        notices.append(notice)
        hardware.execute([Cue("ding"), Eject(1)])

    hardware.on_input(engine)
    for _ in range(100):  # each press held 12 ms, released 12 ms: debounce is 10 ms
        input_clock.advance(0.012)
        factory.pin(HIT).drive_low()
        input_clock.advance(0.012)
        factory.pin(HIT).drive_high()
    assert hardware.wait_idle(20)
    assert [n.seq for n in notices] == list(range(1, 101))
    times = [n.at for n in notices]
    assert times == sorted(times) and len(set(times)) == 100
    assert all(isinstance(n, ButtonPressed) and n.button == "hit" for n in notices)
    assert hardware.status()["cards_fired"] == 100  # queued during ejections, none lost or doubled


def test_optional_buttons_give_their_own_notices(
    factory: MockFactory, input_clock: ManualClock, build: Callable[..., LauncherHardware]
) -> None:
    pins = {"hit": HIT, "next": NEXT, "reverse": REVERSE, "skip": SKIP}
    hardware = build(make_config(pins=pins))
    notices: list[InputNotice] = []
    hardware.on_input(notices.append)
    for pin in (NEXT, REVERSE, SKIP, HIT):
        press(factory, input_clock, pin)
    assert [n.button for n in notices if isinstance(n, ButtonPressed)] == [
        "next",
        "reverse",
        "skip",
        "hit",
    ]
    assert hardware.status()["buttons"] == ["hit", "next", "reverse", "skip"]


def test_close_detaches_servos_silences_the_buzzer_and_drops_pending_moves(
    factory: MockFactory, build: Callable[..., LauncherHardware]
) -> None:
    clock = HeldClock()
    hardware = build(motion_clock=clock)
    clock.hold()
    hardware.execute([Eject(10), Turn(seat=2, player="Chloé"), Cue("suspense", 1.0)])
    assert clock.holding.wait(5)  # the exit pinch is spinning up
    hardware.close()  # interrupts the firing: the held lane returns at once
    for pin in (EJECTOR, EXIT, TURRET, BUZZER):
        assert factory.pin(pin).state == 0, pin
    assert factory.pin(TURRET).states[1:] == []  # the queued turn never ran
    assert [s.state for s in factory.pin(EXIT).states[1:]] == [1.0, 0.0]  # pinch on, then off
    hardware.close()  # twice is fine
    hardware.execute(Eject(1))  # after close: ignored, no error


def test_execute_never_blocks_and_ignores_other_commands(
    factory: MockFactory, build: Callable[..., LauncherHardware]
) -> None:
    clock = HeldClock()
    hardware = build(motion_clock=clock)
    clock.hold()  # the lane cannot move on: execute must still return
    hardware.execute([Eject(5), Turn(seat=1, player="B"), Say("table.turn"), Eject(0)])
    hardware.execute(Say("table.hello"))
    assert hardware.status()["busy"]
    clock.release()
    assert hardware.wait_idle(10)
    assert hardware.status()["cards_fired"] == 5


def test_unknown_seat_is_logged_and_the_lane_goes_on(
    factory: MockFactory, build: Callable[..., LauncherHardware], caplog: pytest.LogCaptureFixture
) -> None:
    hardware = build()
    hardware.execute([Turn(seat=7, player="Zoé"), Eject(1)])
    assert hardware.wait_idle(5)
    assert "seat 7 has no angle" in caplog.text
    assert hardware.status()["cards_fired"] == 1


def test_input_callbacks_from_two_threads_keep_sequence_order(
    factory: MockFactory, input_clock: ManualClock, build: Callable[..., LauncherHardware]
) -> None:
    hardware = build(make_config(pins={"hit": HIT, "next": NEXT}))
    notices: list[InputNotice] = []
    hardware.on_input(notices.append)

    def hammer(pin: int) -> None:
        for _ in range(20):
            press(factory, input_clock, pin)

    threads = [threading.Thread(target=hammer, args=(pin,)) for pin in (HIT, NEXT)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [n.seq for n in notices] == list(range(1, 41))
    assert sum(isinstance(n, ButtonPressed) and n.button == "next" for n in notices) == 20
