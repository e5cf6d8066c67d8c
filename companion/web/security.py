"""Who may change the table: PIN, CSRF token, Origin check and lock-out.

Every request must name the box in its ``Host`` header: one of its own names (``hostname``,
``hostname.local``, ``localhost``, the configured ``allowed_hosts``) or an IP address. A web site
that points a name of its own at the box (DNS rebinding) is refused before anything is read.
IP addresses are always accepted: a rebinding attack needs a name, and the box's address changes
with the network it joins.

Anyone on the table's Wi-Fi may *look*. Every request that changes something (POST) must

1. come from this page: a foreign ``Origin`` (another web site the phone has open) is refused;
2. carry the session's CSRF token in the ``X-CSRF-Token`` header (the cookie alone is not enough);
3. when a table PIN is set, come from a session that entered the PIN.

PINs are compared with :func:`hmac.compare_digest` so the time taken reveals nothing. After
``lockout_attempts`` bad PINs in a row from one IP address (the socket's, never a header), that
address must wait ``lockout_seconds``, twice as long at each new lock-out of it (up to an hour);
a new session does not reset it.

Guesses are also counted across all addresses (twenty phones, or one phone changing its
address): after ``lockout_total_attempts`` bad PINs within ``lockout_seconds`` the box slows
down instead of locking anyone out. PINs are then checked one at a time, at least a second
apart, twice as far apart each time the limit is reached again (up to :data:`SLOWEST_STEP`),
until someone enters the right PIN: a phone waits its turn and is answered, and the right PIN
always gets in. One address has one guess waiting at a time, and at most
:data:`MOST_WAITING` wait in all (the rest are asked to come back when their turn would come,
so guessers cannot hold every thread of the web server).

A session that has already proved the PIN since the box started (the host, who then locked the
phone) is not held by its address's lock-out: it may still enter the right PIN, and a wrong one
from it counts as a guess like any other.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from flask import Request, session

from companion.core.backoff import backoff
from companion.web.config import WebConfig

CSRF_HEADER = "X-CSRF-Token"
LONGEST_LOCKOUT = 3600.0  # seconds: how far the lock-out of an address grows
SLOWEST_STEP = 8.0  # seconds between two PIN checks, at most, while guesses come from everywhere
MOST_WAITING = 8  # PIN checks waiting their turn at once (each holds a web server thread)
KEEP_ADDRESSES = 4096  # addresses with strikes remembered; unlocked ones go first


class AccessDenied(Exception):
    """A refused request: ``key`` is a ``web.error_*`` catalog key, ``status`` the HTTP status."""

    def __init__(self, key: str, status: int, retry_after: int | None = None) -> None:
        super().__init__(key)
        self.key = key
        self.status = status
        self.retry_after = retry_after


@dataclass
class _Strikes:
    count: int = 0  # bad PINs in a row
    locked_until: float = 0.0
    lockouts: int = 0  # lock-outs so far: the next is twice as long


class Guard:
    """Access rules for one app; thread-safe (waitress serves requests on many threads)."""

    def __init__(
        self,
        config: WebConfig,
        clock: Callable[[], float] = time.monotonic,
        wait: Callable[[float], None] = time.sleep,
    ) -> None:
        self._pin = config.pin.encode()
        self._attempts = config.lockout_attempts
        self._lock_seconds = config.lockout_seconds
        self._clock = clock
        self._wait = wait
        self._strikes: dict[str, _Strikes] = {}
        # Bad PINs from every address: their times, and the slow-down they bring.
        self._total_attempts = config.lockout_total_attempts
        self._misses: deque[float] = deque()
        self._slowdowns = 0  # times the limit was reached since the last right PIN
        self._next_turn = 0.0  # when the next PIN may be checked while slowed down
        self._last_miss = 0.0
        self._waiting: set[str] = set()
        self._lock = threading.Lock()
        # A fresh secret each start: old sessions (and their PIN) end when the box restarts.
        self.generation = secrets.token_hex(8)
        self.host_names = own_host_names() | {_bare(n) for n in config.allowed_hosts}

    def host_allowed(self, host: str) -> bool:
        """Whether a request's ``Host`` (``name:port``, ``[v6]:port``) is this box."""
        name = _host_without_port(host)
        if not name:
            return False
        try:
            ipaddress.ip_address(name)
            return True
        except ValueError:
            return _bare(name) in self.host_names

    @property
    def pin_required(self) -> bool:
        return bool(self._pin)

    def csrf_token(self) -> str:
        """The session's CSRF token, created on first use."""
        token = session.get("csrf")
        if not isinstance(token, str):
            token = secrets.token_urlsafe(24)
            session["csrf"] = token
        return token

    def authenticated(self) -> bool:
        return not self._pin or session.get("auth") == self.generation

    def check_origin(self, request: Request) -> None:
        """Refuse a request sent by a page of another site (compares scheme-less host:port)."""
        origin = request.headers.get("Origin") or request.headers.get("Referer")
        if origin is None:
            return  # not sent by a browser page: the CSRF token still has to match
        if origin == "null" or urlsplit(origin).netloc.lower() != request.host.lower():
            raise AccessDenied("web.error_origin", 403)

    def check_csrf(self, request: Request) -> None:
        expected = session.get("csrf")
        given = request.headers.get(CSRF_HEADER, "")
        if not isinstance(expected, str) or not hmac.compare_digest(
            given.encode(), expected.encode()
        ):
            raise AccessDenied("web.error_csrf", 403)

    def check_write(self, request: Request) -> None:
        """All checks for a request that changes something."""
        self.check_origin(request)
        self.check_csrf(request)
        if not self.authenticated():
            raise AccessDenied("web.error_pin_needed", 401)

    def login(self, client: str, pin: str) -> None:
        """Check ``pin`` for ``client`` (an IP address); mark the session or raise."""
        trusted = session.get("proved") == self.generation
        turn = self._take_turn(client, pin, trusted)
        try:
            if turn:
                self._wait(turn)  # slowed down: this phone's turn comes
            self._check(client, pin)
        finally:
            if turn is not None:
                with self._lock:
                    self._waiting.discard(client)
        session["auth"] = self.generation
        session["proved"] = self.generation

    def _take_turn(self, client: str, pin: str, trusted: bool) -> float | None:
        """Seconds ``client`` waits for its turn (None: not slowed down, no turn taken), or
        raise: its address is locked out, or (slowed down) it has a guess waiting, or too many
        do."""
        now = self._clock()
        with self._lock:
            strikes = self._strike_of(client, now)
            if strikes.locked_until > now and not (trusted and self._right(pin)):
                raise AccessDenied(
                    "web.error_locked", 429, retry_after=int(strikes.locked_until - now) + 1
                )
            self._forget_misses(now)
            if len(self._misses) < self._total_attempts and not self._slowdowns:
                return None
            step = backoff(max(self._slowdowns, 1), 1.0, SLOWEST_STEP)
            turn = max(now, self._next_turn)
            if client in self._waiting or len(self._waiting) >= MOST_WAITING:
                retry = max(1, int(turn - now + step * len(self._waiting)) + 1)
                raise AccessDenied("web.error_pin_wait", 429, retry_after=retry)
            self._next_turn = turn + step
            self._waiting.add(client)
            return turn - now

    def _check(self, client: str, pin: str) -> None:
        now = self._clock()
        with self._lock:
            strikes = self._strike_of(client, now)
            if not self._right(pin):
                strikes.count += 1
                self._misses.append(now)
                self._last_miss = now
                self._forget_misses(now)
                if len(self._misses) >= self._total_attempts:
                    self._misses.clear()  # the next window counts anew, a step slower
                    self._slowdowns += 1
                if strikes.count >= self._attempts:
                    strikes.count = 0
                    wait = backoff(strikes.lockouts + 1, self._lock_seconds, LONGEST_LOCKOUT)
                    strikes.lockouts += 1
                    strikes.locked_until = now + wait
                    raise AccessDenied("web.error_locked", 429, retry_after=int(wait + 0.999))
                raise AccessDenied("web.error_pin_wrong", 403)
            if strikes.locked_until <= now:
                self._strikes.pop(client, None)
            self._misses.clear()
            self._slowdowns = 0
            self._next_turn = 0.0

    def _strike_of(self, client: str, now: float) -> _Strikes:
        if client not in self._strikes and len(self._strikes) >= KEEP_ADDRESSES:
            # Many addresses (an attacker changing its own): forget those not locked out.
            self._strikes = {a: s for a, s in self._strikes.items() if s.locked_until > now}
        return self._strikes.setdefault(client, _Strikes())

    def _forget_misses(self, now: float) -> None:
        misses = self._misses
        while misses and now - misses[0] >= self._lock_seconds:
            misses.popleft()
        if self._slowdowns and now - self._last_miss >= self._lock_seconds:
            self._slowdowns = 0  # no bad PIN for a while: back to full speed

    def _right(self, pin: str) -> bool:
        # Compare digests of equal length: compare_digest is constant-time for equal sizes.
        return not self._pin or hmac.compare_digest(_digest(pin.encode()), _digest(self._pin))

    def logout(self) -> None:
        session.pop("auth", None)


def own_host_names() -> set[str]:
    """The names this box answers to on its own."""
    names = {"localhost"}
    for name in (socket.gethostname(), socket.getfqdn()):
        name = _bare(name)
        if name:
            names.add(name)
            short = name.split(".")[0]
            names.update({short, f"{short}.local"})
    return names


def _bare(name: str) -> str:
    return name.strip().rstrip(".").lower()


def _host_without_port(host: str) -> str:
    host = host.strip()
    if host.startswith("["):  # [v6] or [v6]:port
        end = host.find("]")
        return host[1:end] if end > 0 else ""
    if host.count(":") == 1:
        host = host.split(":")[0]
    return host


def _digest(data: bytes) -> bytes:
    return hmac.new(b"uno-companion-pin", data, "sha256").digest()
