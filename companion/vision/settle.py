"""A change on the pile the reader could not read: never skipped in silence.

A card-sized change that stays is a play, read or not. When the watcher settles on a still
picture that changed where a card would lie (a compact patch, away from the picture's edge, too
small for a change of light) and the reader finds no whole card there (blur, a shadow, a lamp
knocked askew), :class:`Unread` holds it. If it goes again once the picture has moved and
settled, it was a hand resting there. If it stays, still unread, or a hand lays another card on
it, or it stays unmoved :data:`UNREAD_MS`, the watcher decides "a card was laid" without a face,
and the table asks which.
If the next card read lies where the picture, seen soft, has not changed since (the unread card
come clear: a blur going only sharpens it), the read **settles** that card instead of being a play
of its own.
"""

from __future__ import annotations

import cv2
import numpy as np

from .types import Floats, Image

CARD_SHARE = 0.03  # a card laid changes at least this share of the shrunk picture
LIGHT_SHARE = 0.4  # ... and a change this large is the light, not a card
UNREAD_MS = 5000  # an unread change still this long is a card laid (a hand rests less)
ONE_PATCH = 0.6  # ... most of it in one patch (a lamp changes every card of the pile a little)
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
        self._since_hold = 0  # moving frames since the pending change was held
        self.decided: Floats | None = None  # the pile as the last unread card left it
        self._moves = 0  # moving frames since the last decision

    @staticmethod
    def card_sized(changed: Image) -> bool:
        """A compact patch where a card would lie: not the light, not an arm from the edge."""
        total = int(np.count_nonzero(changed))
        if not CARD_SHARE <= total / changed.size < LIGHT_SHARE or _edge_pixels(changed):
            return False
        count, _, stats, _ = cv2.connectedComponentsWithStats((changed > 0).astype(np.uint8))
        largest = int(stats[1:, cv2.CC_STAT_AREA].max()) if count > 1 else 0
        return largest >= ONE_PATCH * total and largest >= CARD_SHARE * changed.size

    def hold(self, t_ms: int, still: Floats, changed: Image, *, anew: bool = False) -> None:
        """Hold the change (``anew``: as it now stands, in place of the one held)."""
        if self._pending is None or anew:
            self._pending, self._since_hold = (t_ms, still, changed), 0

    def moved(self) -> None:
        self._moves += 1
        self._since_hold += 1

    def due(self, t_ms: int) -> bool:
        """Still unread and unmoved this long (a hand rests a second or two, not this)."""
        pending = self._pending
        return pending is not None and t_ms - pending[0] >= UNREAD_MS

    def stayed(self) -> bool:
        """The held change is still there, unread, after the picture moved and settled."""
        return self._pending is not None and self._since_hold > 0

    def under_new_card(self) -> Floats | None:
        """When a card is read while a change is held and a hand came since (not a blur going):
        the held still picture, to tell a card laid on it from the held card come clear."""
        pending = self._pending
        if pending is None or self._since_hold <= HANDLESS_MOVES:
            return None
        return pending[1]

    def handless(self) -> bool:
        """Whether no hand came since the last decision (a blur or a shadow going moves the
        picture for a frame or two; a hand laying a card, for several)."""
        return self._moves <= HANDLESS_MOVES

    def decided_read(self) -> None:
        self._moves = 0

    def take(self, covered: bool = False) -> Floats:
        """The pending change is decided: its still picture (the pile as it now lies);
        ``covered``: another card lies on it already (nothing of it will come clear)."""
        assert self._pending is not None
        _, still, _ = self._pending
        self._pending = None
        self.decided, self._moves = (None if covered else still), 0
        return still

    def drop(self) -> None:
        self._pending = None
