"""The camera's card reader: speed of a read and of watching a still pile, and accuracy on the
renderer's drawings in a style the reader was never tuned on (a font no training style uses).

Targets: one 640 × 480 frame read in ≤ 30 ms; a still pile watched at 10 frames a second for
≤ 5 % of a core; on held-out stills the kind right ≥ 98 %, sure reads right ≥ 99.5 % on ≥ 90 %
of stills; over films ≥ 95 % of cards read right, no card that was not played, the decision
≤ 1 s after the hand has left (p95). ``VISION_STILLS`` and ``VISION_FILMS`` set the sample sizes.
"""

from __future__ import annotations

import os
import statistics
import time

from companion.vision import TimedFrame, Watcher, default_model
from companion.vision.measure import (
    held_out_sequences,
    held_out_stills,
    score_sequences,
    score_stills,
)
from companion.vision.render import FPS

STYLES = 6  # held-out printings, all in the font no training style uses


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def read_speed(model: object, stills: list) -> None:  # type: ignore[type-arg]
    images = [s.image for s in stills]
    for image in images[:5]:
        model.read(image)  # type: ignore[attr-defined]
    times = []
    for image in images:
        start = time.perf_counter()
        model.read(image)  # type: ignore[attr-defined]
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    median = statistics.median(times)
    p95 = times[round(0.95 * (len(times) - 1))]
    print(
        f"read one 640×480 frame: median {median:.1f} ms, p95 {p95:.1f} ms "
        f"[target ≤ 30 ms: {verdict(median <= 30)}]"
    )


def watch_cost(model: object) -> None:
    film = held_out_sequences(1, seed=900, plays=0, passes=0, lamp_changes=0)[0]
    frames = [TimedFrame(f.t_ms, f.image) for f in film.frames]
    watcher = Watcher(model)  # type: ignore[arg-type]
    seconds = 30
    cpu = time.process_time()
    for i in range(seconds * FPS):
        frame = frames[i % len(frames)]
        watcher.feed(TimedFrame(i * 1000 // FPS, frame.image))
    used = time.process_time() - cpu
    share = used / seconds * 100
    print(
        f"watch a still pile at {FPS} frames/s: {share:.2f} % of a core "
        f"({watcher.reads} read(s) in {seconds} s) [target ≤ 5 %: {verdict(share <= 5)}]"
    )


def main() -> None:
    model = default_model()
    print(f"model: {model.origin}; sure at p ≥ {model.sure_at:.3f}")
    count = int(os.environ.get("VISION_STILLS", "600"))
    start = time.perf_counter()
    stills = held_out_stills(count, seed=7, styles=STYLES)
    print(
        f"{count} held-out stills in {STYLES} styles drawn in {time.perf_counter() - start:.0f} s"
    )
    read_speed(model, stills[:200])
    watch_cost(model)
    score = score_stills(model, stills)
    print(
        f"held-out stills: kind right {score.kind_rate:.1%} "
        f"[≥ 98 %: {verdict(score.kind_rate >= 0.98)}]; "
        f"sure on {score.sure_share:.1%} [≥ 90 %: {verdict(score.sure_share >= 0.9)}], "
        f"right when sure {score.sure_precision:.2%} "
        f"[≥ 99.5 %: {verdict(score.sure_precision >= 0.995)}]"
    )
    for mistake in score.mistakes[:12]:
        print(f"  {mistake}")
    films = int(os.environ.get("VISION_FILMS", "20"))
    sequences = held_out_sequences(
        films, seed=300, plays=3, passes=1, lamp_changes=1, rests=1, styles=STYLES
    )
    seen = score_sequences(model, sequences)
    frames = sum(len(s.frames) for s in sequences)
    p95 = seen.delay_p95()
    print(
        f"held-out films: {films} films, {frames} frames, {seen.plays} cards played "
        f"(with {films} hands passing over, {films} resting on the pile, {films} lamp changes): "
        f"read right "
        f"{seen.right_rate:.1%} [≥ 95 %: {verdict(seen.right_rate >= 0.95)}], "
        f"{seen.extra} card(s) not played [0: {verdict(seen.extra == 0)}], "
        f"decision after the hand left p95 {p95} ms [≤ 1000: {verdict(p95 <= 1000)}]"
    )


if __name__ == "__main__":
    main()
