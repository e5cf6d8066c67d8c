"""Receipts of phones' actions (their ``Idempotency-Key``) in a database, written in the same
transaction as the change (see :mod:`companion.core.receipts`): committed together, or not at
all. Old ones are pruned in that transaction too, so the table stays small."""

from __future__ import annotations

import sqlite3

from companion.core.receipts import KEEP_RECEIPTS, KEEP_SECONDS, Receipt

SCHEMA = """
CREATE TABLE IF NOT EXISTS receipts (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    stored_at REAL NOT NULL,
    PRIMARY KEY (scope, key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS receipts_by_age ON receipts (stored_at);
"""
PRUNE_EVERY = 64  # receipts written between two counts of the kept ones


class Receipts:
    """Writes and finds the receipts of one database (its caller holds the connection's lock)."""

    def __init__(self, keep_seconds: float = KEEP_SECONDS, keep: int = KEEP_RECEIPTS) -> None:
        self.keep_seconds = keep_seconds
        self.keep = keep
        self._written = 0

    def stamp(self, db: sqlite3.Connection, receipt: Receipt, now: float) -> None:
        """Keep ``receipt`` (inside the caller's open transaction), pruning old ones."""
        db.execute(
            "INSERT OR IGNORE INTO receipts (scope, key, fingerprint, stored_at) "
            "VALUES (?, ?, ?, ?)",
            (receipt.scope, receipt.key, receipt.fingerprint, now),
        )
        db.execute("DELETE FROM receipts WHERE stored_at < ?", (now - self.keep_seconds,))
        self._written += 1
        if self._written % PRUNE_EVERY == 1 or self.keep < PRUNE_EVERY:
            db.execute(
                "DELETE FROM receipts WHERE stored_at < (SELECT stored_at FROM receipts "
                "ORDER BY stored_at DESC LIMIT 1 OFFSET ?)",
                (self.keep - 1,),
            )

    @staticmethod
    def find(db: sqlite3.Connection, scope: str, key: str) -> str | None:
        """The fingerprint of the request that left receipt ``key`` (None: no such receipt)."""
        row = db.execute(
            "SELECT fingerprint FROM receipts WHERE scope = ? AND key = ?", (scope, key)
        ).fetchone()
        return None if row is None else str(row[0])

    @staticmethod
    def count(db: sqlite3.Connection) -> int:
        return int(db.execute("SELECT count(*) FROM receipts").fetchone()[0])
