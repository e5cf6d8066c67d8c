"""A crash loop slows down by itself: systemd 252 (Debian 12) restarts a failed service at a
fixed pace (``RestartSec``); ``RestartSteps`` only came with systemd 254.

Each start under systemd is written down in ``$RUNTIME_DIRECTORY`` (kept across restarts by
``RuntimeDirectoryPreserve=restart``, emptied at boot); when starts follow each other within five
minutes, the next one first waits 2, 4, 8... up to 60 seconds. A box that ran for five minutes
starts again at once.
"""

from __future__ import annotations

from pathlib import Path

from companion.core.backoff import backoff

STARTS_FILE = "starts"
WINDOW_S = 300.0
FIRST_DELAY_S = 2.0
MAX_DELAY_S = 60.0


def restart_delay(runtime_dir: Path, now: float) -> float:
    """Record a start at ``now`` (wall-clock seconds); return how long to wait before it."""
    path = runtime_dir / STARTS_FILE
    try:
        previous = [float(line) for line in path.read_text().split() if line]
    except (OSError, ValueError):
        previous = []
    recent = [t for t in previous if now - WINDOW_S < t <= now]
    try:
        path.write_text("".join(f"{t}\n" for t in [*recent, now]))
    except OSError:
        return 0.0  # no place to count: start at once rather than not at all
    return backoff(len(recent), FIRST_DELAY_S, MAX_DELAY_S)
