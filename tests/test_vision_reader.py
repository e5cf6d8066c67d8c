"""The card reader on the renderer's pictures: kinds and the rules prior, finding the top card,
the model file, the frame sources and the watcher's refusals."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision import (
    Card,
    FolderSource,
    Model,
    ModelError,
    PicameraSource,
    SourceError,
    TimedFrame,
    Watcher,
    default_model,
    load_image,
    may_follow,
    parse_card,
    render,
)
from companion.vision.kinds import COLOURLESS, KINDS, deck_faces, faces


def test_the_kinds_are_the_script_language_names():
    assert set(KINDS) == {*"0123456789", "reverse", "skip", "hit2", "discard_all", "draw2"} | {
        "wild",
        "coup_extreme",
        "draw4",
    }
    assert {"wild", "coup_extreme", "draw4"} == COLOURLESS
    assert len(deck_faces("extreme")) == 9 * 4 + 4 * 4 + 2
    assert len(deck_faces("classic")) == 10 * 4 + 3 * 4 + 2
    assert parse_card("Inversion", "rouge") == Card("reverse", "red")
    assert parse_card("+4", "") == Card("draw4", "")
    assert parse_card("wild_draw4", "blue") == Card("draw4", "")
    with pytest.raises(ValueError, match="needs a colour"):
        parse_card("7", "")
    with pytest.raises(ValueError, match="unknown card kind"):
        parse_card("ace", "red")


def test_the_rules_prior_matches_colour_or_kind_or_a_wild():
    red7 = Card("7", "red")
    assert may_follow(red7, Card("2", "red"))
    assert may_follow(red7, Card("7", "blue"))
    assert may_follow(red7, Card("wild", ""))
    assert not may_follow(red7, Card("skip", "green"))
    assert may_follow(Card("wild", ""), Card("skip", "green"))  # the named colour is unheard
    assert may_follow(None, Card("skip", "green"))


def pile(top: Card, *, seed: int = 5, under: int = 3) -> tuple[render.Scene, np.ndarray]:
    rng = np.random.default_rng(seed)
    style = render.styles(1, 90, held_out=True)[0]
    scene = render.random_still(rng, top, style, faces())
    scene = render.Scene(
        scene.table, render.random_pile(rng, top, style, faces(), under=under), scene.light
    )
    return scene, render.draw_scene(scene, render.FaceCache())


def test_the_top_card_is_found_where_it_lies_over_the_others():
    scene, image = pile(Card("reverse", "blue"))
    found = default_model().find(image)
    assert found is not None
    top = render.card_corners(scene.pile[-1]).reshape(-1, 1, 2)
    assert cv2.pointPolygonTest(top, (found.spot.x, found.spot.y), False) > 0
    assert found.spot.heat > 0.3


def test_an_empty_table_has_no_top_card_and_no_read():
    table = render.Table("felt", 3)
    image = render.draw_scene(render.Scene(table, ()), render.FaceCache())
    model = default_model()
    assert model.find(image) is None
    read = model.read(image)
    assert (read.card, read.sure, read.confidence) == (None, False, 0.0)


def test_a_read_the_rules_refuse_is_never_sure():
    from companion.vision.measure import photo_set

    model = default_model()
    photos = photo_set(Path(__file__).parent / "data" / "uno-photos")
    image, card = next((i, c) for i, c in photos if c == Card("skip", "green"))
    free = model.read(image)
    assert free.card == card and free.sure
    refused = model.read(image, previous=Card("7", "red"))
    assert not refused.sure
    assert refused.confidence < free.confidence


def test_the_default_model_is_small_and_says_where_it_comes_from(tmp_path: Path):
    from companion.vision.model import DEFAULT_MODEL

    assert DEFAULT_MODEL.stat().st_size < 64 * 1024  # the heads; the networks are beside it
    model = default_model()
    assert "photos" in model.origin and "drawings" in model.origin
    assert set(model.kinds) == set(KINDS)
    copy = tmp_path / "copy.npz"
    model.save(copy)
    again = Model.load(copy)
    assert again.kinds == model.kinds and again.sure_at == model.sure_at
    assert np.array_equal(again.kind_w, model.kind_w)


def test_a_file_that_is_not_a_model_is_refused_clearly(tmp_path: Path):
    with pytest.raises(ModelError, match="no such model file"):
        Model.load(tmp_path / "missing.npz")
    junk = tmp_path / "junk.npz"
    junk.write_text("not a model", encoding="utf-8")
    with pytest.raises(ModelError, match="not a vision model"):
        Model.load(junk)


def test_pictures_and_folders_that_cannot_be_read_say_why(tmp_path: Path):
    with pytest.raises(SourceError, match="no such file"):
        load_image(tmp_path / "none.jpg")
    text = tmp_path / "notes.jpg"
    text.write_text("hello", encoding="utf-8")
    with pytest.raises(SourceError, match="not a picture"):
        load_image(text)
    with pytest.raises(SourceError, match=r"no frames\.json"):
        FolderSource(tmp_path)
    (tmp_path / "frames.json").write_text('{"frames": [{"file": "a.jpg"}]}', encoding="utf-8")
    with pytest.raises(SourceError, match="t_ms"):
        FolderSource(tmp_path)


def test_a_folder_of_frames_is_replayed_in_order_with_its_times(tmp_path: Path):
    listing = {"frames": [], "camera": "ignored"}
    for i, t in enumerate((0, 100, 250)):
        image = np.full((48, 64, 3), 40 * i, np.uint8)
        cv2.imwrite(str(tmp_path / f"f{i}.png"), image)
        listing["frames"].append({"file": f"f{i}.png", "t_ms": t, "extra": 1})  # type: ignore[attr-defined]
    (tmp_path / "frames.json").write_text(json.dumps(listing), encoding="utf-8")
    frames = list(FolderSource(tmp_path).frames())
    assert [f.t_ms for f in frames] == [0, 100, 250]
    assert [int(f.image[0, 0, 0]) for f in frames] == [0, 40, 80]


def test_without_picamera2_the_pi_camera_says_what_to_install():
    with pytest.raises(SourceError, match="python3-picamera2"):
        PicameraSource()


def test_a_still_pile_is_only_compared_never_read_again():
    _, image = pile(Card("4", "yellow"), seed=11)
    watcher = Watcher(default_model(drawings=True))
    decisions = [watcher.feed(TimedFrame(t, image)) for t in range(0, 3000, 100)]
    assert decisions == [None] * 30
    assert watcher.reads == 1  # the pile as it starts
    assert watcher.top == Card("4", "yellow")


def test_a_card_laid_on_the_pile_is_decided_once_and_a_lamp_is_not_a_play():
    _, before = pile(Card("4", "yellow"), seed=11)
    scene, _ = pile(Card("4", "yellow"), seed=11)
    laid = render.Placed(
        Card("4", "blue"), scene.pile[-1].style, 330, 250, 60, scene.pile[-1].length
    )
    after = render.draw_scene(
        render.Scene(scene.table, (*scene.pile, laid), scene.light), render.FaceCache()
    )
    warm = render.draw_scene(
        render.Scene(scene.table, (*scene.pile, laid), render.Lighting("warm", brightness=0.8)),
        render.FaceCache(),
    )
    watcher = Watcher(default_model(drawings=True))
    film = [before] * 6 + [after] * 8 + [warm] * 8
    decisions = [watcher.feed(TimedFrame(i * 100, f)) for i, f in enumerate(film)]
    made = [d for d in decisions if d is not None]
    assert [(d.t_ms, d.read.card) for d in made] == [(900, Card("4", "blue"))]
    assert made[0].read.sure


def test_a_scripted_run_of_cards_is_filmed_and_watched_in_order():
    """What a replayed evening needs: the cards laid in the script's order, the same face twice
    in a row included, each decided once; the table's answer corrects the watcher."""
    laid = (Card("7", "red"), Card("7", "red"), Card("skip", "red"))
    film = render.sequence(
        31,
        render.styles(1, 91, held_out=True)[0],
        faces(),
        passes=0,
        lamp_changes=0,
        cards=laid,
        start=Card("2", "red"),
    )
    assert [p.card for p in film.plays] == list(laid)
    watcher = Watcher(default_model(drawings=True))
    made = [d for f in film.frames if (d := watcher.feed(TimedFrame(f.t_ms, f.image)))]
    assert [d.read.card for d in made] == list(laid)
    assert all(d.frame is not None and d.frame.shape == (480, 640, 3) for d in made)
    watcher.correct(Card("skip", "blue"))
    assert watcher.top == Card("skip", "blue")


def test_a_guided_lesson_keeps_only_frames_showing_a_card():
    from companion.vision import Lesson

    lesson = Lesson(default_model())
    empty = render.draw_scene(render.Scene(render.Table("wood", 2), ()), render.FaceCache())
    assert not lesson.show(empty, Card("7", "red"))
    _, image = pile(Card("7", "red"), seed=12)
    assert lesson.show(image, Card("7", "red"))
    assert lesson.shown == (Card("7", "red"),)


def test_a_camera_opencv_opens_gives_timed_frames_and_a_missing_one_says_so(tmp_path: Path):
    """A video file stands in for a USB camera: OpenCV opens both the same way."""
    from companion.vision import OpenCVSource

    video = tmp_path / "camera.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (640, 480))
    for shade in (0, 80, 160):
        writer.write(np.full((480, 640, 3), shade, np.uint8))
    writer.release()
    source = OpenCVSource(str(video))
    frames = list(source.frames())
    source.close()
    assert [round(int(f.image[5, 5, 0]), -1) for f in frames] == [0, 80, 160]
    assert [f.t_ms for f in frames] == sorted(f.t_ms for f in frames)
    with pytest.raises(SourceError, match="does not open"):
        OpenCVSource(str(tmp_path / "no-camera.avi"))


def test_a_hand_resting_over_the_pile_is_not_a_play():
    """A still hand hides the top card: the card beside it must not pass for one just laid."""
    model = default_model()
    style = render.styles(1, 90, held_out=True)[0]
    made = []
    for seed in (2, 17):  # a hand hiding the top card, a whole card of the pile beside it
        rng = np.random.default_rng(seed)
        laid = render.random_pile(rng, faces()[seed * 3 % 63], style, faces(), under=3)
        table = render.Table(str(rng.choice(render.TABLES)), seed)
        cache = render.FaceCache()
        top = laid[-1]
        hand = render.Hand(
            top.x + rng.uniform(-20, 20),
            top.y + rng.uniform(-20, 20),
            str(rng.choice(["bottom", "left", "right", "top"])),
        )
        film = [render.draw_scene(render.Scene(table, laid), cache, shot=i) for i in range(6)]
        film += [render.draw_scene(render.Scene(table, laid, hand=hand), cache, shot=9)] * 10
        film += [render.draw_scene(render.Scene(table, laid), cache, shot=i) for i in range(6)]
        watcher = Watcher(model)
        made += [d for i, f in enumerate(film) if (d := watcher.feed(TimedFrame(i * 100, f)))]
    assert made == []


def test_a_knocked_camera_is_not_a_play():
    _, image = pile(Card("4", "yellow"), seed=11)
    knocked = np.ascontiguousarray(np.roll(image, (25, 30), axis=(0, 1)))
    watcher = Watcher(default_model(drawings=True))
    film = [image] * 6 + [knocked] * 70  # 7 s: past the wait for a still arm
    made = [d for i, f in enumerate(film) if (d := watcher.feed(TimedFrame(i * 100, f)))]
    assert made == []
    assert watcher.reads == 2 and watcher.top == Card("4", "yellow")
