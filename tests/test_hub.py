"""The hub: one thread runs every input to completion and fans results out."""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future
from types import SimpleNamespace
from typing import Any

import pytest

from companion.app.box_buttons import LongPresses
from companion.app.hub import Hub, HubStopped, OffHubThread
from companion.app.inputs import (
    BoxReport,
    ButtonPress,
    CardRead,
    InputDoor,
    PhoneAction,
    ScriptLine,
    table_input,
)
from companion.app.voice import VoiceService
from companion.core.commands import Cue, Priority, Say
from companion.core.errors import ActionError
from companion.core.events import CardsSeen, Jam, Play, Press, Setup
from companion.core.script import ScriptError
from companion.core.table import Outcome, TableEngine
from tests.helpers import wait_for


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
                futures.append(hub.post(Press(), "button"))

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
    hub.register_action("device.volume", schema, set_volume, "device")  # made on the hub thread
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


def test_a_call_after_stop_is_refused_never_run_on_the_callers_thread():
    engine = TableEngine(["Alice", "Bruno"], seed=1)
    hub = Hub(engine)
    with hub.running():
        hub.dispatch("table.press", {})
    assert hub.phase == "stopped"
    ran: list[str] = []
    late = hub.call(lambda: ran.append(threading.current_thread().name))
    with pytest.raises(HubStopped):
        late.result(timeout=1)
    with pytest.raises(HubStopped):
        hub.post(Press(), "button").result(timeout=1)
    with pytest.raises(HubStopped) as err:
        hub.dispatch("table.press", {})
    assert err.value.status == 503 and err.value.key == "errors.stopping"
    assert ran == [] and engine.events_handled == 1
    with pytest.raises(RuntimeError):
        hub.start()  # a hub lives once


def test_stop_drains_the_queue_and_its_follow_ups_then_refuses():
    hub = Hub(TableEngine(["Alice", "Bruno", "Chloé"], seed=1))
    follow_ups: list[Future[Any]] = []

    class PostsAFollowUp:
        def on_outcome(self, outcome: Outcome) -> None:
            if outcome.event == "setup":  # queued from the hub thread while it drains
                follow_ups.append(hub.post(Press(), "box"))

    hub.add_listener(PostsAFollowUp())
    hub.start()
    release = threading.Event()
    hub.call(lambda: release.wait(5))  # the hub is busy: what follows waits in the queue
    queued = [hub.post(Press(), "button") for _ in range(3)]
    queued.append(hub.post(Setup(("Ana", "Ben")), "phone"))
    stopper = threading.Thread(target=hub.stop)
    stopper.start()
    assert wait_for(lambda: hub.phase == "stopping")
    late = hub.post(Press(), "button")  # another thread, after stop() began: refused
    release.set()
    stopper.join(timeout=5)
    assert hub.phase == "stopped"
    assert [f.result(timeout=0).event for f in queued] == ["press"] * 3 + ["setup"]
    assert follow_ups[0].result(timeout=0).source == "box"
    assert isinstance(late.exception(timeout=0), HubStopped)
    assert hub.engine.events_handled == 5  # stopped: the engine is anyone's again


def test_the_thread_guard_refuses_engine_access_off_the_hub_thread(off_hub_thread):
    engine = TableEngine(["Alice", "Bruno"], seed=1)
    hub = Hub(engine, check_thread=True)
    held = hub.engine  # before the start: whoever builds it
    assert held.snapshot()["active"] == "Bruno"
    here = threading.current_thread().name
    with hub.running():
        assert hub.dispatch("table.press", {})["table"]["events"] == 1  # on the hub thread
        with pytest.raises(OffHubThread):
            hub.engine  # noqa: B018  (the hub's own door to the engine)
        with pytest.raises(OffHubThread):
            held.snapshot()  # a reference kept from before: the engine's attributes are guarded
        with pytest.raises(OffHubThread):
            held.events_handled = 0
        assert hub.off_thread == [
            f"engine on {here}",
            f"snapshot on {here}",
            f"events_handled on {here}",
        ]
    assert off_hub_thread == [
        f"{name} touched off the hub thread, on thread {here!r}"
        for name in ("engine", "snapshot", "events_handled")
    ]
    off_hub_thread.clear()  # provoked here: the suite's own check must not fail this test
    assert hub.engine.events_handled == 1  # stopped: whoever saves it


def test_an_outcome_leaves_the_hub_with_its_snapshot_made_there():
    """Whoever waits for an outcome (the camera's thread, a script's trace) reads a snapshot
    made on the hub thread, as the event left the table, even once the table moved on."""
    hub = Hub(TableEngine(["Alice", "Bruno", "Chloé"], seed=1), check_thread=True)
    made_on: list[str] = []
    engine_snapshot = TableEngine.snapshot

    def snapshot(engine: TableEngine) -> dict[str, Any]:
        made_on.append(threading.current_thread().name)
        return engine_snapshot(engine)

    with hub.running():
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(TableEngine, "snapshot", snapshot)
            first = hub.post(Play("skip", "red"), "phone")
            second = hub.post(Play("reverse", "red"), "phone")
            outcomes = [first.result(timeout=5), second.result(timeout=5)]
            state = hub.state()  # the last outcome's snapshot serves the state: not made again
            cards = [o.snapshot["last_event"]["payload"]["card"] for o in outcomes]
        assert made_on == ["hub", "hub"]
        assert cards == ["skip", "reverse"]
        assert state["table"] is outcomes[1].snapshot
    assert hub.off_thread == []


@pytest.mark.parametrize(
    ("notice", "expected"),
    [
        (ButtonPress("hit"), (Press(), "button")),
        (ButtonPress("skip"), (Play("skip"), "button")),
        (ButtonPress("shutdown"), None),  # a button with no table meaning
        (BoxReport(Jam()), (Jam(), "box")),
        (BoxReport(CardsSeen(2, 3)), (CardsSeen(2, 3), "box")),
        (
            PhoneAction("table.play", {"card": "skip", "colour": "red"}),
            (Play("skip", "red"), "phone"),
        ),
        (ScriptLine("play skip red"), (Play("skip", "red"), "script")),
        (ScriptLine("# a comment"), None),
        (CardRead("reverse", "blue"), (Play("reverse", "blue"), "camera")),
        (CardRead("number", "red", value=7), (Play("number", "red", value=7), "camera")),
        (CardRead("skip", "red", sure=False), None),  # unsure: nothing moves
    ],
)
def test_every_notice_becomes_its_event_with_its_source(notice, expected):
    assert table_input(notice) == expected


def test_what_no_event_can_be_made_of_is_refused_at_the_door():
    with pytest.raises(ActionError):
        table_input(PhoneAction("table.play", {"card": "joker"}))
    with pytest.raises(ScriptError):
        table_input(ScriptLine('play "skip'))


def test_the_source_reaches_the_outcome_and_refusals_are_told_with_it(hub):
    recorder = Recorder()
    hub.add_listener(recorder)
    refusals: list[tuple[str, str]] = []
    hub.add_refusal_listener(lambda error, source: refusals.append((error.key, source)))
    door = InputDoor(hub)
    assert door.take(ButtonPress("hit")).result(timeout=5).source == "button"
    assert door.take(CardRead("skip", "red", sure=False)) is None
    assert door.take(CardRead("skip", "red")).result(timeout=5).source == "camera"
    hub.dispatch("table.press", {})
    assert [o.source for o in recorder.outcomes] == ["button", "camera", "phone"]
    hub.dispatch("table.round_won", {"player": "Alice"})
    refused = door.take(ButtonPress("hit"))
    assert isinstance(refused.exception(timeout=5), ActionError)
    assert refusals == [("errors.round_over", "button")]


def test_a_services_follow_up_carries_the_source_of_its_action(hub):
    recorder = Recorder()
    hub.add_listener(recorder)
    sources: list[str] = []

    def follow_up(payload: dict[str, Any]) -> None:
        sources.append(hub.action_source)
        hub.post(Press(), hub.action_source)

    hub.register_action("test.follow_up", {"type": "object"}, follow_up, "table")
    hub.dispatch("test.follow_up", {}, source="script")
    hub.dispatch("test.follow_up", {})
    hub.dispatch("table.press", {}, source="camera")
    hub.call(lambda: None).result(timeout=5)  # the follow-ups have run
    assert sources == ["script", "phone"]
    assert [o.source for o in recorder.outcomes] == ["script", "phone", "camera"]
    assert hub.call(lambda: hub.action_source).result(timeout=5) == "box"  # outside actions


ADDRESS = {"a": "192", "b": "168", "c": "1", "d": "20", "port": "8080"}


class Speaker:
    """The speech adapter as the voice service sees it; records what it is given, and where."""

    def __init__(self) -> None:
        self.config = SimpleNamespace(enabled=True, volume=1.0)
        self.output = SimpleNamespace(available=True, last_error="")
        self.heard: list[tuple[object, str]] = []

    def handle(self, command: object) -> None:
        self.heard.append((command, threading.current_thread().name))

    def set_language(self, language: str) -> None: ...

    def set_volume(self, level: float) -> None: ...


def test_a_long_press_goes_through_the_hub_and_honours_voice_off():
    hub = Hub(TableEngine(["Alice", "Bruno"], seed=1), check_thread=True)
    speaker = Speaker()
    VoiceService(speaker).attach(hub)
    down = {"hit": False}
    presses = LongPresses(
        {"hit": lambda: down["hit"]},
        lambda: ["http://192.168.1.20:8080/"],
        poweroff=None,
        say_address=False,
    )

    def hold(seconds: float) -> None:
        assert presses.watcher is not None
        down["hit"] = True
        now = time.monotonic()
        presses.watcher.tick(now)
        presses.watcher.tick(now + seconds)
        down["hit"] = False
        presses.watcher.tick(now + seconds)
        hub.call(lambda: None).result(timeout=5)  # what the press queued has run

    with hub.running():
        presses.start(InputDoor(hub))
        try:
            hub.dispatch("device.voice", {"enabled": False})
            hold(3.1)
            assert speaker.heard == [(Cue("start"), "hub")]  # the cue, on the hub thread; no words
            hub.dispatch("device.voice", {"enabled": True})
            hold(3.1)
            assert [type(c).__name__ for c, _ in speaker.heard] == ["Cue", "Cue", "Say"]
            assert speaker.heard[-1][0] == Say("box.address", ADDRESS, Priority.WARNING)
            assert {thread for _, thread in speaker.heard} == {"hub"}
            hold(1.0)  # too short to count
            assert len(speaker.heard) == 3
        finally:
            presses.close()
    assert hub.off_thread == []


def test_handling_at_once_is_for_the_hub_thread_only(hub, off_hub_thread):
    with pytest.raises(OffHubThread):
        hub.handle(Press(), "phone")  # another thread: it must post
    assert len(off_hub_thread) == 1 and "handle" in off_hub_thread.pop()
    outcome = hub.call(lambda: hub.handle(Press(), "phone")).result(timeout=5)
    assert outcome.source == "phone" and hub.state()["table"]["events"] == 1
