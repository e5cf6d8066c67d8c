"""The configuration file checked whole, before anything starts.

:mod:`companion.config` checks the table's sections (``[table]``, ``[rules]``, ``[launcher]``);
each adapter declares its own typed section and the check of it (``[hardware]``, ``[speech]``,
``[web]``, ``[storage]``). :func:`load_checked` runs them all on the file and reports every
problem at once, so ``run``, ``simulate`` and ``doctor`` refuse a bad file with the full list
before anything starts, and one edit fixes it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from companion.config import Config, ConfigError, SectionCheck, load_config, option, parse_section
from companion.devices.config import HardwareConfig, parse_hardware
from companion.speech.config import SpeechConfig, load_speech_config
from companion.web.config import WebConfig, parse_web_config

T = TypeVar("T")


@dataclass(frozen=True)
class StorageConfig:
    state_dir: str = option("", "where the score database lives (empty: the usual places)")


def parse_storage(extra: dict[str, Any]) -> StorageConfig:
    problems: list[str] = []
    section = parse_section(StorageConfig, extra.get("storage", {}), "storage", problems)
    if "state_dir" in extra.get("storage", {}) and not section.state_dir and not problems:
        problems.append("storage.state_dir: expected a directory path, got ''")
    if problems:
        raise ConfigError(problems)
    return section


@dataclass(frozen=True)
class CameraConfig:
    """The camera looking down at the discard pile (``docs/vision.md``)."""

    enabled: bool = option(False, "read the cards played with a camera")
    source: str = option(
        "picamera2",
        "where frames come from: picamera2, v4l2:/dev/video0, a camera index (0), folder:PATH",
    )
    resolution: str = option("640x480", "frame size asked of the camera, WIDTHxHEIGHT")
    fps: int = option(10, "frames read a second", min=1, max=30)
    model: str = option(
        "", "a taught deck (.npz); empty: the family's taught deck, else the drawn one"
    )
    sure_confidence: float = option(
        0.0, "the confidence a read needs to move the table (0: the model's own)", min=0.0, max=1.0
    )

    @property
    def size(self) -> tuple[int, int]:
        width, height = self.resolution.lower().split("x")
        return int(width), int(height)


def parse_camera(extra: dict[str, Any]) -> CameraConfig:
    problems: list[str] = []
    section = parse_section(CameraConfig, extra.get("camera", {}), "camera", problems)
    if not problems:
        if not re.fullmatch(r"[1-9][0-9]{1,4}x[1-9][0-9]{1,4}", section.resolution.lower()):
            problems.append(
                f"camera.resolution: expected WIDTHxHEIGHT (640x480), got {section.resolution!r}"
            )
        source = section.source
        if not (
            source == "picamera2"
            or source.isdigit()
            or (source.startswith("v4l2:") and len(source) > 5)
            or (source.startswith("folder:") and len(source) > 7)
        ):
            problems.append(
                "camera.source: expected picamera2, v4l2:DEVICE, a camera number or "
                f"folder:PATH, got {source!r}"
            )
    if problems:
        raise ConfigError(problems)
    return section


# Each adapter's section and its check (raising ConfigError with every problem it finds).
CHECKS: dict[str, SectionCheck] = {
    "hardware": lambda extra: parse_hardware(extra.get("hardware")),
    "speech": load_speech_config,
    "web": parse_web_config,
    "storage": parse_storage,
    "camera": parse_camera,
}


@dataclass(frozen=True)
class Sections:
    """Every adapter's section of the configuration, checked and typed."""

    hardware: HardwareConfig
    speech: SpeechConfig
    web: WebConfig
    storage: StorageConfig
    camera: CameraConfig = CameraConfig()


def check_sections(config: Config) -> Sections:
    """The adapters' sections of ``config`` (checked at load, or here for a configuration
    built in code); raises :class:`ConfigError` listing the problems of every section."""
    problems: list[str] = []
    checked: dict[str, object] = {}
    for name, check in CHECKS.items():
        try:
            checked[name] = check(config.extra)
        except ConfigError as error:
            problems.extend(error.problems)
    if problems:
        raise ConfigError(problems)
    return Sections(
        hardware=_typed(checked["hardware"], HardwareConfig),
        speech=_typed(checked["speech"], SpeechConfig),
        web=_typed(checked["web"], WebConfig),
        storage=_typed(checked["storage"], StorageConfig),
        camera=_typed(checked["camera"], CameraConfig),
    )


def load_checked(path: Path | None) -> Config:
    """Read ``path`` (``None``: the defaults) and check every section of it: one
    :class:`ConfigError` lists the problems of the table's sections and the adapters' alike."""
    return load_config(path, CHECKS)


def _typed(value: object, kind: type[T]) -> T:
    assert isinstance(value, kind)
    return value
