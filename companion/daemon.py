"""The daemon: configuration → engine and hub → devices, voice, storage, phone page.

This is the composition root, Mopidy-style: it builds every part, connects it to the hub
(inputs in, commands and change notices out), starts them in order and takes them down in the
reverse order. What each part does lives in :mod:`companion.app` and the adapters. The same code
runs on a Raspberry Pi (``uno-companion run``) and on a laptop (``uno-companion simulate``, on
gpiozero's mock pins).
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from companion.app.device_actions import DeviceActions
from companion.app.evening import EveningService
from companion.app.hub import Hub
from companion.app.motion import MotionWatcher
from companion.app.notifier import SystemdNotifier
from companion.app.players import PlayerNames
from companion.app.score_storage import ScoreStorage
from companion.app.settings import Settings
from companion.config import Config, ConfigError, table_engine
from companion.core.commands import Cue
from companion.core.events import Event
from companion.core.table import TableEngine
from companion.i18n import Catalog

log = logging.getLogger("companion.daemon")


@dataclass
class DaemonOptions:
    state_dir: Path  # where the score database lives (see companion.locations)
    simulate: bool = False
    backend: str | None = None  # None: the [hardware] backend ("mock" when simulating)
    seed: int = 0
    web: bool = True
    voice: bool = True
    host: str | None = None
    port: int | None = None
    voice_player: Any = None  # tests: where speech and cue WAVs go instead of aplay
    engine_factory: str | None = None  # tests: a fake speech engine
    motion_clock: Any = None  # tests: the clock ejector, turret and buzzer pace their steps on


def score_storage(
    hub: Hub, engine: TableEngine, state_dir: Path, **open_options: Any
) -> ScoreStorage:
    """The score storage kept in ``state_dir`` (not started); ``open_options`` go to
    :meth:`companion.storage.Storage.open`."""
    from companion import storage

    return ScoreStorage(
        hub,
        engine,
        open_storage=lambda: storage.Storage.open(state_dir, **open_options),
        restore_backup=lambda name: storage.restore_named_backup(state_dir, name),
        list_backups=lambda: storage.describe_backups(state_dir),
    )


class StartupError(RuntimeError):
    """The daemon cannot start; the message says what to fix."""


class Daemon:
    """Everything that runs on the box, started and stopped as one."""

    def __init__(self, config: Config, options: DaemonOptions) -> None:
        self.config = config
        self.options = options
        self.catalog = Catalog.load()
        self.engine = table_engine(config, options.seed)
        self.hub = Hub(self.engine)
        self.storage: Any = None  # the settings store of the services (the scores' database)
        self.scores: ScoreStorage | None = None
        self.hardware: Any = None
        self.pin_factory: Any = None
        self.devices: DeviceActions | None = None
        self.voice: Any = None
        self.settings: Settings | None = None
        self.web_server: Any = None
        self.box_buttons: Any = None
        self.hold_watcher: Any = None
        self.url: str | None = None
        self.urls: list[str] = []
        self._notifier = SystemdNotifier()
        self._stopped = threading.Event()  # set by a signal or stop(): leave wait()
        self._closed = False
        self._closers: list[Callable[[], None]] = []

    # ------------------------------------------------------------------ start and stop

    def start(self) -> Daemon:
        """Build and start every part; raises :class:`StartupError` with a clear message."""
        try:
            self._start_storage()
            self.hub.start()
            self._closers.append(self.hub.stop)
            self._start_hardware()
            if self.options.voice:
                self._start_voice()
            self.settings = Settings(self.hub, self.engine, self.config, self.storage, self.voice)
            self.settings.attach()
            evening = EveningService(self.hub, self.storage)
            evening.attach()
            PlayerNames(self.hub, self.scores, evening).attach()
            self.hub.register_status("device", self._device_status)
            if self.options.web:
                self._start_web()
            self._start_box_buttons()
        except BaseException:
            self.stop()
            raise
        self._notifier.send("READY=1")
        self.hub.call(lambda: self.devices.execute([Cue("start")]) if self.devices else None)
        return self

    def stop(self) -> None:
        """Servos detached, buzzer silent, state flushed; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        self._stopped.set()
        self._notifier.send("STOPPING=1")
        for close in reversed(self._closers):
            try:
                close()
            except Exception:
                log.exception("error while stopping")
        self._closers.clear()

    def _start_storage(self) -> None:
        self.scores = score_storage(self.hub, self.engine, self.options.state_dir)
        # Closed after the hub has stopped (closers run in reverse): the table is saved last.
        self._closers.append(self.scores.close)
        self.scores.start()
        self.storage = self.scores

    def _start_hardware(self) -> None:
        from companion.devices import (
            BackendUnavailable,
            LauncherHardware,
            hardware_config,
            make_pin_factory,
        )

        try:
            hw = hardware_config(self.config)
        except ConfigError as exc:
            raise StartupError(str(exc)) from exc
        backend = self.options.backend or ("mock" if self.options.simulate else hw.backend)
        try:
            self.pin_factory = make_pin_factory(backend)
        except BackendUnavailable as exc:
            raise StartupError(str(exc)) from exc
        if backend == "mock":
            self._closers.append(self.pin_factory.close)  # after the parts that use its pins
        kwargs: dict[str, Any] = {}
        if self.options.motion_clock is not None:
            kwargs["motion_clock"] = self.options.motion_clock
        self.hardware = LauncherHardware(
            hw, self.pin_factory, seats=len(self.engine.state.seats), **kwargs
        )
        self._closers.append(self.hardware.close)
        self.devices = DeviceActions(
            self.hub, self.hardware, self.storage, simulate=self.options.simulate
        )
        self.devices.attach()
        watcher = MotionWatcher(self.hub, self.hardware, self.devices.moved)
        watcher.start()
        self._closers.append(watcher.stop)

    def _start_voice(self) -> None:
        from companion.speech import Voice, load_speech_config

        try:
            config = load_speech_config(self.config.extra)
        except ConfigError as exc:
            raise StartupError(str(exc)) from exc
        kwargs: dict[str, Any] = {}
        if self.options.voice_player is not None:
            kwargs["player"] = self.options.voice_player
        if self.options.engine_factory is not None:
            kwargs["engine_factory"] = self.options.engine_factory
        self.voice = Voice(config, self.catalog, self.config.table.language, **kwargs)
        self._closers.append(self.voice.close)

    def _start_web(self) -> None:
        from companion.web import create_app, parse_web_config, serve
        from companion.web.lan import page_urls

        try:
            config = parse_web_config(self.config.extra)
        except ConfigError as exc:
            raise StartupError(str(exc)) from exc
        if self.options.host is not None:
            config = replace(config, host=self.options.host)
        if self.options.port is not None:
            config = replace(config, port=self.options.port)
        app = create_app(self.hub, config, self.catalog)
        try:
            self.web_server = serve(app, config)
        except OSError as exc:
            raise StartupError(
                f"cannot serve the phone page on {config.host}:{config.port}: {exc}"
            ) from exc
        self._closers.append(self.web_server.stop)
        # The address phones use: the LAN address when listening everywhere, then host.local.
        self.urls = page_urls(config.host, self.web_server.port)
        self.url = self.urls[0]

    def _start_box_buttons(self) -> None:
        """HIT held: the address aloud; the shutdown button held: a clean power-off."""
        from companion.app.box_buttons import POWEROFF, BoxButtons, HoldWatcher
        from companion.devices import NO_PIN, TableButton, hardware_config

        if self.hardware is None:
            return
        hit = self.hardware.hit_button
        pressed = {"hit": lambda: bool(hit.is_pressed)}
        pin = hardware_config(self.config).pins.shutdown
        if pin != NO_PIN:
            button = TableButton("shutdown", pin, factory=self.pin_factory)
            self._closers.append(button.close)
            pressed["shutdown"] = lambda: bool(button.is_pressed)

        def speak(commands: list[Any]) -> None:
            if self.devices is not None:
                self.hub.call(lambda: self.devices.execute(commands) if self.devices else None)
            if self.voice is not None:
                for command in commands:
                    self.voice.handle(command)

        simulate = self.options.simulate
        self.box_buttons = BoxButtons(
            speak, lambda: self.urls, poweroff=None if simulate else POWEROFF
        )
        self.hold_watcher = HoldWatcher(pressed, self.box_buttons.on_held)
        self.hold_watcher.start()
        self._closers.append(self.hold_watcher.stop)
        if not simulate:
            self.box_buttons.say_address()  # at boot: how the first phone finds the table

    def _device_status(self) -> dict[str, Any]:
        status: dict[str, Any] = {"simulated": self.options.simulate, "url": self.url}
        if self.devices is not None:
            status.update(self.devices.status())
        if self.settings is not None:
            status.update(self.settings.voice_status())
        return status

    # ------------------------------------------------------------------ running

    def post(self, event: Event) -> Future[Any]:
        """A physical input (button, terminal key) as the launcher's buttons post it."""
        assert self.devices is not None, "post() needs a started daemon"
        return self.devices.post(event)

    def wait(self) -> None:
        """Run until stopped (SIGTERM/SIGINT), pinging the systemd watchdog while healthy."""
        interval = self._notifier.watchdog_interval
        while not self._stopped.wait(interval or 5.0):
            if interval and self.healthy():
                self._notifier.send("WATCHDOG=1")

    def healthy(self) -> bool:
        """The hub thread answers within a second and the GPIO backend (pigpiod) is there: if
        not, the watchdog stops being fed and systemd restarts the service."""
        from companion.devices.backends import backend_alive

        try:
            self.hub.call(lambda: None).result(timeout=1.0)
        except Exception:
            log.error("the table stopped answering: the watchdog will restart the service")
            return False
        if self.pin_factory is not None and not backend_alive(self.pin_factory):
            log.error("the GPIO backend is gone (pigpiod stopped?): the watchdog will restart")
            return False
        return True

    def install_signal_handlers(self) -> None:
        def on_signal(signum: int, frame: object) -> None:
            log.info("signal %d: stopping", signum)
            self._stopped.set()

        signal.signal(signal.SIGTERM, on_signal)
        signal.signal(signal.SIGINT, on_signal)

    @property
    def stopping(self) -> bool:
        return self._stopped.is_set()
