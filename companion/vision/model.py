"""What the box knows of a deck, how it reads a frame with it, and how it adapts to a family's deck.

A :class:`Model` is the shipped networks (:mod:`.net`) and, on their embedding, two linear heads:
one scoring each kind and "not an index I know", one scoring each colour and "another colour".
Temperatures turn the scores into probabilities; the model also keeps the probability and the
finder's heat a read needs to be ``sure`` (both calibrated on photographs and drawings the
networks never learned from). It is saved as one small ``.npz``; the networks stay in the
program, and a model names the reader network it was made for.
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from . import field as drawn
from .fieldmodel import FIELD_MODEL, FieldModel, FieldModelError
from .kinds import COLOURLESS, KINDS, Card, may_follow, rank
from .net import COLOURS, NONE, NetworkError, Networks, Spot
from .outline import CARD_H, Top, find_outline
from .reader import Found, find_top
from .straight import LOOKS, SYMBOL_INK, centre_ink, embed_ends, frame_point
from .taught import MATCH_AT, TaughtFaces
from .types import Floats, Image

# A sure field read also needs the networks to see a card of this deck there (another deck's
# symbol or colour may look like one of ours to the field reader): the networks' "not of this
# deck" share must stay under the model's ``field_foreign_at`` (this, in models saved without it).
FIELD_NOT_A_CARD = 0.1
# A whole white-ringed card seen by the field reader is the top card: an index lying farther than
# this many index sizes outside its field belongs to a card under it, and is not read sure.
UNDER_TOP_CARD = 1.0
UNDER_TOP_RING = 0.8
# A corner of a straightened card holds an index when the reader gives "not an index" less
# than this there; a card with no such corner is left to the finder (fanned cards, a stray shape).
INDEX_SEEN = 0.5
# A taught face's chance is weighed by what the corners read of it, plus this (a face the
# networks never saw, an Extrême one, keeps its say).
CORNERS_FLOOR = 0.05
FORMAT = 2
DEFAULT_MODEL = Path(__file__).with_name("default-model.npz")
_ARRAYS = ("kind_w", "kind_b", "colour_w", "colour_b")


class ModelError(ValueError):
    """A model file that cannot be used; the message says why."""


@dataclass(frozen=True)
class Read:
    """What the reader saw: the card (None when no card was found), how likely it is, whether it
    is sure enough to move the table, the next best candidates, and where."""

    card: Card | None
    confidence: float
    sure: bool
    candidates: tuple[tuple[Card, float], ...] = ()
    found: Found | drawn.Found | None = None  # the index, or the field when that decided

    def to_json(self) -> dict[str, object]:
        return {
            "kind": None if self.card is None else self.card.kind,
            "colour": None if self.card is None else self.card.colour,
            "confidence": round(self.confidence, 4),
            "sure": self.sure,
        }


def _softmax(scores: Floats) -> Floats:
    shifted = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    probabilities: Floats = e / e.sum(axis=-1, keepdims=True)
    return probabilities


@dataclass(frozen=True)
class Model:
    kind_w: Floats  # (embedding, kinds + 1): the last is "not an index I know"
    kind_b: Floats
    colour_w: Floats  # (embedding, colours): red, yellow, green, blue, black, other
    colour_b: Floats
    kind_temperature: float
    colour_temperature: float
    sure_at: float  # the probability a sure read needs
    heat_at: float  # and the finder's heat
    origin: str
    networks: Networks = field(repr=False, compare=False)
    fields: FieldModel | None = field(default=None, repr=False, compare=False)
    agree_at: float = 1.0  # the networks' probability a sure field read needs
    field_foreign_at: float = FIELD_NOT_A_CARD  # and their "not of this deck" share, at most
    # A sure read of the networks also needs their "not of this deck" share below this: cards of
    # decks the model was never shown (faces, stars) sit just above what its own cards show.
    foreign_at: float = 1.0
    kinds: tuple[str, ...] = KINDS
    taught: TaughtFaces | None = field(default=None, repr=False, compare=False)

    @property
    def temperature(self) -> float:
        return self.kind_temperature

    # ------------------------------------------------------------ reading

    def probabilities(self, embedding: Floats) -> tuple[Floats, Floats]:
        """Kind (with "none" last) and colour (with "other" last) probabilities."""
        kinds = _softmax((embedding @ self.kind_w + self.kind_b) / self.kind_temperature)
        colours = _softmax((embedding @ self.colour_w + self.colour_b) / self.colour_temperature)
        return kinds, colours

    def not_a_card(self, embedding: Floats) -> Floats:
        """For each row, how likely it is not a corner index the model knows."""
        kinds = _softmax((embedding @ self.kind_w + self.kind_b) / self.kind_temperature)
        unknown: Floats = kinds[..., NONE]
        return unknown

    def foreign(self, embedding: Floats) -> float:
        """How likely the index is not of this deck: a symbol or a colour it does not have."""
        kinds, colours = self.probabilities(embedding)
        unknown = float(kinds[NONE])
        return unknown + float(colours[-1]) * (1.0 - unknown)

    def find(self, image: Image, changed: Image | None = None) -> Found | None:
        """The top card's corner index in ``image`` (see :func:`.reader.find_top`)."""
        return find_top(self.networks, image, changed, self.not_a_card)

    def read_found(self, found: Found, previous: Card | None = None) -> Read:
        kinds, colours = self.probabilities(found.embedding)
        # Not a card this deck has: an index the reader does not know, or a colour no card of
        # the deck has. That share stays unassigned, so such a read is never sure.
        foreign = self.foreign(found.embedding)
        named = {kind: float(kinds[i]) for i, kind in enumerate(KINDS)}
        shades = {name: float(colours[i]) for i, name in enumerate(COLOURS)}
        candidates, allowed = rank(named, shades, previous, foreign)
        card, confidence = candidates[0]
        sure = (
            allowed
            and confidence >= self.sure_at
            and found.spot.heat >= self.heat_at
            and foreign < self.foreign_at
        )
        return Read(card, confidence, sure, candidates, found)

    def read(
        self, image: Image, previous: Card | None = None, changed: Image | None = None
    ) -> Read:
        """The top card of the pile in ``image`` (BGR), ranked with the rules prior
        (``changed``: where the picture changed, see :func:`.reader.find_top`).

        A camera's picture is read the box's way first: the top card found whole by its outline
        and read straightened (:meth:`read_top`); fanned cards, whose outlines melt together,
        by the finder's corner index. A model made for the program's drawings (with a field
        reader, see :func:`load_drawn`) reads them as it always did."""
        top = find_outline(image) if self.fields is None else None
        found = self.find(image, changed)
        read = None if found is None else self.read_found(found, previous)
        if top is not None:
            straight = self.read_top(top, previous, read)
            if straight is not None:
                return straight
        if found is None or read is None:
            return Read(None, 0.0, False)
        if top is not None and read.sure and off_top(found, top):
            # The whole card on top showed no index the reader knows; the one the finder
            # read lies off it, on a card under it: ask.
            return replace(read, sure=False)
        if self.fields is None:
            return read
        return self._with_fields(read, found, image, previous, changed)

    def read_top(
        self, top: Top, previous: Card | None = None, finder: Read | None = None
    ) -> Read | None:
        """The card found by its outline; None when nothing there is a card the model knows.

        What the reader network sees in its corners (:meth:`read_corners`) stands when it is
        sure, unless a taught face is surely another card (then it asks); when it is not sure,
        a taught face the card is like enough to (:mod:`.taught`) decides."""
        corners = self.read_corners(top, previous, finder)
        if self.taught is None:
            return corners
        match = self.taught.match(top.card)
        if corners is not None and corners.sure:
            if match is not None and match.sure and match.card != corners.card:
                return replace(corners, sure=False)
            return corners
        if match is None or match.likeness < MATCH_AT:
            return corners
        chances = tuple(self.taught.chances(top.card))
        if corners is not None:  # two near faces: what the corners read may part them
            read = dict(corners.candidates)
            mixed = [(face, p * (read.get(face, 0.0) + CORNERS_FLOOR)) for face, p in chances]
            total = sum(p for _, p in mixed) or 1.0
            chances = tuple(sorted(((f, p / total) for f, p in mixed), key=lambda fp: -fp[1]))
        best = chances[0][0]
        sure = match.sure and best == match.card and may_follow(previous, best)
        spot = Spot(top.centre[0], top.centre[1], top.length / 4, match.likeness)
        hull = np.round(top.corners).astype(np.int32).reshape(-1, 1, 2)
        found = Found(spot, np.zeros(0, np.float32), top.corners, hull)
        return Read(best, chances[0][1], sure, chances, found)

    def read_corners(
        self, top: Top, previous: Card | None = None, finder: Read | None = None
    ) -> Read | None:
        """What the reader network sees in the corners of the card found by its outline; None
        when it sees no index there. A sure read also needs the finder's own read of the frame
        (``finder``) to name the same kind, and a symbol printed in the card's middle: cards of
        other games fool one look at their corners, seldom two."""
        hull = np.round(top.corners).astype(np.int32).reshape(-1, 1, 2)
        embeddings, looks = embed_ends(self.networks, top)
        kinds, colours = self.probabilities(embeddings)
        ends = [
            e * LOOKS + int(np.argmin(kinds[e * LOOKS : (e + 1) * LOOKS, NONE])) for e in (0, 1)
        ]
        seen = [i for i in ends if kinds[i, NONE] < INDEX_SEEN]
        if not seen:
            return None
        kind_p = np.prod(kinds[seen], axis=0)
        colour_p = np.prod(colours[seen], axis=0)
        kind_p, colour_p = kind_p / kind_p.sum(), colour_p / colour_p.sum()
        unknown = float(kind_p[NONE])
        foreign = unknown + float(colour_p[-1]) * (1.0 - unknown)
        named = {kind: float(kind_p[i]) for i, kind in enumerate(KINDS)}
        shades = {name: float(colour_p[i]) for i, name in enumerate(COLOURS)}
        candidates, allowed = rank(named, shades, previous, foreign)
        card, confidence = candidates[0]
        best = min(seen, key=lambda i: float(kinds[i, NONE]))
        x, y = frame_point(top, looks[best])
        size = looks[best].size * top.length / CARD_H
        spot = Spot(x, y, size, 1.0 - float(kinds[best, NONE]))
        printed = "black" if card.kind in COLOURLESS else card.colour
        ends_agree = len({int(np.argmax(kinds[i, :NONE])) for i in seen}) == 1
        sure = (
            allowed
            and confidence >= self.sure_at
            and foreign < self.foreign_at
            and printed == top.colour  # the field's own colour agrees
            and ends_agree  # both corners, when both are seen, show the same index
            and finder is not None
            and finder.card is not None
            and finder.card.kind == card.kind
            and centre_ink(top.card) >= SYMBOL_INK
        )
        found = Found(spot, embeddings[best], top.corners, hull)
        return Read(card, confidence, sure, candidates, found)

    def _with_fields(
        self, read: Read, found: Found, image: Image, previous: Card | None, changed: Image | None
    ) -> Read:
        """The program's drawings: the field reader's say (see :func:`load_drawn`)."""
        assert self.fields is not None
        seen = self.fields.read(image, previous, changed)
        if read.sure:
            # Two readers sure of different cards: another deck's symbol, most likely; ask.
            if seen.sure and seen.card is not None and seen.card != read.card:
                return replace(read, sure=False)
            # The index read lies off the whole card on top: it is a card under it (the top
            # one, of a deck the networks do not know, showed them no index); ask.
            if seen.found is not None and off_card(found, seen.found):
                return replace(read, sure=False)
            return read
        # A drawn card's indices are too small to read at this distance: its central symbol,
        # read on its white-ringed field, may settle it, when the networks give that card a
        # fair chance too. Never on a camera's picture: on real cards this reader, learned from
        # drawings, is often sure and wrong.
        if seen.card is None or not seen.sure or seen.found is None:
            return read
        agreed = (
            dict(read.candidates).get(seen.card, 0.0) >= self.agree_at
            and self.foreign(found.embedding) < self.field_foreign_at
        )
        return Read(seen.card, seen.confidence, agreed, read.candidates, seen.found)

    # ------------------------------------------------------------ files

    def save(self, path: Path) -> None:
        meta = {
            "format": FORMAT,
            "reader": self.networks.fingerprint,
            "kind_temperature": self.kind_temperature,
            "colour_temperature": self.colour_temperature,
            "sure_at": self.sure_at,
            "heat_at": self.heat_at,
            "agree_at": self.agree_at,
            "field_foreign_at": self.field_foreign_at,
            "foreign_at": self.foreign_at,
            "origin": self.origin,
        }
        arrays = {name: getattr(self, name).astype(np.float32) for name in _ARRAYS}
        if self.taught is not None:  # the family's faces, each as the outline reader saw it
            meta["taught"] = [[card.kind, card.colour] for card in self.taught.cards]
            arrays["taught_looks"] = self.taught.looks.astype(np.float16)  # half the file
        with path.open("wb") as out:
            np.savez_compressed(out, meta=np.array(json.dumps(meta)), **arrays)

    @classmethod
    def load(
        cls,
        path: Path,
        networks: Networks | None = None,
        fields: FieldModel | None = None,
        *,
        drawings: bool = False,
    ) -> Model:
        """The model in ``path`` (with the shipped networks, or those given); with the field
        reader given, or the shipped one when ``drawings`` (only for the program's own drawings,
        see :meth:`read`). :class:`ModelError` says what is wrong with it."""
        try:
            nets = networks or Networks()
            if fields is None and drawings:
                fields = FieldModel.load(FIELD_MODEL)
        except (NetworkError, FieldModelError) as exc:
            raise ModelError(str(exc)) from None
        try:
            with np.load(io.BytesIO(path.read_bytes()), allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                if not isinstance(meta, dict) or meta.get("format") != FORMAT:
                    found = meta.get("format") if isinstance(meta, dict) else None
                    raise ModelError(
                        f"{path}: model format {found} is not {FORMAT} "
                        "(a deck taught with an older program: teach it again)"
                    )
                if meta.get("reader") != nets.fingerprint:
                    raise ModelError(
                        f"{path}: made for another reader network (teach the deck again)"
                    )
                arrays = {name: data[name].astype(np.float32) for name in _ARRAYS}
                model = cls(
                    **arrays,
                    kind_temperature=float(meta["kind_temperature"]),
                    colour_temperature=float(meta["colour_temperature"]),
                    sure_at=float(meta["sure_at"]),
                    heat_at=float(meta["heat_at"]),
                    origin=str(meta.get("origin", "")),
                    networks=nets,
                    fields=fields,
                    agree_at=float(meta.get("agree_at", 1.0)),
                    field_foreign_at=float(meta.get("field_foreign_at", FIELD_NOT_A_CARD)),
                    foreign_at=float(meta.get("foreign_at", 1.0)),
                    taught=_taught(meta, data),
                )
        except FileNotFoundError:
            raise ModelError(f"{path}: no such model file") from None
        except IsADirectoryError:
            raise ModelError(f"{path}: a folder, not a model file") from None
        except ModelError:
            raise
        except Exception as exc:  # a damaged file fails in many ways (zip, json, shapes)
            raise ModelError(f"{path}: not a vision model ({type(exc).__name__}: {exc})") from None
        _check_shapes(model, path)
        return model


def _taught(meta: dict[str, object], data: np.lib.npyio.NpzFile) -> TaughtFaces | None:
    cards = meta.get("taught")
    if not isinstance(cards, list):
        return None
    looks = data["taught_looks"].astype(np.float32)
    faces = tuple(Card(str(kind), str(colour)) for kind, colour in cards)
    if looks.ndim != 2 or len(looks) != len(faces):
        raise ModelError("taught faces and their looks do not match")
    return TaughtFaces(looks, faces)


def off_top(index: Found, top: Top) -> bool:
    """Whether ``index`` lies off the card found whole by its outline."""
    outline = top.corners.reshape(-1, 1, 2).astype(np.float32)
    inside = cv2.pointPolygonTest(outline, (index.spot.x, index.spot.y), True)
    return bool(inside < -UNDER_TOP_CARD * index.spot.size)


def off_card(index: Found, top: drawn.Found) -> bool:
    """Whether ``index`` lies off the field of the whole card ``top`` (clearly seen)."""
    if top.ring < UNDER_TOP_RING:
        return False
    outline = top.hull.reshape(-1, 1, 2).astype(np.float32)
    inside = cv2.pointPolygonTest(outline, (index.spot.x, index.spot.y), True)
    return bool(inside < -UNDER_TOP_CARD * index.spot.size)


def _check_shapes(model: Model, path: Path) -> None:
    width = model.kind_w.shape[0] if model.kind_w.ndim == 2 else -1
    expected = {
        "kind_w": (width, NONE + 1),
        "kind_b": (NONE + 1,),
        "colour_w": (width, len(COLOURS)),
        "colour_b": (len(COLOURS),),
    }
    for name, shape in expected.items():
        if getattr(model, name).shape != shape:
            raise ModelError(f"{path}: not a vision model ({name} has the wrong shape)")
    values = [model.kind_temperature, model.colour_temperature, model.sure_at, model.heat_at]
    if not all(np.isfinite(v) for v in values) or min(values[:2]) <= 0:
        raise ModelError(f"{path}: not a vision model (bad calibration numbers)")


# ---------------------------------------------------------------- adapting the heads


def adapt(
    model: Model,
    embeddings: Floats,
    kinds: Sequence[int],
    colours: Sequence[int],
    *,
    origin: str,
    pull: float = 0.02,
    steps: int = 300,
) -> Model:
    """The model's heads moved to fit a family's deck: softmax regression on the examples'
    embeddings, pulled toward the shipped heads (``pull``) so what was not shown is kept."""
    kind_w, kind_b = _fit(model.kind_w, model.kind_b, embeddings, np.array(kinds), pull, steps)
    colour_w, colour_b = _fit(
        model.colour_w, model.colour_b, embeddings, np.array(colours), pull, steps
    )
    return replace(
        model, kind_w=kind_w, kind_b=kind_b, colour_w=colour_w, colour_b=colour_b, origin=origin
    )


def _fit(
    w0: Floats, b0: Floats, x: Floats, y: np.ndarray, pull: float, steps: int
) -> tuple[Floats, Floats]:
    w, b = w0.astype(np.float64).copy(), b0.astype(np.float64).copy()
    onehot = np.eye(w.shape[1])[y]
    scale = float(np.mean(np.sum(x * x, axis=1))) + 1e-6
    rate = 1.0 / scale
    for _ in range(steps):
        p = _softmax(x @ w + b)
        grad = (p - onehot) / len(x)
        w -= rate * (x.T @ grad + pull * scale * (w - w0))
        b -= 0.5 * grad.sum(axis=0)
    return w.astype(np.float32), b.astype(np.float32)
