"""The guided teach: the phone names each face of the deck in turn, the family lays it under the
camera, the box dings when it has it; at the end the deck is learned and read with from then on.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from companion.core.errors import ActionError

from .watch import Camera, Frame


class TeachSession:
    """The teach's progress (``camera.teach_*`` actions on the hub thread, frames on the
    camera's thread)."""

    def __init__(self, camera: Camera | None, learned: Callable[[], None]) -> None:
        self._camera = camera
        self._learned = learned  # a card was learned: ding and tell the phones
        self._lock = threading.Lock()
        self._deck = ""
        self._cards: list[tuple[str, str]] = []
        self._done = 0
        self.active = False

    def state(self) -> dict[str, Any] | None:
        with self._lock:
            if not self.active:
                return None
            cards, done = self._cards, self._done
            nxt = cards[done] if done < len(cards) else None
            return {
                "active": True,
                "next": None if nxt is None else {"kind": nxt[0], "colour": nxt[1]},
                "done": done,
                "total": len(cards),
                "deck": self._deck,
            }

    def start(self, payload: dict[str, Any]) -> None:
        camera = self._needs_camera()
        deck = payload.get("deck", "extreme")
        cards = camera.teach_start(deck)
        with self._lock:
            self._deck, self._cards, self._done, self.active = deck, cards, 0, True

    def skip(self, payload: dict[str, Any]) -> None:
        with self._lock:
            if not self.active:
                raise ActionError("no_teach", "no teach is running")
            self._done = min(self._done + 1, len(self._cards))

    def finish(self, payload: dict[str, Any]) -> None:
        if not self.active or self._camera is None:
            raise ActionError("no_teach", "no teach is running")
        try:
            self._camera.teach_finish()
        except ValueError as exc:
            raise ActionError("teach_failed", str(exc)) from None
        with self._lock:
            self.active = False

    def cancel(self, payload: dict[str, Any]) -> None:
        if self._camera is not None:
            self._camera.teach_cancel()
        with self._lock:
            self.active = False

    def frame(self, frame: Frame) -> None:
        """On the camera's thread: a card laid and still is the one asked for."""
        camera = self._camera
        with self._lock:
            if not self.active or self._done >= len(self._cards) or camera is None:
                return
            asked, kind, colour = self._done, *self._cards[self._done]
        if camera.look(frame) is None:  # the watcher decides when a card was laid
            return
        if camera.teach_show(frame, kind, colour):
            with self._lock:
                if self.active and self._done == asked:
                    self._done += 1
            self._learned()

    def _needs_camera(self) -> Camera:
        if self._camera is None:
            raise ActionError("no_camera", "no camera is configured ([camera] in the settings)")
        return self._camera
