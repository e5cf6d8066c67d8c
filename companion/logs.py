"""The box's log, one line per kind of trouble per interval.

Thirty busy phones make waitress warn "Task queue depth is N" at every request: 185,044 lines in
three minutes, on a Pi the SD card's; a loose wire can make a device complain as often.
:class:`OncePerInterval` lets the first line of each kind through, holds back the same kind for
``interval`` seconds, and adds to the next line it lets through how many it held back. The
command line puts it on the handler every line goes through (:func:`companion.cli.log_handler`);
the web server puts it on its own loggers as well, for when it runs without the command line.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

INTERVAL = 60.0
# The loggers the filter sits on: waitress's own, and the page's.
LOGGERS = ("waitress", "waitress.queue", "companion.web.app", "companion.web.api")
KINDS = 256  # kinds of trouble remembered at once (each is a message template)


class OncePerInterval(logging.Filter):
    """A log filter: one record per (logger, level, message template) every ``interval``."""

    def __init__(
        self, interval: float = INTERVAL, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__()
        self._interval = interval
        self._clock = clock
        self._kinds: dict[tuple[str, int, str], list[float]] = {}  # kind: [shown at, held]
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        kind = (record.name, record.levelno, str(record.msg))
        now = self._clock()
        with self._lock:
            seen = self._kinds.get(kind)
            if seen is not None and now - seen[0] < self._interval:
                seen[1] += 1
                return False
            held = int(seen[1]) if seen is not None else 0
            if len(self._kinds) >= KINDS and seen is None:
                self._kinds = {k: v for k, v in self._kinds.items() if now - v[0] < self._interval}
            self._kinds[kind] = [now, 0]
        if held:
            record.msg = f"{record.msg} ({held} more like this in the last {self._interval:.0f} s)"
        return True


def rate_limit(filter_: OncePerInterval, loggers: tuple[str, ...] = LOGGERS) -> Callable[[], None]:
    """Put ``filter_`` on ``loggers``; returns what takes it off again."""
    for name in loggers:
        logging.getLogger(name).addFilter(filter_)

    def remove() -> None:
        for name in loggers:
            logging.getLogger(name).removeFilter(filter_)

    return remove
