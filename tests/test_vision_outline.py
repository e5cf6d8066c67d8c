"""The top card found as a whole card from above: its corners, straightened, its place and
colour, and whether two tops are the same card lying still."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.vision import Card, render
from companion.vision.kinds import faces
from companion.vision.outline import (
    CARD_H,
    CARD_W,
    Top,
    field_colour,
    find_outline,
    same_card,
    straighten,
)

STYLE = render.styles(1, 90, held_out=True)[0]
TRAY = render.Table("felt", 7, 0.8)


def corner_error(top: Top, placed: render.Placed) -> float:
    """The farthest a found corner lies from the true corner nearest it (pixels)."""
    truth = render.card_corners(placed)
    gaps = np.linalg.norm(truth[:, None, :] - top.corners[None, :, :], axis=2)
    return float(gaps.min(axis=1).max())


def shot(*pile: render.Placed, hand: render.Hand | None = None) -> np.ndarray:
    return render.draw_scene(render.Scene(TRAY, pile, hand=hand), render.FaceCache())


def test_a_single_card_askew_is_found_to_a_few_pixels_and_straightened_upright():
    card = render.Placed(Card("7", "blue"), STYLE, 300, 250, 33, 190)
    top = find_outline(shot(card))
    assert top is not None
    assert corner_error(top, card) < 4
    assert top.card.shape == (CARD_H, CARD_W, 3)
    assert top.centre == pytest.approx((300, 250), abs=3)
    assert abs(abs(top.angle) - 33) < 3
    assert top.length == pytest.approx(190, rel=0.04)
    assert top.colour == "blue"
    assert top.seen > 0.9
    # Straightened, the card stands upright: its white border runs down both long sides.
    grey = cv2.cvtColor(top.card, cv2.COLOR_BGR2GRAY)
    assert grey[:, 2].mean() > 180 and grey[:, -3].mean() > 180
    assert grey[CARD_H // 2, CARD_W // 8] < 180  # and its field lies inside


def test_the_top_card_of_a_pile_is_found_over_the_cards_it_lies_on():
    under = (
        render.Placed(Card("3", "yellow"), STYLE, 250, 220, 80, 180),
        render.Placed(Card("skip", "red"), STYLE, 360, 260, -20, 180),
    )
    top_card = render.Placed(Card("5", "green"), STYLE, 310, 240, 12, 180)
    top = find_outline(shot(*under, top_card))
    assert top is not None
    assert corner_error(top, top_card) < 6
    assert top.colour == "green"


def test_a_wild_lying_under_another_card_is_not_taken_for_the_top():
    """A black field half covered by a yellow card still fills a card-like rectangle; its own
    white border no longer rings it, so the yellow card is the top."""
    under = render.Placed(Card("wild", ""), STYLE, 300, 240, 56.5, 190)
    top_card = render.Placed(Card("6", "yellow"), STYLE, 223.8, 162.8, 1.8, 190)
    image = render.draw_scene(
        render.Scene(render.Table("felt", 27, 0.8), (under, top_card)), render.FaceCache()
    )
    top = find_outline(image)
    assert top is not None
    assert corner_error(top, top_card) < 6
    assert top.colour == "yellow"


def test_a_thumb_over_the_top_card_leaves_its_corners_where_they_are():
    card = render.Placed(Card("2", "red"), STYLE, 320, 230, -25, 190)
    thumb = render.Hand(390, 295, "bottom", tone=(90, 130, 190))
    image = shot(card, hand=thumb)
    inside = np.zeros((480, 640), np.uint8)
    cv2.fillPoly(inside, [render.card_corners(card).astype(np.int32)], 255)
    assert np.count_nonzero(inside & render.hand_mask(thumb)) > 500  # the thumb is over the card
    top = find_outline(image)
    assert top is not None
    assert corner_error(top, card) < 8
    assert top.seen < 0.99


def test_no_card_is_found_on_an_empty_tray_or_a_card_cut_by_the_frame():
    assert find_outline(shot()) is None
    off = render.Placed(Card("4", "blue"), STYLE, 20, 240, 0, 190)
    assert find_outline(shot(off)) is None
    with pytest.raises(ValueError, match="colour"):
        find_outline(np.zeros((48, 64), np.uint8))


def test_a_wild_reads_black_and_a_colour_no_card_has_reads_other():
    wild = render.Placed(Card("wild", ""), STYLE, 320, 240, 5, 190)
    top = find_outline(shot(wild))
    assert top is not None and top.colour == "black"
    purple = np.zeros((CARD_H, CARD_W, 3), np.uint8)
    purple[:] = (170, 40, 140)
    assert field_colour(purple) == "other"


def test_the_same_card_lying_still_is_the_same_and_a_card_laid_on_it_or_moved_is_not():
    card = render.Placed(Card("8", "yellow"), STYLE, 320, 240, 20, 190)
    first = find_outline(shot(card))
    again = find_outline(
        render.draw_scene(
            render.Scene(TRAY, (card,), camera=render.Camera(noise=4.0, jpeg=70)),
            render.FaceCache(),
            shot=3,
        )
    )
    assert first is not None and again is not None
    assert same_card(first, again)
    moved = find_outline(shot(replace(card, x=360, angle=35)))
    assert moved is not None and not same_card(first, moved)
    other = find_outline(shot(card, replace(card, card=Card("skip", "blue"), x=322, angle=22)))
    assert other is not None and not same_card(first, other)


def test_straighten_warps_the_inside_of_four_corners():
    image = np.zeros((100, 100, 3), np.uint8)
    image[20:80, 30:70] = (0, 0, 255)
    corners = np.array([(30, 20), (69, 20), (69, 79), (30, 79)], np.float32)
    flat = straighten(image, corners, (40, 60))
    assert flat.shape == (60, 40, 3)
    assert flat[5:-5, 5:-5, 2].min() > 200


def test_the_shapes_of_unrelated_pictures_are_not_cards():
    # A drawn pile of the program's own is found; a photo-like frame of noise is not.
    noise = np.random.default_rng(4).integers(0, 255, (480, 640, 3), dtype=np.uint8)
    assert find_outline(noise) is None
    deck = faces()
    assert find_outline(shot(render.Placed(deck[0], STYLE, 320, 240, 0, 190))) is not None
