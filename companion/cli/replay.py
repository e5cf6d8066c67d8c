"""``simulate --camera-frames DIR --script FILE``: an evening whose cards the camera reads.

The real daemon runs on mock pins with the camera replaying ``DIR`` (a folder of frames, or one
folder of frames a round, started as the table starts each round). The script says what the
table does; its ``play`` lines are the camera's to read: each waits for the camera's next
decision. A sure read plays (source ``camera``). A question (a card the camera is unsure of or
could not read, a Coup Extrême's target) is left open while the next :data:`ANSWER_AFTER` plays
are read, as a family busy playing would, then answered by a scripted phone with the script's
card (``camera.answer``, source ``phone``): the cards read meanwhile wait and are played in
order behind it. What the camera cannot know (a Poser Tout's count) is answered when asked, and
a line the camera read otherwise than the script is mended on the round's log
(``table.replace``). Every other line goes through the door as a script line. One JSON object per
event on standard output, as for a script, then the ``final`` line; problems on standard error.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from pathlib import Path
from typing import Any

from companion.app.camera import face_of
from companion.app.inputs import ScriptLine
from companion.core.errors import ActionError
from companion.core.script import ScriptError, parse_line
from companion.core.session import MENDS, trace_record
from companion.core.table import Outcome
from companion.core.table.view import final_record, round_lines
from companion.i18n import Catalog

from .common import choose_seed, state_dir_or_exit

DECISION_TIMEOUT_S = 60.0
ANSWER_AFTER = 3  # plays read while a question stays open before the scripted phone answers


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


class Replay:
    """The script's side of the evening: its play lines matched with the camera's landings."""

    def __init__(self, daemon: Any, tickets: Tickets) -> None:
        self.daemon = daemon
        self.tickets = tickets
        self.plays: list[dict[str, Any]] = []  # this round's play lines' payloads, in order
        self.questions = 0  # questions the scripted phone answered
        self.asked = 0  # questions the camera asked (some it answered itself, once clear)
        self.waited = 0  # cards that waited behind a question
        self.rounds: list[list[dict[str, Any]]] = []  # each finished round's log

    def line(self, text: str) -> None:
        parsed = parse_line(text)
        if parsed is None:
            return
        action, payload = parsed
        if action == "table.play":
            self._play(payload)
            return
        if action != "table.press":  # the round's end, a new round, a rule: all settled first
            self.settle(everything=True)
        if action == "table.start_round":
            self._keep_round()
        future = self.daemon.door.take(ScriptLine(text))
        if future is not None:
            future.result(timeout=DECISION_TIMEOUT_S)
        if action == "table.start_round":
            self.plays = []

    def _play(self, payload: dict[str, Any]) -> None:
        camera = self.daemon.camera
        before = camera.decisions
        self.plays.append(payload)
        self.tickets.release()
        deadline = time.monotonic() + DECISION_TIMEOUT_S
        while camera.decisions == before:
            if time.monotonic() > deadline or camera.status == "lost":
                raise ActionError("no_read", "the camera saw no card played for this line")
            time.sleep(0.002)
        self._hub(lambda: None)
        self.settle()

    def settle(self, *, everything: bool = False) -> None:
        """Answer the open question once :data:`ANSWER_AFTER` plays were read behind it (or
        ``everything``: all of them), then mend what the camera could not know."""
        hub, camera = self.daemon.hub, self.daemon.camera
        while True:
            state = hub.state()["camera"]
            question = state["question"]
            if question is None or (len(state["waiting"]) < ANSWER_AFTER and not everything):
                break
            landing = self._landing(question["id"])
            payload = self.plays[landing] if landing is not None else None
            if payload is None:
                hub.dispatch("camera.dismiss", {"id": question["id"]})
                continue
            face = face_of(payload)
            assert face is not None
            answer: dict[str, Any] = {"id": question["id"], "kind": face[0], "colour": face[1]}
            answer |= {k: payload[k] for k in ("target", "count") if k in payload}
            hub.dispatch("camera.answer", answer)
            self.questions += 1
            self._hub(lambda: None)
        history = camera.questions.history if camera.questions is not None else []
        counts = {c["seq"]: c["id"] for c in hub.state()["camera"]["counts"]}
        lines = {line["seq"]: line for line in hub.state()["table"]["log"]}
        for landing, payload in zip(history, self.plays, strict=False):
            line = lines.get(landing.seq) if landing.seq is not None else None
            if line is None or line["payload"] == payload:
                continue
            if landing.seq in counts and "count" in payload:
                hub.dispatch(
                    "camera.answer", {"id": counts[landing.seq], "count": payload["count"]}
                )
                line = {s["seq"]: s for s in hub.state()["table"]["log"]}.get(landing.seq, line)
            if line["payload"] != payload:  # what the camera cannot know, or read wrong
                mend = {"seq": landing.seq, "action": "table.play", "payload": payload}
                hub.dispatch("table.replace", mend)

    def _landing(self, number: int) -> int | None:
        camera = self.daemon.camera
        history = camera.questions.history if camera.questions is not None else []
        found = [i for i, landing in enumerate(history) if landing.number == number]
        return found[0] if found and found[0] < len(self.plays) else None

    def _count_round(self) -> None:
        questions = self.daemon.camera.questions
        history = list(questions.history) if questions is not None else []
        self.asked += sum(landing.asked for landing in history)
        self.waited += sum(landing.waited for landing in history)

    def _keep_round(self) -> None:
        self._count_round()
        hub = self.daemon.hub

        def lines_now() -> list[dict[str, Any]]:
            engine = hub.engine  # the hub thread's
            return round_lines(engine.log, [seat.name for seat in engine.state.seats])

        lines = self._hub(lines_now)
        if lines:
            self.rounds.append(lines)

    def final(self) -> dict[str, Any]:
        hub = self.daemon.hub
        self._count_round()
        record: dict[str, Any] = self._hub(lambda: final_record(hub.engine, hub.engine.log))
        counts = {"questions": self.questions, "asked": self.asked, "waited": self.waited}
        return {**record, "rounds": [*self.rounds, record["log"]], **counts}

    def _hub(self, work: Any) -> Any:
        return self.daemon.hub.call(work).result(timeout=DECISION_TIMEOUT_S)


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
    try:
        daemon = Daemon(config, options)
    except StartupError as exc:
        print(f"uno-companion: {exc}", file=sys.stderr)
        return 2

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
    replay = Replay(daemon, tickets)
    errors = 0
    try:
        for number, line in enumerate(text.splitlines(), start=1):
            try:
                replay.line(line)
            except (ScriptError, ActionError) as exc:
                errors += 1
                print(f"line {number}: {exc}  [{line.strip()}]", file=sys.stderr)
                if args.strict:
                    return 1
        replay.settle(everything=True)
        print(json.dumps(replay.final(), ensure_ascii=False))
    finally:
        tickets.closed.set()
        daemon.stop()
        sys.stdout.flush()
    return 1 if errors and args.strict else 0
