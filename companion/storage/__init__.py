"""Storage adapter: the score database (SQLite) of the state directory.

See :mod:`companion.storage.sqlite` for how it keeps acknowledged scores safe.
"""

from companion.storage.sqlite import (
    DB_NAME,
    MIGRATIONS,
    GameSummary,
    Storage,
    StorageCorrupt,
    StorageError,
    UnknownGame,
    backup_files,
)

__all__ = [
    "DB_NAME",
    "MIGRATIONS",
    "GameSummary",
    "Storage",
    "StorageCorrupt",
    "StorageError",
    "UnknownGame",
    "backup_files",
]
