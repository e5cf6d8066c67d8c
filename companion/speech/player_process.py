"""The speaker's player in a process of its own, so playing a sound costs the daemon nothing.

Starting ``aplay`` from the daemon would hold its interpreter lock for a moment on every sound
(pipes, the fork, a watchdog thread), and there is a cue on every press. :class:`PlayerProcess`
hands each WAV over a pipe to a small child process that runs
:class:`~companion.speech.output.AplayPlayer` and answers when the sound has played; the daemon's
thread waits on the pipe without holding the lock.

The child is spawned (not forked: the daemon has threads) when the player is made, at nice 19
like ``aplay`` itself; if it dies it is started again with the next sound.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess

from .output import AplayPlayer, PlayerError
from .priority import lower_process_priority
from .sounds import wav_duration

# How long past a sound's own length the child may take to answer (aplay's own watchdog fires at
# five seconds past it; this one only covers a child that is stuck as a whole).
ANSWER_GRACE = 10.0


def player_main(conn: Connection, device: str, command: str) -> None:
    """Entry point of the player process: play each WAV received, answer how it went.

    In: WAV bytes (``send_bytes``), or an empty message to stop.
    Out: ``("played",)`` or ``("failed", reason)`` per sound.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the daemon stops this process itself
    lower_process_priority()
    player = AplayPlayer(device, command)
    while True:
        try:
            wav = conn.recv_bytes()
        except (EOFError, OSError):
            return  # the daemon went away
        if not wav:
            return
        try:
            player.play(wav)
        except PlayerError as exc:
            conn.send(("failed", str(exc)))
        else:
            conn.send(("played",))


class PlayerProcess:
    """A :class:`~companion.speech.output.Player` that plays through ``aplay -D device`` in a
    child process (see the module docstring). Call :meth:`close` at the end."""

    def __init__(self, device: str = "", command: str = "aplay") -> None:
        self.device = device
        self.command = command
        self._process: BaseProcess | None = None
        self._conn: Connection | None = None
        self._start()

    def _start(self) -> None:
        context = multiprocessing.get_context("spawn")
        parent_conn, child_conn = context.Pipe()
        process = context.Process(
            target=player_main,
            args=(child_conn, self.device, self.command),
            name="audio-player",
            daemon=True,
        )
        process.start()
        child_conn.close()  # so a dead child reads as end of file here
        self._process, self._conn = process, parent_conn

    @property
    def process(self) -> BaseProcess | None:
        """The player's child process while one runs (``None`` before the first sound and
        once closed)."""
        return self._process

    def play(self, wav: bytes) -> None:
        if self._conn is None:
            self._start()
        assert self._conn is not None
        try:
            self._conn.send_bytes(wav)
            if not self._conn.poll(wav_duration(wav) + ANSWER_GRACE):
                raise PlayerError("the audio player process did not answer")
            reply = self._conn.recv()
        except (EOFError, OSError, PlayerError) as exc:
            self._stop(grace=0.0)  # a new process plays the next sound
            if isinstance(exc, PlayerError):
                raise
            reason = str(exc) or type(exc).__name__
            raise PlayerError(f"the audio player process stopped: {reason}") from exc
        if reply[0] != "played":
            raise PlayerError(reply[1])

    def close(self) -> None:
        """Stop the player process (a sound playing is cut short)."""
        self._stop(grace=1.0)

    def _stop(self, grace: float) -> None:
        process, conn = self._process, self._conn
        self._process = self._conn = None
        if conn is not None:
            with contextlib.suppress(OSError, ValueError):
                conn.send_bytes(b"")
            conn.close()
        if process is not None:
            process.join(grace)
            if process.is_alive():
                process.kill()
                process.join(2.0)
            process.close()
