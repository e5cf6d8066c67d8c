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
from companion.core.cues import CUE_NAMES, Step, cue_steps

SAMPLE_RATE = 22050
FADE_SECONDS = 0.005
# The suspense tempo is cached in 1/20 steps: finer differences are inaudible.
LEVEL_STEPS = 20


def tone_frames(frequency: int, seconds: float, amplitude: float) -> bytes:
    """Mono 16-bit frames of one step: a sine with 5 ms fades, or silence for 0 Hz."""
    count = round(seconds * SAMPLE_RATE)
    if frequency <= 0 or amplitude == 0:
        return bytes(2 * count)
    fade = max(1, min(round(FADE_SECONDS * SAMPLE_RATE), count // 2))
    step = 2 * math.pi * frequency / SAMPLE_RATE
    samples = array(
        "h",
        (
            round(amplitude * min(1.0, i / fade, (count - 1 - i) / fade) * math.sin(step * i))
            for i in range(count)
        ),
    )
    return samples.tobytes()


def render_steps(steps: Iterable[Step], volume: float = 0.5) -> bytes:
    """A WAV file (bytes) playing ``steps`` of ``(frequency_hz, seconds)``; 0 Hz is a rest."""
    amplitude = 32767 * min(1.0, max(0.0, volume))
    return wav_bytes(b"".join(tone_frames(f, s, amplitude) for f, s in steps))


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

    ``volume`` 0..1 sets the loudness of every cue. Cues share their steps (the suspense ticks
    are one tone at every tempo), so each distinct step is computed once: the sample loop is
    pure Python and, run on a press, would hold the interpreter lock for milliseconds.
    Call :meth:`render_all` off the press path (at start, after a volume change) so no press
    ever pays for it.
    """

    def __init__(self, volume: float = 0.5) -> None:
        self.volume = volume
        self._amplitude = 32767 * min(1.0, max(0.0, volume))
        self._cache: dict[tuple[str, int], bytes] = {}
        self._steps: dict[Step, bytes] = {}

    def wav(self, name: CueName, level: float = 0.0) -> bytes:
        """The WAV bytes of cue ``name`` (``level`` 0..1 for the suspense tempo).

        Raises KeyError for an unknown cue name.
        """
        quantised = round(min(1.0, max(0.0, level)) * LEVEL_STEPS) if name == "suspense" else 0
        key = (name, quantised)
        wav = self._cache.get(key)
        if wav is None:
            steps = cue_steps(name, quantised / LEVEL_STEPS)
            wav = self._cache[key] = wav_bytes(b"".join(map(self._step_frames, steps)))
        return wav

    @property
    def rendered(self) -> int:
        """Cues rendered so far (each cue at each suspense tempo counts once)."""
        return len(self._cache)

    def render_all(self) -> None:
        """Render every cue at every suspense tempo now (about 25 ms on a PC, once)."""
        for name in CUE_NAMES:
            levels = range(LEVEL_STEPS + 1) if name == "suspense" else (0,)
            for level in levels:
                self.wav(name, level / LEVEL_STEPS)

    def _step_frames(self, step: Step) -> bytes:
        frames = self._steps.get(step)
        if frames is None:
            frames = self._steps[step] = tone_frames(step[0], step[1], self._amplitude)
        return frames
