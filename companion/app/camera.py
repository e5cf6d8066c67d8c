"""The camera as a table input: its own thread reads frames, only decided plays cross the door.

A frame is read on the camera's thread, never on the hub's: the press path never waits for one.
When the camera decides a card was played and is **sure**, the card becomes a
:class:`~companion.app.inputs.CardRead` through the door, the same play a phone sends, for the
player whose turn it is (source ``camera``). When it is unsure nothing moves: the state's
``camera.question`` offers the best candidates and the picture, the box says "Quelle carte ?"
once, and one tap (``camera.answer``) settles it as a phone's play. The pictures of unsure reads
and mended ones are kept (the last :data:`KEPT`) in the state directory, to teach again from.

A camera that is lost (unplugged), frozen (the same frame over and over) or dark mid-evening is
said once (voice and ``camera.status``); the table goes on with taps and buttons and the camera
is opened again with a growing pause until it returns.

State section ``camera``: ``configured``, ``enabled``, ``status`` (off, starting, ok, lost, dark,
frozen), ``last_read``, ``question``, ``teach``, ``kept``, ``sweeping``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

from companion.core.actions import object_schema
from companion.core.commands import Cue, Priority, Say, Turn
from companion.core.errors import ActionError

from .hub import Announcement, Hub
from .inputs import CardRead, InputDoor, PhoneAction

log = logging.getLogger(__name__)

KEPT = 50  # pictures of unsure or mended reads kept in the state directory
REMEMBERED = 8  # frames of the last camera plays held, should one of them be mended
DARK_LEVEL = 18.0  # mean brightness (0-255) under which the camera sees nothing
DARK_MS = 2000  # ... for this long: "dark"
FROZEN_MS = 3000  # the very same picture this long: "frozen"
FIRST_RETRY_S = 1.0
MAX_RETRY_S = 30.0
CAMERA_NICENESS = 10  # the camera's thread yields the processor to the press path
SWEEP_STEP_S = 1.5  # the turret faces each seat this long while sweeping for a target
DECKS = ("extreme", "classic")
KIND = {"type": "string", "minLength": 1, "maxLength": 20}
COLOUR = {"type": "string", "maxLength": 10}
ID = {"type": "integer", "minimum": 0}


# One picture from the camera, with its time in milliseconds (``t_ms``): the adapter's own type.
Frame = Any


class Sighting(Protocol):
    """A card the camera decided was played: the best face, how likely, whether it is sure, and
    the best faces in order (``(kind, colour, confidence)``). Kinds are the reader's names:
    ``"7"``, ``"reverse"``, ``"draw4"``...; colour ``""`` for a wild."""

    @property
    def kind(self) -> str: ...

    @property
    def colour(self) -> str: ...

    @property
    def confidence(self) -> float: ...

    @property
    def sure(self) -> bool: ...

    @property
    def candidates(self) -> tuple[tuple[str, str, float], ...]: ...


class Camera(Protocol):
    """What the service needs of the camera adapter (built by the composition root)."""

    def frames(self) -> Iterator[Frame]:
        """Open the camera and yield its frames; raises ``OSError`` or ``ValueError`` when it
        cannot open, stops when it is lost."""
        ...

    def release(self) -> None: ...

    def look(self, frame: Frame) -> Sighting | None:
        """Feed the watcher; a sighting when it decides a card was played."""
        ...

    def brightness(self, frame: Frame) -> float: ...

    def fingerprint(self, frame: Frame) -> bytes: ...

    def jpeg(self, frame: Frame) -> bytes: ...

    def correct(self, kind: str, colour: str) -> None:
        """The table settled the top card: the next read is ranked against it."""
        ...

    def new_pile(self) -> None:
        """A round starts: the pile's first card is learned, not played."""
        ...

    def stop(self) -> None: ...

    # The guided teach.
    def teach_start(self, deck: str) -> list[tuple[str, str]]: ...

    def teach_show(self, frame: Frame, kind: str, colour: str) -> bool: ...

    def teach_finish(self) -> str: ...

    def teach_cancel(self) -> None: ...


def card_read(kind: str, colour: str, *, sure: bool = True) -> CardRead:
    """The notice for a card the camera read: number cards are ``number`` with their value."""
    if kind.isdigit():
        return CardRead("number", colour or None, value=int(kind), sure=sure)
    return CardRead(kind, colour or None, sure=sure)  # type: ignore[arg-type,unused-ignore]


def play_payload(kind: str, colour: str) -> dict[str, Any]:
    """The ``table.play`` payload a phone sends for this card."""
    payload: dict[str, Any] = {"card": "number" if kind.isdigit() else kind}
    if kind.isdigit():
        payload["value"] = int(kind)
    if colour:
        payload["colour"] = colour
    return payload


class Pictures:
    """The pictures of unsure and mended reads: the last :data:`KEPT`, as ``<id>.jpg``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def keep(self, number: int, jpeg: bytes) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            (self.folder / f"{number}.jpg").write_bytes(jpeg)
            for old in self.kept()[:-KEPT]:
                old.unlink(missing_ok=True)
        except OSError as exc:
            log.warning("camera picture not kept: %s", exc)

    def kept(self) -> list[Path]:
        if not self.folder.is_dir():
            return []
        found = [p for p in self.folder.glob("*.jpg") if p.stem.isdigit()]
        return sorted(found, key=lambda p: int(p.stem))

    def read(self, number: int) -> bytes | None:
        path = self.folder / f"{number}.jpg"
        try:
            return path.read_bytes()
        except OSError:
            return None


class CameraService:
    """The camera's service (``attach``) and input source (``start``/``close``)."""

    def __init__(
        self,
        camera: Camera | None,
        pictures: Pictures,
        *,
        enabled: bool = False,
        gate: Callable[[], bool] | None = None,
        clock: Callable[[], float] = time.time,  # when a read was made, for the page
    ) -> None:
        self._camera = camera
        self.pictures = pictures
        self._enabled = enabled and camera is not None
        self._gate = gate  # replays: each decision waits for it (False: stop)
        self._clock = clock
        self._hub: Hub | None = None
        self._door: InputDoor | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._lock = threading.Lock()  # the fields below, read by the hub and the web
        self.status = "off"
        self._said = ""  # the trouble last said aloud (said once until it is over)
        self.last_read: dict[str, Any] | None = None
        self.question: dict[str, Any] | None = None
        self._question_card: tuple[str, str] | None = None
        self._next_id = self._first_id()
        self._latest: Frame | None = None
        self._teach: dict[str, Any] | None = None
        self._teach_cards: list[tuple[str, str]] = []
        self.sweeping = False
        self._sweep_stop: threading.Event | None = None
        self.decisions = 0  # sightings handed on (tests, the bench)
        self._played: dict[int, Frame] = {}  # the last camera plays' frames, by log line
        self._reading: Frame | None = None  # the frame of the sure read the hub is handling
        self._epoch = 0  # rounds started: a play seen before the round started is dropped
        self.settled = threading.Condition()

    def _first_id(self) -> int:
        kept = self.pictures.kept()
        return int(kept[-1].stem) + 1 if kept else 1

    # ------------------------------------------------------------------ the hub side

    def attach(self, hub: Hub) -> None:
        self._hub = hub
        hub.register_status("camera", self.state)
        on_off = object_schema(["on"], on={"type": "boolean"})
        hub.register_action("camera.enable", on_off, self._enable, "camera")
        answer = object_schema(
            ["id", "kind"],
            id=ID,
            kind=KIND,
            colour=COLOUR,
            target={"type": "string", "minLength": 1, "maxLength": 40},
            count={"type": "integer", "minimum": 1, "maximum": 108},
        )
        hub.register_action("camera.answer", answer, self._answer, "camera")
        hub.register_action("camera.dismiss", object_schema(["id"], id=ID), self._dismiss, "camera")
        deck = object_schema([], deck={"type": "string", "enum": list(DECKS)})
        hub.register_action("camera.teach_start", deck, self._teach_start, "camera")
        nothing = object_schema([])
        hub.register_action("camera.teach_skip", nothing, self._teach_skip, "camera")
        hub.register_action("camera.teach_finish", nothing, self._teach_finish, "camera")
        hub.register_action("camera.teach_cancel", nothing, self._teach_cancel, "camera")
        hub.add_listener(self)

    def state(self) -> dict[str, Any]:
        with self._lock:
            return {
                "configured": self._camera is not None,
                "enabled": self._enabled,
                "status": self.status if self._enabled else "off",
                "last_read": self.last_read,
                "question": self.question,
                "teach": self._teach_state(),
                "kept": min(KEPT, len(self.pictures.kept())),
                "sweeping": self.sweeping,
            }

    def on_outcome(self, outcome: Any) -> None:
        """A card laid by anyone else than the camera (a phone, a mend) is the new top card:
        the camera ranks its next read against it."""
        if isinstance(outcome, Announcement) or self._camera is None:
            return
        if outcome.event == "start_round":
            self._epoch += 1
            self._camera.new_pile()
            return
        last = outcome.snapshot.get("last_event")
        if outcome.event == "replace" and last:
            self._keep_mended(int(last["seq"]))
        if outcome.source == "camera" and last:
            self._remember(int(last["seq"]))  # now: a mend queued behind it finds the frame
        if outcome.source == "camera" or not last or not last.get("card"):
            return
        card = last["card"]
        kind = card["kind"]
        if kind == "number":
            value = (last.get("payload") or {}).get("value")
            if value is None:
                return
            kind = str(value)
        self._camera.correct(kind, card.get("colour") or "")

    def _keep_mended(self, seq: int) -> None:
        """A line the camera read was mended: its picture is kept, to teach again from."""
        with self._lock:
            frame = self._played.pop(seq, None)
        if frame is not None and self._camera is not None:
            number = self._next_id
            self._next_id += 1
            self.pictures.keep(number, self._camera.jpeg(frame))

    def _enable(self, payload: dict[str, Any]) -> None:
        if self._camera is None:
            raise ActionError("no_camera", "no camera is configured ([camera] in the settings)")
        with self._lock:
            self._enabled = bool(payload["on"])
            if not self._enabled:
                self.question = None
        self._wake.set()

    def _answer(self, payload: dict[str, Any]) -> None:
        with self._lock:
            question = self.question
        if question is None or question["id"] != payload["id"]:
            raise ActionError("stale", "that question was already settled", status=409)
        play = play_payload(payload["kind"], payload.get("colour", ""))
        for key in ("target", "count"):
            if key in payload:
                play[key] = payload[key]
        self._tell_table(PhoneAction("table.play", play))
        self._end_sweep()
        with self._lock:
            self.question = None
            mended = self._question_card != (payload["kind"], payload.get("colour", ""))
        if mended and self._camera is not None:
            self._camera.correct(payload["kind"], payload.get("colour", ""))
        self._settle()

    def _tell_table(self, notice: PhoneAction) -> None:
        assert self._hub is not None
        InputDoor(self._hub).take_now(notice)

    def _dismiss(self, payload: dict[str, Any]) -> None:
        with self._lock:
            if self.question is None or self.question["id"] != payload["id"]:
                raise ActionError("stale", "that question was already settled", status=409)
            self.question = None
        self._end_sweep()
        self._settle()

    def _settle(self) -> None:
        with self.settled:
            self.settled.notify_all()

    # ------------------------------------------------------------------ the guided teach

    def _teach_state(self) -> dict[str, Any] | None:
        teach = self._teach
        if teach is None:
            return None
        done = teach["done"]
        cards = self._teach_cards
        nxt = cards[done] if done < len(cards) else None
        return {
            "active": True,
            "next": None if nxt is None else {"kind": nxt[0], "colour": nxt[1]},
            "done": done,
            "total": len(cards),
            "deck": teach["deck"],
        }

    def _teach_start(self, payload: dict[str, Any]) -> None:
        if self._camera is None:
            raise ActionError("no_camera", "no camera is configured ([camera] in the settings)")
        deck = payload.get("deck", "extreme")
        cards = self._camera.teach_start(deck)
        with self._lock:
            self._teach_cards = cards
            self._teach = {"deck": deck, "done": 0, "shown": 0}

    def _teach_skip(self, payload: dict[str, Any]) -> None:
        with self._lock:
            if self._teach is None:
                raise ActionError("no_teach", "no teach is running")
            if self._teach["done"] < len(self._teach_cards):
                self._teach["done"] += 1

    def _teach_finish(self, payload: dict[str, Any]) -> None:
        if self._teach is None or self._camera is None:
            raise ActionError("no_teach", "no teach is running")
        try:
            self._camera.teach_finish()
        except ValueError as exc:
            raise ActionError("teach_failed", str(exc)) from None
        with self._lock:
            self._teach = None

    def _teach_cancel(self, payload: dict[str, Any]) -> None:
        if self._camera is not None:
            self._camera.teach_cancel()
        with self._lock:
            self._teach = None

    def _teach_frame(self, frame: Frame) -> None:
        """On the camera's thread: during a teach, a card seen is the one asked for."""
        camera = self._camera
        with self._lock:
            teach = self._teach
            if teach is None or teach["done"] >= len(self._teach_cards):
                return
            kind, colour = self._teach_cards[teach["done"]]
        assert camera is not None and self._door is not None
        if camera.look(frame) is None:  # a card laid and still: the watcher decided
            return
        if camera.teach_show(frame, kind, colour):
            with self._lock:
                if self._teach is teach:
                    teach["done"] += 1
            self._door.announce("camera.teach", [Cue("ding")])
            self._door.changed("camera")

    # ------------------------------------------------------------------ the camera's thread

    def start(self, door: InputDoor) -> None:
        self._door = door
        if self._camera is None:
            return
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        self._end_sweep()
        if self._camera is not None:
            self._camera.stop()
        self._wake.set()
        with self.settled:
            self.settled.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=5.0)
        self._thread = None

    def live_jpeg(self) -> bytes | None:
        """The latest frame as JPEG (the page's live picture); ``None`` without a camera or
        while it is off."""
        frame, camera = self._latest, self._camera
        if frame is None or camera is None or not self._enabled:
            return None
        return camera.jpeg(frame)

    def picture(self, number: int) -> bytes | None:
        """A kept picture (an unsure or mended read), JPEG; ``None`` when not kept."""
        return self.pictures.read(number)

    def _run(self) -> None:
        # On Linux a thread has its own niceness: the presses' threads come first.
        with contextlib.suppress(AttributeError, OSError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), CAMERA_NICENESS)
        # Niceness does not share out Python's interpreter lock: while the camera's thread
        # computes, a press waits for it up to the switch interval, which the hub keeps short
        # while it runs (1 ms); the camera's work comes in small steps, so that costs it nothing.
        self._watch_until_closed()

    def _watch_until_closed(self) -> None:
        camera = self._camera
        assert camera is not None
        pause = FIRST_RETRY_S
        while not self._stop.is_set():
            if not self._enabled:
                self._set_status("off")
                self._wake.wait()
                self._wake.clear()
                continue
            self._set_status("starting" if self.status in ("off", "starting") else self.status)
            try:
                seen_any = self._watch(camera)
            except (OSError, ValueError) as exc:
                log.warning("camera: %s", exc)
                seen_any = False
            finally:
                camera.release()
            if self._stop.is_set():
                return
            if not self._enabled:  # switched off: not lost
                continue
            if self._gate is not None:  # a replay: its frames are over
                self._set_status("lost", say=False)
                return
            self._set_status("lost")
            pause = FIRST_RETRY_S if seen_any else min(MAX_RETRY_S, pause * 2)
            self._wake.wait(pause)
            self._wake.clear()

    def _watch(self, camera: Camera) -> bool:
        """Read frames until the camera is lost, switched off or the service closes."""
        seen = False
        dark_since: int | None = None
        same_since: int | None = None
        previous = b""
        for frame in camera.frames():
            if self._stop.is_set() or not self._enabled:
                return seen
            seen = True
            self._latest = frame
            level = camera.brightness(frame)
            dark_since = (
                (dark_since if dark_since is not None else frame.t_ms)
                if (level < DARK_LEVEL)
                else None
            )
            mark = camera.fingerprint(frame)
            same_since = (
                (same_since if same_since is not None else frame.t_ms)
                if (mark == previous)
                else None
            )
            previous = mark
            if dark_since is not None and frame.t_ms - dark_since >= DARK_MS:
                self._set_status("dark")
                continue
            if same_since is not None and frame.t_ms - same_since >= FROZEN_MS:
                self._set_status("frozen")
                continue
            if dark_since is None and same_since is None:
                self._set_status("ok")
            if self._teach is not None:
                self._teach_frame(frame)
                continue
            epoch = self._epoch
            sighting = camera.look(frame)
            if sighting is not None:
                if self._gate is not None and not self._gate():
                    return seen
                if epoch == self._epoch:
                    self._decided(camera, frame, sighting)
        return seen

    def _decided(self, camera: Camera, frame: Frame, sighting: Sighting) -> None:
        door = self._door
        assert door is not None
        number = self._next_id
        self._next_id += 1
        read = {
            "kind": sighting.kind,
            "colour": sighting.colour,
            "confidence": round(sighting.confidence, 3),
            "sure": sighting.sure,
            "at_ms": int(self._clock() * 1000),
            "picture": None,
        }
        if sighting.kind == "coup_extreme":  # its target is the table's to say: sweep for it
            self._ask(camera, frame, sighting, number, read, sweep=True)
            return
        if sighting.sure:
            with self._lock:
                self._reading = frame  # remembered by its log line as the hub handles it
            future = door.take(card_read(sighting.kind, sighting.colour))
            with self._lock:
                self.last_read = read
            try:
                if future is not None:
                    future.result(timeout=10.0)
            except ActionError as exc:
                # The rules refused what was read (a Coup Extrême needs its target): ask.
                log.info("camera read refused by the table: %s", exc)
                self._ask(camera, frame, sighting, number, read)
                return
            except Exception:
                log.exception("camera read not handled")
            finally:
                with self._lock:
                    self._reading = None
            self.decisions += 1
            door.changed("camera")
            return
        self._ask(camera, frame, sighting, number, read)

    def _remember(self, seq: int) -> None:
        """The frame of the sure read being handled, kept by its log line (on the hub thread)."""
        with self._lock:
            if self._reading is None:
                return
            self._played[seq] = self._reading
            for old in sorted(self._played)[:-REMEMBERED]:
                del self._played[old]

    def _ask(
        self,
        camera: Camera,
        frame: Frame,
        sighting: Sighting,
        number: int,
        read: dict[str, Any],
        *,
        sweep: bool = False,
    ) -> None:
        door = self._door
        assert door is not None and self._hub is not None
        self.pictures.keep(number, camera.jpeg(frame))
        picture = f"/api/camera/pictures/{number}.jpg"
        player = self._active_player()
        candidates = [
            {"kind": k, "colour": c, "confidence": round(p, 3)} for k, c, p in sighting.candidates
        ]
        with self._lock:
            self.last_read = {**read, "picture": picture}
            self.question = {
                "id": number,
                "candidates": candidates,
                "picture": picture,
                "player": player,
            }
            if sweep:
                self.question["needs"] = "target"
                self.question["candidates"] = candidates[:1]
            self._question_card = (sighting.kind, sighting.colour)
        self.decisions += 1
        if sweep:
            door.announce("camera.target", [self._say("box.camera_pick_target")])
            self._start_sweep(number)
        else:
            door.announce("camera.question", [self._say("box.camera_which_card")])
        door.changed("camera")
        if self._gate is not None:  # a replay: the next play waits for the phone's answer
            with self.settled:
                self.settled.wait_for(lambda: self.question is None or self._stop.is_set(), 30.0)

    # ------------------------------------------------------------------ the target's sweep

    def _start_sweep(self, number: int) -> None:
        """The turret turns slowly from seat to seat (the attacker's left out); HIT pressed
        while it faces a player makes that player the Coup Extrême's target."""
        door = self._door
        assert door is not None and self._hub is not None
        table = self._hub.state().get("table", {})
        attacker = table.get("active")
        seats = [
            (int(p["seat"]), str(p["name"]))
            for p in table.get("players", [])
            if p["name"] != attacker and not p.get("eliminated")
        ]
        if not seats:
            return
        stop = threading.Event()
        facing: list[tuple[int, str]] = [seats[0]]

        def hit(notice: Any) -> bool:
            if getattr(notice, "button", None) != "hit" or stop.is_set():
                return False
            stop.set()
            door.unclaim(hit)
            self._picked(number, facing[0][1])
            return True

        def sweep() -> None:
            step = 0
            while not stop.is_set() and not self._stop.is_set():
                facing[0] = seats[step % len(seats)]
                door.announce("camera.sweep", [Turn(*facing[0])])
                step += 1
                stop.wait(SWEEP_STEP_S)
            door.unclaim(hit)

        with self._lock:
            self._sweep_stop = stop
            self.sweeping = True
        door.claim(hit)
        threading.Thread(target=sweep, name="camera-sweep", daemon=True).start()

    def _end_sweep(self) -> None:
        with self._lock:
            stop, self._sweep_stop = self._sweep_stop, None
            self.sweeping = False
        if stop is not None:
            stop.set()

    def _picked(self, number: int, target: str) -> None:
        """HIT pressed during the sweep (on the button's thread): the card with its target."""
        door = self._door
        assert door is not None
        with self._lock:
            question = self.question
            if question is None or question["id"] != number:
                return
            self.question = None
        self._end_sweep()
        door.take(CardRead("coup_extreme", target=target))
        door.changed("camera")
        self._settle()

    def _active_player(self) -> str:
        hub = self._hub
        assert hub is not None
        try:
            table = hub.state().get("table", {})
        except Exception:
            return ""
        active = table.get("active")
        return str(active) if active is not None else ""

    @staticmethod
    def _say(key: str) -> Say:
        return Say(key, {}, Priority.WARNING)

    def _set_status(self, status: str, *, say: bool = True) -> None:
        with self._lock:
            if status == self.status:
                return
            self.status = status
            trouble = status in ("lost", "dark", "frozen")
            announce = say and trouble and self._said != status
            if trouble:
                self._said = status
            elif status == "ok":
                self._said = ""
        if self._door is None:
            return
        if announce:
            self._door.announce(f"camera.{status}", [self._say(f"box.camera_{status}")])
        self._door.changed("camera")
