"""The ``[speech]`` section of the configuration file: the voice, its speed, and the sounds."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.config import ConfigError, option, parse_section

from .audio import AUDIO_OUTPUTS

TURN_ANNOUNCEMENTS = ("off", "reverse_skip", "every_turn")


@dataclass(frozen=True)
class SpeechConfig:
    """What the box says and how: read from ``[speech]`` with :func:`load_speech_config`."""

    enabled: bool = option(True, "speak reminders and results (false: the box stays silent)")
    voice_fr: str = option(
        "roa/fr",
        "espeak-ng voice for French: an id from `espeak-ng --voices` (roa/fr), a language "
        "(fr-fr) or a name (French (France)); add a variant with +, e.g. roa/fr+f3",
    )
    voice_en: str = option("gmw/en", "espeak-ng voice for English (gmw/en, gmw/en-us, en-gb...)")
    rate: int = option(165, "speaking rate in words per minute", min=80, max=400)
    volume: float = option(1.0, "speech volume, 0.0 to 1.0", min=0.0, max=1.0)
    turn_announcements: str = option(
        "reverse_skip",
        "say whose turn it is: off, reverse_skip (only after a reverse or skip) or every_turn",
        choices=TURN_ANNOUNCEMENTS,
    )
    stale_after: float = option(
        6.0,
        "drop a line still waiting after this many seconds (results wait 5x longer)",
        min=0.5,
        max=120.0,
    )
    timeout: float = option(
        8.0,
        "restart the speech engine when one line takes longer than this (seconds)",
        min=1.0,
        max=120.0,
    )
    audio_output: str = option(
        "auto",
        "which sound output speaks: auto (a USB card or speaker HAT, else the 3.5 mm jack, "
        "else HDMI), usb, hat, jack, hdmi or none",
        choices=AUDIO_OUTPUTS,
    )
    audio_device: str = option(
        "", "ALSA device for `aplay -D`, overriding audio_output (empty: use audio_output)"
    )
    cues_enabled: bool = option(True, "also play the sound cues on the speaker")
    cue_volume: float = option(0.5, "loudness of the sound cues, 0.0 to 1.0", min=0.0, max=1.0)


def parse_speech_config(extra: Mapping[str, Any], problems: list[str]) -> SpeechConfig:
    """Build the section from ``Config.extra`` (missing section: defaults), appending problems."""
    return parse_section(SpeechConfig, extra.get("speech", {}), "speech", problems)


def load_speech_config(extra: Mapping[str, Any], source: str = "configuration") -> SpeechConfig:
    """Like :func:`parse_speech_config` but raise :class:`ConfigError` listing every problem."""
    problems: list[str] = []
    config = parse_speech_config(extra, problems)
    if problems:
        raise ConfigError(problems, source)
    return config
