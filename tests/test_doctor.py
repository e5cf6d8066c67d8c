"""``uno-companion doctor`` on the mock backend: a healthy box, then each fault injected alone."""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.config import CameraConfig, parse_config
from companion.devices import Board
from companion.pi.doctor import FAIL, OK, WARN, Doctor, System, report_json, report_text
from companion.speech.audio import SoundCard

PI4 = "Raspberry Pi 4 Model B Rev 1.5"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"
JACK = SoundCard(1, "Headphones", "bcm2835_headpho", "bcm2835 Headphones")
HAT = SoundCard(3, "sndrpihifiberry", "HifiberryDac", "snd_rpi_hifiberry_dac")
AMP = SoundCard(2, "MAX98357A", "RPi-simple", "MAX98357A")


class FakeSystem(System):
    """A healthy Pi 4: every answer is an attribute a test may change."""

    def __init__(self, tmp: Path, model: str = PI4) -> None:
        super().__init__(model_path=tmp / "model", cards_file=tmp / "cards", pwm_root=tmp / "pwm")
        self.model = model
        self.pigpiod = True
        self.pigpiod_present = True
        self.groups = {"gpio", "audio"}
        self.devices = [Path("/dev/gpiochip0")]
        self.usable = True
        self.cards = [JACK, AMP]  # the BOM's amplifier, its overlay loaded
        self.commands = {"espeak-ng", "aplay"}
        self.modules = {"pyttsx3", "gpiozero"}
        self.throttle: int | None = 0
        self.synced: bool | None = True
        self.busy_port = False
        self.active = False
        self.announced: int | None = 8080
        self.pigpiod_command: str | None = "/usr/bin/pigpiod -l -t 0"
        self.boot_lines: list[str] | None = ["dtparam=audio=on", "dtoverlay=max98357a"]

    def board(self) -> Board:
        return Board(self.model)

    def pigpiod_installed(self) -> bool:
        return self.pigpiod_present

    def pigpiod_running(self) -> bool:
        return self.pigpiod

    def is_root(self) -> bool:
        return False

    def group_names(self) -> set[str]:
        return self.groups

    def gpio_devices(self) -> list[Path]:
        return self.devices

    def can_use(self, path: Path) -> bool:
        return self.usable

    def sound_cards(self) -> list[SoundCard]:
        return self.cards

    def has_command(self, name: str) -> bool:
        return name in self.commands

    def has_module(self, name: str) -> bool:
        return name in self.modules

    def throttled(self) -> int | None:
        return self.throttle

    def clock_synchronised(self) -> bool | None:
        return self.synced

    def port_in_use(self, host: str, port: int) -> bool:
        return self.busy_port

    def service_active(self) -> bool:
        return self.active

    def avahi_port(self) -> int | None:
        return self.announced

    def pigpiod_options(self) -> str | None:
        return self.pigpiod_command

    def boot_config(self) -> tuple[Path, list[str]] | None:
        if self.boot_lines is None:
            return None
        return Path("/boot/firmware/config.txt"), self.boot_lines

    def addresses(self, host: str, port: int) -> list[str]:
        return [f"http://192.168.1.20:{port}/", f"http://uno.local:{port}/"]


def doctor(tmp_path: Path, raw: dict[str, Any] | None = None, **changes: Any) -> Doctor:
    system = FakeSystem(tmp_path, model=changes.pop("model", PI4))
    for name, value in changes.items():
        setattr(system, name, value)
    config_path = tmp_path / "config.toml"
    config_path.write_text("")
    state = tmp_path / "state"
    state.mkdir(exist_ok=True)
    config = parse_config({"hardware": {"backend": "mock"}, **(raw or {})})
    return Doctor(config, config_path, state, system=system)


def statuses(found: Doctor) -> dict[str, str]:
    return {check.id: check.status for check in found.run()}


def test_a_healthy_pi4_is_ready(tmp_path: Path) -> None:
    found = doctor(tmp_path)
    results = found.run()
    # On a Pi, mock pins are a warning (the real pins are not driven); nothing fails.
    assert {c.id: c.status for c in results if c.status != OK} == {"backend": WARN}
    report = report_json(results, found.board)
    assert report["ready"] is True and report["board"] == PI4
    assert len(report["checks"]) == 17
    assert json.loads(json.dumps(report)) == report
    assert "ready for a game" in report_text(results)


@pytest.mark.parametrize(
    ("fault", "check", "status", "fix"),
    [
        ({"pigpiod": False}, "pigpiod", WARN, "systemctl enable --now pigpiod"),
        ({"pigpiod": False, "pigpiod_present": False}, "pigpiod", WARN, "apt install pigpio"),
        ({"groups": {"audio"}}, "permissions", WARN, "usermod -aG gpio,audio"),
        ({"usable": False}, "permissions", FAIL, "usermod"),
        ({"cards": []}, "audio", FAIL, "aplay -l"),
        ({"boot_lines": ["dtparam=audio=on"]}, "amplifier", FAIL, "install.sh adds it"),
        ({"boot_lines": None}, "amplifier", FAIL, "dtoverlay=max98357a"),
        ({"cards": [JACK]}, "amplifier", WARN, "reboot"),
        (
            {"cards": [JACK, AMP], "pigpiod_command": "/usr/bin/pigpiod -l"},
            "amplifier",
            FAIL,
            "-t 0",
        ),
        ({"commands": {"aplay"}}, "speech", FAIL, "apt install espeak-ng"),
        ({"modules": {"gpiozero"}}, "speech", FAIL, "espeak-ng"),
        ({"throttle": 0x50005}, "power", FAIL, "supply"),
        ({"throttle": 0x50000}, "power", WARN, "fused servo rail"),
        ({"synced": False}, "clock", WARN, "network"),
        ({"busy_port": True}, "port", FAIL, "ss -ltnp"),
        ({"announced": None}, "address", WARN, "install.sh"),
        ({"announced": 9000}, "address", WARN, "avahi"),
        ({"model": "QEMU Virtual Machine"}, "board", WARN, "simulate"),
    ],
)
def test_each_fault_is_named_with_its_fix(
    tmp_path: Path, fault: dict[str, Any], check: str, status: str, fix: str
) -> None:
    results = {c.id: c for c in doctor(tmp_path, **fault).run()}
    assert results[check].status == status
    assert fix in results[check].fix
    allowed = {check, "backend", "pigpiod"}
    if fault.get("cards") == [] or "pigpiod_command" in fault:
        allowed |= {"audio", "amplifier"}  # no card at all, or the PCM clock: both say so
    others = {c.id for c in results.values() if c.status != OK} - allowed
    assert others == set(), "one fault must not show up as another"


def test_doctor_says_whether_firing_is_counted_or_timed(tmp_path: Path) -> None:
    counted = {c.id: c for c in doctor(tmp_path).run()}["firing"]
    assert counted.status == OK and counted.detail.startswith("counted by the IR beam on GPIO24")
    no_beam = {"hardware": {"backend": "mock", "pins": {"card_sensor": -1}}}
    timed = {c.id: c for c in doctor(tmp_path, no_beam).run()}["firing"]
    assert timed.status == WARN and timed.detail.startswith("timed, not counted: no IR beam")
    assert "pins.card_sensor" in timed.fix


def test_a_missing_overlay_is_named_with_the_file_it_belongs_in(tmp_path: Path) -> None:
    found = {c.id: c for c in doctor(tmp_path, boot_lines=["#dtoverlay=max98357a"]).run()}
    amp = found["amplifier"]
    assert amp.status == FAIL
    assert amp.detail == (
        "dtoverlay=max98357a is missing from /boot/firmware/config.txt: the MAX98357A stays silent"
    )
    quiet = {"hardware": {"backend": "mock", "amplifier": "none"}}
    assert statuses(doctor(tmp_path, quiet, boot_lines=[]))["amplifier"] == OK


def test_port_used_by_the_service_itself_is_fine(tmp_path: Path) -> None:
    assert statuses(doctor(tmp_path, busy_port=True, active=True))["port"] == OK


def test_pigpiod_is_required_when_asked_for_and_ignored_on_a_pi5(tmp_path: Path) -> None:
    raw = {"hardware": {"backend": "mock"}}
    asked = doctor(tmp_path, raw, pigpiod=False)
    asked.backend = "pigpio"
    assert statuses(asked)["pigpiod"] == FAIL
    assert statuses(doctor(tmp_path, pigpiod=False, model=PI5))["pigpiod"] == OK


def test_pins_clash_with_a_speaker_hat_and_with_each_other(tmp_path: Path) -> None:
    on_i2s = {"hardware": {"backend": "mock", "amplifier": "none", "pins": {"buzzer": 18}}}
    assert statuses(doctor(tmp_path, on_i2s, cards=[JACK]))["pins"] == OK  # no HAT: 18 is free
    results = {c.id: c for c in doctor(tmp_path, on_i2s, cards=[HAT]).run()}
    assert results["pins"].status == FAIL and "speaker HAT" in results["pins"].detail
    serial = {"hardware": {"backend": "mock", "pins": {"card_sensor": 14}}}
    assert "serial console" in {c.id: c for c in doctor(tmp_path, serial).run()}["pins"].detail


def test_pi5_says_which_servo_pulses_and_how_to_enable_hardware_pwm(tmp_path: Path) -> None:
    results = {c.id: c for c in doctor(tmp_path, model=PI5).run()}
    assert results["servo_pulses"].status == WARN
    assert "lgpio.tx_servo" in results["servo_pulses"].detail
    assert "dtoverlay=pwm-2chan" in results["servo_pulses"].fix
    device = tmp_path / "devices" / "axi" / "1f00098000.pwm" / "pwm" / "pwmchip0"
    device.mkdir(parents=True)
    (tmp_path / "pwm").mkdir()
    (tmp_path / "pwm" / "pwmchip0").symlink_to(device)
    results = {c.id: c for c in doctor(tmp_path, model=PI5).run()}
    assert results["servo_pulses"].status == OK and "hardware PWM" in results["servo_pulses"].detail


def test_audio_device_override_and_silent_box(tmp_path: Path) -> None:
    explicit = {"hardware": {"backend": "mock"}, "speech": {"audio_device": "plughw:1"}}
    assert statuses(doctor(tmp_path, explicit, cards=[]))["audio"] == OK
    silent = {"hardware": {"backend": "mock"}, "speech": {"audio_output": "none"}}
    assert statuses(doctor(tmp_path, silent, cards=[]))["audio"] == OK


def test_database_missing_unwritable_and_damaged(tmp_path: Path) -> None:
    found = doctor(tmp_path)
    assert statuses(found)["database"] == OK
    found.state_dir = tmp_path / "nowhere"
    assert statuses(found)["database"] == WARN
    state = tmp_path / "state"
    db = sqlite3.connect(state / "scores.sqlite3")
    db.execute("create table t (x)")
    db.commit()
    db.close()
    found.state_dir = state
    assert statuses(found)["database"] == OK
    (state / "scores.sqlite3").write_bytes(b"SQLite format 3\0" + b"\xff" * 4000)
    results = {c.id: c for c in found.run()}
    assert results["database"].status == FAIL and "backup" in results["database"].fix


def test_cli_json_and_exit_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    config = tmp_path / "config.toml"
    config.write_text('[speech]\naudio_output = "usb"\n[web]\nport = 8765\n')
    status = main(
        ["doctor", "--json", "--backend", "mock", "-c", str(config), "--state-dir", str(tmp_path)]
    )
    report = json.loads(capsys.readouterr().out)
    by_id = {c["id"]: c for c in report["checks"]}
    # This machine is not a Pi and has no USB sound card for speech: not ready.
    assert by_id["audio"]["status"] == FAIL and status == 1 and report["ready"] is False
    assert by_id["backend"]["detail"] == "mock pins (simulation)"


def test_journal_lines_carry_their_priority() -> None:
    import logging

    from companion.cli import JournalFormatter, log_handler

    record = logging.LogRecord("companion", logging.ERROR, "x", 1, "pins\nbusy", None, None)
    assert JournalFormatter("%(message)s").format(record) == "<3>pins\n<3>busy"
    assert isinstance(log_handler({"JOURNAL_STREAM": "8:1234"}).formatter, JournalFormatter)
    assert not isinstance(log_handler({}).formatter, JournalFormatter)


def test_every_parts_trouble_reaches_the_log_once_per_kind_and_interval(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import logging

    from companion.cli import log_handler

    handler = log_handler({})
    loggers = [logging.getLogger(n) for n in ("companion.app.hub", "companion.devices.sensor")]
    for logger in loggers:
        logger.addHandler(handler)
        logger.propagate = False
    try:
        for _ in range(5):
            loggers[0].error("error while handling an input")
            loggers[1].warning("card beam: jam after %d of %d card(s)", 1, 3)
    finally:
        for logger in loggers:
            logger.removeHandler(handler)
            logger.propagate = True
    said = capsys.readouterr().err
    assert said.count("error while handling an input") == 1
    assert said.count("card beam: jam") == 1


def test_servo_sweep_asks_first_and_moves_each_servo_end_to_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from companion.cli.doctor import sweep

    found = doctor(tmp_path)
    factory = MockFactory(pin_class=MockPWMPin)
    monkeypatch.setattr("builtins.input", lambda prompt: "n")
    assert sweep(found, assume_yes=False, pause_s=0, factory=factory) == 0
    assert factory.pin(13).state == 0  # no consent: nothing moved
    assert sweep(found, assume_yes=True, pause_s=0, factory=factory) == 0
    # Turret on GPIO13: 0°, 360°, home 180° through the gear = 0.6, 2.4, 1.5 ms pulses (the safe
    # defaults) in 20 ms.
    duties = [round(s.state, 3) for s in factory.pin(13).states if s.state]
    assert duties[:3] == [0.03, 0.12, 0.075]
    # The feed on GPIO12 full forward, stopped (1.5 ms), full back; the exit pinch on GPIO4.
    feed = [round(s.state, 4) for s in factory.pin(12).states if s.state]
    assert feed == [0.12, 0.075, 0.03]
    assert [s.state for s in factory.pin(4).states] == [0.0, 1.0, 0.0]
    found.system.active = True  # type: ignore[attr-defined]
    assert sweep(found, assume_yes=True, pause_s=0, factory=factory) == 1
    factory.close()


def test_a_speaker_hat_needs_pigpiod_on_the_pwm_clock(tmp_path: Path) -> None:
    pcm = "/usr/bin/pigpiod -l"
    results = {c.id: c for c in doctor(tmp_path, cards=[HAT], pigpiod_command=pcm).run()}
    assert results["audio"].status == FAIL and "-t 0" in results["audio"].fix
    fixed = doctor(tmp_path, cards=[HAT], pigpiod_command="/usr/bin/pigpiod -l -t 0")
    assert statuses(fixed)["audio"] == OK
    assert statuses(doctor(tmp_path, cards=[JACK]))["audio"] == OK  # the jack wants PCM


def test_the_camera_is_checked_and_shows_a_test_read(tmp_path: Path) -> None:
    import cv2

    from companion.vision import render
    from companion.vision.kinds import Card
    from companion.vision.measure import held_out_styles

    assert statuses(doctor(tmp_path))["camera"] == OK  # off by default: nothing to check
    folder = tmp_path / "frames"
    folder.mkdir()
    (still,) = render.still_set(1, 41, held_out_styles(), (Card("skip", "red"),))
    cv2.imwrite(str(folder / "frame_0.jpg"), still.image)
    (folder / "frames.json").write_text(
        json.dumps({"frames": [{"file": "frame_0.jpg", "t_ms": 0}], "drawn": True})
    )
    # as a config file writes it ([camera] resolution = "WIDTHxHEIGHT")
    camera = {"enabled": True, "source": f"folder:{folder}", "resolution": "640x480"}
    found = doctor(tmp_path, {"camera": camera})
    (check,) = [c for c in found.run() if c.id == "camera"]
    assert check.status == OK and "test read: red skip" in check.detail
    assert re.search(r"\d+% \((un)?sure\)", check.detail)  # a drawing: often unsure, then asked
    # an empty tray: a warning, no read
    cv2.imwrite(str(folder / "frame_0.jpg"), still.image * 0 + 60)
    (check,) = [c for c in found.run() if c.id == "camera"]
    assert check.status == WARN and "no whole card" in check.detail

    class NoPicamera(FakeSystem):
        def camera_read(self, section: CameraConfig) -> str:
            raise ImportError("No module named 'libcamera'")

    picamera = replace(found.config, camera=CameraConfig(enabled=True, source="picamera2"))
    missing = Doctor(picamera, found.config_path, found.state_dir, system=NoPicamera(tmp_path))
    (check,) = [c for c in missing.run() if c.id == "camera"]
    assert check.status == FAIL and "python3-picamera2 is missing" in check.detail
    assert "install.sh" in check.fix
    found.config = replace(
        found.config, camera=CameraConfig(enabled=True, source=f"folder:{tmp_path / 'nowhere'}")
    )
    (check,) = [c for c in found.run() if c.id == "camera"]
    assert check.status == FAIL and check.detail.startswith("no frame from folder:")
