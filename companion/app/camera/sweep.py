"""The turret's sweep for a Coup Extrême's target: it turns slowly from seat to seat (the
attacker left out); HIT pressed while it faces a player names that player.

The sweep runs on its own thread; HIT is seen on the button's thread, through the door's claim.
Whoever settles the question first (HIT here, or a tap on a phone) takes it from the questions
under their lock; HIT that finds it already taken is swallowed, never a press.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from companion.core.commands import Turn

from ..inputs import InputDoor

SWEEP_STEP_S = 1.5  # the turret faces each seat this long while sweeping for a target


class TargetSweep:
    def __init__(self, picked: Callable[[int, str], None]) -> None:
        self._picked = picked  # (question, target), on the button's thread
        self._lock = threading.Lock()
        self._stop: threading.Event | None = None
        self._claim: Callable[[Any], bool] | None = None
        self._door: InputDoor | None = None

    @property
    def sweeping(self) -> bool:
        with self._lock:
            return self._stop is not None

    def start(self, door: InputDoor, number: int, seats: list[tuple[int, str]]) -> None:
        """Sweep ``seats`` (seat, name) for question ``number`` until :meth:`end`."""
        self.end()
        if not seats:
            return
        stop = threading.Event()
        facing: list[tuple[int, str]] = [seats[0]]

        def hit(notice: Any) -> bool:
            if getattr(notice, "button", None) != "hit":
                return False
            if not stop.is_set():
                stop.set()
                self._picked(number, facing[0][1])
            return True  # a HIT meant for the sweep is never a press

        def turn() -> None:
            step = 0
            while not stop.is_set():
                facing[0] = seats[step % len(seats)]
                door.announce("camera.sweep", [Turn(*facing[0])])
                step += 1
                stop.wait(SWEEP_STEP_S)

        with self._lock:
            self._stop, self._claim, self._door = stop, hit, door
        door.claim(hit)
        threading.Thread(target=turn, name="camera-sweep", daemon=True).start()

    def end(self) -> None:
        with self._lock:
            stop, claim, door = self._stop, self._claim, self._door
            self._stop = self._claim = self._door = None
        if stop is not None:
            stop.set()
        if claim is not None and door is not None:
            door.unclaim(claim)
