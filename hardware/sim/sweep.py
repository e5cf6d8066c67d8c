"""The feed simulation's sweep: stacks drawn from a fixed seed, fed one card after another, a
negative control, and a time-step check. ``make hardware-sim`` runs :func:`main`.

Each stack draws its card-on-card friction (0.2-0.5), tyre-on-card friction (0.6-1.2), card
thickness (0.27-0.33 mm) and size (5-100 cards); the four corners of the sweep (card-on-card 0.5,
tyre 0.6, thinnest and thickest cards, 5 and 100 cards) are fed too. Stacks run in parallel, one
per process.
"""

from __future__ import annotations

import json
import math
import os
import random
import sys
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from .feed import MM, Feed, FeedModel, Geometry, Settings, Stack, throw_distance

OUT = Path(__file__).resolve().parents[2] / "build" / "hardware-sim"
FEEDS_PER_STACK = 10
MU_CARD = (0.2, 0.5)
MU_TYRE = (0.6, 1.2)
THICKNESS = (0.27, 0.33)
STACK_SIZE = (5, 100)


def drawn_stack(seed: int) -> Stack:
    rng = random.Random(seed)
    return Stack(
        seed=seed,
        cards=rng.randint(*STACK_SIZE),
        mu_card=round(rng.uniform(*MU_CARD), 3),
        mu_tyre=round(rng.uniform(*MU_TYRE), 3),
        thickness=round(rng.uniform(*THICKNESS), 4) * MM,
    )


def corner_stacks(first_seed: int) -> list[Stack]:
    """The hardest corner of the sweep: card-on-card 0.5 against a tyre of 0.6."""
    corners = [(t, n) for t in THICKNESS for n in STACK_SIZE]
    return [
        Stack(first_seed + i, n, MU_CARD[1], MU_TYRE[0], t * MM) for i, (t, n) in enumerate(corners)
    ]


@dataclass(frozen=True)
class Job:
    geometry: Geometry
    stack: Stack
    feeds: int
    settings: Settings


def run_stack(job: Job) -> list[dict[str, object]]:
    """Feed ``job.feeds`` cards of one stack, one after another; one record per feed."""
    model = FeedModel(job.geometry, job.stack, job.settings)
    records = []
    for _ in range(min(job.feeds, job.stack.cards)):
        in_stack = model.remaining
        feed: Feed = model.feed_one()
        records.append(
            {
                "seed": job.stack.seed,
                "stack": in_stack,
                "mu_card": job.stack.mu_card,
                "mu_tyre": job.stack.mu_tyre,
                "thickness_mm": round(job.stack.thickness / MM, 4),
                "cards_out": feed.cards_out,
                "jam": feed.jam,
                "exit_speed": round(feed.exit_speed, 3),
            }
        )
    return records


def run(jobs: Sequence[Job], workers: int) -> list[dict[str, object]]:
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return [record for records in pool.map(run_stack, jobs) for record in records]


@dataclass(frozen=True)
class Summary:
    feeds: int
    singles: int
    doubles: int
    jams: int
    exit_speed: float  # mean over the single feeds

    @property
    def single_share(self) -> float:
        return self.singles / self.feeds if self.feeds else 0.0


def summarise(records: Iterable[dict[str, object]]) -> Summary:
    rows = list(records)
    singles = [r for r in rows if r["cards_out"] == 1 and not r["jam"]]
    speeds = [float(r["exit_speed"]) for r in singles]  # type: ignore[arg-type]
    return Summary(
        feeds=len(rows),
        singles=len(singles),
        doubles=sum(1 for r in rows if int(r["cards_out"]) >= 2),  # type: ignore[call-overload]
        jams=sum(1 for r in rows if r["jam"]),
        exit_speed=sum(speeds) / len(speeds) if speeds else 0.0,
    )


def outcomes(records: Iterable[dict[str, object]]) -> list[tuple[object, ...]]:
    return [(r["seed"], r["stack"], r["cards_out"], r["jam"]) for r in records]


def write(path: Path, records: Iterable[dict[str, object]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as out:
        for record in records:
            out.write(json.dumps(record) + "\n")


def main(argv: list[str]) -> int:
    from hardware.tools import scad

    stacks = int(argv[0]) if argv else 32
    workers = min(os.cpu_count() or 2, 2)
    started = time.monotonic()
    geometry = Geometry.from_fit(scad.fit_values())
    settings = Settings()
    drawn = [drawn_stack(seed) for seed in range(stacks)]
    design = [Job(geometry, s, FEEDS_PER_STACK, settings) for s in drawn + corner_stacks(1000)]
    control = [Job(geometry.control(s.thickness), s, 5, settings) for s in drawn[:8]]
    sample = [Job(geometry, s, 4, settings.halved()) for s in drawn[:4]]
    plain = [Job(geometry.plain(), s, 5, settings) for s in corner_stacks(2000)]
    results = run(design + control + plain + sample, workers)
    n_design = sum(min(j.feeds, j.stack.cards) for j in design)
    n_control = sum(min(j.feeds, j.stack.cards) for j in control)
    n_plain = sum(min(j.feeds, j.stack.cards) for j in plain)
    feeds, rest = results[:n_design], results[n_design:]
    controls, rest = rest[:n_control], rest[n_control:]
    plains, halved = rest[:n_plain], rest[n_plain:]
    write(OUT / "feeds.jsonl", feeds)
    write(OUT / "control.jsonl", controls)
    write(OUT / "plain.jsonl", plains)
    write(OUT / "halved-step.jsonl", halved)

    full = {(r["seed"], r["stack"]): r for r in feeds}
    same_step = [full[(r["seed"], r["stack"])] for r in halved]
    step_ok = outcomes(same_step) == outcomes(halved)
    result = summarise(feeds)
    ctrl = summarise(controls)
    launch_from = geometry.pinch_x  # the nip, from the turret's axis
    throw = throw_distance(
        result.exit_speed, geometry.launch_height, geometry.launch_angle, launch_from
    )
    corners = summarise(r for r in feeds if int(r["seed"]) >= 1000)  # type: ignore[call-overload]
    print(
        f"corner stacks (card-on-card 0.5, tyre 0.6): {corners.singles}/{corners.feeds} single, "
        f"{corners.jams} jams"
    )
    print(
        f"control (throat at two cards, no separator): {ctrl.doubles} doubles, {ctrl.jams} jams "
        f"over {ctrl.feeds} feeds -> {OUT / 'control.jsonl'}"
    )
    bare = summarise(plains)
    print(
        f"plain bottom feed (one tyre, floor under the stack) at the corner: {bare.jams} jams, "
        f"{bare.singles} single over {bare.feeds} feeds -> {OUT / 'plain.jsonl'}"
    )
    print(
        f"time step halved on {len(halved)} feeds: "
        + ("same outcomes" if step_ok else "OUTCOMES DIFFER")
    )
    print(
        f"launch {geometry.launch_height / MM:.0f} mm over the table, "
        f"{geometry.launch_angle:g}° up, {launch_from / MM:.0f} mm from the axis; "
        f"{len(results)} feeds simulated in {time.monotonic() - started:.0f} s "
        f"on {workers} processes -> {OUT / 'feeds.jsonl'}"
    )
    print(
        f"single feeds: {100 * result.single_share:.1f} % over {result.feeds} feeds, "
        f"doubles: {result.doubles}, jams: {result.jams}, "
        f"exit speed: {result.exit_speed:.2f} m/s, throw: {throw:.2f} m"
    )
    good = (
        result.feeds >= 300
        and result.single_share >= 0.99
        and result.jams == 0
        and ctrl.doubles > 0
        and step_ok
        and not math.isnan(throw)
    )
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
