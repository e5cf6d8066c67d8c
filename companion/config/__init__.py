"""The configuration file: one TOML file, every section declared once, read once.

Each section is a frozen dataclass whose fields are declared with
:func:`companion.core.model.option` (default, help, what a value may be): the table's sections
here and in :mod:`companion.core.options`, the box's parts in :mod:`.hardware`, the voice in
:mod:`.speech`, the phone page in :mod:`.web`, the camera in :mod:`.camera` and the score
database in :mod:`.storage`. :func:`load_config` reads the file into one typed :class:`Config`
and reports *all* its problems at once, each naming the key and what is allowed (a misspelt key
gets "did you mean"), so one edit fixes a broken file. ``config.example.toml`` and
``docs/config.md`` are written from the same declarations (:mod:`.render`). This package reads no
files at import time and imports neither the adapters nor the table engine.
"""

from __future__ import annotations

import codecs
import logging
import os
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.core.model import option, parse, problems_of
from companion.core.options import LauncherOptions as LauncherConfig
from companion.core.options import ProfileOptions as ProfileConfig
from companion.core.options import RulesOptions as RulesConfig

from .camera import CameraConfig
from .hardware import HardwareConfig
from .speech import SpeechConfig
from .storage import StorageConfig
from .web import WebConfig

LANGUAGES = ("fr", "en")

log = logging.getLogger(__name__)


class ConfigError(ValueError):
    """A configuration file that cannot be used; ``problems`` lists every key at fault."""

    def __init__(self, problems: list[str], source: str = "configuration") -> None:
        self.problems = problems
        self.source = source
        if len(problems) == 1:  # one line
            super().__init__(f"{source}: {problems[0]}")
            return
        lines = "\n".join(f"  - {p}" for p in problems)
        super().__init__(f"{source}: {len(problems)} problem(s):\n{lines}")


@dataclass(frozen=True)
class TableConfig:
    """Who sits at the table and which language the box speaks."""

    players: list[str] = option(
        ["Alice", "Bruno", "Chloé", "David"],
        "player names in seat order, going left (clockwise seen from above): 2 to 10 players",
    )
    dealer: str = option(
        "",
        "who deals the first round (empty: the first player); the player on the dealer's left "
        "starts",
    )
    language: str = option("fr", "language of the voice and the page", choices=LANGUAGES)
    seed: int = option(
        -1,
        "launcher random seed (-1: a new one at each start); the same seed and the same events "
        "give the same game",
        min=-1,
    )


@dataclass(frozen=True)
class Config:
    """Every section of the configuration file, checked and typed."""

    table: TableConfig = field(default_factory=TableConfig)
    rules: RulesConfig = field(default_factory=RulesConfig)
    launcher: LauncherConfig = field(default_factory=LauncherConfig)
    hardware: HardwareConfig = field(default_factory=HardwareConfig)
    speech: SpeechConfig = field(default_factory=SpeechConfig)
    web: WebConfig = field(default_factory=WebConfig)
    storage: StorageConfig = field(default_factory=StorageConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)

    def check(self, where: str) -> list[str]:
        """Problems that involve more than one section."""
        return check_consistency(self)


def parse_config(data: Mapping[str, Any], source: str = "configuration") -> Config:
    """A parsed TOML document as a :class:`Config`; raises :class:`ConfigError` listing every
    problem of every section."""
    problems: list[str] = []
    config = parse(Config, dict(data), "", problems)
    if problems:
        raise ConfigError(problems, source)
    return config


def check_config(config: Config, source: str = "configuration") -> None:
    """Check a configuration built in code (a file's is checked as it is read); raises
    :class:`ConfigError` listing every problem."""
    problems = problems_of(config)
    if problems:
        raise ConfigError(problems, source)


def check_consistency(config: Config) -> list[str]:
    """Problems that involve more than one key."""
    from companion.core.firing import BUILTIN_PROFILES
    from companion.core.limits import MAX_NAME, MAX_PLAYERS, MIN_PLAYERS

    problems: list[str] = []
    players = config.table.players
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        problems.append(
            f"table.players: UNO is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(players)}"
        )
    names = [p.strip() for p in players]
    if any(not n for n in names):
        problems.append("table.players: a player name is empty")
    if len({n.casefold() for n in names}) != len(names):
        problems.append("table.players: two players have the same name")
    if any(len(n) > MAX_NAME for n in names):
        problems.append(f"table.players: names are limited to {MAX_NAME} characters")
    if config.table.dealer and config.table.dealer not in players:
        problems.append(f"table.dealer: {config.table.dealer!r} is not one of table.players")
    launcher = config.launcher
    if launcher.profile not in BUILTIN_PROFILES and launcher.profile not in launcher.profiles:
        allowed = ", ".join([*BUILTIN_PROFILES, *launcher.profiles])
        problems.append(f"launcher.profile: {launcher.profile!r} is not one of {allowed}")
    for name, profile in launcher.profiles.items():
        where = f"launcher.profiles.{name}"
        if not profile.fire_chance or any(not 0 <= p <= 1 for p in profile.fire_chance):
            problems.append(f"{where}.fire_chance: needs one or more chances between 0 and 1")
        if len(profile.cards) % 2 or not profile.cards:
            problems.append(f"{where}.cards: needs pairs (low, high)")
        elif any(
            lo > hi or lo < 0
            for lo, hi in zip(profile.cards[::2], profile.cards[1::2], strict=False)
        ):
            problems.append(f"{where}.cards: each pair needs 0 <= low <= high")
        if (
            len(profile.forced_extra) != 2
            or not 0 <= profile.forced_extra[0] <= profile.forced_extra[1]
        ):
            problems.append(
                f"{where}.forced_extra: needs one pair (low, high) with 0 <= low <= high"
            )
    return problems


# Byte-order marks in the order they must be tried (UTF-32's starts with UTF-16's).
_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig", "UTF-8 with a byte-order mark"),
    (codecs.BOM_UTF32_LE, "utf-32", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32", "UTF-32"),
    (codecs.BOM_UTF16_LE, "utf-16", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16", "UTF-16"),
)


def decode_config(raw: bytes, source: str = "configuration") -> str:
    """The text of a configuration file saved in any common encoding.

    UTF-8 is the norm; a byte-order mark (Windows Notepad's "UTF-8 with BOM", "Unicode" =
    UTF-16, UTF-32) says which encoding to use; UTF-16 without a mark shows as a NUL in every
    other byte; bytes that are not UTF-8 are read as Windows-1252 (which covers Latin-1's
    letters: the "ANSI" of a French Windows). Anything else is a :class:`ConfigError` naming
    the encoding it looked like.
    """
    for bom, codec, name in _BOMS:
        if raw.startswith(bom):
            try:
                return raw.decode(codec)
            except UnicodeDecodeError as exc:
                raise ConfigError(
                    [
                        f"the file starts as {name} but byte {exc.start} is not {name}: "
                        "save it again as UTF-8"
                    ],
                    source,
                ) from exc
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        utf8_error = exc
    if len(raw) >= 2 and raw.count(0) * 3 >= len(raw):
        codec = "utf-16-le" if raw[1] == 0 else "utf-16-be"
        try:
            return raw.decode(codec)
        except UnicodeDecodeError as exc:
            raise ConfigError(
                [
                    f"the file looks like UTF-16 without a byte-order mark but byte {exc.start} "
                    "is not UTF-16: save it again as UTF-8"
                ],
                source,
            ) from exc
    try:
        text = raw.decode("cp1252")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, utf8_error.start) + 1
        raise ConfigError(
            [
                f"line {line}: byte 0x{raw[utf8_error.start]:02x} is neither UTF-8 nor "
                "Windows-1252/Latin-1: save the file as UTF-8"
            ],
            source,
        ) from exc
    line = raw.count(b"\n", 0, utf8_error.start) + 1
    log.warning(
        "%s: not UTF-8 (line %d); read as Windows-1252/Latin-1: save it as UTF-8", source, line
    )
    return text


MAX_CONFIG_BYTES = 1 << 20  # a configuration file is a few KB; a megabyte is no such file


def read_config_text(path: Path) -> str:
    """The text of the configuration file at ``path`` (see :func:`decode_config`); raises
    :class:`ConfigError` when it cannot be read, is not a regular file (a device such as
    ``/dev/zero``, a FIFO, a folder: reading one could take all memory or wait for ever) or is
    larger than :data:`MAX_CONFIG_BYTES`."""
    try:
        # Non-blocking: opening a FIFO with no writer must not wait; fstat then refuses it.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise ConfigError([f"cannot read the file: {exc.strerror or exc}"], str(path)) from exc
    kind = os.fstat(fd).st_mode
    if not stat.S_ISREG(kind):
        os.close(fd)
        raise ConfigError(
            [f"not a regular file ({_file_kind(kind)}): give the path of a .toml file"],
            str(path),
        )
    with os.fdopen(fd, "rb") as file:
        try:
            raw = file.read(MAX_CONFIG_BYTES + 1)
        except OSError as exc:
            raise ConfigError([f"cannot read the file: {exc.strerror or exc}"], str(path)) from exc
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(
            [f"larger than {MAX_CONFIG_BYTES // 1024} KB: not a configuration file"], str(path)
        )
    return decode_config(raw, str(path))


def _file_kind(mode: int) -> str:
    kinds = (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((name for test, name in kinds if test(mode)), "not a file")


def load_config(path: Path | None) -> Config:
    """Read and check the file at ``path``; ``None`` gives the defaults."""
    if path is None:
        return Config()
    text = read_config_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError([f"not valid TOML: {exc}"], str(path)) from exc
    except RecursionError:  # [[[[... deeper than the parser goes
        raise ConfigError(["nested too deeply to be a configuration file"], str(path)) from None
    return parse_config(data, str(path))


__all__ = [
    "LANGUAGES",
    "CameraConfig",
    "Config",
    "ConfigError",
    "HardwareConfig",
    "LauncherConfig",
    "ProfileConfig",
    "RulesConfig",
    "SpeechConfig",
    "StorageConfig",
    "TableConfig",
    "WebConfig",
    "check_config",
    "check_consistency",
    "decode_config",
    "load_config",
    "parse_config",
    "read_config_text",
]
