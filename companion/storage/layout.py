"""Where the score database and its backups lie in the state folder."""

from __future__ import annotations

from pathlib import Path

DB_NAME = "scores.sqlite3"
BACKUP_DIR = "backups"


def backup_files(state_dir: Path) -> list[Path]:
    """Backup files, newest first."""
    directory = state_dir / BACKUP_DIR
    found = [p for p in directory.glob("scores.*.sqlite3") if p.stem.split(".")[-1].isdigit()]
    return sorted(found, key=lambda p: int(p.stem.split(".")[-1]))
