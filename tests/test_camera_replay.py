"""A round filmed by the renderer and replayed through the real daemon (``simulate
--camera-frames``) ends with the table as the same round typed as a script: same turns, owed
presses and hands; the unsure reads are answered by a scripted phone. The eight-round evening is
``make camera-evening`` (``python -m tests.bench camera``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.cli import main
from companion.cli.replay import replay_script
from companion.config import Config
from tests.camera_evening import evening, film

COMPARED = ("active", "direction", "facing", "owed", "hands", "round", "phase", "winner")


def typed(lines: list[str], seed: int) -> list[dict[str, Any]]:
    """The same evening typed: the script through the daemon, as ``simulate --script``."""
    records = replay_script(Config(), lines, seed=seed, lang="en")
    return [r for r in records if isinstance(r, dict)]


def replayed(tmp_path: Path, lines: list[str], frames: Path, capsys: Any, seed: int) -> Any:
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
            "--strict",
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
    assert {k: records[-1][k] for k in COMPARED} == {k: script[-1][k] for k in COMPARED}
    plays = [r for r in records if r["event"] == "play"]
    assert len(plays) == len(played.rounds[0].plays)
    # Sure reads play by themselves; any the camera was unsure of, the scripted phone answered
    # (that path on its own: tests/test_camera_service.py).
    sources = [r["source"] for r in plays]
    assert "camera" in sources and set(sources) <= {"camera", "phone"}
    assert all(r["card"] is not None for r in plays)
    assert [r["card"] for r in plays] == [r["card"] for r in script if r["event"] == "play"]


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
