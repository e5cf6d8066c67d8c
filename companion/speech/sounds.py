"""Sound cues rendered as short WAV files for the speaker.

The buzzer (devices adapter) plays the same :func:`companion.core.cues.cue_steps` on hardware; here
each step becomes a sine tone with 5 ms fades (no clicks) or a silence, 22050 Hz mono 16-bit, the
format espeak-ng produces, so speech and cues go through one player without resampling.
"""

from __future__ import annotations

import io
import math
import wave
from array import array
from collections.abc import Iterable

from companion.core.commands import CueName
from companion.core.cues import Step, cue_steps

SAMPLE_RATE = 22050
FADE_SECONDS = 0.005
# The suspense tempo is cached in 1/20 steps: finer differences are inaudible.
LEVEL_STEPS = 20


def render_steps(steps: Iterable[Step], volume: float = 0.5) -> bytes:
    """A WAV file (bytes) playing ``steps`` of ``(frequency_hz, seconds)``; 0 Hz is a rest."""
    amplitude = 32767 * min(1.0, max(0.0, volume))
    samples = array("h")
    for frequency, seconds in steps:
        count = round(seconds * SAMPLE_RATE)
        if frequency <= 0 or amplitude == 0:
            samples.frombytes(bytes(2 * count))
            continue
        fade = max(1, min(round(FADE_SECONDS * SAMPLE_RATE), count // 2))
        step = 2 * math.pi * frequency / SAMPLE_RATE
        for i in range(count):
            envelope = min(1.0, i / fade, (count - 1 - i) / fade)
            samples.append(round(amplitude * envelope * math.sin(step * i)))
    return wav_bytes(samples.tobytes())


def wav_bytes(frames: bytes, rate: int = SAMPLE_RATE) -> bytes:
    """Wrap mono 16-bit ``frames`` in a WAV header."""
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(frames)
    return buffer.getvalue()


def wav_duration(data: bytes) -> float:
    """Length in seconds of the WAV file ``data``; 0.0 when it is not a readable WAV."""
    try:
        with wave.open(io.BytesIO(data), "rb") as wav:
            return wav.getnframes() / float(wav.getframerate() or 1)
    except (wave.Error, EOFError):
        return 0.0


class CueSounds:
    """Renders each cue once and keeps the WAV bytes (a cue is a few kilobytes).

    ``volume`` 0..1 sets the loudness of every cue.
    """

    def __init__(self, volume: float = 0.5) -> None:
        self.volume = volume
        self._cache: dict[tuple[str, int], bytes] = {}

    def wav(self, name: CueName, level: float = 0.0) -> bytes:
        """The WAV bytes of cue ``name`` (``level`` 0..1 for the suspense tempo).

        Raises KeyError for an unknown cue name.
        """
        quantised = round(min(1.0, max(0.0, level)) * LEVEL_STEPS) if name == "suspense" else 0
        key = (name, quantised)
        if key not in self._cache:
            steps = cue_steps(name, quantised / LEVEL_STEPS)
            self._cache[key] = render_steps(steps, self.volume)
        return self._cache[key]
