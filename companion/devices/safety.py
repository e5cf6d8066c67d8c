"""Leaving the pins safe after the daemon stopped, however it stopped (``ExecStopPost``).

A crash skips the daemon's own clean-up, and two GPIO paths keep a pin busy after the process is
gone: **pigpiod** goes on sending the last servo pulses and buzzer tone (it is another process),
and a Pi 5 **hardware-PWM** channel keeps running in the kernel. lgpio lines are released by
the kernel when the process dies, but a released line keeps its level, so an active buzzer
would go on sounding: each output is driven low once, then released.
Every library and path is a parameter so tests can use fakes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from .pwm import PWM_ROOT, stop_pwm_pins

logger = logging.getLogger(__name__)


def stop_with_pigpio(pi: Any, servos: Iterable[int], others: Iterable[int]) -> None:
    """Servo pulses off and the other outputs low through a connected ``pigpio.pi``."""
    for pin in servos:
        pi.set_servo_pulsewidth(pin, 0)
    for pin in others:
        pi.set_PWM_dutycycle(pin, 0)
        pi.write(pin, 0)


def stop_with_lgpio(lgpio: Any, pins: Iterable[int], chip: int | None = None) -> list[int]:
    """Drive each pin low and release it, on the chip that holds the header's GPIO lines."""
    handle = _open_header_chip(lgpio) if chip is None else lgpio.gpiochip_open(chip)
    if handle is None:
        return []
    done = []
    try:
        for pin in pins:
            try:
                lgpio.gpio_claim_output(handle, pin, 0)
                lgpio.gpio_free(handle, pin)
                done.append(pin)
            except Exception as exc:  # a line still held by another process: leave it
                logger.warning("GPIO%d left alone: %s", pin, exc)
    finally:
        lgpio.gpiochip_close(handle)
    return done


def _open_header_chip(lgpio: Any) -> int | None:
    # gpiochip0 on a Pi <= 4 and on recent Pi 5 kernels, gpiochip4 on early Pi 5 ones.
    for number in range(6):
        try:
            handle = lgpio.gpiochip_open(number)
        except Exception:
            continue
        label = str(lgpio.gpio_get_chip_info(handle)[2])
        if "pinctrl" in label:
            return int(handle)
        lgpio.gpiochip_close(handle)
    return None


def make_safe(
    servos: set[int],
    others: set[int],
    *,
    pigpio_connect: Callable[[], Any] | None,
    lgpio: Any | None,
    pwm_root: Path = PWM_ROOT,
) -> list[str]:
    """Stop every output; returns what was done, one line each (for the journal)."""
    done = []
    stopped = stop_pwm_pins(servos | others, pwm_root)
    if stopped:
        done.append("hardware PWM stopped on " + ", ".join(f"GPIO{p}" for p in stopped))
    pi = pigpio_connect() if pigpio_connect else None
    if pi is not None and getattr(pi, "connected", False):
        try:
            stop_with_pigpio(pi, sorted(servos), sorted(others))
            done.append("pigpiod: servo pulses off, buzzer silent")
        finally:
            pi.stop()
    elif lgpio is not None:
        pins = stop_with_lgpio(lgpio, sorted((servos | others) - set(stopped)))
        if pins:
            done.append("lgpio: driven low " + ", ".join(f"GPIO{p}" for p in pins))
    return done
