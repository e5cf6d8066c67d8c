"""Test doubles shared by the tests: device clocks, a speech engine, an audio player.

The engine is named by dotted path (``"tests.doubles:echo_engine"``) so a spawned speech
process can import it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

# The devices' virtual clock, beside the tests' other clocks.
from companion.devices.clock import VirtualClock as VirtualClock
from companion.speech.engine import Synthesis

ECHO_ENGINE = f"{__name__}:echo_engine"


class ScaledClock:
    """Real time running ``speed`` times faster: threads keep running side by side (a press
    still arrives during a firing), each feed run and frame just takes 1/speed as long."""

    def __init__(self, speed: float) -> None:
        self.speed = speed
        self._origin = time.monotonic()

    def monotonic(self) -> float:
        return self._origin + (time.monotonic() - self._origin) * self.speed

    def wait(self, waiter: Callable[[float], bool], seconds: float) -> bool:
        return waiter(max(0.0, seconds) / self.speed)


class RecordingPlayer:
    """An audio player that keeps what it was given (WAV bytes) instead of playing it."""

    def __init__(self) -> None:
        self.played: list[bytes] = []
        self.changed = threading.Condition()

    def play(self, wav: bytes) -> None:
        with self.changed:
            self.played.append(wav)
            self.changed.notify_all()

    def wait_for_count(self, count: int, timeout: float = 20.0) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: len(self.played) >= count, timeout)

    def lines(self) -> list[str]:
        """What an :class:`EchoEngine` said (cue WAVs left out)."""
        with self.changed:
            return [p.decode() for p in self.played if not p.startswith(b"RIFF")]


class EchoEngine:
    """A speech engine that returns ``voice|text`` instead of a WAV; a line starting with
    "Hold" takes 0.3 s (a slow engine)."""

    def synthesise(self, text: str, voice: str, rate: int, volume: float, path: str) -> Synthesis:
        if text.startswith("Hold"):
            time.sleep(0.3)
        return Synthesis(f"{voice}|{text}".encode(), "")


def echo_engine() -> EchoEngine:
    return EchoEngine()


class HeldClock(VirtualClock):
    """A :class:`VirtualClock` on which, after :meth:`hold`, the motion lane's time stands
    still until :meth:`release` (or until the part is interrupted): a test can look at the
    launcher in the middle of a movement. Other threads (the buzzer) run on as usual."""

    def __init__(self, held_thread: str = "motion-lane") -> None:
        super().__init__()
        self._held_thread = held_thread
        self._released = threading.Event()
        self._released.set()
        self.holding = threading.Event()  # set once the held thread is waiting

    def hold(self) -> None:
        self.holding.clear()
        self._released.clear()

    def release(self) -> None:
        self._released.set()

    def wait(self, waiter: Callable[[float], bool], seconds: float) -> bool:
        if threading.current_thread().name == self._held_thread:
            self.holding.set()
            while not self._released.is_set():
                if waiter(0.005):  # interrupted (stop set) while held
                    return True
        return super().wait(waiter, seconds)


class ManualClock:
    """A clock that moves only when told (``now = ...`` or :meth:`advance`): for input
    timestamps (button edges, debounce) and the age of queued sounds."""

    def __init__(self, start: float = 100.0) -> None:
        self.now = start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        with self._lock:
            self.now += seconds
            return self.now


# A feed of 4 ms per card (20 mm at 5 m/s) that starts and stops at once: for tests and benches
# of the launcher's lanes and queue, timed (give the beam -1), not of the feed itself.
QUICK_FEED = {
    "card_length_mm": 20.0,
    "feed_mm_s": 5000.0,
    "feed_path_mm": 0.0,
    "exit_spin_up_s": 0.0,
    "exit_run_on_s": 0.0,
}
