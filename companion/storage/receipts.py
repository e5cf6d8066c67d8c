"""Receipts of phones' actions (their ``Idempotency-Key``) in a database, written in the same
transaction as the change (see :mod:`companion.core.receipts`): committed together, or not at
all. Old ones are pruned in that transaction too, by count (each session's newest, the sessions
that wrote last), in the order of a sequence numbered here: no clock is read."""

from __future__ import annotations

import sqlite3

from companion.core.receipts import KEEP_PER_SESSION, KEEP_SESSIONS, Receipt

# The first receipts table, timed by the wall clock: kept as it was, as the step a database
# made then (the score database's migrations replay it before SEQUENCED).
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
# Receipts in the order they were written; those of the timed table come first, oldest first.
SEQUENCED = """
CREATE TABLE phone_receipts (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (scope, key)
) WITHOUT ROWID;
CREATE INDEX phone_receipts_by_session ON phone_receipts (scope, seq);
CREATE INDEX phone_receipts_by_seq ON phone_receipts (seq);
INSERT INTO phone_receipts (scope, key, fingerprint, seq)
    SELECT scope, key, fingerprint, row_number() OVER (ORDER BY stored_at, scope, key)
    FROM receipts;
DROP TABLE receipts;
"""
PRUNE_EVERY = 64  # receipts written between two counts of the sessions kept


def ensure_schema(db: sqlite3.Connection) -> None:
    """Make (or bring up to date) the receipts table of a database that keeps no schema
    version of its own (the table log)."""
    if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'phone_receipts'").fetchone():
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        for statement in statements(SCHEMA + SEQUENCED):
            db.execute(statement)
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


def statements(script: str) -> list[str]:
    """Split a script into statements (``sqlite3.complete_statement`` keeps triggers whole)."""
    found, current = [], ""
    for line in script.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            found.append(current.strip())
            current = ""
    if current.strip():
        found.append(current.strip())
    return found


class Receipts:
    """Writes and finds the receipts of one database (its caller holds the connection's lock)."""

    def __init__(self, per_session: int = KEEP_PER_SESSION, sessions: int = KEEP_SESSIONS) -> None:
        self.per_session = per_session
        self.sessions = sessions
        self._written = 0

    def stamp(self, db: sqlite3.Connection, receipt: Receipt) -> None:
        """Keep ``receipt`` (inside the caller's open transaction), pruning old ones."""
        db.execute(
            "INSERT OR IGNORE INTO phone_receipts (scope, key, fingerprint, seq) "
            "VALUES (?, ?, ?, (SELECT coalesce(max(seq), 0) + 1 FROM phone_receipts))",
            (receipt.scope, receipt.key, receipt.fingerprint),
        )
        # This session's own budget: its newest receipts.
        db.execute(
            "DELETE FROM phone_receipts WHERE scope = ?1 AND seq <= (SELECT seq FROM "
            "phone_receipts WHERE scope = ?1 ORDER BY seq DESC LIMIT 1 OFFSET ?2)",
            (receipt.scope, self.per_session),
        )
        self._written += 1
        if self._written % PRUNE_EVERY == 1 or self.sessions < PRUNE_EVERY:
            # The sessions that wrote longest ago, past the number kept.
            db.execute(
                "DELETE FROM phone_receipts WHERE scope IN (SELECT scope FROM phone_receipts "
                "GROUP BY scope ORDER BY max(seq) DESC LIMIT -1 OFFSET ?)",
                (self.sessions,),
            )

    @staticmethod
    def find(db: sqlite3.Connection, scope: str, key: str) -> str | None:
        """The fingerprint of the request that left receipt ``key`` (None: no such receipt)."""
        row = db.execute(
            "SELECT fingerprint FROM phone_receipts WHERE scope = ? AND key = ?", (scope, key)
        ).fetchone()
        return None if row is None else str(row[0])

    @staticmethod
    def count(db: sqlite3.Connection) -> int:
        return int(db.execute("SELECT count(*) FROM phone_receipts").fetchone()[0])
