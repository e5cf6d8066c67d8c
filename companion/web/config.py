"""The ``[web]`` section of the configuration file.

Example::

    [web]
    host = "0.0.0.0"   # every network interface: phones on the table's Wi-Fi can reach it
    port = 8080
    threads = 16       # each open phone holds one thread for its live updates: phones + 4
    pin = "4321"       # empty: anyone on the Wi-Fi may change things
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.config import Config, ConfigError, option, parse_section


@dataclass(frozen=True)
class WebConfig:
    host: str = option("0.0.0.0", "address to listen on (0.0.0.0: every interface)")
    port: int = option(8080, "TCP port of the phone page", min=1, max=65535)
    threads: int = option(
        16,
        "worker threads; each phone's live stream holds one, so use phones + 4 or more",
        min=6,
        max=256,
    )
    pin: str = option("", "table PIN needed to change anything (empty: no PIN)")
    lockout_attempts: int = option(
        5, "bad PINs in a row before a phone is locked out", min=1, max=100
    )
    lockout_seconds: int = option(60, "how long a locked-out phone must wait", min=1, max=86400)
    remote_press: bool = option(
        False, "on real hardware, let the page's HIT button press the launcher remotely"
    )
    keepalive_seconds: float = option(
        15.0, "seconds between keep-alive comments on the live stream", min=0.05, max=300.0
    )

    @property
    def max_streams(self) -> int:
        """Live streams allowed at once: four threads stay free for ordinary requests."""
        return self.threads - 4


def parse_web_config(extra: dict[str, Any]) -> WebConfig:
    """Validate ``Config.extra["web"]`` (missing: the defaults); raise :class:`ConfigError`."""
    problems: list[str] = []
    section = parse_section(WebConfig, extra.get("web", {}), "web", problems)
    if len(section.pin) > 64 or any(not ch.isprintable() for ch in section.pin):
        problems.append("web.pin: use at most 64 printable characters")
    if problems:
        raise ConfigError(problems)
    return section


def web_config(config: Config) -> WebConfig:
    """The ``[web]`` section of a loaded configuration, validated."""
    return parse_web_config(config.extra)
