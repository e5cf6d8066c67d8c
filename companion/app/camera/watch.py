"""The camera's thread: frames in, decided plays out, the camera's status kept.

A frame is read here, never on the hub's thread: the press path never waits for one. What the
watcher decides (a card laid, read or not) is handed on with its picture by ``landed``; the
questions and the table are the hub thread's. A camera that is lost (unplugged), frozen (the
same frame over and over) or dark mid-evening is said once; it is opened again with a growing
pause until it returns.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections.abc import Callable, Iterator
from typing import Any, Protocol

from companion.core.backoff import backoff

from .status import CameraStatus, Event, State

log = logging.getLogger(__name__)

DARK_LEVEL = 18.0  # mean brightness (0-255) under which the camera sees nothing
DARK_MS = 2000  # ... for this long: "dark"
FROZEN_MS = 3000  # the very same picture this long: "frozen"
FIRST_RETRY_S = 1.0
MAX_RETRY_S = 30.0
CAMERA_NICENESS = 10  # the camera's thread yields the processor to the press path

# One picture from the camera, with its time in milliseconds (``t_ms``): the adapter's own type.
Frame = Any


class Sighting(Protocol):
    """A card the camera decided was laid: the best face (``kind`` ``None``: a card-sized change
    that stayed but could not be read), how likely, whether it is sure, and the best faces in
    order (``(kind, colour, confidence)``). Kinds are the reader's: ``"7"``, ``"draw4"``…"""

    @property
    def kind(self) -> str | None: ...

    @property
    def colour(self) -> str: ...

    @property
    def confidence(self) -> float: ...

    @property
    def sure(self) -> bool: ...

    @property
    def candidates(self) -> tuple[tuple[str, str, float], ...]: ...


class Camera(Protocol):
    """What the service needs of the camera adapter (built by the composition root)."""

    def frames(self) -> Iterator[Frame]:
        """Open the camera and yield its frames; raises ``OSError`` or ``ValueError`` when it
        cannot open, stops when it is lost."""
        ...

    def release(self) -> None: ...

    def look(self, frame: Frame) -> Sighting | None:
        """Feed the watcher; a sighting when it decides a card was laid."""
        ...

    def brightness(self, frame: Frame) -> float: ...

    def fingerprint(self, frame: Frame) -> bytes: ...

    def jpeg(self, frame: Frame) -> bytes: ...

    def correct(self, kind: str, colour: str, *, seen: int) -> None:
        """The table's top card once it handled the camera's first ``seen`` sightings: the
        next read is ranked against it. A camera that has decided more since ignores it (the
        table speaks of a pile already covered)."""
        ...

    def new_pile(self, top: tuple[str, str] | None = None) -> None:
        """A round starts: the pile's first card is learned, not played; ``top``, the table's
        first card (kind, colour), is the rules prior for the first play."""
        ...

    def stop(self) -> None: ...

    def teach_start(self, deck: str) -> list[tuple[str, str]]: ...

    def teach_show(self, frame: Frame, kind: str, colour: str) -> bool: ...

    def teach_finish(self) -> str: ...

    def teach_cancel(self) -> None: ...


class CameraWatch:
    """The input source's thread. ``landed(frame, sighting)`` is called on it for each play
    decided; ``teaching()`` says whether frames go to ``teach(frame)`` instead; ``told(state,
    trouble)`` hears each change of status (the trouble to say once, if any)."""

    def __init__(
        self,
        camera: Camera,
        *,
        landed: Callable[[Frame, Sighting], None],
        teach: Callable[[Frame], None],
        teaching: Callable[[], bool],
        told: Callable[[State, State | None], None],
        gate: Callable[[], bool] | None = None,
    ) -> None:
        self._camera = camera
        self._landed = landed
        self._teach = teach
        self._teaching = teaching
        self._told = told
        self._gate = gate  # replays: each decision waits for it (False: stop)
        self.status = CameraStatus()
        self.enabled = True
        self.latest: Frame | None = None
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        self._camera.stop()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=5.0)
        self._thread = None

    def switch(self, on: bool) -> None:
        self.enabled = on
        self._wake.set()

    @property
    def closing(self) -> bool:
        return self._stop.is_set()

    def _fire(self, event: Event, *, say: bool = True) -> None:
        changed, trouble = self.status.fire(event, say=say)
        if changed:
            self._told(self.status.state, trouble)

    def _run(self) -> None:
        # On Linux a thread has its own niceness: the presses' threads come first. Niceness does
        # not share out the interpreter's lock: the hub keeps the switch interval short (1 ms)
        # while it runs, and the camera's work comes in small steps.
        with contextlib.suppress(AttributeError, OSError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), CAMERA_NICENESS)
        camera = self._camera
        misses = 0  # losses in a row with no frame seen
        while not self._stop.is_set():
            if not self.enabled:
                self._fire("switch_off")
                self._wake.wait()
                self._wake.clear()
                continue
            self._fire("open")
            try:
                seen_any = self._watch(camera)
            except (OSError, ValueError) as exc:
                log.warning("camera: %s", exc)
                seen_any = False
            finally:
                camera.release()
            if self._stop.is_set():
                return
            if not self.enabled:  # switched off: not lost
                continue
            if self._gate is not None:  # a replay: its frames are over
                self._fire("ended", say=False)
                return
            self._fire("ended")
            misses = 0 if seen_any else misses + 1
            self._wake.wait(backoff(misses + 1, FIRST_RETRY_S, MAX_RETRY_S))
            self._wake.clear()

    def _watch(self, camera: Camera) -> bool:
        """Read frames until the camera is lost, switched off or the service closes."""
        seen = False
        dark_since: int | None = None
        same_since: int | None = None
        previous = b""
        for frame in camera.frames():
            if self._stop.is_set() or not self.enabled:
                return seen
            seen = True
            self.latest = frame
            dark = camera.brightness(frame) < DARK_LEVEL
            dark_since = (frame.t_ms if dark_since is None else dark_since) if dark else None
            mark = camera.fingerprint(frame)
            same = mark == previous
            same_since = (frame.t_ms if same_since is None else same_since) if same else None
            previous = mark
            if dark_since is not None and frame.t_ms - dark_since >= DARK_MS:
                self._fire("dark")
                continue
            if same_since is not None and frame.t_ms - same_since >= FROZEN_MS:
                self._fire("frozen")
                continue
            if dark_since is None and same_since is None:
                self._fire("clear")
            if self._teaching():
                self._teach(frame)
                continue
            sighting = camera.look(frame)
            if sighting is not None:
                # A replay lets each play through as its script reaches it; a card come clear
                # after it was asked is no play of its own.
                settles = getattr(sighting, "settles", False)
                if self._gate is not None and not settles and not self._gate():
                    return seen
                self._landed(frame, sighting)
        return seen
