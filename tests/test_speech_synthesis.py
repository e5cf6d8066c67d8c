"""Real speech: pyttsx3 + espeak-ng, through the same worker and engine process as the product."""

from __future__ import annotations

import io
import logging
import math
import wave
from array import array

import pytest

from companion.speech import SpeechConfig, SpeechWorker

RMS_FLOOR = 0.01  # of full scale; espeak-ng speech measures about 0.08 at volume 1.0


def synthesise(lines: list[tuple[str, str]], config: SpeechConfig | None = None) -> list[bytes]:
    """WAV bytes for each ``(text, voice)``, from the real engine in its own process."""
    wavs: list[bytes] = []

    def keep(wav: bytes) -> bool:
        wavs.append(wav)
        return True

    worker = SpeechWorker(config or SpeechConfig(), keep)
    try:
        for text, voice in lines:
            assert worker.submit(text, voice=voice, max_age=120.0)
        assert worker.wait_idle(60)
        assert worker.available is True, worker.unavailable_reason
    finally:
        worker.close()
    assert len(wavs) == len(lines)
    return wavs


def measure(wav: bytes) -> tuple[float, float, int]:
    """(seconds, RMS level 0..1, sample rate) of a mono 16-bit WAV."""
    with wave.open(io.BytesIO(wav), "rb") as reader:
        assert (reader.getnchannels(), reader.getsampwidth()) == (1, 2)
        rate = reader.getframerate()
        samples = array("h", reader.readframes(reader.getnframes()))
    rms = math.sqrt(sum(s * s for s in samples) / max(1, len(samples))) / 32768
    return len(samples) / rate, rms, rate


@pytest.mark.parametrize(
    ("text", "voice"),
    [("Alice, appuie deux fois.", "roa/fr"), ("Bruno, press twice.", "gmw/en")],
)
def test_real_speech_has_duration_and_level(text, voice):
    (wav,) = synthesise([(text, voice)])
    seconds, rms, rate = measure(wav)
    assert rate == 22050
    assert 0.3 < seconds < 10
    assert rms > RMS_FLOOR


def test_french_and_english_voices_differ_and_language_codes_work():
    phrase = "Contre-UNO ! Chloé appuie deux fois."
    by_id, by_language, english = synthesise(
        [(phrase, "roa/fr"), (phrase, "fr-fr"), (phrase, "gmw/en")]
    )
    # espeak-ng's output length varies by a few milliseconds from run to run (pyttsx3 cuts the
    # last chunk at a timing-dependent point), so compare durations, not bytes.
    french, french_by_language, in_english = (measure(w)[0] for w in (by_id, by_language, english))
    assert abs(french - french_by_language) < 0.05  # "fr-fr" resolves to the roa/fr voice
    assert abs(french - in_english) > 0.1


def test_rate_and_volume_come_from_the_config():
    phrase = "Manche deux. David distribue."
    normal, fast_quiet = (
        synthesise([(phrase, "roa/fr")], SpeechConfig(rate=165, volume=1.0))[0],
        synthesise([(phrase, "roa/fr")], SpeechConfig(rate=330, volume=0.3))[0],
    )
    normal_seconds, normal_rms, _ = measure(normal)
    fast_seconds, fast_rms, _ = measure(fast_quiet)
    assert fast_seconds < 0.75 * normal_seconds
    assert fast_rms < 0.6 * normal_rms


def test_unknown_voice_is_logged_once_and_falls_back(caplog):
    caplog.set_level(logging.WARNING, logger="companion.speech")
    first, second = synthesise([("Bonjour.", "fr-xx-nope"), ("Bonjour.", "fr-xx-nope")])
    assert measure(first)[0] > 0.3 and measure(second)[0] > 0.3
    notes = [r.getMessage() for r in caplog.records if "unknown espeak-ng voice" in r.getMessage()]
    assert len(notes) == 1 and "fr-xx-nope" in notes[0]
