"""The settings service: language, launcher profile, voice on/off and volume.

The page reads them as the hub's "settings" status (and the voice in the "device" status) and
changes them with ``settings.update``, ``device.voice`` and ``device.volume``. Language and
profile are kept in the settings store so a restart keeps them.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from companion.config import Config, check_consistency
from companion.core.actions import object_schema
from companion.core.commands import Command, Say
from companion.core.errors import ActionError
from companion.core.firing import BUILTIN_PROFILES, profile_from_options
from companion.core.limits import MAX_NAME
from companion.core.table import TableEngine
from companion.i18n import LANGUAGES

from .hub import Hub
from .listeners import CommandsTo
from .table_memory import SettingsStore

log = logging.getLogger(__name__)

SETTINGS_KEY = "settings"


class Settings:
    """What the players may change from the page while the table runs.

    ``voice`` is the speech adapter (``None`` without a voice): it receives the commands to
    speak and sound, its language and its volume.
    """

    def __init__(
        self,
        hub: Hub,
        engine: TableEngine,
        config: Config,
        store: SettingsStore | None,
        voice: Any = None,
    ) -> None:
        self._hub = hub
        self._engine = engine
        self._config = config
        self._store = store
        self.voice = voice
        self.language = config.table.language
        self.voice_enabled = bool(voice is not None and voice.config.enabled)
        self.volume = round(voice.config.volume * 10) if voice is not None else 10

    def attach(self) -> None:
        """Register the actions and statuses; apply the saved language and profile."""
        if self.voice is not None:
            self._hub.add_listener(CommandsTo(self.speak))
            self._hub.register_action(
                "device.voice",
                object_schema(["enabled"], enabled={"type": "boolean"}),
                self.set_voice,
                "device",
            )
            self._hub.register_action(
                "device.volume",
                object_schema(["level"], level={"type": "integer", "minimum": 0, "maximum": 10}),
                self.set_volume,
                "device",
            )
        self._hub.register_status("settings", self.status)
        saved = self._store.settings_get(SETTINGS_KEY) if self._store is not None else None
        if isinstance(saved, dict):
            try:
                self.update({k: v for k, v in saved.items() if k in ("language", "profile")})
            except ActionError as exc:  # a custom profile removed from the config since
                log.warning("saved settings ignored: %s", exc)
        self._hub.register_action(
            "settings.update",
            object_schema(
                [],
                language={"type": "string", "enum": list(LANGUAGES)},
                profile={"type": "string", "minLength": 1, "maxLength": MAX_NAME},
            ),
            self.update,
            "settings",
        )

    def speak(self, commands: list[Command]) -> None:
        """The voice's share of the commands; what is said only while the voice is on."""
        for command in commands:
            if self.voice_enabled or not isinstance(command, Say):
                self.voice.handle(command)

    def set_voice(self, payload: dict[str, Any]) -> None:
        if payload["enabled"] and not self.voice.config.enabled:
            raise ActionError(
                "voice_off_in_config", "the voice is off in the configuration", status=409
            )
        self.voice_enabled = payload["enabled"]

    def set_volume(self, payload: dict[str, Any]) -> None:
        self.volume = payload["level"]
        set_volume = getattr(self.voice, "set_volume", None)
        if set_volume is not None:
            set_volume(self.volume / 10)

    def status(self) -> dict[str, Any]:
        launcher = self._config.launcher
        return {
            "language": self.language,
            "profile": self._engine.firing.profile.name,
            "profiles": [*BUILTIN_PROFILES, *launcher.profiles],
        }

    def voice_status(self) -> dict[str, Any]:
        """The voice's part of the "device" status (empty without a voice)."""
        if self.voice is None:
            return {}
        voice = {"enabled": self.voice_enabled, "volume": self.volume}
        output = getattr(self.voice, "output", None)
        if output is not None and not output.available:
            voice["sound_problem"] = output.last_error or "no sound output"  # no sound card
        return {"voice": voice}

    def update(self, payload: dict[str, Any]) -> None:
        if "profile" in payload:
            launcher = replace(self._config.launcher, profile=payload["profile"])
            problems = [
                p
                for p in check_consistency(replace(self._config, launcher=launcher))
                if p.startswith("launcher.profile")
            ]
            if problems:
                raise ActionError("bad_choice", problems[0], {"field": "profile", "choices": ""})
            self._engine.firing.profile = profile_from_options(launcher)
        if "language" in payload:
            self.language = payload["language"]
            if self.voice is not None:
                self.voice.set_language(self.language)
        if self._store is not None:
            self._store.settings_put(
                SETTINGS_KEY,
                {"language": self.language, "profile": self._engine.firing.profile.name},
            )
