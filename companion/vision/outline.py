"""The top card of the pile as a whole card, seen from above: its outline, straightened.

The box's camera looks straight down on a tray from a fixed height, so the card on top of the
pile lies flat, whole (a thumb or the card under it may hide a little of its edge) and about the
same size in every frame. Its coloured field is ringed by its own white border, so it is a
region of its own in the frame even where the cards under it touch it; its white border, on a
darker tray, is a bright four-sided shape. Both are looked for (OpenCV contours, their convex
hull and ``minAreaRect``); the candidate most like a card (four corners, a card's proportions,
the most of it seen) wins, and is warped upright to :data:`CARD_W` × :data:`CARD_H`.

The API, stable for the rest of the program:

- :func:`find_outline` ``(image) -> Top | None``: the top card in a BGR frame.
- :class:`Top`: ``corners`` (4 × 2 frame pixels, clockwise from the straightened card's top
  left), ``card`` (the straightened BGR picture), ``centre``, ``angle``, ``length``, ``colour``
  (its field's colour name), ``seen`` (the share of its outline that is whole).
- :func:`same_card` ``(a, b) -> bool``: two tops are the same card lying in the same place.
- :func:`straighten` ``(image, corners) -> Image``: the picture inside any four corners.

A card is symmetric under a half turn (its indices sit in opposite corners), so which short side
comes out on top of the straightened picture is not decided here: readers look at both ends.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .types import Floats, Image

CARD_W, CARD_H = 128, 200  # the straightened card (a card is 56 × 87 mm: 0.64)
CARD_ASPECT = 56 / 87
WORK_WIDTH = 640  # frames are looked at this wide (a camera's 640 × 480)
SMALLEST = 0.12  # a card's long side spans at least this share of the frame's shorter side
LARGEST = 0.98
ASPECT_SLACK = 0.16  # short / long side within this of a card's (or its field's) proportions
SQUARENESS = 0.88  # the hull fills at least this share of its rectangle (an oval: 0.79)
WHOLE_SQUARENESS = 0.92  # a whole card's white outline, more (a fan of cards is less square)
CORNER_SLACK = 20.0
RECTANGLE = 0.95  # a hull filling this share of its rectangle is taken as that rectangle
FIELD_FIRST = 1.5  # a field ringed by its own border is surely a top card: it counts more
WHITE_SAT = 60  # a white card is less saturated than this (0-255), its lamp taken out
BORDER = 0.08  # a field's outline lies this share of the card's width inside the card's
# Field colours (OpenCV hue, 0-180): the printed colours' bands (docs/vision-data.md).
HUES = (("red", 0, 7), ("yellow", 12, 27), ("green", 27, 90), ("blue", 90, 135), ("red", 168, 181))
PIECE = 0.08  # a field's piece covers at least this share of a card
MAX_PIECES = 12
SAME_COLOUR = 40.0  # pieces of one field: mean BGR this close
LEAST_SEEN = 0.6  # a shape with less of its hull filled is not a card (a hand, a texture)
SAME_MOVE = 0.08  # the same card in the same place: centres this share of its length apart
SAME_TURN = 8.0  # degrees
SAME_LOOK = 0.75  # and its straightened pictures this alike (normalised correlation)


@dataclass(frozen=True)
class Top:
    """The top card of the pile, found by its outline (see the module's docstring)."""

    corners: Floats
    card: Image
    centre: tuple[float, float]
    angle: float  # the long side's angle from the frame's vertical, degrees in [-90, 90)
    length: float  # the long side, frame pixels
    colour: str  # red, yellow, green, blue, black (a wild's field) or other
    seen: float  # share of the outline's area actually seen (1.0: nothing hides it)


def straighten(image: Image, corners: Floats, size: tuple[int, int] = (CARD_W, CARD_H)) -> Image:
    """The picture inside ``corners`` (clockwise from the top left) warped to ``size``."""
    w, h = size
    target = np.array([(0, 0), (w - 1, 0), (w - 1, h - 1), (0, h - 1)], np.float32)
    m = cv2.getPerspectiveTransform(corners.astype(np.float32), target)
    out: Image = cv2.warpPerspective(image, m, size, flags=cv2.INTER_AREA)
    return out


def _order(box: Floats) -> Floats:
    """Four corners clockwise (in the frame, y down) from the top left of the card stood up:
    the first side from corner 0 to corner 1 is a short side."""
    centre = box.mean(axis=0)
    angles = np.arctan2(box[:, 1] - centre[1], box[:, 0] - centre[0])
    box = box[np.argsort(angles)]  # clockwise on screen (y down)
    if np.linalg.norm(box[1] - box[0]) > np.linalg.norm(box[2] - box[1]):
        box = np.roll(box, -1, axis=0)
    # Of the two ways up, the one whose top side lies higher in the frame.
    if box[0, 1] + box[1, 1] > box[2, 1] + box[3, 1]:
        box = np.roll(box, 2, axis=0)
    ordered: Floats = box.astype(np.float32)
    return ordered


def _quad(hull: Image, squareness: float) -> Floats:
    """Four corners of a hull: its smallest rectangle when it fills it (a card seen from above;
    the rectangle also restores its rounded corners), else its polygon when it simplifies to
    four sides (a card seen a little aslant is not a rectangle)."""
    box: Floats = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32)
    if squareness >= RECTANGLE:
        return box
    perimeter = cv2.arcLength(hull, True)
    for share in (0.02, 0.035, 0.05):
        poly = cv2.approxPolyDP(hull, share * perimeter, True)
        if len(poly) == 4:
            return poly.reshape(4, 2).astype(np.float32)
    return box


def _grow(quad: Floats, by: float) -> Floats:
    """The quadrilateral with each side moved outward by ``by`` of its short side (a field's
    outline to its card's): the new corners are where the moved sides meet."""
    centre = quad.mean(axis=0)
    short = min(float(np.linalg.norm(quad[i] - quad[(i + 1) % 4])) for i in range(4))
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = (b - a) / np.linalg.norm(b - a)
        normal = np.array([-d[1], d[0]])
        if normal @ (a - centre) < 0:
            normal = -normal
        lines.append((a + normal * by * short, d))
    out = []
    for i in range(4):
        (p, d), (q, e) = lines[i - 1], lines[i]
        t = np.linalg.solve(np.array([d, -e]).T, q - p)[0]
        out.append(p + t * d)
    grown: Floats = np.array(out, np.float32)
    return grown


@dataclass(frozen=True)
class _Candidate:
    quad: Floats
    score: float
    seen: float


def _candidate(contour: Image, masks: tuple[Image, Image], field: bool) -> _Candidate | None:
    """A card (or, ``field``, a card's field) bounded by ``contour``, or None when its shape is
    not a card's. How much of it is seen: the share of a band just inside its outline that is
    white (a card's border) or not white (a field); a thumb across it breaks the band."""
    white, other = masks
    frame_h, frame_w = white.shape[:2]
    frame_short = min(frame_h, frame_w)
    hull = cv2.convexHull(contour)
    hull_area = cv2.contourArea(hull)
    if hull_area < (SMALLEST * frame_short) ** 2 * CARD_ASPECT:
        return None
    (_, _), (w, h), _ = cv2.minAreaRect(hull)
    short, long = min(w, h), max(w, h)
    if long > LARGEST * frame_short * 1.5 or short <= 0:
        return None
    squareness = hull_area / (w * h)
    aspect = short / long
    want = (56 - 2 * 56 * BORDER) / (87 - 2 * 56 * BORDER) if field else CARD_ASPECT
    if squareness < (SQUARENESS if field else WHOLE_SQUARENESS):
        return None  # (a fan of white cards is seldom as square as one card)
    if abs(aspect - want) > ASPECT_SLACK:
        return None
    quad = _quad(hull, squareness)
    if not _square_corners(quad):
        return None
    seen = _rim_share(other if field else white, quad, short)
    if field:
        # A field's own white border rings it whole on the top card; a card lying partly
        # under another has that card's field across its border.
        seen = min(seen, _ring_share(white, quad, short))
        quad = _grow(quad, BORDER)
    if seen < LEAST_SEEN:
        return None
    margin = 2.0  # a card cut by the frame's edge is not whole
    if quad[:, 0].min() < margin or quad[:, 1].min() < margin:
        return None
    if quad[:, 0].max() > frame_w - 1 - margin or quad[:, 1].max() > frame_h - 1 - margin:
        return None
    score = squareness * min(1.0, seen) * (1.0 - abs(aspect - want)) * math.sqrt(hull_area)
    return _Candidate(quad, score * (FIELD_FIRST if field else 1.0), min(1.0, seen))


def _square_corners(quad: Floats) -> bool:
    """Whether every corner is within :data:`CORNER_SLACK` degrees of a right angle (a card
    seen from above, or a little aslant)."""
    for i in range(4):
        a, b = quad[i - 1] - quad[i], quad[(i + 1) % 4] - quad[i]
        cosine = float(a @ b) / (float(np.linalg.norm(a) * np.linalg.norm(b)) + 1e-9)
        if abs(math.degrees(math.acos(max(-1.0, min(1.0, cosine)))) - 90.0) > CORNER_SLACK:
            return False
    return True


def _rim_share(white: Image, quad: Floats, short: float) -> float:
    """The share of a band just inside the quadrilateral's edge that is white."""
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + 1, white.shape[1::-1])
    local = (quad - np.array([x0, y0], np.float32)).astype(np.int32).reshape(-1, 1, 2)
    rim = np.zeros((y1 - y0, x1 - x0), np.uint8)
    band = max(2, round(short * BORDER * 0.6))
    cv2.polylines(rim, [local], True, 255, band * 2)
    inside = np.zeros_like(rim)
    cv2.fillPoly(inside, [local], 255)
    rim = cv2.bitwise_and(rim, inside)
    total = cv2.countNonZero(rim)
    hit = cv2.countNonZero(cv2.bitwise_and(rim, white[y0:y1, x0:x1]))
    return hit / total if total else 0.0


def _ring_share(white: Image, field: Floats, short: float) -> float:
    """The share of the middle of a field's white border that is white, its rounded corners
    left out."""
    x0, y0 = np.maximum(np.floor(field.min(axis=0) - short * BORDER).astype(int), 0)
    x1, y1 = np.minimum(
        np.ceil(field.max(axis=0) + short * BORDER).astype(int) + 1, white.shape[1::-1]
    )
    origin = np.array([x0, y0], np.float32)
    ring = np.zeros((y1 - y0, x1 - x0), np.uint8)
    outer = np.round(_grow(field, BORDER * 0.7) - origin).astype(np.int32)
    cv2.fillPoly(ring, [outer], 255)
    cv2.fillPoly(ring, [np.round(_grow(field, BORDER * 0.25) - origin).astype(np.int32)], 0)
    for corner in outer:
        cv2.circle(ring, (int(corner[0]), int(corner[1])), round(short * 0.15), 0, -1)
    total = cv2.countNonZero(ring)
    hit = cv2.countNonZero(cv2.bitwise_and(ring, white[y0:y1, x0:x1]))
    return hit / total if total else 0.0


def _masks(image: Image) -> tuple[Image, Image]:
    """Where the picture is card-white (bright, colourless once the lamp's colour is taken out)
    and where it is anything else (a field, the tray, a hand)."""
    small = cv2.resize(image, (80, 60), interpolation=cv2.INTER_AREA).reshape(-1, 3)
    gains = 255.0 / np.maximum(np.percentile(small, 99, axis=0), 40.0)
    balanced = cv2.transform(image, np.diag(gains).astype(np.float32))
    hsv = cv2.cvtColor(balanced, cv2.COLOR_BGR2HSV)
    sat, val = hsv[..., 1], hsv[..., 2]
    level, _ = cv2.threshold(val, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    white: Image = ((sat < WHITE_SAT) & (val > level)).astype(np.uint8) * 255
    kernel = np.ones((3, 3), np.uint8)
    white = cv2.morphologyEx(white, cv2.MORPH_CLOSE, kernel)
    other = cv2.morphologyEx(255 - white, cv2.MORPH_OPEN, kernel)
    return white, other


def _candidates(image: Image) -> tuple[list[_Candidate], list[_Candidate]]:
    """Fields ringed by their own white border, and whole white card shapes. A field may lie in
    two pieces (a printing's white oval reaching across it): pieces of one colour are also tried
    together."""
    masks = _masks(image)
    white, other = masks
    least = (SMALLEST * min(image.shape[:2])) ** 2 * CARD_ASPECT * PIECE
    shortest = SMALLEST * min(image.shape[:2]) * CARD_ASPECT / 2
    found: tuple[list[_Candidate], list[_Candidate]] = ([], [])
    pieces: list[tuple[Image, Floats]] = []
    for mask, field, into in ((other, True, found[0]), (white, False, found[1])):
        contours, tree = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
        parents = tree[0][:, 3] if tree is not None else []
        for contour, parent in zip(contours, parents, strict=True):
            if parent != -1:  # a hole's edge: the tray around a pile, a field inside a border
                continue
            _, _, w, h = cv2.boundingRect(contour)
            if max(w, h) < shortest:  # a speck of texture (most contours): not even a piece
                continue
            c = _candidate(contour, masks, field)
            if c is not None:
                into.append(c)
            elif field and least <= cv2.contourArea(contour) and len(pieces) < MAX_PIECES:
                pieces.append((contour, _mean_colour(image, contour)))
    for i, (a, colour_a) in enumerate(pieces):
        for b, colour_b in pieces[i + 1 :]:
            if float(np.linalg.norm(colour_a - colour_b)) < SAME_COLOUR:
                c = _candidate(np.concatenate([a, b]), masks, True)
                if c is not None:
                    found[0].append(c)
    return found


def _mean_colour(image: Image, contour: Image) -> Floats:
    x, y, w, h = cv2.boundingRect(contour)
    mask = np.zeros((h, w), np.uint8)
    cv2.drawContours(mask, [contour - np.array([x, y])], -1, 255, -1)
    mean = cv2.mean(image[y : y + h, x : x + w], mask)[:3]
    return np.array(mean, np.float32)


def _best(fields: list[_Candidate], wholes: list[_Candidate]) -> _Candidate | None:
    """The likeliest top card; a whole white outline around the same card gives its corners
    more exactly than a field grown by a border's usual width."""
    if not fields and not wholes:
        return None
    best = max(fields + wholes, key=lambda c: c.score)
    if any(best is w for w in wholes):
        return best
    centre = best.quad.mean(axis=0)
    size = _long(best.quad)
    for whole in wholes:
        near = np.linalg.norm(whole.quad.mean(axis=0) - centre) < 0.1 * size
        if near and abs(_long(whole.quad) / size - 1.0) < 0.1:
            return _Candidate(whole.quad, best.score, best.seen)
    return best


def _long(quad: Floats) -> float:
    return float(max(np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for i in range(4)))


def field_colour(card: Image) -> str:
    """The colour of a straightened card's field: the printed hue most of its coloured pixels
    share, ``black`` for a dark field (a wild), ``other`` for a hue no classic card has."""
    h, w = card.shape[:2]
    inner = card[round(h * 0.06) : round(h * 0.94), round(w * 0.08) : round(w * 0.92)]
    hsv = cv2.cvtColor(inner, cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(np.int32)
    bright = np.percentile(hsv[:, 2], 95)
    coloured = hsv[(hsv[:, 1] > 90) & (hsv[:, 2] > 0.25 * bright)]
    if np.count_nonzero(hsv[:, 2] < 0.3 * bright) > 0.3 * len(hsv):
        return "black"  # a wild's field (its colour wheel is small)
    if len(coloured) < 0.08 * len(hsv):
        return "other"
    votes: dict[str, int] = {}
    for name, low, high in HUES:
        votes[name] = votes.get(name, 0) + int(
            np.count_nonzero((coloured[:, 0] >= low) & (coloured[:, 0] < high))
        )
    name, count = max(votes.items(), key=lambda v: v[1])
    return name if count >= 0.6 * len(coloured) else "other"


def find_outline(image: Image) -> Top | None:
    """The top card of the pile in a BGR frame seen from above, or None when no whole card
    shape is seen (an empty tray, a hand over the pile, a card seen edge on)."""
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError("a colour (BGR) picture is needed")
    scale = min(1.0, WORK_WIDTH / image.shape[1])
    work = image
    if scale < 1.0:
        size = (round(image.shape[1] * scale), round(image.shape[0] * scale))
        work = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    best = _best(*_candidates(work))
    if best is None:
        return None
    corners = _order(best.quad / scale)
    card = straighten(image, corners)
    centre = corners.mean(axis=0)
    top_mid = (corners[0] + corners[1]) / 2
    axis = centre - top_mid
    angle = (math.degrees(math.atan2(-axis[0], axis[1])) + 90.0) % 180.0 - 90.0
    length = float(
        (np.linalg.norm(corners[3] - corners[0]) + np.linalg.norm(corners[2] - corners[1])) / 2
    )
    return Top(
        corners=corners,
        card=card,
        centre=(float(centre[0]), float(centre[1])),
        angle=angle,
        length=length,
        colour=field_colour(card),
        seen=best.seen,
    )


def _look(card: Image) -> Floats:
    grey = cv2.cvtColor(
        cv2.resize(card, (16, 25), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY
    )
    v = grey.astype(np.float32).ravel()
    v -= v.mean()
    norm = float(np.linalg.norm(v))
    out: Floats = v / norm if norm > 0 else v
    return out


def likeness(a: Image, b: Image) -> float:
    """How alike two straightened cards look (normalised correlation of small grey copies, the
    better of the two ways up): 1.0 the same picture."""
    va = _look(a)
    return max(float(va @ _look(b)), float(va @ _look(cv2.rotate(b, cv2.ROTATE_180))))


def same_card(a: Top, b: Top) -> bool:
    """Whether two tops are the same card lying in the same place (not moved, not turned, not
    covered by another card laid on it)."""
    move = math.dist(a.centre, b.centre)
    turn = abs((a.angle - b.angle + 90.0) % 180.0 - 90.0)
    size = abs(a.length - b.length) / max(a.length, b.length)
    if move > SAME_MOVE * max(a.length, b.length) or turn > SAME_TURN or size > 0.1:
        return False
    return likeness(a.card, b.card) >= SAME_LOOK
