"""The camera's service: its actions and state section, wired to its parts.

:class:`~.watch.CameraWatch` reads frames on the camera's thread; every play it decides crosses
to the hub thread with its picture, where :class:`~.questions.Questions` plays it or asks about
it; :class:`~.sweep.TargetSweep` turns the turret for a Coup Extrême's target;
:class:`~.teach.TeachSession` runs the guided teach; :class:`~.pictures.Pictures` keeps the
pictures of what was asked or mended.

State section ``camera``: ``configured``, ``enabled``, ``status`` (off, starting, ok, lost,
dark, frozen), ``last_read``, ``question`` (the open one: ``id``, ``needs`` card or target,
``missed`` when the card could not be read at all, ``candidates``, ``picture``, ``player``),
``waiting`` (the cards seen since, in order), ``counts`` (Poser Tout counts asked: ``id``,
``seq``, ``player``, ``picture``), ``teach``, ``kept``, ``sweeping``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from companion.core.commands import Cue
from companion.core.errors import ActionError
from companion.core.model import json_schema

from ..hub import Announcement, Hub
from ..inputs import InputDoor
from .cards import face_of, words
from .payloads import AnswerPayload, DeckPayload, NoPayload, QuestionPayload, SwitchPayload
from .pictures import KEPT, Pictures
from .questions import Landing, Questions, answered, say
from .status import State
from .sweep import TargetSweep
from .teach import TeachSession
from .watch import Camera, CameraWatch, Frame, Sighting


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
        self._gate = gate
        self._clock = clock
        self._hub: Hub | None = None
        self._door: InputDoor | None = None
        self.questions: Questions | None = None
        self.teach = TeachSession(camera, self._learned)
        self.sweep = TargetSweep(self._picked)
        self.watch = (
            None
            if camera is None
            else CameraWatch(
                camera,
                landed=self._landed,
                teach=self.teach.frame,
                teaching=lambda: self.teach.active,
                told=self._told,
                gate=gate,
            )
        )
        if self.watch is not None:
            self.watch.enabled = enabled
        self.last_read: dict[str, Any] | None = None
        self.decisions = 0  # landings handled on the hub thread (the replay, the bench)
        self._decided = threading.Condition()  # ... told to whoever waits for one
        self._epoch = 0  # rounds started: a card seen before its round started is dropped
        self._seen = 0  # the camera's sightings handled (a correction names how many)

    @property
    def enabled(self) -> bool:
        return self.watch is not None and self.watch.enabled

    @property
    def status(self) -> State:
        return self.watch.status.state if self.watch is not None else "off"

    # ------------------------------------------------------------------ the hub side

    def attach(self, hub: Hub) -> None:
        self._hub = hub
        self.questions = Questions(hub, self.pictures)
        hub.register_status("camera", self.state)
        register = hub.register_action
        register("camera.enable", json_schema(SwitchPayload), self._enable, "camera")
        register("camera.answer", json_schema(AnswerPayload), self._answer, "camera")
        register("camera.dismiss", json_schema(QuestionPayload), self._dismiss, "camera")
        teach, nothing = self.teach, json_schema(NoPayload)
        register("camera.teach_start", json_schema(DeckPayload), teach.start, "camera")
        register("camera.teach_skip", nothing, teach.skip, "camera")
        register("camera.teach_finish", nothing, teach.finish, "camera")
        register("camera.teach_cancel", nothing, teach.cancel, "camera")
        hub.add_listener(self)

    def state(self) -> dict[str, Any]:
        questions = self.questions
        asked = questions.state() if questions is not None else {}
        return {
            "configured": self._camera is not None,
            "enabled": self.enabled,
            "status": self.status if self.enabled else "off",
            "last_read": self.last_read,
            "question": asked.get("question"),
            "waiting": asked.get("waiting", []),
            "counts": asked.get("counts", []),
            "teach": self.teach.state(),
            "kept": min(KEPT, len(self.pictures.kept())),
            "sweeping": self.sweep.sweeping,
        }

    def on_outcome(self, outcome: Any) -> None:
        """On the hub thread: a round starts (the pile too), a phone's play answers an open
        question, a card laid by anyone else is the new top card, a mended line keeps its
        picture."""
        questions = self.questions
        if isinstance(outcome, Announcement) or self._camera is None or questions is None:
            return
        if outcome.event == "start_round":
            self._epoch += 1
            self.sweep.end()
            questions.new_round()
            self._camera.new_pile(face_of(outcome.snapshot.get("last_card")))
            return
        last = outcome.snapshot.get("last_event")
        if outcome.event in ("replace", "undo", "redo", "remove"):
            for jpeg in questions.mended(outcome.snapshot.get("log") or []):
                self.pictures.keep(self.pictures.number(), jpeg)
        by_table = outcome.event == "play" and outcome.source != "camera" and last
        if by_table and questions.played_by_table(int(last["seq"])):
            self.sweep.end()
            self._later(questions.drain)
        if outcome.event in ("play", "replace", "insert", "undo", "redo", "remove"):
            self._follow_table()

    def _follow_table(self) -> None:
        """On the hub thread: the watcher's top card is the table's, once nothing the camera
        saw waits. While cards wait behind a question the pile's top is the last of them (the
        watcher knows it); a mend of an older line, an answer placed before later lines or a
        wild's named colour never tell the watcher the top card is another."""
        questions, camera, hub = self.questions, self._camera, self._hub
        if questions is None or camera is None or hub is None:
            return
        if questions.placing or questions.waiting:
            return
        face = face_of(hub.engine.snapshot().get("last_card"))
        if face is not None:
            camera.correct(*face, seen=self._seen)

    def _enable(self, payload: dict[str, Any]) -> None:
        if self.watch is None or self.questions is None:
            raise ActionError("no_camera", "no camera is configured ([camera] in the settings)")
        on = bool(payload["on"])
        if not on:
            self.sweep.end()
            self.questions.forget_all()
        self.watch.switch(on)

    def _answer(self, payload: dict[str, Any]) -> None:
        questions = self.questions
        assert questions is not None
        number = int(payload["id"])
        if questions.asks_count(number):
            if "count" not in payload:
                raise ActionError("no_count", "how many cards: the answer gives its count")
            count = questions.take_count(number)
            if count is None:
                raise answered()
            questions.answer_count(count, int(payload["count"]))
            return
        if "kind" not in payload:
            raise ActionError("no_card", "which card: the answer names its kind")
        landing = questions.take(number)
        if landing is None:
            raise answered()
        self.sweep.end()
        kind = str(payload["kind"])  # (a target named after the card keeps its colour)
        colour = str(payload.get("colour") or (landing.colour if kind == landing.kind else ""))
        extra = {key: payload[key] for key in ("target", "count") if key in payload}
        questions.answer(landing, kind, colour, **extra)
        self._asked()

    def _dismiss(self, payload: dict[str, Any]) -> None:
        questions = self.questions
        assert questions is not None
        number = int(payload["id"])
        if questions.take_count(number) is None:
            if questions.take(number) is None:
                raise answered()
            self.sweep.end()
            questions.drain()
            self._asked()

    def _later(self, work: Callable[[], None]) -> None:
        """``work`` on the hub thread, after what it handles now has been told to everyone."""
        hub = self._hub
        assert hub is not None

        def run() -> None:
            try:
                work()
            finally:
                self._asked()
                hub.changed("camera")

        hub.call(run)

    def _picked(self, number: int, target: str) -> None:
        """HIT pressed during the sweep (on the button's thread)."""
        questions, hub = self.questions, self._hub
        assert questions is not None and hub is not None
        landing = questions.take(number)
        if landing is None:  # a phone answered first
            hub.call(lambda: hub.announce("camera.answered", [Cue("error")]))
            return

        def play() -> None:
            self.sweep.end()
            assert landing.kind is not None
            questions.answer(landing, landing.kind, landing.colour, "camera", target=target)

        self._later(play)

    # ------------------------------------------------------------------ the camera's thread

    def start(self, door: InputDoor) -> None:
        self._door = door
        if self.watch is not None:
            self.watch.start()

    def close(self) -> None:
        self.sweep.end()
        if self.watch is not None:
            self.watch.close()

    def wait_decisions(self, count: int, timeout: float) -> bool:
        """Wait (off the hub thread) until the camera has decided ``count`` plays in all;
        ``False`` when not within ``timeout`` s, or never: a camera lost, a replayed film
        whose round's frames have all been looked at."""
        deadline = time.monotonic() + timeout
        with self._decided:
            while self.decisions < count:
                left = deadline - time.monotonic()
                if left <= 0 or self.status == "lost" or _film_over(self._camera):
                    return False
                self._decided.wait(min(left, 0.05))
        return True

    def live_jpeg(self) -> bytes | None:
        """The latest frame as JPEG (the page's live picture); ``None`` without a camera or
        while it is off."""
        watch, camera = self.watch, self._camera
        frame = watch.latest if watch is not None else None
        if frame is None or camera is None or not self.enabled:
            return None
        return camera.jpeg(frame)

    def picture(self, number: int) -> bytes | None:
        """A kept picture (an unsure, unread or mended read), JPEG; ``None`` when not kept."""
        return self.pictures.read(number)

    def _landed(self, frame: Frame, sighting: Sighting) -> None:
        """On the camera's thread: the picture made here, the rest on the hub thread."""
        assert self._camera is not None and self._hub is not None
        epoch = self._epoch
        landing = Landing(
            self.pictures.number(),
            sighting.kind,
            sighting.colour,
            sighting.sure,
            tuple(sighting.candidates),
            self._camera.jpeg(frame),
            settles=bool(getattr(sighting, "settles", False)),
        )
        read = {
            **words(sighting.kind, sighting.colour),
            "confidence": round(sighting.confidence, 3),
            "sure": sighting.sure,
            "at_ms": int(self._clock() * 1000),
            "picture": None if landing.needs != "card" else Pictures.address(landing.number),
        }
        hub = self._hub

        def handle() -> None:
            assert self.questions is not None
            if epoch == self._epoch:
                self.last_read = read
                self.questions.landed(landing)
                self._asked()
            with self._decided:
                self.decisions += not landing.settles
                self._decided.notify_all()
            self._seen += 1
            hub.changed("camera")

        hub.call(handle)

    def _asked(self) -> None:
        """On the hub thread: each question just opened is said once (and a target swept)."""
        questions, hub, door = self.questions, self._hub, self._door
        assert questions is not None and hub is not None
        asked, questions.asked = questions.asked, []
        self._follow_table()
        for landing in asked:
            if landing.needs == "target" and door is not None:
                table = hub.engine.snapshot()
                seats = [
                    (int(p["seat"]), str(p["name"]))
                    for p in table.get("players", [])
                    if p["name"] != table.get("active") and not p.get("eliminated")
                ]
                hub.announce("camera.target", [say("box.camera_pick_target")])
                self.sweep.start(door, landing.number, seats)
            else:
                key = "box.camera_missed_card" if landing.kind is None else "box.camera_which_card"
                hub.announce("camera.question", [say(key)])

    def _learned(self) -> None:
        if self._door is not None:
            self._door.announce("camera.teach", [Cue("ding")])
            self._door.changed("camera")

    def _told(self, state: State, trouble: State | None) -> None:
        door = self._door
        if door is None:
            return
        if trouble is not None:
            door.announce(f"camera.{trouble}", [say(f"box.camera_{trouble}")])
        door.changed("camera")


def _film_over(camera: Camera | None) -> bool:
    """A replayed film whose every frame of this round has been looked at."""
    over = getattr(camera, "film_over", None)
    return isinstance(over, threading.Event) and over.is_set()
