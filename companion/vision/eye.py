"""The camera as the box's service sees it: frames from a configured source, cards decided.

:class:`Eye` opens its source afresh each time it is asked for frames (a camera unplugged and
plugged back is opened again), paces a folder of frames at its own times when asked to, feeds
the :class:`~.watcher.Watcher` and answers with plain values (kinds, colours, JPEG bytes), so the
application never handles a picture. It also runs the guided teach and keeps the family's
model in the state directory.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .kinds import Card, deck_faces
from .model import Model
from .sources import FolderSource, FrameSource, OpenCVSource, PicameraSource, TimedFrame
from .teach import Lesson, TeachError
from .watcher import Watcher

LIVE_WIDTH = 640
CANDIDATES = 8  # faces handed on, best first: the table keeps those of its deck
TAUGHT_MODEL = "camera-model.npz"  # the family's deck, in the state directory


@dataclass(frozen=True)
class Sighting:
    kind: str | None  # None: a card laid that could not be read
    colour: str
    confidence: float
    sure: bool
    candidates: tuple[tuple[str, str, float], ...]
    settles: bool = False  # the card laid unread before, come clear


def round_folders(folder: Path) -> list[Path]:
    """A folder of frames (``frames.json``), or a folder of such folders, one a round, in name
    order: a replayed evening."""
    if (folder / "frames.json").is_file() or not folder.is_dir():
        return [folder]
    rounds = sorted(p for p in folder.iterdir() if (p / "frames.json").is_file())
    return rounds or [folder]


def drawn_source(source: str) -> bool:
    """Whether a ``[camera] source`` replays the program's own drawings (a ``folder:`` whose
    first ``frames.json`` says ``"drawn": true``): those are read with the drawings' model."""
    if not source.startswith("folder:"):
        return False
    listing = round_folders(Path(source.removeprefix("folder:")))[0] / "frames.json"
    try:
        return json.loads(listing.read_text(encoding="utf-8")).get("drawn") is True
    except (OSError, ValueError, AttributeError):
        return False  # the source itself says what is wrong when it opens


def open_source(source: str, size: tuple[int, int]) -> FrameSource:
    """The frame source a ``[camera] source`` names (``SourceError`` when it cannot open)."""
    if source == "picamera2":
        return PicameraSource(size)
    if source.startswith("folder:"):
        return FolderSource(Path(source.removeprefix("folder:")))
    if source.startswith("v4l2:"):
        return OpenCVSource(source.removeprefix("v4l2:"), size)
    return OpenCVSource(int(source), size)


class Eye:
    """One camera, its watcher and its model."""

    def __init__(
        self,
        source: str,
        size: tuple[int, int],
        model: Model,
        default: Model,
        *,
        taught_path: Path,
        sure_at: float = 0.0,
        realtime: bool = True,
        first_round_waits: bool = False,
        opener: Callable[[str, tuple[int, int]], FrameSource] = open_source,
    ) -> None:
        self._source_name = source
        self._size = size
        self.model = model if sure_at <= 0 else _with_sure_at(model, sure_at)
        self._default = default
        self._sure_at = sure_at
        self._taught_path = taught_path
        self._realtime = realtime and source.startswith("folder:")
        self._first_round_waits = first_round_waits  # a scripted replay: the script starts it
        self._opener = opener
        self._source: FrameSource | None = None
        self._watcher = Watcher(self.model)
        self._lesson: Lesson | None = None
        self._lock = threading.Lock()
        self._new_pile = threading.Event()
        self._closing = threading.Event()
        self.hold_at_end = True
        self._thumb: tuple[TimedFrame | None, np.ndarray] = (None, np.zeros(0))
        self._start: Card | None = None  # the table's first card of the round
        self._sightings = 0  # sightings handed out (a correction names how many it follows)
        # A replay: every frame of the round's folder has been looked at (a card still not
        # decided never will be; the replay stops waiting for it).
        self.film_over = threading.Event()

    def frames(self) -> Iterator[TimedFrame]:
        if not self._source_name.startswith("folder:"):
            self._source = self._opener(self._source_name, self._size)
            yield from self._source.frames()
            return
        # A replay: each round's folder once the table has started that round.
        offset = 0
        for number, folder in enumerate(round_folders(Path(self._source_name[7:]))):
            if (number or self._first_round_waits) and not self._wait_new_pile():
                return
            self.film_over.clear()
            with self._lock:  # the round's pile, from its first still picture
                self._watcher = Watcher(self.model, top=self._start)
            self._source = FolderSource(folder)
            start = time.monotonic()
            last = 0
            for frame in self._source.frames():
                if self._realtime:  # at the pace it was filmed
                    delay = frame.t_ms / 1000 - (time.monotonic() - start)
                    if delay > 0:
                        time.sleep(delay)
                last = frame.t_ms
                yield TimedFrame(offset + frame.t_ms, frame.image)
            offset += last + 1000
            self.film_over.set()  # (the generator resumes once the last frame was looked at)
        if self.hold_at_end:  # the film is over: a camera over a pile nobody touches
            self._closing.wait()

    def _wait_new_pile(self) -> bool:
        while not self._new_pile.wait(0.1):
            if self._closing.is_set():
                return False
        self._new_pile.clear()
        return True

    def new_pile(self, top: tuple[str, str] | None = None) -> None:
        """A new round: the pile starts again, its first card is learned, not played (in a
        replay, from the next round's folder on); ``top``, the table's first card, is the
        rules prior for the first play (a 6 laid at any angle may look like a 9)."""
        start = None if top is None else Card(*top)
        if self._source_name.startswith("folder:"):
            self._start = start
            self.film_over.clear()
            self._new_pile.set()
            return
        with self._lock:
            self._watcher = Watcher(self.model, top=start)

    def stop(self) -> None:
        """The service is closing: a replay waiting for its next round gives up."""
        self._closing.set()

    def release(self) -> None:
        source, self._source = self._source, None
        if source is not None:
            source.close()

    def look(self, frame: TimedFrame) -> Sighting | None:
        with self._lock:
            decision = self._watcher.feed(frame)
            self._sightings += decision is not None
        if decision is None:
            return None
        read = decision.read
        if read.card is None:
            return Sighting(None, "", 0.0, False, ())
        card = read.card
        assert card is not None
        candidates = [(card.kind, card.colour, read.confidence)]
        candidates += [(c.kind, c.colour, p) for c, p in read.candidates if c != card]
        best = tuple(candidates[:CANDIDATES])
        return Sighting(card.kind, card.colour, read.confidence, read.sure, best, decision.settles)

    def _thumbnail(self, frame: TimedFrame) -> np.ndarray:
        """The frame at 80 × 60, made once for the brightness and the fingerprint."""
        if self._thumb[0] is not frame:
            small = cv2.resize(frame.image, (80, 60), interpolation=cv2.INTER_NEAREST)
            self._thumb = (frame, small)
        return self._thumb[1]

    def brightness(self, frame: TimedFrame) -> float:
        blue, green, red, _ = cv2.mean(self._thumbnail(frame))
        return float(blue + green + red) / 3

    def fingerprint(self, frame: TimedFrame) -> bytes:
        return hashlib.blake2b(self._thumbnail(frame).tobytes(), digest_size=16).digest()

    def jpeg(self, frame: TimedFrame) -> bytes:
        image = frame.image
        if image.shape[1] > LIVE_WIDTH:
            height = round(image.shape[0] * LIVE_WIDTH / image.shape[1])
            image = cv2.resize(image, (LIVE_WIDTH, height), interpolation=cv2.INTER_AREA)
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
        return bytes(data.tobytes()) if ok else b""

    def correct(self, kind: str, colour: str, *, seen: int) -> None:
        with self._lock:
            if seen == self._sightings:  # else the watcher decided since: its top is newer
                self._watcher.correct(Card(kind, colour))

    # ------------------------------------------------------------------ the guided teach

    def teach_start(self, deck: str) -> list[tuple[str, str]]:
        self._lesson = Lesson(self._default)
        return [(card.kind, card.colour) for card in deck_faces(deck)]

    def teach_show(self, frame: TimedFrame, kind: str, colour: str) -> bool:
        lesson = self._lesson
        return lesson is not None and lesson.show(
            np.ascontiguousarray(frame.image), Card(kind, colour)
        )

    def teach_finish(self) -> str:
        """Learn the deck shown, keep it in the state directory and read with it from now on;
        ``ValueError`` (:class:`TeachError`) when too little was shown."""
        lesson = self._lesson
        if lesson is None:
            raise TeachError("no teach is running")
        model = lesson.model()
        self._taught_path.parent.mkdir(parents=True, exist_ok=True)
        model.save(self._taught_path)
        self._lesson = None
        self.model = model if self._sure_at <= 0 else _with_sure_at(model, self._sure_at)
        with self._lock:
            top = self._watcher.top
            self._watcher = Watcher(self.model, top=top)
        return str(self._taught_path)

    def teach_cancel(self) -> None:
        self._lesson = None


def _with_sure_at(model: Model, sure_at: float) -> Model:
    from dataclasses import replace

    return replace(model, sure_at=sure_at)
