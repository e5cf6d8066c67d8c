"""The settings service: the table's language and the launcher's ejection profile.

The page reads them as the hub's "settings" status and changes them with ``settings.update``
(on the hub thread, as every action); they are kept in the settings store so a restart keeps
them, and put back through the hub when the service is attached. The voice follows the language.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from companion.config import Config, check_consistency
from companion.core.errors import ActionError
from companion.core.firing import BUILTIN_PROFILES, profile_from_options
from companion.core.limits import MAX_NAME
from companion.core.model import json_schema, option
from companion.core.table import TableEngine
from companion.i18n import LANGUAGES

from .hub import Hub
from .stores import SettingsStore

log = logging.getLogger(__name__)

SETTINGS_KEY = "settings"


@dataclass(frozen=True, kw_only=True)
class SettingsPayload:
    """What the players change from the page: the table's language, the ejection profile."""

    language: str | None = option(None, "the language the box speaks", choices=LANGUAGES)
    profile: str | None = option(
        None, "the launcher's ejection profile", min_length=1, max_length=MAX_NAME
    )


class Settings:
    """What the players may change from the page while the table runs; ``language_changed``
    is told each new language (the voice)."""

    def __init__(
        self,
        config: Config,
        store: SettingsStore | None,
        language_changed: Callable[[str], None] | None = None,
    ) -> None:
        self._config = config
        self._store = store
        self._language_changed = language_changed
        self._engine: TableEngine | None = None
        self.language = config.table.language

    def attach(self, hub: Hub) -> None:
        """Register the action and the status; apply the saved language and profile."""
        self._engine = hub.engine
        hub.register_status("settings", self.status)
        saved = self._store.settings_get(SETTINGS_KEY) if self._store is not None else None
        if isinstance(saved, dict):
            kept = {k: v for k, v in saved.items() if k in ("language", "profile")}
            try:  # through the hub: the launcher profile is the engine's, the hub thread's
                hub.call(lambda: self.update(kept)).result()
            except ActionError as exc:  # a custom profile removed from the config since
                log.warning("saved settings ignored: %s", exc)
        hub.register_action(
            "settings.update", json_schema(SettingsPayload), self.update, "settings"
        )

    @property
    def engine(self) -> TableEngine:
        assert self._engine is not None, "attach the settings to the hub first"
        return self._engine

    def status(self) -> dict[str, Any]:
        launcher = self._config.launcher
        return {
            "language": self.language,
            "profile": self.engine.firing.profile.name,
            "profiles": [*BUILTIN_PROFILES, *launcher.profiles],
        }

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
            self.engine.firing.profile = profile_from_options(launcher)
        if "language" in payload:
            self.language = payload["language"]
            if self._language_changed is not None:
                self._language_changed(self.language)
        if self._store is not None:
            self._store.settings_put(
                SETTINGS_KEY,
                {"language": self.language, "profile": self.engine.firing.profile.name},
            )
