"""Finding the top card of the pile in a frame, flattening it and describing it.

The top card is the one whose coloured field is whole: a field wholly ringed by its own white
border, of a card's proportions. A card lying under it has its field cut by the top card's edge,
so its outline is not a rectangle and its ring is not white all round. The field found is warped
flat to :data:`FIELD_SIZE` and described twice:

- its **symbol**, as gradient histograms (HOG, computed here in numpy) of a map where the white
  oval and white ink are bright and every printed colour, black included, is dark; the colours are
  first divided by the card's own white border, so a warm or cold lamp changes nothing;
- its **colour**, as the median Lab values of its coloured pixels against that same white.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from .types import Floats, Image

FIELD_W, FIELD_H = 56, 88
FIELD_SIZE = (FIELD_W, FIELD_H)
CELL = 8
BINS = 9
# A card's field (inside the white border) is about 0.61 as wide as it is long; a tilted camera
# and perspective widen the range.
ASPECT = (0.5, 0.74)
MIN_FIELD_AREA = 2500  # pixels, at 640 × 480: a card about 90 px long
MIN_PIECE_AREA = 300
MAX_FIELD_SHARE = 0.5
# Under a soft shadow the white border is judged against the brightest white near it, at least
# this share of the frame's own brightest white.
SHADE_WHITE = 0.62
SHADE_FLOOR = 0.45
CLEAN_RING = 0.9  # a field this well ringed with white needs no second look


@dataclass(frozen=True)
class Found:
    """The top card's field: corners in the frame (clockwise from a short side), the field
    warped flat (BGR divided by the card's white, float32), and how clean the find was."""

    corners: Floats
    field: Floats
    white: tuple[float, float, float]
    ring: float  # share of the ring around the field that is white
    squareness: float  # field area ÷ its bounding rectangle's area
    hull: Image  # the field's outline in the frame (convex)


def _white_mask(image: Image) -> tuple[Image, Floats]:
    """White pixels (all three channels bright after a rough white balance), and the gains."""
    small = image[::4, ::4].reshape(-1, 3)
    top = np.percentile(small, 99.0, axis=0).astype(np.float32)
    gains = np.clip(top.max() / np.maximum(top, 1.0), 1.0, 1.8).astype(np.float32)
    scale: Any = (float(gains[0]), float(gains[1]), float(gains[2]), 0.0)
    blue, green, red = cv2.split(cv2.multiply(image, scale))
    lowest = cv2.min(cv2.min(blue, green), red)
    bright = float(np.percentile(lowest[::4, ::4], 99.0))
    _, white = cv2.threshold(lowest, max(70.0, 0.62 * bright), 255, cv2.THRESH_BINARY)
    return white, gains


def _shaded_mask(image: Image, gains: Floats) -> Image:
    """White as a shadow leaves it (bright against its own surroundings rather than against the
    whole frame), with the colour edges cut out: a thumb or a shadowed border lying between a
    card's field and the table then no longer joins them into one region."""
    scale: Any = (float(gains[0]), float(gains[1]), float(gains[2]), 0.0)
    balanced = cv2.multiply(image, scale)
    blue, green, red = cv2.split(balanced)
    lowest = cv2.min(cv2.min(blue, green), red)
    bright = float(np.percentile(lowest[::4, ::4], 99.0))
    h, w = lowest.shape
    small = cv2.resize(lowest, (w // 8, h // 8), interpolation=cv2.INTER_AREA)
    near = cv2.dilate(small, np.ones((5, 5), np.uint8))
    near = cv2.resize(cv2.GaussianBlur(near, (0, 0), 2.0), (w, h)).astype(np.float32)
    level = SHADE_WHITE * np.clip(near, SHADE_FLOOR * bright, bright)
    white = ((lowest.astype(np.float32) > np.maximum(70.0, level)) * 255).astype(np.uint8)
    edges = cv2.bitwise_or(cv2.Canny(blue, 60, 150), cv2.Canny(green, 60, 150))
    edges = cv2.bitwise_or(edges, cv2.Canny(red, 60, 150))
    cut: Image = cv2.bitwise_or(white, edges)
    return cut


def _order(corners: Floats) -> Floats:
    """Clockwise, starting on a short side (the warp then makes the card upright or upside
    down, never sideways)."""
    centre = corners.mean(axis=0)
    angles = np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0])
    pts = corners[np.argsort(angles)]
    if np.linalg.norm(pts[0] - pts[1]) > np.linalg.norm(pts[1] - pts[2]):
        pts = np.roll(pts, -1, axis=0)
    return pts.astype(np.float32)


def _quad(hull: Image) -> Floats:
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.02, 0.035, 0.05):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float32)
        if len(approx) == 5:
            corner = _corner_back(approx.reshape(5, 2).astype(np.float32))
            if corner is not None:
                return corner
    return cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32)


def _corner_back(points: Floats) -> Floats | None:
    """Four corners from a five-sided outline whose shortest side cuts a corner off (a thumb
    over it): that side's two neighbours, extended, meet where the corner was."""
    sides = np.linalg.norm(np.roll(points, -1, axis=0) - points, axis=1)
    i = int(np.argmin(sides))
    if sides[i] > 0.5 * float(np.median(sides)):
        return None
    a0, a1 = points[i - 1], points[i]  # the side before the cut
    b0, b1 = points[(i + 1) % 5], points[(i + 2) % 5]  # and the side after it
    da, db = a1 - a0, b1 - b0
    cross = float(da[0] * db[1] - da[1] * db[0])
    if abs(cross) < 1e-6 * float(np.dot(da, da) + np.dot(db, db)):
        return None
    t = float((b0 - a0)[0] * db[1] - (b0 - a0)[1] * db[0]) / cross
    meet = a0 + t * da
    keep = [points[(i + k) % 5] for k in (2, 3, 4)]
    quad = np.array([meet, *keep], np.float32)
    area = cv2.contourArea(quad)
    if area <= 0 or area > 1.25 * cv2.contourArea(points):
        return None
    return quad


def _pieces(white: Image) -> list[tuple[int, Image]]:
    """Coloured regions ringed by white, not cut by the frame's edge: (area, outline points)."""
    coloured = cv2.bitwise_not(white)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(coloured, connectivity=4)
    h, w = coloured.shape
    pieces = []
    for label in range(1, count):
        x, y, bw, bh, area = (int(v) for v in stats[label])
        if area < MIN_PIECE_AREA or area > MAX_FIELD_SHARE * h * w:
            continue
        if x == 0 or y == 0 or x + bw >= w or y + bh >= h:
            continue  # the table, or a card cut by the frame's edge
        part = (labels[y : y + bh, x : x + bw] == label).astype(np.uint8)
        contours, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        points = np.concatenate(contours).reshape(-1, 2) + np.array([x, y], np.int32)
        pieces.append((area, points.astype(np.int32)))
    return pieces


def _near(a: Image, b: Image) -> bool:
    """Whether two pieces could be the two halves of one field the oval cut in two."""
    ax0, ay0 = a.min(axis=0)
    ax1, ay1 = a.max(axis=0)
    bx0, by0 = b.min(axis=0)
    bx1, by1 = b.max(axis=0)
    gap = max(bx0 - ax1, ax0 - bx1, by0 - ay1, ay0 - by1)
    size = max(ax1 - ax0, ay1 - ay0, bx1 - bx0, by1 - by0)
    return bool(gap < 0.4 * size)


Candidate = tuple[float, Floats, float, float, Image]  # score, white, ring, squareness, hull


def _candidate(group: list[tuple[int, Image]], white: Image, image: Image) -> Candidate | None:
    """The group of pieces as a card's field, scored, or None when it is not one."""
    h, w = white.shape
    area = sum(p[0] for p in group)
    # The hull: the oval or a glare spot may reach the field's edge and open the ring.
    hull = cv2.convexHull(np.concatenate([p[1] for p in group]))
    filled = float(cv2.contourArea(hull))
    if filled < MIN_FIELD_AREA or area < 0.35 * filled:
        return None
    if len(group) > 1 and (area > 0.85 * filled or min(p[0] for p in group) < 0.15 * filled):
        return None  # two halves of a field leave the oval's white between them
    (_, _), (rw, rh), _ = cv2.minAreaRect(hull)
    if rw < 1 or rh < 1:
        return None
    squareness = filled / (rw * rh)
    aspect = min(rw, rh) / max(rw, rh)
    if squareness < 0.9 or not ASPECT[0] <= aspect <= ASPECT[1]:
        return None
    pad = max(6, int(0.1 * min(rw, rh)))
    x0, y0 = (max(0, int(v) - pad) for v in hull.reshape(-1, 2).min(axis=0))
    x1, y1 = (int(v) + pad for v in hull.reshape(-1, 2).max(axis=0))
    x1, y1 = min(w, x1), min(h, y1)
    solid = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(solid, hull.reshape(-1, 2) - np.array([x0, y0], np.int32), 1)
    width = max(3, int(0.05 * min(rw, rh)))
    grown = cv2.dilate(solid, cv2.getStructuringElement(cv2.MORPH_RECT, (width, width)))
    ring = (grown > 0) & (solid == 0)
    ring_white = white[y0:y1, x0:x1][ring] > 0
    ring_share = float(np.count_nonzero(ring_white)) / max(1, ring_white.size)
    if ring_share < 0.6:
        return None
    patch = image[y0:y1, x0:x1][ring][ring_white]
    if patch.size == 0:
        return None
    ref = np.median(patch.reshape(-1, 3), axis=0).astype(np.float32)
    # Every card is the same size: the top one's field is whole and wholly ringed with white,
    # those under it are cut (and two pieces of different cards are not wholly ringed).
    score = filled * ring_share**4
    return score, ref, ring_share, squareness, hull


def field_mask(hull: Image, mask: Image, frame_width: int) -> Image:
    """1 where the field ``hull`` (frame pixels) lies, in a smaller mask of the frame."""
    scale = mask.shape[1] / frame_width
    inside: Image = np.zeros(mask.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.round(hull.reshape(-1, 2) * scale).astype(np.int32), 1)
    return inside


def changed_share(changed: Image, hull: Image, frame_width: int) -> float:
    """The share of the field ``hull`` (frame pixels) lying where ``changed`` (a smaller mask
    of the frame, non-zero where the picture changed) marks a change."""
    inside = field_mask(hull, changed, frame_width)
    total = int(np.count_nonzero(inside))
    return int(np.count_nonzero(inside & (changed > 0))) / max(1, total)


def _candidates(white: Image, image: Image) -> list[Candidate | None]:
    pieces = _pieces(white)
    found = [_candidate([p], white, image) for p in pieces]
    # A field cut in two by an oval reaching both long edges: two pieces, neither a field.
    halves = [p for p, c in zip(pieces, found, strict=True) if c is None]
    found += [
        _candidate([p, q], white, image)
        for i, p in enumerate(halves)
        for q in halves[i + 1 :]
        if _near(p[1], q[1])
    ]
    return found


def find_top(image: Image, changed: Image | None = None) -> Found | None:
    """The top card of the pile in ``image`` (BGR), or None when no whole card is seen.

    ``changed`` marks where the picture changed since the pile was last still (see
    :mod:`.watcher`): of two whole cards, the one lying there is the one just laid."""
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError("a colour (BGR) picture is needed")
    white, gains = _white_mask(image)
    found = _candidates(white, image)
    if not any(c is not None and c[2] >= CLEAN_RING for c in found):
        # No clean card: a thumb or a shadow may have joined the top card's field to the
        # table; look again with white judged locally and the colour edges cut out.
        found += _candidates(_shaded_mask(image, gains), image)
    candidates = [c for c in found if c is not None]
    if changed is not None:
        width = image.shape[1]
        candidates = [
            (c[0] * (0.2 + changed_share(changed, c[4], width)), *c[1:]) for c in candidates
        ]
    best = max(candidates, key=lambda c: c[0]) if candidates else None
    if best is None:
        return None
    _, ref, ring_share, squareness, hull = best
    corners = _order(_quad(hull))
    target = np.array(
        [(0, 0), (FIELD_W - 1, 0), (FIELD_W - 1, FIELD_H - 1), (0, FIELD_H - 1)], np.float32
    )
    m = cv2.getPerspectiveTransform(corners, target)
    flat = cv2.warpPerspective(image, m, FIELD_SIZE, flags=cv2.INTER_AREA)
    field = flat.astype(np.float32) / np.maximum(ref, 1.0)
    white_ref = (float(ref[0]), float(ref[1]), float(ref[2]))
    return Found(corners, field, white_ref, ring_share, squareness, hull)


def symbol_map(field: Floats) -> Floats:
    """Bright where the card is white (oval, ink), dark where printed in any colour or black."""
    clipped = np.clip(field, 0.0, 1.2)
    low = clipped.min(axis=2)
    high = clipped.max(axis=2)
    mapped: Floats = (low - (high - low)).astype(np.float32)
    return mapped


def hog(picture: Floats) -> Floats:
    """Histograms of oriented gradients (unsigned, :data:`BINS` bins, :data:`CELL`-pixel cells,
    2 × 2-cell blocks normalised): the shape of the symbol, blind to its contrast."""
    gx = cv2.Sobel(picture, cv2.CV_32F, 1, 0, ksize=1)
    gy = cv2.Sobel(picture, cv2.CV_32F, 0, 1, ksize=1)
    magnitude, angle = cv2.cartToPolar(gx, gy)
    angle = np.mod(angle, np.pi)
    position = angle / np.pi * BINS - 0.5
    lower = np.floor(position).astype(np.int32)
    upper_share = (position - lower).astype(np.float32)
    h, w = picture.shape
    cells_y, cells_x = h // CELL, w // CELL
    hist = np.zeros((h, w, BINS), np.float32)
    rows, cols = np.indices((h, w))
    hist[rows, cols, lower % BINS] += magnitude * (1 - upper_share)
    hist[rows, cols, (lower + 1) % BINS] += magnitude * upper_share
    hist = hist[: cells_y * CELL, : cells_x * CELL]
    cells = hist.reshape(cells_y, CELL, cells_x, CELL, BINS).sum(axis=(1, 3))
    blocks = np.concatenate(
        [cells[:-1, :-1], cells[1:, :-1], cells[:-1, 1:], cells[1:, 1:]], axis=2
    ).reshape(-1, 4 * BINS)
    blocks /= np.linalg.norm(blocks, axis=1, keepdims=True) + 1e-3
    blocks = np.minimum(blocks, 0.25)
    blocks /= np.linalg.norm(blocks, axis=1, keepdims=True) + 1e-3
    features: Floats = blocks.reshape(-1).astype(np.float32)
    return features


def shape_features(field: Floats) -> Floats:
    """The symbol's description: HOG of the symbol map and a coarse thumbnail of it."""
    mapped = symbol_map(field)
    thumb = cv2.resize(mapped, (FIELD_W // CELL, FIELD_H // CELL), interpolation=cv2.INTER_AREA)
    thumb = thumb.reshape(-1) - thumb.mean()
    thumb /= np.linalg.norm(thumb) + 1e-3
    return np.concatenate([hog(mapped), 0.5 * thumb]).astype(np.float32)


def colour_features(field: Floats) -> Floats:
    """Median L, a, b of the printed (not white) pixels, and the share of near-black ones."""
    clipped = np.clip(field, 0.0, 1.0).astype(np.float32)
    lab = cv2.cvtColor(clipped, cv2.COLOR_BGR2Lab).reshape(-1, 3)
    printed = clipped.min(axis=2).reshape(-1) < 0.55
    if np.count_nonzero(printed) < 20:
        return np.array([100.0, 0.0, 0.0, 0.0], np.float32)
    chosen = lab[printed]
    chroma = np.hypot(chosen[:, 1], chosen[:, 2])
    dark = float(np.mean((chosen[:, 0] < 35) & (chroma < 15)))
    median = np.median(chosen, axis=0)
    return np.array([median[0], median[1], median[2], 100.0 * dark], np.float32)
