"""The faces of a family's own deck, as taught: each a straightened card, compared whole.

A deck no public photo shows (UNO Extrême, Flip, a new printing) cannot be read by networks that
never saw it; but laid on the tray it is straightened to the same upright picture every time
(:mod:`.outline`), so one photo a face is enough to know it again: the picture is shrunk to a
small colour "look" (the lamp's colour taken out against the card's own white, then lightness and
colour each centred and scaled), and a card seen later is the taught face whose look is nearest
(the better of its two ways up), when it is near enough and clearly nearer than any other face.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .field import hog
from .kinds import Card
from .types import Floats, Image

LOOK_W, LOOK_H = 64, 96
MATCH_AT = 0.8  # a look at least this alike (cosine) to a taught face may be it
MARGIN = 0.03  # and this much more alike to it than to any other face, to be sure
SPREAD = 0.01  # likeness to probability: exp(likeness / SPREAD)


@dataclass(frozen=True)
class Match:
    """The nearest taught face, how alike (cosine, 1.0 the same), and by how much it beats the
    nearest other face."""

    card: Card
    likeness: float
    margin: float

    @property
    def sure(self) -> bool:
        return self.likeness >= MATCH_AT and self.margin >= MARGIN


def look(card: Image) -> Floats:
    """A straightened card's look: the directions of its edges (a histogram of gradients, which
    a card found a pixel or two aside or lit otherwise hardly changes) and its colour at 8 × 12,
    each centred and scaled to unit length, side by side (its length is 1)."""
    rim = np.concatenate([card[:3].reshape(-1, 3), card[-3:].reshape(-1, 3)])
    white = np.maximum(np.percentile(rim, 90, axis=0), 30.0)
    balanced = np.clip(card.astype(np.float32) * (230.0 / white), 0, 255).astype(np.uint8)
    lab = cv2.cvtColor(balanced, cv2.COLOR_BGR2LAB)
    light = cv2.resize(lab[..., 0], (LOOK_W, LOOK_H), interpolation=cv2.INTER_AREA)
    colour = cv2.resize(lab[..., 1:], (8, 12), interpolation=cv2.INTER_AREA)
    parts = []
    for v in (hog(light.astype(np.float32) / 255.0), colour.astype(np.float32).ravel()):
        v = v - v.mean()
        parts.append(v / (float(np.linalg.norm(v)) + 1e-6))
    out: Floats = np.concatenate(parts) / np.sqrt(2.0)
    return out.astype(np.float32)


@dataclass(frozen=True)
class TaughtFaces:
    """The looks of the taught faces (one row each; a face may be shown more than once)."""

    looks: Floats
    cards: tuple[Card, ...]

    @classmethod
    def from_cards(cls, shown: list[tuple[Image, Card]]) -> TaughtFaces:
        """From straightened cards and the face each shows."""
        return cls(np.stack([look(image) for image, _ in shown]), tuple(c for _, c in shown))

    def match(self, card: Image) -> Match | None:
        """The taught face a straightened card is most like (None when fewer than two faces are
        known: nothing to be clearly nearer than)."""
        ranked = self.ranked(card)
        if len(ranked) < 2:
            return None
        (face, value), (_, second) = ranked[0], ranked[1]
        return Match(face, value, value - second)

    def ranked(self, card: Image) -> list[tuple[Card, float]]:
        """Every taught face and how alike the card is to it, most alike first."""
        seen = np.stack([look(card), look(cv2.rotate(card, cv2.ROTATE_180))])
        alike = (self.looks @ seen.T).max(axis=1)
        best: dict[Card, float] = {}
        for face, value in zip(self.cards, alike, strict=True):
            best[face] = max(best.get(face, -1.0), float(value))
        return sorted(best.items(), key=lambda item: -item[1])

    def chances(self, card: Image) -> list[tuple[Card, float]]:
        """The four likeliest faces with a probability each: a softmax of their likeness, so
        that a face clearly nearer than the next (by :data:`MARGIN`) gets about 95 %."""
        ranked = self.ranked(card)
        values = np.array([v for _, v in ranked])
        weights = np.exp((values - values.max()) / SPREAD)
        weights /= weights.sum()
        return [(face, float(w)) for (face, _), w in zip(ranked[:4], weights[:4], strict=False)]
