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
read plays (source ``camera``); an unsure one is answered by a scripted phone with the script's
card (``camera.answer``, source ``phone``), and what the camera cannot know (a Coup Extrême's
target, a Poser Tout's count, a wild's colour) is mended by the phone on the round's log
(``table.replace``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from companion.app.camera import play_payload
from companion.app.inputs import ScriptLine
from companion.core.errors import ActionError
from companion.core.script import ScriptError, parse_line
from companion.core.session import LineError, trace_record
from companion.core.table import Outcome
from companion.devices.clock import VirtualClock
from companion.i18n import Catalog

DECISION_TIMEOUT_S = 60.0


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
        self.daemon = Daemon(config, options)
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

    def close(self) -> None:
        self.daemon.stop()
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
) -> Iterator[dict[str, Any] | LineError]:
    """Each line of a script through the daemon: the records of the events it led to, or a
    :class:`LineError` for a line that was not taken (the session goes on)."""
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
    records = replay_script(
        config, lines, seed=choose_seed(config, args.seed), lang=lang, state_dir=args.state_dir
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
    replay = ScriptReplay(
        config,
        seed=choose_seed(config, args.seed),
        lang=args.lang or config.table.language,
        trace=print_record,
        state_dir=args.state_dir,
        camera_source=f"folder:{frames}",
        camera_gate=tickets.gate,
    )
    try:
        replay.start()
    except StartupError as exc:
        print(f"uno-companion: {exc}", file=sys.stderr)
        return 2
    errors = 0
    try:
        for number, line in enumerate(text.splitlines(), start=1):
            try:
                _replay_line(replay, tickets, number, line)
            except (ScriptError, ActionError) as exc:
                errors += 1
                report(LineError(number, line, str(exc)))
                if args.strict:
                    return 1
    finally:
        tickets.closed.set()
        replay.close()
        sys.stdout.flush()
    return 1 if errors and args.strict else 0


def _replay_line(replay: ScriptReplay, tickets: Tickets, number: int, line: str) -> None:
    parsed = parse_line(line)
    if parsed is None:
        return
    action, payload = parsed
    if action != "table.play":
        replay.run(number, line)
        return
    replay.line = number
    daemon = replay.daemon
    camera = daemon.camera
    assert camera is not None
    before = camera.decisions
    tickets.release()
    deadline = time.monotonic() + DECISION_TIMEOUT_S
    while camera.decisions == before:
        if time.monotonic() > deadline or camera.status == "lost":
            raise ActionError("no_read", "the camera saw no card played for this line")
        time.sleep(0.002)
    replay.settle()
    question = camera.question
    if question is not None:  # the scripted phone answers with the script's card
        answer = {"id": question["id"], "kind": vision_kind(payload)}
        for key in ("colour", "target", "count"):
            if key in payload:
                answer[key] = payload[key]
        daemon.hub.dispatch("camera.answer", answer)
        replay.settle()
        return
    last = daemon.hub.state()["table"]["last_event"]
    read = camera.last_read
    if read is None or play_payload(read["kind"], read["colour"]) != payload:
        # What the camera cannot know, or did not read right: a phone mends the log's line.
        mend = {"seq": last["seq"], "action": "table.play", "payload": payload}
        daemon.hub.dispatch("table.replace", mend)
        replay.settle()
