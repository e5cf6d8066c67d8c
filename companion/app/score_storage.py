"""The score database as the table sees it: open or not, what is wrong with it, its backups.

The launcher never depends on the database. If it cannot be opened (disk full, folder
read-only, locked by another program, damaged), the box starts anyway: the table runs, the
``storage`` part of the state says what is wrong and lists the backups, and score actions answer
with that reason. ``storage.restore`` puts a chosen backup in place (the file it replaces is kept
beside it; a database in good health is replaced only on purpose, and becomes the newest
backup) and brings the scores back without a restart. The table's memory is kept
apart (:mod:`companion.app.table_memory`): a score backup restored leaves the table as it is.

The opening and restoring themselves are the storage adapter's; the composition root hands them
in, so this module imports no adapter. A restore reopens the database under the services: they
are told (:meth:`ScoreStorage.on_reopen`) and reach the new one, nobody is rebuilt.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.core.errors import ActionError, StoreFault
from companion.core.model import json_schema, option

from .hub import Hub
from .stores import Database

log = logging.getLogger(__name__)


@dataclass(frozen=True, kw_only=True)
class RestorePayload:
    """A backup put back in place of the score database (the table stays as it is).

    A database in good health is replaced only on purpose: ``confirm`` and the state's
    ``revision`` the phone saw (what it would lose)."""

    backup: str = option(
        help="the backup's file name, as the storage status lists it", min_length=1, max_length=80
    )
    confirm: bool = option(False, "replace a database in good health (not needed when damaged)")
    revision: int | None = option(
        None, "the state's revision the phone saw (needed with confirm)", min=0
    )


class ScoreStorage:
    """Owns the score database's life: opened (or why not), restored from a backup, closed.
    The services reach the database open now through it (:meth:`database`, :attr:`storage`)."""

    def __init__(
        self,
        *,
        open_storage: Callable[[], Database],
        restore_backup: Callable[[str, bool], object],
        list_backups: Callable[[], list[dict[str, Any]]],
    ) -> None:
        self._open_storage = open_storage
        self._restore_backup = restore_backup
        self._list_backups = list_backups
        self._hub: Hub | None = None
        self._reopened: list[Callable[[], None]] = []
        self.storage: Database | None = None  # the database open now
        self.fault: StoreFault | None = None  # why the database could not be opened

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> None:
        """Open the database; call before the hub starts."""
        self._open()

    def attach(self, hub: Hub) -> None:
        """Register the ``storage`` status and the ``storage.restore`` action; the database
        keeps the receipts of phones' actions (and finds them for a retry)."""
        self._hub = hub
        if self.storage is not None:
            self.storage.receipt = hub.action_receipt
        hub.add_receipt_finder(self._find_receipt)
        hub.register_status("storage", self.status)
        hub.register_action("storage.restore", json_schema(RestorePayload), self._restore, "score")

    def on_reopen(self, callback: Callable[[], None]) -> None:
        """``callback()`` after a restore reopened the database (or failed to), on the hub
        thread: whoever held something of the old one reads it again."""
        self._reopened.append(callback)

    def close(self) -> None:
        """Close; call after the hub has stopped."""
        if self.storage is not None:
            self.storage.close()
            self.storage = None

    def database(self) -> Database:
        """The database open now; the :class:`StoreFault` saying why not when none is."""
        if self.storage is None:
            raise self.fault or StoreFault("the score database is not open")
        return self.storage

    def _open(self) -> None:
        try:
            self.storage = self._open_storage()
        except StoreFault as exc:
            log.error("%s; the launcher works on, without scores", exc)
            self.storage, self.fault = None, exc
            return
        self.fault = None
        self.storage.on_fault_change = self._fault_changed
        if self._hub is not None:
            self.storage.receipt = self._hub.action_receipt

    def _find_receipt(self, scope: str, key: str) -> str | None:
        storage = self.storage
        return None if storage is None else storage.find_receipt(scope, key)

    def _fault_changed(self) -> None:
        if self._hub is not None:
            self._hub.changed("storage")

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
            # All is well, but the page says it: the file went and was made again.
            "notice": self.storage.notice() if self.storage is not None else None,
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
        assert self._hub is not None  # (an action: attached)
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
            self._restore_backup(name, healthy)  # a healthy database is kept as a backup
        except StoreFault as exc:
            self._open()  # the old database, untouched, or the same fault as before
            self._tell_reopened()
            raise exc.refusal() from exc
        self._open()
        self._tell_reopened()
        if self.fault is not None:
            raise self.fault.refusal()
        log.info("scores restored from backup %s", name)

    def _tell_reopened(self) -> None:
        for callback in self._reopened:
            callback()
