"""Where every command finds its configuration file and keeps its state.

One resolution for the service, ``run``, ``simulate``, ``score``, ``calibrate`` and ``say``:

- configuration file: ``--config`` > ``$UNO_COMPANION_CONFIG`` > ``/etc/uno-companion/config.toml``
  if it exists > ``~/.config/uno-companion/config.toml`` if it exists > none (built-in defaults);
- state directory (the score database): ``--state-dir`` > ``$STATE_DIRECTORY`` (systemd's
  ``StateDirectory=``) > the config's ``[storage] state_dir`` > ``$XDG_STATE_HOME/uno-companion``
  > ``~/.local/state/uno-companion``. A simulation keeps its scores in a ``simulate`` folder
  of that directory, apart from a real box's, unless ``--state-dir`` names one.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.config import ConfigError

APP_NAME = "uno-companion"
CONFIG_ENV = "UNO_COMPANION_CONFIG"
SYSTEM_CONFIG = Path("/etc") / APP_NAME / "config.toml"
SIMULATION_FOLDER = "simulate"


def user_config_file(environ: Mapping[str, str] = os.environ) -> Path:
    """``$XDG_CONFIG_HOME/uno-companion/config.toml`` (``~/.config`` by default)."""
    base = environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / APP_NAME / "config.toml"


def config_file(
    explicit: Path | None,
    environ: Mapping[str, str] = os.environ,
    system_file: Path = SYSTEM_CONFIG,
) -> Path | None:
    """The configuration file to read, or ``None`` for the built-in defaults."""
    if explicit is not None:
        return explicit
    if environ.get(CONFIG_ENV):
        return Path(environ[CONFIG_ENV])
    for candidate in (system_file, user_config_file(environ)):
        if candidate.is_file():
            return candidate
    return None


def state_dir(
    explicit: Path | None,
    storage: Mapping[str, Any] | None = None,
    *,
    simulate: bool = False,
    environ: Mapping[str, str] = os.environ,
) -> Path:
    """Where the score database lives; ``storage`` is the config's ``[storage]`` table."""
    if explicit is not None:
        return explicit
    configured = (storage or {}).get("state_dir")
    if configured is not None and not (isinstance(configured, str) and configured):
        raise ConfigError([f"storage.state_dir: expected a directory path, got {configured!r}"])
    if environ.get("STATE_DIRECTORY"):
        # systemd may list several directories separated by colons: ours is the first.
        base = Path(environ["STATE_DIRECTORY"].split(":")[0])
    elif configured:
        base = Path(configured).expanduser()
    else:
        xdg = environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
        base = Path(xdg) / APP_NAME
    return base / SIMULATION_FOLDER if simulate else base
