"""The hub: one thread that runs every input to completion, and fans the results out.

Button edges (device threads), taps (web threads), script lines and camera reads all arrive here
as work items on one queue, made into table events with their source by the input door
(:mod:`companion.app.inputs`); the hub's own thread takes them one at a time, hands table events
to the engine, actions to the services that registered them, and tells every listener what
happened (Mopidy-style: the devices turn and fire, the voice speaks, the page's event streams
wake up). Listeners run on the hub thread, so they must only queue work of their own and return
at once.

The hub is a thin front over its parts: the work loop (queue, thread, thread guard:
:mod:`.workloop`, :mod:`.threadguard`), the actions (:mod:`.action_registry`), the state the
phones read (:mod:`.stateview`), the listeners and streams (:mod:`.broadcast`) and the long work
that must never hold the table (:mod:`.longwork`). A service joins it one way,
``service.attach(hub)`` (:meth:`Hub.attach`): it registers its actions, statuses, reads and
listeners there, never in its constructor; so this module imports no adapter.

A hub lives once (see :class:`~.workloop.WorkLoop`): a hub never started runs each call at once,
on the caller's thread (scripts, tests). While it runs, the engine belongs to its thread:
:attr:`Hub.engine` and every method marked :func:`~.threadguard.hub_thread_only` refuse another
thread, and with ``check_thread`` (on in the tests, by ``UNO_COMPANION_CHECK_THREAD=1``) so
does every attribute of the engine handed out.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar, cast

from companion.core.actions import TABLE_ACTION_SCHEMAS
from companion.core.commands import Command
from companion.core.errors import ActionError
from companion.core.events import Event, Source
from companion.core.receipts import Receipt
from companion.core.table import Outcome, TableEngine

from .action_registry import (
    ActionHandler,
    ActionRegistry,
    Names,
    Prepare,
    ReceiptFinder,
    RegisteredAction,
)
from .broadcast import (
    Announcement,
    Broadcaster,
    Fanout,
    Journal,
    Listener,
    RefusalListener,
    Subscription,
)
from .inputs import PhoneAction, table_input
from .longwork import LongWork
from .stateview import QueryProvider, StateView, StatusProvider
from .threadguard import GuardedEngine, OffHubThread, ThreadGuard, hub_thread_only
from .workloop import TABLE_SWITCH_INTERVAL, HubStopped, Phase, WorkLoop

__all__ = [
    "TABLE_SWITCH_INTERVAL",
    "Announcement",
    "Hub",
    "HubStopped",
    "Listener",
    "OffHubThread",
    "Service",
    "Subscription",
]

CHECK_THREAD_ENV = "UNO_COMPANION_CHECK_THREAD"  # "1": every hub guards its engine (tests)
# The table actions that name the player they are for (a press, a card, a call): a copy made on
# an older revision is answered "already done" when that player did it meanwhile.
TURN_ACTIONS = (
    "table.press",
    "table.play",
    "table.call_uno",
    "table.contre_uno",
    "table.suggestion",
)
LINES_KEPT = 256  # revisions remembered with the round's next line number, for that check
R = TypeVar("R")


class Service(Protocol):
    """A part of the application that joins the hub: ``attach`` registers its actions,
    statuses, reads and listeners (before the hub starts)."""

    def attach(self, hub: Hub) -> None: ...


class Hub:
    """Owns the table engine and runs all inputs on one thread."""

    def __init__(
        self,
        engine: TableEngine,
        *,
        dispatch_timeout: float = 5.0,
        check_thread: bool | None = None,
    ) -> None:
        if check_thread is None:
            check_thread = os.environ.get(CHECK_THREAD_ENV) == "1"
        self.long_work = LongWork()
        self._loop = WorkLoop(self.long_work)
        self._timeout = dispatch_timeout
        self._engine = (
            cast(TableEngine, GuardedEngine(engine, self._loop.guard)) if check_thread else engine
        )
        self._view = StateView(self._loop, lambda: self._engine.snapshot(), dispatch_timeout)
        self._actions = ActionRegistry(self._loop, self._view, self.long_work, dispatch_timeout)
        self._fanout = Fanout()
        self._streams = Broadcaster()
        for name, schema in TABLE_ACTION_SCHEMAS.items():
            names = self._table_names(name) if name in TURN_ACTIONS else None
            self._actions.actions[name] = RegisteredAction(
                schema, self._table_action(name), names=names
            )
        # (revision, the round's next line number then): the lines a phone had seen.
        self._lines_at: deque[tuple[int, int]] = deque(maxlen=LINES_KEPT)
        self._lines_at.append((0, engine.log.next_seq))
        self._actions.done_since = self._done_since

    # ------------------------------------------------------------------ lifecycle

    @property
    def phase(self) -> Phase:
        return self._loop.phase

    @property
    def thread_guard(self) -> ThreadGuard:
        """Says who may touch the table now (see :mod:`.threadguard`)."""
        return self._loop.guard

    @property
    def off_thread(self) -> list[str]:
        """What the guard refused, ``"name on thread"`` each."""
        return self._loop.guard.caught

    def attach(self, service: Service) -> None:
        """``service`` joins the hub: its actions, statuses, reads and listeners."""
        service.attach(self)

    def start(self) -> None:
        self._loop.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Refuse new work, run what is queued, then end the hub thread. Once it returns (and
        the thread has ended), the outputs may close: nothing will drive them any more."""
        self._loop.stop(timeout)

    @contextmanager
    def running(self) -> Iterator[Hub]:
        self.start()
        try:
            yield self
        finally:
            self.stop()

    def call(self, work: Callable[[], Any]) -> Future[Any]:
        """Run ``work`` on the hub thread; the future completes when it has run. A stopped (or
        stopping) hub refuses: the future fails with :class:`HubStopped` and nothing runs."""
        return self._loop.call(work)

    # ------------------------------------------------------------------ the table

    @property
    @hub_thread_only
    def engine(self) -> TableEngine:
        """The table engine: the hub thread's while the hub runs (anyone's before its start
        and once it stopped). Others read the table in :meth:`state`."""
        return self._engine

    @property
    @hub_thread_only
    def action_source(self) -> Source:
        """Where the action running now came from (``"box"`` outside any action): the source
        of the table events a service posts as its follow-ups."""
        return self._actions.source

    def post(self, event: Event, source: Source) -> Future[Any]:
        """Queue a table event from ``source``; returns at once. Inputs come through the door
        (:class:`~companion.app.inputs.InputDoor`); services post their follow-ups here. The
        future gives the outcome (its snapshot made) or the rules' refusal."""
        return self.call(lambda: self._handle_event(event, source))

    @hub_thread_only
    def handle(self, event: Event, source: Source) -> Outcome:
        """Handle a table event at once: for an action that is itself an input (the page's
        HIT on a box), so a refusal is the action's answer."""
        return self._handle_event(event, source)

    def _table_action(self, name: str) -> ActionHandler:
        def handler(payload: dict[str, Any]) -> None:
            found = table_input(PhoneAction(name, payload))
            if found is not None:
                self._handle_event(found[0], self._actions.source)

        return handler

    @staticmethod
    def _table_names(name: str) -> Names:
        def names(payload: dict[str, Any]) -> Event | None:
            found = table_input(PhoneAction(name, payload))
            return None if found is None else found[0]

        return names

    @hub_thread_only
    def _done_since(self, revision: int, event: Event) -> bool:
        """Whether ``event``'s player did it in a line the table got after ``revision``."""
        seq = 0  # older than what is remembered: any line of the round
        for seen, next_seq in reversed(self._lines_at):
            if seen <= revision:
                seq = next_seq
                break
        return self._engine.acted_since(seq, event)

    @hub_thread_only
    def _handle_event(self, event: Event, source: Source) -> Outcome:
        try:
            outcome = self._engine.handle(event, source)
        except ActionError as error:
            self._fanout.refused(error, source)
            raise
        self._fanout.journal(outcome)  # the table as the event left it, before anyone acts
        self._fanout.tell(outcome)
        self.changed("table")
        self._lines_at.append((self.revision, self._engine.log.next_seq))
        # Made here, on the hub thread, once the outputs are under way: whoever reads the
        # outcome later (the camera's thread, a script's trace) reads it, never makes it.
        self._view.table_made(outcome.snapshot)
        return outcome

    @hub_thread_only
    def announce(self, event: str, commands: list[Command]) -> None:
        """Hand commands that do not come from the table engine (score results) to the
        listeners, as an :class:`Announcement`."""
        self._fanout.tell(Announcement(event, tuple(commands)))

    # ------------------------------------------------------------------ actions

    def dispatch(
        self,
        action: str,
        payload: Any,
        expected_revision: int | None = None,
        *,
        source: Source = "phone",
        receipt: Receipt | None = None,
    ) -> dict[str, Any]:
        """Run a named action from ``source`` and wait for it; returns the new state.

        Raises :class:`ActionError` for bad input, an unknown action, or (status 409) when
        ``expected_revision`` is not the current one: another phone changed things first.
        ``receipt``: the phone's key, kept by the stores with the change (:meth:`find_receipt`).
        TimeoutError: the action was done, but the state after it could not be read in time
        (or the hub began to stop meanwhile).
        """
        return self._actions.dispatch(action, payload, expected_revision, source, receipt)

    def action_receipt(self) -> Receipt | None:
        """The receipt of the action running on the calling thread: what a store writes with
        the change it makes (None outside an action, or for an action sent without a key)."""
        return self._actions.receipt()

    def add_receipt_finder(self, finder: ReceiptFinder) -> None:
        """A store that keeps receipts: ``finder(scope, key)`` gives the fingerprint kept."""
        self._register(lambda: self._actions.finders.append(finder))

    def find_receipt(self, scope: str, key: str) -> str | None:
        """The fingerprint of the request whose change a store kept with receipt ``key`` of
        session ``scope`` (None: no store has it). Any thread."""
        return self._actions.find_receipt(scope, key)

    def register_action(
        self,
        name: str,
        schema: dict[str, Any],
        handler: ActionHandler,
        section: str,
        prepare: Prepare | None = None,
        names: Names | None = None,
    ) -> None:
        """Add an action (run on the hub thread; :meth:`changed` is called for you).

        ``prepare(payload)``, if given, runs first on the caller's thread and returns what the
        handler gets: the long part of the work, done while the hub goes on with other inputs.
        ``names(payload)``, if given, is the table event a turn's action stands for (naming
        its player): a copy made on an older revision is then "already done" (see
        :data:`TURN_ACTIONS`)."""

        def run_and_notify(payload: dict[str, Any]) -> None:
            handler(payload)
            self.changed(section)

        action = RegisteredAction(schema, run_and_notify, prepare, names)
        self._register(lambda: self._actions.actions.__setitem__(name, action))

    def action_schemas(self) -> dict[str, dict[str, Any]]:
        return self._actions.schemas()

    # ------------------------------------------------------------------ long work

    def run_long(self, work: Callable[[], R], *, lasting: bool = False) -> R:
        """``work()`` (reading a game file, say) where it cannot hold the table: on a thread of
        its own, at a lower priority, the collector held (:class:`LongWork`); its result. The
        work calls :meth:`stand_aside` between its pieces; ``lasting``: what it makes lives on.
        Work done for a phone's action keeps its receipt: what it stores is kept with the key."""
        receipt = self._actions.receipt()

        def for_the_action() -> R:
            with self._actions.acting_for(receipt):
                return work()

        return self.long_work.run(for_the_action, lasting=lasting)

    def stand_aside(self) -> None:
        """Between two pieces of long work: the table's own work goes first."""
        self.long_work.stand_aside()

    # ------------------------------------------------------------------ listeners

    def _register(self, change: Callable[[], None]) -> None:
        """Services register before the hub starts; a later registration from another thread
        is made on the hub thread, so the hub never sees its lists change under it."""
        self._loop.run_here_or_wait(change, self._timeout)

    def add_listener(self, listener: Listener) -> None:
        self._register(lambda: self._fanout.listeners.append(listener))

    def add_refusal_listener(self, listener: RefusalListener) -> None:
        """``listener(error, source)`` runs on the hub thread for each table event the rules
        refuse (the box sounds its error cue for a physical input; a phone has its answer)."""
        self._register(lambda: self._fanout.refusal_listeners.append(listener))

    def add_journal(self, journal: Journal) -> None:
        """``journal(outcome)`` runs after each accepted table event, before any listener: it
        notes the table as the event left it; an action's answer waits until what it wrote is
        on disk (:meth:`add_durable`)."""
        self._register(lambda: self._fanout.journals.append(journal))

    def add_durable(self, wait: Callable[[], None]) -> None:
        """``wait()`` runs on the caller's thread before an action that changed something is
        answered, and returns once what was written for it is on disk (the journals write
        without waiting for the disk)."""
        self._register(lambda: self._actions.durables.append(wait))

    # ------------------------------------------------------------------ the state

    @property
    def revision(self) -> int:
        """Table, score and settings changes so far: what edits are checked against."""
        return self._view.revision

    def register_status(self, section: str, provider: StatusProvider) -> None:
        """Add a part of the state (``device``, ``score``, ``settings``...)."""
        self._register(lambda: self._view.statuses.__setitem__(section, provider))

    def register_query(self, name: str, provider: QueryProvider) -> None:
        """Add a read that is not part of the state (older score rounds, page by page):
        ``provider(params)`` runs on the hub thread, so it must be short (slice, never build)."""
        self._register(lambda: self._view.queries.__setitem__(name, provider))

    def query(self, name: str, params: dict[str, Any]) -> Any:
        """Run the registered read ``name`` on the hub thread (at once on a hub never started).
        An unknown name is an :class:`ActionError` (404); a hub too busy raises TimeoutError."""
        return self._view.query(name, params)

    def changed(self, section: str) -> None:
        """Something in ``section`` changed: wake every reader. Table, score and settings
        changes bump :attr:`revision`; the launcher's own movements (``device``) do not."""
        self._streams.notify(self._view.changed(section))

    def state(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (built on the hub thread); cached until the next
        change."""
        return self._view.state()

    def subscribe(self) -> Subscription:
        return self._streams.subscribe()

    def wake_subscribers(self) -> None:
        """Wake every reader without a change (a server stopping: its streams end at once)."""
        self._streams.notify({"revision": self.revision, "section": ""})

    @property
    def subscribers(self) -> int:
        return self._streams.subscribers
