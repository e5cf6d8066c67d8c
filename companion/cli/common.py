"""Helpers shared by the subcommands: config loading and the seed."""

from __future__ import annotations

import argparse
import logging
import os
import secrets
import sys
from pathlib import Path

from companion.config import Config, ConfigError, load_config

log = logging.getLogger("companion")


def add_config_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-c",
        "--config",
        type=Path,
        default=None,
        help="configuration file (TOML; see config.example.toml). Default: built-in settings",
    )


def load_or_exit(path: Path | None) -> Config:
    """The configuration, or a clear message and exit status 2."""
    try:
        return load_config(path)
    except ConfigError as exc:
        print(f"uno-companion: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


def choose_seed(config: Config, override: int | None) -> int:
    """``--seed`` first, then ``table.seed`` from the config, else a fresh random seed."""
    if override is not None:
        return override
    if config.table.seed >= 0:
        return config.table.seed
    return secrets.randbelow(2**31)


def default_state_dir() -> Path:
    """Where the daemon keeps its database: systemd's StateDirectory, else the user's."""
    env = os.environ.get("STATE_DIRECTORY")
    if env:
        return Path(env.split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "uno-companion"
