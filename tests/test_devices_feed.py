"""Counted firing on gpiozero's mock pins: the feed runs until the beam has seen the cards asked
for, or a time-out names the fault (jam, card stuck, empty magazine); a double is reported; the
table, the page and the voice hear what the beam counted.

A :class:`MockCardPath` moves cards across the mock beam while the feed turns, on the tests'
virtual clock: pin histories are exact and nothing waits on real time.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from companion.config import LauncherConfig
from companion.core.commands import Eject, Say
from companion.core.events import CardsSeen, Jam
from companion.core.table import TableEngine
from companion.devices import InputNotice, LauncherHardware, MockCardPath, SensorReport
from companion.devices.config import SAFE_PULSE_US, EjectorConfig
from companion.devices.ejector import fan_duty
from companion.devices.mock_cards import CardFault
from companion.i18n import Catalog
from tests.doubles import VirtualClock
from tests.test_devices_launcher import make_config

FEED, EXIT, BEAM = 12, 4, 24
FRAME = 0.020
EXACT = 1e-6


def duty(pulse_us: float) -> float:
    return pulse_us / 1e6 / FRAME


Fire = Callable[..., tuple[LauncherHardware, list[SensorReport]]]


@pytest.fixture
def fire(
    mock_factory: MockFactory,
    virtual_clock: VirtualClock,
    closing: Callable[[LauncherHardware], LauncherHardware],
) -> Fire:
    """Build the launcher with the beam and a simulated magazine, fire ``cards``, return the
    launcher and the beam's reports."""

    def run(
        cards: int,
        faults: dict[int, CardFault] | None = None,
        magazine: int = 112,
        speed: float = 1.0,
        slowing: float = 1.0,
    ) -> tuple[LauncherHardware, list[SensorReport]]:
        # The defaults: 150 mm/s, 35 mm from the stack to the pinch, 87 mm cards, 60 ms dark.
        ejector = {"feed_mm_s": 150.0, "feed_path_mm": 35.0}
        config = make_config(pins={"card_sensor": BEAM}, ejector=ejector)
        path = MockCardPath(
            mock_factory.pin(BEAM),
            config.ejector,
            config.card_sensor,
            cards=magazine,
            speed=speed,
            faults=faults,
            slowing=slowing,
        )
        hardware = closing(
            LauncherHardware(
                config, mock_factory, seats=3, motion_clock=virtual_clock, card_path=path
            )
        )
        assert hardware.wait_idle(5)
        reports: list[SensorReport] = []

        def keep(notice: InputNotice) -> None:
            if isinstance(notice, SensorReport):
                reports.append(notice)

        hardware.on_input(keep)
        for pin in (FEED, EXIT):
            mock_factory.pin(pin).clear_states()
        hardware.execute(Eject(cards))
        assert hardware.wait_idle(5)
        return hardware, reports

    return run


def feed_times(pin: Any) -> list[tuple[float, float]]:
    """(time since the feed started, duty) of each change of the feed pin (a mock pin's
    history holds the time since the change before)."""
    total, out = 0.0, []
    for index, state in enumerate(pin.states[1:]):
        total += state.timestamp if index else 0.0
        out.append((total, round(float(state.state), 5)))
    return out


def test_n_cards_asked_are_n_cards_counted_and_the_feed_stops_at_the_last(
    fire: Fire, mock_factory: MockFactory
) -> None:
    hardware, reports = fire(5)
    (report,) = reports
    assert (report.expected, report.counted, report.doubles, report.fault) == (5, 5, 0, None)
    assert report.events == (CardsSeen(5, 5, 0),)
    assert hardware.card_path is not None and hardware.card_path.fed == 5  # no sixth card
    # The feed ran until the fifth card reached the beam (35 mm to the pinch, then four card
    # lengths of 87 mm, at 150 mm/s) and left it (60 ms at full duty, thrown at the fan's last
    # step); then it stopped (no turning back: its wheels turn on one-way bearings).
    forward = round(duty(SAFE_PULSE_US[1]), 5)
    stop_at = (35 + 4 * 87) / 150 + 0.06 / (1 - EjectorConfig().exit_fan)
    times = feed_times(mock_factory.pin(FEED))
    assert [state for _, state in times] == [forward, 0.0]
    assert math.isclose(times[1][0], stop_at, abs_tol=EXACT)
    # The pinch's duty stepped down after each card counted, so the five land in a row.
    exit_duties = [round(float(s.state), 5) for s in mock_factory.pin(EXIT).states[1:]]
    steps = [round(fan_duty(1.0, EjectorConfig().exit_fan, k, 5), 5) for k in range(5)]
    assert [d for i, d in enumerate(exit_duties) if i == 0 or d != exit_duties[i - 1]] == [
        *steps,
        0.0,
    ]
    assert steps[0] == 1.0 and steps[-1] == pytest.approx(1.0 - EjectorConfig().exit_fan)
    status = hardware.status()
    assert status["cards_fired"] == 5 and status["counted"] and not status["jam"]
    assert mock_factory.pin(EXIT).state == 0  # the pinch stopped after its run-on


def test_a_jam_stops_the_feed_after_the_time_out_and_names_the_fault(
    fire: Fire, mock_factory: MockFactory
) -> None:
    hardware, reports = fire(3, faults={1: "jam"})
    (report,) = reports
    assert (report.counted, report.fault) == (1, "jam")
    assert report.events == (CardsSeen(1, 3, 0), Jam("jam"))
    # The first card came at 35/150 s; the second never did: the feed gave up twice the time a
    # card takes after the first card left the beam (60 ms dark at full duty, thrown at the
    # fan's middle step), not a moment sooner.
    times = feed_times(mock_factory.pin(FEED))
    first_dark = 0.06 / fan_duty(1.0, EjectorConfig().exit_fan, 1, 3)
    assert math.isclose(times[1][0], 35 / 150 + first_dark + 2 * 87 / 150, abs_tol=EXACT)
    assert times[1][1] == 0.0 and mock_factory.pin(FEED).state == 0
    assert mock_factory.pin(EXIT).state == 0
    status = hardware.status()
    assert status["jam"] and status["jam_reason"] == "jam" and status["cards_fired"] == 1
    hardware.clear_jam()  # the players cleared it and reloaded
    assert not hardware.status()["jam"]


def test_a_card_stuck_in_the_mouth_stops_the_feed(fire: Fire, mock_factory: MockFactory) -> None:
    hardware, reports = fire(3, faults={0: "stuck", 2: "jam"})
    (report,) = reports
    assert report.fault == "stuck" and report.events[-1] == Jam("stuck")
    # Stopped once the card had darkened the beam blocked_s (0.4 s): no other card came.
    times = feed_times(mock_factory.pin(FEED))
    assert math.isclose(times[1][0], 35 / 150 + 0.4, abs_tol=EXACT)
    path = hardware.card_path
    assert path is not None and path.fed == 1 and hardware.card_sensor is not None
    assert hardware.card_sensor.blocked
    hardware.clear_jam()  # the card is pulled out: the beam is clear, later faults stay
    assert not hardware.card_sensor.blocked and path.faults == {0: "stuck", 2: "jam"}


def test_a_double_is_counted_as_two_and_reported(fire: Fire) -> None:
    hardware, reports = fire(2, faults={0: "double"})
    (report,) = reports
    assert (report.counted, report.doubles, report.fault) == (2, 1, None)
    assert report.events == (CardsSeen(2, 2, 1),)
    assert hardware.card_path is not None and hardware.card_path.fed == 2  # one spell, two cards


def test_a_double_on_the_last_card_gives_one_card_more(fire: Fire) -> None:
    _, reports = fire(1, faults={0: "double"})
    assert reports[0].events == (CardsSeen(2, 1, 1),)  # the player gets what came out


def test_a_burst_slowed_by_the_fan_is_counted_card_by_card(fire: Fire) -> None:
    # A loaded pinch: each card is slowed as the duty squared, so five cards darken the beam
    # 72, 88, 110, 142 and 142 ms (the feed's simulation measured 55..141 ms); one fixed limit
    # of 1.5 x 60 ms took the third card for a double and stopped after four.
    hardware, reports = fire(5, slowing=2.0)
    (report,) = reports
    assert (report.counted, report.doubles, report.fault) == (5, 0, None)
    assert hardware.card_sensor is not None
    darks = [p.dark_s for p in hardware.card_sensor.passages_since(0)]
    assert darks[0] == pytest.approx(0.072, abs=0.001) and max(darks) > 0.14
    assert hardware.card_path is not None and hardware.card_path.fed == 5


def test_a_double_in_a_slowed_burst_is_still_two_cards(fire: Fire) -> None:
    hardware, reports = fire(5, faults={2: "double"}, slowing=2.0)
    (report,) = reports
    assert (report.counted, report.doubles, report.fault) == (5, 1, None)
    assert hardware.card_sensor is not None
    cards = [p.cards for p in hardware.card_sensor.passages_since(0)]
    assert cards == [1, 1, 2, 1]  # the double is the third spell; the card after it is one
    assert hardware.card_path is not None and hardware.card_path.fed == 5


def test_an_empty_magazine_gives_no_card_and_a_jam_report(fire: Fire) -> None:
    hardware, reports = fire(4, magazine=2)
    assert (reports[0].counted, reports[0].fault) == (2, "jam")
    assert hardware.card_path is not None and hardware.card_path.cards_left == 0


def test_a_slow_feed_within_the_margin_is_not_a_jam(fire: Fire) -> None:
    _, reports = fire(3, speed=0.6)  # 90 mm/s where 150 are expected: within the 2x margin
    assert (reports[0].counted, reports[0].fault) == (3, None)


def test_a_feed_far_slower_than_the_config_says_looks_like_a_jam(fire: Fire) -> None:
    # 60 mm/s: the second card comes later than twice the expected time. `calibrate` measures
    # such a feed and names it (test_devices_calibrate.py); until then it reads as a jam.
    _, reports = fire(3, speed=0.4)
    assert (reports[0].counted, reports[0].fault) == (1, "jam")


class LateClock(VirtualClock):
    """Short waits end 50 ms late, as on a busy machine: a card's way to the beam is timed
    well, the wait for it to leave is not."""

    def wait(self, waiter: Callable[[float], bool], seconds: float) -> bool:
        return super().wait(waiter, seconds + (0.05 if seconds < 0.1 else 0.0))


def test_a_late_lane_still_sees_each_card_for_its_own_time(
    mock_factory: MockFactory, closing: Callable[[Any], Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = LateClock()
    monkeypatch.setattr("gpiozero.pins.mock.monotonic", clock.monotonic)
    config = make_config(pins={"card_sensor": BEAM}, ejector={"feed_mm_s": 150.0})
    hardware = closing(LauncherHardware(config, mock_factory, seats=3, motion_clock=clock))
    reports: list[InputNotice] = []
    hardware.on_input(reports.append)
    hardware.execute(Eject(3))
    assert hardware.wait_idle(5)
    # 50 ms late on a 60 ms card would read as 110 ms, a double: the beam's edges are stamped
    # when they were due, so each card is one card.
    assert reports == [SensorReport(3, 3, 0, None, reports[0].at, 1)]  # type: ignore[union-attr]
    assert hardware.card_sensor is not None
    darks = [p.dark_s for p in hardware.card_sensor.passages_since(0)]
    fan = EjectorConfig().exit_fan
    assert darks == pytest.approx([0.06 / (1 - fan / 2), 0.06 / (1 - fan), 0.06 / (1 - fan)])


def test_without_a_beam_firing_is_timed(
    mock_factory: MockFactory, virtual_clock: VirtualClock, closing: Callable[[Any], Any]
) -> None:
    config = make_config(pins={"card_sensor": -1})
    hardware = closing(LauncherHardware(config, mock_factory, seats=3, motion_clock=virtual_clock))
    notices: list[InputNotice] = []
    hardware.on_input(notices.append)
    hardware.execute(Eject(2))
    assert hardware.wait_idle(5)
    assert notices == [] and hardware.card_path is None  # nothing seen, nothing reported
    assert hardware.status()["cards_fired"] == 2 and hardware.status()["counted"] is False


# -- what the table, the page and the voice make of it -----------------------------------------


def spoken(commands: list[Any], lang: str) -> list[str]:
    catalog = Catalog.load()
    return [catalog.text(c.key, lang, c.params) for c in commands if isinstance(c, Say)]


def fired_engine() -> tuple[TableEngine, str, int]:
    from companion.core.events import Press

    engine = TableEngine(
        ["Alice", "Bruno", "Chloé"], launcher=LauncherConfig(profile="fixed", fixed_cards=3), seed=1
    )
    receiver = engine.snapshot()["active"]
    engine.handle(Press(), "button")
    hand = next(p["hand"] for p in engine.snapshot()["players"] if p["name"] == receiver)
    return engine, receiver, hand


def test_the_table_keeps_the_cards_the_beam_counted() -> None:
    engine, receiver, hand = fired_engine()
    magazine = engine.snapshot()["magazine"]
    engine.handle(CardsSeen(1, 3), "box")  # two of the three never came out
    snap = engine.snapshot()
    assert next(p["hand"] for p in snap["players"] if p["name"] == receiver) == hand - 2
    assert snap["magazine"] == magazine + 2


def test_a_jam_makes_the_page_and_the_voice_say_clear_the_jam() -> None:
    engine, _, _ = fired_engine()
    commands = engine.handle(Jam("jam"), "box").commands
    assert spoken(commands, "fr") == [
        "Le lanceur est bloqué : dégagez la carte coincée, puis rechargez."
    ]
    assert spoken(commands, "en") == ["The launcher is jammed: clear the jam, then reload."]
    snap = engine.snapshot()
    assert snap["jam"] and snap["jam_fault"] == "jam" and snap["needs_reload"]
    # The page shows the fault's own line (web.toml), in both languages.
    catalog = Catalog.load()
    assert "dégagez la carte coincée" in catalog.text("web.jam_jam", "fr")
    assert "clear the jam" in catalog.text("web.jam_jam", "en")


@pytest.mark.parametrize(
    ("fault", "fr", "en"),
    [
        ("stuck", "coincée dans la bouche", "stuck in the launcher's mouth"),
        ("empty", "Le lanceur est vide", "The launcher is empty"),
    ],
)
def test_each_fault_has_its_own_words(fault: str, fr: str, en: str) -> None:
    engine, _, _ = fired_engine()
    commands = engine.handle(Jam(fault), "box").commands  # type: ignore[arg-type]
    assert fr in spoken(commands, "fr")[0] and en in spoken(commands, "en")[0]
    catalog = Catalog.load()
    assert fr.split()[-1] in catalog.text(f"web.jam_{fault}", "fr")
    assert engine.snapshot()["jam_fault"] == fault


def test_nothing_out_of_a_nearly_empty_magazine_is_an_empty_magazine() -> None:
    from companion.core.events import Reload

    engine, _, _ = fired_engine()
    engine.handle(Reload(3), "phone")  # the model: three cards left, below the low warning
    engine.handle(Jam("jam"), "box")
    assert engine.snapshot()["jam_fault"] == "empty"


def test_a_double_is_said_and_the_player_keeps_both_cards() -> None:
    engine, receiver, hand = fired_engine()
    commands = engine.handle(CardsSeen(4, 3, 1), "box").commands
    assert spoken(commands, "fr") == [f"Deux cartes sont sorties ensemble : {receiver} les garde."]
    assert spoken(commands, "en") == [f"Two cards came out together: {receiver} keeps them."]
    assert (
        next(p["hand"] for p in engine.snapshot()["players"] if p["name"] == receiver) == hand + 1
    )
