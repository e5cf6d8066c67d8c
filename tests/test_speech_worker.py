"""The speech worker: restarts a hung or crashed engine, keeps no backlog, never blocks submit.

The engines here are fakes named by dotted path (``f"{__name__}:..."``) so the spawned engine
process can import them; they return the text itself instead of a WAV, and ``play`` records it.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from dataclasses import replace

import pytest

from companion.core.backoff import backoff
from companion.core.commands import Priority
from companion.speech import SpeechConfig, SpeechWorker
from companion.speech.engine import Synthesis, SynthesisCache
from tests.helpers import wait_for


class ScriptedEngine:
    """Says the text back; a line starting with a command word misbehaves on purpose."""

    def __init__(self) -> None:
        self.synthesised = 0
        # espeak-ng synthesises on a thread it starts when loaded: so does this engine.
        threading.Thread(target=threading.Event().wait, daemon=True).start()

    def synthesise(self, text: str, voice: str, rate: int, volume: float, path: str) -> Synthesis:
        word, _, arg = text.partition(" ")
        if word == "hang":
            time.sleep(3600)
        elif word == "crash":
            os._exit(3)
        elif word == "slow":
            time.sleep(float(arg))
        elif word == "bad":
            raise ValueError("cannot say that")
        elif word == "count":  # how many times the engine synthesised a line
            self.synthesised += 1
            text = f"count {self.synthesised}"
        elif word == "priority":  # how the scheduler treats each thread of this process
            seen = set()
            for tid in map(int, os.listdir("/proc/self/task")):
                idle = os.sched_getscheduler(tid) == os.SCHED_IDLE
                seen.add(
                    f"nice {os.getpriority(os.PRIO_PROCESS, tid)} {'idle' if idle else 'other'}"
                )
            text = " / ".join(sorted(seen))
        return Synthesis(text.encode(), "")


class BusyEngine(ScriptedEngine):
    """Takes 50 ms per line, like a slow Pi."""

    def synthesise(self, text: str, voice: str, rate: int, volume: float, path: str) -> Synthesis:
        time.sleep(0.05)
        return super().synthesise(text, voice, rate, volume, path)


def scripted_engine() -> ScriptedEngine:
    return ScriptedEngine()


def busy_engine() -> BusyEngine:
    return BusyEngine()


def missing_engine() -> ScriptedEngine:
    raise ImportError("No module named 'pyttsx3'")


def dies_at_start() -> ScriptedEngine:
    os._exit(5)


ENGINE = f"{__name__}:scripted_engine"
FAST = SpeechConfig(timeout=1.0, stale_after=30.0)


class Recorder:
    """The ``play`` side: records each line, optionally slowly."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.lock = threading.Lock()

    def __call__(self, wav: bytes) -> bool:
        with self.lock:
            self.lines.append(wav.decode())
        return True


@pytest.fixture
def make_worker(
    closing: Callable[[SpeechWorker], SpeechWorker],
) -> Callable[..., tuple[SpeechWorker, Recorder]]:
    def make(
        config: SpeechConfig = FAST, engine: str = ENGINE, **kwargs: int
    ) -> tuple[SpeechWorker, Recorder]:
        recorder = Recorder()
        worker = SpeechWorker(config, recorder, engine_factory=engine, **kwargs)
        return closing(worker), recorder

    return make


def ready(worker: SpeechWorker) -> SpeechWorker:
    wait_for(lambda: worker.available is not None)
    assert worker.available is True
    return worker


def test_synthesis_runs_only_when_a_core_is_idle(make_worker):
    """The press path must not wait for espeak-ng: every thread of the engine process is
    SCHED_IDLE, nice 19."""
    before = os.getpriority(os.PRIO_PROCESS, 0)
    worker, spoken = make_worker()
    worker.submit("priority")
    assert worker.wait_idle(20)
    assert spoken.lines == ["nice 19 idle"]
    assert os.getpriority(os.PRIO_PROCESS, 0) == before  # the daemon keeps its own


def test_a_line_said_before_is_not_synthesised_again(make_worker):
    worker, spoken = make_worker()
    for text in ("count", "count", "count again", "count"):
        worker.submit(text)
        assert worker.wait_idle(20)
    # "count" was synthesised once and heard three times; "count again" is a new line.
    assert spoken.lines == ["count 1", "count 1", "count 2", "count 1"]


def test_the_synthesis_cache_keeps_the_lines_said_last_within_its_size():
    cache = SynthesisCache(max_bytes=10)
    for name in ("a", "b", "c"):
        cache.put((name,), Synthesis(b"1234", ""))
    assert cache.get(("a",)) is None  # 12 bytes > 10: the oldest went
    assert cache.get(("b",)) is not None  # now the most recently said
    cache.put(("d",), Synthesis(b"1234", ""))
    assert cache.get(("c",)) is None and cache.get(("b",)) is not None
    cache.put(("huge",), Synthesis(b"x" * 11, ""))  # bigger than the whole cache: not kept
    assert cache.get(("huge",)) is None and len(cache) == 2 and cache.size == 8


def test_lines_are_spoken_in_order_of_submission(make_worker):
    worker, spoken = make_worker()
    for text in ("one", "two", "three"):
        assert worker.submit(text)
    assert worker.wait_idle(20)
    assert spoken.lines == ["one", "two", "three"]
    assert worker.stats().heard == 3


def test_hung_engine_is_killed_and_restarted(make_worker):
    worker, spoken = make_worker()
    ready(worker)
    worker.submit("hang")
    worker.submit("after the hang")
    assert worker.wait_idle(30)
    stats = worker.stats()
    assert stats.restarts == 1
    assert spoken.lines == ["after the hang"]
    assert worker.available is True


def test_crashing_engine_is_restarted(make_worker):
    worker, spoken = make_worker()
    ready(worker)
    worker.submit("crash now")
    wait_for(lambda: worker.stats().restarts == 1)
    worker.submit("after the crash")
    assert worker.wait_idle(30)
    assert spoken.lines == ["after the crash"]
    assert worker.stats().restarts == 1


def test_an_engine_error_on_one_line_is_not_a_restart(make_worker):
    worker, spoken = make_worker()
    worker.submit("bad line")
    worker.submit("good line")
    assert worker.wait_idle(20)
    assert spoken.lines == ["good line"]
    stats = worker.stats()
    assert (stats.errors, stats.restarts) == (1, 0)


def test_engine_that_dies_at_start_is_retried_with_growing_pauses(monkeypatch):
    """Pauses of 0.25, 0.5, 1 s… between starts: never a tight loop of failing starts."""
    pauses: list[float] = []

    def recorded(failures: int, first: float, longest: float) -> float:
        pauses.append(backoff(failures, first, longest))
        return 0.0  # the pause is checked, not waited: no real seconds pass

    monkeypatch.setattr("companion.speech.worker.backoff", recorded)
    worker = SpeechWorker(FAST, Recorder(), engine_factory=f"{__name__}:dies_at_start")
    try:
        wait_for(lambda: worker.stats().restarts >= 4)
        assert pauses[:3] == [0.25, 0.5, 1.0]
        assert worker.available is None  # never ready, but still trying
        assert worker.submit("still accepted") is True
    finally:
        worker.close()


def test_no_engine_logs_once_and_goes_silent(make_worker, caplog):
    caplog.set_level(logging.WARNING, logger="companion.speech")
    worker, spoken = make_worker(engine=f"{__name__}:missing_engine")
    wait_for(lambda: worker.available is False)
    for i in range(10):
        assert worker.submit(f"line {i}") is False
    assert worker.wait_idle(1)
    messages = [r.getMessage() for r in caplog.records if r.name.startswith("companion.speech")]
    assert len(messages) == 1
    assert "no speech engine" in messages[0] and "pyttsx3" in messages[0]
    assert "pyttsx3" in worker.unavailable_reason
    assert spoken.lines == []


def test_a_flood_of_lines_leaves_no_backlog_only_the_newest(make_worker):
    # The engine runs at the idle priority: on a busy machine one line may take seconds, which
    # is not what this test is about (a restart would drop the line it was on).
    patient = SpeechConfig(timeout=30.0, stale_after=60.0)
    worker, spoken = make_worker(patient, engine=f"{__name__}:busy_engine", max_pending=8)
    ready(worker)
    for i in range(1000):
        worker.submit(f"line {i}")
    assert worker.wait_idle(120)
    # At most the line the engine had already taken, then the eight newest.
    assert len(spoken.lines) <= 9
    assert spoken.lines[-8:] == [f"line {i}" for i in range(992, 1000)]
    stats = worker.stats()
    assert stats.submitted == 1000
    assert stats.spoken + stats.evicted + stats.stale + stats.replaced == 1000


def test_a_flood_of_turn_announcements_says_only_the_last(make_worker):
    worker, spoken = make_worker()
    ready(worker)
    worker.submit("slow 0.3")
    wait_for(lambda: worker.stats().pending == 0)
    for i in range(1000):
        worker.submit(f"turn {i}", Priority.INFO, slot="next")
    assert worker.wait_idle(20)
    assert spoken.lines == ["slow 0.3", "turn 999"]
    assert worker.stats().replaced == 999


def test_higher_priority_goes_first(make_worker):
    worker, spoken = make_worker()
    ready(worker)
    worker.submit("slow 0.3")
    wait_for(lambda: worker.stats().pending == 0)
    worker.submit("turn", Priority.INFO)
    worker.submit("press twice", Priority.PROMPT)
    worker.submit("contre-uno", Priority.PENALTY)
    worker.submit("reload", Priority.WARNING)
    assert worker.wait_idle(20)
    assert spoken.lines == ["slow 0.3", "contre-uno", "reload", "press twice", "turn"]


def test_a_full_queue_keeps_the_higher_lines(make_worker):
    worker, spoken = make_worker(max_pending=2)
    ready(worker)
    worker.submit("slow 0.3")
    wait_for(lambda: worker.stats().pending == 0)
    assert worker.submit("winner", Priority.RESULT)
    assert worker.submit("penalty", Priority.PENALTY)
    assert worker.submit("turn", Priority.INFO) is False  # lower than everything queued
    assert worker.wait_idle(20)
    assert spoken.lines == ["slow 0.3", "winner", "penalty"]


def test_stale_lines_are_dropped_not_read_late(make_worker):
    worker, spoken = make_worker(replace(FAST, stale_after=0.4, timeout=5.0))
    ready(worker)
    worker.submit("slow 0.8")
    wait_for(lambda: worker.stats().pending == 0)
    for i in range(3):
        worker.submit(f"late {i}")
    worker.submit("result", Priority.RESULT, max_age=30.0)
    assert worker.wait_idle(20)
    assert spoken.lines == ["slow 0.8", "result"]
    assert worker.stats().stale == 3


def test_submit_never_waits_for_a_hung_engine(make_worker):
    worker, spoken = make_worker(replace(FAST, timeout=60.0), max_pending=8)
    ready(worker)
    worker.submit("hang")
    wait_for(lambda: worker.stats().pending == 0)  # the engine is now stuck on it
    slowest = 0.0
    for i in range(500):
        started = time.perf_counter()
        worker.submit(f"line {i}", Priority(10 + 10 * (i % 5)), slot=f"s{i % 20}")
        slowest = max(slowest, time.perf_counter() - started)
    stats = worker.stats()
    # Every call returned while the engine was still hung: nothing waited for it.
    assert (stats.restarts, stats.spoken, stats.submitted) == (0, 0, 501)
    assert stats.pending == 8
    assert spoken.lines == []
    print(f"slowest submit while hung: {slowest * 1e6:.0f} µs")


def test_close_kills_a_hung_engine_and_cleans_up(make_worker):
    worker, _ = make_worker(replace(FAST, timeout=60.0))
    ready(worker)
    worker.submit("hang")
    wait_for(lambda: worker.stats().pending == 0)
    assert multiprocessing.active_children()
    worker.close()
    assert worker.submit("after close") is False
    wait_for(lambda: not multiprocessing.active_children(), timeout=5)
    assert not [t for t in threading.enumerate() if t.name == "speech-worker"]


def test_disabled_speech_starts_nothing(make_worker):
    worker, spoken = make_worker(replace(FAST, enabled=False))
    assert worker.available is False
    assert worker.submit("hello") is False
    assert worker.wait_idle(0.1)
    assert not multiprocessing.active_children()
    assert spoken.lines == []
