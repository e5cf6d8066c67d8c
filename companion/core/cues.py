"""One definition of each sound cue, played on the buzzer and rendered as WAV alike.

A cue is a list of steps ``(frequency_hz, seconds)``; frequency 0 is a rest. Frequencies come from
the set pigpio can produce exactly at its default sample rate (field notes: its PWM frequencies snap
to a fixed list), so the buzzer sounds the same on pigpio, lgpio, RPi.GPIO and the mock.
"""

from __future__ import annotations

from typing import get_args

from .commands import CueName

# Frequencies pigpio produces exactly at the default 5 µs sample rate, within a piezo's range.
BUZZER_SAFE_HZ: tuple[int, ...] = (320, 400, 500, 800, 1000, 1600, 2000)

Step = tuple[int, float]
# Every cue the box knows, in the order the type lists them.
CUE_NAMES: tuple[CueName, ...] = get_args(CueName)

_FIXED_CUES: dict[str, tuple[Step, ...]] = {
    # The launcher's "ding" on every accepted press.
    "ding": ((1600, 0.06), (2000, 0.10)),
    # Cards flying out: a rising run.
    "burst": ((800, 0.04), (1000, 0.04), (1600, 0.04), (2000, 0.16)),
    "reload": ((1000, 0.08), (0, 0.05), (1000, 0.08)),
    "start": ((500, 0.08), (800, 0.08), (1000, 0.08), (1600, 0.16)),
    "error": ((400, 0.25), (0, 0.05), (320, 0.35)),
    "warning": ((800, 0.12), (0, 0.08), (800, 0.12), (0, 0.08), (800, 0.12)),
}


def suspense_steps(level: float) -> tuple[Step, ...]:
    """Ticks that speed up as the launcher becomes more likely to fire (``level`` 0..1).

    Newer launchers' sounds speed up with every empty press until it fires (field notes).
    """
    level = min(1.0, max(0.0, level))
    ticks = 3 + round(level * 5)
    gap = 0.22 - 0.17 * level  # 220 ms between ticks when calm, 50 ms at the brink
    tone = 1000 if level < 0.5 else 1600
    steps: list[Step] = []
    for _ in range(ticks):
        steps.append((tone, 0.03))
        steps.append((0, gap))
    return tuple(steps)


def cue_steps(name: CueName, level: float = 0.0) -> tuple[Step, ...]:
    """The steps of cue ``name``; raises KeyError for an unknown cue."""
    if name == "suspense":
        return suspense_steps(level)
    return _FIXED_CUES[name]


def cue_duration(name: CueName, level: float = 0.0) -> float:
    """How long cue ``name`` lasts, in seconds."""
    return sum(seconds for _, seconds in cue_steps(name, level))
