"""``uno-companion doctor``: is this box ready for a game? Plain checks, each with a fix.

Every fact comes from a :class:`System` method (the board model, pigpiod, sound cards, groups,
``vcgencmd``...), so tests replace one method to inject one fault. A check returns a
:class:`Check`: ``ok``, ``warn`` (works, but worse: e.g. servos that fidget) or ``fail`` (the box
is not ready), a sentence saying what was found and, unless ``ok``, the command that fixes it.
The box is ready when nothing fails.
"""

from __future__ import annotations

import errno
import grp
import os
import shutil
import socket
import sqlite3
import subprocess
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from companion.config import CameraConfig, Config
from companion.devices.backends import (
    BackendProbe,
    BackendUnavailable,
    Board,
    backend_name,
    make_pin_factory,
    model_file,
    read_board,
)
from companion.devices.config import NO_PIN, HardwareConfig
from companion.devices.pwm import OVERLAY_LINE, PWM_ROOT, RP1_CHANNELS, find_pwm_chip
from companion.speech.audio import CARDS_FILE, AudioChoice, SoundCard, choose_audio, read_cards
from companion.speech.config import SpeechConfig
from companion.web.config import WebConfig

OK, WARN, FAIL = "ok", "warn", "fail"
INSTALL_FIX = "sudo ./install.sh (from the clone) sets this up"
# Lines best left alone: HAT EEPROM, serial console.
RESERVED_PINS = {0: "the HAT EEPROM bus", 1: "the HAT EEPROM bus", 14: "the serial console",
                 15: "the serial console"}  # fmt: skip
HARDWARE_PWM_PINS = frozenset({12, 13, 18, 19})
# Where Raspberry Pi OS keeps the firmware's config.txt: Bookworm and later, then older systems.
BOOT_CONFIGS = (Path("/boot/firmware/config.txt"), Path("/boot/config.txt"))
# The sound card each amplifier's overlay makes (its name in /proc/asound/cards).
AMPLIFIER_CARDS = {"max98357a": "MAX98357A"}
DB_NAME = "scores.sqlite3"


@dataclass(frozen=True)
class Check:
    """One line of the report."""

    id: str
    status: str
    title: str
    detail: str
    fix: str = ""


class System:
    """What the doctor can see of the machine; every method can be overridden by a test."""

    def __init__(
        self,
        model_path: Path | None = None,
        cards_file: Path = CARDS_FILE,
        pwm_root: Path = PWM_ROOT,
    ) -> None:
        self.model_path = model_path or model_file()
        self.cards_file = cards_file
        self.pwm_root = pwm_root
        self.boot_configs = BOOT_CONFIGS

    def boot_config(self) -> tuple[Path, list[str]] | None:
        """The firmware's config.txt and its active lines (comments dropped), if there is one."""
        for path in self.boot_configs:
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            lines = [line.split("#", 1)[0].strip() for line in text.splitlines()]
            return path, [line for line in lines if line]
        return None

    def board(self) -> Board:
        return read_board(self.model_path)

    def probe(self) -> BackendProbe:
        return BackendProbe(self.model_path)

    def pigpiod_installed(self) -> bool:
        return shutil.which("pigpiod", path="/usr/bin:/usr/local/bin:/usr/sbin") is not None

    def pigpiod_running(self) -> bool:
        return self.probe().pigpiod_running()

    def is_root(self) -> bool:
        return os.geteuid() == 0

    def group_names(self) -> set[str]:
        names = set()
        for gid in os.getgroups():
            try:
                names.add(grp.getgrgid(gid).gr_name)
            except KeyError:
                continue
        return names

    def gpio_devices(self) -> list[Path]:
        return sorted(Path("/dev").glob("gpiochip*")) + [
            p for p in (Path("/dev/gpiomem"),) if p.exists()
        ]

    def can_use(self, path: Path) -> bool:
        return os.access(path, os.R_OK | os.W_OK)

    def sound_cards(self) -> list[SoundCard]:
        return read_cards(self.cards_file)

    def has_command(self, name: str) -> bool:
        return shutil.which(name) is not None

    def has_module(self, name: str) -> bool:
        return self.probe().has_module(name)

    def camera_read(self, section: CameraConfig) -> str:
        """One frame from the configured camera, read with the configured (or default) model:
        a sentence saying what it saw. Raises ImportError when a camera package is missing,
        another error when no frame comes."""
        from companion.vision import (  # the camera extra: only when a camera is configured
            FolderSource,
            FrameSource,
            Model,
            OpenCVSource,
            PicameraSource,
            default_model,
        )

        source = section.source
        width, height = section.size
        camera: FrameSource
        if source == "picamera2":
            camera = PicameraSource((width, height))
        elif source.startswith("folder:"):
            camera = FolderSource(Path(source.removeprefix("folder:")))
        elif source.startswith("v4l2:"):
            camera = OpenCVSource(source.removeprefix("v4l2:"), (width, height))
        else:
            camera = OpenCVSource(int(source), (width, height))
        try:
            frame = next(iter(camera.frames()), None)
        finally:
            camera.close()
        if frame is None:
            raise OSError(f"{source} gave no frame")
        # The program's own drawn frames are read with the drawings' model (docs/vision.md).
        drawings = isinstance(camera, FolderSource) and camera.drawn
        default = default_model(drawings=drawings)
        model = default
        if section.model:
            model = Model.load(Path(section.model), default.networks, default.fields)
        read = model.read(frame.image)
        size = f"{frame.image.shape[1]}×{frame.image.shape[0]} frame from {source}"
        if read.card is None:
            return f"{size}; no whole card in it (lay one on the tray)"
        name = " ".join(part for part in (read.card.colour, read.card.kind) if part)
        sure = "sure" if read.sure else "unsure"
        return f"{size}; test read: {name}, {read.confidence:.0%} ({sure})"

    def run(self, argv: list[str]) -> str | None:
        """The output of a command, or None when it is missing or fails."""
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=5, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return None
        return done.stdout if done.returncode == 0 else None

    def throttled(self) -> int | None:
        out = self.run(["vcgencmd", "get_throttled"])
        if not out or "=" not in out:
            return None
        try:
            return int(out.split("=", 1)[1].strip(), 16)
        except ValueError:
            return None

    def clock_synchronised(self) -> bool | None:
        out = self.run(["timedatectl", "show", "--property=NTPSynchronized", "--value"])
        if out is None:
            # systemd-timesyncd drops this file once the clock was set from the network.
            return True if Path("/run/systemd/timesync/synchronized").exists() else None
        return out.strip() == "yes"

    def port_in_use(self, host: str, port: int) -> bool:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind((host, port))
            except OSError as exc:
                return exc.errno == errno.EADDRINUSE
        return False

    def service_active(self) -> bool:
        return (self.run(["systemctl", "is-active", "uno-companion"]) or "").strip() == "active"

    def avahi_port(self) -> int | None:
        path = Path("/etc/avahi/services/uno-companion.service")
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            return None
        start, end = text.find("<port>"), text.find("</port>")
        digits = text[start + 6 : end].strip() if start >= 0 and end > start else ""
        return int(digits) if digits.isdigit() else None

    def pigpiod_options(self) -> str | None:
        """The pigpiod command line install.sh set, or None when it set none."""
        path = Path("/etc/systemd/system/pigpiod.service.d/uno-companion.conf")
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError:
            return None
        starts = [line for line in lines if line.startswith("ExecStart=/")]
        return starts[-1].removeprefix("ExecStart=") if starts else None

    def addresses(self, host: str, port: int) -> list[str]:
        from companion.web.lan import page_urls

        return page_urls(host, port)


@dataclass
class Doctor:
    """The checks for one configuration on one machine."""

    config: Config
    config_path: Path | None
    state_dir: Path
    system: System = field(default_factory=System)
    backend: str | None = None  # --backend: overrides hardware.backend
    hardware: HardwareConfig = field(init=False)
    speech: SpeechConfig = field(init=False)
    web: WebConfig = field(init=False)

    def __post_init__(self) -> None:
        self.hardware = self.config.hardware
        self.speech = self.config.speech
        self.web = self.config.web
        self.board = self.system.board()
        self.audio: AudioChoice = choose_audio(self.speech.audio_output, self.system.sound_cards())

    def checks(self) -> list[Callable[[], Check]]:
        return [
            self.check_board,
            self.check_backend,
            self.check_pigpiod,
            self.check_permissions,
            self.check_pins,
            self.check_servo_pulses,
            self.check_firing,
            self.check_audio,
            self.check_amplifier,
            self.check_speech,
            self.check_camera,
            self.check_config_file,
            self.check_database,
            self.check_port,
            self.check_clock,
            self.check_power,
            self.check_address,
        ]

    def run(self) -> list[Check]:
        results = []
        for check in self.checks():
            try:
                results.append(check())
            except Exception as exc:  # one broken check must not hide the others
                name = check.__name__.removeprefix("check_")
                results.append(Check(name, FAIL, name, f"the check itself failed: {exc}"))
        return results

    # ------------------------------------------------------------------ the checks

    def check_board(self) -> Check:
        if not self.board.is_pi:
            return Check(
                "board",
                WARN,
                "Board",
                f"not a Raspberry Pi ({self.board.model or 'no device-tree model'}): only the "
                "simulation runs here",
                "use 'uno-companion simulate', or run this on the Pi",
            )
        jack = "a 3.5 mm jack" if self.board.has_audio_jack else "no 3.5 mm audio jack"
        return Check("board", OK, "Board", f"{self.board.model} ({jack})")

    def check_backend(self) -> Check:
        name = self.backend or self.hardware.backend
        try:
            factory = make_pin_factory(name, probe=self.system.probe(), pigpio_wait_s=0.0)
        except BackendUnavailable as exc:
            return Check("backend", FAIL, "GPIO library", exc.message, INSTALL_FIX)
        chosen = backend_name(factory)
        close = getattr(factory, "close", None)
        if callable(close):
            close()
        if chosen == "mock":
            status = WARN if self.board.is_pi else OK
            fix = 'set [hardware] backend = "auto" to drive the real pins' if status == WARN else ""
            return Check("backend", status, "GPIO library", "mock pins (simulation)", fix)
        if chosen == "rpigpio":
            return Check(
                "backend",
                WARN,
                "GPIO library",
                "RPi.GPIO: servos get software PWM and jitter",
                INSTALL_FIX + " (pigpio on a Pi <= 4, lgpio on a Pi 5)",
            )
        return Check("backend", OK, "GPIO library", f"{chosen} ({name} in the configuration)")

    def check_pigpiod(self) -> Check:
        if self.board.family == "5":
            return Check("pigpiod", OK, "pigpiod", "not needed on a Pi 5 (lgpio drives the pins)")
        if not self.board.is_pi:
            return Check("pigpiod", OK, "pigpiod", "not needed off a Raspberry Pi")
        if self.system.pigpiod_running():
            return Check("pigpiod", OK, "pigpiod", "running: servo pulses are DMA-timed")
        status = FAIL if (self.backend or self.hardware.backend) == "pigpio" else WARN
        if not self.system.pigpiod_installed():
            return Check(
                "pigpiod",
                status,
                "pigpiod",
                "not installed: servos fall back to lgpio, whose software-timed pulses fidget",
                "sudo apt install pigpio && sudo ./install.sh",
            )
        return Check(
            "pigpiod",
            status,
            "pigpiod",
            "installed but not running: servos fall back to lgpio and fidget",
            "sudo systemctl enable --now pigpiod",
        )

    def check_permissions(self) -> Check:
        groups = self.system.group_names()
        missing = [g for g in ("gpio", "audio") if g not in groups and not self.system.is_root()]
        blocked = [str(p) for p in self.system.gpio_devices() if not self.system.can_use(p)]
        if missing or blocked:
            user = _user_name()
            problems = []
            if missing:
                problems.append(f"{user} is not in group {' and '.join(missing)}")
            if blocked:
                problems.append(f"cannot open {', '.join(blocked)}")
            return Check(
                "permissions",
                FAIL if blocked else WARN,
                "Groups and permissions",
                "; ".join(problems),
                f"sudo usermod -aG gpio,audio {user}, then log in again (the service "
                "user gets them from install.sh)",
            )
        return Check("permissions", OK, "Groups and permissions", "in groups gpio and audio")

    def fitted_pins(self) -> dict[str, int]:
        return {
            name: pin
            for name, pin in vars(self.hardware.pins).items()
            if isinstance(pin, int) and pin != NO_PIN
        }

    def check_pins(self) -> Check:
        pins = self.fitted_pins()
        problems = []
        used: dict[int, str] = {}
        for part, pin in pins.items():
            if pin in used:
                problems.append(f"GPIO{pin} is wired to both {used[pin]} and {part}")
            used[pin] = part
            if pin in self.audio.pins:
                problems.append(f"{part} on GPIO{pin} clashes with the speaker HAT (GPIO 18-21)")
            if pin in RESERVED_PINS:
                problems.append(f"{part} on GPIO{pin} is {RESERVED_PINS[pin]}")
        listing = ", ".join(f"{part} GPIO{pin}" for part, pin in pins.items())
        if problems:
            return Check(
                "pins",
                FAIL,
                "Pins",
                "; ".join(problems),
                "change [hardware.pins] in the config (free pins: hardware/pinmap.md)",
            )
        return Check("pins", OK, "Pins", f"no clash: {listing}")

    def check_servo_pulses(self) -> Check:
        servos = {"ejector": self.hardware.pins.ejector, "turret": self.hardware.pins.turret}
        family = self.board.family
        if family != "5":
            how = "pigpio (DMA-timed, steady)" if family else "gpiozero"
            return Check("servo_pulses", OK, "Servo pulses", f"from {how}")
        chip = find_pwm_chip(self.system.pwm_root)
        off_pwm = [f"{n} (GPIO{p})" for n, p in servos.items() if p not in RP1_CHANNELS]
        if chip is not None and not off_pwm:
            return Check(
                "servo_pulses", OK, "Servo pulses", f"hardware PWM ({chip.name}): no jitter"
            )
        why = (
            f"{', '.join(off_pwm)} not on a hardware-PWM pin (12, 13, 18, 19)"
            if off_pwm
            else "the pwm-2chan overlay is not enabled"
        )
        return Check(
            "servo_pulses",
            WARN,
            "Servo pulses",
            f"lgpio.tx_servo (software-timed: the servos fidget a little): {why}",
            f"add '{OVERLAY_LINE}' to /boot/firmware/config.txt and reboot",
        )

    def check_audio(self) -> Check:
        cards = self.system.sound_cards()
        found = ", ".join(f"{c.id} ({c.kind})" for c in cards) or "no sound card"
        if self.speech.audio_device:
            return Check(
                "audio", OK, "Sound", f"speech.audio_device = {self.speech.audio_device}; {found}"
            )
        if self.speech.audio_output == "none" or not self.speech.enabled:
            return Check("audio", OK, "Sound", "the box is set to stay silent")
        if self.audio.card is None:
            hint = (
                "plug in a USB sound card or speaker, or fit an I2S speaker HAT"
                if not self.board.has_audio_jack
                else "plug a speaker into the jack, or a USB sound card"
            )
            return Check(
                "audio",
                FAIL,
                "Sound",
                f"{self.audio.reason} (audio_output = {self.speech.audio_output})",
                f"{hint}; check with 'aplay -l', then 'uno-companion doctor --sound'",
            )
        options = self.system.pigpiod_options()
        if self.audio.card.kind == "hat" and options is not None and "-t 0" not in options:
            return Check(
                "audio",
                FAIL,
                "Sound",
                f"{self.audio.reason}, but pigpiod's PCM clock ({options}) silences an I2S HAT",
                "sudo ./install.sh (it restarts pigpiod with -t 0 when a HAT is present)",
            )
        return Check(
            "audio",
            OK,
            "Sound",
            f"{self.audio.reason}, device {self.audio.device}; found: {found}",
        )

    def check_firing(self) -> Check:
        pin = self.hardware.pins.card_sensor
        if pin == NO_PIN:
            return Check(
                "firing",
                WARN,
                "Card firing",
                "timed, not counted: no IR beam (pins.card_sensor = -1), so the table counts the "
                "cards asked for and a jam or an empty magazine goes unnoticed",
                "fit the IR break-beam after the exit pinch and set pins.card_sensor "
                "(hardware/wiring.md), then 'uno-companion calibrate' and 'm'",
            )
        ejector, beam = self.hardware.ejector, self.hardware.card_sensor
        return Check(
            "firing",
            OK,
            "Card firing",
            f"counted by the IR beam on GPIO{pin}: feed {ejector.feed_mm_s:g} mm/s, one card "
            f"{beam.card_pass_s * 1000:.0f} ms in the beam ('calibrate' measures both)",
        )

    def check_amplifier(self) -> Check:
        amplifier = self.hardware.amplifier
        if amplifier == "none":
            return Check("amplifier", OK, "Amplifier", "none configured ([hardware] amplifier)")
        overlay = f"dtoverlay={amplifier}"
        card = AMPLIFIER_CARDS[amplifier]
        found = self.system.boot_config()
        if found is None:
            if not self.board.is_pi:
                return Check("amplifier", OK, "Amplifier", "not a Raspberry Pi: no config.txt")
            return Check(
                "amplifier",
                FAIL,
                "Amplifier",
                f"no config.txt found ({', '.join(map(str, self.system.boot_configs))}): "
                f"{overlay} cannot be set, the {card} stays silent",
                f"add the line {overlay} to the firmware's config.txt, then reboot",
            )
        path, lines = found
        loaded = any(card.lower() in f"{c.id} {c.name}".lower() for c in self.system.sound_cards())
        if overlay not in lines:
            return Check(
                "amplifier",
                FAIL,
                "Amplifier",
                f"{overlay} is missing from {path}: the {card} stays silent",
                f"sudo ./install.sh adds it (or add the line {overlay} by hand), then reboot",
            )
        if not loaded:
            return Check(
                "amplifier",
                WARN,
                "Amplifier",
                f"{overlay} is in {path} but no {card} sound card is loaded",
                "reboot (the overlay loads at boot); then check BCLK on GPIO18, LRC on GPIO19, "
                "DIN on GPIO21 and VIN on 5 V; 'uno-companion doctor --sound' plays a test",
            )
        options = self.system.pigpiod_options()
        if options is not None and "-t 0" not in options:
            return Check(
                "amplifier",
                FAIL,
                "Amplifier",
                f"{card} loaded, but pigpiod's PCM clock ({options}) silences it",
                "sudo ./install.sh (it restarts pigpiod with -t 0 for the amplifier)",
            )
        return Check(
            "amplifier",
            OK,
            "Amplifier",
            f"{card} loaded ({overlay} in {path}); 'uno-companion doctor --sound' plays a test",
        )

    def check_speech(self) -> Check:
        missing = [c for c in ("espeak-ng", "aplay") if not self.system.has_command(c)]
        if not self.system.has_module("pyttsx3"):
            missing.append("pyttsx3")
        if missing:
            return Check(
                "speech",
                FAIL,
                "Speech engine",
                f"missing: {', '.join(missing)}",
                "sudo apt install espeak-ng alsa-utils (pyttsx3 comes with the program)",
            )
        return Check("speech", OK, "Speech engine", "espeak-ng, aplay and pyttsx3 are present")

    def check_config_file(self) -> Check:
        path = self.config_path
        if path is None:
            return Check("config", OK, "Configuration", "built-in defaults (no file given)")
        if not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK):
            return Check(
                "config",
                WARN,
                "Configuration",
                f"{path} cannot be saved by {_user_name()}: calibrate and page settings "
                "cannot keep seat angles",
                INSTALL_FIX + " (group uno may write it)",
            )
        return Check("config", OK, "Configuration", f"{path} (valid, writable)")

    def check_database(self) -> Check:
        directory = self.state_dir
        database = directory / DB_NAME
        if not directory.exists():
            return Check(
                "database",
                WARN,
                "Score database",
                f"{directory} does not exist yet",
                INSTALL_FIX,
            )
        if not os.access(directory, os.W_OK):
            return Check(
                "database",
                FAIL,
                "Score database",
                f"{directory} is not writable by {_user_name()}",
                f"run as the service user: sudo -u uno uno-companion ... ({INSTALL_FIX})",
            )
        if not database.exists():
            return Check("database", OK, "Score database", f"{database} (created at first game)")
        try:
            db = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=2)
            try:
                verdict = db.execute("PRAGMA quick_check").fetchone()[0]
            finally:
                db.close()
        except sqlite3.Error as exc:
            verdict = str(exc)
        if verdict != "ok":
            return Check(
                "database",
                FAIL,
                "Score database",
                f"{database} is damaged: {verdict}",
                "restart the service: it restores the newest backup by itself",
            )
        return Check("database", OK, "Score database", f"{database} (healthy)")

    def check_camera(self) -> Check:
        section = self.config.camera
        if not section.enabled:
            return Check("camera", OK, "Camera", "off: turns are tapped or pressed")
        source = section.source
        try:
            detail = self.system.camera_read(section)
        except ImportError as exc:
            package = "python3-picamera2" if source == "picamera2" else "the camera extra"
            return Check(
                "camera",
                FAIL,
                "Camera",
                f"{source}: {exc} ({package} is missing)",
                INSTALL_FIX + " (it adds the camera packages when [camera] enabled = true)",
            )
        except Exception as exc:  # a camera fails in many ways: say which, never crash doctor
            return Check(
                "camera",
                FAIL,
                "Camera",
                f"no frame from {source}: {exc}",
                "check the camera's ribbon or USB cable and [camera] source; "
                "'rpicam-hello --list-cameras' lists a Camera Module",
            )
        if "no whole card" in detail:
            return Check(
                "camera", WARN, "Camera", detail, "lay a card on the tray and run doctor again"
            )
        return Check("camera", OK, "Camera", detail)

    def check_port(self) -> Check:
        port = self.web.port
        if not self.system.port_in_use(self.web.host, port):
            return Check("port", OK, "Phone page port", f"{port} is free")
        if self.system.service_active():
            return Check("port", OK, "Phone page port", f"{port}: the service is serving the page")
        return Check(
            "port",
            FAIL,
            "Phone page port",
            f"another program already listens on port {port}",
            f"find it with 'sudo ss -ltnp sport = :{port}', or set [web] port",
        )

    def check_clock(self) -> Check:
        synced = self.system.clock_synchronised()
        if synced:
            return Check("clock", OK, "Clock", "synchronised")
        return Check(
            "clock",
            WARN,
            "Clock",
            "not yet synchronised (a Pi has no battery clock): game dates may be wrong until "
            "the box reaches the Internet; the table itself works",
            "connect the box to a network with Internet once (Wi-Fi in Raspberry Pi Imager)",
        )

    def check_power(self) -> Check:
        flags = self.system.throttled()
        if flags is None:
            return Check("power", OK, "Power", "not measured here (no vcgencmd)")
        if flags & 0x1:
            return Check(
                "power",
                FAIL,
                "Power",
                "undervoltage now: the Pi may reset when a servo moves",
                "a 5 V 5 A supply, the Pi on its own branch of the distribution board and the "
                "servos and motor on the fused rail (hardware/power.md)",
            )
        if flags & 0x10000:
            return Check(
                "power",
                WARN,
                "Power",
                "undervoltage happened since boot (a servo start?)",
                "keep the servos and the motor on the fused servo rail, not the Pi's pins, with "
                "one common ground and the 1000 µF capacitor (hardware/wiring.md)",
            )
        return Check("power", OK, "Power", "no undervoltage or throttling since boot")

    def check_address(self) -> Check:
        urls = self.system.addresses(self.web.host, self.web.port)
        announced = self.system.avahi_port()
        detail = "phones open " + " or ".join(urls)
        if announced is None:
            return Check(
                "address",
                WARN,
                "Address",
                detail + "; the page is not announced by avahi",
                INSTALL_FIX,
            )
        if announced != self.web.port:
            return Check(
                "address",
                WARN,
                "Address",
                f"{detail}; avahi announces port {announced}, not {self.web.port}",
                "sudo ./install.sh (rewrites the avahi file with the configured port)",
            )
        return Check("address", OK, "Address", detail)


def _user_name() -> str:
    try:
        import pwd

        return pwd.getpwuid(os.getuid()).pw_name
    except (KeyError, ImportError):
        return str(os.getuid())


def report_json(results: list[Check], board: Board) -> dict[str, Any]:
    return {
        "ready": all(c.status != FAIL for c in results),
        "board": board.model,
        "checks": [asdict(c) for c in results],
    }


def report_text(results: list[Check]) -> str:
    marks = {OK: "ok  ", WARN: "warn", FAIL: "FAIL"}
    lines = []
    for check in results:
        lines.append(f"[{marks[check.status]}] {check.title}: {check.detail}")
        if check.fix:
            lines.append(f"       fix: {check.fix}")
    failed = sum(c.status == FAIL for c in results)
    warned = sum(c.status == WARN for c in results)
    verdict = "ready for a game" if not failed else f"not ready: {failed} problem(s) to fix"
    lines.append(f"{verdict} ({warned} warning(s))")
    return "\n".join(lines)
