"""Shared test fixtures and the environment every test runs in."""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Callable, Iterator
from typing import Any

import pytest

# Every test runs on gpiozero's mock pins, never a probe of real hardware (field notes).
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("GPIOZERO_MOCK_PIN_CLASS", "mockpwmpin")
# Commands run by the tests (in process or as subprocesses) never read this machine's
# configuration nor write to its score database.
_HOME = tempfile.mkdtemp(prefix="uno-companion-tests-")
for _variable in ("UNO_COMPANION_CONFIG", "STATE_DIRECTORY", "NOTIFY_SOCKET", "WATCHDOG_USEC"):
    os.environ.pop(_variable, None)
os.environ["XDG_CONFIG_HOME"] = os.path.join(_HOME, "config")
os.environ["XDG_STATE_HOME"] = os.path.join(_HOME, "state")
# Every hub refuses (and records) a touch of the table engine off its thread while it runs.
os.environ["UNO_COMPANION_CHECK_THREAD"] = "1"

from gpiozero.pins.mock import MockFactory, MockPWMPin  # noqa: E402  (after the environment)

from tests.doubles import RecordingPlayer, VirtualClock  # noqa: E402


class GuardCatches(logging.Handler):
    """What every hub's thread guard refused during one test (``"name on thread"`` each)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.caught: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.caught.append(record.getMessage())


@pytest.fixture(autouse=True)
def off_hub_thread() -> Iterator[list[str]]:
    """Every test fails if any hub's guard caught a touch of the table off its thread, even on
    a thread that swallowed the refusal. A test that provokes one reads and clears the list."""
    from companion.app import threadguard

    catches = GuardCatches()
    logger = logging.getLogger(threadguard.__name__)
    logger.addHandler(catches)
    try:
        yield catches.caught
    finally:
        logger.removeHandler(catches)
    assert catches.caught == [], "the table was touched off the hub thread"


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    """gpiozero's mock pins with PWM (servos, tonal buzzer), closed after the test."""
    factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.close()


@pytest.fixture
def virtual_clock(monkeypatch: pytest.MonkeyPatch) -> VirtualClock:
    """Virtual time for the devices; mock pin histories are timed on it too."""
    import gpiozero.pins.mock

    clock = VirtualClock()
    monkeypatch.setattr(gpiozero.pins.mock, "monotonic", clock.monotonic)
    return clock


@pytest.fixture
def closing() -> Iterator[Callable[[Any], Any]]:
    """``closing(thing)`` returns ``thing`` and closes it after the test (in the order made):
    for fixtures that build several devices, voices or workers."""
    made: list[Any] = []

    def keep(thing: Any) -> Any:
        made.append(thing)
        return thing

    yield keep
    for thing in made:
        thing.close()


@pytest.fixture
def ejector_on_12(
    mock_factory: MockFactory, virtual_clock: VirtualClock
) -> Callable[[Any], tuple[Any, Any]]:
    """Builds an ejector (from an ``EjectorConfig``) on mock GPIO12 in virtual time; returns it
    with its pin, the pin's history starting after set-up."""
    from companion.devices.ejector import Ejector

    def build(config: Any) -> tuple[Ejector, Any]:
        ejector = Ejector(12, config, factory=mock_factory, clock=virtual_clock)
        pin = mock_factory.pin(12)
        pin.clear_states()
        return ejector, pin

    return build


@pytest.fixture
def recording_player() -> RecordingPlayer:
    return RecordingPlayer()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Long modules first (the browser's, and those with a ``slow`` test), each kept whole.
    With ``make unit``'s ``--maxschedchunk 2`` the tests are dealt a couple at a time in this
    order, so the two workers share the long ones and finish together."""
    long_modules = {
        item.path
        for item in items
        if item.get_closest_marker("slow") or item.path.name.startswith("test_browser")
    }
    items.sort(key=lambda item: item.path not in long_modules)
