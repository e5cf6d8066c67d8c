"""Measuring the reader (tests and benches): on drawings in a style it was never tuned on, on
labelled photographs, with a thumb or a shadow over the top card, and on decks it does not know.

Held-out styles use :data:`render.HELD_OUT_FONT`, which no training or calibration style uses,
and their own random stroke widths, sizes, hues, corner layouts and symbol variants.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from . import render
from .kinds import Card, faces
from .model import Model
from .render import Sequence, Still
from .sources import TimedFrame, load_image
from .teach import read_labels
from .types import Image
from .watcher import Watcher

HELD_OUT_SEED = 33


def held_out_styles(count: int = 3) -> list[render.Style]:
    return render.styles(count, HELD_OUT_SEED, held_out=True)


def held_out_stills(count: int, seed: int = 3, styles: int = 3) -> list[Still]:
    return render.still_set(count, seed, held_out_styles(styles), faces())


def held_out_sequences(
    count: int,
    seed: int = 100,
    *,
    plays: int = 3,
    passes: int = 1,
    lamp_changes: int = 1,
    rests: int = 0,
    styles: int = 3,
) -> list[Sequence]:
    drawn = held_out_styles(styles)
    return [
        render.sequence(
            seed + i,
            drawn[i % len(drawn)],
            faces(),
            plays=plays,
            passes=passes,
            lamp_changes=lamp_changes,
            rests=rests,
        )
        for i in range(count)
    ]


@dataclass
class SequenceScore:
    plays: int = 0
    right: int = 0  # decided once, at the right card
    extra: int = 0  # decisions with no play behind them
    delays_ms: list[int] = field(default_factory=list)  # decision − hand gone, for each right

    @property
    def right_rate(self) -> float:
        return self.right / max(1, self.plays)

    def delay_p95(self) -> int:
        if not self.delays_ms:
            return 0
        ordered = sorted(self.delays_ms)
        return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def score_sequences(model: Model, sequences: list[Sequence]) -> SequenceScore:
    """Each decision is matched to the play it follows (the last one whose hand had gone)."""
    score = SequenceScore()
    for film in sequences:
        watcher = Watcher(model)
        decisions = [
            d for f in film.frames if (d := watcher.feed(TimedFrame(f.t_ms, f.image))) is not None
        ]
        score.plays += len(film.plays)
        matched: set[int] = set()
        for decision in decisions:
            before = [i for i, p in enumerate(film.plays) if p.hand_left_ms <= decision.t_ms]
            if not before or before[-1] in matched:
                score.extra += 1
                continue
            index = before[-1]
            matched.add(index)
            play = film.plays[index]
            if decision.read.card == play.card:
                score.right += 1
                score.delays_ms.append(decision.t_ms - play.hand_left_ms)
    return score


# ---------------------------------------------------------------- decks the reader does not know

# Fields of decks with colours no classic card has (the dark side of a flip deck): BGR.
FOREIGN_FIELDS = {
    "pink": (150, 60, 225),
    "teal": (150, 140, 20),
    "orange": (20, 110, 245),
    "purple": (135, 40, 110),
}
FOREIGN_GLYPHS = ("+5", "face", "star")


def _foreign_mark(img: Image, centre: tuple[float, float], size: float, mark: str) -> None:
    x, y = round(centre[0]), round(centre[1])
    r = max(3, round(size / 2))
    if mark == "face":  # a smiling face where the index would be
        cv2.circle(img, (x, y), r, (40, 220, 250), -1, cv2.LINE_AA)
        cv2.circle(img, (x, y), r, (20, 20, 20), max(1, r // 6), cv2.LINE_AA)
        for dx in (-r // 3, r // 3):
            cv2.circle(img, (x + dx, y - r // 4), max(1, r // 7), (20, 20, 20), -1)
        cv2.ellipse(
            img, (x, y + r // 8), (r // 2, r // 3), 0, 10, 170, (20, 20, 20), max(1, r // 6)
        )
    elif mark == "star":
        angles = np.linspace(-np.pi / 2, 3 * np.pi / 2, 11)[:-1]
        radii = np.where(np.arange(10) % 2 == 0, r, r * 0.45)
        pts = np.stack([x + radii * np.cos(angles), y + radii * np.sin(angles)], axis=1)
        cv2.fillPoly(img, [np.round(pts).astype(np.int32)], (250, 250, 250), cv2.LINE_AA)
    else:
        font = cv2.FONT_HERSHEY_DUPLEX
        scale = size / 22
        (w, h), _ = cv2.getTextSize(mark, font, scale, 2)
        org = (round(x - w / 2), round(y + h / 2))
        cv2.putText(img, mark, org, font, scale, (20, 20, 20), 5, cv2.LINE_AA)
        cv2.putText(img, mark, org, font, scale, (250, 250, 250), 2, cv2.LINE_AA)


def foreign_face(rng: np.random.Generator, style: render.Style, deck: str) -> Image:
    """A card of a deck the reader was never taught: ``flip`` (the dark side of a flip deck:
    numbers and a "+5" on pink, teal, orange or purple) or ``emoji`` (classic colours, faces and
    stars for indices and symbols)."""
    w, h = render.FACE_W, render.FACE_H
    img = np.full((h, w, 3), 246, np.uint8)
    b = round(style.border * w)
    if deck == "flip":
        field_colour = list(FOREIGN_FIELDS.values())[int(rng.integers(4))]
        mark = str(rng.choice(["+5", *"123456789"]))
    else:
        field_colour = style.hues[str(rng.choice(list(render.BGR)))]
        mark = str(rng.choice(["face", "star"]))
    cv2.rectangle(img, (b, b), (w - b - 1, h - b - 1), field_colour, -1)
    axes = (round(w * 0.36), round(h * 0.36))
    cv2.ellipse(img, (w // 2, h // 2), axes, style.oval_angle, 0, 360, (246, 246, 246), -1)
    _foreign_mark(img, (w / 2, h / 2), w * 0.45, mark)
    index = w * 0.15 * style.index_size
    corner = b + index * 0.75
    _foreign_mark(img, (corner, corner), index, mark)
    turned: Image = cv2.rotate(img, cv2.ROTATE_180)
    size = round(corner + index)
    img[h - size :, w - size :] = turned[h - size :, w - size :]
    return img


def foreign_stills(count: int, seed: int, deck: str) -> list[Image]:
    """Piles topped by a card of a deck the reader does not know (see :func:`foreign_face`)."""
    rng = np.random.default_rng(seed)
    drawn = held_out_styles(3)
    stills = []
    for i in range(count):
        style = drawn[i % len(drawn)]
        cache = render.FaceCache()
        top = Card("7", "red")  # stands for the foreign card: its face is replaced below
        cache.put(top, style, foreign_face(rng, style, deck))
        scene = render.random_still(rng, top, style, faces())
        *under, laid = scene.pile
        # a card under it that happens to be the stand-in keeps a face of its own
        under = [replace(p, card=Card("8", "blue")) if p.card == top else p for p in under]
        pile = (*under, laid)
        stills.append(render.draw_scene(replace(scene, pile=pile), cache))
    return stills


def playing_card_face(rng: np.random.Generator) -> Image:
    """A card of another game: a white face, a rank in two corners and suit marks in black or
    red, no coloured field."""
    w, h = render.FACE_W, render.FACE_H
    img = np.full((h, w, 3), 244, np.uint8)
    ink = (30, 30, 200) if rng.random() < 0.5 else (25, 25, 25)
    rank = str(rng.choice(["A", "K", "Q", "J", "10", *"2345678"]))
    font = cv2.FONT_HERSHEY_DUPLEX
    cv2.putText(img, rank, (12, 40), font, 1.1, ink, 2, cv2.LINE_AA)
    for _ in range(int(rng.integers(1, 9))):
        x, y = int(rng.integers(50, w - 50)), int(rng.integers(70, h - 70))
        cv2.circle(img, (x, y), 12, ink, -1, cv2.LINE_AA)
    turned: Image = cv2.rotate(img, cv2.ROTATE_180)
    img[h // 2 :] = turned[h // 2 :]
    return img


SKINS = ((120, 160, 215), (90, 130, 190), (60, 90, 140), (40, 60, 95))


def other_things(count: int, seed: int) -> list[tuple[str, Image]]:
    """Frames with no UNO card on top: an empty tray, a hand over it, a phone lying on it (its
    screen lit), a card of another game: none may be read sure."""
    rng = np.random.default_rng(seed)
    things = []
    for i in range(count):
        table, light, camera = render.random_conditions(rng)
        what = ("tray", "hand", "phone", "playing card")[i % 4]
        cache = render.FaceCache()
        scene = render.Scene(table, (), light, camera)
        if what == "hand":
            tone = SKINS[int(rng.integers(len(SKINS)))]
            scene = replace(scene, hand=render.Hand(320, 260, "bottom", tone=tone))
        if what == "playing card":
            style = held_out_styles(1)[0]
            stand_in = Card("7", "red")
            cache.put(stand_in, style, playing_card_face(rng))
            placed = render.Placed(stand_in, style, 320, 240, float(rng.uniform(0, 360)), 180)
            scene = replace(scene, pile=(placed,))
        image = render.draw_scene(scene, cache)
        if what == "phone":
            _phone(image, rng)
        things.append((what, image))
    return things


def _phone(image: Image, rng: np.random.Generator) -> None:
    centre = (float(rng.uniform(260, 380)), float(rng.uniform(200, 280)))
    angle = float(rng.uniform(0, 180))
    body = cv2.boxPoints((centre, (92, 190), angle)).astype(np.int32)
    screen = cv2.boxPoints((centre, (80, 168), angle)).astype(np.int32)
    cv2.fillConvexPoly(image, body, (18, 18, 22), cv2.LINE_AA)
    cv2.fillConvexPoly(image, screen, tuple(int(v) for v in rng.integers(60, 255, 3)), cv2.LINE_AA)
    for _ in range(6):  # the picture on the screen: coloured blocks
        x, y = (int(v) for v in rng.normal(centre, 25))
        colour = tuple(int(v) for v in rng.integers(0, 255, 3))
        cv2.rectangle(image, (x - 10, y - 10), (x + 10, y + 10), colour, -1)


def score_foreign(model: Model, stills: list[Image]) -> tuple[int, int]:
    """How many of ``stills`` were read as a card, and how many of those reads were sure."""
    reads = [model.read(image) for image in stills]
    return sum(r.card is not None for r in reads), sum(r.sure for r in reads)


# ---------------------------------------------------------------- photographs


@dataclass
class PhotoScore:
    """A labelled set read with a model: each figure the bench prints."""

    photos: int = 0
    kind_right: int = 0
    colour_right: int = 0
    right: int = 0
    sure: int = 0
    sure_right: int = 0
    mistakes: list[str] = field(default_factory=list)

    @property
    def wrong_sure(self) -> int:
        return self.sure - self.sure_right

    def share(self, count: int) -> float:
        return count / max(1, self.photos)

    @property
    def sure_precision(self) -> float:
        return self.sure_right / max(1, self.sure)


def score_pictures(model: Model, pictures: Iterable[tuple[Image, Card]]) -> PhotoScore:
    score = PhotoScore()
    for image, card in pictures:
        read = model.read(image)
        score.photos += 1
        seen = read.card
        score.kind_right += seen is not None and seen.kind == card.kind
        score.colour_right += seen is not None and seen.colour == card.colour
        right = seen == card
        score.right += right
        score.sure += read.sure
        score.sure_right += read.sure and right
        if not right:
            score.mistakes.append(f"{card} read {seen} ({read.confidence:.2f}, sure {read.sure})")
    return score


def photo_set(folder: Path) -> list[tuple[Image, Card]]:
    """The photos of a labelled folder (``labels.csv`` as :func:`.teach.read_labels` reads it)."""
    return [(load_image(path), card) for path, card in read_labels(folder)]


def thumbed_stills(count: int, seed: int, *, thumb: bool) -> list[Still]:
    """Held-out stills with a thumb over a corner of the top card (3-5 % of the card), or a
    soft shadow across the top card (a hand or a head between the lamp and the pile)."""
    rng = np.random.default_rng(seed)
    drawn = held_out_styles(3)
    deck = faces()
    cache = render.FaceCache()
    out = []
    for i in range(count):
        card = deck[i % len(deck)]
        scene = render.random_still(rng, card, drawn[i % len(drawn)], deck)
        image = render.draw_scene(replace(scene, hand=None), cache).astype(np.float32)
        top = scene.pile[-1]
        corners = render.card_corners(top)
        centre = corners.mean(axis=0)
        h, w = image.shape[:2]
        area = top.length**2 * render.FACE_W / render.FACE_H
        cover = np.zeros((h, w), np.float32)
        if thumb:
            corner = corners[int(rng.integers(4))]
            at = corner + (centre - corner) * rng.uniform(0.05, 0.12)
            r = float(np.sqrt(rng.uniform(0.03, 0.05) * area / (np.pi * 1.6)))
            angle = float(rng.uniform(0, 180))
            axes = (round(r), round(1.6 * r))
            cv2.ellipse(cover, (round(at[0]), round(at[1])), axes, angle, 0, 360, 1.0, -1)
            tone = np.array(rng.choice([[120, 160, 215], [90, 130, 190], [60, 90, 140]]))
            image = image * (1 - cover[..., None]) + cover[..., None] * tone.astype(np.float32)
        else:
            at = centre + rng.uniform(-0.3, 0.3, 2) * top.length
            axes = (
                round(top.length * rng.uniform(0.3, 0.6)),
                round(top.length * rng.uniform(0.2, 0.4)),
            )
            cv2.ellipse(
                cover,
                (round(at[0]), round(at[1])),
                axes,
                float(rng.uniform(0, 180)),
                0,
                360,
                1.0,
                -1,
            )
            soft = cv2.GaussianBlur(cover, (0, 0), top.length * 0.08)
            image = image * (1 - rng.uniform(0.3, 0.5) * soft[..., None])
        out.append(Still(np.clip(image, 0, 255).astype(np.uint8), card))
    return out
