"""The table's memory across restarts: seats, dealer and magazine as they were."""

from __future__ import annotations

import logging
from typing import Any, Protocol

from companion.core.errors import ActionError
from companion.core.events import Reload, Setup
from companion.core.table import TableEngine

log = logging.getLogger(__name__)

TABLE_KEY = "table"


class SettingsStore(Protocol):
    """The part of the storage a service keeps its settings in."""

    def settings_get(self, key: str) -> Any: ...

    def settings_put(self, key: str, value: Any) -> None: ...


class TableMemory:
    """Saves the table to a settings store and puts it back on the next start.

    :meth:`restore` runs before the hub starts; :meth:`save` after it has stopped, so nothing
    is handled between what is saved and the stop.
    """

    def __init__(self, store: SettingsStore, engine: TableEngine) -> None:
        self._store = store
        self._engine = engine

    def restore(self) -> None:
        """Seats and magazine as saved; a saved table the rules refuse is logged and ignored."""
        saved = self._store.settings_get(TABLE_KEY)
        if not isinstance(saved, dict):
            return
        try:
            players = saved.get("players")
            if isinstance(players, list) and players:
                self._engine.handle(Setup(tuple(players), saved.get("dealer")))
            magazine = saved.get("magazine")
            if isinstance(magazine, int):
                self._engine.handle(Reload(magazine))
        except ActionError as exc:
            log.warning("saved table ignored: %s", exc)

    def save(self) -> None:
        """The table as it stands now; a storage failure is logged (the stop goes on)."""
        snap = self._engine.snapshot()
        try:
            self._store.settings_put(
                TABLE_KEY,
                {
                    "players": [p["name"] for p in snap["players"]],
                    "dealer": snap["dealer"],
                    "magazine": snap["magazine"],
                },
            )
        except Exception:
            log.exception("could not save the table state")
