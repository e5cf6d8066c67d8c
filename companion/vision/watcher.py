"""Watching the pile over a stream of frames and deciding, once, that a card was played.

Each frame is shrunk to :data:`SMALL` grey and compared with the one before: that is all the work
a still pile costs. Movement (a hand coming, a card landing) arms the watcher; once the picture
has been still for ``settle_ms`` it compares the still picture with the last still one. Nothing
changed (a hand passed over, the room light changed its level): no read. Something changed: the
top card is read, with the card below as the rules prior, and it is a play only if it is another
card than the top one, or the same face lying elsewhere (two red 7s in a row).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from .kinds import Card
from .model import Model, Read
from .sources import TimedFrame
from .types import Floats, Image

SMALL = (80, 60)
MOVING_PIXEL = 0.12  # a relative change in brightness that counts as movement
MOVING_SHARE = 0.004  # … over this share of the small picture
CHANGED_SHARE = 0.01  # a still picture this different from the last still one was touched


@dataclass(frozen=True)
class Decision:
    """A card played: the frame's time when decided, the read, and the frame it was read in
    (what to show when asking "Which card?")."""

    t_ms: int
    read: Read
    frame: Image | None = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict[str, object]:
        return {"t_ms": self.t_ms, **self.read.to_json()}


def _shrink(image: np.ndarray) -> Floats:
    small = cv2.resize(image, SMALL, interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return grey / (float(grey.mean()) + 1.0)  # a lamp's level is not movement


def _share_changed(a: Floats, b: Floats) -> float:
    return float(np.count_nonzero(np.abs(a - b) > MOVING_PIXEL)) / a.size


def _pose(read: Read) -> tuple[float, float, float, float]:
    """Centre, size and angle (half-turn blind) of the read card's field."""
    assert read.found is not None
    corners = read.found.corners
    centre = corners.mean(axis=0)
    side = corners[2] - corners[1]
    angle = math.degrees(math.atan2(float(side[1]), float(side[0]))) % 180.0
    size = float(np.linalg.norm(side))
    return float(centre[0]), float(centre[1]), size, angle


class Watcher:
    """Feed it frames in order; it returns a :class:`Decision` when a card was played."""

    def __init__(self, model: Model, *, settle_ms: int = 300, top: Card | None = None) -> None:
        self.model = model
        self.settle_ms = settle_ms
        self.top = top
        self._pose: tuple[float, float, float, float] | None = None
        self._previous: Floats | None = None
        self._still: Floats | None = None  # the last still picture that was looked at
        self._moved_at = 0
        self._armed = True  # the first still picture shows the pile as it starts
        self._starting = True
        self.reads = 0  # how many frames were read (the rest only compared)

    def feed(self, frame: TimedFrame) -> Decision | None:
        small = _shrink(frame.image)
        previous, self._previous = self._previous, small
        if previous is None or _share_changed(small, previous) > MOVING_SHARE:
            self._moved_at = frame.t_ms
            self._armed = True
            return None
        if not self._armed or frame.t_ms - self._moved_at < self.settle_ms:
            return None
        self._armed = False
        still, self._still = self._still, small
        if still is not None and _share_changed(small, still) < CHANGED_SHARE:
            return None
        self.reads += 1
        read = self.model.read(frame.image, self.top)
        starting, self._starting = self._starting, False
        if read.card is None:
            return None
        pose = _pose(read)
        if read.card == self.top and self._pose is not None and not _moved(self._pose, pose):
            return None
        self.top, self._pose = read.card, pose
        return None if starting else Decision(frame.t_ms, read, frame.image)

    def correct(self, card: Card) -> None:
        """The table settled what the top card is (an unsure read answered on a phone, a wrong
        one mended): the next read is ranked against it."""
        self.top = card


def _moved(
    before: tuple[float, float, float, float], after: tuple[float, float, float, float]
) -> bool:
    x0, y0, size, a0 = before
    x1, y1, _, a1 = after
    turn = abs(a1 - a0) % 180.0
    return math.hypot(x1 - x0, y1 - y0) > 0.15 * size or min(turn, 180.0 - turn) > 8.0
