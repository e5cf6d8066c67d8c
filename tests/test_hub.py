"""The hub: one thread runs every input to completion and fans results out."""

from __future__ import annotations

import threading

import pytest

from companion.app.hub import Hub
from companion.core.errors import ActionError
from companion.core.events import Press
from companion.core.table import Outcome, TableEngine


class Recorder:
    def __init__(self) -> None:
        self.outcomes: list[Outcome] = []
        self.threads: set[str] = set()

    def on_outcome(self, outcome: Outcome) -> None:
        self.outcomes.append(outcome)
        self.threads.add(threading.current_thread().name)


@pytest.fixture
def hub():
    hub = Hub(TableEngine(["Alice", "Bruno", "Chloé"], seed=1))
    with hub.running():
        yield hub


def test_dispatch_runs_on_hub_thread_and_notifies(hub):
    recorder = Recorder()
    hub.add_listener(recorder)
    sub = hub.subscribe()
    state = hub.dispatch("table.play", {"card": "skip", "colour": "red"})
    assert state["table"]["active"] == "Alice"
    assert recorder.threads == {"hub"}
    assert recorder.outcomes[0].event == "play"
    notice = sub.get(timeout=2)
    assert notice == {"revision": state["revision"], "section": "table"}
    sub.close()
    assert hub.subscribers == 0


def test_bad_input_changes_nothing(hub):
    before = hub.state()
    for action, payload in [
        ("table.play", {"card": "joker"}),
        ("table.play", {"card": "number", "value": "7"}),
        ("table.press", {"player": "x" * 500}),
        ("table.press", {"player": "Zed"}),
        ("table.press", ["not", "an", "object"]),
        ("table.fly", {}),
        ("table.play", {"card": "number", "extra": 1}),
    ]:
        with pytest.raises(ActionError) as err:
            hub.dispatch(action, payload)
        assert 400 <= err.value.status < 500
    assert hub.state() == before


def test_stale_revision_is_refused(hub):
    revision = hub.state()["revision"]
    hub.dispatch("table.press", {}, expected_revision=revision)
    with pytest.raises(ActionError) as err:
        hub.dispatch("table.press", {}, expected_revision=revision)
    assert err.value.status == 409 and err.value.key == "errors.stale"


def test_presses_from_many_threads_are_all_handled_in_order(hub):
    recorder = Recorder()
    hub.add_listener(recorder)
    futures = []
    lock = threading.Lock()

    def press_many() -> None:
        for _ in range(50):
            with lock:  # the order of posting is the order of handling
                futures.append(hub.post(Press()))

    threads = [threading.Thread(target=press_many) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    results = [f.result(timeout=5) for f in futures]
    assert len(recorder.outcomes) == 200
    assert [o.snapshot["events"] for o in results] == list(range(1, 201))


def test_state_is_cached_until_a_change(hub):
    first = hub.state()
    assert hub.state() is first
    hub.dispatch("table.press", {})
    assert hub.state() is not first
    assert hub.state()["revision"] == first["revision"] + 1


def test_registered_action_and_status(hub):
    volume = {"level": 5}

    def set_volume(payload: dict[str, int]) -> None:
        volume["level"] = payload["level"]

    schema = {
        "type": "object",
        "properties": {"level": {"type": "integer", "minimum": 0, "maximum": 10}},
        "required": ["level"],
        "additionalProperties": False,
    }
    hub.register_action("device.volume", schema, set_volume, "device")
    hub.register_status("device", lambda: dict(volume))
    assert hub.dispatch("device.volume", {"level": 8})["device"] == {"level": 8}
    with pytest.raises(ActionError):
        hub.dispatch("device.volume", {"level": 11})
    assert "device.volume" in hub.action_schemas()


def test_slow_reader_never_blocks_the_hub(hub):
    sub = hub.subscribe()  # never read
    for _ in range(300):
        hub.dispatch("table.press", {})
    notices = []
    while (notice := sub.get(timeout=0.01)) is not None:
        notices.append(notice)
    assert 0 < len(notices) <= 64
    assert notices[-1]["revision"] == hub.state()["revision"]


def test_device_notices_do_not_make_edits_stale(hub):
    revision = hub.state()["revision"]
    sub = hub.subscribe()
    hub.call(lambda: hub.changed("device")).result(timeout=2)
    assert sub.get(timeout=2) == {"revision": revision, "section": "device"}
    hub.dispatch("table.press", {}, expected_revision=revision)  # still current


def test_a_stuck_hub_answers_busy_and_changes_nothing():
    import threading as th

    hub = Hub(TableEngine(["Alice", "Bruno"], seed=1), dispatch_timeout=0.2)
    with hub.running():
        release = th.Event()
        hub.call(lambda: release.wait(5))  # something slow holds the hub thread
        with pytest.raises(ActionError) as err:
            hub.dispatch("table.press", {})
        assert err.value.status == 503
        release.set()
        assert hub.state()["table"]["events"] == 0
