"""The service's own safeguards: back-off in a crash loop, the watchdog when pigpiod is gone,
one set of seat angles for `calibrate` and the page."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from companion.app.restarts import restart_delay
from companion.cli.calibrate import save_seat_angles_in_database
from companion.devices.backends import BackendProbe, backend_alive


def test_quick_restarts_wait_longer_each_time_then_reset(tmp_path: Path) -> None:
    delays = [restart_delay(tmp_path, 1000.0 + 10 * i) for i in range(8)]
    assert delays == [0.0, 2.0, 4.0, 8.0, 16.0, 32.0, 60.0, 60.0]
    # Five quiet minutes later the box starts at once again.
    assert restart_delay(tmp_path, 1070.0 + 301.0) == 0.0
    assert restart_delay(tmp_path / "missing", 0.0) == 0.0  # nowhere to count: no wait


class PiGPIOFactory:  # named like gpiozero's, so backend_name() calls it pigpio
    host = "localhost"
    port = 8888


class Probe(BackendProbe):
    def __init__(self, running: bool) -> None:
        super().__init__(pigpio_address=("localhost", 8888))
        self.running = running

    def pigpiod_running(self) -> bool:
        return self.running


def test_watchdog_health_follows_pigpiod() -> None:
    from gpiozero.pins.mock import MockFactory

    assert backend_alive(PiGPIOFactory(), Probe(True))
    assert not backend_alive(PiGPIOFactory(), Probe(False))
    assert backend_alive(MockFactory(), Probe(False))  # in-process libraries cannot vanish


def test_daemon_stops_feeding_the_watchdog_when_pigpiod_is_gone(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from companion.config import Config
    from companion.daemon import Daemon, DaemonOptions

    daemon = Daemon(Config(), DaemonOptions(state_dir=Path("/nonexistent")))
    daemon.hub.start()
    try:
        assert daemon.healthy()
        daemon.pin_factory = PiGPIOFactory()
        alive = {"now": True}
        monkeypatch.setattr(
            "companion.devices.backends.BackendProbe.pigpiod_running", lambda self: alive["now"]
        )
        assert daemon.healthy()
        alive["now"] = False
        with caplog.at_level(logging.ERROR):
            assert not daemon.healthy()
        assert "pigpiod" in caplog.text
    finally:
        daemon.hub.stop()


def test_calibrate_updates_the_angles_the_page_saved(tmp_path: Path) -> None:
    from companion.app.device_actions import SEAT_ANGLES_KEY
    from companion.storage import Storage

    assert "no table database" in save_seat_angles_in_database(tmp_path, [10.0])
    store: Any = Storage.open(tmp_path)
    store.settings_put(SEAT_ANGLES_KEY, [30.0, 60.0])  # set from the phone page
    store.close()
    message = save_seat_angles_in_database(tmp_path, [12.04, 95.0, 170.0])
    assert "restart the service" in message
    store = Storage.open(tmp_path)
    try:
        assert store.settings_get(SEAT_ANGLES_KEY) == [12.0, 95.0, 170.0]
    finally:
        store.close()


def test_a_hold_counts_once_and_a_short_press_never() -> None:
    from companion.app.box_buttons import HoldWatcher

    down = {"hit": False, "shutdown": False}
    held: list[str] = []
    watcher = HoldWatcher({k: (lambda k=k: down[k]) for k in down}, held.append, hold_s=3.0)
    down["hit"] = True
    for t in (0.0, 1.0, 2.9):
        watcher.tick(t)
    down["hit"] = False  # released before 3 s: a normal press
    watcher.tick(3.5)
    assert held == []
    down["shutdown"] = True
    for t in (10.0, 12.0, 13.0, 14.0, 20.0):
        watcher.tick(t)
    assert held == ["shutdown"]  # once per hold, however long
    down["shutdown"] = False
    watcher.tick(21.0)
    down["shutdown"] = True
    watcher.tick(22.0)
    watcher.tick(25.0)
    assert held == ["shutdown", "shutdown"]


def test_holding_hit_says_the_address_and_shutdown_powers_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from companion.app import box_buttons
    from companion.app.box_buttons import BoxButtons
    from companion.core.commands import Say
    from companion.i18n import Catalog

    monkeypatch.setattr(box_buttons.time, "sleep", lambda s: None)
    spoken: list[Any] = []
    ran: list[list[str]] = []
    box = BoxButtons(
        spoken.extend,
        lambda: ["http://192.168.1.20:8080/", "http://uno.local:8080/"],
        run=lambda argv, **kw: ran.append(argv),
    )
    box.on_held("hit")
    say = next(c for c in spoken if isinstance(c, Say))
    text = Catalog.load().text(say.key, "fr", say.params)
    assert text == "Adresse de la table : 192 point 168 point 1 point 20, port 8080."
    assert ran == []
    box.on_held("shutdown")
    assert ran == [["systemctl", "poweroff"]]
    assert any(isinstance(c, Say) and c.key == "box.shutting_down" for c in spoken)
    quiet = BoxButtons(spoken.extend, lambda: ["http://127.0.0.1:8080/"], poweroff=None)
    quiet.on_held("shutdown")  # a simulation never powers the laptop off
    quiet.say_address()
    assert spoken[-1].key == "box.no_address"


def test_daemon_watches_the_shutdown_button_on_gpio3(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    import time

    from companion.config import Config
    from companion.daemon import Daemon, DaemonOptions

    options = DaemonOptions(simulate=True, state_dir=tmp_path, web=False, voice=False)
    daemon = Daemon(Config(), options).start()
    try:
        daemon.pin_factory.pin(3).drive_low()  # held down...
        now = time.monotonic()
        assert daemon.long_presses is not None and daemon.long_presses.watcher is not None
        watcher = daemon.long_presses.watcher
        with caplog.at_level(logging.WARNING):
            watcher.tick(now)
            watcher.tick(now + 3.1)  # ...for three seconds
        assert "shutdown button held" in caplog.text
        daemon.pin_factory.pin(3).drive_high()
    finally:
        daemon.stop()


def test_page_angles_that_differ_from_the_config_are_reported(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from companion.app.device_actions import SEAT_ANGLES_KEY
    from companion.config import parse_config
    from companion.daemon import Daemon, DaemonOptions
    from companion.storage import Storage

    store: Any = Storage.open(tmp_path)
    store.settings_put(SEAT_ANGLES_KEY, [30.0, 60.0, 120.0, 150.0])
    store.close()
    config = parse_config({"hardware": {"turret": {"seat_angles": [20.0, 70.0, 110.0, 160.0]}}})
    options = DaemonOptions(simulate=True, state_dir=tmp_path, web=False, voice=False)
    with caplog.at_level(logging.WARNING):
        daemon = Daemon(config, options).start()
    try:
        assert "replace the config's [20.0, 70.0, 110.0, 160.0]" in caplog.text
        assert daemon.hardware.turret.seat_angles[:2] == [30.0, 60.0]
    finally:
        daemon.stop()


def test_terminal_qr_code(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli.common import print_qr

    print_qr(["http://192.168.1.20:8080/"])
    out = capsys.readouterr().out
    assert out.startswith("scan to open http://192.168.1.20:8080/")
    assert len(out.splitlines()) > 10 and "█" in out
