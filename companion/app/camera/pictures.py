"""The pictures of unsure, unread and mended reads, and the numbers they go by.

A question and its picture share one number. Numbers are handed out under a lock (the camera's
thread and the hub's both ask for them); the files are written on the hub thread, with the play
or question they belong to, so a correction made at once finds its picture.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

log = logging.getLogger(__name__)

KEPT = 50  # pictures kept in the state directory (the newest)


class Pictures:
    """The last :data:`KEPT` pictures, as ``<number>.jpg`` in ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.Lock()
        kept = self.kept()
        self._next = int(kept[-1].stem) + 1 if kept else 1

    def number(self) -> int:
        """A new number, never handed out before (nor found in the folder)."""
        with self._lock:
            number, self._next = self._next, self._next + 1
        return number

    def keep(self, number: int, jpeg: bytes) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            (self.folder / f"{number}.jpg").write_bytes(jpeg)
            for old in self.kept()[:-KEPT]:
                old.unlink(missing_ok=True)
        except OSError as exc:
            log.warning("camera picture not kept: %s", exc)

    def kept(self) -> list[Path]:
        if not self.folder.is_dir():
            return []
        found = [p for p in self.folder.glob("*.jpg") if p.stem.isdigit()]
        return sorted(found, key=lambda p: int(p.stem))

    def read(self, number: int) -> bytes | None:
        try:
            return (self.folder / f"{number}.jpg").read_bytes()
        except OSError:
            return None

    @staticmethod
    def address(number: int) -> str:
        """Where a phone fetches the picture."""
        return f"/api/camera/pictures/{number}.jpg"
