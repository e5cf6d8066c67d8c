"""The camera driving the box, through the real daemon on mock pins.

- Card landed → turret moving: films made by the renderer replayed at their own pace (10 frames
  a second) as the camera; from the frame where the hand that laid a card has left the picture
  to the first change on the turret's servo pin, p50/p95 over every play.
- The press path with the camera on and off: HIT edge → first buzzer or ejector pin change
  (as in the ``daemon`` area), in alternating rounds, the camera watching a film in a loop
  meanwhile; the ratio of the p99s.
- The replayed evening: ``CAMERA_ROUNDS`` rounds (default 8) filmed, replayed by
  ``simulate --camera-frames`` with the script, and compared with the same evening typed.
"""

from __future__ import annotations

import io
import json
import os
import tempfile
import threading
import time
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.config import LauncherConfig, parse_config
from companion.core.commands import Turn
from companion.daemon import Daemon, DaemonOptions
from companion.vision import default_model, render
from companion.vision.eye import Eye
from companion.vision.kinds import deck_faces
from tests.bench.daemon import HARDWARE, percentile, press_latencies
from tests.camera_evening import evening, film

FILMS = int(os.environ.get("CAMERA_FILMS", "4"))
PRESS_ROUNDS = int(os.environ.get("CAMERA_PRESS_ROUNDS", "4"))
PRESSES = int(os.environ.get("CAMERA_PRESSES", "150"))
ROUNDS = int(os.environ.get("CAMERA_ROUNDS", "8"))
COMPARED = ("active", "direction", "facing", "owed", "hands", "round", "phase", "winner")


class TimedEye(Eye):
    """The real camera adapter, noting when each frame reached the watcher."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.looked: dict[int, float] = {}
        self.ready = threading.Event()  # the film starts once the launcher is home

    def frames(self) -> Any:
        self.ready.wait()
        return super().frames()

    def look(self, frame: Any) -> Any:
        self.looked.setdefault(frame.t_ms, time.monotonic())
        return super().look(frame)


def make_daemon(state_dir: Path, camera: Any) -> Daemon:
    config = replace(parse_config({"hardware": HARDWARE}), launcher=LauncherConfig(magazine=200))
    state_dir.mkdir(parents=True, exist_ok=True)
    options = DaemonOptions(
        simulate=True, state_dir=state_dir, seed=1, web=False, voice=False, camera=camera
    )
    return Daemon(config, options).start()


def eye(folder: Path, state_dir: Path) -> TimedEye:
    model = default_model()
    return TimedEye(
        f"folder:{folder}",
        (640, 480),
        model,
        model,
        taught_path=state_dir / "camera-model.npz",
        realtime=True,
    )


class CameraPlays:
    """When each camera play was handled, and whether it turned the turret to another seat."""

    def __init__(self, turret: Any) -> None:
        self.handled: list[tuple[float, bool]] = []
        self._turret = turret

    def on_outcome(self, outcome: Any) -> None:
        if getattr(outcome, "source", None) != "camera":
            return
        turns = [c for c in outcome.commands if isinstance(c, Turn)]
        # A turn to the seat the turret already faces moves nothing: no moment to measure.
        turret = self._turret
        moves = bool(turns) and turret.angle_for_seat(turns[-1].seat) != turret.angle
        self.handled.append((time.monotonic(), moves))


def landed_to_turret(work: Path) -> list[float]:
    style = render.styles(1, 7)[0]
    deck = deck_faces("extreme")
    latencies: list[float] = []
    for film_number in range(FILMS):
        folder = work / f"film_{film_number}"
        shot = render.sequence(300 + film_number, style, deck, plays=3, passes=1, lamp_changes=0)
        shot.save(folder)
        camera = eye(folder, work / f"state_{film_number}")
        daemon = make_daemon(work / f"state_{film_number}", camera)
        plays = CameraPlays(daemon.hardware.turret)
        daemon.hub.add_listener(plays)
        daemon.hardware.wait_idle(timeout=10)
        camera.ready.set()
        try:
            turret = daemon.pin_factory.pin(daemon.hardware.config.pins.turret)
            changes: list[float] = []
            last = turret._last_change
            end = time.monotonic() + shot.frames[-1].t_ms / 1000 + 3.0
            while time.monotonic() < end:
                if turret._last_change != last:
                    last = turret._last_change
                    changes.append(time.monotonic())
                time.sleep(0.0005)
            if len(plays.handled) != len(shot.plays):
                print(f"  film {film_number}: {len(plays.handled)} plays read of {len(shot.plays)}")
                continue
            for play, (handled, turned) in zip(shot.plays, plays.handled, strict=True):
                landed = camera.looked.get(play.hand_left_ms)
                after = [t for t in changes if t >= handled]
                if landed is not None and turned and after:
                    latencies.append(after[0] - landed)
                    if os.environ.get("CAMERA_DEBUG"):
                        print(f"  read {handled - landed:.3f} s, turret {after[0] - handled:.3f} s")
        finally:
            daemon.stop()
    return latencies


class LoopedEye(Eye):
    """A film played over and over, at its own pace: a camera that never stops."""

    def frames(self) -> Any:
        self.hold_at_end = False
        offset = 0
        while True:
            last = 0
            for frame in super().frames():
                last = frame.t_ms
                yield type(frame)(offset + frame.t_ms, frame.image)
            offset += last + 100


def press_cost(work: Path) -> tuple[list[float], list[float]]:
    style = render.styles(1, 9)[0]
    folder = work / "loop"
    render.sequence(900, style, deck_faces("extreme"), plays=2, passes=2).save(folder)
    on: list[float] = []
    off: list[float] = []
    for number in range(PRESS_ROUNDS * 2):
        state = work / f"press_{number}"
        camera = LoopedEye(
            f"folder:{folder}",
            (640, 480),
            default_model(),
            default_model(),
            taught_path=state / "m.npz",
        )
        with_camera = number % 2 == 0
        daemon = make_daemon(state, camera if with_camera else None)
        try:
            time.sleep(0.5)
            (on if with_camera else off).extend(press_latencies(daemon, PRESSES))
        finally:
            daemon.stop()
    return on, off


def replayed_evening(work: Path) -> str:
    from companion.cli import main
    from companion.cli.replay import replay_script
    from companion.config import Config

    played = evening(seed=8, rounds=ROUNDS, plays=6)
    started = time.monotonic()
    film(played, work / "evening", seed=8)
    filmed = time.monotonic() - started
    (work / "evening.uno").write_text("\n".join(played.lines), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    started = time.monotonic()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(
            [
                "simulate",
                "--state-dir",
                str(work / "evening-state"),
                "--seed",
                "8",
                "--camera-frames",
                str(work / "evening"),
                "--script",
                str(work / "evening.uno"),
            ]
        )
    replayed = time.monotonic() - started
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    typed = [
        r for r in replay_script(Config(), played.lines, seed=8, lang="en") if isinstance(r, dict)
    ]
    same = all(records[-1][k] == typed[-1][k] for k in COMPARED) if records else False
    plays = [r for r in records if r["event"] == "play"]
    by_camera = sum(r["source"] == "camera" for r in plays)
    mends = sum(r["event"] == "replace" for r in records)
    problems = [line for line in err.getvalue().splitlines() if line.startswith("line ")]
    return (
        f"{ROUNDS} rounds, {len(plays)} plays: {by_camera} read sure by the camera, "
        f"{len(plays) - by_camera} answered on the phone, {mends} mended on the log "
        f"(what the camera cannot know); ends as typed: {'yes' if same else 'NO'} "
        f"(exit {status}, {len(problems)} problems; filmed in {filmed:.0f} s, "
        f"replayed in {replayed:.1f} s)"
    )


def main(only_evening: bool = False) -> None:
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        if only_evening:
            print("replayed evening:", replayed_evening(work))
            return
        latencies = landed_to_turret(work)
        if latencies:
            p50, p95 = percentile(latencies, 0.5), percentile(latencies, 0.95)
            print(
                f"card landed → turret moving: p50 {p50 * 1e3:.0f} ms, p95 {p95 * 1e3:.0f} ms "
                f"over {len(latencies)} plays (target ≤ 1000 ms p95)"
            )
        else:
            print("card landed → turret moving: no play measured")
        on, off = press_cost(work)
        p99_on, p99_off = percentile(on, 0.99), percentile(off, 0.99)
        print(
            f"press p99 camera on {p99_on * 1e3:.3f} ms, off {p99_off * 1e3:.3f} ms: "
            f"ratio {p99_on / p99_off:.2f} (target ≤ 1.1; {len(on)} + {len(off)} presses)"
        )
        print("replayed evening:", replayed_evening(work))


if __name__ == "__main__":  # python -m tests.bench.camera [evening]
    import sys

    main(only_evening=sys.argv[1:] == ["evening"])
