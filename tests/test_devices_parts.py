"""Each device part on gpiozero's mock pins: buttons, turret, ejector, buzzer, card sensor.

Timings are checked against pin histories like gpiozero's ``assert_states_and_times``; the
moving and sounding parts run on a virtual clock, so the histories are exact and nothing waits.
"""

from __future__ import annotations

import itertools
import math
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.core.cues import cue_steps
from companion.devices import (
    Buzzer,
    CardSensor,
    CardSensorConfig,
    Debouncer,
    EjectorConfig,
    TableButton,
    Turret,
    TurretConfig,
    equivalent_angle,
    slew_path,
)
from companion.devices.config import SAFE_PULSE_US
from tests.doubles import ManualClock, VirtualClock
from tests.helpers import assert_states_and_times, wait_for

FRAME = 0.020
EXACT = 1e-6  # virtual time: pin histories are exact


def duty(pulse_us: float) -> float:
    return pulse_us / 1e6 / FRAME


def pulse_at(angle: float) -> float:
    """The default (uncalibrated) pulse for an angle on a 0..180° servo, in µs."""
    low, high = SAFE_PULSE_US
    return low + (high - low) * angle / 180


# -- debounce ---------------------------------------------------------------------------------


def test_debouncer_accepts_only_edges_after_a_steady_release() -> None:
    debouncer = Debouncer(0.03, released_since=0.0)
    assert debouncer.falling(1.000)  # clean press
    debouncer.rising(1.001)  # contact bounce on press
    assert not debouncer.falling(1.002)
    debouncer.rising(1.200)  # release ...
    assert not debouncer.falling(1.205)  # ... with bounce
    debouncer.rising(1.206)
    assert debouncer.falling(1.300)  # next real press: released 94 ms


def test_debouncer_starting_low_needs_a_release_first() -> None:
    debouncer = Debouncer(0.03, released_since=None)
    assert not debouncer.falling(1.0)
    debouncer.rising(1.1)
    assert debouncer.falling(1.2)
    with pytest.raises(ValueError):
        Debouncer(0.0, released_since=None)


def hit_button(factory: MockFactory, clock: ManualClock) -> tuple[TableButton, list[float], Any]:
    """A HIT button (30 ms debounce) on GPIO17, the press times it reports, and its pin."""
    button = TableButton("hit", 17, factory=factory, debounce_s=0.03, clock=clock)
    presses: list[float] = []
    button.when_pressed = presses.append
    return button, presses, factory.pin(17)


def test_bounce_within_the_window_gives_one_press(mock_factory: MockFactory) -> None:
    clock = ManualClock()
    button, presses, pin = hit_button(mock_factory, clock)
    for offset in (0.0, 0.002, 0.004, 0.007):  # a press with three bounces, 7 ms in all
        clock.now = 100.0 + offset
        pin.drive_low()
        clock.now += 0.001
        pin.drive_high()
    clock.now = 100.008
    pin.drive_low()
    assert presses == [100.0]
    clock.now = 100.2
    pin.drive_high()
    clock.now = 100.2 + 0.029  # released 29 ms: still inside the window
    pin.drive_low()
    pin.drive_high()
    clock.now = 100.4
    pin.drive_low()
    assert presses == [100.0, 100.4]
    assert button.presses == 2 and button.last_press_at == 100.4


def test_bounce_in_real_time_gives_one_press(mock_factory: MockFactory) -> None:
    button = TableButton("hit", 17, factory=mock_factory, debounce_s=0.2)
    presses: list[float] = []
    button.when_pressed = presses.append
    pin = mock_factory.pin(17)
    before = time.monotonic()
    for _ in range(5):
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()
    assert len(presses) == 1
    assert before <= presses[0] <= time.monotonic()


def test_stuck_low_button_fires_once_until_released(mock_factory: MockFactory) -> None:
    clock = ManualClock()
    _, presses, pin = hit_button(mock_factory, clock)
    pin.drive_low()
    for step in range(1, 200):  # stuck for 20 s, with 1 ms glitches high every 100 ms
        clock.now = 100.0 + step * 0.1
        pin.drive_high()
        clock.now += 0.001
        pin.drive_low()
    assert len(presses) == 1
    clock.now += 1
    pin.drive_high()  # finally released, and left alone for the window
    clock.now += 0.05
    pin.drive_low()
    assert len(presses) == 2


def test_a_failing_handler_does_not_break_the_button(
    mock_factory: MockFactory, caplog: pytest.LogCaptureFixture
) -> None:
    clock = ManualClock()
    button = TableButton("next", 27, factory=mock_factory, debounce_s=0.01, clock=clock)
    calls: list[float] = []

    def handler(at: float) -> None:
        calls.append(at)
        raise RuntimeError("boom")

    button.when_pressed = handler
    pin = mock_factory.pin(27)
    pin.drive_low()
    clock.now += 0.1
    pin.drive_high()
    clock.now += 0.1
    pin.drive_low()
    assert len(calls) == 2
    assert "next button handler failed" in caplog.text


# -- turret -----------------------------------------------------------------------------------


def test_slew_path_is_uniform_and_ends_on_target() -> None:
    path = slew_path(0.0, 90.0, 450.0)  # 9° per 20 ms frame
    assert len(path) == 10
    assert path[-1] == 90.0
    assert all(math.isclose(b - a, 9.0) for a, b in zip([0.0, *path], path, strict=False))
    assert slew_path(10.0, 10.0, 100.0) == [10.0]


def test_shortest_equivalent_angle_stays_inside_the_range() -> None:
    # 0..360 servo range: from 350°, a seat at bearing 0° is reached at 360°, not 0°.
    assert equivalent_angle(0.0, 350.0, 0.0, 360.0) == 360.0
    assert equivalent_angle(0.0, 10.0, 0.0, 360.0) == 0.0
    # -180..180: bearing 190° is -170°, reached the long way round (never past the stop).
    assert equivalent_angle(190.0, 170.0, -180.0, 180.0) == -170.0
    assert equivalent_angle(-80.0, 260.0, -90.0, 270.0) == -80.0
    assert equivalent_angle(200.0, None, 0.0, 180.0) is None


def turret_config(**overrides: Any) -> TurretConfig:
    values = {"min_angle": 0.0, "max_angle": 180.0, "min_pulse_us": 500, "max_pulse_us": 2500}
    motion = {"slew_deg_s": 450.0, "seat_angles": [0.0, 90.0, 180.0], "settle_s": 0.15}
    return TurretConfig(**{**values, **motion, "home_angle": 0.0, **overrides})


def test_turret_slews_lands_on_the_seat_pulse_and_detaches(
    mock_factory: MockFactory, virtual_clock: VirtualClock
) -> None:
    turret = Turret(13, turret_config(), factory=mock_factory, seats=3, clock=virtual_clock)
    pin = mock_factory.pin(13)
    assert pin.state == 0 and not turret.attached  # starts detached: no jump at power-up
    turret.home()
    assert turret.angle == 0.0 and not turret.attached
    pin.clear_states()
    turret.face(1)
    # 0° → 90° at 9° per frame: ten pulses 20 ms apart, held 150 ms, then no pulses at all.
    expected = [(0.0, 0.0)]
    expected += [(0.0 if k == 1 else FRAME, duty(500 + 2000 * 9 * k / 180)) for k in range(1, 11)]
    expected.append((0.15, 0.0))
    assert_states_and_times(pin, expected, tol=EXACT)
    landed = pin.states[-2].state * FRAME
    assert math.isclose(landed, 0.0015, abs_tol=1e-9)  # 90° on 500..2500 µs
    assert pin.frequency is None and not turret.attached
    assert turret.seat == 1 and turret.angle == 90.0
    steps = [s.state for s in pin.states[1:-1]]
    assert all(b > a for a, b in itertools.pairwise(steps))  # one way, no overshoot
    turret.close()


def test_turret_takes_the_long_way_inside_its_range(
    mock_factory: MockFactory, virtual_clock: VirtualClock
) -> None:
    config = turret_config(
        min_angle=-180.0, max_angle=180.0, seat_angles=[170.0, 190.0], home_angle=170.0
    )
    turret = Turret(13, config, factory=mock_factory, seats=2, clock=virtual_clock)
    turret.home()
    mock_factory.pin(13).clear_states()
    assert turret.face(1) == -170.0
    angles = [
        (s.state * FRAME - 0.0005) / 0.002 * 360 - 180 for s in mock_factory.pin(13).states[1:-1]
    ]
    assert all(-180.0 - 1e-6 <= a <= 180.0 + 1e-6 for a in angles)
    assert all(b < a for a, b in itertools.pairwise(angles))  # straight down through 0
    assert math.isclose(angles[-1], -170.0, abs_tol=1e-6)
    assert len(angles) == math.ceil(340 / 9)
    turret.close()


def test_turret_move_can_be_stopped_and_still_detaches(
    mock_factory: MockFactory, virtual_clock: VirtualClock
) -> None:
    stop = threading.Event()

    class StopAt(VirtualClock):
        """Sets ``stop`` at ``stop_at``, as another thread would."""

        stop_at = math.inf

        def wait(self, waiter: Callable[[float], bool], seconds: float) -> bool:
            if self.monotonic() >= self.stop_at:
                stop.set()
            return super().wait(waiter, seconds)

    clock = StopAt()
    turret = Turret(13, turret_config(slew_deg_s=10.0), factory=mock_factory, seats=3, clock=clock)
    turret.home()
    moved_at = clock.monotonic()
    clock.stop_at = moved_at + 0.1
    turret.face(2, stop)  # would take 18 s: 0.2° per frame
    # Stopped about 0.1 s in (1° at 10°/s), within a frame or two: not at the seat's 180°.
    assert turret.angle is not None and 0.8 <= turret.angle <= 1.6
    assert clock.monotonic() - moved_at < 0.2
    assert not turret.attached and mock_factory.pin(13).state == 0
    # Cut short, it faces no seat: a firing for seat 2 would turn there first.
    assert turret.seat is None and turret.target == 180.0 and turret.target_seat == 2
    turret.close()


def test_while_it_turns_the_turret_says_where_it_is_and_where_it_is_going(
    mock_factory: MockFactory,
) -> None:
    seen: list[tuple[float | None, float | None, int | None, int | None, bool]] = []

    class Watching(VirtualClock):
        """Notes the turret's state at each step of the move, as the page would read it."""

        def wait(self, waiter: Callable[[float], bool], seconds: float) -> bool:
            seen.append(
                (turret.angle, turret.target, turret.seat, turret.target_seat, turret.moving)
            )
            return super().wait(waiter, seconds)

    turret = Turret(13, turret_config(), factory=mock_factory, seats=3, clock=Watching())
    turret.home()
    assert (turret.angle, turret.target, turret.seat, turret.target_seat) == (0.0, 0.0, None, None)
    seen.clear()
    turret.face(1)  # 0° → 90° at 9° a frame
    assert seen[0] == (9.0, 90.0, None, 1, True)  # one frame in: at 9°, going to 90° (seat 1)
    assert [angle for angle, *_ in seen] == pytest.approx([9.0 * k for k in range(1, 11)])
    assert all(state[1:] == (90.0, None, 1, True) for state in seen)
    assert (turret.angle, turret.seat, turret.moving) == (90.0, 1, False)  # there, at rest
    seen.clear()
    assert turret.face(1) == 90.0 and seen == []  # facing it already: no move, no wait
    turret.close()


def test_the_turret_faces_seats_all_round_the_short_way_through_its_gear(
    mock_factory: MockFactory, virtual_clock: VirtualClock
) -> None:
    config = TurretConfig(slew_deg_s=1800.0, settle_s=0.05)  # 0..360° through the 2:1 gear
    turret = Turret(13, config, factory=mock_factory, seats=4, clock=virtual_clock)
    assert turret.seat_angles == [0.0, 90.0, 180.0, 270.0]  # four seats all round the box
    turret.home()
    pin = mock_factory.pin(13)

    def servo_degrees() -> float:
        """The servo's own angle from the last pulse sent (600..2400 µs over 0..180°)."""
        pulse = pin.states[-2].state * FRAME * 1e6
        return (pulse - 600) / 1800 * 180

    assert turret.angle == 180.0 and math.isclose(servo_degrees(), 90.0)  # the middle
    assert turret.face(3) == 270.0 and math.isclose(servo_degrees(), 135.0)  # half the bearing
    # Seat 0 faces 0° and 360° alike: from 270° the turret turns on to 360°, 90° away, not
    # back 270° to 0°; the servo reaches its end, 180°.
    pin.clear_states()
    assert turret.face(0) == 360.0 and math.isclose(servo_degrees(), 180.0)
    angles = [(s.state * FRAME * 1e6 - 600) / 1800 * 360 for s in pin.states[1:-1]]
    assert all(270.0 - 1e-6 <= a <= 360.0 + 1e-6 for a in angles)
    assert len(angles) == math.ceil(90 / 36)  # 36° a frame at 1800°/s: three frames
    # From there seat 1 (90°) is 270° back or 90° on: on would twist the cables past a whole
    # turn, so the turret goes back, inside its travel.
    assert turret.face(1) == 90.0 and math.isclose(servo_degrees(), 45.0)
    assert equivalent_angle(10.0, 350.0, 0.0, 360.0) == 10.0  # the long way: the cables say so
    assert equivalent_angle(-90.0, 180.0, 0.0, 360.0) == 270.0
    turret.close()


# -- ejector ----------------------------------------------------------------------------------


def test_timed_feed_runs_for_the_cards_then_stops(ejector_on_12: Any) -> None:
    # No beam, no exit pinch: the feed runs for the way to the pinch plus one card length per
    # card at the expected speed (20 + 3 x 80 mm at 100 mm/s), then stops: nothing turns back
    # (the feed wheels' one-way bearings would only freewheel).
    config = EjectorConfig(feed_mm_s=100.0, feed_path_mm=20.0, card_length_mm=80.0)
    ejector, pin = ejector_on_12(config)
    result = ejector.fire(3)
    assert (result.counted, result.fault) == (3, None) and not ejector.counted
    forward = duty(SAFE_PULSE_US[1])
    expected = [(0.0, 0.0), (0.0, forward), (2.6, 0.0)]
    assert_states_and_times(pin, expected, tol=EXACT)
    assert ejector.fire(0).counted == 0 and ejector.cards_fired == 3
    ejector.close()


# -- buzzer -----------------------------------------------------------------------------------


class ToneLogPin(MockPWMPin):
    """A mock PWM pin that also records each frequency it is given."""

    def __init__(self, factory: Any, info: Any) -> None:
        super().__init__(factory, info)
        self.tones: list[float | None] = []

    def _set_frequency(self, value: float | None) -> None:
        super()._set_frequency(value)
        self.tones.append(value)


def test_buzzer_plays_the_ding_at_pigpio_safe_pitches(
    mock_factory: MockFactory, virtual_clock: VirtualClock
) -> None:
    pin = mock_factory.pin(18, pin_class=ToneLogPin)
    buzzer = Buzzer(18, factory=mock_factory, clock=virtual_clock)
    pin.clear_states()
    pin.tones.clear()
    buzzer.play(cue_steps("ding"))
    assert buzzer.wait_silent(2)
    assert pin.tones == [1600.0, 2000.0, None]
    assert_states_and_times(pin, [(0.0, 0.0), (0.0, 0.5), (0.16, 0.0)], tol=EXACT)
    pin.assert_states_and_times([(0.0, 0.0), (0.0, 0.5), (0.16, 0.0)])  # gpiozero's own check
    buzzer.close()


class ThreadLogPin(ToneLogPin):
    """A tone-logging pin that also notes which thread set each frequency, and can be told to
    fail the next ``failures`` times it is given one."""

    def __init__(self, factory: Any, info: Any) -> None:
        super().__init__(factory, info)
        self.threads: list[str] = []
        self.failures = 0

    def _set_frequency(self, value: float | None) -> None:
        if self.failures:
            self.failures -= 1
            raise OSError("the pin did not answer")
        super()._set_frequency(value)
        self.threads.append(threading.current_thread().name)


def test_the_first_step_sounds_before_play_returns(mock_factory: MockFactory) -> None:
    # A press's ding must not wait for the buzzer's thread to be scheduled: the caller (the
    # hub's thread) sets the pin; the rest of the cue plays on the buzzer's thread.
    pin = mock_factory.pin(18, pin_class=ThreadLogPin)
    buzzer = Buzzer(18, factory=mock_factory)
    pin.tones.clear()
    pin.threads.clear()
    buzzer.play([(1600, 5.0), (2000, 0.05)])
    assert pin.tones == [1600.0] and pin.state == 0.5
    assert pin.threads == [threading.current_thread().name]
    buzzer.stop()
    assert pin.state == 0 and pin.tones[-1] is None
    assert buzzer.wait_silent(2)
    buzzer.close()


def test_a_pin_failing_on_the_callers_thread_is_tried_again_on_the_buzzers(
    mock_factory: MockFactory, caplog: pytest.LogCaptureFixture
) -> None:
    pin = mock_factory.pin(18, pin_class=ThreadLogPin)
    buzzer = Buzzer(18, factory=mock_factory)
    pin.tones.clear()
    pin.threads.clear()
    pin.failures = 1
    buzzer.play([(1600, 0.01)])  # never raises to the caller
    assert buzzer.wait_silent(2)
    assert pin.tones == [1600.0, None]
    assert pin.threads == ["buzzer", "buzzer"]
    assert "buzzer failed" in caplog.text
    buzzer.close()


def test_a_new_cue_replaces_the_one_playing(mock_factory: MockFactory) -> None:
    pin = mock_factory.pin(18, pin_class=ToneLogPin)
    buzzer = Buzzer(18, factory=mock_factory)
    buzzer.play(cue_steps("suspense", 0.0))  # about 0.75 s of slow ticks
    wait_for(lambda: pin.tones, what="the suspense to start")
    pin.tones.clear()
    started = time.monotonic()
    buzzer.play(cue_steps("ding"))
    assert buzzer.wait_silent(2)
    assert time.monotonic() - started < 0.5  # the suspense did not finish first
    assert pin.tones[-3:] == [1600.0, 2000.0, None]
    assert 1000.0 not in pin.tones
    buzzer.close()
    assert pin.state == 0


def test_active_buzzer_keeps_the_rhythm(
    mock_factory: MockFactory, virtual_clock: VirtualClock
) -> None:
    buzzer = Buzzer(18, factory=mock_factory, kind="active", clock=virtual_clock)
    pin = mock_factory.pin(18)
    pin.clear_states()
    buzzer.play(cue_steps("reload"))  # 80 ms on, 50 ms off, 80 ms on
    assert buzzer.wait_silent(2)
    expected = [(0.0, 0), (0.0, 1), (0.08, 0), (0.05, 1), (0.08, 0)]
    assert_states_and_times(pin, expected, tol=EXACT)
    buzzer.close()
    with pytest.raises(ValueError):
        Buzzer(19, factory=mock_factory, kind="siren")


# -- card sensor ------------------------------------------------------------------------------


def test_the_beam_records_each_card_and_knows_a_double(mock_factory: MockFactory) -> None:
    clock = ManualClock()
    config = CardSensorConfig(card_pass_s=0.05, double_factor=1.5, blocked_s=0.4)
    sensor = CardSensor(24, config, factory=mock_factory, clock=clock)
    pin = mock_factory.pin(24)

    def card(dark: float, gap: float = 0.2) -> None:
        pin.drive_low()  # the beam is broken by a card
        clock.advance(dark)
        pin.drive_high()
        clock.advance(gap)

    card(0.05)
    card(0.07)  # a slower card: still one (below 1.5 cards)
    card(0.09)  # two overlapping cards: 1.8 cards long
    assert [p.cards for p in sensor.passages_since(0)] == [1, 1, 2]
    assert sensor.total == 4 and sensor.passages == 3
    # An edge flickering within 4 ms is the same card, not a new one.
    pin.drive_low()
    clock.advance(0.02)
    pin.drive_high()
    clock.advance(0.002)
    pin.drive_low()
    clock.advance(0.03)
    pin.drive_high()
    assert sensor.passages == 4 and sensor.total == 5
    assert math.isclose(sensor.passages_since(3)[0].dark_s, 0.052, abs_tol=1e-9)
    clock.advance(0.2)
    pin.drive_low()
    clock.advance(0.3)
    assert sensor.blocked and math.isclose(sensor.dark_for(clock()), 0.3)
    sensor.close()
