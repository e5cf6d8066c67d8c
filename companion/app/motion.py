"""The motion watcher: tells the phones where the turret is while it turns, and when the
launcher has finished moving."""

from __future__ import annotations

import threading
import time
from typing import Protocol

from .inputs import InputDoor

# While the turret turns, the phones are told where it is this often: the page's drawing
# follows it (a 90° turn at the default 120°/s takes 0.75 s) without a redraw per servo frame.
TURNING_NOTICE_S = 0.2


class Moving(Protocol):
    def wait_idle(self, timeout: float | None = None, *, sound: bool = True) -> bool: ...

    @property
    def turning(self) -> bool: ...


class MotionWatcher:
    """After each motion (``moved`` set), marks the "device" status changed every
    :data:`TURNING_NOTICE_S` while the launcher says its turret turns, and once more when the
    launcher is idle, so every page redraws the turret where it really is and the ejector. An
    input source: started with the door once the hub runs, closed before it stops."""

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
            told = 0.0  # when the phones were last told where the turret is
            while not self._hardware.wait_idle(timeout=0.05, sound=False):
                if self._stopped.is_set() or time.monotonic() > deadline:
                    break
                if self._hardware.turning and time.monotonic() - told >= TURNING_NOTICE_S:
                    told = time.monotonic()
                    self._tell()
            if not self._stopped.is_set():
                self._tell()

    def _tell(self) -> None:
        if self._door is not None:
            self._door.changed("device")
