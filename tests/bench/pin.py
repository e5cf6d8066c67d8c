"""PIN guessing figures (``make bench ARGS=pin``), on loopback only.

1. Guesses an hour: one address retrying as soon as ``Retry-After`` allows, and a guesser that
   changes its address (a whole /24, 254 addresses), both on a simulated clock (a day of it).
2. The right PIN's wait while 40 addresses guess as fast as they can and 10 hold live streams:
   the real app under waitress, each phone connecting from its own 127.0.0.x address; next to
   a logged-in phone's ``GET /api/state`` in the same run.

Every loop is bounded; the script stops by itself in well under a minute.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from typing import Any

from flask import Flask

from companion.app.hub import Hub
from companion.config import Config
from companion.daemon import table_engine
from companion.i18n import Catalog
from companion.web import WebConfig, create_app, serve
from companion.web.security import AccessDenied, Guard

PIN = "2468"
GUESSERS = 40
STREAMS = 10
LOAD_SECONDS = 4.0
HOUR = 3600.0


class SimulatedClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def guesses_per_hour(addresses: int, hours: int) -> list[int]:
    """Guesses checked in each hour of ``hours`` when ``addresses`` take turns, each retrying
    when its ``Retry-After`` ends (the guard alone: the web layer adds nothing to the count)."""
    clock = SimulatedClock()
    guard = Guard(WebConfig(pin=PIN), clock)
    ready_at = [0.0] * addresses
    per_hour = [0] * hours
    app = Flask("bench")
    app.secret_key = b"bench"
    with app.test_request_context():
        while clock.now < hours * HOUR:
            index = min(range(addresses), key=ready_at.__getitem__)
            clock.now = max(clock.now, ready_at[index])
            if clock.now >= hours * HOUR:
                break
            try:
                guard.login(f"10.0.0.{index + 1}", "0000")
            except AccessDenied as refused:
                if refused.key != "web.error_pin_wrong":
                    ready_at[index] = clock.now + (refused.retry_after or 1)
            per_hour[int(clock.now // HOUR)] += 1
            clock.now += 0.01  # a request's round trip
    return per_hour


def request(
    source: str, port: int, method: str, path: str, body: Any = None, headers: Any = None
) -> tuple[int, Any, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    try:
        data = None if body is None else json.dumps(body)
        conn.request(method, path, body=data, headers=headers or {})
        response = conn.getresponse()
        payload = response.read()
        return response.status, json.loads(payload or b"null"), response.getheader("Set-Cookie", "")
    finally:
        conn.close()


def sign_in(source: str, port: int, pin: str) -> tuple[int, dict[str, str]]:
    """A fresh phone at ``source`` enters ``pin``: the status and its headers afterwards."""
    _, session, cookie = request(source, port, "GET", "/api/session")
    headers = {
        "Cookie": cookie.split(";")[0],
        "X-CSRF-Token": session["csrf"],
        "Content-Type": "application/json",
    }
    status, _, cookie = request(source, port, "POST", "/api/login", {"pin": pin}, headers)
    if cookie:
        headers["Cookie"] = cookie.split(";")[0]
    return status, headers


def live(port: int) -> dict[str, Any]:
    """Right-PIN logins and a logged-in phone's reads while guessers and streams load the box."""
    stop = threading.Event()
    counts = {"guesses": 0, "refused_at_once": 0}
    lock = threading.Lock()

    def guesser(index: int) -> None:
        source = f"127.0.0.{10 + index}"
        while not stop.is_set():
            status, _ = sign_in(source, port, f"{index:04d}")
            with lock:
                counts["guesses"] += 1
                counts["refused_at_once"] += status == 429

    streams = []
    for index in range(STREAMS):
        conn = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=30, source_address=(f"127.0.1.{index + 1}", 0)
        )
        conn.request("GET", "/api/events")
        streams.append((conn, conn.getresponse()))
    threads = [threading.Thread(target=guesser, args=(i,), daemon=True) for i in range(GUESSERS)]
    for thread in threads:
        thread.start()
    logins: list[float] = []
    reads: list[float] = []
    statuses: set[int] = set()
    began = time.perf_counter()
    while time.perf_counter() - began < LOAD_SECONDS:
        started = time.perf_counter()
        status, headers = sign_in(f"127.0.2.{len(logins) % 200 + 1}", port, PIN)
        logins.append(time.perf_counter() - started)
        statuses.add(status)
        started = time.perf_counter()
        status, _, _ = request("127.0.2.250", port, "GET", "/api/state", headers=headers)
        reads.append(time.perf_counter() - started)
        statuses.add(status)
    stop.set()
    for thread in threads:
        thread.join(30)
    for conn, response in streams:
        response.close()
        conn.close()
    return {"logins": logins, "reads": reads, "statuses": statuses, **counts}


def main() -> None:
    one = guesses_per_hour(1, 24)
    spread = guesses_per_hour(254, 24)
    print(
        f"one address, retrying at Retry-After: {one[0]} guesses in the first hour, "
        f"{sum(one[1:]) / 23:.1f}/hour after (a day: {sum(one)}; 4-digit PIN: half the space "
        f"in {5000 / (sum(one) / 24) / 24:.0f} days)"
    )
    print(
        f"254 addresses (a /24) taking turns: {spread[0]} guesses in the first hour, "
        f"{sum(spread[1:]) / 23:.0f}/hour after"
    )
    hub = Hub(table_engine(Config(), seed=7))
    config = WebConfig(host="127.0.0.1", port=0, pin=PIN)
    server = serve(create_app(hub, config, Catalog.load()), config)
    try:
        with hub.running():
            figures = live(server.port)
    finally:
        server.stop()
    logins, reads = sorted(figures["logins"]), sorted(figures["reads"])
    print(
        f"{GUESSERS} addresses guessing ({figures['guesses']} tries in {LOAD_SECONDS:.0f} s, "
        f"{figures['refused_at_once']} answered 429 at once), {STREAMS} live streams, "
        f"waitress threads {config.threads}:"
    )
    print(
        f"  right PIN from another address: {len(logins)} logins, median "
        f"{logins[len(logins) // 2] * 1000:.0f} ms, max {logins[-1] * 1000:.0f} ms; logged-in "
        f"GET /api/state median {reads[len(reads) // 2] * 1000:.0f} ms, max "
        f"{reads[-1] * 1000:.0f} ms; statuses {sorted(figures['statuses'])}"
    )


if __name__ == "__main__":
    main()
