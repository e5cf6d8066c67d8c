"""A round filmed by the renderer (hands, a knocked lamp, a soft picture around one card) and
replayed through the real daemon (``simulate --camera-frames``) ends with the round's log and the
table as the same round typed as a script: same cards, players and order, turns, owed presses and
hands; the questions are left open while the next cards are read, then answered by a scripted
phone. The eight-round evening is
``make camera-evening`` (``python -m tests.bench camera``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.cli import main
from companion.cli.replay import replay_script
from companion.config import Config
from tests.camera_evening import evening, film, film_cards, soften

COMPARED = ("active", "direction", "facing", "owed", "hands", "round", "phase", "winner")


def typed(lines: list[str], seed: int) -> list[dict[str, Any]]:
    """The same evening typed: the script through the daemon, as ``simulate --script``, then
    the ``final`` record."""
    records = replay_script(Config(), lines, seed=seed, lang="en", final=True)
    return [r for r in records if isinstance(r, dict)]


def same_log(log: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """A round's log as the table plays it: what, the whole card, who (not where from)."""
    return [(line["event"], line["card"], line["player"], line["refused"]) for line in log]


def replayed(
    tmp_path: Path, lines: list[str], frames: Path, capsys: Any, seed: int, *, strict: bool = True
) -> Any:
    script = tmp_path / "evening.uno"
    script.write_text("\n".join(lines), encoding="utf-8")
    config = tmp_path / "box.toml"
    # Reads under 99.95 % are asked on the phone (a scripted phone answers them).
    config.write_text("[camera]\nsure_confidence = 0.9995\n", encoding="utf-8")
    status = main(
        [
            "simulate",
            "--config",
            str(config),
            "--state-dir",
            str(tmp_path / "state"),
            "--seed",
            str(seed),
            "--camera-frames",
            str(frames),
            "--script",
            str(script),
            *(["--strict"] if strict else []),
        ]
    )
    out, err = capsys.readouterr()
    return status, [json.loads(line) for line in out.splitlines()], err


def test_a_filmed_round_ends_as_the_typed_one(tmp_path, capsys):
    played = evening(seed=1, rounds=1, plays=4)
    film(played, tmp_path / "frames", seed=1)
    status, records, err = replayed(tmp_path, played.lines, tmp_path / "frames", capsys, seed=1)
    assert status == 0, err
    script = typed(played.lines, seed=1)
    final = records.pop()
    assert final["event"] == "final" and same_log(final["log"]) == same_log(script.pop()["log"])
    assert {k: records[-1][k] for k in COMPARED} == {k: script[-1][k] for k in COMPARED}
    plays = [line for line in final["log"] if line["event"] == "play"]
    assert len(plays) == len(played.rounds[0].plays)
    # Sure reads play by themselves; the card the film blurred was asked, then answered in its
    # place: by the scripted phone once the next cards were read (they waited), or by the camera
    # itself as soon as the picture came clear and it read the card sure.
    sources = [line["source"] for line in plays]
    assert "camera" in sources and set(sources) <= {"camera", "phone"}
    assert final["asked"] >= 1
    assert [line["card"] for line in plays] == [r["card"] for r in script if r["event"] == "play"]
    assert all(line["card"] for line in plays)


def test_the_guided_teach_keeps_the_deck_and_reads_with_it(tmp_path):
    from companion.vision import Model, default_model, render
    from companion.vision.eye import Eye
    from companion.vision.sources import TimedFrame

    default = default_model()
    eye = Eye("folder:unused", (640, 480), default, default, taught_path=tmp_path / "taught.npz")
    asked = eye.teach_start("classic")
    assert asked[0] == ("0", "red") and len(asked) == 54  # every classic face, wilds once
    faces = [render.Card(*asked[i]) for i in (0, 5, 10, 15)]  # four kinds, four colours
    stills = render.still_set(4, 3, render.styles(1, 3), tuple(faces))
    shown = [eye.teach_show(TimedFrame(0, s.image), s.card.kind, s.card.colour) for s in stills]
    assert any(shown)
    saved = eye.teach_finish()
    assert saved == str(tmp_path / "taught.npz") and Model.load(tmp_path / "taught.npz")
    assert eye.model is not default and "taught" in eye.model.origin


def test_a_card_too_blurred_to_read_is_asked_never_skipped(tmp_path):
    """The picture goes soft (σ 4 px) for 2–3 s around the third card: the watcher cannot read
    it surely, but a card-sized change that stays is a play: it is decided unsure or without a
    face (the table asks which card), and every card is decided once, in order, none read wrong."""
    import random

    from companion.vision import FolderSource, Watcher, default_model
    from tests.camera_evening import soften

    played = evening(seed=1, rounds=1, plays=6)
    film(played, tmp_path / "frames", seed=1, trouble=False)
    where = tmp_path / "frames" / "round_01"
    truth = json.loads((where / "truth.json").read_text(encoding="utf-8"))["plays"]
    soften(where, truth[2]["hand_left_ms"], 4.0, random.Random(1))
    watcher = Watcher(default_model(drawings=True))
    decided = [d for f in FolderSource(where).frames() if (d := watcher.feed(f)) is not None]
    assert len(decided) == len(truth)
    assert not decided[2].read.sure  # asked: laid and not read, or read unsure
    for laid, decision in zip(truth, decided, strict=True):  # once each, in order, none wrong
        card = decision.read.card
        assert not decision.read.sure or (card.kind, card.colour) == (laid["kind"], laid["colour"])


def test_what_the_watcher_can_explain_is_never_asked():
    """Hands passing and resting, the lamp changed, the camera knocked a little: one card was
    laid, one play is decided, nothing is asked."""
    import numpy as np

    from companion.vision import TimedFrame, Watcher, default_model, render
    from companion.vision.measure import faces

    film = render.sequence(
        42, render.styles(1, 5, held_out=True)[0], faces(), plays=1, passes=2, rests=2
    )
    knocked = film.frames[-1].t_ms - 1500  # the camera nudged 8 px near the end
    frames = [
        (f.t_ms, np.roll(f.image, 8, axis=1) if f.t_ms >= knocked else f.image) for f in film.frames
    ]
    watcher = Watcher(default_model(drawings=True))
    made = [d for t, image in frames if (d := watcher.feed(TimedFrame(t, image))) is not None]
    assert [d.read.card for d in made] == [film.plays[0].card]


def test_a_line_the_table_refuses_is_reported_with_its_number_and_the_replay_goes_on(
    tmp_path, capsys
):
    """A card laid while a press is owed: the typed replay refuses the line; so does the
    camera's, with the line's number, and it ends with the same log (the card asked, its
    answer refused, nothing played for it)."""
    lines = [
        "players Alice Bruno Chloé David",
        "start 5 red",
        "play hit2 red",
        "play 7 red",  # Chloé must press first
        "press",
        "press",
        "won Alice",
    ]
    film_cards(tmp_path / "frames", [("hit2", "red"), ("7", "red")], start=("5", "red"), seed=3)
    status, records, err = replayed(
        tmp_path, lines, tmp_path / "frames", capsys, seed=1, strict=False
    )
    assert status == 0, err
    assert "line 4: Chloé must press first" in err
    final = records.pop()
    script = typed(lines, seed=1)
    assert final["event"] == "final" and same_log(final["log"]) == same_log(script.pop()["log"])


def test_a_press_after_a_play_runs_once_the_camera_decided_that_play(tmp_path, capsys):
    """The Appuyer 2x is laid while the picture is soft (asked on the phones): the presses typed
    after it wait until it is on the table; they are not logged first and the card put back
    before them."""
    lines = [
        "players Alice Bruno Chloé David",
        "start 5 red",
        "play hit2 red",
        "press",
        "press",
        "play 7 red",
        "won Alice",
    ]
    where = film_cards(
        tmp_path / "frames", [("hit2", "red"), ("7", "red")], start=("5", "red"), seed=3
    )
    truth = json.loads((where / "truth.json").read_text(encoding="utf-8"))["plays"]
    soften(where, truth[0]["hand_left_ms"], 8.0, __import__("random").Random(1))
    status, records, err = replayed(tmp_path, lines, tmp_path / "frames", capsys, seed=1)
    assert status == 0, err
    final = records.pop()
    assert final["asked"] >= 1  # the soft Appuyer 2x was asked
    events = [(r["event"], r["line"]) for r in records if r["event"] in ("play", "press")]
    assert events[:3] == [("play", 3), ("press", 4), ("press", 5)]
    script = typed(lines, seed=1)
    assert same_log(final["log"]) == same_log(script.pop()["log"])


def test_the_same_symbol_in_another_colour_laid_on_it_is_a_play(tmp_path, capsys):
    """A yellow Inversion, then a blue one laid nearly exactly on it, then a red one on that:
    seen grey and soft the three pictures are alike; their colours are not. Both are plays."""
    lines = [
        "players Alice Bruno Chloé David",
        "start 5 yellow",
        "play reverse yellow",
        "play reverse blue",
        "play reverse red",
        "won Alice",
    ]
    laid = [("reverse", "yellow"), ("reverse", "blue"), ("reverse", "red")]
    film_cards(tmp_path / "frames", laid, start=("5", "yellow"), seed=3)
    status, records, err = replayed(tmp_path, lines, tmp_path / "frames", capsys, seed=1)
    assert status == 0, err
    final = records.pop()
    plays = [line["card"] for line in final["log"] if line["event"] == "play"]
    assert plays == [{"kind": kind, "colour": colour} for kind, colour in laid]
    assert same_log(final["log"]) == same_log(typed(lines, seed=1).pop()["log"])


def test_a_play_line_the_film_never_shows_is_reported_and_the_replay_ends(tmp_path, capsys):
    """The film lays one card, the script plays two: the second line waits only until every
    frame of the round has been looked at, is reported with its number, and the replay ends
    with the round as the camera saw it."""
    lines = [
        "players Alice Bruno Chloé David",
        "start 5 red",
        "play 7 red",
        "play 7 blue",
        "won Alice",
    ]
    film_cards(tmp_path / "frames", [("7", "red")], start=("5", "red"), seed=3)
    status, records, err = replayed(
        tmp_path, lines, tmp_path / "frames", capsys, seed=1, strict=False
    )
    assert status == 0, err
    assert "line 4: the camera saw no card played for this line" in err
    final = records.pop()
    plays = [line["card"] for line in final["log"] if line["event"] == "play"]
    assert plays == [{"kind": "number", "colour": "red", "value": 7}]
