"""The retrofit ejector: a Mattel launcher's own DC motor switched on the ejector pin."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from companion.config import ConfigError
from companion.devices.config import EjectorConfig
from companion.devices.ejector import Ejector
from tests.doubles import VirtualClock
from tests.helpers import assert_states_and_times, hardware_section

EXACT = 1e-6  # virtual time: pin histories are exact


def test_the_motor_runs_per_card_at_its_duty_and_stops_without_reversing(
    ejector_on_12: Any,
) -> None:
    config = EjectorConfig(mode="motor", roller_speed=0.8, roller_run_s=0.25)
    ejector, pin = ejector_on_12(config)
    assert ejector.fire(4).counted == 4
    # on at 80 % for 4 x 0.25 s, then off: a single transistor has no reverse, so no pull-back
    assert_states_and_times(pin, [(0.0, 0.0), (0.0, 0.8), (1.0, 0.0)], tol=EXACT)
    assert ejector.cards_fired == 4 and ejector.servo.pulse_width is None
    ejector.home()
    assert pin.state == 0
    ejector.close()


def test_a_stop_cuts_the_motor_and_counts_the_cards_run(
    mock_factory: MockFactory, virtual_clock: VirtualClock
) -> None:
    config = EjectorConfig(mode="motor", roller_run_s=0.2)
    ejector = Ejector(12, config, factory=mock_factory, clock=virtual_clock)
    stop = threading.Event()
    stop.set()
    assert ejector.fire(5, stop).counted == 0
    assert mock_factory.pin(12).state == 0
    ejector.close()


def test_motor_is_a_valid_mode_and_other_modes_are_refused() -> None:
    assert hardware_section({"ejector": {"mode": "motor"}}).ejector.mode == "motor"
    with pytest.raises(ConfigError, match="mode"):
        hardware_section({"ejector": {"mode": "spring"}})
