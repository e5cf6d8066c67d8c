"""The daemon on gpiozero's mock pins: the real input path from a pin edge to the actuators."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.app.inputs import CardRead, InputDoor
from companion.app.motion import MotionWatcher
from companion.config import Config, LauncherConfig, TableConfig, parse_config
from companion.core.commands import Cue, Eject
from companion.core.errors import ActionError
from companion.core.events import Press
from companion.daemon import Daemon, DaemonOptions
from companion.devices.config import HardwareConfig, PinsConfig
from tests.doubles import ScaledClock
from tests.helpers import wait_for

DEBOUNCE = 0.03  # HardwareConfig's default debounce window
SPEED = 25  # the feed, the exit pinch and the turret run 25 times faster than on the box


def options(state_dir: Path, **overrides: Any) -> DaemonOptions:
    """A simulated daemon without page or voice, its launcher on fast time, its engine
    guarded: touched off the hub thread while the hub runs, it raises (see the evening below)."""
    values: dict[str, Any] = {
        "simulate": True,
        "web": False,
        "voice": False,
        "motion_clock": ScaledClock(SPEED),
        "check_thread": True,
    }
    return DaemonOptions(state_dir=state_dir, **{**values, **overrides})


@pytest.fixture
def make_daemon(tmp_path: Path):
    daemons: list[Daemon] = []

    def make(
        launcher: LauncherConfig | None = None,
        hardware: dict[str, Any] | None = None,
        **overrides: object,
    ) -> Daemon:
        # Timed firing unless a test asks for the beam: at 25 times the speed, a card every 23 ms
        # of real time, a busy machine's late wake-up would let the simulated feed run on a card.
        hardware = hardware if hardware is not None else {"pins": {"card_sensor": -1}}
        config = parse_config({"hardware": hardware})
        config = replace(config, launcher=launcher or LauncherConfig())
        daemon = Daemon(config, options(tmp_path, seed=5, **overrides)).start()
        daemons.append(daemon)
        return daemon

    yield make
    for daemon in daemons:
        daemon.stop()


def press(daemon: Daemon, button: str = "hit") -> None:
    """A hand on a button: pressed 2 ms, then left alone past the debounce window (the
    debounce runs on real time, as on the box)."""
    pin = daemon.hardware.buttons[button].pin
    pin.drive_low()
    time.sleep(0.002)
    pin.drive_high()
    time.sleep(DEBOUNCE + 0.01)


def settled(daemon: Daemon) -> None:
    """Every input already queued on the hub has been handled."""
    daemon.hub.call(lambda: None).result(timeout=10)


def test_press_on_pin_fires_cards_and_turns(make_daemon):
    daemon = make_daemon(LauncherConfig(profile="fixed", fixed_cards=2))
    press(daemon)
    settled(daemon)  # the press, queued as its edge came, was handled; the hub's listeners
    assert daemon.hub.state()["table"]["events"] == 1  # have sent the launcher its commands
    assert daemon.hardware.wait_idle(timeout=10)
    assert daemon.hardware.ejector.cards_fired == 2
    snap = daemon.hub.state()["table"]
    assert snap["players"][1]["hand"] == 9 and snap["active"] == "Chloé"
    assert daemon.hardware.turret.seat == 2  # the launcher now faces Chloé


def test_the_table_gives_the_player_the_cards_the_beam_counted(make_daemon):
    daemon = make_daemon(LauncherConfig(profile="fixed", fixed_cards=2), hardware={})
    assert daemon.hardware.card_sensor is not None  # the beam, with simulated cards
    press(daemon)
    settled(daemon)  # the press, queued as its edge came, was handled; the hub's listeners
    assert daemon.hub.state()["table"]["events"] >= 1  # have sent the launcher its commands
    assert daemon.hardware.wait_idle(timeout=10)
    settled(daemon)  # and the beam's count is back at the table, a line after the press
    assert [line["event"] for line in daemon.hub.state()["table"]["log"]] == ["press", "cards_seen"]
    counted = daemon.hardware.card_sensor.total
    assert counted == daemon.hardware.ejector.cards_fired >= 2
    snap = daemon.hub.state()["table"]
    assert snap["players"][1]["hand"] == 7 + counted
    assert snap["magazine"] == 112 - 4 * 7 - 1 - counted


def test_presses_during_an_ejection_are_queued_not_lost(make_daemon):
    daemon = make_daemon(LauncherConfig(profile="fixed", fixed_cards=3))
    for _ in range(8):
        press(daemon)  # much faster than the feed fires 3 cards
    settled(daemon)  # the press was queued as its edge came: now handled
    assert daemon.hub.state()["table"]["events"] == 8
    assert daemon.hardware.wait_idle(timeout=30)
    assert daemon.hardware.ejector.cards_fired == 24
    magazine = daemon.hub.state()["table"]["magazine"]
    assert magazine == 112 - 4 * 7 - 1 - 24  # the Extrême deck, dealt


def test_bounce_within_window_is_one_press(make_daemon):
    daemon = make_daemon()
    pin = daemon.hardware.hit_button.pin
    for _ in range(5):  # contact bounce: five edges in a few milliseconds
        pin.drive_low()
        pin.drive_high()
    settled(daemon)
    assert daemon.hub.state()["table"]["events"] == 1


def test_refused_press_sounds_error(make_daemon, monkeypatch):
    daemon = make_daemon()
    daemon.hub.dispatch("table.round_won", {"player": "Alice"})
    cues: list[str] = []
    execute = daemon.hardware.execute

    def recording(commands: list[Any]) -> None:
        cues.extend(c.name for c in commands if isinstance(c, Cue))
        execute(commands)

    monkeypatch.setattr(daemon.hardware, "execute", recording)
    press(daemon)
    assert wait_for(lambda: cues == ["error"])
    assert daemon.hub.state()["table"]["events"] == 1  # only the round_won


def test_table_survives_a_restart(tmp_path: Path):
    config = Config(table=TableConfig(players=["Zoé", "Yann"]))
    opts = options(tmp_path)
    first = Daemon(config, opts).start()
    first.hub.dispatch("table.setup", {"players": ["Ana", "Ben", "Cyd"], "dealer": "Ben"})
    first.hub.dispatch("table.rules", {"deck": "flip", "lotso_presses": 2})
    first.hub.dispatch("table.reload", {"cards": 33})
    first.hub.dispatch("device.calibrate_seat", {"seat": 1, "angle": 42})
    first.stop()
    second = Daemon(config, opts).start()
    try:
        snap = second.hub.state()["table"]
        assert [p["name"] for p in snap["players"]] == ["Ana", "Ben", "Cyd"]
        assert snap["dealer"] == "Ben" and snap["magazine"] == 33
        assert snap["rules"] == {"deck": "flip", "lotso_presses": 2}  # house rules kept
        assert second.hardware.turret.seat_angles[1] == 42
    finally:
        second.stop()


def test_virtual_hit_drives_the_mock_pin(make_daemon):
    daemon = make_daemon()
    before = daemon.hardware.hit_button.presses
    daemon.hub.dispatch("device.hit", {})
    settled(daemon)  # the press was queued as its edge came: now handled
    assert daemon.hub.state()["table"]["events"] == 1
    assert daemon.hardware.hit_button.presses == before + 1  # it went through the button


def test_a_virtual_hit_the_debounce_drops_is_answered_as_dropped(make_daemon):
    # The longest debounce window, so the second tap falls in it however busy the machine.
    daemon = make_daemon(hardware={"pins": {"card_sensor": -1}, "debounce_ms": 500})
    daemon.hub.dispatch("device.hit", {})
    with pytest.raises(ActionError) as dropped:  # a moment later: the button is still down
        daemon.hub.dispatch("device.hit", {})
    assert dropped.value.key == "errors.press_dropped" and dropped.value.status == 429
    settled(daemon)  # the press was queued as its edge came: now handled
    assert daemon.hub.state()["table"]["events"] == 1
    assert daemon.hardware.hit_button.presses == 1  # one press taken, one refused, none lost


def test_bad_hardware_config_is_a_clear_startup_error(tmp_path: Path):
    from companion.daemon import StartupError

    config = Config(hardware=HardwareConfig(pins=PinsConfig(hit="seventeen")))
    with pytest.raises(StartupError, match=r"hardware\.pins\.hit"):
        Daemon(config, options(tmp_path)).start()


def test_sigterm_stops_cleanly_and_flushes_state(tmp_path: Path):
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--backend", "mock", "--no-voice",
         "--host", "127.0.0.1", "--port", "0", "--state-dir", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
    )  # fmt: skip
    assert proc.stdout is not None
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if "table ready at" in line:
            break
    proc.send_signal(signal.SIGTERM)
    try:
        out, _ = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()  # not left running into the next test
        proc.communicate()
        raise
    assert proc.returncode == 0, "".join(lines) + out
    assert "Traceback" not in out
    from companion.storage import Storage
    from companion.storage.table_log import DB_NAME, TableLog

    assert not Path(f"{tmp_path / DB_NAME}-wal").exists()  # folded into the file at the stop
    with TableLog.open(tmp_path) as table:
        checkpoint, lines, _ = table.read()
        seats = checkpoint["state"]["seats"]
        assert [seat["name"] for seat in seats] == ["Alice", "Bruno", "Chloé", "David"]
        assert lines == []  # the stop's checkpoint holds the table as it stood
    with Storage.open(tmp_path) as storage:
        assert storage.integrity_check() == "ok"


def test_missing_backend_is_one_clear_message(tmp_path: Path):
    result = subprocess.run(
        [sys.executable, "-m", "companion", "run", "--backend", "pigpio", "--no-web",
         "--no-voice", "--state-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 2
    assert "pigpio" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_systemd_ready_and_watchdog(tmp_path: Path, monkeypatch):
    """Type=notify: READY=1 once up, WATCHDOG=1 while the hub answers, STOPPING=1 at the end."""
    import socket
    import threading

    path = str(tmp_path / "notify.sock")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(path)
    server.settimeout(5)
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "100000")
    daemon = Daemon(Config(), options(tmp_path))
    daemon.start()
    waiter = threading.Thread(target=daemon.wait)
    waiter.start()
    messages = [server.recv(64).decode() for _ in range(3)]
    daemon.stop()
    waiter.join(timeout=5)
    server.setblocking(False)  # stop() has sent its messages: read what is there, no more
    rest = []
    with contextlib.suppress(BlockingIOError):
        while True:
            rest.append(server.recv(64).decode())
    server.close()
    assert messages[0] == "READY=1"
    assert messages[1:] == ["WATCHDOG=1", "WATCHDOG=1"]
    assert "STOPPING=1" in rest


def test_turret_gets_a_seat_for_every_player_after_reseating(make_daemon):
    daemon = make_daemon()
    names = ["A", "B", "C", "D", "E", "F"]
    daemon.hub.dispatch("table.setup", {"players": names})
    assert len(daemon.hardware.turret.seat_angles) == 6
    daemon.hub.dispatch("table.press", {})  # B presses: the turret turns to C, seat 2
    assert daemon.hardware.wait_idle(timeout=10, sound=False)
    daemon.hub.dispatch("table.play", {"card": "skip"})  # C skips D: E (seat 4) plays
    assert daemon.hardware.wait_idle(timeout=10, sound=False)
    assert daemon.hardware.turret.seat == 4


def test_phone_settings_survive_a_restart(tmp_path: Path):
    opts = options(tmp_path)
    first = Daemon(Config(), opts).start()
    first.hub.dispatch("settings.update", {"language": "en", "profile": "gentle"})
    first.stop()
    second = Daemon(Config(), opts).start()
    try:
        settings = second.hub.state()["settings"]
        assert settings["language"] == "en" and settings["profile"] == "gentle"
    finally:
        second.stop()


def test_optional_buttons_play_cards(tmp_path: Path):
    """NEXT = "I played a card", REVERSE and SKIP: the card is played by the active player."""
    hardware = {"pins": {"next": 5, "reverse": 6, "skip": 26}}
    config = parse_config({"hardware": hardware})
    opts = options(tmp_path)
    daemon = Daemon(config, opts).start()
    try:
        for name in ("next", "reverse", "skip"):
            press(daemon, name)
        settled(daemon)  # the press was queued as its edge came: now handled
        assert daemon.hub.state()["table"]["events"] == 3
        snap = daemon.hub.state()["table"]
        # Bruno played (Chloé's turn), Chloé reversed (back to Bruno), Bruno skipped Alice.
        assert snap["direction"] == "right" and snap["active"] == "David"
        assert [p["hand"] for p in snap["players"]] == [7, 5, 6, 7]
    finally:
        daemon.stop()


def test_reload_clears_a_reported_jam(tmp_path: Path):
    config = parse_config({"hardware": {"pins": {"card_sensor": 25}}})
    opts = options(tmp_path)
    daemon = Daemon(config, opts).start()
    try:
        daemon.hardware.card_path.faults = {0: "jam"}  # the first card never reaches the beam
        daemon.hub.dispatch("device.test_fire", {"cards": 1})
        assert wait_for(lambda: daemon.hub.state()["device"]["jam"] is True)
        assert wait_for(lambda: daemon.hub.state()["table"]["jam"] is True)
        assert daemon.hub.state()["table"]["jam_fault"] == "jam"
        daemon.hub.dispatch("table.reload", {})
        state = daemon.hub.state()
        assert state["device"]["jam"] is False and state["table"]["jam"] is False
    finally:
        daemon.stop()


class BusyLauncher:
    """A launcher that never becomes idle (a long burst still running)."""

    turning = True  # and its turret turning all the while

    def __init__(self) -> None:
        self.asked = threading.Event()
        self._never = threading.Event()

    def wait_idle(self, timeout: float | None = None, *, sound: bool = True) -> bool:
        self.asked.set()
        return self._never.wait(timeout)


def test_stopping_does_not_wait_for_the_launcher_to_finish_moving() -> None:
    launcher = BusyLauncher()
    moved = threading.Event()
    watcher = MotionWatcher(launcher, moved)
    before = set(threading.enumerate())
    watcher.start(None)  # type: ignore[arg-type]  (it never gets as far as the door)
    (thread,) = set(threading.enumerate()) - before
    moved.set()
    assert launcher.asked.wait(5)  # the watcher waits for the motion to end
    watcher.close()
    assert not thread.is_alive()


@pytest.mark.parametrize(
    ("action", "payload", "moved"),
    [
        ("device.test_fire", {"cards": 2}, lambda d: d["cards_fired"] == 2),
        # Seat 3: the launcher faces the active player (seat 1) since the start.
        ("device.face", {"seat": 3}, lambda d: d["turret_angle"] == d["seat_angles"][3]),
    ],
)
def test_the_phones_hear_when_a_device_action_has_finished_moving(
    make_daemon, action, payload, moved
):
    """A test fire or a turn from the Launcher screen moves the launcher after the action's
    answer: the phones must be told again once it has stopped, with what it did."""
    daemon = make_daemon()
    wait_for(daemon.hardware.wait_idle, what="the start-up movements")
    settled(daemon)
    daemon.hub.dispatch(action, payload)
    during = daemon.hub.state()["device"]  # what a phone reads while the launcher moves
    assert not daemon.hardware.wait_idle(timeout=0)
    assert not moved(during)
    subscription = daemon.hub.subscribe()
    try:
        assert daemon.hardware.wait_idle(timeout=10)
        notice = subscription.get(5)
        assert notice is not None and notice["section"] == "device"
        assert moved(daemon.hub.state()["device"])
    finally:
        subscription.close()


def test_no_engine_access_off_the_hub_thread_during_a_simulated_evening(tmp_path: Path):
    """Pins, phone actions, settings, scores, device actions and a restart with saved settings:
    the guarded engine records every touch off the hub thread while the hub runs."""
    config = parse_config({"hardware": {"pins": {"next": 5, "reverse": 6, "skip": 26}}})
    opts = options(tmp_path)
    first = Daemon(config, opts).start()
    try:
        first.hub.dispatch("settings.update", {"profile": "gentle", "language": "en"})
        first.hub.dispatch("score.new_game", {"ruleset": "extreme", "target": 500})
        first.hub.dispatch("device.test_fire", {"cards": 1})  # before the round's first press
        for name in ("hit", "next", "reverse", "skip", "hit"):
            press(first, name)
        first.hub.dispatch("device.hit", {})
        first.hub.dispatch("table.play", {"card": "skip", "colour": "red"})
        first.hub.dispatch("table.reload", {"cards": 50})
        # 8 inputs, and the beam's count after each firing (the box's own events)
        assert wait_for(lambda: first.hub.state()["table"]["events"] >= 8)
        assert first.hardware.wait_idle(timeout=10)
        settled(first)
        events = first.hub.state()["table"]["events"]
    finally:
        first.stop()
    second = Daemon(config, opts).start()  # the saved profile is applied as it starts
    try:
        press(second)
        settled(second)  # the press was queued as its edge came: now handled
        assert second.hub.state()["table"]["events"] > events
        assert second.hub.state()["settings"]["profile"] == "gentle"
    finally:
        second.stop()
    assert first.hub.off_thread == [] and second.hub.off_thread == []


def test_stop_closes_the_hardware_only_after_the_hub_has_drained(make_daemon, monkeypatch):
    daemon = make_daemon(LauncherConfig(profile="fixed", fixed_cards=1))
    settled(daemon)
    hardware = daemon.hardware
    ejected: list[int] = []
    closed: list[tuple[str, int, int]] = []
    execute, close = hardware.execute, hardware.close

    def recording(commands: list[Any]) -> None:
        ejected.extend(c.cards for c in commands if isinstance(c, Eject))
        execute(commands)

    def closing() -> None:
        closed.append((daemon.hub.phase, daemon.hub.engine.events_handled, len(ejected)))
        close()

    monkeypatch.setattr(hardware, "execute", recording)
    monkeypatch.setattr(hardware, "close", closing)
    release = threading.Event()
    daemon.hub.call(lambda: release.wait(5))  # the hub is busy: the presses wait in its queue
    queued = [daemon.post(Press()) for _ in range(5)]
    stopper = threading.Thread(target=daemon.stop)
    stopper.start()
    assert wait_for(lambda: daemon.hub.phase == "stopping")
    assert closed == []  # the hardware waits for the hub
    release.set()
    stopper.join(timeout=10)
    assert [f.result(timeout=0).fired for f in queued] == [1] * 5
    assert closed == [("stopped", 5, 5)]  # every queued press fired before the launcher closed


class ReplayedCamera:
    """A camera stand-in: one more input source, plugged in with no change elsewhere."""

    def __init__(self, hub_phase: Any) -> None:
        self._hub_phase = hub_phase
        self.door: InputDoor | None = None
        self.phases: list[str] = []  # the hub's phase when started, then when closed

    def start(self, door: InputDoor) -> None:
        self.phases.append(self._hub_phase())
        self.door = door

    def close(self) -> None:
        self.phases.append(self._hub_phase())

    def read(self, read: CardRead) -> Any:
        assert self.door is not None
        return self.door.take(read)


def test_a_camera_plugs_into_the_door_as_one_more_source(tmp_path: Path):
    holder: list[Daemon] = []
    camera = ReplayedCamera(lambda: holder[0].hub.phase)
    daemon = Daemon(Config(), options(tmp_path, inputs=[camera]))
    holder.append(daemon)
    daemon.start()
    try:
        assert camera.read(CardRead("skip", "red", sure=False)) is None  # unsure: nothing moves
        outcome = camera.read(CardRead("skip", "red")).result(timeout=5)
        assert outcome.event == "play" and outcome.source == "camera"
        assert daemon.hardware.wait_idle(timeout=10, sound=False)
        assert daemon.hardware.turret.seat == 3  # Bruno skipped Chloé: David plays
    finally:
        daemon.stop()
    assert camera.phases == ["running", "running"]  # started after the hub, closed before it


def test_terminal_keys_come_in_by_the_door_with_their_source(make_daemon):
    from companion.terminal import TerminalTable

    daemon = make_daemon()
    heard: list[tuple[str, str]] = []

    class Heard:
        def on_outcome(self, outcome: Any) -> None:
            heard.append((outcome.event, outcome.source))

    daemon.hub.add_listener(Heard())  # (made on the hub thread: it runs)
    table = TerminalTable(daemon)
    table.key("c")  # "play number", a script line
    table.key(" ")  # the HIT button's mock pin
    time.sleep(DEBOUNCE + 0.01)
    table.key("l")  # "reload"
    settled(daemon)
    assert heard == [("play", "script"), ("press", "button"), ("reload", "script")]


def test_the_pages_hit_on_a_box_is_a_phones_press_and_its_refusal_the_answer(tmp_path: Path):
    from companion.core.errors import ActionError

    daemon = Daemon(Config(), options(tmp_path, simulate=False, backend="mock")).start()
    try:
        heard: list[str] = []

        class Heard:
            def on_outcome(self, outcome: Any) -> None:
                heard.append(outcome.source)

        daemon.hub.add_listener(Heard())
        assert daemon.hub.dispatch("device.hit", {})["table"]["events"] == 1  # handled at once
        assert heard == ["phone"]
        daemon.hub.dispatch("table.round_won", {"player": "Alice"})
        with pytest.raises(ActionError) as err:
            daemon.hub.dispatch("device.hit", {})
        assert err.value.key == "errors.round_over"
    finally:
        daemon.stop()


# A daemon told to stop by a signal that lands while its main thread is inside wait()'s own
# waiting, at the worst moment: the first step of a Condition.wait, its lock held.
SIGNAL_IN_WAIT = """
import logging, signal, sys, threading
from pathlib import Path
from companion.config import Config
from companion.daemon import Daemon, DaemonOptions

logging.basicConfig(level=logging.INFO)
daemon = Daemon(Config(), DaemonOptions(simulate=True, state_dir=Path(sys.argv[1]), web=False,
                                        voice=False)).start()
daemon.install_signal_handlers()
raised = []

def trace(frame, event, arg):
    if not raised and event == "call" and frame.f_code is threading.Condition.wait.__code__:
        raised.append(True)
        signal.raise_signal(signal.SIGTERM)  # handled at the next step, the lock still held
    return None

# No Condition.wait on the main thread (wait() may watch a pipe instead): signalled anyway.
threading.Timer(2.0, lambda: raised or signal.raise_signal(signal.SIGTERM)).start()
sys.settrace(trace)
try:
    daemon.wait()
finally:
    sys.settrace(None)
    daemon.stop()
print("stopped")
"""


def test_a_signal_during_wait_stops_the_daemon(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", SIGNAL_IN_WAIT, str(tmp_path)],
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith("stopped")
    assert "signal 15: stopping" in result.stderr
