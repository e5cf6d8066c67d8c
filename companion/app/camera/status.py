"""The camera's status as one small state machine.

::

    off ──open──▶ starting ──frame──▶ ok ◀──frame──▶ dark | frozen
     ▲                │                │                 │
     └──switch_off────┴──── ended ─────┴──▶ lost ──frame──┘

A trouble (lost, dark, frozen) is said once until the camera is ``ok`` again; a replay that runs
out of frames is lost without a word. Every change happens through :meth:`CameraStatus.fire`,
which returns what to say, if anything.
"""

from __future__ import annotations

import threading
from typing import Literal

State = Literal["off", "starting", "ok", "lost", "dark", "frozen"]
Event = Literal["switch_off", "open", "clear", "dark", "frozen", "ended"]
TROUBLES: frozenset[State] = frozenset({"lost", "dark", "frozen"})

# What each event leads to, from each state (absent: the event changes nothing there).
TRANSITIONS: dict[Event, dict[State, State]] = {
    "switch_off": {s: "off" for s in ("starting", "ok", "lost", "dark", "frozen")},
    "open": {"off": "starting"},  # reopening after a loss stays "lost" until a frame comes
    "clear": {s: "ok" for s in ("starting", "lost", "dark", "frozen")},
    "dark": {s: "dark" for s in ("starting", "ok", "lost", "frozen")},
    "frozen": {s: "frozen" for s in ("starting", "ok", "lost", "dark")},
    "ended": {s: "lost" for s in ("starting", "ok", "dark", "frozen")},
}


class CameraStatus:
    """Thread-safe: the camera's thread moves it, the hub reads it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.state: State = "off"
        self._said: State | None = None  # the trouble last said (said once until ok)

    def fire(self, event: Event, *, say: bool = True) -> tuple[bool, State | None]:
        """Apply ``event``: whether the state changed, and the trouble to say (once)."""
        with self._lock:
            new = TRANSITIONS[event].get(self.state)
            if new is None or new == self.state:
                return False, None
            self.state = new
            if new == "ok":
                self._said = None
            if new not in TROUBLES or self._said == new:
                return True, None
            self._said = new
            return True, new if say else None
