"""The feed simulation's tolerance sweep, its controls and its counted firings.

``make hardware-sim`` runs :func:`main` with no arguments: stacks drawn from a fixed seed, each
with its own print errors (throat and nose floor ±0.1 mm, the separator spring's preload ±30 %),
card thickness, card-on-card friction and tyre friction over ``dims.scad``'s ranges, and a
magazine of 1 to 112 cards fed one card after another down to empty. Every feed whose outcome is
near a limit (a jam, a double, a second card held by the separator, or a card slow to reach the
beam) is fed again from the same state at half the time step and the two verdicts compared. A
negative control (the throat at two cards, no separator) must still double. Then counted
firings of 1, 5 and 14 cards, as the software fires.

``python -m hardware.sim --mu-card 0.7 --throat-err 0.1 ...`` feeds one card at the values given
and prints the same JSON line the sweep writes; ``--fire N`` fires N cards instead.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from companion.devices.config import EjectorConfig
from companion.devices.ejector import fan_duty, passing_duties

from .feed import MM, Feed, FeedModel, Firing, Geometry, PrintErrors, Settings, Stack

OUT = Path(__file__).resolve().parents[2] / "build" / "hardware-sim"
THICKNESS = (0.27, 0.36)  # mm: the card_t_range the sweep covers (wider than dims.scad's)
PRINT_ERROR_MM = 0.1  # throat and nose floor, either way
NOSE_STEP_MM = 0.1  # the nose errors drawn, in steps: each one cuts the magazine again (minutes)
SPRING_ERROR = 0.3  # the separator spring's preload, either way
TYRE_MU_LOW = 0.6  # silicone on coated card, dusty or worn: under dims.scad's lowest
GATE_RISE_MM = (0.0, 0.2)  # how far the clamped gate's edge can give (a bending card, the shim)
EDGE_R_MM = (0.1, 0.2)  # the gate's lower edge as printed or shimmed: its radius
STACK_SIZE = (1, 112)
MIN_FEEDS = 1000
FIRINGS = (1, 5, 14)
FIRE_LIMIT_S = 1.0  # a 5-card firing, command to last card out
FIRING_DRAWS = 100  # 5-card firings on 40-card stacks over the drawn friction and thickness
COUNTED_RIGHT = 0.99  # the share of those the software's beam code must count right


@dataclass(frozen=True)
class Draw:
    """One stack of the sweep: what it drew."""

    stack: Stack
    errors: PrintErrors


def draw(seed: int, friction: Sequence[Sequence[float]]) -> Draw:
    """The stack and print errors of ``seed`` (card and tyre friction ranges from dims.scad)."""
    (card_lo, card_hi), (_, tyre_hi) = friction[0], friction[1]
    tyre_lo = TYRE_MU_LOW
    rng = random.Random(seed)
    stack = Stack(
        seed=seed,
        cards=rng.randint(*STACK_SIZE),
        mu_card=round(rng.uniform(card_lo, card_hi), 3),
        mu_tyre=round(rng.uniform(tyre_lo, tyre_hi), 3),
        thickness=round(rng.uniform(*THICKNESS), 4) * MM,
    )
    nose_steps = round(PRINT_ERROR_MM / NOSE_STEP_MM)
    errors = PrintErrors(
        throat=round(rng.uniform(-PRINT_ERROR_MM, PRINT_ERROR_MM), 3) * MM,
        nose=rng.randint(-nose_steps, nose_steps) * NOSE_STEP_MM * MM,
        separator=round(rng.uniform(-SPRING_ERROR, SPRING_ERROR), 3),
        rise=round(rng.uniform(*GATE_RISE_MM), 3) * MM,
        edge_r=round(rng.uniform(*EDGE_R_MM), 3) * MM,
    )
    return Draw(stack, errors)


@dataclass(frozen=True)
class Job:
    geometry: Geometry  # as drawn; the job's print errors are applied to it
    draw: Draw
    settings: Settings
    feeds: int | None = None  # None: down to empty
    check_step: bool = True  # feed the near-limit ones again at half the step
    control: bool = False  # the negative control's stack


def record(job: Job, in_stack: int, feed: Feed) -> dict[str, Any]:
    s, e = job.draw.stack, job.draw.errors
    return {
        "seed": s.seed,
        "stack": in_stack,
        "mu_card": s.mu_card,
        "mu_tyre": s.mu_tyre,
        "thickness_mm": round(s.thickness / MM, 4),
        "throat_err_mm": round(e.throat / MM, 3),
        "nose_err_mm": round(e.nose / MM, 3),
        "separator_err": e.separator,
        "gate_rise_mm": round(e.rise / MM, 3),
        "edge_r_mm": round(e.edge_r / MM, 3),
        "cards_out": feed.cards_out,
        "jam": feed.jam,
        "exit_speed": round(feed.exit_speed, 3),
        "to_beam_s": round(feed.to_beam, 4),
        "held": feed.held,
        "past_gate": feed.past_gate,
        "unstable": feed.unstable,
        "control": job.control,
        "converged": None,
    }


def near_limit(feed: Feed, g: Geometry) -> bool:
    """A feed whose verdict counts against the design: a jam or other than one card. (A second
    card the separator held, or a slow card, is most feeds: fed again they would treble the
    sweep's time.)"""
    return feed.jam or feed.cards_out != 1


def verdict(feed: Feed) -> tuple[int, bool]:
    return (feed.cards_out, feed.jam)


def run_stack(job: Job) -> list[dict[str, Any]]:
    """Feed one stack card after card (down to empty, or ``job.feeds`` cards); one record per
    feed. A feed near a limit is fed again from the same state at half the time step."""
    g = job.geometry
    model = FeedModel(g, job.draw.stack, job.settings, job.draw.errors)
    records: list[dict[str, Any]] = []
    while model.remaining > 0 and (job.feeds is None or len(records) < job.feeds):
        in_stack = model.remaining
        before = model.snapshot()
        feed = model.feed_one()
        row = record(job, in_stack, feed)
        if job.check_step and near_limit(feed, g):
            fine = FeedModel(
                g, job.draw.stack, job.settings.halved(), job.draw.errors, model.shapes
            )
            fine.restore(before)
            row["converged"] = verdict(fine.feed_one()) == verdict(feed)
        records.append(row)
        if feed.jam:
            break  # a jam ends the stack: the player clears it
    return records


def run(jobs: Sequence[Job], workers: int) -> list[list[dict[str, Any]]]:
    if workers <= 1:
        return [run_stack(job) for job in jobs]
    OUT.mkdir(parents=True, exist_ok=True)
    with (
        ProcessPoolExecutor(max_workers=workers) as pool,
        (OUT / "partial.jsonl").open("w") as part,
    ):
        futures = [pool.submit(run_stack, job) for job in jobs]
        for done, future in enumerate(as_completed(futures), 1):
            print(f"\r{done}/{len(jobs)} stacks fed", end="", file=sys.stderr, flush=True)
            # each stack's feeds as it ends: a sweep stopped early still says what it saw
            for row in future.result():
                part.write(json.dumps(row) + "\n")
            part.flush()
        print(file=sys.stderr)
        return [future.result() for future in futures]


@dataclass(frozen=True)
class Summary:
    feeds: int
    singles: int
    doubles: int
    jams: int
    near: int
    converged: int
    exit_speed: float  # mean over the single feeds
    two_through: int = 0  # feeds that took two cards or more through the throat

    @property
    def single_share(self) -> float:
        return self.singles / self.feeds if self.feeds else 0.0

    @property
    def jam_share(self) -> float:
        return self.jams / self.feeds if self.feeds else 0.0

    @property
    def converged_share(self) -> float:
        return self.converged / self.near if self.near else 1.0


def summarise(records: Iterable[dict[str, Any]]) -> Summary:
    rows = list(records)
    singles = [r for r in rows if r["cards_out"] == 1 and not r["jam"]]
    speeds = [float(r["exit_speed"]) for r in singles]
    checked = [r for r in rows if r.get("converged") is not None]
    return Summary(
        feeds=len(rows),
        singles=len(singles),
        doubles=sum(1 for r in rows if int(r["cards_out"]) >= 2),
        jams=sum(1 for r in rows if r["jam"]),
        near=len(checked),
        converged=sum(1 for r in checked if r["converged"]),
        exit_speed=sum(speeds) / len(speeds) if speeds else 0.0,
        two_through=sum(
            1 for r in rows if int(r["cards_out"]) >= 2 or int(r.get("past_gate", 0)) >= 2
        ),
    )


def spread(records: Sequence[dict[str, Any]], key: str) -> tuple[float, float]:
    values = [float(r[key]) for r in records]
    return (min(values), max(values)) if values else (math.nan, math.nan)


COVER = 2 / 3  # the sweep's draws must reach over this much of each range


def ranges(friction: Sequence[Sequence[float]]) -> dict[str, tuple[float, float]]:
    """Each drawn value's range, as the JSON lines name it."""
    return {
        "stack": (1, STACK_SIZE[1]),
        "mu_card": (friction[0][0], friction[0][1]),
        "mu_tyre": (TYRE_MU_LOW, friction[1][1]),
        "thickness_mm": THICKNESS,
        "throat_err_mm": (-PRINT_ERROR_MM, PRINT_ERROR_MM),
        "nose_err_mm": (-PRINT_ERROR_MM, PRINT_ERROR_MM),
        "separator_err": (-SPRING_ERROR, SPRING_ERROR),
        "gate_rise_mm": GATE_RISE_MM,
        "edge_r_mm": EDGE_R_MM,
    }


def uncovered(records: Sequence[dict[str, Any]], friction: Sequence[Sequence[float]]) -> list[str]:
    """The drawn values whose spread over ``records`` reaches over less than COVER of their
    range (every stack is fed down to one card, so ``stack`` covers from 1 up)."""
    out = []
    for key, (lo, hi) in ranges(friction).items():
        got_lo, got_hi = spread(records, key)
        if not (got_hi - got_lo) >= COVER * (hi - lo):
            out.append(f"{key} {got_lo:g}..{got_hi:g} of {lo:g}..{hi:g}")
    return out


def write(path: Path, records: Iterable[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as out:
        for row in records:
            out.write(json.dumps(row) + "\n")


# ------------------------------------------------------------------ counted firings


@dataclass(frozen=True)
class FireJob:
    geometry: Geometry
    cards: int
    stack: Stack
    settings: Settings = field(default_factory=Settings)
    errors: PrintErrors = field(default_factory=PrintErrors)


def fan_duties(cards: int, config: EjectorConfig) -> list[float]:
    """The exit motor's duty for each card of a firing, as the software steps it."""
    return [fan_duty(config.exit_duty, config.exit_fan, k, cards) for k in range(max(cards, 1))]


def fire(job: FireJob) -> Firing:
    """A counted firing with the software's own settings (its defaults): the pinch's spin-up,
    its duty per card, and the time-out that calls a jam."""
    config = EjectorConfig()
    model = FeedModel(job.geometry, job.stack, job.settings, job.errors)
    return model.fire(
        job.cards,
        config.exit_spin_up_s,
        fan_duties(job.cards, config),
        margin=config.margin,
        card_interval=config.card_interval_s,
        passing=passing_duties(config, job.cards),
    )


def fire_all(jobs: Sequence[FireJob], workers: int) -> list[Firing]:
    if workers <= 1:
        return [fire(job) for job in jobs]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(fire, jobs))


def firing_record(job: FireJob, result: Firing) -> dict[str, Any]:
    return {
        "asked": result.asked,
        "counted": result.counted,
        "cards_out": result.cards_out,
        "doubles": result.doubles,
        "jam": result.jam,
        "seconds": round(result.seconds, 3),
        "landing_m": [round(x, 3) for x in result.landing],
        "exit_speeds": [round(v, 2) for v in result.speeds],
        "stack": job.stack.cards,
        "mu_card": job.stack.mu_card,
        "mu_tyre": job.stack.mu_tyre,
        "thickness_mm": round(job.stack.thickness / MM, 4),
    }


# ------------------------------------------------------------------ the commands


def geometry() -> tuple[Geometry, Any]:
    from hardware.tools import scad

    fit = scad.fit_values()
    return Geometry.from_fit(fit), fit["friction"]


def sweep(stacks: int | None, workers: int) -> int:
    started = time.monotonic()
    g, friction = geometry()
    settings = Settings()
    draws: list[Draw] = []
    seed = 0
    expected = 0
    while (stacks is None and expected < MIN_FEEDS) or (stacks is not None and seed < stacks):
        drawn = draw(seed, friction)
        draws.append(drawn)
        expected += drawn.stack.cards
        seed += 1
    design = [Job(g, d, settings) for d in draws]
    # the negative control: the same stacks' first five cards, the throat at two cards and no
    # separator
    control = [
        Job(g.control(d.stack.thickness), Draw(d.stack, PrintErrors()), settings, 5, False, True)
        for d in draws[:8]
    ]
    # the longest stacks first, so the processes finish together
    jobs = sorted(design + control, key=lambda j: -(j.feeds or j.draw.stack.cards))
    done = {id(job): rows for job, rows in zip(jobs, run(jobs, workers), strict=True)}
    feeds = [row for job in design for row in done[id(job)]]
    controls = [row for job in control for row in done[id(job)]]
    write(OUT / "feeds.jsonl", feeds)
    write(OUT / "control.jsonl", controls)
    firings = [
        FireJob(g, n, Stack(3000 + n, 40, 0.5, (friction[1][0] + friction[1][1]) / 2, 0.3 * MM))
        for n in FIRINGS
    ]
    firings += [
        FireJob(g, 5, replace(d.stack, cards=40), errors=d.errors)
        for d in (draw(5000 + seed, friction) for seed in range(FIRING_DRAWS))
    ]
    results = fire_all(firings, workers)
    fired = [firing_record(job, result) for job, result in zip(firings, results, strict=True)]
    write(OUT / "firings.jsonl", fired)
    nominal, drawn_fired = fired[: len(FIRINGS)], fired[len(FIRINGS) :]
    right = [
        r for r in drawn_fired if r["counted"] == r["asked"] == r["cards_out"] and not r["jam"]
    ]
    seconds = sorted(float(r["seconds"]) for r in right)

    result, ctrl = summarise(feeds), summarise(controls)
    print(
        f"control (throat at two cards, no separator): {ctrl.doubles} doubles, {ctrl.jams} jams "
        f"over {ctrl.feeds} feeds -> {OUT / 'control.jsonl'}"
    )
    for key in ranges(friction):
        lo, hi = spread(feeds, key)
        print(f"  {key}: {lo:g} .. {hi:g}")
    gaps = uncovered(feeds, friction)
    if gaps:
        print("RANGES NOT COVERED: " + "; ".join(gaps))
    for row in nominal:
        print(
            f"firing {row['asked']}: counted {row['counted']}, out {row['cards_out']}, "
            f"doubles {row['doubles']}, jam {row['jam']}, {row['seconds']:.2f} s, landing "
            + ", ".join(f"{x:.2f}" for x in row["landing_m"])
            + " m"
        )
    print(
        f"{len(draws)} stacks, {result.feeds + ctrl.feeds} feeds in "
        f"{time.monotonic() - started:.0f} s on {workers} processes -> {OUT / 'feeds.jsonl'}"
    )
    print(
        f"single feeds: {100 * result.single_share:.1f} % over {result.feeds} feeds, "
        f"doubles: {result.doubles}, jams: {result.jams} ({100 * result.jam_share:.2f} %), "
        f"near-limit feeds converged at half the step: {result.converged}/{result.near}, "
        f"unstable: {sum(1 for r in feeds if r.get('unstable'))}, "
        f"exit speed: {result.exit_speed:.2f} m/s"
    )
    print(
        f"5-card firings over the drawn ranges (40-card stacks): {len(right)}/{len(drawn_fired)} "
        "counted right by the software's beam code"
        + (f", {seconds[0]:.2f}-{seconds[-1]:.2f} s" if seconds else "")
    )
    print(
        f"control (throat at two cards, no separator): {ctrl.two_through} of {ctrl.feeds} feeds "
        "took two cards through the throat"
    )
    five = next(r for r in nominal if r["asked"] == 5)
    good = (
        result.feeds >= (MIN_FEEDS if stacks is None else 1)
        and result.single_share >= 0.99
        and result.jam_share <= 0.005
        and result.doubles == 0
        and result.converged_share >= 0.95
        and ctrl.two_through > 0
        and all(r["counted"] == r["asked"] == r["cards_out"] and not r["jam"] for r in nominal)
        and len(right) >= COUNTED_RIGHT * len(drawn_fired)
        and five["seconds"] <= FIRE_LIMIT_S
        and not gaps
    )
    return 0 if good else 1


def single(args: argparse.Namespace) -> int:
    g, friction = geometry()
    stack = Stack(
        args.seed,
        args.stack,
        args.mu_card,
        args.mu_tyre if args.mu_tyre >= 0 else friction[1][0],
        args.thickness * MM,
    )
    errors = PrintErrors(
        args.throat_err * MM,
        args.nose_err * MM,
        args.separator_err,
        args.gate_rise * MM,
        args.edge_r * MM,
    )
    if args.fire:
        job = FireJob(g, args.fire, stack, errors=errors)
        print(json.dumps(firing_record(job, fire(job))))
        return 0
    # several cards in a row, each near-limit one fed again at half the time step
    for row in run_stack(Job(g, Draw(stack, errors), Settings(), feeds=args.feeds)):
        print(json.dumps(row))
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m hardware.sim",
        description="The feed's simulation: with no feed option, the whole tolerance sweep.",
    )
    p.add_argument("--stacks", type=int, help="sweep this many drawn stacks (default: enough "
                   f"for {MIN_FEEDS} feeds)")  # fmt: skip
    p.add_argument("--workers", type=int, default=2)
    one = p.add_argument_group("one feed at given values (prints its JSON line)")
    for name, default, text in ONE_FEED:
        one.add_argument(f"--{name.replace('_', '-')}", type=type(default), help=text)
    one.add_argument("--feeds", type=int, default=1, help="feed this many cards in a row")
    one.add_argument("--fire", type=int, help="a counted firing of this many cards instead")
    return p


# the single feed's options: name, value when not given, help
ONE_FEED: tuple[tuple[str, float, str], ...] = (
    ("mu_card", 0.5, "card on card (default 0.5)"),
    ("mu_tyre", -1.0, "tyre on card (default: the tyre material's lowest)"),
    ("thickness", 0.3, "card thickness, mm (default 0.3)"),
    ("throat_err", 0.0, "the throat off the drawing, mm"),
    ("nose_err", 0.0, "the nose floor off the drawing, mm (+ is higher)"),
    ("separator_err", 0.0, "the separator spring's preload off, a fraction (+0.3: 30 % stronger)"),
    ("gate_rise", 0.0, "how far the clamped gate's edge can give, mm (0-0.2)"),
    ("edge_r", 0.15, "the gate's lower edge radius, mm (0.1-0.2)"),
    ("stack", 20, "cards in the magazine (default 20)"),
    ("seed", 0, "the stack's seed"),
)


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    given = [name for name, _, _ in ONE_FEED if getattr(args, name) is not None]
    if not given and args.fire is None:
        return sweep(args.stacks, args.workers)
    for name, default, _ in ONE_FEED:
        if getattr(args, name) is None:
            setattr(args, name, default)
    return single(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
