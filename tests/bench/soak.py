"""A whole evening squeezed into minutes, on loopback: ``make soak``.

The real daemon runs in its own process (``uno-companion run --backend mock``: gpiozero's mock
pins, the real hub, engine, score database, waitress page and voice). Speech is the real
pyttsx3/espeak-ng engine played to ALSA's ``null`` device. Around it:

- 6 players at the table; 20 phones each holding a live event stream;
- one phone pressing HIT 20 times a second (reloading when the magazine runs low);
- a round recorded every few seconds, games played to 500 and started again;

Printed at the end: the daemon's memory growth after warm-up (goal < 5 %), table events and
score rounds lost or doubled (goal 0), phones left behind, and p99 latencies (press answer,
round answer, a change reaching every phone's stream). ``SOAK_SECONDS`` sets the length
(default 180); it stops by itself.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SECONDS = float(os.environ.get("SOAK_SECONDS", "180"))
WARM_UP = 0.25  # share of the run before memory is taken as the baseline
PHONES = int(os.environ.get("SOAK_PHONES", "20"))
VOICE = os.environ.get("SOAK_VOICE", "1") != "0"
PRESSES_PER_SECOND = 20
PLAYERS = ["Alice", "Bruno", "Chloé", "David", "Émile", "Fatou"]
CONFIG = """
[table]
players = ["Alice", "Bruno", "Chloé", "David", "Émile", "Fatou"]
language = "fr"

[launcher]
magazine = 200

[hardware]
backend = "mock"
debounce_ms = 2

[speech]
audio_device = "null"

[web]
threads = 32
remote_press = true
per_client_connections = 200
streams_per_client = 64  # every phone of the soak is on 127.0.0.1
requests_per_client = 64
keepalive_seconds = 5.0
"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Phone:
    """One phone's HTTP session: cookie, CSRF token, keep-alive connection."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.conn.request("GET", "/api/session")
        response = self.conn.getresponse()
        self.cookie = (response.getheader("Set-Cookie") or "").split(";")[0]
        self.csrf = json.loads(response.read())["csrf"]

    def act(self, name: str, payload: dict[str, Any]) -> tuple[int, dict[str, Any], float]:
        return self.send(name, json.dumps({"payload": payload}))

    def send(self, name: str, body: str) -> tuple[int, dict[str, Any], float]:
        """An action whose body (``{"payload": ...}``) is encoded already: the time is the
        box's, from the first byte sent to the answer read."""
        headers = {
            "Content-Type": "application/json",
            "X-CSRF-Token": self.csrf,
            "Cookie": self.cookie,
        }
        started = time.monotonic()
        try:
            self.conn.request("POST", f"/api/actions/{name}", body, headers)
            response = self.conn.getresponse()
            data = json.loads(response.read() or b"{}")
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
            return 0, {}, time.monotonic() - started
        return response.status, data, time.monotonic() - started

    def get(self, path: str) -> tuple[int, bytes, float]:
        """A read on this phone's connection: status, body, seconds."""
        started = time.monotonic()
        self.conn.request("GET", path, headers={"Cookie": self.cookie})
        response = self.conn.getresponse()
        return response.status, response.read(), time.monotonic() - started

    def state(self) -> dict[str, Any]:
        """The state, on a fresh connection (an idle one is closed by the box after 30 s)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request("GET", "/api/state")
            return dict(json.loads(conn.getresponse().read()))
        finally:
            conn.close()


@dataclass
class Watcher:
    """A phone holding the live stream: when it saw each revision first."""

    port: int
    seen: dict[int, float] = field(default_factory=dict)
    backwards: int = 0
    last: int = -1
    errors: int = 0

    def run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
                conn.request("GET", "/api/events")
                response = conn.getresponse()
                while not stop.is_set():
                    line = response.readline()
                    if not line:
                        break
                    if line.startswith(b"id: "):
                        revision = int(line[4:])
                        if revision < self.last:
                            self.backwards += 1
                        self.last = max(self.last, revision)
                        self.seen.setdefault(revision, time.monotonic())
                conn.close()
            except (OSError, http.client.HTTPException, ValueError):
                self.errors += 1
                time.sleep(0.5)


@dataclass
class Tally:
    table_acked: int = 0
    table_refused: int = 0
    rounds_acked: int = 0
    games: int = 0
    failures: int = 0
    press_latency: list[float] = field(default_factory=list)
    round_latency: list[float] = field(default_factory=list)
    acked_at: list[tuple[int, float]] = field(default_factory=list)  # (revision, when)


def press_loop(port: int, tally: Tally, stop: threading.Event) -> None:
    phone = Phone(port)
    period = 1 / PRESSES_PER_SECOND
    due = time.monotonic()
    presses = 0
    while not stop.is_set():
        due += period
        name, payload = "table.press", {}
        if presses % 40 == 0:
            name, payload = "table.reload", {"cards": 200}
        status, state, took = phone.act(name, payload)
        presses += 1
        if status == 200:
            tally.table_acked += 1
            if "revision" in state:  # else done, the table to follow on the streams
                tally.acked_at.append((state["revision"], time.monotonic()))
            if name == "table.press":
                tally.press_latency.append(took)
        elif 400 <= status < 500:
            tally.table_refused += 1
        else:
            tally.failures += 1
        time.sleep(max(0.0, due - time.monotonic()))


def round_loop(port: int, tally: Tally, stop: threading.Event, rng: random.Random) -> None:
    phone = Phone(port)
    while not stop.wait(rng.uniform(2.0, 4.0)):
        winner = rng.choice(PLAYERS)
        hands = {p: {"points": 0 if p == winner else rng.randint(0, 60)} for p in PLAYERS}
        status, state, took = phone.act("score.record_round", {"hands": hands, "winner": winner})
        if status == 200:
            tally.rounds_acked += 1
            tally.round_latency.append(took)
            if "revision" in state:  # else done, the table to follow on the streams
                tally.acked_at.append((state["revision"], time.monotonic()))
            standings = (state.get("score") or {}).get("standings") or {}
            if standings.get("finished"):  # someone reached 500: the next game
                tally.games += 1
                phone.act("score.new_game", {"ruleset": "extreme", "target": 500})
        else:
            tally.failures += 1
        start = phone.act("table.start_round", {})
        if start[0] == 200:
            tally.table_acked += 1


def start_daemon(folder: Path, config: str, *args: str) -> tuple[subprocess.Popen[str], int]:
    """``uno-companion run`` on mock pins in its own process, on a free loopback port, with
    ``config`` as its configuration file; returns once it says the table is ready."""
    port = free_port()
    path = folder / "config.toml"
    path.write_text(config, encoding="utf-8")
    daemon = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--backend", "mock", "--config", str(path),
         "--state-dir", str(folder / "state"), "--host", "127.0.0.1", "--port", str(port),
         "--seed", "7", *args],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    assert daemon.stdout is not None
    for line in daemon.stdout:
        if "table ready at" in line:
            break
    else:
        stop_daemon(daemon)
        raise SystemExit("the daemon did not start")
    threading.Thread(target=lambda: [None for _ in daemon.stdout or ()], daemon=True).start()
    return daemon, port


def stop_daemon(daemon: subprocess.Popen[str]) -> str:
    """Stop the daemon as systemd does (SIGTERM; killed after 30 s); what it printed last."""
    daemon.send_signal(signal.SIGTERM)
    try:
        out, _ = daemon.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        daemon.kill()
        out, _ = daemon.communicate()
    return out or ""


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        daemon, port = start_daemon(Path(tmp), CONFIG, *([] if VOICE else ["--no-voice"]))
        try:
            soak(daemon, port)
        finally:
            out = stop_daemon(daemon)
            print(f"daemon stopped with code {daemon.returncode}")
            if "Traceback" in out:
                print(out[-3000:])


def soak(daemon: subprocess.Popen[str], port: int) -> None:
    setup = Phone(port)
    assert setup.act("table.setup", {"players": PLAYERS})[0] == 200
    assert setup.act("score.new_game", {"ruleset": "extreme", "target": 500})[0] == 200
    setup.act("table.start_round", {})
    start_state = setup.state()
    events_before = start_state["table"]["events"]
    rounds_before = (start_state.get("score") or {}).get("revision", 0)

    stop = threading.Event()
    watchers = [Watcher(port) for _ in range(PHONES)]
    tally = Tally()
    threads = [threading.Thread(target=w.run, args=(stop,), daemon=True) for w in watchers]
    threads.append(threading.Thread(target=press_loop, args=(port, tally, stop), daemon=True))
    threads.append(
        threading.Thread(target=round_loop, args=(port, tally, stop, random.Random(5)), daemon=True)
    )
    for thread in threads:
        thread.start()
    print(
        f"soak: {SECONDS:.0f} s, {len(PLAYERS)} players, {PHONES} phones streaming, HIT at "
        f"{PRESSES_PER_SECOND}/s, speech on (pyttsx3 + espeak-ng to ALSA 'null'), rounds to 500",
        flush=True,
    )
    started = time.monotonic()
    memory: list[tuple[float, int]] = []
    queued: list[int] = []
    while (elapsed := time.monotonic() - started) < SECONDS:
        memory.append((elapsed, rss_kb(daemon.pid)))
        queued.append(int((setup.state().get("device") or {}).get("queued", 0)))
        time.sleep(1.0)
    stop.set()
    for thread in threads[PHONES:]:
        thread.join(timeout=15)
    final = setup.state()
    deadline = time.monotonic() + 15  # let the last changes reach every stream
    while time.monotonic() < deadline and any(w.last < final["revision"] for w in watchers):
        time.sleep(0.2)
    report(tally, watchers, memory, final, events_before, rounds_before)
    print(
        f"launcher: at most {max(queued)} movements queued (bound 16 + the one running); "
        f"{(final.get('device') or {}).get('cards_fired')} cards fired; storage ok: "
        f"{(final.get('storage') or {}).get('ok')}"
    )


def report(
    tally: Tally,
    watchers: list[Watcher],
    memory: list[tuple[float, int]],
    final: dict[str, Any],
    events_before: int,
    rounds_before: int,
) -> None:
    warm = [kb for t, kb in memory if t >= SECONDS * WARM_UP]
    baseline, end = warm[0], warm[-1]
    peak = max(kb for _, kb in memory)
    events = final["table"]["events"] - events_before
    score = final.get("score") or {}
    games = score.get("games") or []
    stored_rounds = sum(g.get("revision", 0) for g in games) - rounds_before
    delivery = []
    for revision, acked in tally.acked_at:
        for watcher in watchers:
            seen = [t for r, t in watcher.seen.items() if r >= revision]
            if seen:
                delivery.append(max(0.0, min(seen) - acked))
    behind = sum(1 for w in watchers if w.last < final["revision"])
    print(
        f"memory (daemon RSS): {baseline / 1024:.1f} MB after warm-up → {end / 1024:.1f} MB at "
        f"the end: {100 * (end - baseline) / baseline:+.1f} % (peak {peak / 1024:.1f} MB)"
    )
    # Still climbing at the end, or levelled off? The curve by tenths of the run, and the last
    # third's growth on its own.
    tenths = [kb for i, (_, kb) in enumerate(memory) if i % max(1, len(memory) // 10) == 0]
    last_third = [kb for t, kb in memory if t >= SECONDS * 2 / 3]
    print(
        "memory by tenths of the run: "
        + " ".join(f"{kb / 1024:.1f}" for kb in [*tenths, end])
        + f" MB; over the last third {100 * (end - last_third[0]) / last_third[0]:+.1f} %"
    )
    print(
        f"table events: {tally.table_acked} acknowledged, {events} handled → "
        f"lost {max(0, tally.table_acked - events)}, doubled {max(0, events - tally.table_acked)}"
        f" ({tally.table_refused} refused by the rules, as they should be)"
    )
    print(
        f"score rounds: {tally.rounds_acked} acknowledged, {stored_rounds} stored → "
        f"lost {max(0, tally.rounds_acked - stored_rounds)}, "
        f"doubled {max(0, stored_rounds - tally.rounds_acked)}; {tally.games} games reached 500"
    )
    print(
        f"streams: {PHONES} phones, {behind} behind the final revision 15 s after the end, "
        f"{sum(w.backwards for w in watchers)} revisions out of order, "
        f"{sum(w.errors for w in watchers)} reconnections; {tally.failures} server failures"
    )
    print(
        f"p99 latency: press answer {percentile(tally.press_latency, 0.99) * 1e3:.1f} ms "
        f"(p50 {percentile(tally.press_latency, 0.5) * 1e3:.1f}), round answer "
        f"{percentile(tally.round_latency, 0.99) * 1e3:.1f} ms, change → phone stream "
        f"{percentile(delivery, 0.99) * 1e3:.1f} ms over {len(delivery)} deliveries"
    )


if __name__ == "__main__":
    main()
