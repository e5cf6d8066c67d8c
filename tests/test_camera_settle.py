"""What the watcher can explain is never a play, and what it cannot is never skipped: the pile's
cards read again once a soft picture comes clear (however they read while soft) are no play, and
a card laid while the camera is knocked is read with the view it lands in."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision import TimedFrame, Watcher, default_model, render
from companion.vision.kinds import Card
from companion.vision.measure import faces, held_out_styles

SOFT_SIGMA = 8.0  # px: the softest picture the filmed evenings make


def one_play(seed: int) -> render.Sequence:
    return render.sequence(
        seed, render.styles(1, 5, held_out=True)[0], faces(), plays=1, passes=0, lamp_changes=0
    )


def decided(frames: list[tuple[int, np.ndarray]]) -> list[Card | None]:
    watcher = Watcher(default_model(drawings=True))
    return [
        d.read.card for t, image in frames if (d := watcher.feed(TimedFrame(t, image))) is not None
    ]


def soft(image: np.ndarray) -> np.ndarray:
    return cv2.GaussianBlur(image, (0, 0), SOFT_SIGMA)


@pytest.mark.parametrize("seed", [40, 43])
def test_a_picture_gone_soft_and_clear_again_is_no_play(seed):
    """The picture goes soft for two seconds (a shadow, the lens nudged) before the card is laid
    and again after it, then clear: one play, decided once. (The pile read while soft, or read
    again once clear, was another play each time.)"""
    film = one_play(seed)
    first, last = film.frames[0].image, film.frames[-1].image
    frames = [(t, first) for t in range(0, 1000, 100)]
    frames += [(t, soft(first)) for t in range(1000, 3000, 100)]
    frames += [(3000 + f.t_ms, f.image) for f in film.frames]
    end = frames[-1][0]
    frames += [(end + t, soft(last)) for t in range(100, 2100, 100)]
    frames += [(end + t, last) for t in range(2100, 4100, 100)]
    assert decided(frames) == [film.plays[0].card]


@pytest.mark.parametrize("seed", [46, 47])
def test_a_card_laid_as_the_camera_is_knocked_is_read(seed):
    """The camera is knocked 8 px while the hand lays the card, and the film ends 1.5 s later:
    the card is decided at once in the view it lands in (it waited five seconds for a still
    arm at the picture's edge, and was lost when the film ended)."""
    film = render.sequence(
        seed, render.styles(1, 5, held_out=True)[0], faces(), plays=1, passes=2, rests=2
    )
    knocked = film.frames[-1].t_ms - 1500
    assert knocked < film.plays[0].hand_left_ms  # the view moved before the hand left
    frames = [
        (f.t_ms, np.roll(f.image, 8, axis=1) if f.t_ms >= knocked else f.image) for f in film.frames
    ]
    watcher = Watcher(default_model(drawings=True))
    made = [d for t, image in frames if (d := watcher.feed(TimedFrame(t, image))) is not None]
    assert len(made) == 1
    assert not made[0].read.sure or made[0].read.card == film.plays[0].card


def test_a_hand_resting_with_an_arm_as_grey_as_the_table_is_no_play():
    """A hand rests over the top card, its brown arm as grey as the green table, and leaves;
    the lamp changes later. Its arm differs from the table only in colour: it is waited for,
    and the six cards laid after it are the only decisions (the top card read under the hand
    was a play of its own)."""
    film = render.sequence(
        708, held_out_styles(2)[0], faces(), plays=6, passes=1, lamp_changes=1, rests=1
    )
    first = film.plays[0].hand_left_ms
    watcher = Watcher(default_model(drawings=True))
    made = [d for f in film.frames if (d := watcher.feed(TimedFrame(f.t_ms, f.image))) is not None]
    assert [d.t_ms >= first for d in made] == [True] * len(film.plays)


def test_a_hand_resting_as_the_camera_is_knocked_is_no_play():
    """One card laid; later a hand rests over the pile, its arm as dark as the lamp-warmed
    table, and the camera is knocked 8 px meanwhile: the card is decided once (the pile read
    under the hand, and read again once it left, were two more plays)."""
    film = render.sequence(
        48, render.styles(1, 5, held_out=True)[0], faces(), plays=1, passes=2, rests=2
    )
    knocked = film.frames[-1].t_ms - 1500
    assert knocked > film.plays[0].hand_left_ms  # the view moved after the card was laid
    frames = [
        (f.t_ms, np.roll(f.image, 8, axis=1) if f.t_ms >= knocked else f.image) for f in film.frames
    ]
    assert decided(frames) == [film.plays[0].card]


@pytest.mark.parametrize(("sigma", "shade"), [(20.0, 1.0), (14.0, 0.8)])
def test_a_soft_look_at_the_same_pile_asks_nothing(tmp_path, sigma, shade):
    """A 7 and an Inversion laid; then, nothing laid, the picture goes soft for seven seconds (the
    lens misted, a shadow over the tray): no card laid unread is asked about, and nothing read
    while it is soft is a play. The two plays are decided, and nothing else."""
    import json

    from companion.vision import FolderSource
    from tests.camera_evening import film_cards

    laid = [("7", "red"), ("reverse", "red")]
    where = film_cards(tmp_path, laid, start=("5", "red"), seed=1)
    truth = json.loads((where / "truth.json").read_text(encoding="utf-8"))["plays"]
    listing = json.loads((where / "frames.json").read_text(encoding="utf-8"))
    soft_from = truth[-1]["hand_left_ms"] + 1500
    for frame in listing["frames"]:
        if soft_from <= frame["t_ms"] < soft_from + 7000:
            image = cv2.GaussianBlur(cv2.imread(str(where / frame["file"])), (0, 0), sigma)
            frame["file"] = f"soft_{frame['t_ms']}.jpg"
            cv2.imwrite(str(where / frame["file"]), cv2.convertScaleAbs(image, alpha=shade))
    (where / "frames.json").write_text(json.dumps(listing), encoding="utf-8")
    watcher = Watcher(default_model())
    made = [d for f in FolderSource(where).frames() if (d := watcher.feed(f)) is not None]
    # Each play decided once, after its hand left; nothing once the picture went soft.
    assert [d.settles for d in made] == [False, False]
    assert truth[0]["hand_left_ms"] <= made[0].t_ms < truth[1]["hand_left_ms"] <= made[1].t_ms
    assert made[1].t_ms < soft_from
