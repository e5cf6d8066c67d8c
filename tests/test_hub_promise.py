"""The hub's promise over a whole simulated evening: while the hub runs, the table engine is
touched on the hub thread only, snapshots included, whichever input moved it (the box's pins
and card beam, the phone page over HTTP, the camera's thread, the services' follow-ups)."""

from __future__ import annotations

import threading
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.config import Config
from companion.core.firing import FiringModel
from companion.core.table import TableEngine
from companion.daemon import Daemon
from tests.doubles import ScaledClock
from tests.helpers import wait_for
from tests.test_camera_service import FakeCamera, FakeSighting
from tests.test_daemon import SPEED, press

pytest.register_assert_rewrite("tests.browser")
from tests.browser import (  # noqa: E402
    FOUR,
    Api,
    chloe_wins_a_round,
    page_daemon_options,
    seat_four,
)

# What reads or changes the table: its events, its replays, its snapshots, the launcher's rolls.
WATCHED: list[tuple[type, str]] = [
    (TableEngine, "handle"),
    (TableEngine, "replay"),
    (TableEngine, "snapshot"),
    (TableEngine, "facing_seat"),
    (FiringModel, "press"),
]


class Touches:
    """The threads that reached each watched method while ``watching`` is set."""

    def __init__(self) -> None:
        self.watching = False
        self.seen: set[tuple[str, str]] = set()
        self._lock = threading.Lock()

    def wrap(self, name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        def watched(*args: Any, **kwargs: Any) -> Any:
            if self.watching:
                with self._lock:
                    self.seen.add((name, threading.current_thread().name))
            return method(*args, **kwargs)

        return watched


@pytest.fixture
def touches(monkeypatch: pytest.MonkeyPatch) -> Touches:
    found = Touches()
    for owner, name in WATCHED:
        monkeypatch.setattr(owner, name, found.wrap(name, getattr(owner, name)))
    return found


@pytest.fixture
def evening_daemon(tmp_path: Path, touches: Touches) -> Iterator[tuple[Daemon, FakeCamera]]:
    camera = FakeCamera()
    options = page_daemon_options(
        tmp_path / "state",
        motion_clock=ScaledClock(SPEED),
        check_thread=True,
        camera=camera,
    )
    daemon = Daemon(Config(), options).start()
    touches.watching = True  # from here the engine is the hub thread's
    try:
        yield daemon, camera
    finally:
        touches.watching = False
        camera.unplugged_for_good = True
        daemon.stop()


def test_a_whole_evening_touches_the_engine_on_the_hub_thread_only(
    evening_daemon: tuple[Daemon, FakeCamera], touches: Touches
) -> None:
    daemon, camera = evening_daemon
    hub = daemon.hub
    api = Api(daemon.url or "")
    events = lambda: hub.state()["table"]["events"]  # noqa: E731
    api.act("evening.start", players=FOUR)
    api.act("evening.seat", game=1, table=1)  # the service's follow-up: a setup
    seat_four(api)
    api.act("page.colours", colours={"Alice": 5})
    api.act("device.face", seat=1)  # aimed from the page before the round's first press
    stream = hub.subscribe()
    try:
        for _ in range(3):
            press(daemon)  # the HIT pin, through the debounce; the beam counts what fired
        api.act("device.hit")
        api.act("table.play", card="number", value=5, colour="red")
        before = events()
        camera.show()
        camera.show(FakeSighting("7", "red", 0.99, True))  # read on the camera's thread
        assert wait_for(lambda: events() == before + 1)
        seq = hub.state()["table"]["last_event"]["seq"]
        mend = {"card": "number", "value": 1, "colour": "red"}
        api.act("table.replace", seq=seq, action="table.play", payload=mend)
        assert stream.get(5) is not None  # the page's stream was woken
    finally:
        stream.close()
    chloe_wins_a_round(api)  # the score sheet, and the eliminations it may sync
    api.act("players.rename", player="Bruno", name="Bastien")
    api.act("table.undo")
    api.act("settings.update", profile="gentle", language="en")
    with urllib.request.urlopen(f"{daemon.url}api/score/rounds", timeout=5) as answer:
        assert answer.status == 200
    hub.call(lambda: None).result(timeout=10)  # what the inputs queued has run
    assert daemon.hardware is not None and daemon.hardware.wait_idle(timeout=10)
    hub.call(lambda: None).result(timeout=10)  # and the beam's counts after it
    names = {name for name, _ in touches.seen}
    assert {"handle", "snapshot", "press"} <= names  # the watch saw the evening
    assert {thread for _, thread in touches.seen} == {"hub"}, sorted(touches.seen)
    assert hub.off_thread == []
