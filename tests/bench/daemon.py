"""The daemon's press path, idle cost and memory, on gpiozero's mock pins.

- What the table's memory writes per press at several lengths of the round's log: the text of
  its line, the bytes handed to the kernel (``wchar``, SQLite's journal pages included) and the
  time the hub thread spends writing it; the whole round's checkpoint beside it, which a press
  never writes.
- HIT pin edge → first buzzer or ejector pin change, p50/p99 over many presses through the whole
  daemon (debounce, hub thread, engine, actuator lanes), next to a bare gpiozero Button callback
  on the same pin factory in the same run (the floor).
- The same press latency with the voice on (real pyttsx3/espeak-ng) and off, in alternating
  rounds of the same run: the press path never waits on speech. The sounds go through the real
  player process to a stand-in for ``aplay`` that takes as long as the sound, as a speaker does
  (ALSA's null device swallows a line at once, so the box would synthesise every line, even
  those a real speaker would never reach before a newer one replaced them).
- CPU used by the idle daemon (page served, nobody connected) over 30 s, and resident memory.
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

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
HARDWARE = {"debounce_ms": 2}  # presses 5 ms apart: a debounce window must not merge them


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(values: list[float]) -> str:
    p50, p99 = percentile(values, 0.5) * 1e3, percentile(values, 0.99) * 1e3
    return f"p50 {p50:.3f} ms, p99 {p99:.3f} ms"


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


def make_daemon(state_dir: Path, voice: bool, web: bool = False) -> Daemon:
    sections = {"hardware": HARDWARE, "speech": {"audio_device": "null", "stale_after": 2.0}}
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
    )
    return Daemon(config, options).start()


def output_pins(daemon: Daemon) -> list[Any]:
    pins = daemon.hardware.config.pins
    return [daemon.pin_factory.pin(pins.buzzer), daemon.pin_factory.pin(pins.ejector)]


def press_latencies(daemon: Daemon, count: int) -> list[float]:
    """Time from the HIT edge to the first change on the buzzer or ejector pin."""
    hit = daemon.hardware.hit_button.pin
    outputs = [p for p in output_pins(daemon) if p is not None]
    latencies = []
    daemon.hardware.wait_idle(timeout=10)
    for i in range(count):
        if i % 25 == 0:  # keep cards in the magazine; ejections queue up behind (by design)
            daemon.hub.dispatch("table.reload", {"cards": 200})
        before = [p._last_change for p in outputs]
        start = time.monotonic()
        hit.drive_low()
        deadline = start + 1.0
        changed = None
        while changed is None and time.monotonic() < deadline:
            time.sleep(0.0001)  # poll without holding the GIL from the threads being measured
            for pin, last in zip(outputs, before, strict=True):
                if pin._last_change != last:
                    changed = pin._last_change
                    break
        hit.drive_high()
        if changed is not None:
            latencies.append(changed - start)
        time.sleep(0.005)
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

    # Voice off and on side by side, in alternating rounds: whatever else the machine is doing
    # weighs on both alike. The idle one of the two daemons only waits meanwhile.
    rounds = 6
    count = max(60, PRESSES // 3 // rounds)
    results: dict[bool, list[float]] = {False: [], True: []}
    with tempfile.TemporaryDirectory() as tmp:
        daemons = {voice: make_daemon(Path(tmp) / str(voice), voice=voice) for voice in results}
        try:
            worker = daemons[True].voice.worker
            wait_for(lambda: worker.available is not None, 30, "the speech engine to start")
            for _ in range(rounds):
                for voice, daemon in daemons.items():
                    results[voice] += press_latencies(daemon, count)
                    worker.wait_idle(30)  # the voice-off round starts with the speech done
            spoken = daemons[True].voice.stats()
        finally:
            for daemon in daemons.values():
                daemon.stop()
    total = rounds * count
    print(f"press latency, voice off: {ms(results[False])} over {total} presses")
    print(f"press latency, voice on:  {ms(results[True])} over {total} presses ({spoken})")
    ratio = percentile(results[True], 0.99) / percentile(results[False], 0.99)
    middle = percentile(results[True], 0.5) / percentile(results[False], 0.5)
    print(
        f"press p99 voice on / voice off: {ratio:.2f}x, p50 {middle:.2f}x "
        f"(alternating rounds of {count})"
    )

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
