"""The motion watcher: tells the phones when the launcher has finished moving."""

from __future__ import annotations

import threading
import time
from typing import Protocol

from .inputs import InputDoor


class Moving(Protocol):
    def wait_idle(self, timeout: float | None = None, *, sound: bool = True) -> bool: ...


class MotionWatcher:
    """After each motion (``moved`` set), waits for the launcher to be idle, then marks the
    "device" status changed so every page redraws the turret and the ejector. An input source:
    started with the door once the hub runs, closed before it stops."""

    def __init__(self, hardware: Moving, moved: threading.Event) -> None:
        self._hardware = hardware
        self._moved = moved
        self._stopped = threading.Event()
        self._door: InputDoor | None = None
        self._thread = threading.Thread(target=self._watch, name="motion-watch", daemon=True)

    def start(self, door: InputDoor) -> None:
        self._door = door
        self._thread.start()

    def close(self) -> None:
        self._stopped.set()
        self._moved.set()  # wake the thread now rather than at its next poll
        if self._thread.is_alive():
            self._thread.join(timeout=2)

    def _watch(self) -> None:
        while not self._stopped.is_set():
            if not self._moved.wait(timeout=0.5):
                continue
            self._moved.clear()
            if self._stopped.is_set():
                return
            # In short slices, so close() is not held up by a launcher still emptying its queue.
            deadline = time.monotonic() + 30
            while not self._hardware.wait_idle(timeout=0.1, sound=False):
                if self._stopped.is_set() or time.monotonic() > deadline:
                    break
            if not self._stopped.is_set() and self._door is not None:
                self._door.changed("device")
