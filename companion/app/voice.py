"""The voice service: what the box says and sounds, and the page's voice switch and volume.

It listens to every outcome on the hub thread (the table's and the box's own announcements,
such as a long press saying the page's address) and hands the speaker its share: the sound cues
always, the sentences only while the voice is on (``device.voice``). ``device.volume`` sets the
loudness; the voice's part of the "device" status says both, and a missing sound card.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from companion.core.commands import Command, Say
from companion.core.errors import ActionError
from companion.core.model import json_schema, option

from .hub import Hub
from .listeners import CommandsTo


class SpeechSettings(Protocol):
    @property
    def enabled(self) -> bool: ...

    @property
    def volume(self) -> float: ...


class SoundOutput(Protocol):
    on_change: Callable[[], None] | None  # sound stopped or started working (output's thread)

    @property
    def available(self) -> bool: ...

    @property
    def last_error(self) -> str: ...


class Speaker(Protocol):
    """The speech adapter (:class:`companion.speech.Voice`) as this service uses it."""

    @property
    def config(self) -> SpeechSettings: ...

    @property
    def output(self) -> SoundOutput: ...

    def handle(self, command: object) -> None: ...

    def set_language(self, language: str) -> None: ...

    def set_volume(self, level: float) -> None: ...


@dataclass(frozen=True, kw_only=True)
class VoiceSwitch:
    """The box's voice on or off."""

    enabled: bool = option(help="speak (never, when the configuration says speech.enabled = false)")


@dataclass(frozen=True, kw_only=True)
class VoiceVolume:
    """How loud the box speaks."""

    level: int = option(help="0 (silent) to 10 (the configured volume)", min=0, max=10)


class VoiceService:
    """Gates the speaker: on/off from the page (never on when the configuration says off)."""

    def __init__(self, speaker: Speaker) -> None:
        self._speaker = speaker
        self.enabled = speaker.config.enabled
        self.volume = round(speaker.config.volume * 10)

    def attach(self, hub: Hub) -> None:
        hub.add_listener(CommandsTo(self.speak))

        def sound_changed() -> None:  # the phones hear of a lost sound card at once
            hub.call(lambda: hub.changed("device"))

        self._speaker.output.on_change = sound_changed
        hub.register_action("device.voice", json_schema(VoiceSwitch), self.set_voice, "device")
        hub.register_action("device.volume", json_schema(VoiceVolume), self.set_volume, "device")

    def speak(self, commands: list[Command]) -> None:
        """The speaker's share of the commands; what is said only while the voice is on."""
        for command in commands:
            if self.enabled or not isinstance(command, Say):
                self._speaker.handle(command)

    def set_voice(self, payload: dict[str, Any]) -> None:
        if payload["enabled"] and not self._speaker.config.enabled:
            raise ActionError(
                "voice_off_in_config", "the voice is off in the configuration", status=409
            )
        self.enabled = payload["enabled"]

    def set_volume(self, payload: dict[str, Any]) -> None:
        self.volume = payload["level"]
        self._speaker.set_volume(self.volume / 10)

    def set_language(self, language: str) -> None:
        self._speaker.set_language(language)

    def status(self) -> dict[str, Any]:
        """The voice's part of the "device" status."""
        voice: dict[str, Any] = {"enabled": self.enabled, "volume": self.volume}
        output = self._speaker.output
        if not output.available:
            voice["sound_problem"] = output.last_error or "no sound output"  # no sound card
        return {"voice": voice}
