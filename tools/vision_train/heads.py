"""The reader's heads fitted again on its frozen embedding, with more "not a card I know"
corners: faces, stars, rings and blobs on card colours (emoji-like decks share the classic colours,
so only the symbol tells them apart).

    python -m tools.vision_train.heads --cache CACHE --heads reader.heads.npz --out heads.npz

The examples the heads learn from are the training patches (never the calibration or measuring
photos) and these drawn corners.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from companion.vision.model import _fit
from companion.vision.net import NONE, PATCH, PATCH_SPAN, READ_SIZE, READ_SPAN, Networks

from .data import CLASSIC_HUES, hsv_bgr

SHAPES = ("face", "star", "ring", "blob", "heart")


def shape_corner(rng: np.random.Generator) -> np.ndarray:
    """A corner with a picture where an index would be, READ_SIZE square, turned at random."""
    size = 96
    img = np.full((size, size, 3), 240, np.uint8)
    hue = list(CLASSIC_HUES.values())[int(rng.integers(4))] + rng.uniform(-8, 8)
    field = hsv_bgr(hue, rng.uniform(0.55, 0.95), rng.uniform(0.5, 0.95))
    edge = int(rng.uniform(0.1, 0.3) * size)
    cv2.rectangle(img, (edge, edge), (size, size), field, -1)
    c, r = size // 2, int(rng.uniform(0.16, 0.24) * size)
    ink = tuple(int(v) for v in rng.choice([[250, 250, 250], [30, 210, 250], [20, 20, 20]]))
    shape = SHAPES[int(rng.integers(len(SHAPES)))]
    line = max(1, int(rng.uniform(0.08, 0.2) * r))
    if shape == "face":
        cv2.circle(img, (c, c), r, ink, -1, cv2.LINE_AA)
        cv2.circle(img, (c, c), r, (20, 20, 20), line, cv2.LINE_AA)
        for dx in (-r // 3, r // 3):
            cv2.ellipse(
                img,
                (c + dx, c - r // 4),
                (max(1, r // 8), max(1, r // 5)),
                0,
                0,
                360,
                (20, 20, 20),
                -1,
            )
        cv2.ellipse(
            img,
            (c, c + r // 6),
            (r // 2, int(r * rng.uniform(0.15, 0.4))),
            0,
            0,
            180,
            (20, 20, 20),
            line,
        )
    elif shape == "star":
        n = int(rng.integers(4, 8))
        a = np.linspace(0, 2 * np.pi, 2 * n, endpoint=False)
        rad = np.where(np.arange(2 * n) % 2 == 0, r, r * rng.uniform(0.35, 0.6))
        pts = np.stack([c + rad * np.cos(a), c + rad * np.sin(a)], axis=1).astype(np.int32)
        cv2.fillPoly(img, [pts], ink, cv2.LINE_AA)
    elif shape == "ring":
        cv2.circle(img, (c, c), r, ink, line + 2, cv2.LINE_AA)
        cv2.circle(img, (c, c), max(1, r // 3), ink, -1, cv2.LINE_AA)
    elif shape == "blob":
        cv2.ellipse(
            img,
            (c, c),
            (r, int(r * rng.uniform(0.5, 1.0))),
            float(rng.uniform(0, 180)),
            0,
            360,
            ink,
            -1,
        )
    else:
        cv2.circle(img, (c - r // 2, c - r // 4), r // 2, ink, -1, cv2.LINE_AA)
        cv2.circle(img, (c + r // 2, c - r // 4), r // 2, ink, -1, cv2.LINE_AA)
        pts = np.array([(c - r, c - r // 8), (c + r, c - r // 8), (c, c + r)], np.int32)
        cv2.fillPoly(img, [pts], ink, cv2.LINE_AA)
    scale = READ_SIZE / (READ_SPAN * 2 * r * rng.uniform(0.8, 1.2))
    m = cv2.getRotationMatrix2D((c, c), float(rng.uniform(0, 360)), scale)
    m[:, 2] += np.array([READ_SIZE / 2 - c, READ_SIZE / 2 - c])
    out = cv2.warpAffine(
        img, m, (READ_SIZE, READ_SIZE), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT
    )
    if rng.random() < 0.5:
        out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.4, 1.2)))
    return out


def patch_view(patch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    scale = READ_SIZE / (READ_SPAN * PATCH / PATCH_SPAN)
    m = cv2.getRotationMatrix2D((PATCH / 2, PATCH / 2), float(rng.uniform(0, 360)), scale)
    m[:, 2] += np.array([READ_SIZE / 2 - PATCH / 2, READ_SIZE / 2 - PATCH / 2])
    return cv2.warpAffine(
        patch, m, (READ_SIZE, READ_SIZE), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT
    )


def embed(nets: Networks, crops: list[np.ndarray]) -> np.ndarray:
    return np.concatenate([nets.embed(crops[i : i + 256]) for i in range(0, len(crops), 256)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--heads", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--patches", type=int, default=12000)
    parser.add_argument("--shapes", type=int, default=3000)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(9)
    data = np.load(args.cache / "train.npz")
    patches, kinds, colours = (
        data["patches"],
        data["kinds"].astype(int),
        data["colours"].astype(int),
    )
    chosen = rng.choice(len(patches), args.patches, replace=False)
    nets = Networks()
    e = embed(nets, [patch_view(patches[i], rng) for i in chosen])
    k, c = kinds[chosen], colours[chosen]
    shapes = embed(nets, [shape_corner(rng) for _ in range(args.shapes)])
    e = np.concatenate([e, shapes])
    k = np.concatenate([k, np.full(len(shapes), NONE)])
    c = np.concatenate([c, np.full(len(shapes), -1)])
    heads = np.load(args.heads)
    kind_w, kind_b = _fit(heads["kind_w"], heads["kind_b"], e, k, 0.002, 600)
    known = c >= 0
    colour_w, colour_b = _fit(heads["colour_w"], heads["colour_b"], e[known], c[known], 0.002, 300)
    for name, w, b in (("kind", kind_w, kind_b),):
        right = np.argmax(e @ w + b, axis=1) == k
        print(
            f"{name} head: {right.mean():.3f} right on its examples, "
            f"shapes {right[-len(shapes) :].mean():.3f}",
            file=sys.stderr,
        )
    np.savez(args.out, kind_w=kind_w, kind_b=kind_b, colour_w=colour_w, colour_b=colour_b)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
