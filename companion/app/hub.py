"""The hub: one thread that runs every input to completion, and fans the results out.

Button edges (device threads), taps (web threads), script lines and camera reads all arrive here
as work items on one queue, made into table events with their source by the input door
(:mod:`companion.app.inputs`); the hub's own thread takes them one at a time, hands table events
to the engine, score actions to the score keeper, and tells every listener what happened
(Mopidy-style: the devices turn and fire, the voice speaks, the page's event streams wake up).
Listeners run on the hub thread, so they must only queue work of their own and return at once.

Actions that belong to adapters (turret calibration, test fire, volume...) are registered by the
composition root with :meth:`Hub.register_action`, so this module imports no adapter.

A hub lives once: new (every service registers its actions, statuses and listeners; a hub that is
never started runs each call at once, on the caller's thread: scripts and tests), running (one
thread does all the work), stopping (what is queued is drained; only the hub thread may still
queue follow-ups) and stopped (every call is refused with :class:`HubStopped`, never run on the
caller's thread). With ``check_thread`` (on in the tests, by ``UNO_COMPANION_CHECK_THREAD=1``)
the engine is only reachable through a guard that refuses any touch off the hub thread while the
hub runs.
"""

from __future__ import annotations

import logging
import os
import queue
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager, nullcontext, suppress
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar, cast

from companion.core.actions import TABLE_ACTION_SCHEMAS, validate_payload
from companion.core.commands import Command
from companion.core.errors import ActionError
from companion.core.events import Event, Source
from companion.core.table import Outcome, TableEngine

from .inputs import PhoneAction, table_input
from .longwork import LongWork

log = logging.getLogger(__name__)

Phase = Literal["new", "running", "stopping", "stopped"]
CHECK_THREAD_ENV = "UNO_COMPANION_CHECK_THREAD"  # "1": every hub guards its engine (tests)
TABLE_SWITCH_INTERVAL = 0.001  # seconds: while the hub runs, a thread waits this long at most
ActionHandler = Callable[[dict[str, Any]], None]
RefusalListener = Callable[[ActionError, Source], None]
StatusProvider = Callable[[], dict[str, Any]]
QueryProvider = Callable[[dict[str, Any]], Any]
R = TypeVar("R")


@dataclass(frozen=True)
class Announcement:
    """Commands of the box's own, from no table event (score results, a long press saying the
    page's address): the listeners act on them as on an outcome's commands."""

    event: str
    commands: tuple[Command, ...]
    source: Source = "box"


class Listener(Protocol):
    """Something that reacts to handled events (an :class:`Outcome`) and to the box's own
    :class:`Announcement`; called on the hub thread, must not block."""

    def on_outcome(self, outcome: Outcome | Announcement) -> None: ...


@dataclass(frozen=True)
class RegisteredAction:
    schema: dict[str, Any]
    handler: ActionHandler
    # Long work an action does before it touches the table (reading a game file): run on the
    # caller's thread, so the hub's own thread stays free for presses meanwhile.
    prepare: Callable[[dict[str, Any]], dict[str, Any]] | None = None


class HubStopped(ActionError):
    """A call that came after the hub stopped (or while it drains): refused, nothing was run."""

    def __init__(self) -> None:
        super().__init__("stopping", "the box is stopping: try again once it is back", status=503)


class OffHubThread(AssertionError):
    """The engine was touched off the hub thread while the hub runs (``check_thread`` hubs)."""


class _CheckedEngine:
    """The engine behind a guard: every attribute read or written is checked against the
    thread that touches it (nested objects too, since they are reached through an attribute)."""

    def __init__(self, engine: TableEngine, check: Callable[[str], None]) -> None:
        object.__setattr__(self, "_engine", engine)
        object.__setattr__(self, "_check", check)

    def __getattr__(self, name: str) -> Any:
        self._check(name)
        return getattr(self._engine, name)

    def __setattr__(self, name: str, value: Any) -> None:
        self._check(name)
        setattr(self._engine, name, value)


class Subscription:
    """Change notices for one reader (an open event stream). Never blocks the hub: when the
    reader falls behind, older notices are dropped; a notice only says "look again"."""

    def __init__(self, hub: Hub, depth: int = 64) -> None:
        self._hub = hub
        self._queue: queue.Queue[dict[str, Any]] = queue.Queue(depth)

    def notify(self, notice: dict[str, Any]) -> None:
        while True:
            try:
                self._queue.put_nowait(notice)
                return
            except queue.Full:
                with suppress(queue.Empty):
                    self._queue.get_nowait()

    def get(self, timeout: float) -> dict[str, Any] | None:
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        self._hub._unsubscribe(self)


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
        self.engine = (
            cast(TableEngine, _CheckedEngine(engine, self._touch)) if check_thread else engine
        )
        self.off_thread: list[str] = []  # what the guard caught, "name on thread" (check_thread)
        self.revision = 0
        self._phase: Phase = "new"
        self._phase_lock = threading.Lock()
        self._dispatch_timeout = dispatch_timeout
        self._work: queue.Queue[tuple[Callable[[], Any], Future[Any]] | None] = queue.Queue()
        self._listeners: list[Listener] = []
        self._journals: list[Callable[[Outcome], None]] = []
        self._durables: list[Callable[[], None]] = []
        self._refusal_listeners: list[RefusalListener] = []
        self._subscriptions: list[Subscription] = []
        self._subs_lock = threading.Lock()
        self._actions: dict[str, RegisteredAction] = {}
        self._status: dict[str, StatusProvider] = {}
        self._queries: dict[str, QueryProvider] = {}
        self._thread: threading.Thread | None = None
        self._state_cache: dict[str, Any] | None = None
        self._state_lock = threading.Lock()
        self._generation = 0  # every change, device ones included: the cache's validity
        self.long_work = LongWork()
        self._usual_interval = sys.getswitchinterval()
        for name, schema in TABLE_ACTION_SCHEMAS.items():
            self._actions[name] = RegisteredAction(schema, self._table_action(name))

    # ------------------------------------------------------------------ lifecycle

    @property
    def phase(self) -> Phase:
        return self._phase

    def start(self) -> None:
        with self._phase_lock:
            if self._phase == "running":
                return
            if self._phase != "new":
                raise RuntimeError("a stopped hub does not start again")
            self._thread = threading.Thread(target=self._run, name="hub", daemon=True)
            self._phase = "running"
            # A press crosses several threads (the web's, the hub's), each waiting its turn
            # for the interpreter while another computes: 5 ms each by default.
            self._usual_interval = sys.getswitchinterval()
            sys.setswitchinterval(min(self._usual_interval, TABLE_SWITCH_INTERVAL))
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Refuse new work, run what is queued, then end the hub thread. Once it returns (and
        the thread has ended), the outputs may close: nothing will drive them any more."""
        with self._phase_lock:
            if self._phase in ("new", "stopped"):
                self._phase = "stopped"
                return
            self._phase = "stopping"
            self._work.put(None)
        thread = self._thread
        assert thread is not None
        thread.join(timeout)
        if thread.is_alive():
            log.error("the hub thread did not stop within %.0f s", timeout)
        sys.setswitchinterval(self._usual_interval)

    def _run(self) -> None:
        while True:
            item = self._work.get()
            if item is None:
                with self._phase_lock:
                    if self._work.empty():  # drained: follow-ups of the last work ran too
                        self._phase = "stopped"
                        return
                    self._work.put(None)
                continue
            work, future = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                with self.long_work.urgent():
                    future.set_result(work())
            except BaseException as exc:  # handed to the caller, never kills the hub thread
                future.set_exception(exc)
                if not isinstance(exc, ActionError):
                    log.exception("error while handling an input")

    def call(self, work: Callable[[], Any]) -> Future[Any]:
        """Run ``work`` on the hub thread; the future completes when it has run. A stopped (or
        stopping) hub refuses: the future fails with :class:`HubStopped` and nothing runs."""
        future: Future[Any] = Future()
        with self._phase_lock:
            phase = self._phase
            on_hub = threading.current_thread() is self._thread
            if phase == "running" or (phase == "stopping" and on_hub):
                self._work.put((work, future))
                return future
        if phase != "new":
            future.set_exception(HubStopped())
            return future
        try:  # never started (scripts, tests): run at once, on the caller's thread
            future.set_result(work())
        except BaseException as exc:
            future.set_exception(exc)
        return future

    def _touch(self, name: str) -> None:
        """The guard of a ``check_thread`` hub: the engine belongs to the hub thread while the
        hub runs (before it starts and once it has stopped, to whoever builds or saves it)."""
        if self._phase in ("new", "stopped"):
            return
        current = threading.current_thread()
        if current is not self._thread:
            self.off_thread.append(f"{name} on {current.name}")
            raise OffHubThread(f"engine.{name} touched on thread {current.name!r}")

    # ------------------------------------------------------------------ inputs

    def post(self, event: Event, source: Source) -> Future[Any]:
        """Queue a table event from ``source``; returns at once. Inputs come through the door
        (:class:`~companion.app.inputs.InputDoor`); services post their follow-ups here."""
        return self.call(lambda: self._handle_event(event, source))

    def dispatch(
        self, action: str, payload: Any, expected_revision: int | None = None
    ) -> dict[str, Any]:
        """Run a named action and wait for it; returns the new state.

        Raises :class:`ActionError` for bad input, an unknown action, or (status 409) when
        ``expected_revision`` is not the current one: another phone changed things first.
        """
        registered = self._actions.get(action)
        if registered is None:
            name = str(action)[:40]
            raise ActionError("unknown_action", f"unknown action {name!r}", {"action": name}, 404)
        # A short action is the table's own work: long work stands aside until it is answered.
        with self.long_work.urgent() if registered.prepare is None else nullcontext():
            return self._dispatch(registered, payload, expected_revision)

    def _dispatch(
        self, registered: RegisteredAction, payload: Any, expected_revision: int | None
    ) -> dict[str, Any]:
        # A long action's text (a game file) is checked in pieces, standing aside between them.
        pause = self.stand_aside if registered.prepare is not None else None
        clean = validate_payload(registered.schema, payload, pause=pause)

        def check_revision() -> None:
            if expected_revision is not None and expected_revision != self.revision:
                raise ActionError(
                    "stale",
                    "someone else changed this first: look again and retry",
                    {"revision": self.revision},
                    status=409,
                )

        if registered.prepare is not None:
            check_revision()  # before the long work, not only after it
            clean = registered.prepare(clean)

        def work() -> bool:
            check_revision()
            before = self.revision
            registered.handler(clean)
            return self.revision != before  # a change a journal may have written

        future = self.call(work)
        try:
            changed = future.result(timeout=self._dispatch_timeout)
        except TimeoutError:
            if future.cancel():  # not started: nothing was changed
                raise ActionError("busy", "the box is busy: try again", status=503) from None
            changed = future.result()  # started: finish it, so the answer tells what happened
        for durable in self._durables if changed else ():  # the answer promises what it wrote
            durable()
        return self.state()

    def run_long(self, work: Callable[[], R], *, lasting: bool = False) -> R:
        """``work()`` (reading a game file, say) where it cannot hold the table: on a thread of
        its own, at a lower priority, the collector held (:class:`LongWork`); its result. The
        work calls :meth:`stand_aside` between its pieces; ``lasting``: what it makes lives on."""
        return self.long_work.run(work, lasting=lasting)

    def let_go(self, parts: list[list[Any]]) -> None:
        """Free a long game's objects (``parts``, the last references) a piece at a time as
        long work (:meth:`LongWork.let_go`); returns at once."""
        self.long_work.let_go(parts)

    def stand_aside(self) -> None:
        """Between two pieces of long work: the table's own work goes first."""
        self.long_work.stand_aside()

    def handle(self, event: Event, source: Source) -> Outcome:
        """Handle a table event at once, on the hub thread only: for an action that is itself
        an input (the page's HIT on a box), so a refusal is the action's answer."""
        if threading.current_thread() is not self._thread and self._phase != "new":
            raise RuntimeError("Hub.handle runs on the hub thread only (post from elsewhere)")
        return self._handle_event(event, source)

    def _table_action(self, name: str) -> ActionHandler:
        def handler(payload: dict[str, Any]) -> None:
            found = table_input(PhoneAction(name, payload))
            if found is not None:
                self._handle_event(*found)

        return handler

    def _handle_event(self, event: Event, source: Source) -> Outcome:
        try:
            outcome = self.engine.handle(event, source)
        except ActionError as error:
            for refused in self._refusal_listeners:
                try:
                    refused(error, source)
                except Exception:
                    log.exception("refusal listener %r failed", refused)
            raise
        for journal in self._journals:  # the table as the event left it, before anyone acts
            try:
                journal(outcome)
            except Exception:  # the table goes on; the journal reports its own trouble
                log.exception("journal %r failed", journal)
        self._tell_listeners(outcome)
        self.changed("table")
        return outcome

    def announce(self, event: str, commands: list[Command]) -> None:
        """Hand commands that do not come from the table engine (score results) to the
        listeners, as an :class:`Announcement`. Call on the hub thread."""
        self._tell_listeners(Announcement(event, tuple(commands)))

    def _tell_listeners(self, outcome: Outcome | Announcement) -> None:
        for listener in list(self._listeners):
            try:
                listener.on_outcome(outcome)
            except Exception:
                log.exception("listener %r failed", listener)

    # ------------------------------------------------------------------ outputs

    def _register(self, change: Callable[[], None]) -> None:
        """Services register before the hub starts; a later registration from another thread
        is made on the hub thread, so the hub never sees its lists change under it."""
        if self._phase != "new" and threading.current_thread() is not self._thread:
            self.call(change).result(timeout=self._dispatch_timeout)
        else:
            change()

    def add_listener(self, listener: Listener) -> None:
        self._register(lambda: self._listeners.append(listener))

    def add_refusal_listener(self, listener: RefusalListener) -> None:
        """``listener(error, source)`` runs on the hub thread for each table event the rules
        refuse (the box sounds its error cue for a physical input; a phone has its answer)."""
        self._register(lambda: self._refusal_listeners.append(listener))

    def add_journal(self, journal: Callable[[Outcome], None]) -> None:
        """``journal(outcome)`` runs after each accepted table event, before any listener: it
        notes the table as the event left it; an action's answer waits until what it wrote is
        on disk (:meth:`add_durable`)."""
        self._register(lambda: self._journals.append(journal))

    def add_durable(self, wait: Callable[[], None]) -> None:
        """``wait()`` runs on the caller's thread before an action is answered and returns
        once what the journals wrote for it is on disk (they write without waiting for it)."""
        self._register(lambda: self._durables.append(wait))

    def register_action(
        self,
        name: str,
        schema: dict[str, Any],
        handler: ActionHandler,
        section: str,
        prepare: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    ) -> None:
        """Add an action (run on the hub thread; call :meth:`changed` is done for you).

        ``prepare(payload)``, if given, runs first on the caller's thread and returns what the
        handler gets: the long part of the work, done while the hub goes on with other inputs."""

        def run_and_notify(payload: dict[str, Any]) -> None:
            handler(payload)
            self.changed(section)

        self._register(
            lambda: self._actions.__setitem__(
                name, RegisteredAction(schema, run_and_notify, prepare)
            )
        )

    def register_status(self, section: str, provider: StatusProvider) -> None:
        """Add a part of the state (``device``, ``score``, ``settings``...)."""
        self._register(lambda: self._status.__setitem__(section, provider))

    def register_query(self, name: str, provider: QueryProvider) -> None:
        """Add a read that is not part of the state (older score rounds, page by page):
        ``provider(params)`` runs on the hub thread, so it must be short (slice, never build)."""
        self._register(lambda: self._queries.__setitem__(name, provider))

    def query(self, name: str, params: dict[str, Any]) -> Any:
        """Run the registered read ``name`` on the hub thread (at once on a hub never started).
        An unknown name is an :class:`ActionError` (404); a hub too busy raises TimeoutError."""
        provider = self._queries.get(name)
        if provider is None:
            raise ActionError("unknown_query", f"nothing to read as {name[:40]!r}", status=404)
        if threading.current_thread() is self._thread:
            return provider(params)
        return self.call(lambda: provider(params)).result(self._dispatch_timeout)

    def changed(self, section: str) -> None:
        """Something in ``section`` changed: wake every reader.

        Table, score and settings changes bump ``revision``, which edits are checked against;
        the launcher's own movements (``device``) do not, so a tap right after the turret
        stopped is not taken for a stale edit."""
        if section != "device":
            self.revision += 1
        with self._state_lock:
            self._generation += 1
            self._state_cache = None
        notice = {"revision": self.revision, "section": section}
        with self._subs_lock:
            subscriptions = list(self._subscriptions)
        for sub in subscriptions:
            sub.notify(notice)

    def state(self) -> dict[str, Any]:
        """The whole state as JSON-ready data; cached until the next change."""
        with self._state_lock:
            if self._state_cache is not None:
                return self._state_cache
            generation = self._generation
        # Built on the hub thread so it never sees an event half handled. An input posted from
        # the hub thread itself (a listener) is queued behind the current one, never nested.
        if threading.current_thread() is self._thread:
            state = self._build_state()
        else:
            state = self.call(self._build_state).result(self._dispatch_timeout)
        with self._state_lock:
            if generation == self._generation:  # not overtaken by a change meanwhile
                self._state_cache = state
        return state

    def _build_state(self) -> dict[str, Any]:
        with self._state_lock:
            generation = self._generation
        # ``generation`` counts every change, the launcher's own too: of two states of one
        # revision, a phone keeps the later (an answer may arrive after a newer stream update).
        state: dict[str, Any] = {
            "revision": self.revision,
            "generation": generation,
            "table": self.engine.snapshot(),
        }
        for section, provider in self._status.items():
            try:
                state[section] = provider()
            except Exception:
                log.exception("status of %s failed", section)
                state[section] = {"error": True}
        return state

    def subscribe(self) -> Subscription:
        sub = Subscription(self)
        with self._subs_lock:
            self._subscriptions.append(sub)
        return sub

    def wake_subscribers(self) -> None:
        """Wake every reader without a change (a server stopping: its streams end at once)."""
        with self._subs_lock:
            subscriptions = list(self._subscriptions)
        for sub in subscriptions:
            sub.notify({"revision": self.revision, "section": ""})

    def _unsubscribe(self, sub: Subscription) -> None:
        with self._subs_lock:
            if sub in self._subscriptions:
                self._subscriptions.remove(sub)

    @property
    def subscribers(self) -> int:
        with self._subs_lock:
            return len(self._subscriptions)

    def action_schemas(self) -> dict[str, dict[str, Any]]:
        return {name: action.schema for name, action in self._actions.items()}

    @contextmanager
    def running(self) -> Iterator[Hub]:
        self.start()
        try:
            yield self
        finally:
            self.stop()
