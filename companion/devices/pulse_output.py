"""What the servo outputs share: the frame, the pulse limits and the unit conversions, and the
base of the outputs that time their own pulses (lgpio, Pi 5 hardware PWM)."""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from typing import Protocol

from companion.config.hardware import PULSE_LIMITS_US

logger = logging.getLogger(__name__)

SERVO_FRAME_S = 0.020  # 50 Hz: the pulse rate hobby servos expect


def pulse_us(pulse_s: float) -> int:
    """A pulse in whole microseconds, kept within :data:`PULSE_LIMITS_US`."""
    low, high = PULSE_LIMITS_US
    return min(max(round(pulse_s * 1e6), low), high)


def pulse_ns(pulse_s: float) -> int:
    """A pulse (or a frame) in nanoseconds, as the kernel's PWM files take it."""
    return round(pulse_s * 1e9)


class PulseRange(Protocol):
    """How angles map to pulse widths (a :class:`~.servo.ServoRange`)."""

    def pulse_for(self, angle: float) -> float: ...


class PulseOutput(ABC):
    """What the outputs that time their own pulses share: the pulse being sent, and a
    :meth:`close` that stops it and frees the line once, logging instead of raising.

    Subclasses set ``range`` and ``pin`` and implement :meth:`_send`, :meth:`_stop` and
    :meth:`_release`.
    """

    range: PulseRange
    pin: int
    _pulse: float | None = None
    _closed = False

    @property
    def pulse_width(self) -> float | None:
        return self._pulse

    def set_angle(self, angle: float) -> None:
        self._pulse = self._send(self.range.pulse_for(angle))

    def detach(self) -> None:
        self._stop()
        self._pulse = None

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self.detach()
            self._release()
        except Exception:  # closing must never hide the original error
            logger.warning("could not release GPIO%d", self.pin, exc_info=True)

    @abstractmethod
    def _send(self, pulse: float) -> float:
        """Start sending ``pulse`` seconds; return the pulse really sent."""

    @abstractmethod
    def _stop(self) -> None:
        """Stop the pulses (also called while detached)."""

    @abstractmethod
    def _release(self) -> None:
        """Free the line."""
