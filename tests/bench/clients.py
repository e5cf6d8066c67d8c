"""Slow and hostile clients against a new phone (``make bench ARGS=clients``), loopback only.

The real daemon runs in its own process (``uno-companion run --backend mock``, the web server's
default limits). A new phone, each time from a new address (127.0.0.100 and up) on a new
connection, reads ``/api/state`` and presses HIT every quarter of a second through three phases:

1. **idle**;
2. **slow readers**: 32 connections from one address (127.0.0.2) each ask for
   ``/api/openapi.json`` (about 155 KB, over the 64 KB output buffer) 40 times in a row
   (pipelined: more than the kernel's send buffer holds) and never read;
3. **slowloris**: 510 connections from 17 addresses (127.0.0.10 to 127.0.0.26) each send a
   request line, then one header line every 5 s, never ending their headers; a connection the
   box closes is opened again at once.

Per phase it prints p50, p99 and the worst of each probe, and how many got no answer within
5 s; the daemon's memory after each phase; how often the box closed a dribbling connection.
Every loop is bounded: the whole run takes about a minute.
"""

from __future__ import annotations

import contextlib
import json
import socket
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from tests.bench.soak import rss_kb, start_daemon, stop_daemon

CONFIG = """
[table]
players = ["Alice", "Bruno", "Chloé"]
language = "fr"

[hardware]
backend = "mock"

[web]
remote_press = true
"""
PROBE_EVERY = 0.25  # seconds between two probes of the new phone
PROBE_TIMEOUT = 5.0
IDLE_SECONDS = 3.0
SLOW_READERS, PIPELINED = 32, 40
SLOW_SECONDS = 10.0
DRIBBLE_ADDRESSES, DRIBBLE_PER_ADDRESS = 17, 30
DRIBBLE_EVERY = 5.0
DRIBBLE_SECONDS = 30.0


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


def exchange(port: int, source: str, request: bytes) -> tuple[int, bytes, bytes]:
    """Send ``request`` from ``source`` on a new connection; its status, head and body."""
    with socket.socket() as sock:
        sock.settimeout(PROBE_TIMEOUT)
        sock.bind((source, 0))
        sock.connect(("127.0.0.1", port))
        sock.sendall(request)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    return int(head.split()[1]), head, body


class NewPhone:
    """A phone joining the table: its own address and session, then one probe of each."""

    def __init__(self, port: int, number: int) -> None:
        self.port = port
        self.source = f"127.0.0.{100 + number % 150}"
        _, head, body = exchange(port, self.source, self._get("/api/session"))
        self.csrf = json.loads(body)["csrf"]
        cookies = [
            line.split(b":", 1)[1].split(b";")[0].strip().decode()
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"set-cookie:")
        ]
        self.cookie = cookies[0] if cookies else ""

    def _get(self, path: str) -> bytes:
        return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode()

    def state(self) -> int:
        return exchange(self.port, self.source, self._get("/api/state"))[0]

    def hit(self) -> int:
        body = b'{"payload": {}}'
        request = (
            "POST /api/actions/table.press HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            f"X-CSRF-Token: {self.csrf}\r\nCookie: {self.cookie}\r\n\r\n"
        ).encode() + body
        return exchange(self.port, self.source, request)[0]


class Probes:
    """The new phone's ``/api/state`` and HIT latencies during one phase."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.state: list[float] = []
        self.hit: list[float] = []
        self.failed = {"state": 0, "hit": 0}
        self.refused: list[int] = []

    def run(self, port: int, seconds: float, first: int) -> None:
        end = time.monotonic() + seconds
        number = first
        while time.monotonic() < end:
            number += 1
            try:
                phone = NewPhone(port, number)
            except (OSError, ValueError, IndexError):
                self.failed["state"] += 1
                self.failed["hit"] += 1
                time.sleep(PROBE_EVERY)
                continue
            for kind, probe, times in (
                ("state", phone.state, self.state),
                ("hit", phone.hit, self.hit),
            ):
                began = time.perf_counter()
                try:
                    status = probe()
                except (OSError, ValueError, IndexError):
                    self.failed[kind] += 1
                    continue
                if status != 200:
                    self.refused.append(status)
                times.append(time.perf_counter() - began)
            time.sleep(PROBE_EVERY)

    def report(self, rss: int) -> str:
        lines = [f"{self.name}: the daemon's memory {rss / 1024:.0f} MB"]
        for kind, times in (("GET /api/state", self.state), ("HIT", self.hit)):
            failed = self.failed["state" if kind.startswith("GET") else "hit"]
            lines.append(
                f"  {kind:15s} p50 {percentile(times, 0.5) * 1000:7.1f} ms  p99 "
                f"{percentile(times, 0.99) * 1000:7.1f} ms  worst "
                f"{max(times, default=0) * 1000:7.1f} ms  answered {len(times)}, "
                f"no answer in {PROBE_TIMEOUT:.0f} s: {failed}"
            )
        if self.refused:
            lines.append(f"  refusals: {sorted(set(self.refused))}")
        return "\n".join(lines)


def slow_readers(port: int) -> list[socket.socket]:
    """``SLOW_READERS`` connections that ask for the API's description again and again and
    read none of it."""
    ask = b"GET /api/openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * PIPELINED
    readers = []
    for _ in range(SLOW_READERS):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.bind(("127.0.0.2", 0))
        sock.settimeout(PROBE_TIMEOUT)
        try:
            sock.connect(("127.0.0.1", port))
            sock.sendall(ask)
        except OSError:
            sock.close()
            continue
        readers.append(sock)
    return readers


class Dribblers:
    """``DRIBBLE_ADDRESSES`` × ``DRIBBLE_PER_ADDRESS`` connections sending their headers one
    line every ``DRIBBLE_EVERY`` s, opened again when the box closes one."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.sockets: list[tuple[str, socket.socket | None]] = [
            (f"127.0.0.{10 + a}", None)
            for a in range(DRIBBLE_ADDRESSES)
            for _ in range(DRIBBLE_PER_ADDRESS)
        ]
        self.opened = 0
        self.closed_by_box = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _open(self, source: str) -> socket.socket | None:
        sock = socket.socket()
        sock.setblocking(False)
        try:
            sock.bind((source, 0))
            sock.connect_ex(("127.0.0.1", self.port))
        except OSError:
            sock.close()
            return None
        self.opened += 1
        return sock

    def _run(self) -> None:
        line = 0
        while not self.stop.is_set():
            line += 1
            for index, (source, sock) in enumerate(self.sockets):
                if sock is not None and _closed(sock):
                    sock.close()
                    self.closed_by_box += 1
                    sock = None
                fresh = sock is None
                if fresh:
                    sock = self._open(source)
                if sock is None:
                    continue
                start = b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n" if fresh else b""
                with contextlib.suppress(OSError):  # not connected yet, or closed: next round
                    sock.send(start + f"X-Dribble-{line}: x\r\n".encode())
                self.sockets[index] = (source, sock)
            self.stop.wait(DRIBBLE_EVERY)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(DRIBBLE_EVERY + 5)
        for _, sock in self.sockets:
            if sock is not None:
                sock.close()


def _closed(sock: socket.socket) -> bool:
    try:
        return sock.recv(4096) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def phase(
    name: str, port: int, pid: int, seconds: float, first: int, during: Callable[[], None]
) -> Probes:
    probes = Probes(name)
    during()
    probes.run(port, seconds, first)
    print(probes.report(rss_kb(pid)), flush=True)
    return probes


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        daemon, port = start_daemon(Path(tmp), CONFIG, "--no-voice")
        try:
            phase("idle", port, daemon.pid, IDLE_SECONDS, 0, lambda: None)
            readers: list[socket.socket] = []
            phase(
                f"{SLOW_READERS} slow readers ({PIPELINED} x /api/openapi.json each)",
                port,
                daemon.pid,
                SLOW_SECONDS,
                1000,
                lambda: readers.extend(slow_readers(port)),
            )
            print(f"  slow readers connected: {len(readers)}")
            for sock in readers:
                sock.close()
            dribblers = Dribblers(port)
            try:
                phase(
                    f"slowloris: {DRIBBLE_ADDRESSES * DRIBBLE_PER_ADDRESS} connections from "
                    f"{DRIBBLE_ADDRESSES} addresses, a header line every {DRIBBLE_EVERY:.0f} s",
                    port,
                    daemon.pid,
                    DRIBBLE_SECONDS,
                    2000,
                    dribblers.thread.start,
                )
            finally:
                dribblers.close()
            print(
                f"  dribbling connections opened {dribblers.opened}, "
                f"closed by the box {dribblers.closed_by_box}"
            )
            phase("after", port, daemon.pid, IDLE_SECONDS, 3000, lambda: None)
        finally:
            out = stop_daemon(daemon)
            if "Traceback" in out:
                print(out[-3000:])


if __name__ == "__main__":
    main()
