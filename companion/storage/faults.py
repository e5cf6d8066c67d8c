"""The score database's faults, told apart because the cure differs: a full disk (free some
space), a folder or card that cannot be written, a database another program holds, a damaged file
(restore a backup: the only fault that calls for one)."""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Sequence
from pathlib import Path

from companion.core.errors import StoreFault

from .layout import backup_files


class StorageError(StoreFault):
    """The score database can't be used; the message says why and what to do."""


class StorageFull(StorageError):
    """The disk (SD card) is full: nothing more can be stored until space is freed."""

    key = "storage.full"
    status = 507
    problem = "full"


class StorageReadOnly(StorageError):
    """The state folder or the database file cannot be written."""

    key = "storage.read_only"
    problem = "read_only"


class StorageLocked(StorageError):
    """Another program holds the database (a second daemon, a ``score`` command running)."""

    key = "storage.locked"
    problem = "locked"


class StorageCorrupt(StorageError):
    """``quick_check`` failed (or the file is not a database). ``backups`` lists the backup files,
    newest first; :meth:`Storage.restore_backup` puts one back."""

    key = "storage.damaged"
    problem = "damaged"

    def __init__(self, path: Path, problem: str, backups: Sequence[Path]) -> None:
        self.path = path
        self.detail = problem
        self.backups = tuple(backups)
        hint = (
            f"restore a backup with 'uno-companion score restore' (newest: {self.backups[0]})"
            if self.backups
            else "no backup exists; move the file aside to start afresh"
        )
        super().__init__(f"score database {path} is damaged ({problem}): {hint}")


class StorageGone(StorageError):
    """The state folder or the database file was removed or replaced while the box ran, and
    a new one could not be made in its place: nothing was stored."""

    key = "storage.gone"
    problem = "gone"


# SQLite's primary result codes (https://sqlite.org/rescode.html).
_SQLITE_FULL = {13}
_SQLITE_READONLY = {8}
_SQLITE_LOCKED = {5, 6}  # BUSY, LOCKED
_SQLITE_DAMAGED = {11, 26}  # CORRUPT, NOTADB
_SQLITE_CANTOPEN = 14
_SQLITE_IOERR = 10


def classify(error: BaseException, path: Path) -> StorageError:
    """The :class:`StorageError` a low-level error means for the database at ``path``."""
    if isinstance(error, StorageError):
        return error
    what = f"score database {path}"
    if isinstance(error, OSError):
        if error.errno in (errno.ENOSPC, errno.EDQUOT):
            return StorageFull(f"{what}: the disk is full ({error}); free some space")
        if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            return StorageReadOnly(f"{what}: cannot write in {path.parent} ({error})")
        return StorageError(f"{what}: {error}")
    code = getattr(error, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    if primary in _SQLITE_FULL or (primary == _SQLITE_IOERR and _disk_nearly_full(path)):
        return StorageFull(f"{what}: the disk is full ({error}); free some space")
    if primary in _SQLITE_READONLY or (
        primary in (_SQLITE_CANTOPEN, _SQLITE_IOERR, None) and cannot_write(path)
    ):
        # A folder or card made read-only while the box runs fails a write with an I/O error
        # (EROFS): named by its cause, not as "unusable".
        return StorageReadOnly(
            f"{what} cannot be written ({error}): check the folder's permissions and that the "
            "card is not read-only"
        )
    if primary in _SQLITE_LOCKED:
        return StorageLocked(f"{what} is locked by another program ({error}): stop it and retry")
    if primary in _SQLITE_DAMAGED:
        return StorageCorrupt(path, str(error), backup_files(path.parent))
    return StorageError(f"{what}: {error}")


def cannot_write(path: Path) -> bool:
    """Whether the database's folder (or the file) is read-only: a read-only mount, or
    permissions this process lacks."""
    try:
        if os.statvfs(path.parent).f_flag & os.ST_RDONLY:
            return True
    except OSError:
        pass
    return not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK))


def _disk_nearly_full(path: Path) -> bool:
    try:
        return shutil.disk_usage(path.parent).free < 1024 * 1024
    except OSError:
        return False


class NoSuchBackup(StorageError):
    """No backup file of that name."""

    key = "storage.no_backup"
    status = 404


class UnknownGame(StorageError, KeyError):
    """No game with that id."""
