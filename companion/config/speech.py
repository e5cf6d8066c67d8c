"""The ``[speech]`` section of the configuration file: the voice, its speed, and the sounds."""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.model import option

# The sound outputs the voice may be sent to (:mod:`companion.speech.audio` finds each one).
AUDIO_OUTPUTS = ("auto", "usb", "hat", "jack", "hdmi", "none")
TURN_ANNOUNCEMENTS = ("off", "reverse_skip", "every_turn")


@dataclass(frozen=True)
class SpeechConfig:
    """What the box says and how."""

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
        "else HDMI), usb, hat, jack, hdmi or none. No 3.5 mm jack on a Pi 5, Pi 400 or Zero 2 W: "
        "use USB, a HAT or HDMI",
        choices=AUDIO_OUTPUTS,
    )
    audio_device: str = option(
        "", "ALSA device for `aplay -D`, overriding audio_output (empty: use audio_output)"
    )
    cues_enabled: bool = option(True, "also play the sound cues on the speaker")
    cue_volume: float = option(0.5, "loudness of the sound cues, 0.0 to 1.0", min=0.0, max=1.0)
