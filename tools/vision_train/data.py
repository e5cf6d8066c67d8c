"""Training data for the card reader's two networks, gathered into one cache folder.

Sources (docs/vision-data.md): the "Uno Cards" photographs (train split for training; the valid
split cut in two by file name, half for calibration, half for measuring), and the program's own
drawings (training styles only). The finder learns where the top card's corner index is, the
reader what a corner index shows.

    python -m tools.vision_train.data --uno DIR/Uno --out CACHE
"""

from __future__ import annotations

import argparse
import hashlib
import math
import sys
from pathlib import Path

import cv2
import numpy as np

from companion.vision import render
from companion.vision.kinds import COLOURLESS, KINDS, faces
from companion.vision.net import COLOURS, NONE, PATCH, PATCH_SPAN

# A label's class id is an index into the set's data.yaml names; the names '0' … '9' are numbers,
# '10' wild draw 4, '11' draw 2, '12' reverse, '13' skip, '14' wild.
UNO_NAMES = ("0", "1", "10", "11", "12", "13", "14", "2", "3", "4", "5", "6", "7", "8", "9")
MEANING = {str(n): str(n) for n in range(10)}
MEANING.update({"10": "draw4", "11": "draw2", "12": "reverse", "13": "skip", "14": "wild"})
UNO_KIND = {str(i): MEANING[name] for i, name in enumerate(UNO_NAMES)}
FINDER_SCALE = 0.5  # the finder sees the frame at half size
TRAIN_SEED = 11  # the drawn training styles (the default model's own seed)
# Yellow ends and green begins at this hue (degrees): the set's yellow fields lie at 49° or less,
# its greens at 60° or more, and its olive-green printing (a green under a warm lamp) at 54-55°.
YELLOW_GREEN = 52


def split_of(name: str) -> str:
    """The valid split's half a photo belongs to: "cal" or "val" (by its source photo's name)."""
    stem = name.split("_jpg")[0]
    return "cal" if hashlib.sha1(stem.encode()).digest()[0] % 2 == 0 else "val"


def read_boxes(label: Path, size: int) -> list[tuple[str, float, float, float]]:
    """(kind, x, y, index size) in pixels, the top card last."""
    boxes = []
    for line in label.read_text().split("\n"):
        parts = line.split()
        if len(parts) != 5:
            continue
        x, y, w, h = (float(v) * size for v in parts[1:])
        boxes.append((UNO_KIND[parts[0]], x, y, max(w, h)))
    return boxes


def hue_colour(patch: np.ndarray, kind: str) -> int:
    """The card's colour as its field's hue says (the set does not label colours); -1 unclear."""
    if kind in COLOURLESS:
        return COLOURS.index("black")
    c = PATCH // 2
    r = round(PATCH / PATCH_SPAN * 0.7)
    hsv = cv2.cvtColor(patch[c - r : c + r, c - r : c + r], cv2.COLOR_BGR2HSV).reshape(-1, 3)
    chosen = hsv[(hsv[:, 1] > 90) & (hsv[:, 2] > 60)].astype(np.float64)
    if len(chosen) < 10:
        return -1
    a = chosen[:, 0] * math.pi / 90
    hue = math.degrees(math.atan2(np.sin(a).mean(), np.cos(a).mean())) % 360
    for name, low, high in (
        ("red", -15, 13),
        ("yellow", 25, YELLOW_GREEN),
        ("green", YELLOW_GREEN, 120),
    ):
        if low <= (hue if hue < 300 else hue - 360) < high:
            return COLOURS.index(name)
    return COLOURS.index("blue") if 195 <= hue < 260 else -1


def cut_patch(image: np.ndarray, x: float, y: float, size: float) -> np.ndarray:
    """A PATCH × PATCH square around (x, y) spanning PATCH_SPAN index sizes."""
    scale = PATCH / (PATCH_SPAN * size)
    m = np.array([[scale, 0, PATCH / 2 - scale * x], [0, scale, PATCH / 2 - scale * y]])
    return cv2.warpAffine(
        image, m, (PATCH, PATCH), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT
    )


class Gathered:
    def __init__(self) -> None:
        self.finder_images: list[np.ndarray] = []
        self.finder_spots: list[np.ndarray] = []  # (n, 3): x, y, size at finder scale
        self.patches: list[np.ndarray] = []
        self.kinds: list[int] = []
        self.colours: list[int] = []

    def patch(self, patch: np.ndarray, kind: int, colour: int) -> None:
        self.patches.append(patch)
        self.kinds.append(kind)
        self.colours.append(colour)

    def save(self, path: Path) -> None:
        spots = np.zeros((len(self.finder_spots), 4, 3), np.float32)
        for i, s in enumerate(self.finder_spots):
            spots[i, : len(s)] = s[:4]
        sizes = np.array([im.shape[:2] for im in self.finder_images], np.int32)
        h, w = sizes.max(axis=0)
        images = np.zeros((len(self.finder_images), h, w, 3), np.uint8)
        for i, im in enumerate(self.finder_images):
            images[i, : im.shape[0], : im.shape[1]] = im
        np.savez(
            path,
            finder_images=images,
            finder_sizes=sizes,
            finder_spots=spots,
            patches=np.array(self.patches, np.uint8),
            kinds=np.array(self.kinds, np.int16),
            colours=np.array(self.colours, np.int16),
        )
        print(f"{path}: {len(images)} finder images, {len(self.patches)} patches", file=sys.stderr)


def far_point(
    rng: np.random.Generator, w: int, h: int, spots: list[tuple[float, float, float]], gap: float
) -> tuple[float, float] | None:
    for _ in range(20):
        x, y = float(rng.uniform(0, w)), float(rng.uniform(0, h))
        if all(math.hypot(x - sx, y - sy) > gap * s for sx, sy, s in spots):
            return x, y
    return None


def gather_photos(folder: Path, out: Gathered, rng: np.random.Generator) -> None:
    for image_path in sorted((folder / "images").glob("*.jpg")):
        image = cv2.imread(str(image_path))
        if image is None:
            continue
        size = image.shape[0]
        boxes = read_boxes(folder / "labels" / (image_path.stem + ".txt"), size)
        if not boxes:
            continue
        kind, x, y, s = boxes[-1]
        small = cv2.resize(
            image, None, fx=FINDER_SCALE, fy=FINDER_SCALE, interpolation=cv2.INTER_AREA
        )
        out.finder_images.append(small)
        out.finder_spots.append(np.array([[x * FINDER_SCALE, y * FINDER_SCALE, s * FINDER_SCALE]]))
        for i, (kind, x, y, s) in enumerate(boxes):
            patch = cut_patch(image, x, y, s)
            colour = hue_colour(patch, kind) if i == len(boxes) - 1 else -1
            out.patch(patch, KINDS.index(kind), colour)
        spots = [(x, y, s) for _, x, y, s in boxes]
        at = far_point(rng, size, size, spots, 9.0)
        if at is not None:
            s = float(rng.uniform(18, 36))
            out.patch(cut_patch(image, at[0], at[1], s), NONE, -1)


def index_spots(placed: render.Placed, tilt: np.ndarray | None) -> list[tuple[float, float, float]]:
    """Where a drawn card's corner indices lie in the frame: (x, y, size)."""
    style = placed.style
    index = render.FACE_W * 0.15 * style.index_size
    corner = round(style.border * render.FACE_W) + index * 0.75
    face = [(corner, corner + index * 0.1)]
    if style.four_corners:
        face.append((render.FACE_W - corner, corner + index * 0.1))
    face += [(render.FACE_W - x, render.FACE_H - y) for x, y in face]
    src = np.array(
        [(0, 0), (render.FACE_W, 0), (render.FACE_W, render.FACE_H), (0, render.FACE_H)],
        np.float32,
    )
    m = cv2.getPerspectiveTransform(src, render.card_corners(placed))
    if tilt is not None:
        m = tilt @ m
    pts = cv2.perspectiveTransform(np.array([face], np.float32), m)[0]
    size = index * placed.length / render.FACE_H
    return [(float(px), float(py), size) for px, py in pts]


def tilt_matrix(scene: render.Scene) -> np.ndarray | None:
    if not any(scene.camera.tilt):
        return None
    w, h = render.FRAME_W, render.FRAME_H
    src = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32)
    dst = src + np.array(scene.camera.tilt, np.float32).reshape(4, 2)
    return cv2.getPerspectiveTransform(src, dst)


def gather_drawings(count: int, out: Gathered, rng: np.random.Generator) -> None:
    deck = faces()
    drawn = render.styles(24, TRAIN_SEED)
    cache = render.FaceCache()
    for i in range(count):
        card = deck[i % len(deck)]
        style = drawn[i % len(drawn)]
        scene = render.random_still(rng, card, style, deck)
        image = render.draw_scene(scene, cache)
        tilt = tilt_matrix(scene)
        top = index_spots(scene.pile[-1], tilt)
        inside = [
            (x, y, s) for x, y, s in top if 0 <= x < render.FRAME_W and 0 <= y < render.FRAME_H
        ]
        small = cv2.resize(
            image, None, fx=FINDER_SCALE, fy=FINDER_SCALE, interpolation=cv2.INTER_AREA
        )
        out.finder_images.append(small)
        out.finder_spots.append(
            np.array(
                [(x * FINDER_SCALE, y * FINDER_SCALE, s * FINDER_SCALE) for x, y, s in inside]
            ).reshape(-1, 3)
        )
        colour = COLOURS.index("black" if card.kind in COLOURLESS else card.colour)
        for x, y, s in inside:
            out.patch(cut_patch(image, x, y, s), KINDS.index(card.kind), colour)
        every = [spot for p in scene.pile for spot in index_spots(p, tilt)]
        for _ in range(2):
            at = far_point(rng, render.FRAME_W, render.FRAME_H, every, 2.2)
            if at is not None:
                s = top[0][2] * float(rng.uniform(0.8, 1.25))
                out.patch(cut_patch(image, at[0], at[1], s), NONE, -1)


FOREIGN_TRAIN = "AKQJXHMNWEFPRTY#%&@?"
FOREIGN_HUES = {"orange": 20, "teal": 180, "purple": 280, "pink": 322}
CLASSIC_HUES = {"red": 4, "yellow": 42, "green": 82, "blue": 228}


def hsv_bgr(hue_deg: float, sat: float, val: float) -> tuple[int, int, int]:
    pixel = np.array([[[hue_deg / 2 % 180, sat * 255, val * 255]]], np.uint8)
    b, g, r = cv2.cvtColor(pixel, cv2.COLOR_HSV2BGR)[0, 0]
    return int(b), int(g), int(r)


def foreign_patch(rng: np.random.Generator, glyphs: str, hue: float) -> np.ndarray:
    """A corner of a card of a deck the reader does not know: a glyph of its own in white on a
    field (outlined in black, like printed indices), the white border beside it."""
    size = 32.0
    img = np.full((PATCH * 2, PATCH * 2, 3), 240, np.uint8)
    field = hsv_bgr(hue + rng.uniform(-12, 12), rng.uniform(0.55, 0.95), rng.uniform(0.5, 0.95))
    border = int(rng.uniform(0.4, 1.0) * size)
    c = PATCH
    cv2.rectangle(img, (c - border, c - border), (2 * PATCH, 2 * PATCH), field, -1)
    text = glyphs[int(rng.integers(len(glyphs)))]
    font = int(
        rng.choice([cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX])
    )
    scale = size / 24
    (tw, th), _ = cv2.getTextSize(text, font, scale, 3)
    org = (int(c - tw / 2), int(c + th / 2))
    cv2.putText(img, text, org, font, scale, (20, 20, 20), 7, cv2.LINE_AA)
    cv2.putText(img, text, org, font, scale, (250, 250, 250), 3, cv2.LINE_AA)
    m = cv2.getRotationMatrix2D((c, c), float(rng.uniform(0, 360)), 1.0)
    img = cv2.warpAffine(img, m, (2 * PATCH, 2 * PATCH), borderMode=cv2.BORDER_REFLECT)
    return cut_patch(img, c, c, size)


def gather_foreign(count: int, out: Gathered, rng: np.random.Generator) -> None:
    for i in range(count):
        if i % 2:
            name = list(FOREIGN_HUES)[i // 2 % 4]
            out.patch(
                foreign_patch(rng, FOREIGN_TRAIN, FOREIGN_HUES[name]), NONE, COLOURS.index("other")
            )
        else:
            name = list(CLASSIC_HUES)[i // 2 % 4]
            out.patch(foreign_patch(rng, FOREIGN_TRAIN, CLASSIC_HUES[name]), NONE, -1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--uno", type=Path, required=True, help="the set's Uno/ folder")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--drawings", type=int, default=2400)
    parser.add_argument("--foreign", type=int, default=3000)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(5)
    train = Gathered()
    gather_photos(args.uno / "train", train, rng)
    gather_drawings(args.drawings, train, rng)
    gather_foreign(args.foreign, train, rng)
    train.save(args.out / "train.npz")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
