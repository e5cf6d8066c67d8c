"""Who may change the table: PIN, CSRF token, Origin check and lock-out.

Every request must name the box in its ``Host`` header: one of its own names (``hostname``,
``hostname.local``, ``localhost``, the configured ``allowed_hosts``) or an IP address. A web site
that points a name of its own at the box (DNS rebinding) is refused before anything is read.
IP addresses are always accepted: a rebinding attack needs a name, and the box's address changes
with the network it joins.

Anyone on the table's Wi-Fi may *look*. Every request that changes something (POST) must

1. come from this page: a foreign ``Origin`` (another web site the phone has open) is refused;
2. carry the session's CSRF token in the ``X-CSRF-Token`` header (the cookie alone is not enough);
3. when a table PIN is set, come from a session that entered the PIN and has not logged out.

PINs are compared with :func:`hmac.compare_digest` so the time taken reveals nothing. Guessing is
limited *per guesser* and answered at once (no PIN check ever waits on a web server thread):

- After ``lockout_attempts`` bad PINs in a row from one IP address (the socket's, never a header),
  that address must wait ``lockout_seconds``, twice as long at each new lock-out of it (up to an
  hour); a new session does not reset it, and a right PIN from *another* address changes nothing.
  A locked-out address is answered 429 with ``Retry-After`` without its PIN being looked at.
- Across all addresses, after ``lockout_total_attempts`` bad PINs within ``lockout_seconds`` (one
  guesser changing its address), every bad PIN locks its address out at once: each new address
  gets one guess. Nobody's right PIN waits for it.
- A phone that entered the right PIN since the box started carries a mark of it; its guesses are
  counted under that mark, not its address. Guessers sharing its address cannot lock it out.

A login gives the session a random id the box keeps; logging out forgets the id on the box, so the
cookie is refused afterwards even if it was copied.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import socket
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from flask import Request, session

from companion.core.backoff import backoff
from companion.web.config import WebConfig

CSRF_HEADER = "X-CSRF-Token"
LONGEST_LOCKOUT = 3600.0  # seconds: how far the lock-out of an address grows
KEEP_ADDRESSES = 4096  # guessers with strikes remembered; unlocked ones go first
KEEP_SESSIONS = 1024  # signed-in sessions (and proved phones) kept; the oldest go first


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

    def __init__(self, config: WebConfig, clock: Callable[[], float] = time.monotonic) -> None:
        self._pin = config.pin.encode()
        self._attempts = config.lockout_attempts
        self._lock_seconds = config.lockout_seconds
        self._clock = clock
        self._strikes: dict[str, _Strikes] = {}
        # The last bad PINs from every address: when they fill up within lockout_seconds,
        # someone is changing address to guess, and each bad PIN locks its address at once.
        self._misses: deque[float] = deque(maxlen=config.lockout_total_attempts)
        # Kept on the box, never in the cookie alone: forgetting one ends that session.
        self._signed_in: OrderedDict[str, None] = OrderedDict()
        self._proved: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()
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
        if not self._pin:
            return True
        signed_in = session.get("auth")
        with self._lock:
            return isinstance(signed_in, str) and signed_in in self._signed_in

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
        """Check ``pin`` for ``client`` (an IP address); sign the session in or raise at once."""
        proved = session.get("proved")
        before = session.get("auth")
        now = self._clock()
        with self._lock:
            known = isinstance(proved, str) and proved in self._proved
            guesser = f"proved:{proved}" if known else client
            strikes = self._strike_of(guesser, now)
            if strikes.locked_until > now:
                raise AccessDenied(
                    "web.error_locked", 429, retry_after=int(strikes.locked_until - now) + 1
                )
            if not self._right(pin):
                self._missed(strikes, now)
            del self._strikes[guesser]  # not locked out: a right PIN clears its strikes
            if isinstance(before, str):
                self._signed_in.pop(before, None)  # a phone signing in again keeps one id
            signed_in = secrets.token_urlsafe(18)
            _remember(self._signed_in, signed_in)
            if not known:
                proved = secrets.token_urlsafe(18)
            assert isinstance(proved, str)
            _remember(self._proved, proved)
        session["auth"] = signed_in
        session["proved"] = proved

    def logout(self) -> None:
        """End this session on the box: its cookie no longer signs it in."""
        signed_in = session.pop("auth", None)
        with self._lock:
            if isinstance(signed_in, str):
                self._signed_in.pop(signed_in, None)

    def _missed(self, strikes: _Strikes, now: float) -> None:
        """Count a bad PIN and raise: wrong, or (past the limit) locked out."""
        strikes.count += 1
        self._misses.append(now)
        everywhere = (
            len(self._misses) == self._misses.maxlen and now - self._misses[0] < self._lock_seconds
        )
        if strikes.count >= (1 if everywhere else self._attempts):
            strikes.count = 0
            wait = backoff(strikes.lockouts + 1, self._lock_seconds, LONGEST_LOCKOUT)
            strikes.lockouts += 1
            strikes.locked_until = now + wait
            raise AccessDenied("web.error_locked", 429, retry_after=int(wait + 0.999))
        raise AccessDenied("web.error_pin_wrong", 403)

    def _strike_of(self, guesser: str, now: float) -> _Strikes:
        if guesser not in self._strikes and len(self._strikes) >= KEEP_ADDRESSES:
            # Many addresses (an attacker changing its own): forget those not locked out,
            # then those whose lock-out ends first.
            kept = {a: s for a, s in self._strikes.items() if s.locked_until > now}
            if len(kept) >= KEEP_ADDRESSES:
                latest = sorted(kept.items(), key=lambda item: item[1].locked_until)
                kept = dict(latest[len(kept) - KEEP_ADDRESSES + 1 :])
            self._strikes = kept
        return self._strikes.setdefault(guesser, _Strikes())

    def _right(self, pin: str) -> bool:
        # Compare digests of equal length: compare_digest is constant-time for equal sizes.
        return not self._pin or hmac.compare_digest(_digest(pin.encode()), _digest(self._pin))


def _remember(kept: OrderedDict[str, None], key: str) -> None:
    kept[key] = None
    kept.move_to_end(key)
    while len(kept) > KEEP_SESSIONS:
        kept.popitem(last=False)


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
