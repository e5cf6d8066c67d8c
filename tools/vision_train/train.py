"""Training the card reader's networks on this machine's CPU, exported to ONNX for cv2.dnn.

    python -m tools.vision_train.train finder --cache CACHE --out companion/vision/finder.onnx
    python -m tools.vision_train.train reader --cache CACHE --out companion/vision/reader.onnx

The finder maps a frame (FINDER_W × FINDER_H) to a heat map at a quarter of its size: where the
top card's corner index is, and its size. The reader maps a READ_SIZE square around an index to
an embedding; its two linear heads (kind, colour) are saved beside it as numpy arrays, so a taught
deck changes numbers, not the network. Needs the ``vision-train`` extra (PyTorch).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from companion.vision.net import (
    COLOURS,
    FINDER_H,
    FINDER_W,
    NONE,
    PATCH,
    PATCH_SPAN,
    READ_SIZE,
    READ_SPAN,
    STRIDE,
)

from .heads import shape_corner

torch.set_num_threads(1)
CROP = 128  # finder training crops


def cbr(i: int, o: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(i, o, 3, stride, padding=dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(o),
        nn.ReLU(inplace=True),
    )


class Finder(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.s4 = nn.Sequential(cbr(3, 16, 2), cbr(16, 32, 2), cbr(32, 32))
        self.s8 = nn.Sequential(cbr(32, 48, 2), cbr(48, 48), cbr(48, 48, dilation=2))
        self.s16 = nn.Sequential(cbr(48, 64, 2), cbr(64, 64, dilation=2))
        self.lat8 = nn.Conv2d(48, 32, 1)
        self.lat16 = nn.Conv2d(64, 32, 1)
        self.mix = cbr(32, 32)
        self.head = nn.Conv2d(32, 2, 1)
        with torch.no_grad():
            self.head.bias[0] = -2.2  # few cells hold an index: start near "none here"

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        a = self.s4(x)
        b = self.s8(a)
        c = self.s16(b)
        y = a + F.interpolate(self.lat8(b), scale_factor=2.0, mode="nearest")
        y = y + F.interpolate(self.lat16(c), scale_factor=4.0, mode="nearest")
        return self.head(self.mix(y))


class Reader(nn.Module):
    def __init__(self, embedding: int = 64) -> None:
        super().__init__()
        self.body = nn.Sequential(
            cbr(3, 24),
            cbr(24, 24),
            nn.MaxPool2d(2),
            cbr(24, 48),
            cbr(48, 48),
            nn.MaxPool2d(2),
            cbr(48, 64),
            cbr(64, 64),
            nn.MaxPool2d(2),
            nn.Flatten(),
            nn.Linear(64 * (READ_SIZE // 8) ** 2, embedding),
            nn.ReLU(inplace=True),
        )
        self.kind = nn.Linear(embedding, NONE + 1)
        self.colour = nn.Linear(embedding, len(COLOURS))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x)


def learn(
    opt: torch.optim.Optimizer,
    sched: torch.optim.lr_scheduler.LRScheduler,
    loss: torch.Tensor,
    where: str,
    step: int,
    start: float,
) -> None:
    """One step down the loss; a line on standard error every 50."""
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    if step % 50 == 0:
        spent = time.monotonic() - start
        print(f"{where} loss {loss.item():.3f} {spent:.0f}s", file=sys.stderr, flush=True)


def to_tensor(batch: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(batch.astype(np.float32).transpose(0, 3, 1, 2) / 255.0 - 0.5)


# ---------------------------------------------------------------- looks


def light(image: np.ndarray, rng: np.random.Generator, hue_shift: float = 0.0) -> np.ndarray:
    """Another lamp and camera: gains, level, gamma, blur, noise, a hue turn."""
    out = image.astype(np.float32)
    if hue_shift or rng.random() < 0.5:
        hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV).astype(np.float32)
        turn = hue_shift if hue_shift else rng.uniform(-6, 6)
        hsv[..., 0] = (hsv[..., 0] + turn / 2) % 180
        out = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR).astype(np.float32)
    out *= rng.uniform(0.85, 1.15, 3).astype(np.float32) * rng.uniform(0.55, 1.3)
    out = 255.0 * (np.clip(out, 0, 255) / 255.0) ** rng.uniform(0.75, 1.3)
    if rng.random() < 0.4:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.4))
    if rng.random() < 0.5:
        out += rng.normal(0, rng.uniform(1, 8), out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def occlude(
    image: np.ndarray, rng: np.random.Generator, keep: list[tuple[float, float, float]]
) -> None:
    """A thumb or a soft shadow somewhere (not over the spots to keep)."""
    h, w = image.shape[:2]
    if rng.random() < 0.3:
        for _ in range(10):
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            r = rng.uniform(6, 20)
            if all(math.hypot(x - kx, y - ky) > r + ks for kx, ky, ks in keep):
                tone = tuple(
                    int(v) for v in rng.choice([[120, 160, 215], [90, 130, 190], [60, 90, 140]])
                )
                cv2.ellipse(
                    image,
                    (int(x), int(y)),
                    (int(r), int(r * 1.6)),
                    float(rng.uniform(0, 180)),
                    0,
                    360,
                    tone,
                    -1,
                    cv2.LINE_AA,
                )
                break
    if rng.random() < 0.3:
        mask = np.zeros((h // 4, w // 4), np.float32)
        x, y = int(rng.uniform(0, w // 4)), int(rng.uniform(0, h // 4))
        cv2.ellipse(
            mask, (x, y), (int(rng.uniform(8, 30)), int(rng.uniform(8, 30))), 0, 0, 360, 1.0, -1
        )
        mask = cv2.resize(cv2.GaussianBlur(mask, (0, 0), 3), (w, h))
        image[:] = np.clip(image * (1 - rng.uniform(0.2, 0.5) * mask[..., None]), 0, 255).astype(
            np.uint8
        )


def skin(rng: np.random.Generator) -> np.ndarray:
    """A skin tone (BGR), pale to dark."""
    dark = rng.uniform(0.0, 1.0)
    red = 235 - 150 * dark
    return np.array(
        [red * rng.uniform(0.55, 0.75), red * rng.uniform(0.72, 0.88), red], np.float32
    ) * rng.uniform(0.9, 1.1)


def thumb_mask(
    shape: tuple[int, int], at: tuple[float, float], length: float, angle: float, soft: float
) -> np.ndarray:
    """A thumb's or finger's tip as a soft-edged mask: an ellipse, long axis along ``angle``
    (degrees), running on out of the picture the way it came in."""
    mask = np.zeros(shape, np.float32)
    width = length / 1.6
    x, y = at
    a = math.radians(angle)
    cv2.ellipse(mask, (round(x), round(y)), (round(length), round(width)), angle, 0, 360, 1.0, -1)
    far = (round(x + 4 * length * math.cos(a)), round(y + 4 * length * math.sin(a)))
    cv2.line(mask, (round(x), round(y)), far, 1.0, max(1, round(2 * width * 0.95)))
    if soft > 0:
        mask = cv2.GaussianBlur(mask, (0, 0), soft)
    return mask


def lay_thumb(image: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``image`` with a thumb of a random tone, lit from one side, where ``mask`` says."""
    h, w = mask.shape
    tone = skin(rng)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)
    ramp = (xs * math.cos(a) + ys * math.sin(a)) / max(h, w)
    shade = (1.0 + rng.uniform(0.1, 0.4) * (ramp - ramp.mean()))[..., None]
    finger = np.clip(tone[None, None, :] * shade, 0, 255)
    m = mask[..., None]
    return np.clip(image.astype(np.float32) * (1 - m) + finger * m, 0, 255).astype(np.uint8)


def lay_shadow(image: np.ndarray, mask: np.ndarray, depth: float) -> np.ndarray:
    return np.clip(image.astype(np.float32) * (1 - depth * mask[..., None]), 0, 255).astype(
        np.uint8
    )


def lay_glare(image: np.ndarray, rng: np.random.Generator, size: float) -> np.ndarray:
    """A lamp's soft reflection on the gloss: a bright blob washing the colours out."""
    h, w = image.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    x, y = rng.uniform(0, w), rng.uniform(0, h)
    sigma = size * rng.uniform(0.4, 1.2)
    blob = np.exp(-((xs - x) ** 2 + (ys - y) ** 2) / (2 * sigma**2)) * rng.uniform(0.3, 0.65)
    out = image.astype(np.float32) * (1 - blob[..., None]) + 250 * blob[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def soft_shadow(shape: tuple[int, int], rng: np.random.Generator, size: float) -> np.ndarray:
    """A soft shadow's mask: an ellipse or a straight edge, blurred."""
    h, w = shape
    mask = np.zeros((h, w), np.float32)
    if rng.random() < 0.5:
        centre = (round(rng.uniform(0, w)), round(rng.uniform(0, h)))
        axes = (round(size * rng.uniform(0.6, 2.0)), round(size * rng.uniform(0.4, 1.4)))
        cv2.ellipse(mask, centre, axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
    else:
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        a = rng.uniform(0, 2 * math.pi)
        d = (xs - rng.uniform(0, w)) * math.cos(a) + (ys - rng.uniform(0, h)) * math.sin(a)
        mask = (d > 0).astype(np.float32)
    return cv2.GaussianBlur(mask, (0, 0), max(0.5, size * rng.uniform(0.1, 0.4)))


# ---------------------------------------------------------------- the finder


def finder_sample(
    image: np.ndarray, spots: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A CROP × CROP crop, its heat target and its size target (CROP / STRIDE square)."""
    spots = spots[spots[:, 2] > 0]
    scale = rng.uniform(0.7, 1.4)
    angle = rng.uniform(-30, 30) + 90 * int(rng.integers(4))
    if len(spots) and rng.random() < 0.85:
        cx, cy = spots[int(rng.integers(len(spots)))][:2]
        cx += rng.uniform(-45, 45) / scale
        cy += rng.uniform(-45, 45) / scale
    else:
        cx, cy = rng.uniform(0, image.shape[1]), rng.uniform(0, image.shape[0])
    m = cv2.getRotationMatrix2D((float(cx), float(cy)), float(angle), float(scale))
    m[:, 2] += np.array([CROP / 2 - cx, CROP / 2 - cy])
    border = tuple(int(v) for v in rng.integers(0, 255, 3))
    crop = cv2.warpAffine(
        image,
        m,
        (CROP, CROP),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=border,
    )
    placed = []
    for x, y, s in spots:
        px, py = m @ np.array([x, y, 1.0])
        placed.append((float(px), float(py), float(s * scale)))
    occlude(crop, rng, placed)
    crop = light(crop, rng)
    g = CROP // STRIDE
    heat = np.zeros((g, g), np.float32)
    size = np.zeros((g, g), np.float32)
    ys, xs = np.mgrid[0:g, 0:g].astype(np.float32)
    for px, py, s in placed:
        gx, gy = px / STRIDE - 0.5, py / STRIDE - 0.5
        sigma = max(0.7, s / STRIDE / 3)
        blob = np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * sigma**2))
        ix, iy = round(gx), round(gy)
        if 0 <= ix < g and 0 <= iy < g:
            blob[iy, ix] = 1.0  # the cell the index lies in is the peak
        heat = np.maximum(heat, blob)
        size = np.where(blob > 0.3, math.log(s), size)
    return crop, heat, size


def finder_loss(out: torch.Tensor, heat: torch.Tensor, size: torch.Tensor) -> torch.Tensor:
    p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
    peak = heat > 0.99
    positive = -((1 - p) ** 2 * torch.log(p))[peak].sum()
    negative = -((1 - heat) ** 4 * p**2 * torch.log(1 - p))[~peak].sum()
    count = peak.sum().clamp(min=1)
    mask = heat > 0.3
    size_loss = (
        (F.l1_loss(out[:, 1][mask], size[mask], reduction="sum") / mask.sum().clamp(min=1))
        if mask.any()
        else out.sum() * 0
    )
    return (positive + negative) / count + size_loss


def train_finder(cache: Path, out: Path, epochs: int, batch: int) -> None:
    data = np.load(cache / "train.npz")
    images, sizes, spots = data["finder_images"], data["finder_sizes"], data["finder_spots"]
    rng = np.random.default_rng(1)
    net = Finder()
    steps = epochs * len(images) // batch
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=steps)
    start = time.monotonic()
    for step in range(steps):
        crops, heats, szs = [], [], []
        for i in rng.integers(0, len(images), batch):
            h, w = sizes[i]
            c, hh, s = finder_sample(images[i, :h, :w], spots[i], rng)
            crops.append(c)
            heats.append(hh)
            szs.append(s)
        net.train()
        loss = finder_loss(
            net(to_tensor(np.array(crops))),
            torch.from_numpy(np.array(heats)),
            torch.from_numpy(np.array(szs)),
        )
        learn(opt, sched, loss, f"finder {step}/{steps}", step, start)
        if step % 500 == 0 or step == steps - 1:
            export(net, out, (1, 3, FINDER_H, FINDER_W))


# ---------------------------------------------------------------- the reader

# Hue turns (degrees) taking a classic colour (red 4°, yellow 42°, green 82°, blue 228°) to one
# no classic card has: orange 20°, teal 175°, purple 280°, pink 322°.
FOREIGN_TURNS = {
    0: (16, 171, -84, -42),
    1: (-22, 133, -122, -80),
    2: (93, -162, -120),
    3: (-53, 52, 94),
}


FOREIGN_SHARE = 0.04
INDEX_RADIUS = READ_SIZE / READ_SPAN * 0.45  # the printed index, around the crop's centre
COVERED = 0.35  # an index hidden this much is no longer one the reader can tell
CLEAR = 0.12  # and one hidden less than this still is


def hide_index(
    crop: np.ndarray, kind: int, colour: int, rng: np.random.Generator
) -> tuple[np.ndarray, int, int]:
    """A thumb, a soft shadow or a glare over the reader's square. A thumb hiding the index
    makes it "not an index I know" (the card's other index tells); one beside it changes nothing."""
    size = READ_SIZE / READ_SPAN
    shape = crop.shape[:2]
    if rng.random() < 0.1:
        angle = float(rng.uniform(0, 360))
        length = size * rng.uniform(0.7, 1.2)
        centre = READ_SIZE / 2
        ys, xs = np.mgrid[0:READ_SIZE, 0:READ_SIZE].astype(np.float32)
        index = ((xs - centre + 0.5) ** 2 + (ys - centre + 0.5) ** 2) <= INDEX_RADIUS**2
        a = math.radians(angle)
        reach = rng.uniform(0.0, 1.8) * size
        for _ in range(12):
            at = (centre + reach * math.cos(a), centre + reach * math.sin(a))
            mask = thumb_mask(shape, at, length, angle, 0.6)
            hidden = float(mask[index].mean())
            if hidden >= COVERED or hidden <= CLEAR:
                break
            reach += 0.15 * size
        if hidden <= CLEAR or hidden >= COVERED:
            crop = lay_thumb(crop, mask, rng)
            if hidden >= COVERED:
                kind, colour = NONE, -1
    if rng.random() < 0.12:
        crop = lay_shadow(crop, soft_shadow(shape, rng, size), rng.uniform(0.25, 0.6))
    if rng.random() < 0.04:
        crop = lay_glare(crop, rng, size)
    return crop, kind, colour


def reader_sample(
    patch: np.ndarray, kind: int, colour: int, rng: np.random.Generator
) -> tuple[np.ndarray, int, int]:
    angle = rng.uniform(0, 360)
    scale = READ_SIZE / (READ_SPAN * PATCH / PATCH_SPAN) * rng.uniform(0.85, 1.18)
    c = PATCH / 2 + rng.uniform(-0.22, 0.22, 2) * PATCH / PATCH_SPAN
    if kind == NONE:
        c = PATCH / 2 + rng.uniform(-0.5, 0.5, 2) * PATCH / PATCH_SPAN
    m = cv2.getRotationMatrix2D((float(c[0]), float(c[1])), float(angle), float(scale))
    m[:, 2] += np.array([READ_SIZE / 2 - c[0], READ_SIZE / 2 - c[1]])
    crop = cv2.warpAffine(
        patch, m, (READ_SIZE, READ_SIZE), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT
    )
    if rng.random() < FOREIGN_SHARE:  # a picture where an index would be: a deck not known
        return light(shape_corner(rng), rng), NONE, -1
    crop, kind, colour = hide_index(crop, kind, colour, rng)
    shift = 0.0
    if 0 <= colour <= 3 and rng.random() < 0.15:
        shift = float(rng.choice(FOREIGN_TURNS[colour]))  # into a colour no classic card has
        colour = COLOURS.index("other")
    return light(crop, rng, shift), kind, colour


def train_reader(cache: Path, out: Path, epochs: int, batch: int) -> None:
    data = np.load(cache / "train.npz")
    patches, kinds, colours = (
        data["patches"],
        data["kinds"].astype(int),
        data["colours"].astype(int),
    )
    rng = np.random.default_rng(2)
    net = Reader()
    steps = epochs * len(patches) // batch
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=steps)
    start = time.monotonic()
    for step in range(steps):
        xs, ks, cs = [], [], []
        for i in rng.integers(0, len(patches), batch):
            x, k, c = reader_sample(patches[i], kinds[i], colours[i], rng)
            xs.append(x)
            ks.append(k)
            cs.append(c)
        net.train()
        e = net(to_tensor(np.array(xs)))
        kt = torch.tensor(ks)
        ct = torch.tensor(cs)
        loss = F.cross_entropy(net.kind(e), kt, label_smoothing=0.02)
        if (ct >= 0).any():
            loss = loss + F.cross_entropy(net.colour(e)[ct >= 0], ct[ct >= 0], label_smoothing=0.02)
        learn(opt, sched, loss, f"reader {step}/{steps}", step, start)
        if step % 500 == 0 or step == steps - 1:
            save_reader(net, out)


def save_reader(net: Reader, out: Path) -> None:
    export(net, out, (1, 3, READ_SIZE, READ_SIZE))
    np.savez(
        out.with_suffix(".heads.npz"),
        kind_w=net.kind.weight.detach().numpy().T.astype(np.float32),
        kind_b=net.kind.bias.detach().numpy().astype(np.float32),
        colour_w=net.colour.weight.detach().numpy().T.astype(np.float32),
        colour_b=net.colour.bias.detach().numpy().astype(np.float32),
    )


def export(net: nn.Module, out: Path, shape: tuple[int, ...]) -> None:
    net.eval()
    with torch.no_grad():
        torch.onnx.export(
            net,
            (torch.zeros(shape),),
            str(out),
            opset_version=13,
            input_names=["image"],
            output_names=["out"],
            dynamo=False,
        )
    net.train()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("net", choices=["finder", "reader"])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch", type=int, default=64)
    args = parser.parse_args(argv)
    if args.net == "finder":
        train_finder(args.cache, args.out, args.epochs, args.batch)
    else:
        train_reader(args.cache, args.out, args.epochs, args.batch)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
