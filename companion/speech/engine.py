"""The speech engine's side of the speech worker: runs inside a spawned child process.

pyttsx3 2.99 with espeak-ng has known traps (field notes): several ``say()`` before one
``runAndWait()`` speak only the last, ``runAndWait()`` from two threads hangs, an engine created
before a ``fork`` hangs in the child, and ``runAndWait()`` with nothing queued never returns. So
the engine lives alone in a *spawned* process (killable when it hangs), is created there once, and
does exactly one ``save_to_file()`` + ``runAndWait()`` per line. It writes a WAV instead of
playing: pyttsx3's own playback calls ``aplay`` on the default device, which can neither pick the
configured ALSA device nor wait for a sound cue. The parent plays the WAV through its one output.

An engine factory is named by a dotted path ``"package.module:function"`` so a spawned child can
import it; tests pass fakes that hang or crash.
"""

from __future__ import annotations

import collections
import importlib
import os
import signal
import sys
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from .priority import lower_process_priority
from .sounds import wav_duration

DEFAULT_ENGINE = "companion.speech.engine:pyttsx3_engine"
FINISH_TIMEOUT = 120.0
# Lines already synthesised, kept to be said again without espeak-ng: about a hundred lines of a
# second or two (22050 Hz, 16-bit), in this process, not the daemon's.
CACHE_BYTES = 8 * 1024 * 1024


class Synthesis(NamedTuple):
    """One synthesised line: the WAV bytes, and a note to log once (e.g. an unknown voice)."""

    wav: bytes
    note: str = ""


class Synthesiser(Protocol):
    """What an engine factory returns; ``synthesise`` may use ``path`` as scratch space."""

    def synthesise(
        self, text: str, voice: str, rate: int, volume: float, path: str
    ) -> Synthesis: ...


def import_object(dotted: str) -> Any:
    """The object named ``"package.module:attribute"``."""
    module_name, _, attribute = dotted.partition(":")
    if not attribute:
        raise ValueError(f"{dotted!r} is not of the form 'package.module:attribute'")
    return getattr(importlib.import_module(module_name), attribute)


class Pyttsx3Synthesiser:
    """The one pyttsx3 engine of this process, driven one line at a time."""

    def __init__(self, engine: Any, synchronize: Callable[[], object] | None = None) -> None:
        self._engine = engine
        self._synchronize = synchronize or (lambda: None)
        # Voice id -> (id, languages, name), to accept "fr-fr" or "French (France)" as well.
        self._voices: list[tuple[str, list[str], str]] = [
            (str(v.id), [str(lang).lower() for lang in (v.languages or [])], str(v.name))
            for v in engine.getProperty("voices")
        ]
        self._resolved: dict[str, tuple[str, str]] = {}
        # espeak-ng synthesises on its own thread: runAndWait() may return before the WAV is
        # written (seen on the first line of a fresh engine under load). pyttsx3 announces
        # "finished-utterance" only after the file is closed.
        self._finished = threading.Event()
        engine.connect("finished-utterance", self._on_finished)

    def _on_finished(self, **_: object) -> None:
        self._finished.set()

    def resolve_voice(self, wanted: str) -> tuple[str, str]:
        """``(voice id to set, note)``; the note is non-empty when ``wanted`` is unknown."""
        if wanted in self._resolved:
            return self._resolved[wanted]
        base, plus, variant = wanted.strip().partition("+")
        key = base.lower()
        found = ""
        for voice_id, languages, name in self._voices:
            if key in (voice_id, voice_id.rpartition("/")[2], name.lower()) or key in languages:
                found = voice_id
                break
        if found:
            result = (found + plus + variant, "")
        else:
            # SetVoiceByName silently keeps the previous voice: say so, use the language default.
            fallback = next(
                (v for v, langs, _ in self._voices if any(key[:2] == g[:2] for g in langs)), ""
            )
            note = f"unknown espeak-ng voice {wanted!r}, using {fallback or 'the default'}"
            result = (fallback, note)
        self._resolved[wanted] = result
        return result

    def synthesise(self, text: str, voice: str, rate: int, volume: float, path: str) -> Synthesis:
        voice_id, note = self.resolve_voice(voice) if voice else ("", "")
        engine = self._engine
        # Order matters: a rate set just before a voice change was seen to be lost.
        if voice_id:
            engine.setProperty("voice", voice_id)
        engine.setProperty("rate", rate)
        engine.setProperty("volume", volume)
        wav = self._save(text, Path(path))
        if wav_duration(wav) == 0.0:
            # The line was cancelled by the tail of the previous one (see _save): once more.
            wav = self._save(text, Path(path))
            if wav_duration(wav) == 0.0:
                raise RuntimeError("espeak-ng produced no sound for this line")
        return Synthesis(wav, note)

    def _save(self, text: str, target: Path) -> bytes:
        target.unlink(missing_ok=True)
        # runAndWait() calls the driver's stop(), which cancels whatever espeak-ng still plays:
        # wait for espeak-ng's own thread to be idle so it cannot cancel the new line.
        self._synchronize()
        self._finished.clear()
        self._engine.save_to_file(text, str(target))  # one line, then one runAndWait
        self._engine.runAndWait()
        # The parent's timeout is the real limit; this one only keeps the child from waiting
        # forever if the parent has gone.
        if not self._finished.wait(FINISH_TIMEOUT):
            raise TimeoutError("espeak-ng did not finish the line")
        self._synchronize()
        return target.read_bytes()


class SynthesisCache:
    """The last lines synthesised, up to ``max_bytes`` of WAV, least recently said dropped first.

    A table says the same few lines all evening ("À toi, Bruno.", "Alice, appuie 2 fois."):
    a line said before costs no synthesis, so espeak-ng takes a core only for new sentences
    (and the line is heard at once).
    """

    def __init__(self, max_bytes: int = CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self._lines: collections.OrderedDict[tuple[object, ...], Synthesis] = (
            collections.OrderedDict()
        )

    def get(self, key: tuple[object, ...]) -> Synthesis | None:
        found = self._lines.get(key)
        if found is not None:
            self._lines.move_to_end(key)
        return found

    def put(self, key: tuple[object, ...], synthesis: Synthesis) -> None:
        if len(synthesis.wav) > self.max_bytes or key in self._lines:
            return
        self._lines[key] = synthesis
        self.size += len(synthesis.wav)
        while self.size > self.max_bytes:
            _, dropped = self._lines.popitem(last=False)
            self.size -= len(dropped.wav)

    def __len__(self) -> int:
        return len(self._lines)


def pyttsx3_engine() -> Synthesiser:
    """The real engine: pyttsx3 with its espeak-ng driver (raises if either is missing)."""
    import pyttsx3
    from pyttsx3.drivers import _espeak

    return Pyttsx3Synthesiser(pyttsx3.init("espeak"), _espeak.Synchronize)


def child_main(conn: Connection, factory: str, workdir: str) -> None:
    """Entry point of the spawned engine process.

    Messages in: ``("say", text, voice, rate, volume)`` or ``("quit",)``.
    Messages out: ``("ready",)`` or ``("no-engine", reason)`` once, then per line
    ``("wav", bytes, note)`` or ``("error", reason)``.
    """
    # Ctrl-C in a terminal reaches the whole process group: the parent stops this process itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Loading espeak-ng happens once, at start, at the daemon's priority (in the idle class a busy
    # box could starve it for good); synthesis then takes a core for a while and must never
    # delay a press: from "ready" on, every thread of this process (espeak-ng synthesises on one
    # of its own) runs in the idle class at nice 19.
    # pyttsx3 prints "Audio saved to ..." for every line; the parent's stdout is not a log.
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the process
    try:
        synthesiser: Synthesiser = import_object(factory)()
    except Exception as exc:  # ImportError, OSError (no libespeak-ng), RuntimeError (init)
        conn.send(("no-engine", f"{type(exc).__name__}: {exc}"))
        return
    lower_process_priority(idle=True)
    conn.send(("ready",))
    path = os.path.join(workdir, f"line-{os.getpid()}.wav")
    cache = SynthesisCache()
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return  # the parent went away
        if message[0] != "say":
            return
        _, text, voice, rate, volume = message
        key = (text, voice, rate, volume)
        result = cache.get(key)
        if result is None:
            try:
                result = synthesiser.synthesise(text, voice, rate, volume, path)
            except Exception as exc:  # one bad line must not end the engine
                conn.send(("error", f"{type(exc).__name__}: {exc}"))
                continue
            cache.put(key, result)
        conn.send(("wav", result.wav, result.note))
