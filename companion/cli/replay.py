"""Replays through the real daemon: ``simulate --script FILE`` and, with ``--camera-frames DIR``
as well, an evening whose cards the camera reads.

Both run the daemon on gpiozero's mock pins with a virtual clock (a firing or a turn takes no
real time), in a fresh state directory unless ``--state-dir`` names one (in memory when the
system allows: nothing of it is kept, so nothing waits for a disk), and write one JSON
object per handled event (:class:`ScriptReplay`'s trace, a journal of the hub): the script's
lines, and what the box did by itself (the beam's count after a firing), each with the number of
the line that was running. After each line the replay waits until the launcher is still and
what it reported is handled, so a replay gives the same trace run after run. Every line goes
through the door as the terminal's keys and the phones' actions do; the journals, the table's
memory and the listeners all run.

With ``--camera-frames DIR`` the camera replays ``DIR`` (a folder of frames, or one folder of
frames a round, started as the table starts each round). The script says what the table does;
its ``play`` lines are the camera's to read: each waits for the camera's next decision. A sure
read plays (source ``camera``). A question (a card the camera is unsure of or could not read, a
Coup Extrême's target) is left open while the next :data:`ANSWER_AFTER` plays are read, as a
family busy playing would, then answered by a scripted phone with the script's card
(``camera.answer``, source ``phone``): the cards read meanwhile wait and are played in order
behind it. What the camera cannot know (a Poser Tout's count) is answered when asked, and a line
the camera read otherwise than the script is mended on the round's log (``table.replace``).

Both end with the ``final`` line: the round's log as it ends (for the camera's evening, every
round's, and the questions asked and answered).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from companion.app.camera import face_of
from companion.app.inputs import ScriptLine
from companion.core.errors import ActionError
from companion.core.script import ScriptError, parse_line
from companion.core.session import LineError, trace_record
from companion.core.table import Outcome
from companion.core.table.view import final_record, round_lines
from companion.devices.clock import VirtualClock
from companion.i18n import Catalog

DECISION_TIMEOUT_S = 60.0
ANSWER_AFTER = 3  # plays read while a question stays open before the scripted phone answers


MEMORY_FOLDER = Path("/dev/shm")  # Linux's memory-backed folder


def scratch_directory() -> tempfile.TemporaryDirectory[str]:
    """A state directory to throw away after a replay: in memory when the system has a
    memory-backed folder, so the stores' syncs to disk cost nothing (a replay's state is
    never kept)."""
    memory = MEMORY_FOLDER if os.access(MEMORY_FOLDER, os.W_OK) else None
    return tempfile.TemporaryDirectory(prefix="uno-companion-replay-", dir=memory)


class ScriptReplay:
    """The daemon a replay runs (built here, started by :meth:`start`), fed one line at a time.

    ``trace(record)`` gets each handled event's record, on the hub thread."""

    def __init__(
        self,
        config: Any,
        *,
        seed: int,
        lang: str,
        trace: Callable[[dict[str, Any]], None],
        state_dir: Path | None = None,
        camera_source: str | None = None,
        camera_gate: Callable[[], bool] | None = None,
    ) -> None:
        from companion.daemon import Daemon, DaemonOptions

        self._temporary: tempfile.TemporaryDirectory[str] | None = None
        if state_dir is None:
            self._temporary = scratch_directory()
            state_dir = Path(self._temporary.name)
        options = DaemonOptions(
            state_dir=state_dir,
            simulate=True,
            seed=seed,
            web=False,
            voice=False,
            motion_clock=VirtualClock(),
            camera_source=camera_source,
            camera_gate=camera_gate,
            camera_realtime=False,
        )
        try:
            self.daemon = Daemon(config, options)
        except BaseException:
            self._forget_state()
            raise
        catalog = Catalog.load()
        self._render = lambda say: catalog.text(say.key, lang, say.params)
        self._trace = trace
        self.line: int | None = None  # the script line running (its events carry it)
        self.traced = 0
        self.daemon.hub.add_journal(self._write)

    def _write(self, outcome: Outcome) -> None:
        record = trace_record(outcome, self._render)
        record["line"] = self.line
        self.traced += 1
        self._trace(record)

    def start(self) -> ScriptReplay:
        """Start the daemon (raises :class:`~companion.daemon.StartupError`)."""
        try:
            self.daemon.start()
        except BaseException:
            self.close()
            raise
        self.settle()
        return self

    def run(self, number: int, text: str) -> None:
        """Script line ``number`` through the door, then :meth:`settle`. Raises
        :class:`ScriptError` or :class:`ActionError` for a line that is not taken."""
        self.line = number
        future = self.daemon.door.take(ScriptLine(text))
        if future is not None:
            future.result(timeout=DECISION_TIMEOUT_S)
        self.settle()

    def settle(self) -> None:
        """Wait until the launcher is still and every event it reported is handled."""
        hardware, hub = self.daemon.hardware, self.daemon.hub
        while True:
            before = self.traced
            if hardware is not None and not hardware.wait_idle(DECISION_TIMEOUT_S):
                raise ActionError("busy", "the launcher did not come to rest")
            hub.call(lambda: None).result(timeout=DECISION_TIMEOUT_S)
            if self.traced == before:
                return

    def hub_call(self, work: Callable[[], Any]) -> Any:
        """``work``'s result, run on the hub thread (where the table engine is read)."""
        return self.daemon.hub.call(work).result(timeout=DECISION_TIMEOUT_S)

    def round_log(self) -> list[dict[str, Any]]:
        """The round's log as it stands now (the ``final`` record's ``log``)."""
        hub = self.daemon.hub

        def lines_now() -> list[dict[str, Any]]:
            engine = hub.engine  # the hub thread's
            return round_lines(engine.log, [seat.name for seat in engine.state.seats])

        lines: list[dict[str, Any]] = self.hub_call(lines_now)
        return lines

    def final(self) -> dict[str, Any]:
        """The session's last record: the round's log as it ends."""
        hub = self.daemon.hub
        record: dict[str, Any] = self.hub_call(lambda: final_record(hub.engine, hub.engine.log))
        return record

    def close(self) -> None:
        self.daemon.stop()
        self._forget_state()

    def _forget_state(self) -> None:
        if self._temporary is not None:
            self._temporary.cleanup()
            self._temporary = None

    def __enter__(self) -> ScriptReplay:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


def replay_script(
    config: Any,
    lines: Iterable[str],
    *,
    seed: int,
    lang: str,
    state_dir: Path | None = None,
    final: bool = False,
) -> Iterator[dict[str, Any] | LineError]:
    """Each line of a script through the daemon: the records of the events it led to, or a
    :class:`LineError` for a line that was not taken (the session goes on); with ``final``,
    then the ``final`` record."""
    records: list[dict[str, Any]] = []
    replay = ScriptReplay(config, seed=seed, lang=lang, trace=records.append, state_dir=state_dir)
    with replay:
        yield from records
        records.clear()
        for number, text in enumerate(lines, start=1):
            try:
                replay.run(number, text)
            except (ScriptError, ActionError) as exc:
                error: LineError | None = LineError(number, text.rstrip("\n"), str(exc))
            else:
                error = None
            yield from records
            records.clear()
            if error is not None:
                yield error
        if final:
            yield replay.final()


def read_script(name: str) -> str | None:
    """The script ``name`` (``-``: standard input); None (and a message) if it cannot be read."""
    try:
        return sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"uno-companion: cannot read the script {name}: {exc}", file=sys.stderr)
        return None


def print_record(record: dict[str, Any]) -> None:
    print(json.dumps(record, ensure_ascii=False), flush=False)


def report(error: LineError) -> None:
    print(f"line {error.line}: {error.message}  [{error.text.strip()}]", file=sys.stderr)


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

    def take_back(self) -> None:
        """A play line the camera decided nothing for: its ticket is not the next line's."""
        self._tickets.acquire(blocking=False)


class CameraEvening:
    """The script's side of a camera evening: its play lines matched with the camera's
    landings, the other lines run by the :class:`ScriptReplay`, each in its turn: a line that
    is not a play runs once every play above it is on the table (read, or asked and answered).
    A play line the table refuses is in :attr:`refused` (its number, as the typed replay
    reports it) and its question dismissed: nothing is played for it, as when typed."""

    def __init__(self, box: ScriptReplay, tickets: Tickets) -> None:
        self.box = box
        self.daemon = box.daemon
        self.tickets = tickets
        # this round's play lines, in order: (number, text, payload)
        self.plays: list[tuple[int, str, dict[str, Any]]] = []
        self.refused: list[LineError] = []  # lines refused since the caller last took them
        self.questions = 0  # questions the scripted phone answered
        self.asked = 0  # questions the camera asked (some it answered itself, once clear)
        self.waited = 0  # cards that waited behind a question
        # lines mended on the log: the card read otherwise than the script ("misread": a sure
        # read that was wrong), or only what the camera cannot see (a count, a named colour)
        self.mended = {"misread": 0, "detail": 0}
        self.rounds: list[list[dict[str, Any]]] = []  # each finished round's log
        self._decided = 0  # the camera's decisions matched with play lines so far

    def line(self, number: int, text: str) -> None:
        parsed = parse_line(text)
        if parsed is None:
            return
        action, payload = parsed
        self.box.line = number
        if action == "table.play":
            self._play(number, text, payload)
            return
        # A press, a round's end, a rule: run once the plays above it are on the table.
        self.settle(everything=True)
        if action == "table.start_round":
            self._keep_round()
        self.box.run(number, text)
        if action == "table.start_round":
            self.plays = []

    def _play(self, number: int, text: str, payload: dict[str, Any]) -> None:
        camera = self.daemon.camera
        assert camera is not None
        self.plays.append((number, text.rstrip("\n"), payload))
        self.tickets.release()
        wanted = self._decided + 1
        if not camera.wait_decisions(wanted, DECISION_TIMEOUT_S):
            self.box.settle()  # a decision on its way to the hub thread is counted
            if camera.decisions < wanted:
                self.tickets.take_back()
                self.plays.pop()
                raise ActionError("no_read", "the camera saw no card played for this line")
        self._decided = wanted
        self.box.settle()
        self.settle()

    def settle(self, *, everything: bool = False) -> None:
        """Answer the open question once :data:`ANSWER_AFTER` plays were read behind it (or
        ``everything``: all of them), then mend what the camera could not know."""
        hub = self.daemon.hub
        answered: set[int] = set()
        while True:
            state = hub.state()["camera"]
            question = state["question"]
            if question is None or (len(state["waiting"]) < ANSWER_AFTER and not everything):
                break
            if question["id"] in answered:  # answered, yet asked again: nothing more to say
                hub.dispatch("camera.dismiss", {"id": question["id"]})
                self.box.settle()
                continue
            answered.add(question["id"])
            landing = self._landing(question["id"])
            play = self.plays[landing] if landing is not None else None
            if play is None:
                hub.dispatch("camera.dismiss", {"id": question["id"]})
                self.box.settle()
                continue
            number, text, payload = play
            face = face_of(payload)
            assert face is not None
            answer: dict[str, Any] = {"id": question["id"], "kind": face[0], "colour": face[1]}
            answer |= {k: payload[k] for k in ("target", "count") if k in payload}
            running, self.box.line = self.box.line, number  # the answer is that line's
            try:
                hub.dispatch("camera.answer", answer)
            except ActionError as exc:  # the table refuses the line, as it would typed
                self.refused.append(LineError(number, text, str(exc)))
                hub.dispatch("camera.dismiss", {"id": question["id"]})
            else:
                self.questions += 1
            self.box.settle()
            self.box.line = running
        self._mend()

    def _mend(self) -> None:
        """Mend on the log what the camera read otherwise than the script, or could not know."""
        hub = self.daemon.hub
        counts = {c["seq"]: c["id"] for c in hub.state()["camera"]["counts"]}
        lines = {line["seq"]: line for line in hub.state()["table"]["log"]}
        for landing, (number, text, payload) in zip(self._history(), self.plays, strict=False):
            line = lines.get(landing.seq) if landing.seq is not None else None
            if line is None or line["payload"] == payload:
                continue
            try:
                if landing.seq in counts and "count" in payload:
                    hub.dispatch(
                        "camera.answer", {"id": counts[landing.seq], "count": payload["count"]}
                    )
                    self.box.settle()
                    now = {s["seq"]: s for s in hub.state()["table"]["log"]}
                    line = now.get(landing.seq, line)
                if line["payload"] != payload:  # what the camera cannot know, or read wrong
                    wrong = face_of(line.get("card")) != face_of(payload)
                    self.mended["misread" if wrong else "detail"] += 1
                    mend = {"seq": landing.seq, "action": "table.play", "payload": payload}
                    hub.dispatch("table.replace", mend)
            except ActionError as exc:
                self.refused.append(LineError(number, text, str(exc)))
            self.box.settle()

    def _history(self) -> list[Any]:
        camera = self.daemon.camera
        questions = camera.questions if camera is not None else None
        return list(questions.history) if questions is not None else []

    def _landing(self, number: int) -> int | None:
        found = [i for i, landing in enumerate(self._history()) if landing.number == number]
        return found[0] if found and found[0] < len(self.plays) else None

    def _count_round(self) -> None:
        history = self._history()
        self.asked += sum(landing.asked for landing in history)
        self.waited += sum(landing.waited for landing in history)

    def _keep_round(self) -> None:
        self._count_round()
        lines = self.box.round_log()
        if lines:
            self.rounds.append(lines)

    def final(self) -> dict[str, Any]:
        self._count_round()
        record = self.box.final()
        counts: dict[str, Any] = {"questions": self.questions, "asked": self.asked}
        counts |= {"waited": self.waited, "mended": dict(self.mended)}
        return {**record, "rounds": [*self.rounds, record["log"]], **counts}


# ---------------------------------------------------------------------- the command line


def run_script_file(config: Any, args: argparse.Namespace) -> int:
    """``simulate --script FILE``: the records on standard output, bad lines on standard error
    (``--strict``: stop at the first)."""
    from companion.daemon import StartupError

    from .common import choose_seed

    text = read_script(args.script)
    if text is None:
        return 2
    lines = text.splitlines()
    lang = args.lang or config.table.language
    errors = 0
    seed = choose_seed(config, args.seed)
    records = replay_script(
        config, lines, seed=seed, lang=lang, state_dir=args.state_dir, final=True
    )
    try:
        for item in records:
            if isinstance(item, LineError):
                errors += 1
                report(item)
                if args.strict:
                    return 1
                continue
            print_record(item)
    except StartupError as exc:
        print(f"uno-companion: {exc}", file=sys.stderr)
        return 2
    finally:
        sys.stdout.flush()
    return 1 if errors and args.strict else 0


def run_camera_evening(config: Any, args: argparse.Namespace) -> int:
    """``simulate --camera-frames DIR --script FILE``."""
    from companion.daemon import StartupError

    from .common import choose_seed

    text = read_script(args.script)
    if text is None:
        return 2
    frames = Path(args.camera_frames)
    if not frames.is_dir():
        print(f"uno-companion: {frames}: no such folder of frames", file=sys.stderr)
        return 2
    tickets = Tickets()
    try:
        replay = ScriptReplay(
            config,
            seed=choose_seed(config, args.seed),
            lang=args.lang or config.table.language,
            trace=print_record,
            state_dir=args.state_dir,
            camera_source=f"folder:{frames}",
            camera_gate=tickets.gate,
        )
        replay.start()
    except StartupError as exc:
        print(f"uno-companion: {exc}", file=sys.stderr)
        return 2
    evening = CameraEvening(replay, tickets)
    errors = 0

    def told(refused: list[LineError]) -> bool:
        """Report the lines refused; whether to stop (``--strict``)."""
        nonlocal errors
        for error in refused:
            errors += 1
            report(error)
        refused.clear()
        return bool(errors and args.strict)

    try:
        for number, line in enumerate(text.splitlines(), start=1):
            try:
                evening.line(number, line)
            except (ScriptError, ActionError) as exc:
                evening.refused.append(LineError(number, line, str(exc)))
            evening.refused.sort(key=lambda error: error.line)
            if told(evening.refused):
                return 1
        evening.settle(everything=True)
        if told(evening.refused):
            return 1
        print_record(evening.final())
    finally:
        tickets.closed.set()
        replay.close()
        sys.stdout.flush()
    return 1 if errors and args.strict else 0
