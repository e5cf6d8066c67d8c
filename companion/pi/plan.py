"""What ``install.sh`` installs on this board, decided in one place that tests can read.

The shell script does the doing (apt, useradd, files, systemctl); every *decision* is here:
which GPIO libraries the board needs and where each comes from, which Debian packages, the
systemd drop-in for local choices, the pigpiod options, the avahi file. It runs with the system's
``python3`` before the venv exists, so it only uses the standard library and the stdlib-only parts
of the package (board model, audio cards).

One source per GPIO library: a library comes from Debian (``python3-pigpio``, ``python3-lgpio``,
seen by the venv through ``--system-site-packages``) when the archive has it, else from PyPI into
the venv, never both.

Run ``python3 -m companion.pi.plan env`` for shell variables, or ``dropin``, ``pigpiod-dropin``,
``avahi`` for file contents.
"""

from __future__ import annotations

import argparse
import platform
import shlex
import subprocess
import sys
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from companion.config import ConfigError, read_config_text
from companion.devices.backends import Board, model_file, read_board
from companion.devices.config import AMPLIFIERS, HardwareConfig
from companion.speech.audio import CARDS_FILE, choose_audio, read_cards

# Packages every box needs: the venv, the voice (espeak-ng, aplay), the avahi name, and polkit
# (the shutdown button's power-off).
BASE_PACKAGES = (
    "python3-venv",
    "ca-certificates",
    "espeak-ng",
    "alsa-utils",
    "avahi-daemon",
    "polkitd",
)
# The service user may power the box off (the shutdown button), nothing else.
POLKIT_RULE = """// Written by install.sh for uno-companion: its shutdown button powers the box off.
polkit.addRule(function (action, subject) {
    if ((action.id == "org.freedesktop.login1.power-off" ||
         action.id == "org.freedesktop.login1.power-off-multiple-sessions") &&
        subject.user == "uno") {
        return polkit.Result.YES;
    }
});
"""
# GPIO libraries by board family, the preferred one first (what backend "auto" tries first).
LIBRARIES = {
    "1": ("pigpio", "lgpio"),
    "zero2w": ("pigpio", "lgpio"),
    "3": ("pigpio", "lgpio"),
    "4": ("pigpio", "lgpio"),
    "5": ("lgpio",),
}
# Where each library comes from: its Debian package, its PyPI name, the module the venv imports.
DEBIAN_MODULE = {"pigpio": "python3-pigpio", "lgpio": "python3-lgpio"}
PYPI_NAME = {"pigpio": "pigpio", "lgpio": "lgpio"}
PIGPIO_DAEMON_PACKAGE = "pigpio"
# systemd 254 (Debian 13) spaces restarts out by itself; Bookworm's 252 does not know the keys.
RESTART_STEPS_SINCE = 254
# The amplifiers of [hardware] amplifier and the config.txt overlay each needs (its own name).
AMPLIFIER_OVERLAYS = {name: "" if name == "none" else name for name in AMPLIFIERS}
DEFAULT_AMPLIFIER = HardwareConfig().amplifier  # the BOM's amplifier
# The camera ([camera] enabled = true): Picamera2 and libcamera come from Raspberry Pi OS's own
# archive and the venv sees them through --system-site-packages. Picamera2's simplejpeg is built
# against that archive's numpy (1.x on Bookworm): a numpy 2 that pip puts in the venv shadows it
# and `import picamera2` fails ("numpy.dtype size changed", raspberrypi/picamera2 issues 1088 and
# 1211). So with a Camera Module OpenCV and numpy come from the archive too, and the venv must
# hold no copy of its own; a USB webcam takes them from the `camera` extra on a 64-bit OS
# (opencv-python-headless has aarch64 wheels only), from Debian on a 32-bit one. The service
# joins the video group and may open the camera's devices.
PICAMERA_PACKAGE = "python3-picamera2"
CAMERA_EXTRA = "camera"
DEBIAN_OPENCV = ("python3-opencv", "python3-numpy")
# What pip may have put in the venv (an earlier install, the camera extra) that would shadow the
# archive's numpy and OpenCV which Picamera2 was built with.
PICAMERA_SHADOWS = ("numpy", "opencv-python-headless", "opencv-python")
CAMERA_DEVICES = ("char-video4linux", "char-media", "char-dma_heap")
# The RP1 PWM block of a Pi 5 (GPIO 12, 13, 18, 19 with dtoverlay=pwm-2chan): behind PCIe on
# current kernels; both places are listed, a missing one is skipped ("-").
RP1_PWM_DEVICES = (
    "/sys/devices/platform/axi/1000120000.pcie/1f00098000.pwm",
    "/sys/devices/platform/axi/1f00098000.pwm",
)


class NotAPi(ValueError):
    """The board is not a Raspberry Pi the installer knows."""


@dataclass(frozen=True)
class InstallPlan:
    """Everything ``install.sh`` needs to know about this board."""

    board: Board
    family: str
    libraries: tuple[str, ...]
    apt_packages: tuple[str, ...]
    pip_packages: tuple[str, ...]
    pigpiod: bool
    pigpiod_args: str
    audio: str
    systemd_version: int
    amplifier: str = "none"
    camera: str = ""  # the [camera] source when the camera is on, "" when off
    pip_extras: tuple[str, ...] = ()
    apt_missing: tuple[str, ...] = ()  # wanted, but not in this system's archive
    pip_removed: tuple[str, ...] = ()  # pip packages the venv must not hold a copy of

    @property
    def groups(self) -> tuple[str, ...]:
        """The service user's groups."""
        return ("gpio", "audio", "video") if self.camera else ("gpio", "audio")

    @property
    def overlay(self) -> str:
        """The ``dtoverlay=`` config.txt needs for the amplifier ("" for none)."""
        return AMPLIFIER_OVERLAYS.get(self.amplifier, "")

    @property
    def gpio_library(self) -> str:
        """The library the service will use when everything is in place."""
        return self.libraries[0]

    def env(self) -> str:
        """Shell assignments for ``eval`` in install.sh."""
        values = {
            "BOARD_MODEL": self.board.model or "",
            "BOARD_FAMILY": self.family,
            "GPIO_LIBRARY": self.gpio_library,
            "GPIO_LIBRARIES": " ".join(self.libraries),
            "APT_PACKAGES": " ".join(self.apt_packages),
            "PIP_PACKAGES": " ".join(self.pip_packages),
            "PIGPIOD": "yes" if self.pigpiod else "no",
            # pigpiod's drop-in wherever pigpio may run, installed now or later.
            "PIGPIOD_DROPIN_WANTED": "yes" if "pigpio" in self.libraries else "no",
            "PIGPIOD_ARGS": self.pigpiod_args,
            "AUDIO_FOUND": self.audio,
            "AMPLIFIER": self.amplifier,
            "OVERLAY": self.overlay,
            "CAMERA": self.camera,
            "PIP_EXTRAS": ",".join(self.pip_extras),
            "APT_MISSING": " ".join(self.apt_missing),
            "PIP_REMOVED": " ".join(self.pip_removed),
            "SERVICE_GROUPS": " ".join(self.groups),
        }
        return "".join(f"{key}={shlex.quote(value)}\n" for key, value in values.items())

    def service_dropin(self) -> str:
        """The drop-in ``install.sh`` writes next to the repository's unit (never an edit of it)."""
        lines = [
            "# Written by install.sh for this board; re-running it rewrites this file.",
            "# Put your own changes in another file of this folder, e.g. 50-local.conf.",
            f"# Board: {self.board.model}; GPIO library: {self.gpio_library}.",
        ]
        if self.pigpiod:
            lines += ["[Unit]", "Wants=pigpiod.service", "After=pigpiod.service"]
        lines.append("[Service]")
        if self.family == "5":
            # Hardware PWM (pwm-2chan overlay) writes under /sys, which the unit makes read-only.
            lines += [f"ReadWritePaths=-{path}" for path in RP1_PWM_DEVICES]
        if self.camera:
            lines.append("SupplementaryGroups=video")
            lines += [f"DeviceAllow={device} rw" for device in CAMERA_DEVICES]
        if self.systemd_version >= RESTART_STEPS_SINCE:
            lines += ["RestartSteps=6", "RestartMaxDelaySec=60"]
        return "\n".join(lines) + "\n"

    def pigpiod_dropin(self) -> str:
        """pigpiod kept on localhost; with an I2S amplifier or HAT it must clock from PWM, not
        PCM."""
        why = (
            "-t 0: pigpiod's default PCM clock would stop the I2S amplifier"
            if "-t 0" in self.pigpiod_args
            else "-l: localhost only"
        )
        return (
            "# Written by install.sh for uno-companion.\n"
            f"# {why}.\n"
            "[Service]\nExecStart=\n"
            f"ExecStart=/usr/bin/pigpiod {self.pigpiod_args}\n"
        )


def make_plan(
    board: Board,
    available: Callable[[str], bool],
    systemd_version: int,
    audio_kind: str,
    amplifier: str = "none",
    camera: str = "",
    machine: str = "aarch64",
) -> InstallPlan:
    """The plan for ``board``; ``available(package)`` says whether apt can install a package,
    ``audio_kind`` is the sound output the configuration picks now (usb, hat, jack, hdmi, none),
    ``amplifier`` the configured I2S amplifier (``[hardware] amplifier``), ``camera`` the
    ``[camera] source`` when the camera is on ("" when off), ``machine`` the OS's architecture.

    pigpiod gets ``-t 0`` whenever an I2S amplifier is configured *or* an I2S card is there: the
    decision does not depend on what was installed or booted first, so every order of install
    (amplifier then pigpio, pigpio then amplifier, a re-run) ends with the same drop-in.
    """
    family = board.family
    if family is None or family not in LIBRARIES:
        raise NotAPi(
            f"this machine ({board.model or 'no device-tree model'}) is not a Raspberry Pi. "
            "On a laptop run 'uno-companion simulate' instead."
        )
    libraries = LIBRARIES[family]
    apt = list(BASE_PACKAGES)
    pip: list[str] = []
    for library in libraries:
        if available(DEBIAN_MODULE[library]):
            apt.append(DEBIAN_MODULE[library])
        else:
            pip.append(PYPI_NAME[library])
    pigpiod = "pigpio" in libraries and available(PIGPIO_DAEMON_PACKAGE)
    if pigpiod:
        apt.append(PIGPIO_DAEMON_PACKAGE)
    extras: list[str] = []
    missing: list[str] = []
    removed: tuple[str, ...] = ()
    if camera:
        wanted: list[str] = []
        if camera == "picamera2":
            wanted = [PICAMERA_PACKAGE, *DEBIAN_OPENCV]
            removed = PICAMERA_SHADOWS
        elif machine == "aarch64":
            extras.append(CAMERA_EXTRA)
        else:
            wanted = list(DEBIAN_OPENCV)
        for package in wanted:
            (apt if available(package) else missing).append(package)
    return InstallPlan(
        board=board,
        family=family,
        libraries=libraries,
        apt_packages=tuple(apt),
        pip_packages=tuple(pip),
        pigpiod=pigpiod,
        pigpiod_args="-l -t 0"
        if audio_kind == "hat" or AMPLIFIER_OVERLAYS.get(amplifier)
        else "-l",
        audio=audio_kind,
        systemd_version=systemd_version,
        amplifier=amplifier,
        camera=camera,
        pip_extras=tuple(extras),
        apt_missing=tuple(missing),
        pip_removed=removed,
    )


def avahi_service(port: int) -> str:
    """The avahi file announcing the phone page on ``port`` (``UNO companion on <hostname>``)."""
    return f"""<?xml version="1.0" standalone='no'?>
<!DOCTYPE service-group SYSTEM "avahi-service.dtd">
<!-- Written by install.sh for uno-companion: the phone page on the LAN. -->
<service-group>
  <name replace-wildcards="yes">{escape("UNO companion on %h")}</name>
  <service>
    <type>_http._tcp</type>
    <port>{int(port)}</port>
    <txt-record>path=/</txt-record>
  </service>
</service-group>
"""


def configured(config_path: Path, section: str, key: str, default: str) -> str:
    """One value of the configuration file (``default`` when absent or unreadable)."""
    try:
        data = tomllib.loads(read_config_text(config_path))
    except (ConfigError, tomllib.TOMLDecodeError):
        return default
    value = data.get(section, {}).get(key, default)
    return str(value)


def camera_source(config_path: Path) -> str:
    """``[camera] source`` when ``[camera] enabled = true``, else ""."""
    if configured(config_path, "camera", "enabled", "False") != "True":
        return ""
    return configured(config_path, "camera", "source", "picamera2")


def apt_has(package: str) -> bool:
    """Whether apt has a candidate version of ``package`` (after ``apt-get update``)."""
    done = subprocess.run(
        ["apt-cache", "policy", package], capture_output=True, text=True, check=False
    )
    return "Candidate:" in done.stdout and "Candidate: (none)" not in done.stdout


def systemd_version() -> int:
    try:
        out = subprocess.run(
            ["systemctl", "--version"], capture_output=True, text=True, check=False
        ).stdout
        return int(out.split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m companion.pi.plan", description=__doc__)
    parser.add_argument("what", choices=("env", "dropin", "pigpiod-dropin", "avahi", "polkit"))
    parser.add_argument("--config", type=Path, default=Path("/etc/uno-companion/config.toml"))
    parser.add_argument("--model-file", type=Path, default=None)
    parser.add_argument("--cards-file", type=Path, default=CARDS_FILE)
    args = parser.parse_args(argv)
    if args.what == "polkit":
        sys.stdout.write(POLKIT_RULE)
        return 0
    if args.what == "avahi":
        port = configured(args.config, "web", "port", "8080")
        sys.stdout.write(avahi_service(int(port) if port.isdigit() else 8080))
        return 0
    board = read_board(args.model_file or model_file())
    output = configured(args.config, "speech", "audio_output", "auto")
    amplifier = configured(args.config, "hardware", "amplifier", DEFAULT_AMPLIFIER)
    if amplifier not in AMPLIFIER_OVERLAYS:
        print(
            f"install.sh: [hardware] amplifier = {amplifier!r} is not one of "
            f"{', '.join(AMPLIFIER_OVERLAYS)} in {args.config}",
            file=sys.stderr,
        )
        return 2
    try:
        audio = choose_audio(output, read_cards(args.cards_file))
    except ValueError:
        audio = choose_audio("auto", read_cards(args.cards_file))
    try:
        plan = make_plan(
            board,
            apt_has,
            systemd_version(),
            audio.card.kind if audio.card else "none",
            amplifier,
            camera_source(args.config),
            platform.machine(),
        )
    except NotAPi as exc:
        print(f"install.sh: {exc}", file=sys.stderr)
        return 3
    text = {"env": plan.env, "dropin": plan.service_dropin, "pigpiod-dropin": plan.pigpiod_dropin}
    sys.stdout.write(text[args.what]())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
