"""``Idempotency-Key``: a phone's retry is answered, not done twice.

A phone on weak Wi-Fi may send an action, lose the answer and send it again: without a key,
``score.record_round`` would then store two rounds. Every write (``POST /api/...``) may carry the
header of the IETF draft *The Idempotency-Key HTTP Header Field*: a string of its own choosing,
new for each action (a UUID), the same for its retries. The box remembers each key for
:data:`KEEP_SECONDS` (the last :data:`KEEP_KEYS` keys, never one whose request still runs), per
phone session; beyond that, the stores keep an action's key with the change it made
(:mod:`companion.core.receipts`), and a retry is looked for there:

- a retry of a finished request gets its first answer's status again, with
  ``Idempotent-Replayed: true``; a refusal gets the same error, a success the state as it is now
  (which includes what the first request did);
- a retry while the first is still running: ``409`` (``input.idempotency_in_progress``);
- the same key with another action or body: ``422`` (``input.idempotency_reused``);
- a malformed key (empty, over 255 characters, not printable ASCII): ``400``.

Only a refusal that changed nothing and may pass (``503`` busy, ``507`` disk full: the action
never ran) is forgotten, so its retry runs. A request that ran is remembered whatever its
answer; one that failed in an unexpected way (``500``) too, since it may have changed something.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"
KEEP_SECONDS = 600.0
KEEP_KEYS = 1024
MAX_KEY = 255


class KeyProblem(Exception):
    """The key cannot be used: ``key`` is an ``input.*`` catalog key, ``status`` the answer's."""

    def __init__(self, key: str, status: int) -> None:
        super().__init__(key)
        self.key = key
        self.status = status


@dataclass
class _Entry:
    fingerprint: str
    at: float
    status: int | None = None  # None while the first request runs
    error: bytes | None = None  # a refusal's body, replayed as it was


def parse_key(header: str | None) -> str | None:
    """The key of an ``Idempotency-Key`` header (a structured-field string, ``"..."``, or bare)."""
    if header is None:
        return None
    key = header.strip()
    if len(key) >= 2 and key[0] == key[-1] == '"':
        key = key[1:-1]
    if not key or len(key) > MAX_KEY or not key.isascii() or not key.isprintable():
        raise KeyProblem("input.idempotency_bad_key", 400)
    return key


def fingerprint(*parts: bytes | str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode() if isinstance(part, str) else part)
        digest.update(b"\0")
    return digest.hexdigest()


class Remembered:
    """The keys seen lately; thread-safe (waitress answers on many threads)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._entries: OrderedDict[tuple[str, str], _Entry] = OrderedDict()
        self._lock = threading.Lock()

    def begin(self, scope: str, key: str, print_: str) -> _Entry | None:
        """Claim ``key``: ``None`` if it is new (run the request, then :meth:`finish`), else
        the finished entry to replay. Raises :class:`KeyProblem` for a request running or a
        key reused for another request."""
        now = self._clock()
        with self._lock:
            self._expire(now)
            entry = self._entries.get((scope, key))
            if entry is None:
                self._entries[(scope, key)] = _Entry(print_, now)
                self._evict()
                return None
            if entry.fingerprint != print_:
                raise KeyProblem("input.idempotency_reused", 422)
            if entry.status is None:
                raise KeyProblem("input.idempotency_in_progress", 409)
            return entry

    def finish(
        self, scope: str, key: str, status: int, error: bytes | None, *, forget: bool = False
    ) -> None:
        """Record the first answer; ``forget``: it changed nothing and may pass (busy), so a
        retry runs."""
        with self._lock:
            if forget:
                self._entries.pop((scope, key), None)
                return
            entry = self._entries.get((scope, key))
            if entry is not None:
                entry.status, entry.error = status, error

    def _evict(self) -> None:
        """Past :data:`KEEP_KEYS`, the oldest finished keys go (the stores keep those of
        changes); a request still running keeps its key, so its retry never runs alongside."""
        while len(self._entries) > KEEP_KEYS:
            oldest = next((k for k, e in self._entries.items() if e.status is not None), None)
            if oldest is None:
                return  # all running: as many as the web server's threads
            del self._entries[oldest]

    def _expire(self, now: float) -> None:
        while self._entries:
            oldest = next(iter(self._entries.values()))
            if now - oldest.at < KEEP_SECONDS:
                return
            self._entries.popitem(last=False)
