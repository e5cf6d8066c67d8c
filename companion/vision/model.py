"""What the box knows of a deck, how it reads a frame with it, and how it learns it.

A :class:`Model` is a linear classifier over the symbol's description (ridge regression on the
HOG features of :mod:`.reader`, one score per kind), a Gaussian per colour (red, yellow, green,
blue, and black for the wilds) over the colour description, a temperature turning scores into
probabilities, and the probability a read needs to be ``sure``. It is saved as one small ``.npz``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .kinds import CARD_COLOURS, COLOURLESS, KINDS, Card, may_follow
from .reader import Found, colour_features, find_top, shape_features, turned
from .types import Floats, Image

COLOUR_CLASSES = (*CARD_COLOURS, "black")
# An impossible read keeps this share of its probability: it can still win when nothing else
# fits (a missed play), but it is never sure.
PRIOR_PENALTY = 0.05
FORMAT = 1
DEFAULT_MODEL = Path(__file__).with_name("default-model.npz")


class ModelError(ValueError):
    """A model file that cannot be used; the message says why."""


@dataclass(frozen=True)
class Read:
    """What the reader saw: the card (None when no whole card was found), how likely it is,
    whether it is sure enough to move the table, the next best candidates, and where."""

    card: Card | None
    confidence: float
    sure: bool
    candidates: tuple[tuple[Card, float], ...] = ()
    found: Found | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "kind": None if self.card is None else self.card.kind,
            "colour": None if self.card is None else self.card.colour,
            "confidence": round(self.confidence, 4),
            "sure": self.sure,
        }


@dataclass(frozen=True)
class Model:
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

    def read_found(self, found: Found, previous: Card | None = None) -> Read:
        kinds = self.kind_probabilities(found.field)
        colours = self.colour_probabilities(found.field)
        cards: list[Card] = []
        probs: list[float] = []
        for kind, p in zip(self.kinds, kinds, strict=True):
            if kind in COLOURLESS:
                cards.append(Card(kind, ""))
                probs.append(float(p * colours[-1]))
            else:
                for colour, q in zip(CARD_COLOURS, colours[:-1], strict=True):
                    cards.append(Card(kind, colour))
                    probs.append(float(p * q))
        joint = np.array(probs, np.float64)
        allowed = np.array([may_follow(previous, c) for c in cards])
        joint = np.where(allowed, joint, joint * PRIOR_PENALTY)
        joint /= max(joint.sum(), 1e-12)
        order = np.argsort(-joint)[:4]
        best = int(order[0])
        confidence = float(joint[best])
        sure = bool(allowed[best]) and confidence >= self.sure_at and found.ring >= 0.8
        candidates = tuple((cards[i], float(joint[i])) for i in order)
        return Read(cards[best], confidence, sure, candidates, found)

    def read(
        self, image: Image, previous: Card | None = None, changed: Image | None = None
    ) -> Read:
        """The top card of the pile in ``image`` (BGR), ranked with the rules prior
        (``changed``: where the picture changed, see :func:`.reader.find_top`)."""
        found = find_top(image, changed)
        if found is None:
            return Read(None, 0.0, False)
        return self.read_found(found, previous)

    # ------------------------------------------------------------ files

    def save(self, path: Path) -> None:
        meta = {
            "format": FORMAT,
            "kinds": list(self.kinds),
            "temperature": self.temperature,
            "sure_at": self.sure_at,
            "origin": self.origin,
        }
        with path.open("wb") as out:
            np.savez_compressed(
                out,
                meta=np.array(json.dumps(meta)),
                weights=self.weights.astype(np.float16),
                colour_means=self.colour_means,
                colour_inverse=self.colour_inverse,
                colour_logdet=self.colour_logdet,
            )

    @classmethod
    def load(cls, path: Path) -> Model:
        """The model in ``path``; :class:`ModelError` says what is wrong with it."""
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                if meta.get("format") != FORMAT:
                    raise ModelError(f"{path}: model format {meta.get('format')} is not {FORMAT}")
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
            raise ModelError(f"{path}: no such model file") from None
        except (OSError, ValueError, KeyError, json.JSONDecodeError) as exc:
            if isinstance(exc, ModelError):
                raise
            raise ModelError(f"{path}: not a vision model ({exc})") from None


def _softmax(scores: Floats) -> Floats:
    shifted = scores - scores.max()
    e = np.exp(shifted)
    probabilities: Floats = (e / e.sum()).astype(np.float32)
    return probabilities


# ---------------------------------------------------------------- learning


@dataclass(frozen=True)
class Example:
    """A flattened card field and the card it is."""

    field: Floats
    card: Card


def examples(pictures: Iterable[tuple[Image, Card]]) -> tuple[list[Example], int]:
    """The top card of each picture, flattened; and how many pictures showed no card."""
    found: list[Example] = []
    missed = 0
    for image, card in pictures:
        top = find_top(image)
        if top is None:
            missed += 1
        else:
            found.append(Example(top.field, card))
    return found, missed


def jitter(field: Floats, rng: np.random.Generator) -> Floats:
    """The field as another look at the same card would give it: shifted, scaled, turned a
    little, lit a little differently, softer or sharper."""
    h, w = field.shape[:2]
    angle = float(rng.uniform(-4, 4))
    scale = float(rng.uniform(0.95, 1.05))
    m: Floats = cv2.getRotationMatrix2D((w / 2, h / 2), angle, scale)
    m[:, 2] += rng.uniform(-2, 2, 2)
    out = cv2.warpAffine(field, m, (w, h), borderMode=cv2.BORDER_REPLICATE)
    out = out * rng.uniform(0.9, 1.1) * rng.uniform(0.95, 1.05, 3).astype(np.float32)
    if rng.random() < 0.5:
        out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.3, 1.0)))
    return out.astype(np.float32)


def _design(fields: Sequence[Floats]) -> Floats:
    return np.array([np.append(shape_features(f), 1.0) for f in fields], np.float32)


def fit_kinds(
    fields: Sequence[Floats], kinds: Sequence[str], *, ridge: float = 3.0
) -> tuple[tuple[str, ...], Floats]:
    """Ridge regression of one-hot kinds on the shape features: the classes and the weights."""
    classes = tuple(sorted(set(kinds), key=_kind_order))
    x = _design(fields).astype(np.float64)
    y = np.zeros((len(kinds), len(classes)))
    for i, kind in enumerate(kinds):
        y[i, classes.index(kind)] = 1.0
    if len(x) < x.shape[1]:  # a taught deck: fewer views than features, solve the small side
        weights = x.T @ np.linalg.solve(x @ x.T + ridge * np.eye(len(x)), y)
    else:
        weights = np.linalg.solve(x.T @ x + ridge * np.eye(x.shape[1]), x.T @ y)
    return classes, weights.astype(np.float32)


def fit_colours(
    fields: Sequence[Floats], cards: Sequence[Card], fallback: Model | None = None
) -> tuple[Floats, Floats, Floats]:
    """A Gaussian per colour class over the colour features (a colour never shown keeps the
    ``fallback`` model's)."""
    x = np.array([colour_features(f) for f in fields], np.float64)
    names = ["black" if c.kind in COLOURLESS else c.colour for c in cards]
    means = np.zeros((len(COLOUR_CLASSES), 4))
    inverse = np.zeros((len(COLOUR_CLASSES), 4, 4))
    logdet = np.zeros(len(COLOUR_CLASSES))
    floor = np.diag([9.0, 9.0, 9.0, 25.0])
    for i, name in enumerate(COLOUR_CLASSES):
        chosen = x[[n == name for n in names]]
        if len(chosen) < 3:
            if fallback is None:
                raise ModelError(f"no card of colour {name} to learn it from")
            means[i] = fallback.colour_means[i]
            inverse[i] = fallback.colour_inverse[i]
            logdet[i] = fallback.colour_logdet[i]
            continue
        cov = np.cov(chosen.T) + floor
        means[i] = chosen.mean(axis=0)
        inverse[i] = np.linalg.inv(cov)
        logdet[i] = np.linalg.slogdet(cov)[1]
    return means.astype(np.float32), inverse.astype(np.float32), logdet.astype(np.float32)


def _kind_order(kind: str) -> int:
    return KINDS.index(kind)


def train(
    found: Sequence[Example],
    *,
    looks: int,
    seed: int,
    temperature: float,
    sure_at: float,
    origin: str,
    fallback: Model | None = None,
) -> Model:
    """A model from flattened examples, each seen upright, upside down and ``looks`` more
    times jittered."""
    rng = np.random.default_rng(seed)
    fields: list[Floats] = []
    cards: list[Card] = []
    for example in found:
        for view in (example.field, turned(example.field)):
            fields.append(view)
            cards.append(example.card)
            for _ in range(looks):
                fields.append(jitter(view, rng))
                cards.append(example.card)
    classes, weights = fit_kinds(fields, [c.kind for c in cards])
    means, inverse, logdet = fit_colours(fields, cards, fallback)
    return Model(classes, weights, temperature, means, inverse, logdet, sure_at, origin)
