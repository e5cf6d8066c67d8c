"""Speech: submit() and Voice.handle() latency with the engine busy vs disabled, and time to
first audio (real pyttsx3 + espeak-ng; the "speaker" is simulated: it takes as long as the WAV).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import replace

from companion.core.commands import Priority, Say
from companion.i18n import Catalog
from companion.speech import SpeechConfig, SpeechWorker, Voice, wav_duration

CALLS = 20_000
SAYS = [
    Say("table.turn", {"player": "Alice", "reason": "skip"}),
    Say("table.press_owed", {"player": "Bruno", "presses": 2}, Priority.PROMPT),
    Say("table.contre_uno", {"player": "Chloé", "presses": 2}, Priority.PENALTY),
    Say("table.magazine_low", {"cards": 18}, Priority.WARNING),
]


class SimulatedSpeaker:
    """A player that takes as long as the sound, as a real speaker would."""

    def __init__(self) -> None:
        self.first_audio = threading.Event()
        self.first_at = 0.0

    def play(self, wav: bytes) -> None:
        if not self.first_audio.is_set():
            self.first_at = time.perf_counter()
            self.first_audio.set()
        time.sleep(wav_duration(wav))

    def __call__(self, wav: bytes) -> bool:
        self.play(wav)
        return True


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p50 = ordered[len(ordered) // 2]
    p99 = ordered[int(len(ordered) * 0.99)]
    return f"p50 {p50 * 1e6:6.1f} µs  p99 {p99 * 1e6:6.1f} µs  max {ordered[-1] * 1e6:7.1f} µs"


def timed(call: Callable[[int], object], count: int = CALLS) -> list[float]:
    samples = []
    for i in range(count):
        started = time.perf_counter()
        call(i)
        samples.append(time.perf_counter() - started)
        if i % 50 == 0:
            time.sleep(0.0005)  # presses arrive over time; let the worker thread run
    return samples


def wait_ready(worker: SpeechWorker) -> None:
    deadline = time.monotonic() + 30
    while worker.available is None and time.monotonic() < deadline:
        time.sleep(0.01)
    if worker.available is not True:
        raise SystemExit(f"speech bench needs espeak-ng: {worker.unavailable_reason}")


def bench_submit() -> None:
    off = SpeechWorker(SpeechConfig(enabled=False), lambda wav: True)
    print(f"submit, speech disabled   : {percentiles(timed(lambda i: off.submit(f'line {i}')))}")
    off.close()

    speaker = SimulatedSpeaker()
    busy = SpeechWorker(SpeechConfig(), speaker)
    wait_ready(busy)
    busy.submit("Le distributeur est bloqué ou vide. Vérifiez-le.", Priority.RESULT)
    samples = timed(
        lambda i: busy.submit(
            f"À toi, joueur {i}.", Priority(10 * (1 + i % 5)), slot=f"slot{i % 6}", voice="roa/fr"
        )
    )
    stats = busy.stats()
    print(f"submit, engine busy       : {percentiles(samples)}")
    print(
        f"  ({stats.submitted} submitted: {stats.spoken} spoken, {stats.replaced} replaced, "
        f"{stats.evicted} evicted, {stats.stale} stale, {stats.pending} pending at the end)"
    )
    busy.close()


def bench_voice_handle() -> None:
    catalog = Catalog.load()
    for label, enabled in (("off", False), ("on, busy", True)):
        config = replace(SpeechConfig(turn_announcements="every_turn"), enabled=enabled)
        voice = Voice(config, catalog, "fr", player=SimulatedSpeaker())
        if enabled:
            wait_ready(voice.worker)
        samples = timed(lambda i, voice=voice: voice.handle(SAYS[i % len(SAYS)]))
        print(f"Voice.handle(Say), {label:<8}: {percentiles(samples)}")
        voice.close()


def bench_first_audio() -> None:
    phrase = "À toi, Alice."
    speaker = SimulatedSpeaker()
    started = time.perf_counter()
    worker = SpeechWorker(SpeechConfig(), speaker)
    worker.submit(phrase, voice="roa/fr")
    speaker.first_audio.wait(30)
    cold = speaker.first_at - started
    worker.wait_idle(30)

    def first_audio(text: str) -> float:
        speaker.first_audio.clear()
        started = time.perf_counter()
        worker.submit(text, voice="roa/fr")
        speaker.first_audio.wait(30)
        worker.wait_idle(30)
        return speaker.first_at - started

    # A new sentence is synthesised; a sentence said before comes from the engine's cache.
    new = sorted(first_audio(f"À toi, joueur {i}.") for i in range(10))
    again = sorted(first_audio(phrase) for _ in range(10))
    worker.close()
    print(f"first audio, cold start   : {cold * 1e3:6.1f} ms (engine process start + synthesis)")
    for label, warm in (("new line", new), ("said before", again)):
        print(
            f"first audio, {label:<12} : p50 {warm[len(warm) // 2] * 1e3:.1f} ms, "
            f"max {warm[-1] * 1e3:.1f} ms"
        )


def main() -> None:
    bench_submit()
    bench_voice_handle()
    bench_first_audio()


if __name__ == "__main__":
    main()
