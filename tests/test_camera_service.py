"""The camera as a table input, on a camera double: sure reads play, unsure ones ask, a camera
lost or dark is said once and taken back; the press path goes on meanwhile."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from companion.app import camera as camera_module
from companion.app.camera import sweep as sweep_module
from companion.app.camera import watch as watch_module
from companion.app.hub import Announcement
from companion.config import Config, ConfigError, load_config, parse_config
from companion.core.errors import ActionError
from companion.daemon import Daemon
from tests.helpers import wait_for
from tests.test_daemon import options, press


@dataclass(frozen=True)
class FakeFrame:
    t_ms: int
    level: float = 120.0
    mark: bytes = b""
    sighting: Any = None


@dataclass(frozen=True)
class FakeSighting:
    kind: str
    colour: str
    confidence: float
    sure: bool
    candidates: tuple[tuple[str, str, float], ...] = ()


@dataclass
class FakeCamera:
    """Frames handed in by the test; ``unplug()`` ends the stream as a lost camera does."""

    frames_in: queue.Queue[FakeFrame | None] = field(default_factory=queue.Queue)
    opened: int = 0
    refuse_open: int = 0
    corrected: list[tuple[str, str]] = field(default_factory=list)
    seen: list[int] = field(default_factory=list)  # the sightings each correction follows
    piles: list[tuple[str, str] | None] = field(default_factory=list)  # each round's first card
    t_ms: int = 0
    unplugged_for_good: bool = False
    released: int = 0  # times the camera's thread let go of it

    def show(self, sighting: Any = None, *, level: float = 120.0, step: int = 100) -> None:
        self.t_ms += step
        self.frames_in.put(FakeFrame(self.t_ms, level, str(self.t_ms).encode(), sighting))

    def unplug(self) -> None:
        self.frames_in.put(None)

    def frames(self) -> Iterator[FakeFrame]:
        if self.refuse_open:
            self.refuse_open -= 1
            raise OSError("camera 0 does not open")
        self.opened += 1
        while True:
            try:
                frame = self.frames_in.get(timeout=0.05)
            except queue.Empty:
                if self.unplugged_for_good:
                    return
                continue
            if frame is None:
                return
            yield frame

    def release(self) -> None:
        self.released += 1

    def look(self, frame: FakeFrame) -> Any:
        return frame.sighting

    def brightness(self, frame: FakeFrame) -> float:
        return frame.level

    def fingerprint(self, frame: FakeFrame) -> bytes:
        return frame.mark

    def jpeg(self, frame: FakeFrame) -> bytes:
        return b"\xff\xd8 frame %d \xff\xd9" % frame.t_ms

    def correct(self, kind: str, colour: str, *, seen: int) -> None:
        self.corrected.append((kind, colour))
        self.seen.append(seen)

    def new_pile(self, top: tuple[str, str] | None = None) -> None:
        self.piles.append(top)

    def stop(self) -> None:
        pass

    def teach_start(self, deck: str) -> list[tuple[str, str]]:
        return [("1", "red"), ("2", "red")]

    def teach_show(self, frame: FakeFrame, kind: str, colour: str) -> bool:
        return True

    def teach_finish(self) -> str:
        return "taught.npz"

    def teach_cancel(self) -> None:
        pass


@pytest.fixture
def camera_daemon(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(watch_module, "FIRST_RETRY_S", 0.05)
    made: list[Daemon] = []
    cameras: list[FakeCamera] = []

    def make(camera: FakeCamera) -> Daemon:
        cameras.append(camera)
        config = parse_config({"hardware": {"pins": {"card_sensor": -1}}})
        daemon = Daemon(config, options(tmp_path, seed=5, camera=camera)).start()
        made.append(daemon)
        heard: list[str] = []
        daemon.hub.add_listener(_Heard(heard))
        daemon.heard = heard  # type: ignore[attr-defined]
        return daemon

    yield make
    for camera in cameras:
        camera.unplugged_for_good = True
    for daemon in made:
        daemon.stop()


class _Heard:
    def __init__(self, heard: list[str]) -> None:
        self.heard = heard

    def on_outcome(self, outcome: Any) -> None:
        if isinstance(outcome, Announcement):
            self.heard.append(outcome.event)


def camera_state(daemon: Daemon) -> dict[str, Any]:
    return dict(daemon.hub.state()["camera"])


def test_a_sure_read_plays_for_the_active_player_and_the_turret_turns(camera_daemon):
    camera = FakeCamera()
    daemon = camera_daemon(camera)
    active = daemon.hub.state()["table"]["active"]
    camera.show()
    camera.show(FakeSighting("7", "red", 0.99, True))
    assert wait_for(lambda: daemon.hub.state()["table"]["events"] == 1)
    last = daemon.hub.state()["table"]["last_event"]
    assert last["source"] == "camera" and last["player"] == active
    assert last["card"] == {"kind": "number", "colour": "red", "value": 7}
    # The play is counted first, then the hub's listeners send the turret its turn.
    daemon.hub.call(lambda: None).result(timeout=10)
    assert daemon.hardware.wait_idle(timeout=10)
    assert daemon.hardware.turret.seat == 2  # the next player faced
    state = camera_state(daemon)
    assert state["status"] == "ok" and state["question"] is None
    assert state["last_read"]["kind"] == "7" and state["last_read"]["sure"] is True


def test_an_unsure_read_asks_once_and_a_tap_settles_it(camera_daemon, tmp_path):
    camera = FakeCamera()
    daemon = camera_daemon(camera)
    candidates = (("reverse", "blue", 0.6), ("skip", "blue", 0.3))
    camera.show(FakeSighting("reverse", "blue", 0.6, False, candidates))
    question = wait_for(lambda: camera_state(daemon)["question"])
    assert daemon.hub.state()["table"]["events"] == 0  # nothing moved
    assert [c["kind"] for c in question["candidates"]] == ["reverse", "skip"]
    assert question["player"] == daemon.hub.state()["table"]["active"]
    number = question["id"]
    assert question["picture"] == f"/api/camera/pictures/{number}.jpg"
    assert (tmp_path / "camera-pictures" / f"{number}.jpg").is_file()
    assert daemon.heard.count("camera.question") == 1
    with pytest.raises(ActionError):
        daemon.hub.dispatch("camera.answer", {"id": number + 1, "kind": "skip", "colour": "blue"})
    state = daemon.hub.dispatch("camera.answer", {"id": number, "kind": "skip", "colour": "blue"})
    assert state["camera"]["question"] is None
    last = state["table"]["last_event"]
    assert last["source"] == "phone" and last["card"] == {"kind": "skip", "colour": "blue"}
    assert ("skip", "blue") in camera.corrected  # the next read is ranked against the answer


def test_a_dismissed_question_moves_nothing(camera_daemon):
    camera = FakeCamera()
    daemon = camera_daemon(camera)
    camera.show(FakeSighting("3", "green", 0.5, False, (("3", "green", 0.5),)))
    question = wait_for(lambda: camera_state(daemon)["question"])
    state = daemon.hub.dispatch("camera.dismiss", {"id": question["id"]})
    assert state["camera"]["question"] is None and daemon.hub.state()["table"]["events"] == 0


def test_a_lost_camera_is_said_once_the_buttons_go_on_and_it_comes_back(camera_daemon):
    camera = FakeCamera()
    daemon = camera_daemon(camera)
    camera.show()
    assert wait_for(lambda: camera_state(daemon)["status"] == "ok")
    camera.refuse_open = 3  # unplugged: it will not open again for a while
    camera.unplug()
    assert wait_for(lambda: camera_state(daemon)["status"] == "lost")
    press(daemon)  # the press path never waits for the camera
    assert wait_for(lambda: daemon.hub.state()["table"]["events"] == 1)
    camera.show()
    camera.show(FakeSighting("5", "yellow", 0.99, True))
    assert wait_for(lambda: daemon.hub.state()["table"]["events"] == 2)
    assert camera_state(daemon)["status"] == "ok"
    assert daemon.heard.count("camera.lost") == 1


def test_darkness_is_said_once_and_reads_wait_for_light(camera_daemon):
    camera = FakeCamera()
    daemon = camera_daemon(camera)
    for _ in range(30):
        camera.show(level=3.0)
    assert wait_for(lambda: camera_state(daemon)["status"] == "dark")
    camera.show(FakeSighting("5", "yellow", 0.99, True), level=3.0)
    for _ in range(10):
        camera.show(level=3.0)
    camera.show()
    assert wait_for(lambda: camera_state(daemon)["status"] == "ok")
    assert daemon.hub.state()["table"]["events"] == 0  # nothing was read in the dark
    assert daemon.heard.count("camera.dark") == 1


def test_switched_off_it_reads_nothing(camera_daemon):
    camera = FakeCamera()
    daemon = camera_daemon(camera)
    state = daemon.hub.dispatch("camera.enable", {"on": False})
    assert state["camera"]["enabled"] is False and state["camera"]["status"] == "off"
    released = camera.released
    camera.show(FakeSighting("5", "yellow", 0.99, True))
    # The status says off at once; the camera's thread lets go once it has seen the next frame.
    # Generous waits: on a loaded machine the camera's thread may be slow to get a turn.
    assert wait_for(lambda: camera.released > released, 30, "the camera let go")
    assert daemon.camera.status == "off"
    daemon.hub.dispatch("camera.enable", {"on": True})
    camera.show(FakeSighting("6", "yellow", 0.99, True))
    assert wait_for(lambda: daemon.hub.state()["table"]["events"] == 1, 30, "the card played")
    assert daemon.hub.state()["table"]["last_event"]["payload"]["value"] == 6


def test_without_a_camera_the_box_says_so(tmp_path):
    daemon = Daemon(Config(), options(tmp_path)).start()
    try:
        state = camera_state(daemon)
        assert state["configured"] is False and state["status"] == "off"
        with pytest.raises(ActionError, match="no camera"):
            daemon.hub.dispatch("camera.enable", {"on": True})
    finally:
        daemon.stop()


def test_camera_section_is_checked_with_every_problem(tmp_path):
    path = tmp_path / "box.toml"
    path.write_text('[camera]\nenabled = "yes"\nfps = 99\n', encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load_config(path)
    text = str(error.value)
    assert "camera.enabled" in text and "camera.fps" in text
    path.write_text('[camera]\nsource = "webcam"\nresolution = "big"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load_config(path)
    assert "camera.source" in str(error.value) and "camera.resolution" in str(error.value)
    path.write_text('[camera]\nenabled = true\nsource = "v4l2:/dev/video0"\n', encoding="utf-8")
    assert load_config(path).camera.enabled is True


def test_the_guided_teach_dings_for_each_card_and_keeps_the_deck(camera_daemon):
    camera = FakeCamera()
    daemon = camera_daemon(camera)
    state = daemon.hub.dispatch("camera.teach_start", {"deck": "classic"})
    teach = state["camera"]["teach"]
    assert teach == {
        "active": True,
        "next": {"kind": "1", "colour": "red"},
        "done": 0,
        "total": 2,
        "deck": "classic",
    }
    camera.show(FakeSighting("1", "red", 0.4, False))  # laid and still: taken as the card asked
    assert wait_for(lambda: camera_state(daemon)["teach"]["done"] == 1)
    assert wait_for(lambda: "camera.teach" in daemon.heard)  # the box dings
    assert daemon.hub.state()["table"]["events"] == 0  # a card shown to teach is not played
    state = daemon.hub.dispatch("camera.teach_skip", {})
    assert state["camera"]["teach"]["done"] == 2 and state["camera"]["teach"]["next"] is None
    state = daemon.hub.dispatch("camera.teach_finish", {})
    assert state["camera"]["teach"] is None
    with pytest.raises(ActionError):
        daemon.hub.dispatch("camera.teach_skip", {})


def test_the_page_gets_the_live_picture_and_the_kept_ones(camera_daemon, tmp_path):
    from companion.i18n import Catalog
    from companion.web import create_app
    from companion.web.config import WebConfig

    camera = FakeCamera()
    daemon = camera_daemon(camera)
    client = create_app(daemon.hub, WebConfig(), Catalog.load(), camera=daemon.camera).test_client()
    assert client.get("/api/camera/pictures/1.jpg").status_code == 404
    camera.show(FakeSighting("2", "blue", 0.5, False, (("2", "blue", 0.5),)))
    question = wait_for(lambda: camera_state(daemon)["question"])
    live = client.get("/api/camera/live.jpg")
    assert live.status_code == 200 and live.mimetype == "image/jpeg"
    assert live.data.startswith(b"\xff\xd8")
    kept = client.get(question["picture"])
    assert kept.status_code == 200 and kept.data == camera.jpeg(FakeFrame(camera.t_ms))
    assert camera_state(daemon)["kept"] == 1
    blind = create_app(daemon.hub, WebConfig(), Catalog.load()).test_client()
    missing = blind.get("/api/camera/live.jpg")
    assert missing.status_code == 404 and missing.is_json
    locked = create_app(
        daemon.hub, WebConfig(pin="4321"), Catalog.load(), camera=daemon.camera
    ).test_client()
    assert locked.get("/api/camera/live.jpg").status_code == 401


def test_only_the_last_pictures_are_kept(tmp_path):
    pictures = camera_module.Pictures(tmp_path / "kept")
    for number in range(1, camera_module.KEPT + 6):
        pictures.keep(number, b"%d" % number)
    kept = pictures.kept()
    assert len(kept) == camera_module.KEPT and kept[0].stem == "6"
    assert pictures.read(5) is None and pictures.read(55) == b"55"


def test_a_mended_camera_read_keeps_its_picture(camera_daemon, tmp_path):
    camera = FakeCamera()
    daemon = camera_daemon(camera)
    camera.show(FakeSighting("7", "red", 0.99, True))
    assert wait_for(lambda: daemon.hub.state()["table"]["events"] == 1)
    seq = daemon.hub.state()["table"]["last_event"]["seq"]
    mend = {"card": "number", "value": 1, "colour": "red"}
    daemon.hub.dispatch("table.replace", {"seq": seq, "action": "table.play", "payload": mend})
    assert wait_for(lambda: camera_state(daemon)["kept"] == 1)
    # and the next read is ranked against the mend
    assert wait_for(lambda: ("1", "red") in camera.corrected)


def test_the_turret_sweeps_and_hit_picks_the_coup_extreme_target(camera_daemon, monkeypatch):
    monkeypatch.setattr(sweep_module, "SWEEP_STEP_S", 0.4)
    camera = FakeCamera()
    daemon = camera_daemon(camera)
    table = daemon.hub.state()["table"]
    attacker = table["active"]
    camera.show(FakeSighting("coup_extreme", "", 0.99, True))
    question = wait_for(lambda: camera_state(daemon)["question"])
    assert question["needs"] == "target" and camera_state(daemon)["sweeping"] is True
    assert daemon.hub.state()["table"]["events"] == 0  # nothing moves until the target is picked
    seats = {p["seat"]: p["name"] for p in table["players"]}
    target_seat = next(s for s, name in seats.items() if name != attacker and s != 0)
    turret = daemon.hardware.turret
    wait_for(lambda: turret.seat == target_seat and not turret.moving, what="the turret faces")
    press(daemon)  # HIT while the turret faces the target
    assert wait_for(lambda: daemon.hub.state()["table"]["events"] == 1)
    last = daemon.hub.state()["table"]["last_event"]
    assert last["source"] == "camera" and last["card"]["kind"] == "coup_extreme"
    assert last["payload"]["target"] == seats[target_seat] and last["player"] == attacker
    state = camera_state(daemon)
    assert state["sweeping"] is False and state["question"] is None


def test_a_frozen_picture_is_said_once_and_reads_wait_for_it_to_move(camera_daemon):
    camera = FakeCamera()
    daemon = camera_daemon(camera)
    for t_ms in range(100, 4000, 100):  # the very same picture for 4 s
        camera.frames_in.put(FakeFrame(t_ms, 120.0, b"stuck"))
    camera.frames_in.put(FakeFrame(4000, 120.0, b"stuck", FakeSighting("5", "red", 0.99, True)))
    assert wait_for(lambda: camera_state(daemon)["status"] == "frozen")
    camera.t_ms = 4100
    camera.show()
    assert wait_for(lambda: camera_state(daemon)["status"] == "ok")
    assert daemon.hub.state()["table"]["events"] == 0 and daemon.heard.count("camera.frozen") == 1


def test_a_box_without_the_camera_extra_says_the_one_command(tmp_path):
    from companion.daemon import StartupError

    def no_opencv(source: str, sections: Any) -> Any:
        raise ImportError("No module named 'cv2'")

    daemon = Daemon(
        Config(), options(tmp_path, camera_source="folder:/nowhere", camera_factory=no_opencv)
    )
    with pytest.raises(StartupError) as error:
        daemon.start()
    assert "No module named 'cv2'" in str(error.value)
    assert "pip install -e '.[camera]'" in str(error.value)


def test_the_camera_status_is_one_small_state_machine():
    from companion.app.camera.status import CameraStatus

    status = CameraStatus()
    assert status.fire("clear") == (False, None)  # off: only opening starts it
    assert status.fire("open") == (True, None) and status.state == "starting"
    assert status.fire("dark") == (True, "dark")  # a trouble is said...
    assert status.fire("frozen") == (True, "frozen")
    assert status.fire("dark") == (True, "dark")
    assert status.fire("clear") == (True, None) and status.state == "ok"
    assert status.fire("ended", say=False) == (True, None) and status.state == "lost"
    assert status.fire("open") == (False, None)  # reopening stays lost until a frame comes
    assert status.fire("clear") == (True, None)
    assert status.fire("ended") == (True, "lost")
    assert status.fire("ended") == (False, None)  # ...once until it is over
    assert status.fire("switch_off") == (True, None) and status.state == "off"


def test_the_answers_offered_are_the_table_deck_only_in_the_camera_order(camera_daemon):
    """On an Extrême table (no 0, no +2, no Super Joker +4 without a classic deck) the faces the
    camera also found likely are not offered; a read of a card the deck does not hold is never
    played by itself: the best face of the deck is asked."""
    camera = FakeCamera()
    daemon = camera_daemon(camera)
    candidates = (
        ("draw2", "red", 0.5),
        ("hit2", "red", 0.2),
        ("0", "red", 0.1),
        ("draw4", "", 0.08),
        ("6", "red", 0.07),
        ("coup_extreme", "", 0.05),
    )
    camera.show(FakeSighting("draw2", "red", 0.99, True, candidates))
    question = wait_for(lambda: camera_state(daemon)["question"])
    assert daemon.hub.state()["table"]["events"] == 0  # the +2 read sure was not played
    offered = [(c["kind"], c["colour"]) for c in question["candidates"]]
    assert offered == [("hit2", "red"), ("6", "red"), ("coup_extreme", "")]
    daemon.hub.dispatch("camera.answer", {"id": question["id"], "kind": "hit2", "colour": "red"})
    last = daemon.hub.state()["table"]["last_event"]
    assert last["card"] == {"kind": "hit2", "colour": "red"}
