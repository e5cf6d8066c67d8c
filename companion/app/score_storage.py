"""The score database as the table sees it: open or not, what is wrong with it, its backups.

The launcher never depends on the database. If it cannot be opened (disk full, folder
read-only, locked by another program, damaged), the box starts anyway: the table runs, the
``storage`` part of the state says what is wrong and lists the backups, and score actions answer
with that reason. ``storage.restore`` puts a chosen backup in place (the file it replaces is kept
beside it) and brings the scores back without a restart. The table's memory
(:class:`TableMemory`) is written to the same database after every event.

The opening and restoring themselves are the storage adapter's; the composition root hands them
in, so this module imports no adapter.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from companion.core.actions import object_schema
from companion.core.errors import ActionError, StoreFault
from companion.core.table import Outcome, TableEngine

from .hub import Hub
from .scorekeeper import SCORE_ACTION_SCHEMAS, ScoreKeeper
from .table_memory import TableMemory

log = logging.getLogger(__name__)

RESTORE_SCHEMA = object_schema(
    ["backup"],
    backup={"type": "string", "minLength": 1, "maxLength": 80},
    # A database in good health is replaced only on purpose: confirmed, with the state's
    # revision the phone saw (what it would lose).
    confirm={"type": "boolean"},
    revision={"type": "integer", "minimum": 0},
)


class ScoreStorage:
    """Owns the open database (if any), the score keeper and the table's memory.

    Doubles as the settings store of the other services: it forwards to whichever database is
    open now, and keeps nothing when none is (the settings then last until the next stop).
    """

    def __init__(
        self,
        hub: Hub,
        engine: TableEngine,
        *,
        open_storage: Callable[[], Any],
        restore_backup: Callable[[str], object],
        list_backups: Callable[[], list[dict[str, Any]]],
    ) -> None:
        self._hub = hub
        self._engine = engine
        self._open_storage = open_storage
        self._restore_backup = restore_backup
        self._list_backups = list_backups
        self.storage: Any = None
        self.fault: StoreFault | None = None  # why the database could not be opened
        self.keeper: ScoreKeeper | None = None
        self.memory: TableMemory | None = None

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> None:
        """Open the database and put the table back; call before the hub starts."""
        self._open()
        if self.memory is not None:
            self.memory.restore()
        self._hub.add_journal(self._journal)
        self._hub.register_status("storage", self.status)
        self._hub.register_action("storage.restore", RESTORE_SCHEMA, self._restore, "score")
        self._attach_scores()

    def close(self) -> None:
        """Save the table one last time and close; call after the hub has stopped."""
        if self.memory is not None:
            self.memory.save()
        if self.storage is not None:
            self.storage.close()
            self.storage = None

    def _open(self) -> None:
        try:
            self.storage = self._open_storage()
        except StoreFault as exc:
            log.error("%s; the launcher works on, without scores", exc)
            self.storage, self.fault, self.memory = None, exc, None
            return
        self.fault = None
        self.memory = TableMemory(self.storage, self._engine)
        self.storage.on_fault_change = lambda: self._hub.changed("storage")

    def _attach_scores(self) -> None:
        if self.storage is not None:
            self.keeper = ScoreKeeper(self.storage, self._hub)
            return
        self.keeper = None
        for name, schema in SCORE_ACTION_SCHEMAS.items():
            self._hub.register_action(name, schema, self._unavailable, "score")
        self._hub.register_status("score", lambda: {"game": None, "games": [], "available": False})

    def _journal(self, outcome: Outcome) -> None:
        if self.memory is not None:
            self.memory.journal(outcome)

    def _unavailable(self, payload: dict[str, Any]) -> None:
        raise (self.fault or StoreFault("the score database is not open")).refusal()

    # ------------------------------------------------------------------ the page

    def status(self) -> dict[str, Any]:
        """``ok`` false with ``problem`` (full, read_only, locked, damaged, unusable) and an
        English ``message`` when the scores cannot be kept; the backups to restore from."""
        fault = self.fault or (self.storage.fault if self.storage is not None else None)
        status: dict[str, Any] = {
            "ok": fault is None,
            "problem": fault.problem if fault else None,
            "key": fault.key if fault else None,
            "message": str(fault) if fault else None,
            "scores": self.storage is not None,
            "table_saved": self.memory is not None and self.memory.failing is None,
        }
        try:
            status["backups"] = self._list_backups()
        except OSError:
            status["backups"] = []
        return status

    def _restore(self, payload: dict[str, Any]) -> None:
        """Put backup ``payload["backup"]`` in place of the database, keep the table as it is
        now, and bring the scores back from it."""
        name = payload["backup"]
        healthy = self.storage is not None and self.storage.fault is None
        if healthy and (payload.get("confirm") is not True or payload.get("revision") is None):
            raise ActionError(
                "storage.restore_healthy",
                "the score database is in good health: restoring a backup needs confirm and "
                "the revision",
                {"revision": self._hub.revision},
                status=409,
            )
        if healthy and payload.get("revision") != self._hub.revision:
            raise ActionError(
                "stale",
                "someone else changed this first: look again and retry",
                {"revision": self._hub.revision},
                status=409,
            )
        if self.storage is not None:
            self.storage.close()
            self.storage = None
        try:
            self._restore_backup(name)
        except StoreFault as exc:
            self._open()  # the old database, untouched, or the same fault as before
            self._attach_scores()
            raise exc.refusal() from exc
        self._open()
        if self.memory is not None:
            self.memory.journal()  # the table now, into the restored database
        self._attach_scores()
        if self.fault is not None:
            raise self.fault.refusal()
        log.info("scores restored from backup %s", name)

    # ------------------------------------------------------------------ settings store

    def settings_get(self, key: str) -> Any:
        if self.storage is None:
            return None
        try:
            return self.storage.settings_get(key)
        except StoreFault as exc:
            log.warning("setting %s not read: %s", key, exc)
            return None

    def settings_put(self, key: str, value: Any) -> None:
        if self.storage is None:
            return
        try:
            self.storage.settings_put(key, value)
        except StoreFault as exc:
            log.warning("setting %s not stored: %s", key, exc)
