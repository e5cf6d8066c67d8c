"""Raspberry Pi 5 hardware PWM through ``/sys/class/pwm``: servo pulses with no jitter at all.

``lgpio.tx_servo`` times its pulses in software: the servo fidgets a little. The Pi 5's RP1 chip
has a PWM block whose channels drive GPIO 12, 13, 18 and 19 once this line is in
``/boot/firmware/config.txt`` (then reboot)::

    dtoverlay=pwm-2chan,pin=12,func=4,pin2=13,func2=4

The kernel then shows a ``pwmchipN`` under ``/sys/class/pwm``. Its number changes between
kernels (2 on early ones, 0 later), so the chip is picked by its device path
(``…/1f00098000.pwm/…``), never by number. Members of group ``gpio`` may write there on
Raspberry Pi OS. Every path is a parameter so tests run against a fake tree.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path

from .pulse_output import SERVO_FRAME_S, PulseOutput, PulseRange, pulse_ns

logger = logging.getLogger(__name__)

PWM_ROOT = Path("/sys/class/pwm")
RP1_PWM_DEVICE = "1f00098000.pwm"
# RP1 PWM0 channel for each header pin.
RP1_CHANNELS = {12: 0, 13: 1, 18: 2, 19: 3}
OVERLAY_LINE = "dtoverlay=pwm-2chan,pin=12,func=4,pin2=13,func2=4"
# The period of every servo channel: one servo frame (50 Hz), in nanoseconds as sysfs takes it.
SERVO_PERIOD_NS = pulse_ns(SERVO_FRAME_S)


def find_pwm_chip(root: Path = PWM_ROOT, device: str = RP1_PWM_DEVICE) -> Path | None:
    """The ``pwmchipN`` whose device path contains ``device``; None when the overlay is off."""
    try:
        chips = sorted(root.glob("pwmchip*"))
    except OSError:
        return None
    for chip in chips:
        try:
            if device in str(chip.resolve()):
                return chip
        except OSError:
            continue
    return None


def hardware_pwm_channel(pin: int, root: Path = PWM_ROOT) -> tuple[Path, int] | None:
    """The chip and channel that can drive ``pin``, or None (no overlay, or not a PWM pin)."""
    chip = find_pwm_chip(root)
    if chip is None or pin not in RP1_CHANNELS:
        return None
    return chip, RP1_CHANNELS[pin]


class SysfsPwmChannel:
    """One exported channel of a PWM chip: period, duty cycle and enable, in nanoseconds."""

    def __init__(
        self,
        chip: Path,
        channel: int,
        *,
        wait_s: float = 1.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.chip = chip
        self.channel = channel
        self.path = chip / f"pwm{channel}"
        if not self.path.exists():
            (chip / "export").write_text(f"{channel}\n")
        # udev gives the new files to group gpio a moment after the export.
        deadline = wait_s
        while not (self.path / "enable").exists() and deadline > 0:
            sleep(0.05)
            deadline -= 0.05
        if not (self.path / "enable").exists():
            raise OSError(f"{self.path} did not appear after exporting channel {channel}")

    def _read(self, name: str) -> int:
        try:
            return int((self.path / name).read_text().strip() or 0)
        except (OSError, ValueError):
            return 0

    def _write(self, name: str, value: int) -> None:
        (self.path / name).write_text(f"{value}\n")

    def set(self, period_ns: int, duty_ns: int) -> None:
        # The kernel refuses a duty longer than the period at every step: order the writes.
        if duty_ns > self._read("period"):
            self._write("period", period_ns)
            self._write("duty_cycle", duty_ns)
        else:
            self._write("duty_cycle", duty_ns)
            self._write("period", period_ns)

    def enable(self, on: bool) -> None:
        self._write("enable", 1 if on else 0)

    @property
    def enabled(self) -> bool:
        return self._read("enable") == 1

    def unexport(self) -> None:
        (self.chip / "unexport").write_text(f"{self.channel}\n")


class HardwarePwmServoOutput(PulseOutput):
    """A servo on a Pi 5 hardware-PWM channel (a :class:`~.servo.ServoOutput`)."""

    def __init__(self, pin: int, servo_range: PulseRange, chip: Path, channel: int) -> None:
        self.range = servo_range
        self.pin = pin
        self._channel = SysfsPwmChannel(chip, channel)
        self._channel.enable(False)  # start detached: no jump to the middle at power-up

    def _send(self, pulse: float) -> float:
        self._channel.set(SERVO_PERIOD_NS, pulse_ns(pulse))
        self._channel.enable(True)
        return pulse

    def _stop(self) -> None:
        self._channel.enable(False)

    def _release(self) -> None:
        self._channel.unexport()


def stop_pwm_pins(pins: set[int], root: Path = PWM_ROOT) -> list[int]:
    """Turn off the hardware-PWM channels of ``pins`` still running (after a crash); returns
    the pins stopped."""
    chip = find_pwm_chip(root)
    stopped: list[int] = []
    if chip is None:
        return stopped
    for pin in sorted(pins):
        channel = RP1_CHANNELS.get(pin)
        enable = chip / f"pwm{channel}" / "enable"
        if channel is None or not enable.exists():
            continue
        try:
            if enable.read_text().strip() == "1":
                enable.write_text("0\n")
                stopped.append(pin)
        except OSError:
            logger.warning("could not stop the PWM of GPIO%d", pin, exc_info=True)
    return stopped
