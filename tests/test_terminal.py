"""``uno-companion simulate`` in a real terminal (tmux): keys in, the table on screen."""

from __future__ import annotations

import shutil
import subprocess
import sys
import uuid
from pathlib import Path

from companion.core.commands import Cue, Eject
from companion.terminal import render
from tests.helpers import wait_for

ROOT = Path(__file__).resolve().parents[1]


def tmux(*args: str) -> str:
    return subprocess.run(
        ["tmux", *args], capture_output=True, text=True, check=True, timeout=20
    ).stdout


def screen_until(session: str, text: str, timeout: float = 20.0) -> str:
    last = [""]

    def screen() -> str:
        last[0] = tmux("capture-pane", "-p", "-t", session)
        return last[0] if text in last[0] else ""

    try:
        return str(wait_for(screen, timeout))
    except AssertionError:
        raise AssertionError(f"{text!r} never appeared; screen was:\n{last[0]}") from None


def active_line(screen: str) -> str:
    return next(line for line in screen.splitlines() if "ACTIVE" in line)


def test_keys_drive_the_simulated_table(tmp_path: Path):
    assert shutil.which("tmux"), "tmux is installed by `make system-deps`"
    session = f"uno-{uuid.uuid4().hex[:8]}"
    command = (
        f"{sys.executable} -m companion simulate --no-voice --host 127.0.0.1 --port 0 "
        f"--seed 11 --state-dir {tmp_path}"
    )
    tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "40", "-c", str(ROOT), command)
    try:
        screen = screen_until(session, "Launcher faces")
        assert "Bruno" in active_line(screen)  # left of the dealer (Alice) starts
        assert "magazine 83" in screen  # the Extrême deck left after dealing to four (000 §X.A)
        tmux("send-keys", "-t", session, " ")  # HIT: the active player presses
        screen = screen_until(session, "sounds: ding")
        assert "Chloé" in active_line(screen)  # fired or not, the turn passes (000 §X.B)
        tmux("send-keys", "-t", session, "r")  # REVERSE (no button wired: the card is played)
        screen = screen_until(session, "direction ← right")
        assert "Bruno" in active_line(screen)
        tmux("send-keys", "-t", session, "q")

        def ended() -> bool:
            alive = subprocess.run(
                ["tmux", "has-session", "-t", session], capture_output=True, check=False
            )
            return alive.returncode != 0

        wait_for(ended, timeout=15, what="simulate to quit on 'q'")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True, check=False)


def test_render_shows_owed_presses_and_last_firing():
    from companion.core.table import TableEngine

    engine = TableEngine(["Alice", "Bruno"], seed=1)
    state = {"table": engine.snapshot(), "device": {"turret_angle": 45.0}}
    state["table"]["owed"] = [{"player": "Alice", "presses": 2, "reason": "hit2"}]
    text = render(state, [Cue("ding"), Eject(4), Cue("burst")], "http://x/", "")
    assert "Owed presses: Alice ×2 (hit2)" in text
    assert "fired 4 card(s)   sounds: ding burst" in text
    assert "turret 45°" in text
    state["device"] = {"turret_angle": 100.0, "turret_target": 180.0, "turning": True}
    assert "(turret 100° → 180°)" in render(state, [], "http://x/", "")
