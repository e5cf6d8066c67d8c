"""Engine throughput, the memory of a 10,000-event session, mending a 300-event round:
replaying its log, and replacing its first play (the whole round replayed), and the beam's
count written into the press it counts (the table replayed from the nearest checkpoint)."""

from __future__ import annotations

import contextlib
import random
import time
import tracemalloc

from companion.config import RulesConfig
from companion.core.errors import ActionError
from companion.core.events import CardsSeen, Play, Press, Replace, Undo
from companion.core.script import script_event
from companion.core.table import TableEngine
from companion.core.table.log import MARK_EVERY, MAX_ENTRIES

LINES = [
    "press",
    "press",
    "play 5 red",
    "play reverse blue",
    "play skip green",
    "play hit2 yellow",
    "press",
    "press",
    "play coup_extreme red target Chloé",
    "press",
    "press",
    "press",
    "play discard_all blue count 2",
    "play wild red",
    "suggest Alice",
    "press",
    "press",
    "press",
    "press",
    "reload",
]


def session(n: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    return ["players Alice Bruno Chloé David"] + [rng.choice(LINES) for _ in range(n - 1)]


def run(engine: TableEngine, events: list[object]) -> int:
    handled = 0
    for event in events:
        try:
            engine.handle(event)  # type: ignore[arg-type]
            handled += 1
        except ActionError:
            pass  # out-of-turn lines in a random script: refused, still a handled input
    return handled


def round_of(events: list[object], lines: int) -> TableEngine:
    """A table whose round's log holds ``lines`` lines (taken from ``events`` in turn)."""
    engine = TableEngine(["Alice", "Bruno", "Chloé", "David"], seed=1)
    for event in events[1:]:
        if len(engine.log.entries) == lines:
            break
        with contextlib.suppress(ActionError):
            engine.handle(event)  # type: ignore[arg-type]
    assert len(engine.log.entries) == lines
    return engine


def mending(events: list[object], lines: int = 300) -> None:
    engine = round_of(events, lines)
    replay = correct = float("inf")
    for _ in range(20):
        start = time.perf_counter()
        engine.replay()
        replay = min(replay, time.perf_counter() - start)
    first = next(e for e in engine.log.entries if isinstance(e.event, Play))
    for _ in range(10):
        start = time.perf_counter()
        engine.handle(Replace(first.seq, Play("number", "blue", value=3)), "phone")
        engine.handle(Replace(first.seq, first.event), "phone")
        correct = min(correct, (time.perf_counter() - start) / 2)
    print(
        f"a {lines}-line round: replayed in {replay * 1000:.2f} ms, its first play replaced "
        f"(the round recomputed) in {correct * 1000:.2f} ms (best of 20 and 10)"
    )


def counting(events: list[object], counts: int = 30) -> None:
    """A firing's count amends its press: timed at the end of a full round's log, where the
    nearest checkpoint is furthest back (MARK_EVERY - 1 lines), against the press itself."""
    engine = round_of(events, MAX_ENTRIES - 1)
    pressed: list[float] = []
    counted: list[float] = []
    while len(counted) < counts:
        start = time.perf_counter()
        with contextlib.suppress(ActionError):
            engine.handle(Press(), "button")
        press_took = time.perf_counter() - start
        if engine.last_fired == 0:
            with contextlib.suppress(ActionError):
                engine.handle(Undo())
            continue
        cards = engine.last_fired
        start = time.perf_counter()
        engine.handle(CardsSeen(cards + 1, expected=cards), "box")
        counted.append(time.perf_counter() - start)
        pressed.append(press_took)
        engine.handle(Undo())  # the round keeps its length
    pressed.sort()
    counted.sort()
    print(
        f"the beam's count written into its press, {MAX_ENTRIES - 1}-line round (replay of up "
        f"to {MARK_EVERY - 1} lines): median {counted[counts // 2] * 1000:.2f} ms, worst "
        f"{counted[-1] * 1000:.2f} ms; the press itself: median "
        f"{pressed[counts // 2] * 1000:.3f} ms ({counts} firings)"
    )


def main() -> None:
    lines = session(10_000)
    events = []
    for line in lines:
        event = script_event(line)
        assert event is not None
        events.append(event)
    rules = RulesConfig(stacking=True)

    best = float("inf")
    for _ in range(3):
        engine = TableEngine(["a", "b"], rules=rules, seed=1)
        start = time.perf_counter()
        accepted = run(engine, events)
        best = min(best, time.perf_counter() - start)
    print(f"engine: {len(events) / best:,.0f} events/s ({accepted} accepted, best of 3)")
    mending(events)
    counting(events)

    start = time.perf_counter()
    for line in lines:
        script_event(line)
    parse_rate = len(lines) / (time.perf_counter() - start)
    print(f"script parsing + validation: {parse_rate:,.0f} lines/s")

    tracemalloc.start()
    engine = TableEngine(["a", "b"], rules=rules, seed=1)
    run(engine, events)
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"10,000-event session: {current / 1024:,.0f} KiB held by the engine at the end, "
        f"{peak / 1024:,.0f} KiB peak while running"
    )


if __name__ == "__main__":
    main()
