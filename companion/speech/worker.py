"""The speech worker: a queue of lines in front of one speech engine in a child process.

The press path calls :meth:`SpeechWorker.submit`, which only files the line under a lock and
returns: it never waits for the engine. One thread takes the best line (highest priority, then
oldest), sends it to the engine process, waits for the WAV with a timeout and hands it to
``play``. The queue stays short on purpose:

- a line older than ``stale_after`` seconds is dropped, never read out late;
- a new line with the same ``slot`` (e.g. the turn announcement) replaces the queued one;
- past ``max_pending`` lines the lowest-priority oldest one goes.

The engine runs in a *spawned* process (see :mod:`companion.speech.engine`): when a line takes
longer than ``timeout`` the process is killed and a new one started; when it crashes it is
restarted after a growing pause. When there is no engine at all (pyttsx3 or espeak-ng missing)
the worker logs that once and every later ``submit`` is a silent no-op.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from companion.core.backoff import backoff
from companion.core.commands import Priority

from .config import SpeechConfig
from .engine import DEFAULT_ENGINE, child_main

log = logging.getLogger(__name__)

# Starting a process and loading espeak-ng takes a few seconds on a Pi 3.
STARTUP_TIMEOUT = 15.0
MAX_BACKOFF = 30.0


@dataclass(frozen=True)
class SpeechStats:
    """Counters since the worker started (a snapshot)."""

    submitted: int
    spoken: int  # synthesised and handed to ``play``
    heard: int  # ``play`` said the line reached the speaker
    stale: int  # dropped because they waited longer than their age limit
    replaced: int  # replaced by a newer line of the same slot
    evicted: int  # pushed out of a full queue
    errors: int  # lines the engine refused (bad text, bad voice)
    restarts: int  # engine processes killed or lost and started again
    pending: int
    available: bool | None  # None while the first engine is starting


@dataclass
class _Line:
    seq: int
    text: str
    priority: int
    slot: str | None
    voice: str
    queued_at: float
    max_age: float


class _Engine:
    """The parent's handle on one engine process."""

    def __init__(self, process: BaseProcess, conn: Connection) -> None:
        self.process = process
        self.conn = conn

    def stop(self, grace: float) -> None:
        if self.process.is_alive():
            with contextlib.suppress(OSError, ValueError):
                self.conn.send(("quit",))
            self.process.join(grace)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(2.0)
        self.conn.close()
        if not self.process.is_alive():
            self.process.close()


class SpeechWorker:
    """Speaks lines one at a time, dropping what has become stale; see the module docstring.

    ``play(wav)`` is called from the worker thread with each synthesised line (WAV bytes) and
    should return once it has been played, True if it was heard. ``engine_factory`` names a
    function returning a :class:`~companion.speech.engine.Synthesiser`, importable in a spawned
    process. The engine process starts at once (in the background) so the first line is quick.
    """

    def __init__(
        self,
        config: SpeechConfig,
        play: Callable[[bytes], bool],
        *,
        engine_factory: str = DEFAULT_ENGINE,
        max_pending: int = 8,
    ) -> None:
        self.config = config
        self._play = play
        self._factory = engine_factory
        self._max_pending = max(1, max_pending)
        self._cond = threading.Condition()
        self._pending: list[_Line] = []
        self._seq = 0
        self._busy = False
        self._closing = False
        self._available: bool | None = None if config.enabled else False
        self.unavailable_reason = "" if config.enabled else "speech is disabled in the config"
        self._counts = dict.fromkeys(
            ("submitted", "spoken", "heard", "stale", "replaced", "evicted", "errors", "restarts"),
            0,
        )
        self._notes_logged: set[str] = set()
        self._thread: threading.Thread | None = None
        if config.enabled:
            self._thread = threading.Thread(target=self._run, name="speech-worker", daemon=True)
            self._thread.start()

    # -- the caller's side (any thread, never blocks on the engine) --------------------------

    @property
    def available(self) -> bool | None:
        """True once an engine is ready, False when there is none, None while starting."""
        return self._available

    def submit(
        self,
        text: str,
        priority: int = Priority.INFO,
        slot: str | None = None,
        *,
        voice: str = "",
        max_age: float | None = None,
    ) -> bool:
        """Queue ``text`` to be spoken with espeak-ng ``voice``; return at once.

        ``slot`` names what the line is about ("table.turn"): a queued line with the same slot is
        replaced. ``max_age`` overrides ``stale_after`` for this line. Returns False when the
        line was not queued (no engine, closing, empty text, or a full queue of higher lines).
        """
        if not text.strip() or self._available is False:
            return False
        now = time.monotonic()
        with self._cond:
            if self._closing:
                return False
            self._seq += 1
            self._counts["submitted"] += 1
            line = _Line(
                self._seq,
                text,
                int(priority),
                slot,
                voice,
                now,
                self.config.stale_after if max_age is None else max_age,
            )
            self._drop_stale(now)
            if slot is not None:
                for i, queued in enumerate(self._pending):
                    if queued.slot == slot:
                        self._pending[i] = line
                        self._counts["replaced"] += 1
                        self._cond.notify()
                        return True
            self._pending.append(line)
            if len(self._pending) > self._max_pending:
                weakest = min(self._pending, key=lambda q: (q.priority, q.seq))
                self._pending.remove(weakest)
                self._counts["evicted"] += 1
                if weakest is line:
                    return False
            self._cond.notify()
            return True

    def stats(self) -> SpeechStats:
        with self._cond:
            return SpeechStats(
                **self._counts, pending=len(self._pending), available=self._available
            )

    def wait_idle(self, timeout: float) -> bool:
        """Wait until nothing is queued or being spoken (or there is no engine); True if so."""
        with self._cond:
            return self._cond.wait_for(
                lambda: (
                    self._closing
                    or self._available is False
                    or (not self._pending and not self._busy)
                ),
                timeout,
            )

    def close(self, timeout: float = 3.0) -> None:
        """Drop queued lines, stop the engine process and the thread."""
        with self._cond:
            self._closing = True
            self._pending.clear()
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout)

    # -- the worker thread -------------------------------------------------------------------

    def _drop_stale(self, now: float) -> None:
        fresh = [q for q in self._pending if now - q.queued_at <= q.max_age]
        self._counts["stale"] += len(self._pending) - len(fresh)
        self._pending = fresh

    def _take(self) -> _Line | None:
        with self._cond:
            while True:
                self._busy = False
                if self._closing:
                    return None
                self._drop_stale(time.monotonic())
                if self._pending:
                    best = max(self._pending, key=lambda q: (q.priority, -q.seq))
                    self._pending.remove(best)
                    self._busy = True
                    return best
                self._cond.notify_all()  # wake wait_idle
                self._cond.wait()

    def _sleep(self, seconds: float) -> bool:
        """Sleep unless closing; False when the worker is closing."""
        with self._cond:
            return not self._cond.wait_for(lambda: self._closing, seconds)

    def _count(self, name: str) -> None:
        with self._cond:
            self._counts[name] += 1

    def _set_available(self, value: bool, reason: str = "") -> None:
        with self._cond:
            self._available = value
            self.unavailable_reason = reason
            if not value:
                self._pending.clear()
            self._cond.notify_all()

    def _run(self) -> None:
        workdir = tempfile.mkdtemp(prefix="uno-speech-")
        engine: _Engine | None = None
        failures = 0
        try:
            while True:
                if engine is None:
                    if failures and not self._sleep(backoff(failures, 0.25, MAX_BACKOFF)):
                        return
                    engine, outcome = self._spawn(workdir)
                    if engine is None:
                        if outcome == "closing":
                            return
                        if outcome.startswith("no-engine"):
                            log.warning("no speech engine, the box stays silent: %s", outcome[10:])
                            self._set_available(False, outcome[10:])
                            return
                        failures += 1
                        self._count("restarts")
                        log.warning("speech engine failed to start (%s), retrying", outcome)
                        continue
                    self._set_available(True)
                line = self._take()
                if line is None:
                    return
                reply = self._ask(engine, line)
                if reply[0] == "wav":
                    failures = 0
                    self._speak(reply[1], reply[2])
                elif reply[0] == "error":
                    self._count("errors")
                    log.warning("speech engine refused %r: %s", line.text, reply[1])
                elif reply[0] == "closing":
                    # Mid-line: the line is dropped anyway, and a hung engine would not read
                    # a polite "quit", so closing does not wait for it.
                    engine.stop(grace=0.0)
                    engine = None
                    return
                else:  # "hung" or "died": the line is dropped, it may be what broke the engine
                    log.warning("speech engine %s on %r, restarting it", reply[1], line.text)
                    engine.stop(grace=0.0)
                    engine = None
                    failures += 1
                    self._count("restarts")
        except Exception:  # a bug here must not take the daemon down; speech just stops
            log.exception("speech worker stopped")
            self._set_available(False, "the speech worker stopped on an error")
        finally:
            if engine is not None:
                engine.stop(grace=1.0)
            shutil.rmtree(workdir, ignore_errors=True)
            with self._cond:
                self._busy = False
                self._cond.notify_all()

    def _spawn(self, workdir: str) -> tuple[_Engine | None, str]:
        context = multiprocessing.get_context("spawn")
        parent_conn, child_conn = context.Pipe()
        process = context.Process(
            target=child_main,
            args=(child_conn, self._factory, workdir),
            name="speech-engine",
            daemon=True,
        )
        process.start()
        child_conn.close()  # so the parent sees EOF when the child dies
        engine = _Engine(process, parent_conn)
        reply = self._receive(engine, STARTUP_TIMEOUT)
        if reply[0] == "ready":
            return engine, "ready"
        engine.stop(grace=0.0)
        if reply[0] == "no-engine":
            return None, f"no-engine:{reply[1]}"
        return None, " ".join(str(part) for part in reply)

    def _ask(self, engine: _Engine, line: _Line) -> tuple[Any, ...]:
        message = ("say", line.text, line.voice, self.config.rate, self.config.volume)
        try:
            engine.conn.send(message)
        except (OSError, ValueError):
            return ("died", "was gone")
        return self._receive(engine, self.config.timeout)

    def _receive(self, engine: _Engine, timeout: float) -> tuple[Any, ...]:
        """The engine's next message, or ("hung", ...), ("died", ...), ("closing",)."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return ("hung", f"took more than {timeout:g} s")
            with self._cond:
                if self._closing:
                    return ("closing",)
            try:
                if engine.conn.poll(min(0.1, remaining)):
                    reply: tuple[Any, ...] = engine.conn.recv()
                    return reply
            except (EOFError, OSError):
                engine.process.join(1.0)  # reap it, for the exit status
                return ("died", f"exited with status {engine.process.exitcode}")

    def _speak(self, wav: bytes, note: str) -> None:
        if note and note not in self._notes_logged:
            self._notes_logged.add(note)
            log.warning("speech: %s", note)
        self._count("spoken")
        try:
            heard = self._play(wav)
        except Exception:
            log.exception("speech playback failed")
            heard = False
        if heard:
            self._count("heard")
