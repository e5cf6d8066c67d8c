"""A game file import never holds the table: press latency while a 26,000-round game comes in.

The real daemon runs in its own process (as in the soak: mock pins, waitress, SQLite), and a
phone presses HIT 20 times a second through the page's API:

- the press's answer time, p50/p99, with nothing else going on (a small game open), and while
  another phone imports a 26,000-round game file (the goal: p99 within twice the idle p99);
  idle presses and imports take turns, three times, so both see the machine's load alike;
- the time one import takes for games of 1,000, 10,000 and 26,000 rounds, and per round (the
  goal: the same per round, linear in the rounds), and how much the box's resident memory grows
  at most while it runs (the read file, the game kept open after it);
- once the 26,000-round game is open, a press's answer: its size (the state, encoded JSON: the
  goal is that it stays as small as with a short game) and its p50/p99, and the same while the
  game is exported as CSV and charted (each a pass through every round).

The phone that imports is another device: its body is encoded before the presses begin, so its
own work does not hold this process's presser.

``BENCH_IMPORT_ROUNDS`` sets the sizes (comma-separated; the largest is the one pressed through).
"""

from __future__ import annotations

import json
import os
import random
import tempfile
import threading
import time
from pathlib import Path

from companion.core.scoring import GameSetup, HandEntry, ScoreBook, builtin_ruleset
from companion.core.scoring.formats import game_to_json
from tests.bench.soak import Phone, percentile, rss_kb, start_daemon, stop_daemon

SIZES = [int(n) for n in os.environ.get("BENCH_IMPORT_ROUNDS", "1000,10000,26000").split(",")]
PLAYERS = ["Ana", "Bo", "Cy", "Di"]
PRESSES_PER_SECOND = 20
IDLE_PRESSES = 150  # before each import
REPEATS = 3  # imports of the largest game, each after its idle presses
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


def press_while(
    port: int,
    running: threading.Event | None,
    count: int,
    after: list[float] | None = None,
    sizes: list[int] | None = None,
) -> list[float]:
    """HIT presses at 20 a second: ``count`` of them, or as long as ``running`` is set. With
    ``after``, a press answered once the imported game is open goes there instead; ``sizes``
    gets each answer's size (bytes of compact JSON)."""
    phone = Phone(port)
    took: list[float] = []
    due = time.monotonic()
    presses = 0
    while running.is_set() if running is not None else presses < count:
        due += 1 / PRESSES_PER_SECOND
        if presses % 40 == 39:
            phone.act("table.reload", {"cards": 200})
        status, answer, seconds = phone.act("table.press", {})
        presses += 1
        if status != 200:
            raise SystemExit(f"a press was answered {status}")
        opened = ((answer.get("score") or {}).get("standings") or {}).get("rounds", 0) > 100
        (after if after is not None and opened else took).append(seconds)
        if sizes is not None:
            sizes.append(len(json.dumps(answer, ensure_ascii=False, separators=(",", ":"))))
        time.sleep(max(0.0, due - time.monotonic()))
    return took


def ms(values: list[float]) -> str:
    return (
        f"p50 {percentile(values, 0.5) * 1e3:6.1f} ms, p99 {percentile(values, 0.99) * 1e3:6.1f} ms"
    )


class PeakMemory:
    """The box's resident memory while a block runs, read every 10 ms: before and at most."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.before = self.peak = rss_kb(pid)
        self._done = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)

    def __enter__(self) -> PeakMemory:
        self._reader.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._reader.join()

    def _read(self) -> None:
        while not self._done.wait(0.01):
            self.peak = max(self.peak, rss_kb(self.pid))

    @property
    def grew_mb(self) -> float:
        return (self.peak - self.before) / 1024


def run(port: int, pid: int) -> None:
    setup = Phone(port)
    assert setup.act("table.setup", {"players": PLAYERS})[0] == 200
    small = {"ruleset": "classic", "players": PLAYERS}
    assert setup.act("score.new_game", small)[0] == 200
    files = {rounds: game_file(rounds) for rounds in SIZES}
    times: dict[int, float] = {}
    memory: dict[int, PeakMemory] = {}
    for rounds in SIZES[:-1]:
        with PeakMemory(pid) as memory[rounds]:
            status, answer, times[rounds] = setup.act("score.import", {"text": files[rounds]})
        assert status == 200, answer
    largest = SIZES[-1]
    idle: list[float] = []
    during: list[float] = []
    after: list[float] = []
    spans: list[float] = []
    # The importing phone is another device: its own work (encoding a 4 MB body) is done before
    # the presses begin, so it does not hold this process's presser.
    body = json.dumps({"payload": {"text": files[largest]}})
    phase = random.Random(largest)
    for _ in range(REPEATS):  # idle, then an import, in turn: the machine's load moves
        assert setup.act("score.new_game", small)[0] == 200  # the presses' answers stay small
        idle += press_while(port, None, IDLE_PRESSES)
        running = threading.Event()
        running.set()
        presser = threading.Thread(
            target=lambda stop=running: during.extend(press_while(port, stop, 0, after)),
            daemon=True,
        )
        importer = Phone(port)
        presser.start()
        # The import starts at a moment of its own between two presses, as another phone's
        # would: not always together with one.
        time.sleep(0.5 + phase.uniform(0, 1 / PRESSES_PER_SECOND))
        with PeakMemory(pid) as memory[largest]:
            status, answer, took = importer.send("score.import", body)
        running.clear()
        presser.join(timeout=30)
        assert status == 200, answer
        spans.append(took)
    times[largest] = min(spans)
    # The largest game stays open: presses now, each answer with the state of a long game.
    sizes: list[int] = []
    opened = press_while(port, None, IDLE_PRESSES, sizes=sizes)
    # The same game exported (CSV) and charted, once each in turn, while a phone presses.
    exporting: list[float] = []
    export_spans: list[float] = []
    running = threading.Event()
    running.set()
    presser = threading.Thread(
        target=lambda: exporting.extend(press_while(port, running, 0)), daemon=True
    )
    presser.start()
    exporter = Phone(port)
    for _ in range(REPEATS):
        time.sleep(0.5)
        for path in ("/api/export.csv", "/api/chart.svg"):
            status, data, took = exporter.get(path)
            assert status == 200, data[:200]
            export_spans.append(took)
        # a round more: a new revision, so the chart is drawn again
        hands = {p: {"points": 0 if p == PLAYERS[0] else 1} for p in PLAYERS}
        assert setup.act("score.record_round", {"hands": hands, "winner": PLAYERS[0]})[0] == 200
    running.clear()
    presser.join(timeout=30)
    small_sizes: list[int] = []
    assert setup.act("score.new_game", small)[0] == 200
    press_while(port, None, 5, sizes=small_sizes)
    revision = (answer.get("score") or {}).get("revision")
    print(f"imports: game files of {', '.join(f'{n:,}' for n in SIZES)} rounds (JSON, one line)")
    for rounds in SIZES:
        size = len(files[rounds].encode()) / 1e6
        per = times[rounds] / rounds * 1e6
        print(
            f"  {rounds:>6,} rounds, {size:4.1f} MB: {times[rounds]:6.2f} s ({per:.0f} µs/round); "
            f"the box's memory {memory[rounds].before / 1024:.0f} MB before, "
            f"+{memory[rounds].grew_mb:.0f} MB at most"
        )
    print(
        f"  the {largest:,}-round game stored and open: revision {revision} "
        f"({REPEATS} imports: {', '.join(f'{t:.2f}' for t in spans)} s)"
    )
    print(f"HIT press answer, idle:              {ms(idle)} ({len(idle)} presses)")
    print(f"HIT press answer, during the import: {ms(during)} ({len(during)} presses)")
    ratio = percentile(during, 0.99) / percentile(idle, 0.99)
    print(f"p99 during / p99 idle: {ratio:.2f} (goal: at most 2)")
    if after:
        print(
            f"HIT press answer, during the import once its game is open: {ms(after)} "
            f"({len(after)} presses)"
        )
    print(f"HIT press answer, the {largest:,}-round game open: {ms(opened)} ({len(opened)})")
    print(
        f"HIT press answer, while it is exported and charted: {ms(exporting)} "
        f"({len(exporting)} presses; {REPEATS} exports and charts, "
        f"{', '.join(f'{t:.2f}' for t in export_spans)} s)"
    )
    print(
        f"HIT press answer's size, the {largest:,}-round game open: {max(sizes) / 1e3:.1f} KB "
        f"(a new game open: {max(small_sizes) / 1e3:.1f} KB)"
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        daemon, port = start_daemon(Path(tmp), CONFIG, "--no-voice")
        try:
            run(port, daemon.pid)
        finally:
            stop_daemon(daemon)


if __name__ == "__main__":
    main()
