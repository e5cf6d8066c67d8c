"""The largest game the box keeps never holds the table: its import, its use and a restart with it.

The real daemon runs in its own process (as in the soak: mock pins, waitress, SQLite), and a
phone presses HIT 20 times a second through the page's API. With the largest game the box keeps
(:data:`~companion.core.limits.MAX_GAME_ROUNDS` rounds, one line of JSON as a phone sends it):

- a press's answer time, p50/p95/p99, with nothing else going on (a small game open), and while
  another phone imports the game, opens it again, corrects an early round (every round after it
  replayed) and exports it (CSV, JSON, the chart), each again and again for 3 s; the goal: each
  p99 within twice the idle p99. Idle presses and busy ones take turns, three times, so both
  see the machine's load alike;
- the import's time, the daemon's resident memory before and at most (the goal: under 300 MB)
  and the reader process's at most (it reads the file, not the daemon);
- a file over the limit (``BENCH_IMPORT_OVER`` rounds, a 4 MB file): its refusal's time and the
  reader's memory, the daemon's unchanged;
- a restart with the game open: the time from the start of the process to the page answering
  (the goal: at most 5 s), and the daemon's memory then.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from companion.core.limits import MAX_GAME_ROUNDS
from companion.core.scoring import GameSetup, HandEntry, ScoreBook, builtin_ruleset
from companion.core.scoring.formats import game_to_json
from tests.bench.soak import Phone, percentile, rss_kb, start_daemon, stop_daemon

OVER = int(os.environ.get("BENCH_IMPORT_OVER", "26000"))
PLAYERS = ["Ana", "Bo", "Cy", "Di"]
PRESSES_PER_SECOND = 20
IDLE_PRESSES = 60  # before each busy spell
SPELL_S = 3.0  # a busy spell: its work again and again, this long at least
REPEATS = 3  # each busy spell, each after its idle presses
CONFIG = """
[table]
players = ["Ana", "Bo", "Cy", "Di"]

[launcher]
magazine = 200

[hardware]
backend = "mock"
debounce_ms = 2

[web]
threads = 16
remote_press = true
"""


def game_file(rounds: int) -> str:
    """A long game as the box exports it (one line: the size a phone sends), mostly 0-point
    hands so it stays under the target."""
    rng = random.Random(rounds)
    book = ScoreBook(
        GameSetup(f"{rounds} rounds", tuple(PLAYERS), builtin_ruleset("classic"), target=100_000)
    )
    for _ in range(rounds):
        winner = rng.choice(PLAYERS)
        book.record_round(
            {
                p: HandEntry.empty() if p == winner else HandEntry.of_points(rng.choice((0, 0, 1)))
                for p in PLAYERS
            }
        )
    return game_to_json(book, indent=None)


def press_while(port: int, running: threading.Event | None, count: int = 0) -> list[float]:
    """HIT presses at 20 a second: ``count`` of them, or as long as ``running`` is set."""
    phone = Phone(port)
    took: list[float] = []
    due = time.monotonic()
    presses = 0
    while running.is_set() if running is not None else presses < count:
        due += 1 / PRESSES_PER_SECOND
        if presses % 40 == 39:
            phone.act("table.reload", {"cards": 200})
        status, _, seconds = phone.act("table.press", {})
        presses += 1
        if status != 200:
            raise SystemExit(f"a press was answered {status}")
        took.append(seconds)
        time.sleep(max(0.0, due - time.monotonic()))
    return took


def ms(values: list[float]) -> str:
    return (
        f"p50 {percentile(values, 0.5) * 1e3:5.1f} ms, p95 {percentile(values, 0.95) * 1e3:5.1f} "
        f"ms, p99 {percentile(values, 0.99) * 1e3:5.1f} ms"
    )


def between(seconds: list[float]) -> str:
    return f"{min(seconds):.2f}–{max(seconds):.2f} s ({len(seconds)} times)"


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (the game reader)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


class PeakMemory:
    """The daemon's resident memory while a block runs, and its children's, read every 5 ms."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.before = self.peak = rss_kb(pid)
        self.child_peak = 0
        self._done = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)

    def __enter__(self) -> PeakMemory:
        self._reader.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._reader.join()

    def _read(self) -> None:
        while not self._done.wait(0.005):
            self.peak = max(self.peak, rss_kb(self.pid))
            for child in children(self.pid):
                try:
                    self.child_peak = max(self.child_peak, rss_kb(child))
                except OSError:
                    continue


def busy(port: int, work: Callable[[], None]) -> list[float]:
    """The presses' answer times while ``work`` runs on another phone, again and again for
    :data:`SPELL_S` (starting after half a second, at a moment of its own between two
    presses)."""
    running = threading.Event()
    running.set()
    took: list[float] = []
    presser = threading.Thread(target=lambda: took.extend(press_while(port, running)))
    presser.start()
    time.sleep(0.5 + random.uniform(0, 1 / PRESSES_PER_SECOND))
    try:
        until = time.monotonic() + SPELL_S
        while time.monotonic() < until:
            work()
    finally:
        time.sleep(0.2)
        running.clear()
        presser.join(timeout=60)
    return took


def run(daemon_pid: int, port: int) -> None:
    """Every step above but the restart; the largest game is left open."""
    setup = Phone(port)
    assert setup.act("table.setup", {"players": PLAYERS})[0] == 200
    small = {"ruleset": "classic", "players": PLAYERS}
    assert setup.act("score.new_game", small)[0] == 200
    small_id = setup.state()["score"]["game"]["id"]
    body = json.dumps({"payload": {"text": game_file(MAX_GAME_ROUNDS)}})
    over = json.dumps({"payload": {"text": game_file(OVER)}})
    idle: list[float] = []
    during: dict[str, list[float]] = {}
    spans: dict[str, list[float]] = {}
    memory: dict[str, list[PeakMemory]] = {"import": [], "over": []}
    large_id = ""

    def timed(name: str, step: Callable[[], tuple[int, object, float]]) -> None:
        status, answer, took = step()
        assert status == 200, str(answer)[:300]
        spans.setdefault(name, []).append(took)

    def importing() -> None:
        nonlocal large_id
        with PeakMemory(daemon_pid) as peak:
            timed("import", lambda: Phone(port).send("score.import", body))
        memory["import"].append(peak)
        large_id = setup.state()["score"]["game"]["id"]

    def opening() -> None:
        assert setup.act("score.open_game", {"game": small_id})[0] == 200
        time.sleep(0.3)
        timed("open", lambda: Phone(port).act("score.open_game", {"game": large_id}))

    def correcting() -> None:
        hands = {p: {"points": 0 if p == PLAYERS[0] else 1} for p in PLAYERS}
        for number in (10, 11):  # round 10, again and again: every round after it replayed
            timed(
                "correct",
                lambda n=number: Phone(port).act(
                    "score.correct_round", {"round": n, "hands": hands, "winner": PLAYERS[0]}
                ),
            )
            time.sleep(0.3)

    def exporting() -> None:
        phone = Phone(port)
        for path in ("/api/export.csv", "/api/export.json", "/api/chart.svg"):
            timed("export", lambda p=path: phone.get(p))
            time.sleep(0.2)
        # the last round corrected (the game holds all the rounds it may): a new revision, so
        # the chart is drawn again next time
        hands = {p: {"points": 0 if p == PLAYERS[0] else 1} for p in PLAYERS}
        last = {"round": MAX_GAME_ROUNDS, "hands": hands, "winner": PLAYERS[0]}
        assert setup.act("score.correct_round", last)[0] == 200

    for _ in range(REPEATS):
        assert setup.act("score.open_game", {"game": small_id})[0] == 200
        idle += press_while(port, None, IDLE_PRESSES)
        during.setdefault("import", []).extend(busy(port, importing))
        for name, work in (("open", opening), ("correct", correcting), ("export", exporting)):
            idle += press_while(port, None, IDLE_PRESSES)
            during.setdefault(name, []).extend(busy(port, work))
    with PeakMemory(daemon_pid) as peak:
        status, answer, took = Phone(port).send("score.import", over)
    assert status == 400, answer
    memory["over"].append(peak)
    spans["over"] = [took]
    message = str((answer.get("error") or {}).get("message"))
    opened_rss = rss_kb(daemon_pid)
    report(idle, during, spans, memory, message, opened_rss)


def report(
    idle: list[float],
    during: dict[str, list[float]],
    spans: dict[str, list[float]],
    memory: dict[str, list[PeakMemory]],
    message: str,
    opened_rss: int,
) -> None:
    size = len(game_file(MAX_GAME_ROUNDS).encode()) / 1e6
    imports = memory["import"]
    print(f"imports: the largest game the box keeps, {MAX_GAME_ROUNDS:,} rounds ({size:.1f} MB)")
    print(
        f"  import: {between(spans['import'])}; the daemon's memory "
        f"{imports[0].before / 1024:.0f} MB before, {max(m.peak for m in imports) / 1024:.0f} MB "
        f"at most; the reader's {max(m.child_peak for m in imports) / 1024:.0f} MB at most"
    )
    print(
        f"  open again {between(spans['open'])}; correct round 10 or 11 "
        f"{between(spans['correct'])}; export CSV/JSON/chart {between(spans['export'])}"
    )
    print(f"  the daemon's memory with it open: {opened_rss / 1024:.0f} MB (goal: under 300 MB)")
    over = memory["over"][0]
    print(
        f"  a {OVER:,}-round file refused in {spans['over'][0]:.2f} s, the reader's memory "
        f"{over.child_peak / 1024:.0f} MB at most, the daemon's {over.before / 1024:.0f} → "
        f"{over.peak / 1024:.0f} MB: {message[:120]}"
    )
    print(f"HIT press answer, idle:      {ms(idle)} ({len(idle)} presses)")
    worst = 0.0
    for name, took in during.items():
        ratio = percentile(took, 0.99) / percentile(idle, 0.99)
        worst = max(worst, ratio)
        print(f"  while {name:8} {ms(took)} ({len(took)} presses): p99 ratio {ratio:.2f}")
    print(f"press p99 ratio, busy ÷ idle, at worst: {worst:.2f} (goal: at most 2)")


def restart(folder: Path) -> tuple[float, float, int]:
    """The daemon started again with the largest game open: seconds to the page, to the
    state showing that game, and the daemon's memory then (KB)."""
    started = time.monotonic()
    daemon, port = start_daemon(folder, CONFIG, "--no-voice")
    try:
        phone = Phone(port)
        status, page, _ = phone.get("/")
        assert status == 200 and page
        to_page = time.monotonic() - started
        rounds = phone.state()["score"]["standings"]["rounds"]
        assert rounds >= MAX_GAME_ROUNDS, rounds
        return to_page, time.monotonic() - started, rss_kb(daemon.pid)
    finally:
        stop_daemon(daemon)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        daemon, port = start_daemon(folder, CONFIG, "--no-voice")
        try:
            run(daemon.pid, port)
        finally:
            stop_daemon(daemon)
        for _ in range(REPEATS):
            to_page, to_state, memory = restart(folder)
            print(
                f"restart with the {MAX_GAME_ROUNDS:,}-round game open: the page in "
                f"{to_page:.2f} s, its state in {to_state:.2f} s (goal: at most 5 s); the "
                f"daemon's memory {memory / 1024:.0f} MB"
            )


if __name__ == "__main__":
    main()
