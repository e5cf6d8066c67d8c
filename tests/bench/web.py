"""Phone page figures (``make bench`` / ``python -m tests.bench web``), on loopback only.

1. Requests per second and latency (p50, p99) of ``GET /api/state`` with 20 concurrent clients
   while 20 event streams are open, on the real daemon in simulation; next to a bare Flask
   "hello" app served the same way (same waitress settings) in the same run.
2. Time from an action (``POST /api/actions/...``) to its event arriving on each of 20 streams.
3. Bytes a phone downloads on first load, counted by Chromium itself (Playwright), and whether
   anything came from another host (a CDN).

Every loop is bounded; the script stops by itself in well under a minute.
"""

from __future__ import annotations

import http.client
import json
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from flask import Flask

from companion.config import Config
from companion.daemon import Daemon, DaemonOptions
from companion.web import WebConfig, serve
from tests.browser import until_in_page

CLIENTS = 20
STREAMS = 20
LOAD_SECONDS = 3.0
ACTIONS = 30
THREADS = CLIENTS + STREAMS + 8  # phones + 4 and some: every stream holds a thread
# Every simulated phone connects from 127.0.0.1: allow them all from that one address.
WEB = {
    "threads": THREADS,
    "per_client_connections": THREADS + 8,
    "streams_per_client": STREAMS,
    "requests_per_client": CLIENTS + 8,
}


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class StreamReader(threading.Thread):
    """Reads one event stream; records when each revision arrived."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.conn.request("GET", "/api/events")
        self.response = self.conn.getresponse()
        self.arrivals: dict[int, float] = {}
        self.ready = threading.Event()
        self.start()

    def run(self) -> None:
        try:
            while True:
                line = self.response.readline()
                if not line:
                    return
                if line.startswith(b"id: "):
                    self.arrivals[int(line[4:])] = time.perf_counter()
                    self.ready.set()
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            return  # closed by close(): the response's file is gone

    def close(self) -> None:
        self.response.close()
        self.conn.close()


def load(port: int, path: str) -> tuple[float, list[float]]:
    """``CLIENTS`` threads GET ``path`` on kept-alive connections for ``LOAD_SECONDS``."""
    latencies: list[list[float]] = [[] for _ in range(CLIENTS)]
    start = threading.Barrier(CLIENTS + 1)
    stop_at: list[float] = []

    def client(index: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        start.wait()
        while time.perf_counter() < stop_at[0]:
            began = time.perf_counter()
            conn.request("GET", path)
            response = conn.getresponse()
            response.read()
            latencies[index].append(time.perf_counter() - began)
        conn.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    stop_at.append(time.perf_counter() + LOAD_SECONDS)
    began = time.perf_counter()
    start.wait()
    for thread in threads:
        thread.join(LOAD_SECONDS + 15)
    elapsed = time.perf_counter() - began
    flat = [x for per in latencies for x in per]
    return len(flat) / elapsed, flat


def session(port: int) -> tuple[str, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/api/session")
    response = conn.getresponse()
    token = json.loads(response.read())["csrf"]
    cookie = response.getheader("Set-Cookie", "").split(";")[0]
    conn.close()
    return cookie, token


def action_to_event(port: int, readers: list[StreamReader]) -> list[float]:
    """Seconds from sending an action to its event on the slowest of the streams, per action."""
    cookie, token = session(port)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    delays = []
    for i in range(ACTIONS):
        body = json.dumps({"payload": {"player": "Alice", "cards": 3 + i % 2}})
        sent = time.perf_counter()
        conn.request(
            "POST",
            "/api/actions/table.set_hand",
            body=body,
            headers={
                "Content-Type": "application/json",
                "Cookie": cookie,
                "X-CSRF-Token": token,
                "Origin": f"http://127.0.0.1:{port}",
            },
        )
        response = conn.getresponse()
        revision = json.loads(response.read())["revision"]
        deadline = time.perf_counter() + 5
        while time.perf_counter() < deadline and not all(revision in r.arrivals for r in readers):
            time.sleep(0.0005)
        arrived = [r.arrivals[revision] for r in readers if revision in r.arrivals]
        if len(arrived) == len(readers):
            delays.append(max(arrived) - sent)
    conn.close()
    return delays


def first_load(url: str) -> dict[str, Any]:
    """What Chromium downloads to show the page (the event stream's first state included)."""
    from playwright.sync_api import sync_playwright

    from tests.helpers import CHROMIUM, CHROMIUM_FLAGS

    finished: list[Any] = []
    hosts: set[str] = set()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS
        )
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()

        def on_finished(request: Any) -> None:
            finished.append(request)

        page.on("requestfinished", on_finished)
        page.on("request", lambda request: hosts.add(request.url.split("/")[2]))
        page.goto(url)
        page.wait_for_selector("#live.on", timeout=10_000)
        page.click("#tab-device")  # the QR code is on this screen
        until_in_page(page, "document.getElementById('qr').complete")
        page.wait_for_timeout(300)
        loaded = list(finished)  # what the page loaded (the stream never finishes: below)
        stream_bytes = len(page.evaluate("fetch('/api/state').then(r => r.text())").encode())
        page.remove_listener("requestfinished", on_finished)
        # Sizes asked while the page is open (asked during its close, they would fail).
        sizes = [r.sizes() for r in loaded]
        browser.close()
    total = sum(s["responseBodySize"] + s["responseHeadersSize"] for s in sizes) + stream_bytes
    return {"total": total, "files": len({r.url for r in loaded}) + 1, "hosts": sorted(hosts)}


def main() -> None:
    with tempfile.TemporaryDirectory() as state_dir:
        config = Config(web=WebConfig(**WEB))
        options = DaemonOptions(
            simulate=True, state_dir=Path(state_dir), seed=1, host="127.0.0.1", port=0, voice=False
        )
        daemon = Daemon(config, options).start()
        hello = Flask("hello")
        hello.add_url_rule("/", "hello", lambda: "hello")
        hello_server = serve(hello, WebConfig(host="127.0.0.1", port=0, **WEB))
        try:
            port = daemon.web_server.port
            readers = [StreamReader(port) for _ in range(STREAMS)]
            for reader in readers:
                reader.ready.wait(5)
            open_streams = sum(r.ready.is_set() for r in readers)
            state_rps, state_lat = load(port, "/api/state")
            hello_rps, hello_lat = load(hello_server.port, "/")
            delays = action_to_event(port, readers)
            for reader in readers:
                reader.close()
            loaded = first_load(daemon.url or "")
            state_size = len(json.dumps(daemon.hub.state()).encode())
        finally:
            hello_server.stop()
            daemon.stop()
    print(
        f"open event streams during the load: {open_streams}/{STREAMS}; "
        f"{CLIENTS} clients; waitress threads {THREADS}"
    )
    for name, rps, lat in (
        ("GET /api/state", state_rps, state_lat),
        ("bare Flask hello", hello_rps, hello_lat),
    ):
        print(
            f"{name:18s} {rps:8.0f} req/s  p50 {percentile(lat, 0.5) * 1000:6.1f} ms  "
            f"p99 {percentile(lat, 0.99) * 1000:6.1f} ms  ({len(lat)} requests)"
        )
    if delays:
        print(
            f"action -> event on all {STREAMS} streams: median "
            f"{statistics.median(delays) * 1000:.1f} ms, p99 {percentile(delays, 0.99) * 1000:.1f}"
            f" ms, max {max(delays) * 1000:.1f} ms ({len(delays)}/{ACTIONS} actions)"
        )
    else:
        print("action -> event: no action reached every stream")
    print(
        f"first load: {loaded['total'] / 1024:.1f} KB in {loaded['files']} responses "
        f"(goal < 150 KB; state alone {state_size / 1024:.1f} KB); "
        f"hosts contacted: {', '.join(loaded['hosts'])}"
    )


if __name__ == "__main__":
    main()
