"""The [speech] section: defaults, validation and clear problems."""

from __future__ import annotations

import pytest

from companion.config import ConfigError, parse_config
from companion.core.model import parse
from companion.speech import SpeechConfig


def test_missing_section_gives_the_defaults():
    config = parse_config({}).speech
    assert config == SpeechConfig()
    assert (config.voice_fr, config.voice_en, config.turn_announcements) == (
        "roa/fr",
        "gmw/en",
        "reverse_skip",
    )


def test_a_full_section_from_the_config_file():
    config = parse_config(
        {
            "speech": {
                "voice_fr": "roa/fr+f3",
                "rate": 150,
                "volume": 1,
                "turn_announcements": "every_turn",
                "audio_device": "plughw:CARD=Device",
                "cues_enabled": False,
            }
        }
    )
    speech = config.speech
    assert speech.voice_fr == "roa/fr+f3"
    assert speech.volume == 1.0 and isinstance(speech.volume, float)
    assert speech.turn_announcements == "every_turn"
    assert speech.audio_device == "plughw:CARD=Device"
    assert speech.cues_enabled is False


def test_every_problem_is_reported_with_its_key():
    problems: list[str] = []
    speech = parse(
        SpeechConfig,
        {"rate": 20, "turn_announcements": "always", "volume": "loud", "voise": "x"},
        "speech",
        problems,
    )
    assert speech == SpeechConfig()  # bad values keep their defaults
    text = "\n".join(problems)
    assert "speech.rate: 20 is below the minimum 80" in text
    assert "speech.turn_announcements: 'always' is not one of off, reverse_skip, every_turn" in text
    assert "speech.volume: expected a number" in text
    assert "speech.voise: unknown key" in text
    with pytest.raises(ConfigError) as raised:
        parse_config({"speech": {"timeout": 0}}, "box.toml")
    assert "box.toml" in str(raised.value) and "speech.timeout" in str(raised.value)
