"""The score database's backups: listed, checked, and one put back in place of the database.

The backups themselves are written by :meth:`companion.storage.Storage.backup` (SQLite's online
backup API, a rotating set, newest ``backups/scores.1.sqlite3``).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .faults import NoSuchBackup, StorageError, classify
from .layout import BACKUP_DIR, DB_NAME, backup_files


def restore_backup(state_dir: str | os.PathLike[str], backup: str | os.PathLike[str]) -> Path:
    """Move the database aside (``scores.sqlite3.damaged-N``) and put ``backup`` in its
    place; the database must not be open. Nothing is deleted. Returns where the old file
    went. The backup is checked first: a damaged backup is refused and nothing moves."""
    directory = Path(state_dir)
    path = directory / DB_NAME
    check_backup(Path(backup))
    number = 1
    while (directory / f"{DB_NAME}.damaged-{number}").exists():
        number += 1
    aside = directory / f"{DB_NAME}.damaged-{number}"
    if path.exists():
        path.replace(aside)
    for suffix in ("-wal", "-shm"):
        extra = directory / f"{DB_NAME}{suffix}"
        if extra.exists():
            extra.replace(directory / f"{DB_NAME}.damaged-{number}{suffix}")
    shutil.copyfile(backup, path)
    return aside


def restore_named_backup(state_dir: Path, name: str, *, keep_current: bool = False) -> Path:
    """:func:`restore_backup` with a backup chosen by its file name (``scores.2.sqlite3``,
    as :func:`describe_backups` lists them); returns where the replaced database went.

    ``keep_current`` (a database in good health replaced on purpose): the replaced database
    also becomes the newest backup (:func:`keep_as_backup`), so the page lists it and it can be
    put back the same way."""
    for path in backup_files(state_dir):
        if path.name == name:
            try:
                aside = restore_backup(state_dir, path)
                if keep_current and aside.exists():
                    keep_as_backup(state_dir, aside)
                return aside
            except (OSError, sqlite3.Error) as error:
                raise classify(error, state_dir / DB_NAME) from error
    raise NoSuchBackup(f"no backup called {name[:80]!r} in {state_dir / BACKUP_DIR}")


def keep_as_backup(state_dir: Path, database: Path) -> Path:
    """A consistent copy of ``database`` (closed, its journal beside it) as the newest backup,
    ``backups/scores.1.sqlite3``; the others move one place older, none is deleted."""
    directory = state_dir / BACKUP_DIR
    directory.mkdir(exist_ok=True)
    fresh = directory / f".{DB_NAME}.kept"
    source = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        target = sqlite3.connect(fresh)
        try:
            source.backup(target)
            target.execute("PRAGMA journal_mode=DELETE")
        finally:
            target.close()
    finally:
        source.close()
    for older in reversed(backup_files(state_dir)):
        index = int(older.stem.split(".")[-1])
        older.replace(directory / f"scores.{index + 1}.sqlite3")
    newest = directory / "scores.1.sqlite3"
    fresh.replace(newest)
    return newest


def check_backup(backup: Path) -> tuple[int, int]:
    """The games and log entries in ``backup``; :class:`StorageError` unless it is a sound
    score database."""
    try:
        db = sqlite3.connect(f"file:{backup}?mode=ro", uri=True)
    except sqlite3.Error as error:
        raise StorageError(f"backup {backup} cannot be opened: {error}") from error
    try:
        result = "; ".join(str(r[0]) for r in db.execute("PRAGMA quick_check").fetchall())
        games = int(db.execute("SELECT count(*) FROM games").fetchone()[0])
        entries = int(db.execute("SELECT count(*) FROM entries").fetchone()[0])
    except sqlite3.Error as error:
        raise StorageError(f"backup {backup} is not a score database: {error}") from error
    finally:
        db.close()
    if result != "ok":
        raise StorageError(f"backup {backup} is damaged too: {result[:200]}")
    return games, entries


def describe_backups(state_dir: Path) -> list[dict[str, Any]]:
    """The backups as the page and the command line show them, newest first."""
    described = []
    for path in backup_files(state_dir):
        try:
            info = path.stat()
        except OSError:
            continue
        stamp = datetime.fromtimestamp(info.st_mtime, UTC).isoformat(timespec="seconds")
        described.append({"name": path.name, "saved_at": stamp, "bytes": info.st_size})
    return described
