"""Helpers shared by the subcommands: the config file, the state directory and the seed."""

from __future__ import annotations

import argparse
import contextlib
import logging
import secrets
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from companion import locations
from companion.config import Config, ConfigError, load_config

log = logging.getLogger("companion")


def add_command(
    subparsers: Any,
    name: str,
    summary: str,
    doc: str | None,
    *,
    handler: Callable[[argparse.Namespace], int] | None = None,
    config: bool = False,
) -> argparse.ArgumentParser:
    """A subcommand whose ``--help`` shows its module's docstring ``doc`` as written, run by
    ``handler``, with the ``--config`` option if ``config``."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name,
        help=summary,
        description=doc,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    if config:
        add_config_argument(parser)
    if handler is not None:
        parser.set_defaults(handler=handler)
    return parser


def add_backend_argument(parser: argparse.ArgumentParser, help: str) -> None:
    parser.add_argument(
        "--backend", choices=("auto", "pigpio", "lgpio", "rpigpio", "mock"), default=None, help=help
    )


def add_config_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-c",
        "--config",
        type=Path,
        default=None,
        help="configuration file (TOML; see config.example.toml). Default: "
        f"${locations.CONFIG_ENV}, else {locations.SYSTEM_CONFIG}, else "
        "~/.config/uno-companion/config.toml, else built-in settings",
    )


def add_state_dir_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--state-dir",
        type=Path,
        default=None,
        help="where the score database lives (default: $STATE_DIRECTORY, else the config's "
        "storage.state_dir, else $XDG_STATE_HOME/uno-companion or ~/.local/state/uno-companion)",
    )


def _exit(exc: ConfigError) -> None:
    print(f"uno-companion: {exc}", file=sys.stderr)
    raise SystemExit(2) from None


@contextlib.contextmanager
def config_errors_exit() -> Iterator[None]:
    """A configuration error inside the block: a clear message and exit status 2."""
    try:
        yield
    except ConfigError as exc:
        _exit(exc)


def load_or_exit(path: Path | None) -> Config:
    """The configuration (``path`` or the one :func:`locations.config_file` finds), every
    section of it checked, or a clear message listing every problem and exit status 2."""
    try:
        return load_config(locations.config_file(path))
    except ConfigError as exc:
        _exit(exc)
        raise  # unreachable: _exit raises


def state_dir_or_exit(explicit: Path | None, config: Config, *, simulate: bool = False) -> Path:
    """The state directory for ``config`` (see :mod:`companion.locations`), or exit status 2."""
    try:
        configured = config.storage.state_dir
        storage = {"state_dir": configured} if configured else None
        return locations.state_dir(explicit, storage, simulate=simulate)
    except ConfigError as exc:
        _exit(exc)
        raise  # unreachable: _exit raises


def choose_seed(config: Config, override: int | None) -> int:
    """``--seed`` first, then ``table.seed`` from the config, else a fresh random seed."""
    if override is not None:
        return override
    if config.table.seed >= 0:
        return config.table.seed
    return secrets.randbelow(2**31)


def print_qr(urls: list[str]) -> None:
    """A QR code of the page's address, for the first phone to scan off the terminal."""
    if not urls:
        return
    import segno

    print(f"scan to open {urls[0]}")
    segno.make(urls[0], error="m").terminal(out=sys.stdout, compact=True, border=2)
