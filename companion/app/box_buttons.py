"""Long presses on the box: HIT held says the page's address, the shutdown button held powers
the Pi off cleanly (so nobody pulls the plug in the middle of a write).

:class:`HoldWatcher` looks at each button's level ten times a second and calls back once per
hold, when a button has stayed down ``hold_s``. Looking at the level (not at edges) makes it work
the same on every GPIO library and on gpiozero's mock pins; a press shorter than ``hold_s`` never
counts. ``tick`` takes the time so tests can drive it without waiting.
"""

from __future__ import annotations

import logging
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence

from companion.core.commands import Command, Cue, Priority, Say

from .inputs import InputDoor

log = logging.getLogger(__name__)

HOLD_S = 3.0
POLL_S = 0.1
POWEROFF = ("systemctl", "poweroff")


class HoldWatcher:
    """Calls ``on_held(name)`` once each time a button stays pressed for ``hold_s``."""

    def __init__(
        self,
        pressed: Mapping[str, Callable[[], bool]],
        on_held: Callable[[str], None],
        hold_s: float = HOLD_S,
    ) -> None:
        self._pressed = dict(pressed)
        self._on_held = on_held
        self.hold_s = hold_s
        self._down_since: dict[str, float | None] = dict.fromkeys(self._pressed)
        self._fired: set[str] = set()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def tick(self, now: float) -> None:
        """Look at every button once, at time ``now`` (seconds, monotonic)."""
        for name, is_pressed in self._pressed.items():
            if not is_pressed():
                self._down_since[name] = None
                self._fired.discard(name)
                continue
            since = self._down_since[name]
            if since is None:
                self._down_since[name] = now
            elif now - since >= self.hold_s and name not in self._fired:
                self._fired.add(name)
                try:
                    self._on_held(name)
                except Exception:  # a failed action must not stop the watcher
                    log.exception("action for holding %s failed", name)

    def start(self) -> None:
        def loop() -> None:
            while not self._stop.wait(POLL_S):
                self.tick(time.monotonic())

        self._thread = threading.Thread(target=loop, name="hold-watcher", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1.0)


def address_parts(urls: Sequence[str]) -> dict[str, str] | None:
    """The first page address as the phrase's parameters (``a``..``d``: the four numbers of
    the IP address, ``port``), or None when there is no IPv4 address to read out."""
    if not urls:
        return None
    rest = urls[0].split("://", 1)[-1].rstrip("/")
    host, _, port = rest.partition(":")
    numbers = host.split(".")
    if len(numbers) != 4 or not all(n.isdigit() for n in numbers) or host.startswith("127."):
        return None
    return {"a": numbers[0], "b": numbers[1], "c": numbers[2], "d": numbers[3], "port": port}


class BoxButtons:
    """What holding a button does: ``speak`` gets the commands (Say, Cue) for the voice and the
    buzzer; ``poweroff`` is run when the shutdown button is held (None in a simulation)."""

    def __init__(
        self,
        speak: Callable[[list[Command]], object],
        urls: Callable[[], Sequence[str]],
        *,
        poweroff: Sequence[str] | None = POWEROFF,
        run: Callable[..., object] = subprocess.run,
    ) -> None:
        self._speak = speak
        self._urls = urls
        self._poweroff = poweroff
        self._run = run

    def say_address(self) -> None:
        parts = address_parts(self._urls())
        say = (
            Say("box.address", parts, Priority.WARNING)
            if parts
            else Say("box.no_address", {}, Priority.WARNING)
        )
        self._speak([Cue("start"), say])

    def on_held(self, name: str) -> None:
        if name == "hit":
            self.say_address()
        elif name == "shutdown":
            self.shut_down()

    def shut_down(self) -> None:
        self._speak([Cue("error"), Say("box.shutting_down", {}, Priority.RESULT)])
        if self._poweroff is None:
            log.warning("shutdown button held: a simulation does not power anything off")
            return
        log.warning("shutdown button held: powering off")
        time.sleep(2.5)  # let the sentence be heard; systemd then stops us cleanly (SIGTERM)
        try:
            self._run(list(self._poweroff), check=False, timeout=30)
        except (OSError, subprocess.TimeoutExpired) as exc:
            log.error("could not power off (%s): unplug once the green light is off", exc)


class LongPresses:
    """The box's long presses as an input source: what they make the box say goes through the
    door to the hub's listeners (the buzzer plays the cues, the voice speaks while it is on).

    ``pressed`` tells whether each button is down now; ``urls`` the page's addresses; the
    address is said once at the start when ``say_address`` (a box, not a simulation)."""

    def __init__(
        self,
        pressed: Mapping[str, Callable[[], bool]],
        urls: Callable[[], Sequence[str]],
        *,
        poweroff: Sequence[str] | None = POWEROFF,
        say_address: bool = True,
        hold_s: float = HOLD_S,
    ) -> None:
        self._pressed = pressed
        self._urls = urls
        self._poweroff = poweroff
        self._say_address = say_address
        self._hold_s = hold_s
        self.watcher: HoldWatcher | None = None  # while started

    def start(self, door: InputDoor) -> None:
        buttons = BoxButtons(
            lambda commands: door.announce("box", commands), self._urls, poweroff=self._poweroff
        )
        self.watcher = HoldWatcher(self._pressed, buttons.on_held, self._hold_s)
        self.watcher.start()
        if self._say_address:
            buttons.say_address()  # at boot: how the first phone finds the table

    def close(self) -> None:
        if self.watcher is not None:
            self.watcher.stop()
