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

from .field import changed_share, field_mask
from .kinds import Card
from .model import Model, Read
from .settle import Unread
from .sources import TimedFrame
from .types import Floats, Image

SMALL = (80, 60)
MOVING_PIXEL = 0.12  # a relative change in brightness that counts as movement
MOVING_SHARE = 0.004  # … over this share of the small picture
CHANGED_SHARE = 0.01  # a still picture this different from the last still one was touched
LAID_SHARE = 0.3  # a card just laid changed at least this share of the picture where it lies
# A change reaching the picture's edge is an arm (a lamp changes the cards, not the table's
# edge), unless it covers much of the picture; a hand perfectly still this long is not one.
HAND_EDGE_PIXELS = 4
LIGHT_SHARE = 0.4
STILL_HAND_MS = 5000
SOFT = 2.0  # px of the shrunk picture: two pictures compared soft, so a blur is no change


@dataclass(frozen=True)
class Decision:
    """A card played: the frame's time when decided, the read, and the frame it was read in
    (what to show when asking "Which card?")."""

    t_ms: int
    read: Read
    frame: Image | None = field(default=None, repr=False, compare=False)
    settles: bool = False  # the card laid unread before, come clear (see .settle)

    def to_json(self) -> dict[str, object]:
        settled = {"settles": True} if self.settles else {}
        return {"t_ms": self.t_ms, **self.read.to_json(), **settled}


def _shrink(image: np.ndarray) -> Floats:
    small = cv2.resize(image, SMALL, interpolation=cv2.INTER_AREA)
    grey: Floats = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32) + 1.0
    return grey


def _changed(a: Floats, b: Floats) -> Image:
    """Where ``a`` differs from ``b`` (1), once a change of the light's level is taken out: the
    level is the median ratio, which a card laid or a hand does not move."""
    gain = float(np.median(a / b))
    return (np.abs(a - gain * b) > MOVING_PIXEL * float(a.mean())).astype(np.uint8)


def _share_changed(a: Floats, b: Floats) -> float:
    return int(np.count_nonzero(_changed(a, b))) / a.size


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
        self.unread = Unread()

    def feed(self, frame: TimedFrame) -> Decision | None:
        small = _shrink(frame.image)
        previous, self._previous = self._previous, small
        moved = previous is None or _share_changed(small, previous) > MOVING_SHARE
        if moved:
            self._moved_at = frame.t_ms
            self._armed = True
            self.unread.moved()
            return None
        if not self._armed or frame.t_ms - self._moved_at < self.settle_ms:
            if self.unread.due(frame.t_ms):  # an unread change still this long: a card laid
                return self._unread(frame)
            return None
        self._armed = False
        still = self._still
        changed = None
        share = 0.0
        if still is not None:
            changed = _changed(small, still)
            share = np.count_nonzero(changed) / changed.size
            if share < CHANGED_SHARE:
                self.unread.drop()  # what changed went away again: a hand, not a card
                self._still = small  # nothing happened: follow slow drifts of the light
                return None
            if (
                _edge_pixels(changed) >= HAND_EDGE_PIXELS
                and share < LIGHT_SHARE
                and frame.t_ms - self._moved_at < STILL_HAND_MS
            ):
                self._armed = True  # an arm reaches in from the edge: wait for it to go
                return None
        self.reads += 1
        read = self.model.read(frame.image, self.top, changed)
        starting, self._starting = self._starting, False
        if read.card is None or read.found is None:
            if starting:  # the pile as it starts, unread (soft, shaded): changes count from it
                self._still = small
            elif changed is not None and self.unread.card_sized(changed):
                if self.unread.stayed():  # still there, still unread, after a movement
                    self.unread.hold(frame.t_ms, small, changed, anew=True)
                    return self._unread(frame)
                self.unread.hold(frame.t_ms, small, changed)
            return None  # a hand over the pile: wait for it to go (or a card unread)
        held = self.unread.under_new_card()
        if held is not None and _laid_on(small, held, read.found.hull, frame.image.shape[1]):
            return self._unread(frame, again=True)  # a hand laid a card on the unread one
        self.unread.drop()  # (or it is the unread card itself, come clear: read now)
        pose = _pose(read)
        before = self._pose if read.card == self.top else None
        if before is not None and (
            not _moved(before, pose)
            or changed is None
            or share >= LIGHT_SHARE
            or _changed_around(changed, read.found.hull, frame.image.shape[1])
        ):
            # The same card where it was (the light changed), or the whole picture moved with
            # it (the camera was knocked): a card laid changes the picture only where it lies.
            self._still, self._pose = small, pose
            return None
        width = frame.image.shape[1]
        if changed is not None and changed_share(changed, read.found.hull, width) < LAID_SHARE:
            return None  # a card that was there before, seen while a hand hides the top
        self._still, last_pose = small, self._pose
        self.top, self._pose = read.card, pose
        unread = self.unread.decided  # the pile as the unread card left it, if one was
        self.unread.decided = None
        settles = unread is not None and not _laid_on(small, unread, read.found.hull, width)
        # The card just decided, read again where it lies (it came clear): not a new play.
        settles = settles or (
            last_pose is not None and not _moved(last_pose, pose) and self.unread.handless()
        )
        self.unread.decided_read()
        return None if starting else Decision(frame.t_ms, read, frame.image, settles)

    def _unread(self, frame: TimedFrame, *, again: bool = False) -> Decision:
        """The card laid that could not be read, decided (the top read before stays the rules
        prior); ``again``: the picture is looked at once more, for the card laid on it."""
        self._still = self.unread.take(covered=again)
        self._armed = again
        return Decision(frame.t_ms, Read(None, 0.0, False), frame.image)

    def correct(self, card: Card) -> None:
        """The table settled what the top card is (an unsure read answered on a phone, a wrong
        one mended): the next read is ranked against it."""
        self.top = card


def _laid_on(small: Floats, held: Floats, hull: Image, frame_width: int) -> bool:
    """Whether the card read at ``hull`` was laid since the still picture ``held``: the picture
    changed where it lies, even seen soft (the same card come clear only sharpens there)."""
    soft = (cv2.GaussianBlur(small, (0, 0), SOFT), cv2.GaussianBlur(held, (0, 0), SOFT))
    return changed_share(_changed(*soft), hull, frame_width) >= LAID_SHARE


def _changed_around(changed: Image, hull: Image, frame_width: int) -> bool:
    """Whether the picture changed about as much around the card as where it lies."""
    lying = field_mask(hull, changed, frame_width)
    inside: Image = cv2.dilate(lying, np.ones((5, 5), np.uint8))  # and its shadow
    within = int(np.count_nonzero(changed & inside))
    around = int(np.count_nonzero(changed & (1 - inside)))
    return around > 0.5 * within


def _edge_pixels(changed: np.ndarray) -> int:
    return int(
        np.count_nonzero(changed[0])
        + np.count_nonzero(changed[-1])
        + np.count_nonzero(changed[1:-1, 0])
        + np.count_nonzero(changed[1:-1, -1])
    )


def _moved(
    before: tuple[float, float, float, float], after: tuple[float, float, float, float]
) -> bool:
    x0, y0, size, a0 = before
    x1, y1, _, a1 = after
    turn = abs(a1 - a0) % 180.0
    return math.hypot(x1 - x0, y1 - y0) > 0.15 * size or min(turn, 180.0 - turn) > 8.0
