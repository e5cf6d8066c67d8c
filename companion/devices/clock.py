"""The clock the moving and sounding parts pace their steps on.

Feed runs, turret frames and buzzer notes wait on a :class:`Clock` rather than on
``time`` directly, so tests can run them on virtual time (no real waiting) and check exact
pin timings. The box uses :data:`SYSTEM_CLOCK`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol

# A real blocking wait of at most the given seconds; True when it ended early because the
# part was interrupted (stopped, a new sound), e.g. ``stop.wait`` or a ``Condition.wait_for``.
Waiter = Callable[[float], bool]


class Clock(Protocol):
    def monotonic(self) -> float:
        """Now, in seconds (only differences mean something)."""
        ...

    def wait(self, waiter: Waiter, seconds: float) -> bool:
        """Let ``seconds`` pass unless ``waiter`` is interrupted first; True if it was."""
        ...


class SystemClock:
    """Real time: ``time.monotonic`` and real waits."""

    def monotonic(self) -> float:
        return time.monotonic()

    def wait(self, waiter: Waiter, seconds: float) -> bool:
        return waiter(max(0.0, seconds))


SYSTEM_CLOCK: Clock = SystemClock()


class VirtualClock:
    """Virtual time: a wait returns at once and moves time on. Each thread has its own
    timeline, as each lane (motion, buzzer) is a sequence of its own: the gaps between a lane's
    pin changes are exact, whatever else runs. Replays (``simulate --script``) and tests run the
    launcher on it: a firing or a turn takes no real time."""

    def __init__(self, start: float = 100.0) -> None:
        self._start = start
        self._local = threading.local()

    def monotonic(self) -> float:
        now: float = getattr(self._local, "now", self._start)
        return now

    def wait(self, waiter: Waiter, seconds: float) -> bool:
        if waiter(0.0):  # interrupted already (stop set, a new sound queued)
            return True
        self._local.now = self.monotonic() + max(0.0, seconds)
        return False
