"""A score database made again when its file went while the box ran.

An ``rm -rf`` of the state folder, or the file replaced under the box, leaves SQLite writing to
a file nobody will read again: every round acknowledged would be lost at the next start. The
storage compares the file at the path with the one it holds open (:func:`identity`) before each
write; when they differ it makes a database at the path and writes back what it holds in
memory (:func:`write_back`): the games it keeps read (the open one always), and the settings
and rule sets it has read or written. Games it never read are not in memory: a backup of them,
if one survived, is all there is.
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.core.scoring import ScoreBook


def identity(path: Path) -> tuple[int, int] | None:
    """The file at ``path`` as (device, inode); None when there is none."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def remove_journal(path: Path) -> None:
    """Remove the journal files beside ``path`` (``-wal``, ``-shm``) before a new database is
    made there: they were the old file's."""
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


@dataclass
class Known:
    """What the storage has read or written besides its games, as stored (JSON text)."""

    created: dict[str, str] = field(default_factory=dict)  # game id: created_at
    settings: dict[str, str] = field(default_factory=dict)  # key: value_json
    rulesets: dict[str, str] = field(default_factory=dict)  # key: ruleset_json


@dataclass(frozen=True)
class Recreated:
    """The file went (``what``: removed, replaced) and was made again at ``at``;
    ``games``: the games written back from memory."""

    what: str
    at: str
    games: int

    def to_dict(self) -> dict[str, Any]:
        return {"what": self.what, "at": self.at, "games": self.games}


def write_back(db: sqlite3.Connection, books: list[tuple[str, ScoreBook]], known: Known) -> int:
    """Write ``books`` and ``known`` into the database ``db`` in one transaction; the games
    written (a game the file holds already is completed when it is the start of ours, else
    left as it is). Settings and rule sets the file holds already are left as they are."""
    now = stamp()
    written = 0
    db.execute("BEGIN IMMEDIATE")
    try:
        for game_id, book in books:
            written += _write_game(db, game_id, book, known.created.get(game_id, now), now)
        db.executemany(
            "INSERT OR IGNORE INTO settings (key, value_json, updated_at) VALUES (?, ?, ?)",
            [(key, text, now) for key, text in known.settings.items()],
        )
        db.executemany(
            "INSERT OR IGNORE INTO rulesets (key, ruleset_json, updated_at) VALUES (?, ?, ?)",
            [(key, text, now) for key, text in known.rulesets.items()],
        )
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return written


def _write_game(
    db: sqlite3.Connection, game_id: str, book: ScoreBook, created_at: str, now: str
) -> int:
    texts = [dumps(entry.to_dict()) for entry in book.entries]
    row = db.execute("SELECT revision FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        db.execute(
            "INSERT INTO games (id, name, created_at, setup_json, revision) VALUES (?, ?, ?, ?, ?)",
            (game_id, book.setup.name, created_at, dumps(book.setup.to_dict()), len(texts)),
        )
        start = 0
    else:
        start = int(row[0])
        stored = [
            text
            for (text,) in db.execute(
                "SELECT entry_json FROM entries WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        ]
        if start < 0 or start > len(texts) or stored != texts[:start]:
            return 0  # another story of that game: the file's stays
        db.execute("UPDATE games SET revision = ? WHERE id = ?", (len(texts), game_id))
    db.executemany(
        "INSERT INTO entries (game_id, seq, entry_json, stored_at) VALUES (?, ?, ?, ?)",
        [(game_id, seq, texts[seq - 1], now) for seq in range(start + 1, len(texts) + 1)],
    )
    return 1


def stamp() -> str:
    """Now, as the score database writes it."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def dumps(value: Any) -> str:
    """JSON as the score database stores it."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
