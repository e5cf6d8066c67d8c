"""The ``[storage]`` section: where the score database lives."""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.model import option

# Paths are checked by the part that opens them; this only keeps a typo of a whole file out.
MAX_PATH = 4096


@dataclass(frozen=True)
class StorageConfig:
    """Where the score database lives."""

    state_dir: str = option(
        "",
        "the score database's folder (empty: $STATE_DIRECTORY under systemd, else "
        "~/.local/state/uno-companion); --state-dir overrides it",
        min_length=1,
        max_length=MAX_PATH,
        example="/var/lib/uno-companion",
    )
