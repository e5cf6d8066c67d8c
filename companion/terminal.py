"""The simulated table in a terminal: keys drive the mock pins, the screen shows the table.

Space is the big HIT button, ``n`` NEXT ("I played a card"), ``r`` REVERSE and ``s`` SKIP: each
drives the button's mock pin low and high again, so the debounce, the input path, the engine and
the actuators all run as they would on the box. Other keys type a line of the script language
(``c`` "play number", ``l`` "reload", ``u`` "undo") through the same door as every input.
Without a terminal (output piped, a service), it just serves the page until stopped.
"""

from __future__ import annotations

import contextlib
import io
import os
import select
import sys
import termios
import threading
import time
import tty
from typing import Any

import segno

from companion.app.hub import Announcement
from companion.app.inputs import ButtonPress, ScriptLine
from companion.core.commands import Command, Cue, Eject
from companion.core.errors import ActionError
from companion.core.table import Outcome

PIN_KEYS = {" ": "hit", "n": "next", "r": "reverse", "s": "skip"}
# Keys typing a line of the script language (README "Script language"): source "script".
SCRIPT_KEYS = {"l": "reload", "u": "undo", "c": "play number"}
HELP = "keys: space HIT  n NEXT  r REVERSE  s SKIP  c card played  l reload  u undo  q quit"


def qr_text(url: str) -> str:
    """A QR code of the page's address drawn with block characters, for a phone to scan."""
    out = io.StringIO()
    segno.make(url, error="m", micro=False).terminal(out=out, compact=True, border=2)
    return out.getvalue().rstrip("\n")


def sound_notice(state: dict[str, Any]) -> str:
    """What to tell the player when the computer has no working sound output (else "")."""
    voice = state.get("device", {}).get("voice") or {}
    problem = voice.get("sound_problem") if isinstance(voice, dict) else None
    if not problem:
        return ""
    return (
        "No sound card: the box stays silent (the page's Launcher screen can play the sounds "
        f"on a phone). {problem}"
    )


def render(
    state: dict[str, Any], last: list[Command], url: str | None, message: str, qr: str = ""
) -> str:
    """The screen for ``state`` (pure: easy to test and to read)."""
    table = state["table"]
    device = state.get("device", {})
    arrow = "→ left" if table["direction"] == "left" else "← right"
    lines = [
        f"uno-companion — simulated table    {url or ''}",
        f"Round {table['round']}   dealer {table['dealer']}   direction {arrow}",
        "",
    ]
    for player in table["players"]:
        marks = []
        if player["name"] == table["active"]:
            marks.append("ACTIVE")
        if player["name"] == table["facing"]:
            marks.append("◀ launcher")
        if player["eliminated"]:
            marks.append("out")
        if player["uno"]:
            marks.append("UNO")
        count = player["hand"]
        hand = f"{count:>3} {'card ' if count == 1 else 'cards'}"
        lines.append(f"  {player['seat'] + 1:>2}. {player['name']:<16}{hand}   {' '.join(marks)}")
    lines.append("")
    angle, target = device.get("turret_angle"), device.get("turret_target")
    turret = "?" if angle is None else f"{angle:.0f}°"
    if angle is not None and target is not None and device.get("turning"):
        turret += f" → {target:.0f}°"  # where it is, and where it is going
    suspense = "▮" * round(table["suspense"] * 5) + "▯" * (5 - round(table["suspense"] * 5))
    lines.append(
        f"Launcher faces {table['facing']} (turret {turret})   magazine {table['magazine']}"
        f"   suspense {suspense}"
    )
    owed = ", ".join(f"{o['player']} ×{o['presses']} ({o['reason']})" for o in table["owed"])
    lines.append(f"Owed presses: {owed or 'none'}")
    fired = sum(c.cards for c in last if isinstance(c, Eject))
    sounds = " ".join(c.name for c in last if isinstance(c, Cue))
    lines.append(f"Last: fired {fired} card(s)   sounds: {sounds or '-'}")
    if table["needs_reload"]:
        lines.append("!! The launcher needs a reload (press l)")
    if table["round_over"]:
        lines.append(f"Round over: {table['winner']} won")
    notice = sound_notice(state)
    if notice:
        lines.append(notice)
    lines += ["", message, HELP]
    if qr:
        # The address again beside the code: in a short terminal the first line has scrolled away.
        lines += ["", f"Scan to open the page on a phone, or go to {url or '?'}", qr]
    return "\n".join(lines)


class TerminalTable:
    """Drive a simulated daemon (:class:`~companion.daemon.Daemon`) from the keyboard."""

    def __init__(self, daemon: Any) -> None:
        self.daemon = daemon
        self._last: list[Command] = []
        self._lock = threading.Lock()
        self._message = ""
        # The IP address first: old Android phones do not resolve .local names.
        self._qr = qr_text(daemon.urls[0]) if daemon.urls else ""
        daemon.hub.add_listener(self)

    def on_outcome(self, outcome: Outcome | Announcement) -> None:
        with self._lock:
            self._last = list(outcome.commands)

    def run(self) -> None:
        if not sys.stdin.isatty():
            urls = " or ".join(self.daemon.urls) or "(no page)"
            print(f"Simulated table ready: open {urls} (Ctrl-C to stop)", flush=True)
            if self._qr:
                print(self._qr, flush=True)
            self._wait_saying_sound_once()
            return
        fd = sys.stdin.fileno()
        saved = termios.tcgetattr(fd)
        tty.setcbreak(fd)
        sub = self.daemon.hub.subscribe()
        try:
            self.draw()
            while not self.daemon.stopping:
                ready, _, _ = select.select([fd], [], [], 0.2)
                if ready:
                    key = os.read(fd, 1).decode(errors="ignore")
                    if key == "q":
                        break
                    self.key(key)
                if ready or sub.get(timeout=0.0) is not None:
                    self.settle()
                    self.draw()
        finally:
            sub.close()
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)

    def _wait_saying_sound_once(self) -> None:
        """Wait for the daemon to stop; say a missing sound card once, when it shows."""
        said = False
        sub = self.daemon.hub.subscribe()
        try:
            while not self.daemon.stopping:
                if sub.get(timeout=0.5) is None or said:
                    continue
                try:
                    notice = sound_notice(self.daemon.hub.state())
                except TimeoutError:
                    continue
                if notice:
                    print(notice, flush=True)
                    said = True
        finally:
            sub.close()

    def key(self, key: str) -> None:
        """Act on one key press."""
        self._message = ""
        try:
            if key in PIN_KEYS:
                self.button(PIN_KEYS[key])
            elif key.lower() in SCRIPT_KEYS:
                future = self.daemon.door.take(ScriptLine(SCRIPT_KEYS[key.lower()]))
                if future is not None:
                    future.result(timeout=5)
        except ActionError as exc:
            self._message = str(exc)
        except TimeoutError:
            self._message = "the box is busy: try again"

    def button(self, name: str) -> None:
        """A press of button ``name``: on its mock pin when one is wired, else its event."""
        button = self.daemon.hardware.buttons.get(name)
        if button is not None:
            button.pin.drive_low()
            time.sleep(0.002)
            button.pin.drive_high()
            return
        future = self.daemon.door.take(ButtonPress(name))
        if future is not None:
            future.result(timeout=5)

    def settle(self) -> None:
        """Wait until the hub has handled what the key queued (it is queued before this)."""
        with contextlib.suppress(Exception):
            self.daemon.hub.call(lambda: None).result(timeout=1.0)

    def draw(self) -> None:
        with self._lock:
            last = list(self._last)
        try:
            state = self.daemon.hub.state()
        except TimeoutError:
            return  # the hub is busy: the next change redraws
        screen = render(state, last, self.daemon.url, self._message, self._qr)
        sys.stdout.write("\x1b[H\x1b[2J" + screen + "\n")
        sys.stdout.flush()
