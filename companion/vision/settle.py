"""A change on the pile the reader could not read: never skipped in silence.

A card-sized change that stays is a play, read or not. When the watcher settles on a still
picture that changed where a card would lie (a compact patch, away from the picture's edge, too
small for a change of light) and the reader finds no whole card there (blur, a shadow, a lamp
knocked askew), :class:`Unread` holds it; once it has stayed :data:`UNREAD_MS`, or the next
movement starts, the watcher decides "a card was laid" without a face, and the table asks which.
If the card then comes clear where the unread change lay, with the picture changed all around
as well and no hand seen since (the blur or the shadow went in a frame or two; a card is laid by
a hand that moves over several frames), the read **settles** that card instead of being a play
of its own.
"""

from __future__ import annotations

import numpy as np

from .reader import field_mask
from .types import Floats, Image

CARD_SHARE = 0.03  # a card laid changes at least this share of the shrunk picture
LIGHT_SHARE = 0.4  # ... and a change this large is the light, not a card
UNREAD_MS = 1000  # an unread change still this long is a card laid
SAME_PLACE = 0.6  # the share of a read card's field lying in the unread change: the same card
HANDLESS_MOVES = 2  # moving frames a blur or a shadow going makes at most (a hand makes more)


def _edge_pixels(changed: Image) -> int:
    return int(
        np.count_nonzero(changed[0])
        + np.count_nonzero(changed[-1])
        + np.count_nonzero(changed[1:-1, 0])
        + np.count_nonzero(changed[1:-1, -1])
    )


class Unread:
    """The watcher's one pending unread change, and the last one decided."""

    def __init__(self) -> None:
        self._pending: tuple[int, Floats, Image] | None = None  # when, the still, where
        self.decided: Image | None = None  # where the last unread card lay, until the next read
        self._moves = 0  # moving frames since the last decision

    @staticmethod
    def card_sized(changed: Image) -> bool:
        share = np.count_nonzero(changed) / changed.size
        return bool(CARD_SHARE <= share < LIGHT_SHARE) and _edge_pixels(changed) == 0

    def hold(self, t_ms: int, still: Floats, changed: Image) -> None:
        if self._pending is None:
            self._pending = (t_ms, still, changed)

    def moved(self) -> None:
        self._moves += 1

    def handless(self) -> bool:
        """Whether no hand came since the last decision (a blur or a shadow going moves the
        picture for a frame or two; a hand laying a card, for several)."""
        return self._moves <= HANDLESS_MOVES

    def decided_read(self) -> None:
        self._moves = 0

    def due(self, t_ms: int, moved: bool) -> bool:
        pending = self._pending
        return pending is not None and (moved or t_ms - pending[0] >= UNREAD_MS)

    def take(self) -> Floats:
        """The pending change is decided: its still picture (the pile as it now lies)."""
        assert self._pending is not None
        _, still, changed = self._pending
        self._pending = None
        self.decided, self._moves = changed, 0
        return still

    def drop(self) -> None:
        self._pending = None

    def settles(self, hull: Image, changed: Image, frame_width: int, around: bool) -> bool:
        """Whether a card read at ``hull`` is the unread one come clear: it lies where the
        unread change lay and the picture changed all around it too (``around``)."""
        decided, self.decided = self.decided, None
        if decided is None or not around or self._moves > HANDLESS_MOVES:
            return False
        inside = field_mask(hull, changed, frame_width)
        total = int(np.count_nonzero(inside))
        return int(np.count_nonzero(inside & (decided > 0))) >= SAME_PLACE * max(1, total)
