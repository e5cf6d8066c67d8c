"""``simulate --camera-frames DIR --script FILE``: an evening whose cards the camera reads.

The real daemon runs on mock pins with the camera replaying ``DIR`` (a folder of frames, or one
folder of frames a round, started as the table starts each round). The script says what the
table does; its ``play`` lines are the camera's to read: each waits for the camera's next
decision. A sure read plays (source ``camera``); an unsure one is answered by a scripted phone
with the script's card (``camera.answer``, source ``phone``), and what the camera cannot know (a
Coup Extrême's target, a Poser Tout's count, a wild's colour) is mended by the phone on the
round's log (``table.replace``). Every other line goes through the door as a script line. One
JSON object per event on standard output, as for a script; problems on standard error.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from pathlib import Path
from typing import Any

from companion.app.camera import play_payload
from companion.app.inputs import ScriptLine
from companion.core.errors import ActionError
from companion.core.script import ScriptError, parse_line
from companion.core.session import MENDS, trace_record
from companion.core.table import Outcome
from companion.i18n import Catalog

from .common import choose_seed, state_dir_or_exit

DECISION_TIMEOUT_S = 60.0


def vision_kind(payload: dict[str, Any]) -> str:
    """The reader's name of a played card: a number card is its figure."""
    return str(payload["value"]) if payload["card"] == "number" else str(payload["card"])


class Tickets:
    """The camera's plays, let through one at a time as the script reaches its play lines."""

    def __init__(self) -> None:
        self._tickets = threading.Semaphore(0)
        self.closed = threading.Event()

    def gate(self) -> bool:
        while not self._tickets.acquire(timeout=0.1):
            if self.closed.is_set():
                return False
        return True

    def release(self) -> None:
        self._tickets.release()


def run_camera_evening(config: Any, args: argparse.Namespace) -> int:
    from companion.daemon import Daemon, DaemonOptions, StartupError

    try:
        text = sys.stdin.read() if args.script == "-" else Path(args.script).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"uno-companion: cannot read the script {args.script}: {exc}", file=sys.stderr)
        return 2
    frames = Path(args.camera_frames)
    if not frames.is_dir():
        print(f"uno-companion: {frames}: no such folder of frames", file=sys.stderr)
        return 2
    tickets = Tickets()
    options = DaemonOptions(
        state_dir=state_dir_or_exit(args.state_dir, config, simulate=True),
        simulate=True,
        seed=choose_seed(config, args.seed),
        web=False,
        voice=False,
        camera_source=f"folder:{frames}",
        camera_gate=tickets.gate,
        camera_realtime=False,
    )
    catalog = Catalog.load()
    lang = args.lang or config.table.language
    daemon = Daemon(config, options)

    def write(outcome: Outcome) -> None:
        record = trace_record(outcome, lambda say: catalog.text(say.key, lang, say.params))
        last = outcome.snapshot.get("last_event")
        if last is not None and last.get("card") and outcome.event not in MENDS:
            record["card"] = last["card"]
        print(json.dumps(record, ensure_ascii=False))

    try:
        daemon.hub.add_journal(write)
        daemon.start()
    except StartupError as exc:
        print(f"uno-companion: {exc}", file=sys.stderr)
        return 2
    errors = 0
    try:
        for number, line in enumerate(text.splitlines(), start=1):
            try:
                errors += _replay_line(daemon, tickets, line)
            except (ScriptError, ActionError) as exc:
                errors += 1
                print(f"line {number}: {exc}  [{line.strip()}]", file=sys.stderr)
                if args.strict:
                    return 1
    finally:
        tickets.closed.set()
        daemon.stop()
        sys.stdout.flush()
    return 1 if errors and args.strict else 0


def _replay_line(daemon: Any, tickets: Tickets, line: str) -> int:
    parsed = parse_line(line)
    if parsed is None:
        return 0
    action, payload = parsed
    if action != "table.play":
        future = daemon.door.take(ScriptLine(line))
        if future is not None:
            future.result(timeout=DECISION_TIMEOUT_S)
        return 0
    camera = daemon.camera
    before = camera.decisions
    tickets.release()
    deadline = time.monotonic() + DECISION_TIMEOUT_S
    while camera.decisions == before:
        if time.monotonic() > deadline or camera.status == "lost":
            raise ActionError("no_read", "the camera saw no card played for this line")
        time.sleep(0.002)
    daemon.hub.call(lambda: None).result(timeout=DECISION_TIMEOUT_S)
    question = camera.question
    if question is not None:  # the scripted phone answers with the script's card
        answer = {"id": question["id"], "kind": vision_kind(payload)}
        for key in ("colour", "target", "count"):
            if key in payload:
                answer[key] = payload[key]
        daemon.hub.dispatch("camera.answer", answer)
        return 0
    last = daemon.hub.state()["table"]["last_event"]
    read = camera.last_read
    if read is None or play_payload(read["kind"], read["colour"]) != payload:
        # What the camera cannot know, or did not read right: a phone mends the log's line.
        mend = {"seq": last["seq"], "action": "table.play", "payload": payload}
        daemon.hub.dispatch("table.replace", mend)
    return 0
