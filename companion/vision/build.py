"""The default model, learned from the project's own drawings: ``python -m companion.vision.build``.

Training styles are drawn from one seed, calibration styles from another (they set the
temperature and the probability a sure read needs); neither uses :data:`render.HELD_OUT_FONT`,
kept for measuring. Both decks' faces are drawn in every style, each in a few scenes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from . import render
from .kinds import Card, faces
from .model import DEFAULT_MODEL, Model, examples, train

TRAIN_SEED, CALIBRATION_SEED = 11, 22
# Sure reads must be right this often on the calibration styles.
SURE_PRECISION = 0.998
LOWEST_SURE = 0.9  # even when the calibration styles were all read right


def calibrate(model: Model, stills: list[render.Still]) -> tuple[float, float]:
    """The temperature that best predicts right and wrong reads on ``stills``, and the lowest
    probability above which reads were right :data:`SURE_PRECISION` of the time."""
    found = [(model.read(s.image), s.card) for s in stills]
    best: tuple[float, float] = (float("inf"), 1.0)
    for temperature in (5.0, 8.0, 12.0, 16.0, 20.0, 25.0, 30.0, 40.0):
        tuned = _with(model, temperature, model.sure_at)
        loss = 0.0
        for read, card in found:
            if read.found is None:
                continue
            again = tuned.read_found(read.found)
            p = again.confidence if again.card == card else 1.0 - again.confidence
            loss -= float(np.log(max(p, 1e-6)))
        best = min(best, (loss, temperature))
    tuned = _with(model, best[1], model.sure_at)
    scored = sorted(
        (
            (tuned.read_found(r.found).confidence, tuned.read_found(r.found).card == c)
            for r, c in found
            if r.found is not None
        ),
        reverse=True,
    )
    sure_at = LOWEST_SURE
    right = 0
    for i, (confidence, ok) in enumerate(scored, start=1):
        right += ok
        if right / i < SURE_PRECISION:
            sure_at = max(LOWEST_SURE, min(0.995, confidence + 1e-3))
            break
    return best[1], sure_at


def _with(model: Model, temperature: float, sure_at: float) -> Model:
    return Model(
        model.kinds,
        model.weights,
        temperature,
        model.colour_means,
        model.colour_inverse,
        model.colour_logdet,
        sure_at,
        model.origin,
    )


def build(
    styles: int = 14,
    scenes: int = 1,
    looks: int = 3,
    *,
    deck: tuple[Card, ...] = faces(),
    checking: int = 300,
    log: bool = False,
) -> Model:
    """The model learned from ``styles`` drawing styles, each face of ``deck`` in ``scenes``
    random scenes, calibrated on ``checking`` stills in other styles."""
    training = render.styles(styles, TRAIN_SEED)
    stills = render.still_set(len(deck) * styles * scenes, 1, training, deck * (styles * scenes))
    found, missed = examples((s.image, s.card) for s in stills)
    if log:
        print(f"{len(stills)} training stills, {missed} without a card found", file=sys.stderr)
    origin = f"renderer: {styles} styles × {len(deck)} faces × {scenes} scenes, looks {looks}"
    model = train(found, looks=looks, seed=1, temperature=1.0, sure_at=0.9, origin=origin)
    stills = render.still_set(checking, 2, render.styles(3, CALIBRATION_SEED), deck)
    temperature, sure_at = calibrate(model, stills)
    if log:
        print(f"temperature {temperature}, sure at {sure_at:.3f}", file=sys.stderr)
    return _with(model, temperature, sure_at)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--styles", type=int, default=14)
    parser.add_argument("--scenes", type=int, default=1)
    args = parser.parse_args(argv)
    build(args.styles, args.scenes, log=True).save(args.out)
    print(f"{args.out}: {args.out.stat().st_size // 1024} KiB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
