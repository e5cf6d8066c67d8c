"""The daemon: configuration → engine and hub → devices, voice, storage, phone page.

This is the composition root. It builds every adapter, connects them to the hub (inputs in,
commands and change notices out) and takes them down again in the reverse order. The same code
runs on a Raspberry Pi (``uno-companion run``) and on a laptop (``uno-companion simulate``, on
gpiozero's mock pins).
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.config import Config, ConfigError
from companion.core.actions import object_schema
from companion.core.commands import Command, Cue, Eject, Say, Turn
from companion.core.errors import ActionError
from companion.core.events import Event, Play, Press
from companion.core.table import Outcome, TableEngine
from companion.hub import Hub
from companion.i18n import Catalog

log = logging.getLogger("companion.daemon")


@dataclass
class DaemonOptions:
    simulate: bool = False
    backend: str | None = None  # None: the [hardware] backend ("mock" when simulating)
    state_dir: Path | None = None
    seed: int = 0
    web: bool = True
    voice: bool = True
    host: str | None = None
    port: int | None = None
    voice_player: Any = None  # tests: where speech and cue WAVs go instead of aplay
    engine_factory: str | None = None  # tests: a fake speech engine


@dataclass
class _Notifier:
    """systemd's notify protocol (READY, WATCHDOG, STOPPING); silent outside systemd."""

    address: str | None = field(default_factory=lambda: os.environ.get("NOTIFY_SOCKET"))

    def send(self, message: str) -> None:
        if not self.address:
            return
        address = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.connect(address)
                sock.sendall(message.encode())
        except OSError as exc:
            log.warning("could not notify systemd: %s", exc)


class Daemon:
    """Everything that runs on the box, started and stopped as one."""

    def __init__(self, config: Config, options: DaemonOptions) -> None:
        self.config = config
        self.options = options
        self.catalog = Catalog.load()
        self.language = config.table.language
        self.engine = TableEngine.from_config(config, options.seed)
        self.hub = Hub(self.engine)
        self.storage: Any = None
        self.scores: Any = None
        self.hardware: Any = None
        self.voice: Any = None
        self.voice_enabled = False
        self.volume = 10
        self.web_server: Any = None
        self.url: str | None = None
        self.urls: list[str] = []
        self._notifier = _Notifier()
        self._stopped = threading.Event()  # set by a signal or stop(): leave wait()
        self._closed = False
        self._motion = threading.Event()  # set when the launcher was given something to do
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
            self._register_settings()
            if self.options.web:
                self._start_web()
        except BaseException:
            self.stop()
            raise
        self._notifier.send("READY=1")
        self.hub.call(lambda: self._execute([Cue("start")]))
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
        from companion.scorekeeper import ScoreKeeper
        from companion.storage import Storage, StorageError

        state_dir = self.options.state_dir
        if state_dir is None:
            from companion.cli.common import default_state_dir

            state_dir = default_state_dir()
        try:
            state_dir.mkdir(parents=True, exist_ok=True)
            self.storage = Storage.open(state_dir)
        except (OSError, StorageError) as exc:
            raise StartupError(f"cannot open the score database in {state_dir}: {exc}") from exc
        self._closers.append(self.storage.close)
        # Runs after the hub has stopped (closers run in reverse): nothing is handled after it.
        self._closers.append(self._save_table)
        self._restore_table()
        self.scores = ScoreKeeper(self.storage, self.hub)

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
            factory = make_pin_factory(backend)
        except BackendUnavailable as exc:
            raise StartupError(str(exc)) from exc
        self.pin_factory = factory
        seats = len(self.engine.state.seats)
        if backend == "mock":
            self._closers.append(factory.close)  # closed after the parts that use its pins
        self.hardware = LauncherHardware(hw, factory, seats=seats)
        self._closers.append(self.hardware.close)
        saved_angles = self.storage.settings_get("turret.seat_angles") if self.storage else None
        if isinstance(saved_angles, list):
            for seat, angle in enumerate(saved_angles):
                if isinstance(angle, int | float):
                    self.hardware.turret.set_seat_angle(seat, float(angle))
        self.hardware.on_input(self._on_input)
        self.hub.add_listener(
            _OnEvent("setup", lambda o: self._reseat_turret(len(o.snapshot["players"])))
        )
        # A reload is the players' answer to a jam: the launcher is clear again.
        self.hub.add_listener(_OnEvent("reload", lambda o: self.hardware.clear_jam()))
        watcher = threading.Thread(target=self._watch_motion, name="motion-watch", daemon=True)
        watcher.start()
        self._closers.append(lambda: watcher.join(timeout=2))
        self.hub.add_listener(_CommandsTo(self._execute))
        self.hub.register_status("device", self._device_status)
        self.hub.register_action(
            "device.hit", object_schema([]), lambda p: self._virtual_hit(), "device"
        )
        self.hub.register_action(
            "device.calibrate_seat",
            object_schema(
                ["seat", "angle"],
                seat={"type": "integer", "minimum": 0, "maximum": 9},
                angle={"type": "integer", "minimum": -180, "maximum": 180},
            ),
            self._calibrate_seat,
            "device",
        )
        self.hub.register_action(
            "device.test_fire",
            object_schema([], cards={"type": "integer", "minimum": 1, "maximum": 5}),
            lambda p: self.hardware.execute([Eject(p.get("cards", 1)), Cue("burst")]),
            "device",
        )
        self.hub.register_action(
            "device.face",
            object_schema(["seat"], seat={"type": "integer", "minimum": 0, "maximum": 9}),
            self._face,
            "device",
        )

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
        self.voice = Voice(config, self.catalog, self.language, **kwargs)
        self._closers.append(self.voice.close)
        self.hub.add_listener(_CommandsTo(self._speak))
        self.hub.register_action(
            "device.voice",
            object_schema(["enabled"], enabled={"type": "boolean"}),
            self._set_voice,
            "device",
        )
        self.hub.register_action(
            "device.volume",
            object_schema(["level"], level={"type": "integer", "minimum": 0, "maximum": 10}),
            self._set_volume,
            "device",
        )
        self.voice_enabled = config.enabled
        self.volume = round(config.volume * 10)

    def _start_web(self) -> None:
        from companion.web import create_app, parse_web_config, serve
        from companion.web.lan import page_urls

        try:
            config = parse_web_config(self.config.extra)
        except ConfigError as exc:
            raise StartupError(str(exc)) from exc
        overrides: dict[str, Any] = {}
        if self.options.host is not None:
            overrides["host"] = self.options.host
        if self.options.port is not None:
            overrides["port"] = self.options.port
        if overrides:
            from dataclasses import replace

            config = replace(config, **overrides)
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

    # ------------------------------------------------------------------ inputs and outputs

    def _on_input(self, notice: Any) -> None:
        """A button or the card sensor (device thread): queue its event, return at once."""
        from companion.devices import ButtonPressed

        event = button_event(notice.button) if isinstance(notice, ButtonPressed) else notice.event
        if event is not None:
            self.post(event)

    def post(self, event: Event) -> Future[Any]:
        future = self.hub.post(event)
        future.add_done_callback(self._refused)
        return future

    def _refused(self, future: Future[Any]) -> None:
        exc = future.exception()
        if isinstance(exc, ActionError):
            # A physical input the rules refuse (a press after the round ended...): say so.
            log.info("input refused: %s", exc)
            self._execute([Cue("error")])

    def _execute(self, commands: list[Command]) -> None:
        if self.hardware is not None:
            self.hardware.execute([c for c in commands if isinstance(c, Eject | Turn | Cue)])
            if any(isinstance(c, Eject | Turn) for c in commands):
                self._motion.set()

    def _watch_motion(self) -> None:
        """Tell the phones when the launcher has finished moving (cards out, turret turned)."""
        while not self._stopped.is_set():
            if not self._motion.wait(timeout=0.5):
                continue
            self._motion.clear()
            self.hardware.wait_idle(timeout=30, sound=False)
            if not self._stopped.is_set():
                self.hub.call(lambda: self.hub.changed("device"))

    def _speak(self, commands: list[Command]) -> None:
        if self.voice is not None:
            for command in commands:
                if self.voice_enabled or not isinstance(command, Say):
                    self.voice.handle(command)

    def _virtual_hit(self) -> None:
        """The page's HIT button. Simulated: a real edge on the mock pin, so the debounce and
        the whole input path run as for a hand on the button. On hardware: a remote press."""
        if self.options.simulate:
            pin = self.hardware.hit_button.pin

            def press() -> None:
                pin.drive_low()
                time.sleep(0.005)
                pin.drive_high()

            threading.Thread(target=press, name="virtual-hit", daemon=True).start()
        else:
            self.post(Press())

    def _reseat_turret(self, players: int) -> None:
        """After the table is seated again: one angle per seat, calibrated ones kept."""
        from companion.devices.turret import default_seat_angles

        turret = self.hardware.turret
        angles = default_seat_angles(turret.config, players)
        saved = self.storage.settings_get("turret.seat_angles") if self.storage else None
        if isinstance(saved, list):
            for seat, angle in enumerate(saved[:players]):
                if isinstance(angle, int | float):
                    angles[seat] = turret.range.clamp(float(angle))
        turret.seat_angles = angles

    def _face(self, payload: dict[str, Any]) -> None:
        seat = payload["seat"]
        self.hardware.execute([Turn(seat, f"seat {seat}")])

    def _calibrate_seat(self, payload: dict[str, Any]) -> None:
        turret = self.hardware.turret
        turret.set_seat_angle(payload["seat"], float(payload["angle"]))
        if self.storage is not None:
            self.storage.settings_put("turret.seat_angles", list(turret.seat_angles))
        self.hardware.execute([Turn(payload["seat"], f"seat {payload['seat']}")])

    def _set_voice(self, payload: dict[str, Any]) -> None:
        if payload["enabled"] and not self.voice.config.enabled:
            raise ActionError(
                "voice_off_in_config", "the voice is off in the configuration", status=409
            )
        self.voice_enabled = payload["enabled"]

    def _set_volume(self, payload: dict[str, Any]) -> None:
        self.volume = payload["level"]
        set_volume = getattr(self.voice, "set_volume", None)
        if set_volume is not None:
            set_volume(self.volume / 10)

    def _device_status(self) -> dict[str, Any]:
        status: dict[str, Any] = {"simulated": self.options.simulate, "url": self.url}
        if self.hardware is not None:
            status.update(self.hardware.status())
            status["seat_angles"] = list(self.hardware.turret.seat_angles)
        if self.voice is not None:
            status["voice"] = {"enabled": self.voice_enabled, "volume": self.volume}
        return status

    # ------------------------------------------------------------------ settings

    def _register_settings(self) -> None:
        self.hub.register_status("settings", self._settings_status)
        saved = self.storage.settings_get("settings") if self.storage else None
        if isinstance(saved, dict):
            try:
                self._update_settings(
                    {k: v for k, v in saved.items() if k in ("language", "profile")}
                )
            except ActionError as exc:  # a custom profile removed from the config since
                log.warning("saved settings ignored: %s", exc)
        self.hub.register_action(
            "settings.update",
            object_schema(
                [],
                language={"type": "string", "enum": ["fr", "en"]},
                profile={"type": "string", "minLength": 1, "maxLength": 40},
            ),
            self._update_settings,
            "settings",
        )

    def _settings_status(self) -> dict[str, Any]:
        launcher = self.config.launcher
        return {
            "language": self.language,
            "profile": self.engine.launcher.profile.name,
            "profiles": ["authentic", "gentle", "fixed", *launcher.profiles],
            "rules": {k: v for k, v in vars(self.config.rules).items()},
        }

    def _update_settings(self, payload: dict[str, Any]) -> None:
        from dataclasses import replace

        from companion.core.table import profile_from_config

        if "profile" in payload:
            launcher = replace(self.config.launcher, profile=payload["profile"])
            from companion.config import check_consistency

            problems = [
                p
                for p in check_consistency(replace(self.config, launcher=launcher))
                if p.startswith("launcher.profile")
            ]
            if problems:
                raise ActionError("bad_choice", problems[0], {"field": "profile", "choices": ""})
            self.engine.launcher.profile = profile_from_config(launcher)
        if "language" in payload:
            self.language = payload["language"]
            if self.voice is not None:
                self.voice.set_language(self.language)
        if self.storage is not None:
            self.storage.settings_put(
                "settings",
                {"language": self.language, "profile": self.engine.launcher.profile.name},
            )

    def _restore_table(self) -> None:
        """Seats and magazine as they were when the daemon last stopped."""
        saved = self.storage.settings_get("table")
        if not isinstance(saved, dict):
            return
        from companion.core.events import Reload, Setup

        try:
            players = saved.get("players")
            if isinstance(players, list) and players:
                self.engine.handle(Setup(tuple(players), saved.get("dealer")))
            magazine = saved.get("magazine")
            if isinstance(magazine, int):
                self.engine.handle(Reload(magazine))
        except ActionError as exc:
            log.warning("saved table ignored: %s", exc)

    def _save_table(self) -> None:
        if self.storage is None:
            return
        snap = self.engine.snapshot()
        try:
            self.storage.settings_put(
                "table",
                {
                    "players": [p["name"] for p in snap["players"]],
                    "dealer": snap["dealer"],
                    "magazine": snap["magazine"],
                },
            )
        except Exception:
            log.exception("could not save the table state")

    # ------------------------------------------------------------------ main loop

    def wait(self) -> None:
        """Run until stopped (SIGTERM/SIGINT), pinging the systemd watchdog while healthy."""
        watchdog_usec = int(os.environ.get("WATCHDOG_USEC", "0") or 0)
        interval = watchdog_usec / 2e6 if watchdog_usec else 5.0
        while not self._stopped.wait(interval):
            if watchdog_usec and self.healthy():
                self._notifier.send("WATCHDOG=1")

    def healthy(self) -> bool:
        """The hub thread answers within a second."""
        try:
            self.hub.call(lambda: None).result(timeout=1.0)
        except Exception:
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


def button_event(button: str) -> Event | None:
    """What a press of one of the launcher's buttons means at the table."""
    if button == "hit":
        return Press()
    if button == "next":
        return Play("number")  # "I played a card": the turn passes, the hand estimate drops
    if button == "reverse":
        return Play("reverse")
    if button == "skip":
        return Play("skip")
    return None


class StartupError(RuntimeError):
    """The daemon cannot start; the message says what to fix."""


class _OnEvent:
    """A hub listener calling ``target(outcome)`` after each event named ``event``."""

    def __init__(self, event: str, target: Callable[[Outcome], None]) -> None:
        self._event = event
        self._target = target

    def on_outcome(self, outcome: Outcome) -> None:
        if outcome.event == self._event:
            self._target(outcome)


class _CommandsTo:
    """A hub listener handing each outcome's commands to one function."""

    def __init__(self, target: Callable[[list[Command]], None]) -> None:
        self._target = target

    def on_outcome(self, outcome: Outcome) -> None:
        self._target(list(outcome.commands))


def run_daemon(config: Config, args: argparse.Namespace, *, simulate: bool) -> int:
    """``uno-companion run`` and ``simulate``: start, serve until a signal, stop cleanly."""
    from companion.cli.common import choose_seed

    options = DaemonOptions(
        simulate=simulate,
        backend=getattr(args, "backend", None),
        state_dir=getattr(args, "state_dir", None),
        seed=choose_seed(config, getattr(args, "seed", None)),
        web=not getattr(args, "no_web", False),
        voice=not getattr(args, "no_voice", False),
        host=getattr(args, "host", None),
        port=getattr(args, "port", None),
    )
    daemon = Daemon(config, options)
    try:
        daemon.start()
    except StartupError as exc:
        log.error("%s", exc)
        print(f"uno-companion: {exc}")
        return 2
    daemon.install_signal_handlers()
    try:
        if simulate:
            from companion.terminal import TerminalTable

            TerminalTable(daemon).run()
        else:
            log.info("table ready at %s", " or ".join(daemon.urls) or "(no page)")
            daemon.wait()
    finally:
        daemon.stop()
    return 0
