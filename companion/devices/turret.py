"""The turret: a positional servo turning the launcher through a 2:1 gear to face a seat.

Wiring::

    servo brown/black ── GND of the 5 V servo rail AND a Pi GND pin (common ground)
    servo red         ── +5 V servo rail (the distribution board, never the Pi's 5 V pin)
    servo orange      ── GPIO13 (default)

The box sits in the middle of the table with seats all round: the servo's 0..180° turn the
launcher 0..360° through the gear (``gear_ratio`` 2). Angles here are the launcher's bearings;
the pulses map ``min_angle..max_angle`` linearly, so the gear only sets how far the servo
itself travels (at most 270°, checked in the config). Seat bearings come from
``uno-companion calibrate``.

Moves are slew-limited (``slew_deg_s``): the servo is sent a new angle every 20 ms frame, so a
loaded launcher does not jerk or tip. The path never leaves ``min_angle..max_angle``: from the
middle (``home_angle`` 180°) the cables twist at most half a turn either way, and of the
bearings facing a seat (0° and 360° are the same seat) the nearest one is taken, so the turret
goes the short way round whenever the cables allow it. After each move the servo is held
``settle_s`` and then detached: no pulses means no jitter and no hum.
"""

from __future__ import annotations

import logging
import math
import threading
from typing import Any

from .clock import SYSTEM_CLOCK, Clock
from .config import TurretConfig, equivalent_angle
from .ejector import Pacer
from .servo import SERVO_FRAME_S, ServoOutput, ServoRange, make_servo_output

logger = logging.getLogger(__name__)


def turret_range(config: TurretConfig) -> ServoRange:
    return ServoRange.from_us(
        config.min_angle, config.max_angle, config.min_pulse_us, config.max_pulse_us
    )


def slew_path(start: float, target: float, slew_deg_s: float) -> list[float]:
    """Angles to send, one per 20 ms frame, from ``start`` (excluded) to ``target`` (included)."""
    step = slew_deg_s * SERVO_FRAME_S
    frames = max(1, math.ceil(abs(target - start) / step - 1e-9))
    return [start + (target - start) * k / frames for k in range(1, frames + 1)]


def default_seat_angles(config: TurretConfig, seats: int) -> list[float]:
    """Seat angles for an uncalibrated turret: calibrated ones first, the rest spread evenly."""
    calibrated = list(config.seat_angles)
    if len(calibrated) >= seats:
        return calibrated
    low, high = config.min_angle, config.max_angle
    if seats <= 1:
        spread = [(low + high) / 2]
    elif config.full_circle:
        spread = [low + 360.0 * i / seats for i in range(seats)]  # all round, evenly
    else:
        spread = [low + (high - low) * i / (seats - 1) for i in range(seats)]
    return calibrated + spread[len(calibrated) :]


class Turret:
    """Faces seats; :meth:`face` and :meth:`move_to` block for the move, so use a worker thread.

    The turret's position is unknown until the first move (the servo was detached), so
    :meth:`home` jumps straight to ``home_angle`` once; every later move is slew-limited.
    """

    def __init__(
        self,
        pin: int,
        config: TurretConfig,
        *,
        factory: Any,
        seats: int = 4,
        output: ServoOutput | None = None,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        self.config = config
        self._clock = clock
        self.range = turret_range(config)
        self.seat_angles = default_seat_angles(config, seats)
        self._servo = output or make_servo_output(pin, self.range, factory)
        self._lock = threading.Lock()
        self._angle: float | None = None
        self._seat: int | None = None
        self._target: float | None = None  # where the move under way ends (or ended)
        self._target_seat: int | None = None
        self._moving = False

    @property
    def servo(self) -> ServoOutput:
        return self._servo

    @property
    def angle(self) -> float | None:
        """Where the turret is: the last angle sent, one slew frame at a time while it turns
        (``None`` before the first move)."""
        with self._lock:
            return self._angle

    @property
    def target(self) -> float | None:
        """Where the turret is going: the end of the move under way, else where it rests."""
        with self._lock:
            return self._target

    @property
    def seat(self) -> int | None:
        """Seat faced once a :meth:`face` has ended; ``None`` while turning, after a free
        :meth:`move_to`, or after a move cut short."""
        with self._lock:
            return self._seat

    @property
    def target_seat(self) -> int | None:
        """The seat the turret is turning to, or faces (``None``: no seat)."""
        with self._lock:
            return self._target_seat

    @property
    def moving(self) -> bool:
        with self._lock:
            return self._moving

    @property
    def attached(self) -> bool:
        return self._servo.pulse_width is not None

    def angle_for_seat(self, seat: int) -> float:
        """The servo angle facing ``seat`` (0-based); raises IndexError for an unknown seat."""
        if not 0 <= seat < len(self.seat_angles):
            raise IndexError(f"seat {seat} has no angle (seats 0..{len(self.seat_angles) - 1})")
        return self.seat_angles[seat]

    def set_seat_angle(self, seat: int, angle: float) -> None:
        """Change one seat's angle (calibration); extends the list if needed."""
        while len(self.seat_angles) <= seat:
            self.seat_angles.append(self.range.clamp(self.config.home_angle))
        self.seat_angles[seat] = self.range.clamp(angle)

    def home(self, stop: threading.Event | None = None) -> None:
        """Jump to ``home_angle`` (position unknown: no slew possible), settle, detach; a set
        ``stop`` cuts the settling short."""
        target = equivalent_angle(
            self.config.home_angle, None, self.config.min_angle, self.config.max_angle
        )
        with self._lock:
            self._seat = self._target_seat = None
        self._run([self.range.clamp(self.config.home_angle if target is None else target)], stop)

    def face(self, seat: int, stop: threading.Event | None = None) -> float:
        """Turn to face ``seat`` and settle; returns the angle reached. Facing it already, this
        returns at once."""
        return self._move(self.angle_for_seat(seat), stop, seat)

    def move_to(self, bearing: float, stop: threading.Event | None = None) -> float:
        """Turn to ``bearing`` (degrees, any turn) along the shortest path inside the range."""
        return self._move(bearing, stop, None)

    def _move(self, bearing: float, stop: threading.Event | None, seat: int | None) -> float:
        current = self.angle
        target = equivalent_angle(bearing, current, self.config.min_angle, self.config.max_angle)
        if target is None:
            target = self.range.clamp(bearing)
            logger.warning("turret: %.1f° is out of range, stopping at %.1f°", bearing, target)
        with self._lock:
            self._seat = None
            self._target_seat = seat
        if current is not None and abs(target - current) < 0.01:
            with self._lock:
                self._seat = seat
            return target  # already there: a detached servo holds its position
        path = [target] if current is None else slew_path(current, target, self.config.slew_deg_s)
        if self._run(path, stop):
            with self._lock:
                self._seat = seat
        return target

    def _run(self, path: list[float], stop: threading.Event | None) -> bool:
        """Send ``path`` frame by frame, hold the last ``settle_s``, detach; False if ``stop``
        cut it short."""
        stop = stop or threading.Event()
        pacer = Pacer(stop, self._clock)
        with self._lock:
            self._moving = True
            self._target = path[-1]
        try:
            last = len(path) - 1
            for index, angle in enumerate(path):
                self._servo.set_angle(angle)
                with self._lock:
                    self._angle = angle
                if not pacer.hold(SERVO_FRAME_S if index < last else self.config.settle_s):
                    return False
            return True
        finally:
            self._servo.detach()
            with self._lock:
                self._moving = False

    def close(self) -> None:
        self._servo.close()
