"""The classical reader of a card's coloured field, for decks known from drawings only.

A :class:`FieldModel` is a linear classifier over the central symbol's description (ridge
regression on the HOG features of :mod:`.field`, one score per kind), a Gaussian per colour over
the colour description, a temperature and the probability a read needs to be ``sure``; it was
learned from the program's own drawings (14 styles, both decks). It reads a card whose field is
wholly ringed by its white border, as on the drawings; on real photographs that rule often
fails or misleads, so :class:`.model.Model` lets it speak only where the networks agree.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .field import Found, colour_features, find_top, shape_features
from .kinds import CARD_COLOURS, Card, rank
from .types import Floats, Image

COLOUR_CLASSES = (*CARD_COLOURS, "black")
FORMAT = 1
FIELD_MODEL = Path(__file__).with_name("field-model.npz")


class FieldModelError(ValueError):
    """A model file that cannot be used; the message says why."""


@dataclass(frozen=True)
class FieldRead:
    """What the reader saw: the card (None when no whole card was found), how likely it is,
    whether it is sure enough to move the table, the next best candidates, and where."""

    card: Card | None
    confidence: float
    sure: bool
    candidates: tuple[tuple[Card, float], ...] = ()
    found: Found | None = None


@dataclass(frozen=True)
class FieldModel:
    kinds: tuple[str, ...]
    weights: Floats  # (features + 1, kinds)
    temperature: float
    colour_means: Floats  # (5, 4)
    colour_inverse: Floats  # (5, 4, 4)
    colour_logdet: Floats  # (5,)
    sure_at: float
    origin: str

    # ------------------------------------------------------------ reading

    def kind_probabilities(self, field: Floats) -> Floats:
        features = np.append(shape_features(field), 1.0).astype(np.float32)
        scores = features @ self.weights
        return _softmax(scores * self.temperature)

    def colour_probabilities(self, field: Floats) -> Floats:
        x = colour_features(field)
        diff = x[None, :] - self.colour_means
        mahalanobis = np.einsum("ci,cij,cj->c", diff, self.colour_inverse, diff)
        return _softmax(-0.5 * (mahalanobis + self.colour_logdet))

    def read_found(self, found: Found, previous: Card | None = None) -> FieldRead:
        kinds = self.kind_probabilities(found.field)
        colours = self.colour_probabilities(found.field)
        named = {kind: float(p) for kind, p in zip(self.kinds, kinds, strict=True)}
        shades = {"black": float(colours[-1])}
        shades.update({c: float(q) for c, q in zip(CARD_COLOURS, colours[:-1], strict=True)})
        candidates, allowed = rank(named, shades, previous)
        card, confidence = candidates[0]
        sure = allowed and confidence >= self.sure_at and found.ring >= 0.8
        return FieldRead(card, confidence, sure, candidates, found)

    def read(
        self, image: Image, previous: Card | None = None, changed: Image | None = None
    ) -> FieldRead:
        """The top card of the pile in ``image`` (BGR), ranked with the rules prior
        (``changed``: where the picture changed, see :func:`.reader.find_top`)."""
        found = find_top(image, changed)
        if found is None:
            return FieldRead(None, 0.0, False)
        return self.read_found(found, previous)

    # ------------------------------------------------------------ files

    @classmethod
    def load(cls, path: Path) -> FieldModel:
        """The model in ``path``; :class:`FieldModelError` says what is wrong with it."""
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                if meta.get("format") != FORMAT:
                    found = meta.get("format")
                    raise FieldModelError(f"{path}: model format {found} is not {FORMAT}")
                return cls(
                    kinds=tuple(meta["kinds"]),
                    weights=data["weights"].astype(np.float32),
                    temperature=float(meta["temperature"]),
                    colour_means=data["colour_means"].astype(np.float32),
                    colour_inverse=data["colour_inverse"].astype(np.float32),
                    colour_logdet=data["colour_logdet"].astype(np.float32),
                    sure_at=float(meta["sure_at"]),
                    origin=str(meta.get("origin", "")),
                )
        except FileNotFoundError:
            raise FieldModelError(f"{path}: no such model file") from None
        except (OSError, ValueError, KeyError, json.JSONDecodeError) as exc:
            if isinstance(exc, FieldModelError):
                raise
            raise FieldModelError(f"{path}: not a vision model ({exc})") from None


def _softmax(scores: Floats) -> Floats:
    shifted = scores - scores.max()
    e = np.exp(shifted)
    probabilities: Floats = (e / e.sum()).astype(np.float32)
    return probabilities
