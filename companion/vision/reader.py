"""Finding the top card of the pile in a frame: where its corner index lies, and what the reader
network makes of it.

A real card's outline is no help on a real table: its white border melts into the card beside it
in a fan, a thumb cuts it, a shadow or a pale tablecloth hides it. Its corner index (the small
number or symbol printed in two corners) is whole on the top card and nowhere else whole near
it. The finder network points at the likeliest places of the top card's index; the reader
network describes each; the place the reader also takes for an index it knows wins (and, given
``changed``, the one where the picture changed: the card just laid).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .field import changed_share
from .net import Networks, Spot, crop
from .types import Floats, Image

CARD_SPAN = 4.0  # the part of the card the index tells about: a square this many indices wide


@dataclass(frozen=True)
class Found:
    """The top card's corner index: where (``spot``), the reader's embedding of it, and the
    square of the card around it (``corners`` clockwise, ``hull`` as a contour)."""

    spot: Spot
    embedding: Floats
    corners: Floats
    hull: Image


def _square(spot: Spot, image: Image) -> Floats:
    half = CARD_SPAN * spot.size / 2
    h, w = image.shape[:2]
    x0, x1 = max(0.0, spot.x - half), min(w - 1.0, spot.x + half)
    y0, y1 = max(0.0, spot.y - half), min(h - 1.0, spot.y + half)
    return np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], np.float32)


def find_top(
    networks: Networks,
    image: Image,
    changed: Image | None = None,
    unknown: Callable[[Floats], Floats] | None = None,
) -> Found | None:
    """The top card's corner index in ``image`` (BGR), or None when the finder sees none.

    ``unknown`` gives, for each embedding, how likely it is not an index at all (the model's
    head); ``changed`` marks where the picture changed since the pile was last still (see
    :mod:`.watcher`): of two indices, the one lying there belongs to the card just laid."""
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError("a colour (BGR) picture is needed")
    spots = networks.spots(image)
    if not spots:
        return None
    embeddings = networks.embed([crop(image, s) for s in spots])
    doubt = unknown(embeddings) if unknown is not None else np.zeros(len(spots))
    found = []
    for spot, embedding, no in zip(spots, embeddings, doubt, strict=True):
        corners = _square(spot, image)
        hull = np.round(corners).astype(np.int32).reshape(-1, 1, 2)
        score = spot.heat * (1.0 - float(no))
        if changed is not None:
            score *= 0.2 + changed_share(changed, hull, image.shape[1])
        found.append((score, Found(spot, embedding, corners, hull)))
    return max(found, key=lambda f: f[0])[1]
