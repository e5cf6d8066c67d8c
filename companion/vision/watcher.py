"""Watching the pile over a stream of frames and deciding, once, that a card was played.

Each frame is shrunk to :data:`SMALL` grey and compared with the one before: that is all the work
a still pile costs. Movement (a hand coming, a card landing) arms the watcher; once the picture
has been still for ``settle_ms`` it compares the still picture with the last still one. Nothing
changed (a hand passed over, the room light changed its level): no read. Something changed: the
top card is read, with the card below as the rules prior, and it is a play only if it is another
card than the top one, or the same face lying elsewhere (two red 7s in a row). A picture gone
soft over a still pile is none; a card laid exactly on one of the same shape is told by its
outline, hue and drawing where it lies (:func:`_laid_anew`).

(Over 500 lines: the pictures compared, soft, grey, in colour and as whole cards, are the one
state every test below reads; split apart they would be handed around as a dozen arguments.)
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from .field import changed_share, field_mask
from .kinds import COLOURLESS, Card
from .model import Model, Read
from .outline import find_outline, same_card
from .settle import CARD_SHARE, Unread
from .sources import TimedFrame
from .types import Floats, Image

SMALL = (80, 60)
MOVING_PIXEL = 0.12  # a relative change in brightness that counts as movement
MOVING_SHARE = 0.004  # … over this share of the small picture
CHANGED_SHARE = 0.01  # a still picture this different from the last still one was touched
LAID_SHARE = 0.3  # a card just laid changed at least this share of the picture where it lies
# A change reaching the picture's edge, in grey or in colour (a brown arm on a green table is
# as grey as the table), is an arm (a lamp changes the cards, not the table's edge), unless it
# covers much of the picture; a hand perfectly still this long is not one.
HAND_EDGE_PIXELS = 4
LIGHT_SHARE = 0.4
STILL_HAND_MS = 5000
SOFT = 2.0  # px of the shrunk picture: two pictures compared soft, so a blur is no change
# Where the picture changed and a card is read, the picture seen soft is the last still one's
# (no card laid there) when less than this share of it changed, or when its pattern correlates
# this well with the still one's (a lamp's colour changes grey levels, not the pattern). On 32
# held-out films and two filmed evenings a card laid, even a look-alike on the same spot,
# correlated at most 0.990 and changed at least 5.7 %; the card left lying, 0.995 or more.
UNCHANGED_SHARE = 0.02
SAME_PATTERN = 0.995
# A view moved as a whole (the camera knocked) by at least this many pixels of the shrunk
# picture is followed, if the still picture moved so leaves at most EXPLAINED of the change.
VIEW_SHIFT = 0.3
EXPLAINED = 0.7
VIEW = (320, 240)  # the picture a knock is measured on
# A picture gone soft (Gaussian σ of the shrunk picture tried, 8 to 32 px of the frame) with
# nothing laid: so blurred, the last still picture leaves at most this share of the change
SOFT_STEPS = (1.0, 1.5, 2.0, 3.0, 4.0)
EXPLAINED_SOFT = 0.3
SOFT_LEFT = 0.02  # ... and at most this share of the picture (a card laid changes 3 % or more)
# A card laid exactly where one of the same shape lay, told where the card is read, the picture
# as sharp as before (this share of the Laplacian's variance at least): the top card found whole
# (this share of it seen) is another card (outline.py), or this share of it changed hue (seen
# soft, each pixel's share of red, green and blue, the lamp's shift taken out), or this share
# of its drawing changed.
SHARP_AS_BEFORE = 0.7
WHOLE_TOP = 0.9
COLOUR_SOFT = 3.0
HUE_CHANGE = 0.06
RECOLOURED_SHARE = 0.3
DRAWING_SOFT = 1.5
CLEAR_STEPS = (1.0, 2.0, 3.0, 4.0)  # a picture come clear seen as soft as before (320 px wide)
REDRAWN_SHARE = 0.1


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


def _shrink_colour(image: Image) -> Floats:
    small: Floats = cv2.resize(image, SMALL, interpolation=cv2.INTER_AREA).astype(np.float32)
    return small + 1.0


def _as_seen(card: Card) -> Card:
    """The card as the camera sees it: a black card's colour, named by its player, is not on
    the card."""
    return Card(card.kind, "") if card.kind in COLOURLESS else card


def _view(image: Image) -> Floats:
    grey = cv2.cvtColor(cv2.resize(image, VIEW, interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    view: Floats = grey.astype(np.float32)
    return view


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
        self.top = None if top is None else _as_seen(top)
        self._known_top = top is not None  # the table said the pile's first card
        self._pose: tuple[float, float, float, float] | None = None
        self._previous: Floats | None = None
        self._still: Floats | None = None  # the last still picture that was looked at
        self._still_frame: Image | None = None  # ... whole, while the view has not moved
        self._moved_at = 0
        self._armed = True  # the first still picture shows the pile as it starts
        self._starting = True
        self.reads = 0  # how many frames were read (the rest only compared)
        self.unread = Unread()
        self._decided = False  # a play was decided on this pile
        self._top_sure = False  # ... and the last one was read sure
        self._top_unread = False  # ... or could not be read at all

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
        return self._settled(frame, small)

    def _settled(self, frame: TimedFrame, small: Floats) -> Decision | None:
        """The picture still for ``settle_ms``: compared with the last still one, and read
        when something that is not an arm changed (or on the first still picture)."""
        still = self._still
        changed = None
        if still is not None:
            still, seen = self._follow_view(small, still, frame.image)
            changed = _changed(small, still) * seen
            share = np.count_nonzero(changed) / changed.size
            if _gone_soft(small, still, frame.image, self._still_frame):
                self.unread.drop()  # the same pile seen soft (a shadow, the lens misted)
                return None
            if share < CHANGED_SHARE:  # a card as grey as the one under it: its colour changed
                changed = changed | self._changed_in_colour(frame.image, seen)
                share = np.count_nonzero(changed) / changed.size
            if share < CHANGED_SHARE:
                self.unread.drop()  # what changed went away again: a hand, not a card
                self._keep(small, frame)  # nothing happened: follow slow drifts of the light
                return None
            if (
                (
                    _edge_pixels(changed) >= HAND_EDGE_PIXELS
                    or _edge_pixels(self._changed_in_colour(frame.image, seen)) >= HAND_EDGE_PIXELS
                )
                and share < LIGHT_SHARE
                and frame.t_ms - self._moved_at < STILL_HAND_MS
            ):
                self._armed = True  # an arm reaches in from the edge: wait for it to go
                return None
        return self._look(frame, small, still, changed)

    def _look(
        self, frame: TimedFrame, small: Floats, still: Floats | None, changed: Image | None
    ) -> Decision | None:
        """The top card read where the picture changed: a play, the unread card laid or come
        clear, or nothing new."""
        self.reads += 1
        read = self.model.read(frame.image, self.top, changed)
        starting, self._starting = self._starting, False
        if read.card is None or read.found is None:
            if starting:  # the pile as it starts, unread (soft, shaded): changes count from it
                self._keep(small, frame)
            elif changed is not None and self.unread.card_sized(changed):
                if self.unread.stayed():  # still there, still unread, after a movement
                    self.unread.hold(frame.t_ms, small, changed, anew=True)
                    return self._unread(frame)
                self.unread.hold(frame.t_ms, small, changed)
            return None  # a hand over the pile: wait for it to go (or a card unread)
        hull, width = read.found.hull, frame.image.shape[1]
        held = self.unread.under_new_card()
        if held is not None and _laid_on(small, held, hull, width):
            return self._unread(frame, again=True)  # a hand laid a card on the unread one
        self.unread.drop()  # (or it is the unread card itself, come clear: read now)
        pose = _pose(read)
        anew: list[bool] = []  # another card where one of the same shape lay (asked once)

        def laid_anew() -> bool:
            if not anew:
                otherwise = read.card != self.top
                anew.append(
                    _laid_anew(frame.image, self._still_frame, hull, read_otherwise=otherwise)
                )
            return anew[0]

        if (
            not starting
            and still is not None
            and _unchanged(small, still, changed, hull, width)
            and not laid_anew()
        ):
            return self._read_again(frame, read, small, pose)
        before = self._pose if read.card == self.top else None
        if before is not None and (
            (not _moved(before, pose) and not _laid_on(small, still, hull, width))
            or changed is None
            or (not _moved(before, pose) and _moved_everywhere(small, still, hull, width))
        ):
            # The same card where it was (the light changed), or the whole picture moved with
            # it (the camera was knocked): a card laid changes the picture only where it lies.
            if changed is not None and not _moved(before, pose) and self.unread.card_sized(changed):
                # ... and a card-sized change beside it that is no hand, no light: a card laid
                # that the reader did not find over the top one. Asked, never dropped.
                self.unread.hold(frame.t_ms, small, changed, anew=True)
                return self._unread(frame)
            self._keep(small, frame)
            self._pose = pose
            return None
        seen_before = changed is not None and changed_share(changed, hull, width) < LAID_SHARE
        if seen_before and not laid_anew():
            return None  # a card that was there before, seen while a hand hides the top
        return self._decide(frame, read, small, pose, starting)

    def _decide(
        self,
        frame: TimedFrame,
        read: Read,
        small: Floats,
        pose: tuple[float, float, float, float],
        starting: bool,
    ) -> Decision | None:
        """A card read where a card was laid: the new top card, a play (or, read where the
        last one lies with no hand since, that card come clear: it settles it)."""
        assert read.found is not None
        hull, width = read.found.hull, frame.image.shape[1]
        self._keep(small, frame)
        last_pose = self._pose
        self._pose = pose
        if not (starting and self._known_top):  # (the table knows the first card better)
            self.top = read.card
        unread = self.unread.decided  # the pile as the unread card left it, if one was
        self.unread.decided = None
        settles = unread is not None and not _laid_on(small, unread, hull, width)
        # The card just decided, read again where it lies (it came clear): not a new play.
        settles = settles or (
            last_pose is not None and not _moved(last_pose, pose) and self.unread.handless()
        )
        self.unread.decided_read()
        if starting or (settles and not self._decided):
            return None  # (the pile as it started, read better: nothing to settle)
        self._top_sure, self._top_unread, self._decided = read.sure, False, True
        return Decision(frame.t_ms, read, frame.image, settles)

    def _keep(self, small: Floats, frame: TimedFrame) -> None:
        self._still, self._still_frame = small, frame.image

    def _changed_in_colour(self, image: Image, seen: Image) -> Image:
        """Where the picture changed since the last still one in a colour channel, each
        channel's light level taken out: an arm as grey as the table (brown on green, or on a
        lamp-warmed wood) still differs in colour. A channel's grain (a dark channel of a
        textured table) is measured against the whole picture's level, and specks are opened
        away: an arm is a band. Nothing when the still picture is not at hand."""
        if self._still_frame is None:
            return np.zeros(seen.shape, np.uint8)
        now, then = _shrink_colour(image), _shrink_colour(self._still_frame)
        level = MOVING_PIXEL * float(now.mean())
        changed = np.zeros(seen.shape, np.uint8)
        for channel in range(3):
            gain = float(np.median(now[..., channel] / then[..., channel]))
            changed |= (np.abs(now[..., channel] - gain * then[..., channel]) > level).astype(
                np.uint8
            )
        band: Image = cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        return band * seen

    def _follow_view(self, small: Floats, still: Floats, image: Image) -> tuple[Floats, Image]:
        """The last still picture moved as the whole view moved since (the camera knocked),
        and where it shows what the camera saw before (1; the band the view brought in, 0):
        a card laid at the same time still changes the picture where it lies, and is read.
        The shift is measured on a larger picture (a knock of a few pixels is a fraction of
        one of the shrunk picture's) and kept only if it explains the change better."""
        seen: Image = np.ones(small.shape, np.uint8)
        if self._still_frame is None:
            return still, seen
        before, now = _view(self._still_frame), _view(image)
        window = cv2.createHanningWindow((now.shape[1], now.shape[0]), cv2.CV_32F)
        (dx, dy), _ = cv2.phaseCorrelate(before, now, window)
        dx, dy = dx * small.shape[1] / now.shape[1], dy * small.shape[1] / now.shape[1]
        if not math.hypot(dx, dy) >= VIEW_SHIFT:  # (or NaN)
            return still, seen
        width = image.shape[1]
        along = np.array([[1, 0, dx], [0, 1, dy]], np.float32)
        size = (small.shape[1], small.shape[0])
        moved: Floats = cv2.warpAffine(still, along, size, borderMode=cv2.BORDER_REPLICATE)
        band_x, band_y = math.ceil(abs(dx)) + 1, math.ceil(abs(dy)) + 1
        if dx >= VIEW_SHIFT:
            seen[:, :band_x] = 0
        elif dx <= -VIEW_SHIFT:
            seen[:, -band_x:] = 0
        if dy >= VIEW_SHIFT:
            seen[:band_y] = 0
        elif dy <= -VIEW_SHIFT:
            seen[-band_y:] = 0
        if np.count_nonzero(_changed(small, moved) * seen) > EXPLAINED * np.count_nonzero(
            _changed(small, still)
        ):
            return still, np.ones(small.shape, np.uint8)  # a card laid, not the view moved
        if self._pose is not None:  # the top card moved with the view
            x, y, length, angle = self._pose
            scale = SMALL[0] / width
            self._pose = (x + dx / scale, y + dy / scale, length, angle)
        self._still, self._still_frame = moved, None
        return moved, seen

    def _read_again(
        self, frame: TimedFrame, read: Read, small: Floats, pose: tuple[float, float, float, float]
    ) -> Decision | None:
        """Nothing new lies where the card is read: the picture there is the last still one
        (a blur or a shadow gone, a hand gone, the lamp changed). The card that lay there, read
        again, is no play, whatever its face. Read sure otherwise than the last card decided, or
        read at all when that card could not be, it **settles** that card (it came clear); the
        pile as it started only learns its top card.

        A card laid unread with a hand seen since may have had a look-alike laid exactly on it
        (same place, angle and colours: the picture seen soft cannot tell the two apart), so
        the read only helps the question asked about it: the family answers it."""
        self._keep(small, frame)
        self._pose = pose
        self.unread.decided = None
        hand_came = not self.unread.handless()
        self.unread.decided_read()
        if read.card == self.top or not (read.sure or self._top_unread):
            return None
        if self._top_unread and hand_came:
            read = dataclasses.replace(read, sure=False)
        self.top = read.card
        if not self._decided:  # the pile as it started, read better: nothing to settle
            return None
        self._top_sure, self._top_unread = read.sure, False
        return Decision(frame.t_ms, read, frame.image, settles=True)

    def _unread(self, frame: TimedFrame, *, again: bool = False) -> Decision:
        """The card laid that could not be read, decided (the top read before stays the rules
        prior); ``again``: the picture is looked at once more, for the card laid on it."""
        self._still, self._still_frame = self.unread.take(covered=again), None
        self._armed = again
        self._decided, self._top_sure, self._top_unread = True, False, True
        return Decision(frame.t_ms, Read(None, 0.0, False), frame.image)

    def correct(self, card: Card) -> None:
        """The table settled what the top card is (an unsure read answered on a phone, a wrong
        one mended): the next read is ranked against it. A black card's colour named by its
        player is not on the card."""
        self.top = _as_seen(card)


def _unchanged(
    small: Floats, still: Floats, changed: Image | None, hull: Image, width: int
) -> bool:
    """Whether nothing new lies where the picture changed and where the card at ``hull`` is
    read, the picture seen soft: hardly a pixel of it changed, or it has the still picture's
    pattern up to its light (a lamp of another colour changes a white card's grey and a brown
    table's unevenly, never the pattern)."""
    soft = (cv2.GaussianBlur(small, (0, 0), SOFT), cv2.GaussianBlur(still, (0, 0), SOFT))
    region = field_mask(hull, small, width)
    if changed is not None:
        region = region | cv2.dilate(changed, np.ones((3, 3), np.uint8))
    inside = region > 0
    total = int(np.count_nonzero(inside))
    if total < 16:
        return False
    if np.count_nonzero(_changed(*soft)[inside]) / total < UNCHANGED_SHARE:
        return True
    now, then = soft[0][inside], soft[1][inside]
    if float(now.std()) < 1e-3 or float(then.std()) < 1e-3:
        return False
    return float(np.corrcoef(now, then)[0, 1]) >= SAME_PATTERN


def _gone_soft(small: Floats, still: Floats, image: Image, still_image: Image | None) -> bool:
    """Whether the picture is the last still one gone soft, nothing laid: blurred as much as
    explains most of the difference (a shadow's light level taken out), hardly a pixel of it
    differs from the still picture, and no card-sized patch changed hue (a card of the same
    shape laid on the top one, seen soft, differs in colour only). A card laid while the
    picture is soft still differs where it lies."""
    before = float(np.count_nonzero(_changed(small, still)))
    if before == 0:
        return False
    after = min(
        np.count_nonzero(_changed(small, cv2.GaussianBlur(still, (0, 0), sigma)))
        for sigma in SOFT_STEPS
    )
    if after > EXPLAINED_SOFT * before or after / small.size >= SOFT_LEFT:
        return False
    if still_image is None:
        return True
    hues = [
        p / p.sum(axis=2, keepdims=True)
        for p in (_shrink_colour(image), _shrink_colour(still_image))
    ]
    hues = [cv2.GaussianBlur(h, (0, 0), SOFT_STEPS[-1]) for h in hues]
    shift = hues[0] - hues[1]
    shift -= np.median(shift.reshape(-1, 3), axis=0)
    recoloured = int(np.count_nonzero((np.abs(shift) > HUE_CHANGE).any(axis=2)))
    return recoloured / small.size < CARD_SHARE


def _laid_anew(image: Image, still: Image | None, hull: Image, *, read_otherwise: bool) -> bool:
    """Whether another card lies where the card at ``hull`` is read than in the last still
    picture, though seen soft and grey the two are alike (a card laid exactly on one of the
    same shape: a blue Inversion on a yellow one, a 9 on a 7). Not when the picture came clear
    (a blur going changes a card's look, not the card). Its hue changed there (the lamp's own
    shift of every hue taken out; seen soft, so also while the picture goes soft); or, as sharp
    as before, the top card found whole is another (outline.py), or, the card read otherwise
    than the top one (``read_otherwise``), its drawing changed (a hand's shadow gone changes a
    drawing's grey a little, never what it reads as). Nothing can be told without the still
    picture (the view moved since)."""
    if still is None or still.shape != image.shape:
        return False
    now, then = _detail(image), _detail(still)
    inside = cv2.dilate(field_mask(hull, now[..., 0], image.shape[1]), np.ones((5, 5), np.uint8))
    region = inside > 0
    total = int(np.count_nonzero(region))
    if total < 64:
        return False
    sharp = [float(cv2.Laplacian(p.mean(axis=2), cv2.CV_32F)[region].var()) for p in (now, then)]
    if sharp[1] < SHARP_AS_BEFORE * sharp[0]:  # sharper than before: a blur going
        # The card come clear, unless its hue changed seen as soft as the still picture was.
        softened = min(
            (cv2.GaussianBlur(now, (0, 0), sigma) for sigma in CLEAR_STEPS),
            key=lambda p: float(np.abs(p - then).mean()),
        )
        return _recoloured(softened, then, region)
    if _recoloured(now, then, region):
        return True
    if sharp[0] < SHARP_AS_BEFORE * sharp[1]:
        return False  # softer than before (a blur coming): its drawing cannot be told
    now_top, then_top = find_outline(image), find_outline(still)
    if (
        now_top is not None
        and then_top is not None
        and min(now_top.seen, then_top.seen) >= WHOLE_TOP
        and not same_card(now_top, then_top)
    ):
        return True  # the top card, found whole, moved, turned or looks otherwise
    if not read_otherwise:
        return False
    level = MOVING_PIXEL * float(now.mean())
    gains = np.median(now / then, axis=(0, 1))
    fine = [cv2.GaussianBlur(p.mean(axis=2), (0, 0), DRAWING_SOFT) for p in (now, then * gains)]
    redrawn = np.abs(fine[0] - fine[1]) > level
    return bool(np.count_nonzero(redrawn & region) / total >= REDRAWN_SHARE)


def _recoloured(now: Floats, then: Floats, region: Image) -> bool:
    """Whether this share of ``region`` changed hue between two pictures (seen soft, each
    pixel's share of red, green and blue, the lamp's shift of every hue taken out)."""
    hues = [
        cv2.GaussianBlur(p / p.sum(axis=2, keepdims=True), (0, 0), COLOUR_SOFT) for p in (now, then)
    ]
    shift = hues[0] - hues[1]
    shift -= np.median(shift.reshape(-1, 3), axis=0)
    recoloured = (np.abs(shift) > HUE_CHANGE).any(axis=2)
    return bool(
        np.count_nonzero(recoloured & region) / np.count_nonzero(region) >= RECOLOURED_SHARE
    )


def _detail(image: Image) -> Floats:
    picture: Floats = cv2.resize(image, VIEW, interpolation=cv2.INTER_AREA).astype(np.float32)
    return picture + 1.0


def _laid_on(small: Floats, held: Floats | None, hull: Image, frame_width: int) -> bool:
    """Whether the card read at ``hull`` was laid since the still picture ``held``: the picture
    changed where it lies, even seen soft (the same card come clear only sharpens there)."""
    if held is None:
        return True
    soft = (cv2.GaussianBlur(small, (0, 0), SOFT), cv2.GaussianBlur(held, (0, 0), SOFT))
    return changed_share(_changed(*soft), hull, frame_width) >= LAID_SHARE


def _moved_everywhere(small: Floats, still: Floats | None, hull: Image, width: int) -> bool:
    """Whether the picture changed all over, or about as much around the card as where it lies
    (the light, the view), seen soft: a picture gone soft changes everywhere, but seen soft only
    where a card was laid meanwhile."""
    if still is None:
        return True
    soft = _changed(cv2.GaussianBlur(small, (0, 0), SOFT), cv2.GaussianBlur(still, (0, 0), SOFT))
    share = int(np.count_nonzero(soft)) / soft.size
    return share >= LIGHT_SHARE or _changed_around(soft, hull, width)


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
