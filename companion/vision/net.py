"""The card reader's two small networks, run by OpenCV's dnn module (no other library at run time).

- The **finder** looks at the whole frame, fitted into :data:`FINDER_W` × :data:`FINDER_H`, and
  answers a heat map a quarter of that size: how likely each place is to hold a corner index of
  the *top* card of the pile (the printed small number or symbol in a card's corner), and how big
  that index is. It learned from photographs of fanned real cards whose top card's index was
  marked, and from the program's drawings of piles; a card lying under another has indices too,
  and the finder learned to leave them be.
- The **reader** looks at a small square around one index, turned as it lies, and answers an
  embedding: 64 numbers that two linear heads (kept with the model, not in the network) turn into
  scores for each kind, "not an index I know", and each colour (red, yellow, green, blue, black for
  the wilds, and "another colour" for decks it does not know).

Both are trained by ``tools/vision_train`` (PyTorch, never needed on the box) and shipped as ONNX.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .kinds import KINDS
from .types import Floats, Image

COLOURS = ("red", "yellow", "green", "blue", "black", "other")
NONE = len(KINDS)  # the reader's class for "not a corner index of a card it knows"
PATCH = 64  # training patches: PATCH pixels spanning PATCH_SPAN index sizes
PATCH_SPAN = 2.8
READ_SIZE = 32  # the reader's input: READ_SIZE pixels spanning READ_SPAN index sizes
READ_SPAN = 2.0
FINDER_W, FINDER_H = 320, 240  # the finder's input: the frame fitted into it
STRIDE = 4  # the finder's heat map is a quarter of its input
FINDER = Path(__file__).with_name("finder.onnx")
READER = Path(__file__).with_name("reader.onnx")
CANDIDATES = 3  # places the reader looks at, best heat first
LOWEST_HEAT = 0.08  # below this the finder saw no index at all


class NetworkError(ValueError):
    """A network file that cannot be used; the message names it."""


@dataclass(frozen=True)
class Spot:
    """A place the finder points at: the index's centre and size in frame pixels, its heat."""

    x: float
    y: float
    size: float
    heat: float


def _blob(image: Image) -> Floats:
    blob: Floats = (image.astype(np.float32) / 255.0 - 0.5).transpose(2, 0, 1)[None]
    return np.ascontiguousarray(blob)


class Networks:
    """The finder and the reader, loaded once; safe to share between threads."""

    def __init__(self, finder: Path = FINDER, reader: Path = READER) -> None:
        self.finder_path, self.reader_path = finder, reader
        self._finder = _load(finder)
        self._reader = _load(reader)
        self.fingerprint = hashlib.sha256(reader.read_bytes()).hexdigest()[:16]
        self.size_bytes = finder.stat().st_size + reader.stat().st_size
        self._lock = threading.Lock()

    def spots(self, image: Image, count: int = CANDIDATES) -> list[Spot]:
        """The likeliest places of the top card's corner index, best first."""
        h, w = image.shape[:2]
        scale = min(FINDER_W / w, FINDER_H / h)
        fitted = cv2.resize(
            image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA
        )
        canvas = np.zeros((FINDER_H, FINDER_W, 3), np.uint8)
        canvas[: fitted.shape[0], : fitted.shape[1]] = fitted
        with self._lock:
            self._finder.setInput(_blob(canvas))
            out = self._finder.forward()[0]
        heat = 1.0 / (1.0 + np.exp(-out[0]))
        peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= LOWEST_HEAT)
        ys, xs = np.nonzero(peaks)
        order = np.argsort(-heat[ys, xs])[:count]
        return [
            Spot(
                (float(xs[i]) + 0.5) * STRIDE / scale,
                (float(ys[i]) + 0.5) * STRIDE / scale,
                float(np.exp(out[1, ys[i], xs[i]])) / scale,
                float(heat[ys[i], xs[i]]),
            )
            for i in order
        ]

    def embed(self, crops: list[Image]) -> Floats:
        """The reader's embedding of each READ_SIZE crop (one row each)."""
        batch = np.concatenate([_blob(c) for c in crops])
        with self._lock:
            self._reader.setInput(batch)
            out: Floats = self._reader.forward().astype(np.float32)
        return out


def crop(image: Image, spot: Spot, turn: float = 0.0, span: float = READ_SPAN) -> Image:
    """The reader's square around ``spot`` (turned ``turn`` degrees)."""
    scale = READ_SIZE / (span * spot.size)
    m: Floats = cv2.getRotationMatrix2D((spot.x, spot.y), turn, scale)
    m[:, 2] += np.array([READ_SIZE / 2 - spot.x, READ_SIZE / 2 - spot.y])
    out: Image = cv2.warpAffine(
        image, m, (READ_SIZE, READ_SIZE), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT
    )
    return out


def _load(path: Path) -> cv2.dnn.Net:
    if not path.is_file():
        raise NetworkError(f"{path}: no such network file")
    try:
        net = cv2.dnn.readNetFromONNX(str(path))
    except cv2.error as exc:
        raise NetworkError(f"{path}: not a network OpenCV can run ({exc.msg.strip()})") from None
    net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
    return net
