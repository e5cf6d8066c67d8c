"""The daemon's press path, idle cost and memory, on gpiozero's mock pins.

- What the table's memory writes per press at several lengths of the round's log: the text of
  its line, the bytes handed to the kernel (``wchar``, SQLite's journal pages included) and the
  time the hub thread spends writing it; the whole round's checkpoint beside it, which a press
  never writes.
- HIT pin edge → first buzzer or ejector pin change, p50/p99 over many presses through the whole
  daemon (debounce, hub thread, engine, actuator lanes), next to a bare gpiozero Button callback
  on the same pin factory in the same run (the floor).
- The same press latency with the voice on (real pyttsx3/espeak-ng) and off: two daemons
  measured in alternating blocks (on, off, off, on, ...), each block started with both
  launchers at rest and the speech done, so whatever else the machine does weighs on both
  alike; the ratio of the pooled p99 and p50, with the spread of that ratio over the blocks
  (resampled). Their launchers feed quickly and count no cards, so a block's ejections are
  over before the next block. The sounds go through the real player process to a stand-in
  for ``aplay`` that takes as long as the sound, as a speaker does (ALSA's null device
  swallows a line at once, so the box would synthesise every line, even those a real speaker
  would never reach before a newer one replaced them).
- CPU used by the idle daemon (page served, nobody connected) over 30 s, and resident memory.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.app.table_memory import TableMemory
from companion.config import LauncherConfig, parse_config
from companion.core.events import Press, Reload, Setup, StartRound
from companion.core.options import LauncherOptions
from companion.core.table import TableEngine
from companion.daemon import Daemon, DaemonOptions
from companion.speech import PlayerProcess
from companion.storage.table_log import TableLog
from tests.helpers import wait_for

PRESSES = int(os.environ.get("BENCH_PRESSES", "1000"))
IDLE_SECONDS = float(os.environ.get("BENCH_IDLE_SECONDS", "30"))
HARDWARE: dict[str, Any] = {"debounce_ms": 2}  # presses 5 ms apart: no debounce may merge them
# The voice comparison's launchers: a quick feed without a beam, a quick turret.
QUICK_HARDWARE: dict[str, Any] = {
    **HARDWARE,
    "pins": {"card_sensor": -1},
    "ejector": {"feed_mm_s": 5000.0, "card_length_mm": 20.0, "feed_path_mm": 0.0},
    "turret": {"slew_deg_s": 2000.0, "settle_s": 0.0},
}
VOICE_BLOCKS = int(os.environ.get("BENCH_VOICE_BLOCKS", "24"))  # of each, on and off
VOICE_BLOCK_PRESSES = int(os.environ.get("BENCH_VOICE_BLOCK_PRESSES", "100"))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(values: list[float]) -> str:
    p50, p99 = percentile(values, 0.5) * 1e3, percentile(values, 0.99) * 1e3
    return f"p50 {p50:.3f} ms, p99 {p99:.3f} ms"


def spread(values: list[float]) -> str:
    """The 5th and 95th percentiles of ``values``."""
    return f"{percentile(values, 0.05):.2f}–{percentile(values, 0.95):.2f}"


class FirstChange:
    """When the first of the watched pins changed since :meth:`clear`, and a wait for it."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self.at = 0.0

    def clear(self) -> None:
        self._event.clear()

    def mark(self, at: float) -> None:
        if not self._event.is_set():
            self.at = at
            self._event.set()

    def wait(self, timeout: float) -> float | None:
        return self.at if self._event.wait(timeout) else None


class StampedPin(MockPWMPin):
    """gpiozero's mock PWM pin, noting when its level last changed (:attr:`changed_at`, on
    ``time.monotonic``) and setting :attr:`changes` (shared by the pins watched, when given):
    the devices set a pin's level through its public ``state``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.changed_at = time.monotonic()
        self.changes: FirstChange | None = None

    @property
    def state(self) -> Any:
        return MockPWMPin.state.fget(self)

    @state.setter
    def state(self, value: Any) -> None:
        before = MockPWMPin.state.fget(self)
        MockPWMPin.state.fset(self, value)
        if MockPWMPin.state.fget(self) != before:
            self.changed_at = time.monotonic()
            if self.changes is not None:
                self.changes.mark(self.changed_at)


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


# A speaker for ``aplay -q -D device -``: reads the WAV (22050 Hz mono 16-bit), takes its length.
PACED_APLAY = """#!/bin/sh
bytes=$(wc -c)
sleep "$(printf '%d.%02d' $((bytes / 44100)) $(((bytes % 44100) * 100 / 44100)))"
"""


def paced_player(folder: Path) -> PlayerProcess:
    script = folder / "paced-aplay"
    script.write_text(PACED_APLAY)
    script.chmod(0o755)
    return PlayerProcess(command=str(script))


def make_daemon(
    state_dir: Path, voice: bool, web: bool = False, hardware: dict[str, Any] = HARDWARE
) -> Daemon:
    sections = {"hardware": hardware, "speech": {"audio_device": "null", "stale_after": 2.0}}
    config = replace(parse_config(sections), launcher=LauncherConfig(magazine=200))
    state_dir.mkdir(parents=True, exist_ok=True)
    options = DaemonOptions(
        simulate=True,
        state_dir=state_dir,
        seed=1,
        web=web,
        voice=voice,
        host="127.0.0.1",
        port=0,
        voice_player=paced_player(state_dir) if voice else None,
        pin_factory=MockFactory(pin_class=StampedPin),
    )
    return Daemon(config, options).start()


def output_pins(daemon: Daemon) -> list[Any]:
    pins = daemon.hardware.config.pins
    return [daemon.pin_factory.pin(pins.buzzer), daemon.pin_factory.pin(pins.ejector)]


def press_latencies(daemon: Daemon, count: int) -> list[float]:
    """Time from the HIT edge to the first change on the buzzer or ejector pin. The bench
    thread sleeps until then (a poll would take the interpreter from the threads measured,
    which nothing on a real box does); the pin stamps the time of its first change."""
    hit = daemon.hardware.hit_button.pin
    outputs = [p for p in output_pins(daemon) if p is not None]
    changes = FirstChange()
    for pin in outputs:
        pin.changes = changes
    latencies = []
    daemon.hardware.wait_idle(timeout=10)
    try:
        for i in range(count):
            if i % 25 == 0:  # keep cards in the magazine; ejections queue up behind (by design)
                daemon.hub.dispatch("table.reload", {"cards": 200})
            changes.clear()
            start = time.monotonic()
            hit.drive_low()
            changed = changes.wait(1.0)
            hit.drive_high()
            if changed is not None:
                latencies.append(changed - start)
            time.sleep(0.005)
    finally:
        for pin in outputs:
            pin.changes = None
    return latencies


def bare_button_latencies(factory: Any, count: int) -> list[float]:
    from gpiozero import Button

    button = Button(26, pin_factory=factory)
    seen: list[float] = []
    button.when_pressed = lambda: seen.append(time.monotonic())
    latencies = []
    for _ in range(count):
        start = time.monotonic()
        button.pin.drive_low()
        latencies.append(seen[-1] - start)
        button.pin.drive_high()
    button.close()
    return latencies


def kernel_bytes() -> int:
    """Bytes this process has handed to ``write`` so far."""
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    return 0


def table_memory_writes(lengths: tuple[int, ...] = (10, 100, 300, 2000)) -> None:
    """Presses on a table after ``length`` events (past 320 lines the round's log folds its
    oldest into its start), each written by the table's memory as the hub's journal does."""
    players = ("Alice", "Bruno", "Chloé", "David")
    for length in lengths:
        with tempfile.TemporaryDirectory() as tmp:
            engine = TableEngine(players, launcher=LauncherOptions(magazine=200), seed=1)
            memory = TableMemory(lambda tmp=tmp: TableLog.open(tmp), engine)
            memory.restore()

            def handle(event: Any, memory: TableMemory = memory, engine: Any = engine) -> None:
                memory.journal(engine.handle(event, "button"))

            handle(Setup(players))
            handle(StartRound())
            while engine.events_handled < length:
                handle(Reload(200) if engine.firing.magazine < 30 else Press())
            presses, texts, took = 200, [], []
            lines = len(engine.log.entries)
            wrote = kernel_bytes()
            for _ in range(presses):
                if engine.firing.magazine < 30:
                    handle(Reload(200))  # a line as small as a press's, counted with theirs
                before = memory.bytes_written
                outcome = engine.handle(Press(), "button")
                start = time.perf_counter()
                memory.journal(outcome)
                took.append(time.perf_counter() - start)
                texts.append(memory.bytes_written - before)
                time.sleep(0.005)  # presses 5 ms apart, as on the pins below
            wrote = kernel_bytes() - wrote
            whole = len(json.dumps(memory.capture()))
            memory.close()
        print(
            f"table memory after {length:>4} events, {lines:>3} lines in the round's log: "
            f"a press writes {max(texts)} B of text (mean {statistics.mean(texts):.0f}), "
            f"{wrote / presses / 1024:.2f} KB to the kernel, journal {ms(took)}; "
            f"the whole round would be {whole / 1024:.1f} KB"
        )


def voice_on_and_off(blocks: int, count: int) -> None:
    """Press latency with the voice on and off, in alternating blocks (see the docstring)."""
    results: dict[bool, list[list[float]]] = {False: [], True: []}
    with tempfile.TemporaryDirectory() as tmp:
        daemons = {
            voice: make_daemon(Path(tmp) / str(voice), voice=voice, hardware=QUICK_HARDWARE)
            for voice in results
        }
        try:
            voice = daemons[True].voice
            assert voice is not None
            wait_for(lambda: voice.worker.available is not None, 30, "the speech engine to start")
            for block in range(blocks):
                for on in (True, False) if block % 2 == 0 else (False, True):
                    for daemon in daemons.values():  # both at rest, the speech done
                        daemon.hardware.wait_idle(30)
                    voice.wait_idle(30)
                    results[on].append(press_latencies(daemons[on], count))
            spoken = voice.stats()
        finally:
            for daemon in daemons.values():
                daemon.stop()
    pooled = {on: [x for block in results[on] for x in block] for on in results}
    total = len(pooled[True])
    print(f"press latency, voice off: {ms(pooled[False])} over {len(pooled[False])} presses")
    print(f"press latency, voice on:  {ms(pooled[True])} over {total} presses ({spoken})")

    def ratio(q: float, picks: list[int]) -> float:
        on = [x for i in picks for x in results[True][i]]
        off = [x for i in picks for x in results[False][i]]
        return percentile(on, q) / percentile(off, q)

    every = list(range(blocks))
    draw = random.Random(1)
    resampled = [draw.choices(every, k=blocks) for _ in range(400)]
    p99 = [ratio(0.99, picks) for picks in resampled]
    p50 = [ratio(0.5, picks) for picks in resampled]
    print(
        f"press voice on / voice off: p99 {ratio(0.99, every):.2f}x (90 % of block resamples "
        f"{spread(p99)}), p50 {ratio(0.5, every):.2f}x ({spread(p50)}); "
        f"{blocks} alternating blocks of {count} presses each"
    )


def main() -> None:
    table_memory_writes()
    with tempfile.TemporaryDirectory() as tmp:
        daemon = make_daemon(Path(tmp), voice=False)
        try:
            floor = bare_button_latencies(daemon.pin_factory, PRESSES)
            path = press_latencies(daemon, PRESSES)
        finally:
            daemon.stop()
        print(f"bare gpiozero Button callback (floor): {ms(floor)} over {PRESSES} presses")
        print(f"HIT edge → first buzzer/ejector pin change: {ms(path)} over {len(path)} presses")

    voice_on_and_off(VOICE_BLOCKS, VOICE_BLOCK_PRESSES)

    with tempfile.TemporaryDirectory() as tmp:
        daemon = make_daemon(Path(tmp), voice=True, web=True)
        try:
            time.sleep(2.0)  # let start-up work settle
            cpu0, wall0 = time.process_time(), time.monotonic()
            time.sleep(IDLE_SECONDS)
            cpu = (time.process_time() - cpu0) / (time.monotonic() - wall0)
            print(
                f"idle daemon (page served, voice on): {cpu * 100:.2f} % of a core over "
                f"{IDLE_SECONDS:.0f} s; resident memory {rss_mb():.1f} MB "
                f"(this benchmark process, daemon and all adapters loaded)"
            )
        finally:
            daemon.stop()
    print(
        f"statistics: {statistics.mean(path) * 1e3:.3f} ms mean edge→output; "
        f"{statistics.mean(floor) * 1e6:.1f} µs mean floor"
    )


if __name__ == "__main__":
    main()
