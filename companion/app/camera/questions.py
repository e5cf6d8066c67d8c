"""The camera's plays in the order they landed, and the questions that hold them.

Every card the camera decides was laid is a :class:`Landing`, handled on the hub thread. With
nothing open it is played at once if it is sure. A card it is unsure of, a card-sized change it
could not read ("Une carte a été posée : laquelle ?") and a Coup Extrême (whose target the table
names) open a question; every card seen after it waits behind it, in order, shown on the phones
as waiting. When the question is answered (one tap, from any phone, or HIT during the turret's
sweep) the answer and then the waiting cards are played in order, each at the place it landed:
if presses or a phone's lines were logged meanwhile, the card is inserted before them in the
round's log, which replays the lines after it, so every card is credited to the player whose
turn it was. A play tapped on a phone while a question is open is the table's answer to it.

A Poser Tout is played at once; how many cards it laid is asked beside the game and mends its
line when answered, however many cards followed it.

The pending question is taken under :attr:`Questions.lock` by whoever answers first; the other
is told it was answered.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Literal

from companion.core.commands import Priority, Say
from companion.core.errors import ActionError
from companion.core.events import Insert, Play, Replace, Source

from ..hub import Hub
from .cards import face_of, in_table_deck, play_event, words
from .pictures import Pictures

Needs = Literal["card", "target"]
REMEMBERED = 8  # pictures of the last camera plays held, should one of them be mended


@dataclass
class Landing:
    """A card the camera saw land: ``number`` (its question's and picture's), its best read
    (``kind`` ``None``: laid but not read), its candidates and picture, and ``after``: the
    round's last line when it landed (its place in the log)."""

    number: int
    kind: str | None
    colour: str
    sure: bool
    candidates: tuple[tuple[str, str, float], ...]
    jpeg: bytes
    settles: bool = False  # the card laid unread just before, come clear
    after: int | None = None
    asked: bool = False
    player: str = ""  # whose turn it was, as the question shows it
    seq: int | None = None  # its line in the round's log, once played
    waited: bool = False  # seen while a question was open: it waited behind it

    @property
    def needs(self) -> Needs | None:
        if self.kind is None or not self.sure:
            return "card"
        return "target" if self.kind == "coup_extreme" else None


def answered() -> ActionError:
    return ActionError("answered", "that question was already answered", status=409)


class Questions:
    """The landings waiting behind an open question, and the Poser Tout counts asked."""

    def __init__(self, hub: Hub, pictures: Pictures) -> None:
        self._hub = hub
        self._pictures = pictures
        self.lock = threading.Lock()  # the fields below are read by the web and taken by HIT
        self._queue: list[Landing] = []
        self._counts: list[dict[str, Any]] = []
        self._floor: int | None = None  # the last card placed while the queue drains
        self._played: dict[int, tuple[bytes, tuple[str, str] | None]] = {}
        self.placing = False  # a play of the camera's own is being handled
        self.asked: list[Landing] = []  # questions opened, not yet said
        self.history: list[Landing] = []  # this round's landings, in order (replays read it)

    # ------------------------------------------------------------------ read by anyone

    def state(self) -> dict[str, Any]:
        with self.lock:
            head = self._queue[0] if self._queue and self._queue[0].asked else None
            waiting = [words(i.kind, i.colour) for i in self._queue[1:] if head is not None]
            counts = [dict(c) for c in self._counts]
        question = None
        if head is not None:
            question = {
                "id": head.number,
                "needs": head.needs or "card",
                "missed": head.kind is None,
                "candidates": [words(k, c) for k, c, _ in head.candidates][:4],
                "picture": Pictures.address(head.number),
                "player": head.player,
            }
        return {"question": question, "waiting": waiting, "counts": counts}

    def take(self, number: int) -> Landing | None:
        """The open question ``number``, taken (on any thread); ``None`` if already settled."""
        with self.lock:
            if self._queue and self._queue[0].asked and self._queue[0].number == number:
                return self._queue.pop(0)
        return None

    def asks_count(self, number: int) -> bool:
        with self.lock:
            return any(count["id"] == number for count in self._counts)

    def take_count(self, number: int) -> dict[str, Any] | None:
        with self.lock:
            for count in self._counts:
                if count["id"] == number:
                    self._counts.remove(count)
                    return count
        return None

    @property
    def waiting(self) -> bool:
        """Whether a card the camera saw is not yet on the table (asked, or behind a question)."""
        with self.lock:
            return bool(self._queue)

    @property
    def open(self) -> Landing | None:
        with self.lock:
            return self._queue[0] if self._queue and self._queue[0].asked else None

    # ------------------------------------------------------------------ the hub thread

    def landed(self, landing: Landing) -> None:
        self._only_the_deck(landing)
        if landing.settles:
            self._settle(landing)
            return
        if self._tapped_already(landing):
            return
        landing.after = self._last_seq()
        with self.lock:
            landing.waited = bool(self._queue)
            self._queue.append(landing)
            self.history.append(landing)
        self.drain()

    def _only_the_deck(self, landing: Landing) -> None:
        """The faces offered are the table's deck's only, in the camera's order; a read of a
        card that deck does not hold is never sure (the best face it does hold is asked)."""
        state = self._hub.engine.state
        held = [c for c in landing.candidates if in_table_deck(c[0], state.rules, state.side)]
        landing.candidates = tuple(held)
        if landing.kind is not None and not in_table_deck(landing.kind, state.rules, state.side):
            landing.sure = False
            if held:
                landing.kind, landing.colour = held[0][0], held[0][1]

    def _tapped_already(self, landing: Landing) -> bool:
        """The card the camera saw was tapped on a phone (or a button) just before: the same
        face, the last line, and no card of the camera's stands for it yet. Not played twice."""
        with self.lock:
            if self._queue or landing.needs == "card" or landing.kind is None:
                return False
            claimed = {other.seq for other in self.history}
        log = self._log()
        last = log[-1] if log else {}
        if last.get("event") != "play" or last.get("source") == "camera":
            return False
        if last["seq"] in claimed or face_of(last.get("card")) != (landing.kind, landing.colour):
            return False
        landing.seq = int(last["seq"])
        with self.lock:
            self.history.append(landing)
        return True

    def _settle(self, clear: Landing) -> None:
        """The card landed last, read again once the picture came clear: not a play of its
        own. Its question is answered, its waiting read put right, or its line mended."""
        with self.lock:
            last = self.history[-1] if self.history else None
        if (
            last is None
            or clear.kind is None
            or (last.kind, last.colour) == (clear.kind, clear.colour)
        ):
            return
        if last.seq is not None:  # played already: its line is mended in place
            line = self._line(last.seq)
            if line.get("source") == "camera" and clear.sure:
                self._hub.handle(Replace(last.seq, play_event(clear.kind, clear.colour)), "camera")
            return
        if last.asked:
            if clear.sure and self.take(last.number) is not None:
                self.answer(last, clear.kind, clear.colour, "camera")
            return
        with self.lock:  # still waiting behind a question: the clearer read waits instead
            last.kind, last.colour, last.sure = clear.kind, clear.colour, clear.sure
            last.candidates = clear.candidates

    def drain(self) -> None:
        """Play what no longer waits, in order, up to the next question (asked once)."""
        while True:
            with self.lock:
                head = self._queue[0] if self._queue else None
                if head is None:
                    self._floor = None
                    return
                if head.needs is not None:
                    ask, head.asked = not head.asked, True
                else:
                    self._queue.pop(0)
            if head.needs is not None:
                if ask:
                    head.player = str(self._hub.engine.snapshot().get("active") or "")
                    self.asked.append(head)
                    self._pictures.keep(head.number, head.jpeg)
                return
            assert head.kind is not None
            try:
                self.place(head, play_event(head.kind, head.colour), "camera")
            except ActionError:  # the rules refuse what was read: asked, never dropped
                head.sure = False
                with self.lock:
                    self._queue.insert(0, head)

    def place(self, landing: Landing, event: Play, source: Source) -> int:
        """Play ``event`` at the place ``landing`` landed; its line's number."""
        log = self._log()
        seqs = [line["seq"] for line in log]
        anchor = landing.after
        if self._floor in seqs and (
            anchor not in seqs or seqs.index(anchor) < seqs.index(self._floor)
        ):
            anchor = self._floor
        self.placing = True
        try:
            seq = None
            if anchor in seqs and anchor != seqs[-1]:
                where = seqs.index(anchor) + 1
                try:
                    self._hub.handle(Insert(seqs[where], event), source)
                    seq = int(self._log()[where]["seq"])
                except ActionError:  # it does not fit where the camera saw it: at the end
                    pass
            if seq is None:
                self._hub.handle(event, source)
                seq = self._last_seq() or 0
        finally:
            self.placing = False
        self._floor = landing.seq = seq
        if source == "camera":
            self._played[seq] = (landing.jpeg, face_of(self._line(seq).get("card")))
            for old in sorted(self._played)[:-REMEMBERED]:
                del self._played[old]
        if event.card == "discard_all" and event.count == 1:
            self._ask_count(landing, seq)
        return seq

    def answer(
        self, landing: Landing, kind: str, colour: str, source: Source = "phone", **extra: Any
    ) -> int:
        """Play an answered question (taken by the caller), then whatever waited behind it."""
        if kind == "coup_extreme" and "target" not in extra:
            landing.kind, landing.colour, landing.sure, landing.asked = kind, colour, True, False
            with self.lock:
                self._queue.insert(0, landing)  # its target is asked next
            self.drain()
            return -1
        try:
            seq = self.place(landing, play_event(kind, colour, **extra), source)
        except ActionError:
            with self.lock:
                self._queue.insert(0, landing)
            raise
        self.drain()
        return seq

    def played_by_table(self, seq: int) -> bool:
        """A play the table learned of otherwise (a phone, a button) while a question was
        open: the question's answer, taken at once; the caller drains the waiting cards after
        it (:meth:`drain`), once the play is told to everyone."""
        head = self.open
        if head is None or self.placing or self.take(head.number) is None:
            return False
        self._floor = head.seq = seq  # that line stands for the card the camera saw
        return True

    def answer_count(self, count: dict[str, Any], number: int) -> None:
        line = self._line(count["seq"])
        face = face_of(line.get("card"))
        if not line or face is None or face[0] != "discard_all":
            raise ActionError("answered", "that Poser Tout is no longer in the log", status=409)
        event = play_event(*face, count=number, target=line["payload"].get("target"))
        try:
            self._hub.handle(Replace(count["seq"], event), "phone")
        except ActionError:
            with self.lock:  # still asked
                self._counts.append(count)
            raise

    def mended(self, log: list[dict[str, Any]]) -> list[bytes]:
        """The pictures of camera lines since mended (to teach again from)."""
        found = []
        for line in log:
            kept = self._played.get(line["seq"])
            if kept is not None and face_of(line.get("card")) != kept[1]:
                del self._played[line["seq"]]
                found.append(kept[0])
        return found

    def new_round(self) -> None:
        with self.lock:
            self._queue.clear()
            self._counts.clear()
            self.history.clear()
            self._floor = None
        self._played.clear()

    def forget_all(self) -> None:
        """The camera was switched off: nothing it saw waits any more."""
        self.new_round()

    # ------------------------------------------------------------------ helpers

    def _ask_count(self, landing: Landing, seq: int) -> None:
        self._pictures.keep(landing.number, landing.jpeg)
        with self.lock:
            self._counts.append(
                {
                    "id": landing.number,
                    "seq": seq,
                    "player": self._line(seq).get("player"),
                    "picture": Pictures.address(landing.number),
                }
            )

    def _log(self) -> list[dict[str, Any]]:
        """The round's last lines as they stand now (the hub's state may be a step behind
        while its listeners run)."""
        return list(self._hub.engine.snapshot().get("log") or [])

    def _line(self, seq: int) -> dict[str, Any]:
        return next((line for line in self._log() if line["seq"] == seq), {})

    def _last_seq(self) -> int | None:
        log = self._log()
        return int(log[-1]["seq"]) if log else None


def say(key: str) -> Say:
    return Say(key, {}, Priority.WARNING)
