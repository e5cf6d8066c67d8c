"""The configuration file checked whole, before anything starts.

:mod:`companion.config` checks the table's sections (``[table]``, ``[rules]``, ``[launcher]``);
each adapter declares its own typed section and the check of it (``[hardware]``, ``[speech]``,
``[web]``, ``[storage]``). :func:`load_checked` runs them all on the file and reports every
problem at once, so ``run``, ``simulate`` and ``doctor`` refuse a bad file with the full list
before anything starts, and one edit fixes it.
"""

from __future__ import annotations

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


# Each adapter's section and its check (raising ConfigError with every problem it finds).
CHECKS: dict[str, SectionCheck] = {
    "hardware": lambda extra: parse_hardware(extra.get("hardware")),
    "speech": load_speech_config,
    "web": parse_web_config,
    "storage": parse_storage,
}


@dataclass(frozen=True)
class Sections:
    """Every adapter's section of the configuration, checked and typed."""

    hardware: HardwareConfig
    speech: SpeechConfig
    web: WebConfig
    storage: StorageConfig


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
    )


def load_checked(path: Path | None) -> Config:
    """Read ``path`` (``None``: the defaults) and check every section of it: one
    :class:`ConfigError` lists the problems of the table's sections and the adapters' alike."""
    return load_config(path, CHECKS)


def _typed(value: object, kind: type[T]) -> T:
    assert isinstance(value, kind)
    return value
