"""The hub's named actions: each one's payload schema and handler, and how one is run.

A phone's action (``table.play``, ``score.record_round``, ``device.face``...) is checked against
its schema on the caller's thread, then run on the hub thread against the revision it was based
on. While its handler runs, :attr:`ActionRegistry.source` says where it came from, so the table
events a service posts as its follow-ups carry their real source, and
:meth:`ActionRegistry.receipt` gives the phone's ``Idempotency-Key`` that the stores keep with
the change (:mod:`companion.core.receipts`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any

from companion.core.actions import validate_payload
from companion.core.errors import ActionError
from companion.core.events import Event, Source
from companion.core.receipts import Receipt

from .longwork import LongWork
from .stateview import StateView
from .workloop import WorkLoop

ActionHandler = Callable[[dict[str, Any]], None]
Prepare = Callable[[dict[str, Any]], dict[str, Any]]
ReceiptFinder = Callable[[str, str], str | None]  # (scope, key): the fingerprint kept, or None
# What a turn's action stands for (the table event, naming the player it is for), or None.
Names = Callable[[dict[str, Any]], Event | None]
# (revision seen, event): whether the event's player did that since the revision was shown.
DoneSince = Callable[[int, Event], bool]
OUTSIDE_ACTIONS: Source = "box"  # the source of what the box does outside any action


@dataclass(frozen=True)
class RegisteredAction:
    schema: dict[str, Any]
    handler: ActionHandler
    # Long work an action does before it touches the table (reading a game file): run on the
    # caller's thread, so the hub's own thread stays free for presses meanwhile.
    prepare: Prepare | None = None
    # A turn's action (a press, a card, a call) names the player it is for: made on a revision
    # since overtaken, it is "already done" if that player did it meanwhile (a second tap, a
    # second phone), else it runs on the table as it is now, for that player only.
    names: Names | None = None


class ActionRegistry:
    """The actions by name, run through ``loop`` and checked against ``view``'s revision."""

    def __init__(
        self, loop: WorkLoop, view: StateView, long_work: LongWork, timeout: float
    ) -> None:
        self._loop = loop
        self._view = view
        self._long_work = long_work
        self._timeout = timeout
        self.actions: dict[str, RegisteredAction] = {}
        self.durables: list[Callable[[], None]] = []  # wait until what was written is on disk
        self.source: Source = OUTSIDE_ACTIONS  # the running action's (hub thread)
        self.finders: list[ReceiptFinder] = []  # the stores that keep receipts
        self._running = threading.local()  # the receipt of the action running on a thread
        self.done_since: DoneSince = lambda revision, event: False  # set by the hub

    def receipt(self) -> Receipt | None:
        """The receipt of the action running on the calling thread (None: none, or no key)."""
        return getattr(self._running, "receipt", None)

    @contextmanager
    def acting_for(self, receipt: Receipt | None) -> Iterator[None]:
        """The calling thread works for the action of ``receipt`` meanwhile: what a store writes
        then is kept with it (the long work of an import, stored off the hub thread)."""
        outer = self.receipt()
        self._running.receipt = receipt
        try:
            yield
        finally:
            self._running.receipt = outer

    def find_receipt(self, scope: str, key: str) -> str | None:
        """The fingerprint a store kept with receipt ``key`` of session ``scope``."""
        for finder in self.finders:
            found = finder(scope, key)
            if found is not None:
                return found
        return None

    def schemas(self) -> dict[str, dict[str, Any]]:
        return {name: action.schema for name, action in self.actions.items()}

    def dispatch(
        self,
        action: str,
        payload: Any,
        expected_revision: int | None,
        source: Source,
        receipt: Receipt | None = None,
    ) -> dict[str, Any]:
        """Run ``action`` and wait for it; the new state. See :meth:`Hub.dispatch`."""
        registered = self.actions.get(action)
        if registered is None:
            name = str(action)[:40]
            raise ActionError("unknown_action", f"unknown action {name!r}", {"action": name}, 404)
        # A short action is the table's own work: long work stands aside until it is answered.
        with self._long_work.urgent() if registered.prepare is None else nullcontext():
            return self._dispatch(registered, payload, expected_revision, source, receipt)

    def _dispatch(
        self,
        registered: RegisteredAction,
        payload: Any,
        expected_revision: int | None,
        source: Source,
        receipt: Receipt | None,
    ) -> dict[str, Any]:
        # A long action's text (a game file) is checked in pieces, standing aside between them.
        pause = self._long_work.stand_aside if registered.prepare is not None else None
        clean = validate_payload(registered.schema, payload, pause=pause)

        def check_revision(*, turn: bool = False) -> None:
            revision = self._view.revision
            if expected_revision is None or expected_revision == revision:
                return
            event = registered.names(clean) if turn and registered.names is not None else None
            if event is None or getattr(event, "player", None) is None:
                raise ActionError(
                    "stale",
                    "someone else changed this first: look again and retry",
                    {"revision": revision},
                    status=409,
                )
            if self.done_since(expected_revision, event):
                player = getattr(event, "player", "")
                raise ActionError(
                    "already_done",
                    f"already done for {player}",
                    {"player": player, "revision": revision},
                    status=409,
                )

        if registered.prepare is not None:
            check_revision()  # before the long work, not only after it
            with self.acting_for(receipt):  # a store written aside keeps the phone's key too
                clean = registered.prepare(clean)

        def work() -> bool:
            check_revision(turn=True)
            outer, self.source = self.source, source
            before = self._view.revision
            try:
                with self.acting_for(receipt):
                    registered.handler(clean)
            finally:
                self.source = outer
            return self._view.revision != before  # a change a journal may have written

        future = self._loop.call(work)
        try:
            changed = future.result(timeout=self._timeout)
        except TimeoutError:
            if future.cancel():  # not started: nothing was changed
                raise ActionError("busy", "the box is busy: try again", status=503) from None
            changed = future.result()  # started: finish it, so the answer tells what happened
        for durable in self.durables if changed else ():  # the answer promises what it wrote
            durable()
        try:
            return self._view.state()
        except ActionError as exc:  # the hub stopping meanwhile: done all the same, never "busy"
            raise TimeoutError("the action was done; the table after it could not be read") from exc
