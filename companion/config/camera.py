"""The ``[camera]`` section: the camera over the discard pile."""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.core.model import option

from .storage import MAX_PATH


@dataclass(frozen=True)
class CameraConfig:
    """The camera looking down at the discard pile reads the cards played (docs/vision.md)."""

    enabled: bool = option(False, "read the cards played with a camera (off: taps and buttons)")
    source: str = option(
        "picamera2",
        "where frames come from: picamera2 (the Pi's camera), v4l2:/dev/video0, a camera "
        "number (0: a USB webcam), folder:PATH",
        max_length=MAX_PATH,
    )
    resolution: str = option("640x480", "frame size asked of the camera, WIDTHxHEIGHT")
    fps: int = option(10, "frames read a second", min=1, max=30)
    model: str = option(
        "",
        "a taught deck (.npz); empty: the one taught on the page, else the shipped one",
        max_length=MAX_PATH,
    )
    sure_confidence: float = option(
        0.0,
        "the confidence a read needs to move the table (0: the model's own)",
        min=0.0,
        max=1.0,
    )

    @property
    def size(self) -> tuple[int, int]:
        width, height = self.resolution.lower().split("x")
        return int(width), int(height)

    def check(self, where: str) -> list[str]:
        """The frame size and the source, as the camera reads them."""
        problems = []
        if not re.fullmatch(r"[1-9][0-9]{1,4}x[1-9][0-9]{1,4}", self.resolution.lower()):
            problems.append(
                f"{where}.resolution: expected WIDTHxHEIGHT (640x480), got {self.resolution!r}"
            )
        source = self.source
        if not (
            source == "picamera2"
            or source.isdigit()
            or (source.startswith("v4l2:") and len(source) > 5)
            or (source.startswith("folder:") and len(source) > 7)
        ):
            problems.append(
                f"{where}.source: expected picamera2, v4l2:DEVICE, a camera number or "
                f"folder:PATH, got {source!r}"
            )
        return problems
