"""The phone page served by waitress for real: live event stream, keep-alives, stream limit,
a write through real HTTP with cookie + CSRF token + Origin, and a clean stop."""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from companion.app.hub import Hub
from companion.i18n import Catalog
from companion.web import WebConfig, WebServer, create_app, serve
from tests.helpers import wait_for
from tests.test_web_api import make_hub


class EventStream:
    """A minimal Server-Sent Events reader over http.client."""

    def __init__(self, port: int, timeout: float = 5.0) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        # As a phone asks: gzip accepted (the stream must still come plain, state by state).
        self.conn.request(
            "GET",
            "/api/events",
            headers={"Accept": "text/event-stream", "Accept-Encoding": "gzip, deflate, br"},
        )
        self.response = self.conn.getresponse()

    def next(self) -> dict[str, Any]:
        """The next event or comment: ``{"comment": ...}`` or ``{"event", "data", "id"}``."""
        fields: dict[str, Any] = {}
        while True:
            line = self.response.readline().decode()
            if line == "":
                raise EOFError("stream closed")
            line = line.rstrip("\n")
            if not line:
                if fields:
                    return fields
                continue
            if line.startswith(":"):
                return {"comment": line[1:].strip()}
            name, _, value = line.partition(":")
            fields[name] = value.strip()

    def next_state(self) -> dict[str, Any]:
        while True:
            item = self.next()
            if item.get("event") == "state":
                return dict(json.loads(item["data"]))

    def close(self) -> None:
        self.response.close()  # the response holds the socket too
        self.conn.close()


@pytest.fixture
def running() -> Iterator[tuple[Hub, WebServer]]:
    hub = make_hub()
    hub.start()
    config = WebConfig(host="127.0.0.1", port=0, threads=6, keepalive_seconds=0.2)
    server = serve(create_app(hub, config, Catalog.load()), config)
    try:
        yield hub, server
    finally:
        server.stop()
        hub.stop()


def test_a_change_reaches_the_stream_with_its_revision(running: tuple[Hub, WebServer]) -> None:
    hub, server = running
    stream = EventStream(server.port)
    assert stream.response.status == 200
    assert stream.response.getheader("Content-Type", "").startswith("text/event-stream")
    assert stream.response.getheader("Content-Encoding") is None
    assert stream.next() == {"retry": "3000"}
    first = stream.next_state()
    assert first["revision"] == hub.revision and "pin" not in first["settings"]
    hub.dispatch("table.play", {"card": "skip"})
    second = stream.next_state()
    assert second["revision"] == first["revision"] + 1
    assert second["table"]["last_card"]["card"] == "skip"
    stream.close()


def test_a_quiet_stream_gets_keep_alive_comments(running: tuple[Hub, WebServer]) -> None:
    _, server = running
    stream = EventStream(server.port)
    stream.next_state()
    started = time.monotonic()
    assert stream.next() == {"comment": "keep-alive"}
    assert time.monotonic() - started < 3
    stream.close()


def test_streams_beyond_the_thread_budget_are_refused(running: tuple[Hub, WebServer]) -> None:
    _, server = running
    streams = [EventStream(server.port) for _ in range(2)]  # 6 threads - 4 kept for requests
    for s in streams:
        s.next_state()
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    conn.request("GET", "/api/events")
    refused = conn.getresponse()
    assert refused.status == 503 and refused.getheader("Retry-After") == "10"
    assert json.loads(refused.read())["error"]["key"] == "web.error_busy"
    conn.request("GET", "/api/state")  # ordinary requests still get a thread
    assert conn.getresponse().status == 200
    conn.close()
    streams[0].close()

    def slot_free() -> bool:  # the closed stream's slot comes back (at its keep-alive write)
        probe = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        probe.request("GET", "/api/events")
        status = probe.getresponse().status
        probe.close()
        return status == 200

    wait_for(slot_free, timeout=5, what="the slot of a closed stream to be freed")
    streams[1].close()


def test_a_write_over_http_needs_cookie_token_and_same_origin(
    running: tuple[Hub, WebServer],
) -> None:
    hub, server = running
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    conn.request("GET", "/api/session")
    response = conn.getresponse()
    token = json.loads(response.read())["csrf"]
    cookie = response.getheader("Set-Cookie", "")
    assert "SameSite=Strict" in cookie and "HttpOnly" in cookie
    origin = f"http://127.0.0.1:{server.port}"
    body = json.dumps({"payload": {"card": "reverse"}, "revision": hub.revision})

    def post(headers: dict[str, str]) -> http.client.HTTPResponse:
        conn.request(
            "POST",
            "/api/actions/table.play",
            body=body,
            headers={"Content-Type": "application/json", **headers},
        )
        answer = conn.getresponse()
        answer.read()
        return answer

    session = cookie.split(";")[0]
    before = hub.revision
    assert (
        post({"Cookie": session, "Origin": "http://evil.example", "X-CSRF-Token": token}).status
        == 403
    )
    assert post({"Cookie": session, "Origin": origin}).status == 403
    assert post({"Origin": origin, "X-CSRF-Token": token}).status == 403  # no cookie
    assert hub.revision == before
    assert post({"Cookie": session, "Origin": origin, "X-CSRF-Token": token}).status == 200
    assert hub.revision == before + 1
    conn.close()


def test_stop_ends_open_streams_promptly() -> None:
    hub = make_hub()
    hub.start()
    config = WebConfig(host="127.0.0.1", port=0, threads=6, keepalive_seconds=30)
    server = serve(create_app(hub, config, Catalog.load()), config)
    stream = EventStream(server.port)
    stream.next_state()
    started = time.monotonic()
    server.stop()
    hub.stop()
    assert time.monotonic() - started < 4
    with pytest.raises((EOFError, OSError, http.client.HTTPException)):
        while True:
            stream.next()
    stream.close()
