"""Reading a card found by its outline: the reader network looks at its corner indices, where
every UNO printing puts them, on the straightened picture (:mod:`.outline`).

The straightened card stands upright but may be upside down (a card reads the same turned half a
turn: its two indices sit in opposite corners), so both ends are looked at. Printings place and
size their indices a little differently, so each end is looked at in a small grid of places and
sizes; the look the reader takes most surely for an index wins at each end, and the two ends'
probabilities are multiplied (two views of the same index: a thumb over one end leaves the other).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .net import READ_SIZE, READ_SPAN, Networks
from .outline import CARD_H, CARD_W, Top
from .types import Floats, Image

# Where an index lies on a straightened card (shares of its width and height) and how big it is
# (share of its width, as the reader's training labels size an index). On the shipped photos of
# the classic printing the finder's index lies at x 0.18-0.24, y 0.13-0.17, size 0.26-0.31 (10th
# to 90th percentile); the program's drawings at about 0.18, 0.125, 0.15.
PLACES_X = (0.16, 0.21)
PLACES_Y = (0.12, 0.15)
SIZES = (0.17, 0.27)
LOOKS = len(PLACES_X) * len(PLACES_Y) * len(SIZES)  # at each end


@dataclass(frozen=True)
class Look:
    """Where on the straightened card a look was taken: which end (0 as straightened, 1 turned
    half a turn), the centre and the size (card pixels)."""

    end: int
    x: float
    y: float
    size: float


def _cut(card: Image, x: float, y: float, size: float) -> Image:
    scale = READ_SIZE / (READ_SPAN * size)
    m = np.array(
        [[scale, 0.0, READ_SIZE / 2 - scale * x], [0.0, scale, READ_SIZE / 2 - scale * y]],
        np.float32,
    )
    out: Image = cv2.warpAffine(
        card, m, (READ_SIZE, READ_SIZE), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )
    return out


def index_looks(card: Image) -> tuple[list[Image], list[Look]]:
    """The reader's squares over both ends' index places of a straightened card."""
    crops, looks = [], []
    for end, picture in enumerate((card, cv2.rotate(card, cv2.ROTATE_180))):
        for size in SIZES:
            for px in PLACES_X:
                for py in PLACES_Y:
                    x, y, s = px * CARD_W, py * CARD_H, size * CARD_W
                    crops.append(_cut(picture, x, y, s))
                    looks.append(Look(end, x, y, s))
    return crops, looks


def embed_ends(networks: Networks, top: Top) -> tuple[Floats, list[Look]]:
    """The reader's embedding of every look at ``top``'s index places (``2 * LOOKS`` rows)."""
    crops, looks = index_looks(top.card)
    return networks.embed(crops), looks


def frame_point(top: Top, look: Look) -> tuple[float, float]:
    """Where a look's centre lies in the frame."""
    x, y = (look.x, look.y) if look.end == 0 else (CARD_W - 1 - look.x, CARD_H - 1 - look.y)
    square = np.array([(0, 0), (CARD_W - 1, 0), (CARD_W - 1, CARD_H - 1), (0, CARD_H - 1)])
    m = cv2.getPerspectiveTransform(square.astype(np.float32), top.corners.astype(np.float32))
    point = cv2.perspectiveTransform(np.array([[[x, y]]], np.float32), m)[0, 0]
    return float(point[0]), float(point[1])


# Every UNO face prints a symbol in its middle (a number, an arrow, a colour wheel): the middle of
# a card with a blank oval, or of another game's card, is flat. Mean gradient of the middle's
# lightness (at half size) over the card's white: the shipped photos' cards at least 0.45, the drawn
# blank ovals of other decks under 0.09.
SYMBOL_INK = 0.25


def centre_ink(card: Image) -> float:
    """How much is printed in the middle of a straightened card (see :data:`SYMBOL_INK`)."""
    small = cv2.resize(card, (card.shape[1] // 2, card.shape[0] // 2), interpolation=cv2.INTER_AREA)
    light = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    h, w = light.shape
    middle = light[round(0.4 * h) : round(0.6 * h), round(0.38 * w) : round(0.62 * w)]
    edges = np.abs(cv2.Sobel(middle, cv2.CV_32F, 1, 0)) + np.abs(
        cv2.Sobel(middle, cv2.CV_32F, 0, 1)
    )
    return float(edges.mean() / (float(light.max()) + 1.0))
