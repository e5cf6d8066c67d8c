"""Storage adapter: the score database (SQLite) of the state directory.

See :mod:`companion.storage.sqlite` for how it keeps acknowledged scores safe.
"""

from companion.storage.sqlite import (
    DB_NAME,
    MIGRATIONS,
    GameSummary,
    NoSuchBackup,
    Storage,
    StorageCorrupt,
    StorageError,
    StorageFull,
    StorageLocked,
    StorageReadOnly,
    UnknownGame,
    backup_files,
    check_backup,
    classify,
    describe_backups,
    restore_named_backup,
)

__all__ = [
    "DB_NAME",
    "MIGRATIONS",
    "GameSummary",
    "NoSuchBackup",
    "Storage",
    "StorageCorrupt",
    "StorageError",
    "StorageFull",
    "StorageLocked",
    "StorageReadOnly",
    "UnknownGame",
    "backup_files",
    "check_backup",
    "classify",
    "describe_backups",
    "restore_named_backup",
]
