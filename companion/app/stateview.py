"""The state the phones read: the table's snapshot and every service's status, as one dict.

Built on the hub thread, so it never shows an event half handled, and cached until the next
change. ``revision`` counts the changes edits are checked against; ``generation`` every change,
the launcher's own movements too (of two states of one revision, a phone keeps the later).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from companion.core.errors import ActionError

from .threadguard import ThreadGuard, hub_thread_only
from .workloop import WorkLoop

log = logging.getLogger(__name__)

StatusProvider = Callable[[], dict[str, Any]]
# Changes no edit is based on (the launcher's own movements, the box's phrases): they leave
# ``revision`` as it is.
QUIET_SECTIONS = ("device", "spoken")
QueryProvider = Callable[[dict[str, Any]], Any]


class StateView:
    """The statuses and reads services register, and the state cache. ``table()`` makes the
    table's snapshot (on the hub thread)."""

    def __init__(self, loop: WorkLoop, table: Callable[[], dict[str, Any]], timeout: float) -> None:
        self._loop = loop
        self._table = table
        self._timeout = timeout
        self.revision = 0
        self.statuses: dict[str, StatusProvider] = {}
        self.queries: dict[str, QueryProvider] = {}
        self._lock = threading.Lock()
        self._generation = 0  # every change, device ones included: the cache's validity
        self._cache: dict[str, Any] | None = None
        self._table_made: tuple[int, dict[str, Any]] | None = None  # (generation, snapshot)

    @property
    def thread_guard(self) -> ThreadGuard:
        return self._loop.guard

    def changed(self, section: str) -> dict[str, Any]:
        """Something in ``section`` changed: the cache is dropped; the notice for the readers.
        The launcher's own movements (``device``) leave ``revision`` as it is, so a tap right
        after the turret stopped is not taken for a stale edit."""
        with self._lock:  # from any thread (a storage fault): counted once each
            if section not in QUIET_SECTIONS:
                self.revision += 1
            self._generation += 1
            self._cache = None
            return {"revision": self.revision, "section": section}

    @hub_thread_only
    def table_made(self, snapshot: dict[str, Any]) -> None:
        """``snapshot`` is the table as it is now (an outcome's, just made): the next state
        takes it instead of making it again, unless something changes first."""
        with self._lock:
            self._table_made = (self._generation, snapshot)

    def state(self) -> dict[str, Any]:
        """The whole state as JSON-ready data; cached until the next change."""
        with self._lock:
            if self._cache is not None:
                return self._cache
            generation = self._generation
        # An input posted from the hub thread itself (a listener) is queued behind the current
        # one, never nested: so a state read there is built at once.
        state: dict[str, Any] = self._loop.run_here_or_wait(self._build, self._timeout)
        with self._lock:
            if generation == self._generation:  # not overtaken by a change meanwhile
                self._cache = state
        return state

    @hub_thread_only
    def _build(self) -> dict[str, Any]:
        with self._lock:
            generation = self._generation
            made = self._table_made
        table = made[1] if made is not None and made[0] == generation else self._table()
        state: dict[str, Any] = {
            "revision": self.revision,
            "generation": generation,
            "table": table,
        }
        for section, provider in self.statuses.items():
            try:
                state[section] = provider()
            except Exception:
                log.exception("status of %s failed", section)
                state[section] = {"error": True}
        return state

    def query(self, name: str, params: dict[str, Any]) -> Any:
        """Run the registered read ``name`` on the hub thread (at once on a hub never started).
        An unknown name is an :class:`ActionError` (404); a hub too busy raises TimeoutError."""
        provider = self.queries.get(name)
        if provider is None:
            raise ActionError("unknown_query", f"nothing to read as {name[:40]!r}", status=404)
        return self._loop.run_here_or_wait(lambda: provider(params), self._timeout)
