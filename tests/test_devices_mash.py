"""A button mashed far faster than the launcher moves, on gpiozero's mock pins, with the real
table engine deciding what each press does: the motion queue stays bounded, turret moves
coalesce to the latest target, no card is lost, and memory does not grow with the presses."""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.config import LauncherConfig
from companion.core.actions import event_action, table_event
from companion.core.commands import Eject, Turn
from companion.core.errors import ActionError
from companion.core.events import CardsSeen, Press, Reload
from companion.core.limits import MAX_HAND
from companion.core.table import TableEngine
from companion.devices import ButtonPressed, InputNotice, LauncherHardware
from companion.devices.launcher import MAX_EJECTION, MAX_PENDING, MOCK_HISTORY, SensorReport
from tests.doubles import QUICK_FEED
from tests.helpers import wait_for
from tests.test_devices_launcher import BUZZER, EJECTOR, HIT, TURRET, make_config


def own_memory() -> int:
    """Bytes held by objects the box's own code allocated."""
    snapshot = tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(True, "*/companion/*")]
    )
    return sum(stat.size for stat in snapshot.statistics("filename"))


class ManualClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.close()


def test_a_mashed_button_keeps_the_queue_bounded_and_loses_no_card(factory: MockFactory) -> None:
    clock = ManualClock()
    config = make_config(
        ejector=QUICK_FEED,
        turret={"slew_deg_s": 2000.0, "settle_s": 0.01},
    )
    hardware = LauncherHardware(config, factory, seats=3, clock=clock)
    engine = TableEngine(
        ["Alice", "Bruno", "Chloé"], launcher=LauncherConfig(profile="authentic"), seed=4
    )
    asked: list[int] = []
    turns: list[int] = []

    def daemon(notice: InputNotice) -> None:  # stands in for the hub: press → engine → launcher
        assert isinstance(notice, ButtonPressed)
        try:
            commands = list(engine.handle(Press()).commands)
        except ActionError:
            return
        # The table turns to someone else at every press: turret moves pile up too.
        commands.append(Turn(len(turns) % 3, "next"))
        asked.extend(c.cards for c in commands if isinstance(c, Eject))
        turns.extend(c.seat for c in commands if isinstance(c, Turn))
        hardware.execute(commands)

    hardware.on_input(daemon)
    pin = factory.pin(HIT)
    most = 0
    try:
        assert hardware.wait_idle(5)
        tracemalloc.start()
        for press in range(1200):
            if press % 250 == 0:
                engine.handle(Reload(80))
            if press == 200:
                warm = own_memory()
            pin.drive_low()
            clock.now += 0.03  # held 30 ms, released 20 ms: 20 presses a second, debounced
            pin.drive_high()
            clock.now += 0.02
            most = max(most, hardware.pending)
        grown = own_memory()
        tracemalloc.stop()
        assert most <= MAX_PENDING
        assert hardware.coalesced > 100  # the bound was reached and held by merging
        assert len(turns) >= 1200 and sum(asked) > 300
        assert hardware.wait_idle(20, sound=False)
        status = hardware.status()
        # No card lost or doubled: what the engine fired is what came out.
        assert status["cards_fired"] == sum(asked)
        assert hardware.turret.seat == turns[-1]  # the latest target wins
        assert grown - warm < 32 * 1024, f"memory grew by {grown - warm} bytes over 1000 presses"
        # The mock pins' own record of every change (thousands of dings) is cut back too.
        for number in (HIT, EJECTOR, TURRET, BUZZER):
            assert len(factory.pin(number).states) <= MOCK_HISTORY
    finally:
        hardware.close()


def test_turns_coalesce_and_ejections_run_on_while_the_launcher_is_busy(
    factory: MockFactory,
) -> None:
    config = make_config(ejector={**QUICK_FEED, "feed_mm_s": 200.0})  # 0.1 s per card
    hardware = LauncherHardware(config, factory, seats=3)
    try:
        assert hardware.wait_idle(5)
        hardware.execute(Eject(2))  # running now
        hardware.execute([Turn(1, "Bruno"), Turn(2, "Chloé"), Turn(0, "Alice")])
        hardware.execute([Eject(3), Eject(1)])
        waiting = hardware.waiting()
        kinds: Any = [kind for kind, _ in waiting]
        assert kinds in (["turn", "eject"], ["eject", "turn", "eject"])
        assert ("turn", 0) in waiting and waiting[-1] == ("eject", 4)  # latest seat; 3 + 1 merged
        assert hardware.pending_cards() in (4, 6)
        assert hardware.wait_idle(10, sound=False)
        assert hardware.status()["cards_fired"] == 6 and hardware.turret.seat == 0
    finally:
        hardware.close()


def test_a_merged_ejection_is_never_more_than_a_deck(factory: MockFactory) -> None:
    config = make_config(ejector={**QUICK_FEED, "feed_mm_s": 200.0})  # 0.1 s per card
    hardware = LauncherHardware(config, factory, seats=3)
    try:
        assert hardware.wait_idle(5)
        hardware.execute(Eject(3))  # running now: what follows waits and merges
        wait_for(lambda: hardware.pending == 0, what="the first ejection under way")
        for _ in range(30):
            hardware.execute(Eject(5))
        waiting = [cards for kind, cards in hardware.waiting() if kind == "eject"]
        assert waiting == [MAX_EJECTION, 150 - MAX_EJECTION]  # no card dropped, none past a deck
    finally:
        hardware.close()


def test_a_mad_beams_report_is_bounded_so_the_journal_replays_it() -> None:
    report = SensorReport(expected=150, counted=151, doubles=0, fault=None, at=0.0, seq=1)
    (seen,) = report.events
    assert isinstance(seen, CardsSeen)
    assert (seen.cards, seen.expected) == (MAX_HAND, MAX_HAND)
    # As the table's memory writes it down and reads it back at the next start.
    assert table_event(*event_action(seen)) == CardsSeen(MAX_HAND, MAX_HAND)
