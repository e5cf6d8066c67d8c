"""The hub's work loop: one queue, one thread, each piece of work run to completion in turn.

A loop lives once, its phases and their moves one table (:class:`~.lifecycle.HubLifecycle`): new
(a loop never started runs each call at once, on the caller's thread: scripts and tests), running
(one thread does all the work), stopping (what is queued is drained; only the loop's own thread
may still queue follow-ups) and stopped (every call is refused with :class:`HubStopped`, never
run on the caller's thread).
"""

from __future__ import annotations

import logging
import queue
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from companion.core.errors import ActionError

from .lifecycle import HubLifecycle
from .lifecycle import Phase as Phase  # the hub names it too
from .longwork import LongWork
from .threadguard import ThreadGuard

log = logging.getLogger(__name__)

TABLE_SWITCH_INTERVAL = 0.001  # seconds: while the loop runs, a thread waits this long at most


class HubStopped(ActionError):
    """A call that came after the hub stopped (or while it drains): refused, nothing was run."""

    def __init__(self) -> None:
        super().__init__("stopping", "the box is stopping: try again once it is back", status=503)


class WorkLoop:
    """The queue and the thread; its :attr:`guard` says who may touch the table now.
    ``long_work`` stands aside while a piece of the loop's work runs."""

    def __init__(self, long_work: LongWork) -> None:
        self._lifecycle = HubLifecycle()
        self._phase_lock = threading.Lock()  # held for every move and every look at the phase
        self._long_work = long_work
        self._work: queue.Queue[tuple[Callable[[], Any], Future[Any]] | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._usual_interval = sys.getswitchinterval()
        self.guard = ThreadGuard(lambda: self._thread, lambda: self.phase in ("new", "stopped"))

    @property
    def phase(self) -> Phase:
        return self._lifecycle.phase

    def start(self) -> None:
        with self._phase_lock:
            if self.phase == "running":
                return
            if self.phase != "new":
                raise RuntimeError("a stopped hub does not start again")
            self._thread = threading.Thread(target=self._run, name="hub", daemon=True)
            self._lifecycle.start()
            # A press crosses several threads (the web's, the hub's), each waiting its turn
            # for the interpreter while another computes: 5 ms each by default.
            self._usual_interval = sys.getswitchinterval()
            sys.setswitchinterval(min(self._usual_interval, TABLE_SWITCH_INTERVAL))
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Refuse new work, run what is queued, then end the thread."""
        with self._phase_lock:
            phase = self.phase
            if phase in ("new", "running"):
                self._lifecycle.stop()  # never started: stopped at once; running: stopping
            if phase in ("new", "stopped"):
                return
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
                        self._lifecycle.drained()
                        return
                    self._work.put(None)
                continue
            work, future = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                with self._long_work.urgent():
                    future.set_result(work())
            except BaseException as exc:  # handed to the caller, never kills the hub thread
                future.set_exception(exc)
                if not isinstance(exc, ActionError):
                    log.exception("error while handling an input")

    def call(self, work: Callable[[], Any]) -> Future[Any]:
        """Run ``work`` on the loop's thread; the future completes when it has run. A stopped
        (or stopping) loop refuses: the future fails with :class:`HubStopped`, nothing runs."""
        future: Future[Any] = Future()
        with self._phase_lock:
            phase = self.phase
            on_loop = threading.current_thread() is self._thread
            if phase == "running" or (phase == "stopping" and on_loop):
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

    def run_here_or_wait(self, work: Callable[[], Any], timeout: float) -> Any:
        """``work()``'s result: run at once on the loop's thread (or a loop never started),
        else queued and waited for (TimeoutError after ``timeout`` seconds)."""
        if self.guard.on_hub_thread():
            return work()
        return self.call(work).result(timeout)
