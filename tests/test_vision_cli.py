"""``uno-companion vision read | watch | teach`` as other tools call them: JSON lines, and a clear
message with exit status 2 for bad input."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import cv2
import pytest

from companion.cli import main
from companion.vision import render
from companion.vision.kinds import Card, faces
from companion.vision.measure import held_out_styles


def lines(capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_read_prints_one_json_line_per_image(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    stills = render.still_set(2, 41, held_out_styles(), (Card("skip", "red"), Card("wild", "")))
    paths = []
    for i, still in enumerate(stills):
        paths.append(tmp_path / f"still{i}.jpg")
        cv2.imwrite(str(paths[-1]), still.image)
    assert main(["vision", "read", "--drawings", "--json", *map(str, paths)]) == 0
    out = lines(capsys)
    assert [(o["image"], o["kind"], o["colour"]) for o in out] == [
        (str(paths[0]), "skip", "red"),
        (str(paths[1]), "wild", ""),
    ]
    assert all(isinstance(o["sure"], bool) and 0.3 < float(o["confidence"]) <= 1 for o in out)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["read", "--json", "{dir}/none.jpg"], "none.jpg: no such file"),
        (["read", "--json", "{dir}/notes.jpg"], "not a picture"),
        (["read", "--model", "{dir}/notes.jpg", "{dir}/notes.jpg"], "not a vision model"),
        (["watch", "--frames", "{dir}", "--json"], "no frames.json"),
        (["teach", "{dir}", "--out", "{dir}/m.npz"], "no labels.csv"),
        (["teach", "{dir}/nowhere", "--out", "{dir}/m.npz"], "no such folder"),
    ],
)
def test_bad_input_is_a_message_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
):
    (tmp_path / "notes.jpg").write_text("not a picture", encoding="utf-8")
    argv = ["vision", *(a.format(dir=tmp_path) for a in args)]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert "Traceback" not in captured.err


def test_a_bad_labels_line_names_its_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    (tmp_path / "labels.csv").write_text("file,kind,colour\na.jpg,7,red\nb.jpg,ace,red\n")
    assert main(["vision", "teach", str(tmp_path), "--out", str(tmp_path / "m.npz")]) == 2
    assert "labels.csv:3: unknown card kind 'ace'" in capsys.readouterr().err


def test_watch_prints_each_card_played_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    film = render.sequence(7, held_out_styles()[0], faces(), plays=1, passes=0, lamp_changes=0)
    film.save(tmp_path)
    assert main(["vision", "watch", "--frames", str(tmp_path), "--json"]) == 0
    out = lines(capsys)
    play = film.plays[0]
    # The card, once; whether it is sure is the model's to say (drawn indices are tiny: the
    # bench measures how often drawn plays are sure).
    assert [(o["kind"], o["colour"]) for o in out] == [(play.card.kind, play.card.colour)]
    assert isinstance(out[0]["sure"], bool)
    assert 0 <= int(out[0]["t_ms"]) - play.hand_left_ms <= 1000  # type: ignore[call-overload]


def test_a_family_teaches_its_own_deck_from_labelled_photos(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    """A deck drawn in a style the default model never saw, shown once a card (a few kinds):
    the taught model reads other photos of that deck."""
    style = render.styles(1, 77, held_out=True)[0]
    deck = tuple(c for c in faces() if c.kind in ("7", "skip", "wild"))
    shown = render.still_set(len(deck), 3, [style], deck)
    with (tmp_path / "labels.csv").open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["file", "kind", "colour"])
        for i, still in enumerate(shown):
            cv2.imwrite(str(tmp_path / f"card{i}.jpg"), still.image)
            writer.writerow([f"card{i}.jpg", still.card.kind, still.card.colour])
    model = tmp_path / "family.npz"
    assert main(["vision", "teach", str(tmp_path), "--out", str(model)]) == 0
    assert "deck learned (taught:" in capsys.readouterr().out
    later = render.still_set(4, 99, [style], deck[1:])
    paths = []
    for i, still in enumerate(later):
        paths.append(str(tmp_path / f"later{i}.jpg"))
        cv2.imwrite(paths[-1], still.image)
    assert main(["vision", "read", "--model", str(model), "--json", *paths]) == 0
    read = [(o["kind"], o["colour"]) for o in lines(capsys)]
    assert read == [(s.card.kind, s.card.colour) for s in later]
