"""The daemon: configuration → engine and hub → devices, voice, storage, phone page.

This is the composition root, Mopidy-style: it builds every part and starts them in one order,
then takes them down in exactly the reverse order (see ``docs/architecture.md``):

1. the configuration, every section checked before anything is built;
2. the outputs and stores: the score database, the table's memory (the table put back), the
   launcher's hardware, the voice; built, but driven by nobody yet;
3. the services attach to the hub: their actions, statuses and listeners;
4. the hub starts: from now on one thread owns the engine;
5. the input sources start, each with the door (:class:`~companion.app.inputs.InputDoor`): the
   launcher's buttons and card sensor, the motion watcher, the phone page, the long presses,
   the camera (its own thread reads the frames; only the plays it decides reach the hub).

Stopping: the inputs close (no new notice), the hub drains what is queued and stops, then the
outputs close (the hardware parks, the voice goes quiet, the table is saved one last time).
The same code runs on a Raspberry Pi (``uno-companion run``) and on a laptop
(``uno-companion simulate``, on gpiozero's mock pins).
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import signal
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from companion.app.box_buttons import POWEROFF, LongPresses
from companion.app.camera import Camera, CameraService, Pictures
from companion.app.device_actions import DeviceActions
from companion.app.evening import EveningService
from companion.app.hub import Hub, Service
from companion.app.inputs import InputDoor, InputSource
from companion.app.motion import MotionWatcher
from companion.app.notifier import SystemdNotifier
from companion.app.players import PlayerNames
from companion.app.round_count import RoundCount
from companion.app.saved_settings import SavedSettings
from companion.app.score_storage import ScoreStorage
from companion.app.scorekeeper import ScoreKeeper
from companion.app.settings import Settings
from companion.app.stored_games import StoredGames
from companion.app.stores import SettingsStore
from companion.app.table_memory import TableMemory
from companion.app.voice import VoiceService
from companion.config import Config, ConfigError, check_config
from companion.core.commands import Cue
from companion.core.events import Event, Source
from companion.core.table import TableEngine
from companion.i18n import Catalog

if TYPE_CHECKING:
    from companion.devices import Clock, LauncherHardware
    from companion.speech import Voice
    from companion.speech.output import Player
    from companion.web.server import WebServer

log = logging.getLogger("companion.daemon")


class Closable(Protocol):
    def close(self) -> None: ...


Part = TypeVar("Part", bound="Closable")


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
    voice_player: Player | None = None  # tests: where speech and cue WAVs go instead of aplay
    engine_factory: str | None = None  # tests: a fake speech engine
    motion_clock: Clock | None = None  # tests: the clock the launcher paces its steps on
    check_thread: bool | None = None  # refuse any touch of the engine off the hub (None: $env)
    inputs: Sequence[InputSource] = field(default_factory=tuple)  # more sources
    camera_source: str | None = None  # a frame source instead of [camera] source (replays)
    camera_gate: Callable[[], bool] | None = None  # replays: each camera play waits for it
    camera_realtime: bool = True  # a folder of frames replayed at the pace it was filmed
    camera: Camera | None = None  # tests: this camera instead of [camera]'s
    # Builds the camera for a frame source and the checked configuration (None: the vision
    # model's Eye, which needs the camera extra); tests give one that fails or fakes it.
    camera_factory: Callable[[str, Config], Camera] | None = None
    # These pins instead of the backend's (benches: a mock factory whose pins note their
    # changes); whoever passes it closes it.
    pin_factory: Any = None


def table_engine(
    config: Config, seed: int, clock: Callable[[], float] | None = None
) -> TableEngine:
    """The table engine for ``config``: its players, dealer, rules and launcher options;
    ``clock`` (e.g. ``time.time``) dates each line of the round's log."""
    return TableEngine(
        config.table.players,
        dealer=config.table.dealer or None,
        rules=config.rules,
        launcher=config.launcher,
        seed=seed,
        clock=clock,
    )


def score_storage(state_dir: Path, **open_options: Any) -> ScoreStorage:
    """The score storage kept in ``state_dir`` (not started); ``open_options`` go to
    :meth:`companion.storage.Storage.open`."""
    from companion import storage

    return ScoreStorage(
        open_storage=lambda: storage.Storage.open(state_dir, **open_options),
        restore_backup=lambda name, keep: storage.restore_named_backup(
            state_dir, name, keep_current=keep
        ),
        list_backups=lambda: storage.describe_backups(state_dir),
    )


def table_memory(hub: Hub, state_dir: Path, settings: SettingsStore | None = None) -> TableMemory:
    """The table's memory kept in ``state_dir`` (not restored): its log keeps the receipts of
    the phones' table actions with their lines, and the hub finds them for a retry."""
    from companion.storage.table_log import TableLog

    opened: list[TableLog] = []  # the log open now (a new one after a failure)

    def open_log() -> TableLog:
        table_log = TableLog.open(state_dir)
        table_log.receipt = hub.action_receipt
        opened[:] = [table_log]
        return table_log

    hub.add_receipt_finder(
        lambda scope, key: opened[0].find_receipt(scope, key) if opened else None
    )
    return TableMemory(open_log, hub.engine, settings)


def score_keeper(scores: ScoreStorage) -> ScoreKeeper:
    """The score keeper over ``scores``' database, reading it again after a restore."""
    keeper = ScoreKeeper(scores.database)
    scores.on_reopen(keeper.reopened)
    return keeper


CAMERA_EXTRA = "install it with: .venv/bin/pip install -e '.[camera]' (or make simulate)"


class StartupError(RuntimeError):
    """The daemon cannot start; the message says what to fix."""


class Daemon:
    """Everything that runs on the box, started and stopped as one."""

    def __init__(self, config: Config, options: DaemonOptions) -> None:
        self.config = config
        self.options = options
        self.catalog = Catalog.load()
        # Only the hub holds the engine; the log's lines carry the wall-clock time.
        engine = table_engine(config, options.seed, time.time)
        self.hub = Hub(engine, check_thread=options.check_thread)
        self.door = InputDoor(self.hub)  # the one way in for every input source
        self.scores: ScoreStorage | None = None
        self.keeper: ScoreKeeper | None = None
        self.memory: TableMemory | None = None
        self.pin_factory: Closable | None = None
        self.hardware: LauncherHardware | None = None
        self.devices: DeviceActions | None = None
        self.voice: Voice | None = None
        self.voice_service: VoiceService | None = None
        self.web_server: WebServer | None = None
        self.long_presses: LongPresses | None = None
        self.camera: CameraService | None = None
        self.urls: list[str] = []
        self._notifier = SystemdNotifier()
        self._stopped = threading.Event()  # set by stop(): leave wait()
        # A signal's handler only notes it and writes to a pipe wait() watches: it runs on the
        # main thread between two steps of whatever that thread does, maybe inside wait()'s own
        # Event.wait holding the event's lock, so an Event.set there could wait for ever.
        self._signalled: int | None = None
        self._wake: tuple[int, int] | None = None  # (read, write) once the handlers are in
        self._closed = False
        self._outputs: list[Closable] = []  # closed last, in reverse
        self._inputs: list[InputSource] = []  # started last, closed first, in reverse

    @property
    def url(self) -> str | None:
        return self.urls[0] if self.urls else None

    # ------------------------------------------------------------------ start and stop

    def start(self) -> Daemon:
        """Build and start every part in order; raises :class:`StartupError` with a clear
        message (everything already started is stopped again)."""
        try:
            sections = self._checked_sections()
            # Outputs and stores: built, not yet driven.
            self.scores = self._output(self._score_storage())
            self.memory = self._output(self._table_memory())
            self.hardware = self._hardware(sections)
            self.voice = self._output(self._voice(sections)) if self.options.voice else None
            # Services: registered on the hub before it runs.
            for service in self._services(sections):
                self.hub.attach(service)
            self.hub.register_status("device", self._device_status)
            self.hub.start()
            # Inputs: through the door, once the hub runs.
            for source in self._input_sources(sections):
                source.start(self.door)
                self._inputs.append(source)
        except BaseException:
            self.stop()
            raise
        self._notifier.send("READY=1")
        devices = self.devices
        if devices is not None:
            self.hub.call(lambda: devices.execute([Cue("start")]))
        return self

    def stop(self) -> None:
        """Inputs closed, the hub drained, then servos detached, buzzer silent, the table
        saved; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        if self._signalled is not None:
            log.info("signal %d: stopping", self._signalled)
        self._stopped.set()
        self._poke()
        self._notifier.send("STOPPING=1")
        steps = [
            *(source.close for source in reversed(self._inputs)),
            self.hub.stop,  # drains what the inputs queued
            *(output.close for output in reversed(self._outputs)),
        ]
        self._inputs.clear()
        self._outputs.clear()
        for step in steps:
            try:
                step()
            except Exception:
                log.exception("error while stopping (%r)", step)

    def _output(self, part: Part) -> Part:
        self._outputs.append(part)
        return part

    # ------------------------------------------------------------------ the parts, in order

    def _checked_sections(self) -> Config:
        """The configuration, checked whole: a file's was as it was read, one built in code
        is here, before anything starts."""
        try:
            check_config(self.config)
        except ConfigError as exc:
            raise StartupError(str(exc)) from exc
        return self.config

    def _score_storage(self) -> ScoreStorage:
        scores = score_storage(self.options.state_dir)
        scores.start()  # the database opened: before the hub starts
        return scores

    def _table_memory(self) -> TableMemory:
        """The table's memory, the table put back from it: before the hub starts."""
        scores = self.scores
        # Older boxes kept the table in the score database's settings: read from there once.
        settings = SavedSettings(lambda: scores.storage if scores is not None else None)
        memory = table_memory(self.hub, self.options.state_dir, settings)
        memory.restore()
        return memory

    def _hardware(self, sections: Config) -> LauncherHardware:
        from companion.devices import BackendUnavailable, LauncherHardware, make_pin_factory

        backend = self.options.backend or ("mock" if self.options.simulate else None)
        factory: Any = self.options.pin_factory
        if factory is not None:
            self.pin_factory = factory
        else:
            try:
                factory = make_pin_factory(backend or sections.hardware.backend)
            except BackendUnavailable as exc:
                raise StartupError(str(exc)) from exc
            if (backend or sections.hardware.backend) == "mock":
                self.pin_factory = self._output(factory)  # closed after the parts on its pins
            else:
                self.pin_factory = factory
        kwargs: dict[str, Any] = {}
        if self.options.motion_clock is not None:
            kwargs["motion_clock"] = self.options.motion_clock
        seats = len(self.hub.engine.state.seats)  # before the hub starts
        return self._output(LauncherHardware(sections.hardware, factory, seats=seats, **kwargs))

    def _voice(self, sections: Config) -> Voice:
        from companion.speech import Voice

        kwargs: dict[str, Any] = {}
        if self.options.voice_player is not None:
            kwargs["player"] = self.options.voice_player
        if self.options.engine_factory is not None:
            kwargs["engine_factory"] = self.options.engine_factory
        return Voice(sections.speech, self.catalog, self.config.table.language, **kwargs)

    def _services(self, sections: Config) -> list[Service]:
        assert self.hardware is not None and self.scores is not None
        scores = self.scores
        store = SavedSettings(lambda: scores.storage)  # the settings of the database open now
        self.keeper = score_keeper(scores)
        from companion.devices.turret import default_seat_angles

        turret = self.hardware.turret
        self.devices = DeviceActions(
            self.hardware,
            store,
            default_angles=lambda players: default_seat_angles(turret.config, players),
            simulate=self.options.simulate,
        )
        self.voice_service = VoiceService(self.voice) if self.voice is not None else None
        language = self.voice_service.set_language if self.voice_service else None
        evening = EveningService(store)
        count = RoundCount(store)
        self.camera = self._camera(sections)
        return [
            scores,
            self.keeper,
            self.devices,  # first: the press's buzzer and ejector start before anything else
            self.camera,
            Settings(self.config, store, language),
            evening,
            count,
            StoredGames(store),
            PlayerNames(self.keeper, evening, count),
            # Each event's line is written once the launcher was told.
            *([self.memory] if self.memory is not None else []),
            # The voice last: a line can wait a tenth of a millisecond, a press cannot; its
            # thread wakes once the press's outputs have had the interpreter.
            *([self.voice_service] if self.voice_service is not None else []),
        ]

    def _input_sources(self, sections: Config) -> list[InputSource]:
        assert self.hardware is not None and self.devices is not None
        sources: list[InputSource] = [
            self.devices.inputs,  # the launcher's buttons and card sensor
            MotionWatcher(self.hardware, self.devices.moved),
        ]
        if self.options.web:
            sources.append(PhonePage(self, sections))
        self.long_presses = self._long_presses(sections)
        sources.append(self.long_presses)
        if self.camera is not None:
            sources.append(self.camera)
        return [*sources, *self.options.inputs]

    def _camera(self, sections: Config) -> CameraService:
        """The camera's service; its camera is built only when ``[camera]`` is enabled (or a
        replay names its frames), so a box without one never loads OpenCV."""
        section = sections.camera
        options = self.options
        pictures = Pictures(options.state_dir / "camera-pictures")
        if options.camera is not None:
            return CameraService(options.camera, pictures, enabled=True, gate=options.camera_gate)
        source = options.camera_source or (section.source if section.enabled else None)
        if source is None:
            return CameraService(None, pictures)
        build = options.camera_factory or self._eye
        try:
            camera = build(source, sections)
        except ImportError as exc:  # the camera extra (OpenCV, numpy) is not installed
            raise StartupError(f"the camera cannot start: {exc}; {CAMERA_EXTRA}") from exc
        except (ValueError, OSError) as exc:
            raise StartupError(f"the camera cannot start: {exc}") from exc
        return CameraService(camera, pictures, enabled=True, gate=options.camera_gate)

    def _eye(self, source: str, sections: Config) -> Camera:
        from companion.vision import default_model, load_model
        from companion.vision.eye import TAUGHT_MODEL, Eye, drawn_source

        section = sections.camera
        default = default_model(drawings=drawn_source(source))
        taught = self.options.state_dir / TAUGHT_MODEL
        model, problem = default, None
        if section.model:
            model, problem = load_model(Path(section.model).expanduser(), default)
        elif taught.is_file():
            model, problem = load_model(taught, default)
        if problem is not None:  # a damaged or foreign deck file: read with the shipped model
            log.warning("camera model: %s", problem)
        return Eye(
            source,
            section.size,
            model,
            default,
            taught_path=taught,
            sure_at=section.sure_confidence,
            realtime=self.options.camera_realtime,
            first_round_waits=self.options.camera_gate is not None,
        )

    def _long_presses(self, sections: Config) -> LongPresses:
        """HIT held: the address aloud; the shutdown button held: a clean power-off."""
        from companion.devices import NO_PIN, TableButton

        assert self.hardware is not None
        hit = self.hardware.hit_button
        pressed = {"hit": lambda: bool(hit.is_pressed)}
        pin = sections.hardware.pins.shutdown
        if pin != NO_PIN:
            button = self._output(TableButton("shutdown", pin, factory=self.pin_factory))
            pressed["shutdown"] = lambda: bool(button.is_pressed)
        simulate = self.options.simulate
        return LongPresses(
            pressed,
            lambda: self.urls,
            poweroff=None if simulate else POWEROFF,
            say_address=not simulate,
        )

    def _device_status(self) -> dict[str, Any]:
        status: dict[str, Any] = {"simulated": self.options.simulate, "url": self.url}
        if self.devices is not None:
            status.update(self.devices.status())
        if self.voice_service is not None:
            status.update(self.voice_service.status())
        return status

    # ------------------------------------------------------------------ running

    def post(self, event: Event, source: Source = "button") -> Future[Any]:
        """A table event from ``source`` (tests, the bench), queued on the hub."""
        return self.hub.post(event, source)

    def wait(self) -> None:
        """Run until stopped (SIGTERM/SIGINT), pinging the systemd watchdog while healthy."""
        interval = self._notifier.watchdog_interval
        while not self.stopping:
            if self._sleep(interval or 5.0):
                continue
            if interval and self.healthy():
                self._notifier.send("WATCHDOG=1")

    def _sleep(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for a stop or a signal; True if woken by one."""
        if self._wake is None:
            return self._stopped.wait(seconds)
        ready, _, _ = select.select([self._wake[0]], [], [], seconds)
        if ready:
            with contextlib.suppress(BlockingIOError):
                os.read(self._wake[0], 512)
        return bool(ready)

    def _poke(self) -> None:
        if self._wake is not None:
            with contextlib.suppress(OSError):  # a full pipe wakes wait() already
                os.write(self._wake[1], b"\0")

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
        """SIGTERM and SIGINT stop the daemon: :meth:`wait` returns. The handler takes no lock
        (see ``_signalled``); the pipe lives as long as the process."""
        if self._wake is None:
            read, write = os.pipe()
            os.set_blocking(read, False)
            os.set_blocking(write, False)
            self._wake = (read, write)

        def on_signal(signum: int, frame: object) -> None:
            self._signalled = signum
            self._poke()

        signal.signal(signal.SIGTERM, on_signal)
        signal.signal(signal.SIGINT, on_signal)

    @property
    def stopping(self) -> bool:
        return self._stopped.is_set() or self._signalled is not None


class PhonePage:
    """The phone page as an input source: served once the hub runs, stopped before it stops.
    Its table actions reach the door through the hub's actions (``table.*``)."""

    def __init__(self, daemon: Daemon, sections: Config) -> None:
        self._daemon = daemon
        self._config = sections.web
        self._server: WebServer | None = None

    def start(self, door: InputDoor) -> None:
        from companion.web import create_app, serve
        from companion.web.lan import page_urls

        daemon, config = self._daemon, self._config
        if daemon.options.host is not None:
            config = replace(config, host=daemon.options.host)
        if daemon.options.port is not None:
            config = replace(config, port=daemon.options.port)
        from companion.storage.secret import session_secret

        # Kept in the state folder: a phone's session, and the keys of its retries, outlive a
        # restart.
        secret = session_secret(daemon.options.state_dir)
        app = create_app(
            daemon.hub, config, daemon.catalog, secret_key=secret, camera=daemon.camera
        )
        try:
            self._server = serve(app, config)
        except OSError as exc:
            raise StartupError(
                f"cannot serve the phone page on {config.host}:{config.port}: {exc}"
            ) from exc
        daemon.web_server = self._server
        # The address phones use: the LAN address when listening everywhere, then host.local.
        daemon.urls = page_urls(config.host, self._server.port)

    def close(self) -> None:
        if self._server is not None:
            self._server.stop()
