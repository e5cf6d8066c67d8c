"""The configuration file: one TOML file, every key documented in ``config.example.toml``.

Each section is a frozen dataclass. Field metadata says what a value may be (``choices``,
``min``/``max``, ``help``); :func:`parse_config` checks every key against it and reports *all*
problems at once, each naming the key and what is allowed, so one edit fixes a broken file.
The adapters' sections (hardware, speech, web, storage) are checked by the adapters: each
declares the check of its own section, and :func:`parse_config` runs the checks it is given
with its own, so their problems are listed together (see :mod:`companion.sections`).
This module reads no files at import time and knows nothing about hardware or the web.
"""

from __future__ import annotations

import tomllib
import typing
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import Any, TypeVar

from companion.core.options import LauncherOptions as LauncherConfig
from companion.core.options import ProfileOptions as ProfileConfig
from companion.core.options import RulesOptions as RulesConfig
from companion.core.options import option as option

LANGUAGES = ("fr", "en")
T = TypeVar("T")


class ConfigError(ValueError):
    """A configuration file that cannot be used; ``problems`` lists every key at fault."""

    def __init__(self, problems: list[str], source: str = "configuration") -> None:
        self.problems = problems
        self.source = source
        lines = "\n".join(f"  - {p}" for p in problems)
        super().__init__(f"{source}: {len(problems)} problem(s):\n{lines}")


@dataclass(frozen=True)
class TableConfig:
    players: list[str] = option(
        ["Alice", "Bruno", "Chloé", "David"],
        "player names in seat order, going left (clockwise seen from above)",
    )
    dealer: str = option("", "who deals the first round (empty: the first player)")
    language: str = option("fr", "language of the voice and the page", choices=LANGUAGES)
    seed: int = option(-1, "random seed for the launcher (-1: a new one each start)", min=-1)


@dataclass(frozen=True)
class Config:
    table: TableConfig = field(default_factory=TableConfig)
    rules: RulesConfig = field(default_factory=RulesConfig)
    launcher: LauncherConfig = field(default_factory=LauncherConfig)
    # Further sections (hardware, speech, web, storage, scoring) are plain tables checked by the
    # adapter that owns them, see ``extra_sections``.
    extra: dict[str, dict[str, Any]] = field(default_factory=dict)


# Sections other modules validate themselves; listed here so a typo in a section name is caught.
EXTRA_SECTIONS = ("hardware", "speech", "web", "storage", "scoring", "camera")
# The check of one adapter's section: given ``Config.extra``, raises ConfigError listing its
# problems (what it returns, the typed section, is the adapter's to keep).
SectionCheck = Callable[[dict[str, dict[str, Any]]], object]


def _type_name(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if origin is list:
        return f"a list of {_type_name(typing.get_args(tp)[0])}"
    if origin is dict:
        return "a table"
    return {bool: "true or false", int: "a whole number", float: "a number", str: "a string"}.get(
        tp, getattr(tp, "__name__", str(tp))
    )


def _check_value(tp: Any, value: Any, key: str, meta: Mapping[str, Any], out: list[str]) -> Any:
    origin = typing.get_origin(tp)
    if origin is list:
        (item_tp,) = typing.get_args(tp)
        if not isinstance(value, list):
            out.append(f"{key}: expected {_type_name(tp)}, got {value!r}")
            return MISSING
        items = [_check_value(item_tp, v, f"{key}[{i}]", {}, out) for i, v in enumerate(value)]
        return MISSING if MISSING in items else items
    if origin is dict:
        _, val_tp = typing.get_args(tp)
        if not isinstance(value, dict):
            out.append(f"{key}: expected a table, got {value!r}")
            return MISSING
        return {k: parse_section(val_tp, v, f"{key}.{k}", out) for k, v in value.items()}
    if isinstance(tp, type) and is_dataclass(tp):
        return parse_section(tp, value, key, out)
    ok = (
        isinstance(value, bool)
        if tp is bool
        else isinstance(value, int | float) and not isinstance(value, bool)
        if tp is float
        else isinstance(value, tp) and not (tp is int and isinstance(value, bool))
    )
    if not ok:
        out.append(f"{key}: expected {_type_name(tp)}, got {value!r}")
        return MISSING
    if "choices" in meta and value not in meta["choices"]:
        allowed = ", ".join(map(str, meta["choices"]))
        out.append(f"{key}: {value!r} is not one of {allowed}")
        return MISSING
    if "min" in meta and value < meta["min"]:
        out.append(f"{key}: {value!r} is below the minimum {meta['min']}")
        return MISSING
    if "max" in meta and value > meta["max"]:
        out.append(f"{key}: {value!r} is above the maximum {meta['max']}")
        return MISSING
    return float(value) if tp is float else value


def parse_section(cls: type[T], data: Any, where: str, out: list[str]) -> T:
    """Build dataclass ``cls`` from ``data``, appending each problem found to ``out``."""
    if not isinstance(data, dict):
        out.append(f"{where}: expected a table, got {data!r}")
        return cls()
    hints = typing.get_type_hints(cls)
    known = {f.name: f for f in fields(cls)}  # type: ignore[arg-type]
    values: dict[str, Any] = {}
    for key, value in data.items():
        name = f"{where}.{key}" if where else key
        if key not in known:
            out.append(f"{name}: unknown key (allowed: {', '.join(known)})")
            continue
        checked = _check_value(hints[key], value, name, known[key].metadata, out)
        if checked is not MISSING:
            values[key] = checked
    return cls(**values)


def parse_config(
    data: Mapping[str, Any],
    source: str = "configuration",
    checks: Mapping[str, SectionCheck] | None = None,
) -> Config:
    """Validate a parsed TOML document and run the adapters' ``checks`` on their sections;
    raise :class:`ConfigError` listing every problem of every section."""
    problems: list[str] = []
    sections: dict[str, Any] = {}
    extra: dict[str, dict[str, Any]] = {}
    core = {"table": TableConfig, "rules": RulesConfig, "launcher": LauncherConfig}
    for key, value in data.items():
        if key in core:
            sections[key] = parse_section(core[key], value, key, problems)
        elif key in EXTRA_SECTIONS:
            if isinstance(value, dict):
                extra[key] = dict(value)
            else:
                problems.append(f"{key}: expected a table, got {value!r}")
        else:
            allowed = ", ".join([*core, *EXTRA_SECTIONS])
            problems.append(f"{key}: unknown section (allowed: {allowed})")
    config = Config(**sections, extra=extra)
    problems.extend(check_consistency(config))
    for check in (checks or {}).values():
        try:
            check(extra)
        except ConfigError as error:
            problems.extend(error.problems)
    if problems:
        raise ConfigError(problems, source)
    return config


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


def load_config(path: Path | None, checks: Mapping[str, SectionCheck] | None = None) -> Config:
    """Read and validate ``path`` (with the adapters' ``checks``); ``None`` gives the defaults."""
    if path is None:
        return parse_config({}, checks=checks)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError([f"cannot read the file: {exc.strerror or exc}"], str(path)) from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError([f"not valid TOML: {exc}"], str(path)) from exc
    return parse_config(data, str(path), checks)


__all__ = [
    "Config",
    "ConfigError",
    "LauncherConfig",
    "ProfileConfig",
    "RulesConfig",
    "TableConfig",
    "load_config",
    "parse_config",
    "parse_section",
]
