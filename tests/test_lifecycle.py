"""The hub's phases move only as their table says."""

from __future__ import annotations

import pytest
from statemachine.exceptions import TransitionNotAllowed

from companion.app.lifecycle import HubLifecycle


def test_a_hub_runs_stops_and_drains_once() -> None:
    life = HubLifecycle()
    assert life.phase == "new"
    life.start()
    assert life.phase == "running"
    life.stop()
    assert life.phase == "stopping"
    with pytest.raises(TransitionNotAllowed):
        life.start()
    life.drained()
    assert life.phase == "stopped"


def test_a_hub_never_started_stops_at_once_and_never_drains() -> None:
    life = HubLifecycle()
    life.stop()
    assert life.phase == "stopped"
    with pytest.raises(TransitionNotAllowed):
        life.drained()
