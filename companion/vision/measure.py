"""Measuring the reader on drawings in a style it was never tuned on (tests and benches).

Held-out styles use :data:`render.HELD_OUT_FONT`, which no training or calibration style uses,
and their own random stroke widths, sizes, hues, corner layouts and symbol variants.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import render
from .kinds import faces
from .model import Model
from .render import Sequence, Still
from .sources import TimedFrame
from .watcher import Watcher

HELD_OUT_SEED = 33


def held_out_styles(count: int = 3) -> list[render.Style]:
    return render.styles(count, HELD_OUT_SEED, held_out=True)


def held_out_stills(count: int, seed: int = 3, styles: int = 3) -> list[Still]:
    return render.still_set(count, seed, held_out_styles(styles), faces())


def held_out_sequences(
    count: int,
    seed: int = 100,
    *,
    plays: int = 3,
    passes: int = 1,
    lamp_changes: int = 1,
    rests: int = 0,
    styles: int = 3,
) -> list[Sequence]:
    drawn = held_out_styles(styles)
    return [
        render.sequence(
            seed + i,
            drawn[i % len(drawn)],
            faces(),
            plays=plays,
            passes=passes,
            lamp_changes=lamp_changes,
            rests=rests,
        )
        for i in range(count)
    ]


@dataclass
class StillScore:
    stills: int = 0
    kind_right: int = 0
    sure: int = 0
    sure_right: int = 0
    mistakes: list[str] = field(default_factory=list)

    @property
    def kind_rate(self) -> float:
        return self.kind_right / max(1, self.stills)

    @property
    def sure_share(self) -> float:
        return self.sure / max(1, self.stills)

    @property
    def sure_precision(self) -> float:
        return self.sure_right / max(1, self.sure)


def score_stills(model: Model, stills: list[Still]) -> StillScore:
    score = StillScore()
    for still in stills:
        read = model.read(still.image)
        score.stills += 1
        right = read.card == still.card
        score.kind_right += read.card is not None and read.card.kind == still.card.kind
        score.sure += read.sure
        score.sure_right += read.sure and right
        if not right:
            score.mistakes.append(f"{still.card} read {read.card} ({read.confidence:.2f})")
    return score


@dataclass
class SequenceScore:
    plays: int = 0
    right: int = 0  # decided once, at the right card
    extra: int = 0  # decisions with no play behind them
    delays_ms: list[int] = field(default_factory=list)  # decision − hand gone, for each right

    @property
    def right_rate(self) -> float:
        return self.right / max(1, self.plays)

    def delay_p95(self) -> int:
        if not self.delays_ms:
            return 0
        ordered = sorted(self.delays_ms)
        return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def score_sequences(model: Model, sequences: list[Sequence]) -> SequenceScore:
    """Each decision is matched to the play it follows (the last one whose hand had gone)."""
    score = SequenceScore()
    for film in sequences:
        watcher = Watcher(model)
        decisions = [
            d for f in film.frames if (d := watcher.feed(TimedFrame(f.t_ms, f.image))) is not None
        ]
        score.plays += len(film.plays)
        matched: set[int] = set()
        for decision in decisions:
            before = [i for i, p in enumerate(film.plays) if p.hand_left_ms <= decision.t_ms]
            if not before or before[-1] in matched:
                score.extra += 1
                continue
            index = before[-1]
            matched.add(index)
            play = film.plays[index]
            if decision.read.card == play.card:
                score.right += 1
                score.delays_ms.append(decision.t_ms - play.hand_left_ms)
    return score
