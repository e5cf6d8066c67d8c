"""Storage adapter: the score database (SQLite) of the state directory.

See :mod:`companion.storage.sqlite` for how it keeps acknowledged scores safe,
:mod:`companion.storage.faults` for what can go wrong with it and
:mod:`companion.storage.backups` for its backups.
"""

from companion.storage.backups import (
    check_backup,
    describe_backups,
    restore_backup,
    restore_named_backup,
)
from companion.storage.faults import (
    NoSuchBackup,
    StorageCorrupt,
    StorageError,
    StorageFull,
    StorageGone,
    StorageLocked,
    StorageReadOnly,
    UnknownGame,
    classify,
)
from companion.storage.layout import DB_NAME, backup_files
from companion.storage.sqlite import MIGRATIONS, GameSummary, Storage

__all__ = [
    "DB_NAME",
    "MIGRATIONS",
    "GameSummary",
    "NoSuchBackup",
    "Storage",
    "StorageCorrupt",
    "StorageError",
    "StorageFull",
    "StorageGone",
    "StorageLocked",
    "StorageReadOnly",
    "UnknownGame",
    "backup_files",
    "check_backup",
    "classify",
    "describe_backups",
    "restore_backup",
    "restore_named_backup",
]
