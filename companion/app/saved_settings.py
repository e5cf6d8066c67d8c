"""The services' settings store: the settings table of whichever score database is open.

The seat angles, the language and profile, the evening and the phones' colours, the open game:
each service keeps its own key here. A database that cannot be used is no reason to refuse a tap:
a setting that cannot be read reads as unset, one that cannot be stored is logged and lasts
until the next stop.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from companion.core.errors import StoreFault

from .stores import SettingsStore

log = logging.getLogger(__name__)


class SavedSettings:
    """A :class:`SettingsStore` over ``database()``: the store open now, or None."""

    def __init__(self, database: Callable[[], SettingsStore | None]) -> None:
        self._database = database

    def settings_get(self, key: str) -> Any:
        database = self._database()
        if database is None:
            return None
        try:
            return database.settings_get(key)
        except StoreFault as exc:
            log.warning("setting %s not read: %s", key, exc)
            return None

    def settings_put(self, key: str, value: Any) -> None:
        database = self._database()
        if database is None:
            return
        try:
            database.settings_put(key, value)
        except StoreFault as exc:
            log.warning("setting %s not stored: %s", key, exc)
