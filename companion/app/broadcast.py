"""What the hub tells others: the listeners of each handled event, and the open event streams.

:class:`Fanout` (Mopidy-style listener fan-out) runs on the hub thread: the journals first, so
what they store is durable before anything moves, then every listener; a listener that fails
is logged, the others still hear. :class:`Broadcaster` wakes the page's open streams with a
notice that only says "look again", and never blocks the hub on a slow reader.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, Protocol

from companion.core.commands import Command
from companion.core.errors import ActionError
from companion.core.events import Source
from companion.core.table import Outcome

log = logging.getLogger(__name__)

RefusalListener = Callable[[ActionError, Source], None]
Journal = Callable[[Outcome], None]


@dataclass(frozen=True)
class Announcement:
    """Commands of the box's own, from no table event (score results, a long press saying the
    page's address): the listeners act on them as on an outcome's commands."""

    event: str
    commands: tuple[Command, ...]
    source: Source = "box"


class Listener(Protocol):
    """Something that reacts to handled events (an :class:`Outcome`) and to the box's own
    :class:`Announcement`; called on the hub thread, must not block."""

    def on_outcome(self, outcome: Outcome | Announcement) -> None: ...


class Fanout:
    """The journals, listeners and refusal listeners of one hub; told on the hub thread."""

    def __init__(self) -> None:
        self.listeners: list[Listener] = []
        self.journals: list[Journal] = []
        self.refusal_listeners: list[RefusalListener] = []

    def refused(self, error: ActionError, source: Source) -> None:
        for listener in self.refusal_listeners:
            try:
                listener(error, source)
            except Exception:
                log.exception("refusal listener %r failed", listener)

    def journal(self, outcome: Outcome) -> None:
        for journal in self.journals:
            try:
                journal(outcome)
            except Exception:  # the table goes on; the journal reports its own trouble
                log.exception("journal %r failed", journal)

    def tell(self, outcome: Outcome | Announcement) -> None:
        for listener in list(self.listeners):
            try:
                listener.on_outcome(outcome)
            except Exception:
                log.exception("listener %r failed", listener)


class Subscription:
    """Change notices for one reader (an open event stream). Never blocks the hub: when the
    reader falls behind, older notices are dropped; a notice only says "look again"."""

    def __init__(self, broadcaster: Broadcaster, depth: int = 64) -> None:
        self._broadcaster = broadcaster
        self._queue: queue.Queue[dict[str, Any]] = queue.Queue(depth)

    def notify(self, notice: dict[str, Any]) -> None:
        while True:
            try:
                self._queue.put_nowait(notice)
                return
            except queue.Full:
                with suppress(queue.Empty):
                    self._queue.get_nowait()

    def get(self, timeout: float) -> dict[str, Any] | None:
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        self._broadcaster.unsubscribe(self)


class Broadcaster:
    """The open event streams; safe from any thread."""

    def __init__(self) -> None:
        self._subscriptions: list[Subscription] = []
        self._lock = threading.Lock()

    def subscribe(self) -> Subscription:
        sub = Subscription(self)
        with self._lock:
            self._subscriptions.append(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            if sub in self._subscriptions:
                self._subscriptions.remove(sub)

    def notify(self, notice: dict[str, Any]) -> None:
        with self._lock:
            subscriptions = list(self._subscriptions)
        for sub in subscriptions:
            sub.notify(notice)

    @property
    def subscribers(self) -> int:
        with self._lock:
            return len(self._subscriptions)
