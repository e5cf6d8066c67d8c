"""Sound cues rendered as WAV: one definition (core/cues.py), the right length, no clicks."""

from __future__ import annotations

import io
import itertools
import typing
import wave
from array import array

import pytest

from companion.core.commands import CueName
from companion.core.cues import cue_duration, cue_steps
from companion.speech.sounds import SAMPLE_RATE, CueSounds, render_steps, wav_duration

ALL_CUES: tuple[CueName, ...] = typing.get_args(CueName)


def samples_of(wav: bytes) -> array[int]:
    with wave.open(io.BytesIO(wav), "rb") as reader:
        assert (reader.getnchannels(), reader.getsampwidth()) == (1, 2)
        assert reader.getframerate() == SAMPLE_RATE
        return array("h", reader.readframes(reader.getnframes()))


@pytest.mark.parametrize("name", ALL_CUES)
def test_each_cue_lasts_as_defined_and_starts_and_ends_silent(name):
    wav = CueSounds(volume=0.5).wav(name)
    samples = samples_of(wav)
    steps = cue_steps(name)
    assert abs(wav_duration(wav) - cue_duration(name)) <= len(steps) / SAMPLE_RATE
    assert abs(samples[0]) < 200 and abs(samples[-1]) < 200  # faded: no click
    assert 0.4 * 32767 < max(samples) <= 0.5 * 32767 + 1


def test_rests_are_silent_and_tones_are_not():
    samples = samples_of(render_steps([(1000, 0.1), (0, 0.1), (1000, 0.1)]))
    third = len(samples) // 3
    assert max(map(abs, samples[third : 2 * third])) == 0
    assert max(samples[:third]) > 10000 and max(samples[2 * third :]) > 10000


def test_tone_has_the_right_pitch():
    samples = samples_of(render_steps([(800, 0.5)]))
    rising = sum(1 for a, b in itertools.pairwise(samples) if a < 0 <= b)
    assert abs(rising - 400) <= 2  # 800 Hz for half a second


def test_suspense_speeds_up_with_the_level():
    sounds = CueSounds()
    calm, brink = samples_of(sounds.wav("suspense", 0.0)), samples_of(sounds.wav("suspense", 1.0))

    def ticks_per_second(samples: array[int]) -> float:
        onsets = sum(1 for a, b in itertools.pairwise(samples) if a == 0 and b != 0)
        return onsets / (len(samples) / SAMPLE_RATE)

    assert ticks_per_second(brink) > 2 * ticks_per_second(calm)


def test_cues_are_rendered_once_and_cached():
    sounds = CueSounds()
    assert sounds.wav("ding") is sounds.wav("ding")
    assert sounds.wav("suspense", 0.51) is sounds.wav("suspense", 0.50)
    assert sounds.wav("suspense", 0.2) is not sounds.wav("suspense", 0.8)


def test_volume_zero_is_silence_and_unknown_cue_is_an_error():
    assert max(map(abs, samples_of(CueSounds(volume=0.0).wav("burst")))) == 0
    with pytest.raises(KeyError):
        CueSounds().wav(typing.cast(CueName, "trumpet"))


def test_wav_duration_of_garbage_is_zero():
    assert wav_duration(b"not a wav") == 0.0
