"""Pi 5 hardware PWM through a fake /sys/class/pwm, and the clean-up after a crash."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.devices import ServoRange
from companion.devices.pwm import (
    HardwarePwmServoOutput,
    find_pwm_chip,
    hardware_pwm_channel,
    stop_pwm_pins,
)
from companion.devices.safety import make_safe
from companion.devices.servo import servo_driver

RANGE = ServoRange(0.0, 180.0, 0.0005, 0.0025)


def fake_sysfs(tmp: Path, chips: dict[str, str]) -> Path:
    """/sys/class/pwm with a ``pwmchipN`` link per device; export creates the channel files."""
    root = tmp / "class" / "pwm"
    root.mkdir(parents=True)
    for name, device in chips.items():
        target = tmp / "devices" / device / "pwm" / name
        target.mkdir(parents=True)
        (target / "export").write_text("")
        (target / "unexport").write_text("")
        (root / name).symlink_to(target)
    return root


def export_channels(chip: Path, channels: range) -> None:
    # What the kernel does on "echo N > export".
    for channel in channels:
        path = chip / f"pwm{channel}"
        path.mkdir(exist_ok=True)
        for name in ("period", "duty_cycle", "enable"):
            (path / name).write_text("0\n")


def test_the_chip_is_found_by_device_path_not_number(tmp_path: Path) -> None:
    root = fake_sysfs(
        tmp_path,
        {"pwmchip0": "platform/soc/fan-pwm", "pwmchip2": "platform/axi/1f00098000.pwm"},
    )
    assert find_pwm_chip(root) == root / "pwmchip2"
    assert hardware_pwm_channel(13, root) == (root / "pwmchip2", 1)
    assert hardware_pwm_channel(18, root) == (root / "pwmchip2", 2)
    assert hardware_pwm_channel(17, root) is None  # not a PWM pin
    assert find_pwm_chip(fake_sysfs(tmp_path / "off", {"pwmchip0": "platform/soc/fan"})) is None


def test_servo_sends_exact_pulses_and_detaches(tmp_path: Path) -> None:
    root = fake_sysfs(tmp_path, {"pwmchip0": "platform/axi/1f00098000.pwm"})
    chip = root / "pwmchip0"
    export_channels(chip, range(1))
    servo = HardwarePwmServoOutput(12, RANGE, chip, 0)
    channel = chip / "pwm0"
    assert (channel / "enable").read_text() == "0\n" and servo.pulse_width is None
    servo.set_angle(90.0)
    assert (channel / "period").read_text() == "20000000\n"
    assert (channel / "duty_cycle").read_text() == "1500000\n"  # 1.5 ms, to the nanosecond
    assert (channel / "enable").read_text() == "1\n"
    servo.set_angle(180.0)
    assert (channel / "duty_cycle").read_text() == "2500000\n"
    servo.close()
    assert (channel / "enable").read_text() == "0\n"
    assert (chip / "unexport").read_text() == "0\n"


def test_servo_driver_prefers_hardware_pwm_on_lgpio_only(tmp_path: Path) -> None:
    root = fake_sysfs(tmp_path, {"pwmchip0": "platform/axi/1f00098000.pwm"})

    class LGPIOFactory:  # named and placed like gpiozero's, without lgpio installed
        __module__ = "gpiozero.pins.lgpio"

    assert servo_driver(LGPIOFactory(), 12, root) == "hardware-pwm"
    assert servo_driver(LGPIOFactory(), 17, root) == "lgpio"
    assert servo_driver(LGPIOFactory(), 12, tmp_path / "none") == "lgpio"
    assert servo_driver(MockFactory(pin_class=MockPWMPin), 12, root) == "gpiozero"


class FakePigpio:
    def __init__(self) -> None:
        self.connected = True
        self.calls: list[tuple[str, int, int]] = []
        self.stopped = False

    def set_servo_pulsewidth(self, pin: int, width: int) -> None:
        self.calls.append(("servo", pin, width))

    def set_PWM_dutycycle(self, pin: int, duty: int) -> None:
        self.calls.append(("pwm", pin, duty))

    def write(self, pin: int, level: int) -> None:
        self.calls.append(("write", pin, level))

    def stop(self) -> None:
        self.stopped = True


class FakeLgpio:
    def __init__(self) -> None:
        self.claimed: list[tuple[int, int]] = []
        self.freed: list[int] = []

    def gpiochip_open(self, number: int) -> int:
        if number > 4:
            raise OSError("no chip")
        return number

    def gpio_get_chip_info(self, handle: int) -> tuple[int, int, str, str]:
        return (0, 54, "pinctrl-rp1" if handle == 4 else "rp1-other", "")

    def gpiochip_close(self, handle: int) -> None:
        pass

    def gpio_claim_output(self, handle: int, pin: int, level: int) -> None:
        assert handle == 4
        self.claimed.append((pin, level))

    def gpio_free(self, handle: int, pin: int) -> None:
        self.freed.append(pin)


def test_after_a_crash_pigpiod_stops_the_pulses_and_the_tone(tmp_path: Path) -> None:
    pi = FakePigpio()
    done = make_safe({12, 13}, {16}, pigpio_connect=lambda: pi, lgpio=None, pwm_root=tmp_path)
    assert pi.calls == [("servo", 12, 0), ("servo", 13, 0), ("pwm", 16, 0), ("write", 16, 0)]
    assert pi.stopped and done == ["pigpiod: servo pulses off, buzzer silent"]


def test_after_a_crash_hardware_pwm_and_lgpio_lines_are_stopped(tmp_path: Path) -> None:
    root = fake_sysfs(tmp_path, {"pwmchip0": "platform/axi/1f00098000.pwm"})
    export_channels(root / "pwmchip0", range(2))
    (root / "pwmchip0" / "pwm0" / "enable").write_text("1\n")  # left running by the crash
    lgpio: Any = FakeLgpio()
    done = make_safe({12, 13}, {16}, pigpio_connect=None, lgpio=lgpio, pwm_root=root)
    assert (root / "pwmchip0" / "pwm0" / "enable").read_text() == "0\n"
    # The header chip is found by its label; each other line is driven low, then released.
    assert lgpio.claimed == [(13, 0), (16, 0)] and lgpio.freed == [13, 16]
    assert done == ["hardware PWM stopped on GPIO12", "lgpio: driven low GPIO13, GPIO16"]
    assert stop_pwm_pins({12}, root) == []  # already stopped: nothing to do


def test_hardware_pwm_frame_is_the_servo_frame() -> None:
    from companion.devices import pwm
    from companion.devices.servo import SERVO_FRAME_S

    assert round(SERVO_FRAME_S * 1e9) == pwm.SERVO_PERIOD_NS
