"""Where frames come from: a folder of frames (tests, replays), any camera OpenCV opens (USB,
V4L2), or the Pi's camera through Picamera2 (imported only when asked for, on a Pi).

Every source yields :class:`TimedFrame` (milliseconds, BGR picture) and is closed after use.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from .types import Image


class SourceError(ValueError):
    """A source that cannot give frames; the message says why and what to check."""


@dataclass(frozen=True)
class TimedFrame:
    t_ms: int
    image: Image


class FrameSource(Protocol):
    def frames(self) -> Iterator[TimedFrame]: ...

    def close(self) -> None: ...


def load_image(path: Path) -> Image:
    """A JPEG or PNG as BGR; :class:`SourceError` when missing or not a picture."""
    if not path.is_file():
        raise SourceError(f"{path}: no such file")
    data = np.fromfile(path, np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise SourceError(f"{path}: not a picture OpenCV can read (JPEG or PNG)")
    return image


class FolderSource:
    """``DIR/frames.json`` (``{"frames": [{"file": ..., "t_ms": ...}, ...]}``, other keys
    ignored) and the pictures beside it, in the listed order. ``drawn`` says whether the listing
    marks them as the program's own drawings (``"drawn": true``), not a camera's frames."""

    def __init__(self, folder: Path) -> None:
        listing = folder / "frames.json"
        if not listing.is_file():
            raise SourceError(f"{folder}: no frames.json (a folder of frames needs one)")
        try:
            content = json.loads(listing.read_text(encoding="utf-8"))
            entries = content["frames"]
            self.drawn = content.get("drawn") is True
            self._entries = [(folder / str(e["file"]), int(e["t_ms"])) for e in entries]
        except (ValueError, KeyError, TypeError) as exc:
            raise SourceError(
                f'{listing}: expected {{"frames": [{{"file": ..., "t_ms": ...}}]}} ({exc})'
            ) from None

    def frames(self) -> Iterator[TimedFrame]:
        for path, t_ms in self._entries:
            yield TimedFrame(t_ms, load_image(path))

    def close(self) -> None:
        pass


class OpenCVSource:
    """A camera OpenCV opens: a device number (``0`` is /dev/video0) or a path or URL."""

    def __init__(self, device: int | str, size: tuple[int, int] = (640, 480)) -> None:
        self._capture = cv2.VideoCapture(device)
        if not self._capture.isOpened():
            raise SourceError(f"camera {device!r} does not open (plugged in? busy?)")
        self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self._start = time.monotonic()

    def frames(self) -> Iterator[TimedFrame]:
        while True:
            ok, image = self._capture.read()
            if not ok:
                return
            yield TimedFrame(round((time.monotonic() - self._start) * 1000), image)

    def close(self) -> None:
        self._capture.release()


class PicameraSource:
    """The Raspberry Pi camera through Picamera2 (Raspberry Pi OS's ``python3-picamera2``)."""

    def __init__(self, size: tuple[int, int] = (640, 480)) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found,unused-ignore]
        except ImportError as exc:
            raise SourceError(
                f"Picamera2 is not available ({exc}): on Raspberry Pi OS install "
                "python3-picamera2 and make the venv with --system-site-packages"
            ) from None
        camera: Any = Picamera2()
        camera.configure(camera.create_video_configuration(main={"size": size, "format": "RGB888"}))
        camera.start()
        self._camera = camera
        self._start = time.monotonic()

    def frames(self) -> Iterator[TimedFrame]:
        while True:
            # Picamera2's "RGB888" is laid out B, G, R in memory: OpenCV's order already.
            image = self._camera.capture_array()
            yield TimedFrame(round((time.monotonic() - self._start) * 1000), image)

    def close(self) -> None:
        self._camera.stop()
        self._camera.close()
