"""One audio output for speech and cues, so they never talk over each other.

Everything the speaker plays goes through :class:`AudioOutput`: a single thread hands one WAV at a
time to a :class:`Player` (``aplay`` by default). Cues are short and go first; a spoken line waits
for the cue before it to end, and a cue that arrives while a line is spoken waits for the line
(the buzzer plays every cue at once anyway). A cue that waited too long is dropped: a "ding"
heard two seconds after the press is confusing.

On a box without a sound card ``aplay`` fails: the output logs that once, drops the sound, and
tries again with the next one (a USB speaker may be plugged in later).
"""

from __future__ import annotations

import collections
import contextlib
import logging
import subprocess
import threading
import time
from collections.abc import Callable
from typing import Protocol

from .priority import lower_priority
from .sounds import wav_duration

log = logging.getLogger(__name__)


class PlayerError(RuntimeError):
    """The player could not play a sound (no device, no ``aplay``, device busy...)."""


class Player(Protocol):
    """Plays one WAV file (bytes) and returns when it has finished; raises PlayerError."""

    def play(self, wav: bytes) -> None: ...


class AplayPlayer:
    """Plays through ALSA with ``aplay -D device`` (``device`` empty: the default device).

    A system service cannot reach a desktop PipeWire or PulseAudio session: name an ALSA device
    (``plughw:CARD=Device``, see ``aplay -L``) or set ``ALSA_CARD`` in the service environment.
    """

    def __init__(self, device: str = "", command: str = "aplay") -> None:
        self.device = device
        self.command = command

    def argv(self) -> list[str]:
        device = ["-D", self.device] if self.device else []
        return [self.command, "-q", *device, "-"]

    def play(self, wav: bytes) -> None:
        try:
            process = subprocess.Popen(
                self.argv(),
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
        except FileNotFoundError as exc:
            raise PlayerError(f"{self.command} not found (install alsa-utils)") from exc
        except OSError as exc:
            raise PlayerError(f"{self.command} could not start: {exc}") from exc
        lower_priority(process.pid)  # a sound may wait a moment; a press may not
        # The limit guards against a device that never drains (a hung USB card).
        limit = wav_duration(wav) + 5.0
        killed = threading.Event()

        def kill() -> None:
            killed.set()
            process.kill()

        timer = threading.Timer(limit, kill)
        timer.daemon = True
        timer.start()
        assert process.stdin is not None and process.stderr is not None
        try:
            # One blocking write while aplay drains the pipe, rather than a select loop of
            # 512-byte writes: this thread then needs the interpreter lock a few times per
            # sound, not hundreds, and the press path never waits for it.
            with contextlib.suppress(BrokenPipeError):  # aplay gave up early: see stderr
                process.stdin.write(wav)
            with contextlib.suppress(BrokenPipeError):
                process.stdin.close()
            stderr = process.stderr.read()
            process.wait()
        finally:
            timer.cancel()
            process.stdin.close()
            process.stderr.close()
        if killed.is_set():
            raise PlayerError(f"{self.command} did not finish within {limit:.1f} s")
        if process.returncode != 0:
            lines = stderr.decode("utf-8", "replace").strip().splitlines()
            reason = lines[-1] if lines else f"exit status {process.returncode}"
            raise PlayerError(f"{' '.join(self.argv())}: {reason}")


class _Speech:
    """A spoken line waiting for the output; ``played`` tells the speech worker how it went."""

    def __init__(self, wav: bytes) -> None:
        self.wav = wav
        self.finished = threading.Event()
        self.played = False


class AudioOutput:
    """Serialises cues and speech through one :class:`Player`.

    ``player`` None means no speaker: every sound is dropped at once. ``cue_max_age`` is how long
    (seconds) a cue may wait behind a spoken line before it is dropped. Call :meth:`close` at the
    end. The thread starts with the first sound. ``clock`` dates the cues (tests pass their own).
    """

    def __init__(
        self,
        player: Player | None,
        *,
        cue_max_age: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.player = player
        self.cue_max_age = cue_max_age
        self._clock = clock
        self._cond = threading.Condition()
        self._cues: collections.deque[tuple[float, bytes]] = collections.deque(maxlen=4)
        self._speech: collections.deque[_Speech] = collections.deque()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._failing = False
        self.played = 0
        self.failures = 0
        self.last_error = ""
        # Called (on the output's thread) when sound stops or starts working again, so whoever
        # shows :attr:`available` can say so at once rather than at the next change.
        self.on_change: Callable[[], None] | None = None

    @property
    def available(self) -> bool:
        """False when there is no player or the last sound failed to play."""
        return self.player is not None and not self._failing

    @property
    def queued(self) -> int:
        """Sounds waiting for the player (not counting the one playing)."""
        with self._cond:
            return len(self._cues) + len(self._speech)

    def play_cue(self, wav: bytes) -> None:
        """Queue a cue ahead of any speech; returns at once."""
        if self.player is None:
            return
        with self._cond:
            if self._closed:
                return
            self._cues.append((self._clock(), wav))
            self._start()
            self._cond.notify()

    def play_speech(self, wav: bytes) -> bool:
        """Play a spoken line after any queued cue; blocks until done. True if it was heard."""
        if self.player is None:
            return False
        speech = _Speech(wav)
        with self._cond:
            if self._closed:
                return False
            self._speech.append(speech)
            self._start()
            self._cond.notify()
        speech.finished.wait()
        return speech.played

    def close(self, timeout: float = 2.0) -> None:
        """Drop what is queued, let the current sound end (up to ``timeout`` s), stop the thread."""
        with self._cond:
            self._closed = True
            self._cues.clear()
            pending, self._speech = list(self._speech), collections.deque()
            self._cond.notify_all()
        for speech in pending:
            speech.finished.set()
        if self._thread is not None:
            self._thread.join(timeout)
        close_player = getattr(self.player, "close", None)
        if close_player is not None:  # a player with a process of its own
            close_player()

    def _start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="audio-output", daemon=True)
            self._thread.start()

    def _next(self) -> tuple[bytes, _Speech | None] | None:
        with self._cond:
            while True:
                if self._closed:
                    return None
                now = self._clock()
                while self._cues:
                    queued, wav = self._cues.popleft()
                    if now - queued <= self.cue_max_age:
                        return wav, None
                if self._speech:
                    speech = self._speech.popleft()
                    return speech.wav, speech
                self._cond.wait()

    def _run(self) -> None:
        while (job := self._next()) is not None:
            wav, speech = job
            ok = self._play(wav)
            if speech is not None:
                speech.played = ok
                speech.finished.set()

    def _play(self, wav: bytes) -> bool:
        assert self.player is not None
        try:
            self.player.play(wav)
        except Exception as exc:  # any player failure: log once, keep going silently
            self.failures += 1
            self.last_error = str(exc)
            if not self._failing:
                log.warning("audio output unavailable, going on without sound: %s", exc)
                self._failing = True
                self._changed()
            return False
        self.played += 1
        if self._failing:
            log.info("audio output works again")
            self._failing = False
            self._changed()
        return True

    def _changed(self) -> None:
        if self.on_change is not None:
            try:
                self.on_change()
            except Exception:  # whoever listens reports its own trouble; the sound goes on
                log.exception("sound output listener failed")
