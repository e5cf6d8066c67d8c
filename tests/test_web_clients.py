"""No client holds the others: slow readers, dribbled headers, hoarded connections and one
address's pile of slow requests each leave a new phone served (the real waitress server on
loopback; each attacker has an address of its own on 127.0.0.0/8)."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from companion.app.hub import Hub
from companion.core.table import TableEngine
from companion.i18n import Catalog
from companion.web import WebConfig, WebServer, create_app, serve
from companion.web.server import OUTPUT_BUFFER
from tests.test_web_api import PLAYERS, make_hub

GUARD = 20.0  # seconds: a test waiting longer has failed (never a measure of speed)


def served_with(hub: Hub, **web: Any) -> WebServer:
    config = WebConfig(host="127.0.0.1", port=0, threads=6, keepalive_seconds=30, **web)
    return serve(create_app(hub, config, Catalog.load()), config)


@pytest.fixture
def hub() -> Iterator[Hub]:
    hub = make_hub()
    with hub.running():
        yield hub


def connect(port: int, source: str, receive_buffer: int | None = None) -> socket.socket:
    sock = socket.socket()
    if receive_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.bind((source, 0))
    sock.settimeout(GUARD)
    sock.connect(("127.0.0.1", port))
    return sock


def ask(port: int, source: str, method: str = "GET", path: str = "/api/state") -> int:
    """A new phone's request on a new connection from ``source``: the answer's status."""
    body = b'{"payload": {}}' if method == "POST" else b""
    with connect(port, source) as sock:
        sock.sendall(
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    return int(received.split()[1])


def until(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + GUARD
    while not condition():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.02)


def channels_of(server: WebServer, source: str) -> list[Any]:
    active = server.channels
    return [c for c in list(active.values()) if c.addr[0] == source]


def test_phones_that_never_read_their_answers_leave_the_threads_to_a_new_phone(
    hub: Hub,
) -> None:
    server = served_with(hub)
    port = server.port
    # Each asks for the API's description (155 KB) 40 times in a row and reads none of it: far
    # more than the kernel's buffers take, so the box holds the rest, one thread per connection.
    asks = b"GET /api/openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 40
    readers = [connect(port, "127.0.0.2", receive_buffer=4096) for _ in range(6)]  # = threads
    try:
        for sock in readers:
            sock.sendall(asks)
        until(
            lambda: (
                len(held := channels_of(server, "127.0.0.2")) == 6
                and all(c.total_outbufs_len > OUTPUT_BUFFER and len(c.requests) > 1 for c in held)
            )
        )
        assert ask(port, "127.0.0.3") == 200
        assert ask(port, "127.0.0.3", "POST", "/api/actions/table.press") in (200, 403)
        # (403: a press needs the session's token; what matters is that it was answered.)
    finally:
        for sock in readers:
            sock.close()
        server.stop()


def test_headers_sent_a_line_at_a_time_are_cut_off() -> None:
    hub = make_hub()
    with hub.running():
        server = served_with(hub, header_seconds=1)
        try:
            sock = connect(server.port, "127.0.0.4")
            sock.settimeout(0.2)
            sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            closed, lines = False, 0
            deadline = time.monotonic() + GUARD
            while not closed and time.monotonic() < deadline:
                try:
                    sock.sendall(f"X-Slow-{lines}: x\r\n".encode())  # never idle
                    lines += 1
                    closed = sock.recv(1024) == b""
                except TimeoutError:
                    continue
                except OSError:  # reset: closed too
                    closed = True
            sock.close()
            assert closed, "a request whose headers never end was kept open"
            assert ask(server.port, "127.0.0.4") == 200  # a request on time still is served
        finally:
            server.stop()


def test_at_the_connection_limit_a_new_phone_still_gets_in(hub: Hub) -> None:
    server = served_with(hub, connection_limit=20, per_client_connections=8)
    hoard = []
    try:
        for address in range(5, 9):  # 4 addresses × 8 idle connections: 32, over the 20
            for _ in range(8):
                hoard.append(connect(server.port, f"127.0.0.{address}"))
        assert ask(server.port, "127.0.0.9") == 200
        active = server.channels
        until(lambda: len(active) <= 21)  # the box made room, from the hoarders
    finally:
        for sock in hoard:
            sock.close()
        server.stop()


def test_one_address_running_many_slow_requests_leaves_threads_for_the_others() -> None:
    hub = Hub(TableEngine(PLAYERS, seed=1), dispatch_timeout=GUARD * 2)
    release = threading.Event()
    with hub.running():
        server = served_with(hub, streams_per_client=1, requests_per_client=2)
        piled: list[socket.socket] = []
        try:
            hub.call(lambda: hub.changed("device")).result(GUARD)  # no state kept: ask the hub
            hub.call(lambda: release.wait(GUARD * 2))  # which is busy for a long while
            for _ in range(6):  # as many as threads: each waits for the busy hub
                sock = connect(server.port, "127.0.0.2")
                sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                piled.append(sock)
            until(lambda: len(channels_of(server, "127.0.0.2")) == 6)
            assert ask(server.port, "127.0.0.3", path="/api/cards") == 200
            assert not release.is_set()  # answered while the hub still held the others
        finally:
            release.set()
            for sock in piled:
                sock.close()
            server.stop()


def test_the_api_description_is_made_once_and_sent_gzipped_and_cached(hub: Hub) -> None:
    client = create_app(hub, WebConfig(), Catalog.load()).test_client()
    first = client.get("/api/openapi.json", headers={"Accept-Encoding": "gzip"})
    assert first.headers["Content-Encoding"] == "gzip"
    assert len(first.data) < OUTPUT_BUFFER  # fits in one connection's output buffer
    plain = client.get("/api/openapi.json")
    assert json.loads(plain.data)["openapi"].startswith("3.1")
    again = client.get(
        "/api/openapi.json",
        headers={"If-None-Match": first.headers["ETag"], "Accept-Encoding": "gzip"},
    )
    assert again.status_code == 304


def test_a_live_stream_its_phone_never_reads_gives_its_thread_back(hub: Hub) -> None:
    server = served_with(hub, idle_seconds=5)
    context = server.app.extensions["uno_web"]
    hub.register_status("padding", lambda: {"text": "x" * 100_000})  # a 100 KB state
    slow = connect(server.port, "127.0.0.2", receive_buffer=4096)
    try:
        slow.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")  # never read
        until(lambda: context.streams == 1)

        # Changes until the stream's thread waits for the phone: over the output buffer with
        # nothing sent for a second (the kernel's buffers are full). The phone reads nothing,
        # and the box gives up on it.
        def blocked() -> bool:
            hub.call(lambda: hub.changed("device")).result(GUARD)
            channel = channels_of(server, "127.0.0.2")[0]
            return bool(
                channel.total_outbufs_len > OUTPUT_BUFFER
                and channel.last_activity < time.time() - 1
            )

        until(blocked)
        until(lambda: context.streams == 0)
        assert ask(server.port, "127.0.0.3") == 200
    finally:
        slow.close()
        server.stop()
