"""Long pieces of work that must never hold the table: a game stored or read, its export.

A game file itself is read in a process of its own (:mod:`.game_reader`); what is left for the
daemon (storing the game, reading one to open it, the page's statistics, the CSV export and the
chart: each a pass through every round of a game of at most
:data:`~companion.core.limits.MAX_GAME_ROUNDS`) takes a core for tens of milliseconds, in one
Python process with the presses. Three things keep a press answered in its usual time meanwhile:

- the work runs on a thread of its own at a lower priority (on Linux a thread has its own
  niceness, and a thread cannot take back a priority it gave up: hence a new thread each time);
- the interpreter is handed to a waiting thread within half a millisecond instead of five
  (``sys.setswitchinterval``), since a press crosses several threads, each waiting its turn;
- Python's cyclic garbage collector is held off: a long game is about a hundred thousand
  objects, and each full collection on the way would stop every thread meanwhile;
- between two pieces (about a millisecond each) the work stands aside
  (:meth:`LongWork.stand_aside`), and for as long as the table's own work is under way (an input
  being handled, a phone's action being answered: :meth:`LongWork.urgent`), up to a bound, so
  it never starves.

When the last piece of long work ends and one of them made something lasting (a stored game: it
lives for the evening), what is alive is frozen (:func:`gc.freeze`): later collections need not
walk it again. Its objects hold no cycles, so reference counting still frees them when the game
is closed.
"""

from __future__ import annotations

import contextvars
import gc
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import TypeVar

R = TypeVar("R")

LONG_WORK_NICENESS = 10  # the long work's thread gives way to the presses' threads
LONG_WORK_SWITCH_INTERVAL = 0.0005  # seconds a waiting thread waits for the interpreter at most
STAND_ASIDE_S = 0.0002  # between two pieces of long work, at least
URGENT_WAIT_S = 0.05  # between two pieces, the longest wait for the table's own work to end


class LongWork:
    """Runs long pieces of work off the calling thread, as the module says; one per daemon.

    >>> LongWork().run(lambda: sum(range(10)))
    45
    """

    def __init__(
        self,
        niceness: int = LONG_WORK_NICENESS,
        switch_interval: float = LONG_WORK_SWITCH_INTERVAL,
    ) -> None:
        self.niceness = niceness
        self.switch_interval = switch_interval
        self._lock = threading.Lock()
        self._running = 0  # pieces of long work under way now
        self._lasting = False  # one of them made what lives on: freeze it at the end
        self._collector_was_on = True
        self._usual_interval = 0.0  # the interval a hold found, given back when it ends
        self._inside = threading.local()
        self._urgent = 0  # pieces of the table's own work under way now
        self._calm = threading.Condition()

    @property
    def running(self) -> int:
        """Pieces of long work under way now."""
        return self._running

    @property
    def table_busy(self) -> int:
        """Pieces of the table's own work under way now (:meth:`urgent` blocks)."""
        return self._urgent

    def run(self, work: Callable[[], R], *, lasting: bool = False) -> R:
        """``work()`` on a long-work thread; its result, or its exception raised here. Called
        from long work already, ``work`` runs at once on that thread. ``lasting``: what it
        makes lives on (a stored game), frozen out of later collections."""
        if getattr(self._inside, "yes", False):
            if lasting:
                with self._lock:
                    self._lasting = True
            return work()
        results: list[R] = []
        errors: list[BaseException] = []
        self._start(lambda: results.append(work()), errors, lasting).join()
        if errors:
            raise errors[0]
        return results[0]

    def _start(
        self, work: Callable[[], object], errors: list[BaseException], lasting: bool
    ) -> threading.Thread:
        # The caller's context goes along: a web request's, for instance, so the work reads it.
        context = contextvars.copy_context()

        def body() -> None:
            self._inside.yes = True
            with suppress(AttributeError, OSError):
                # Relative to the priority the thread was born with: a box started under
                # `nice` keeps its long work below its own table work all the same.
                native_id = threading.get_native_id()
                born_with = os.getpriority(os.PRIO_PROCESS, native_id)
                os.setpriority(os.PRIO_PROCESS, native_id, min(19, born_with + self.niceness))
            try:
                with self.held(lasting=lasting):
                    context.run(work)
            except BaseException as exc:  # handed to the caller
                errors.append(exc)

        worker = threading.Thread(target=body, name="long-work", daemon=True)
        worker.start()
        return worker

    @contextmanager
    def urgent(self) -> Iterator[None]:
        """The table's own work (a press): long work stands aside until the block ends. Inside
        long work it marks nothing: the work would only wait for itself."""
        if getattr(self._inside, "yes", False):
            yield
            return
        with self._calm:
            self._urgent += 1
        try:
            yield
        finally:
            with self._calm:
                self._urgent -= 1
                if self._urgent == 0:
                    self._calm.notify_all()

    def stand_aside(self) -> None:
        """Between two pieces of long work: a moment for other threads, and while the table's
        own work is under way, until it ends (at most :data:`URGENT_WAIT_S`)."""
        with self._calm:
            self._calm.wait_for(lambda: self._urgent == 0, timeout=URGENT_WAIT_S)
        time.sleep(STAND_ASIDE_S)

    @contextmanager
    def held(self, *, lasting: bool = False) -> Iterator[None]:
        """The collector held and the switch interval short while the block runs (on the
        calling thread); nested and concurrent uses share one hold. ``lasting``: see run."""
        with self._lock:
            self._running += 1
            self._lasting = self._lasting or lasting
            if self._running == 1:
                self._collector_was_on = gc.isenabled()
                gc.disable()
                self._usual_interval = sys.getswitchinterval()
                sys.setswitchinterval(min(self._usual_interval, self.switch_interval))
        try:
            yield
        finally:
            with self._lock:
                self._running -= 1
                if self._running == 0:
                    if sys.getswitchinterval() == min(self._usual_interval, self.switch_interval):
                        sys.setswitchinterval(self._usual_interval)  # unless changed meanwhile
                    if self._lasting:
                        gc.freeze()
                        self._lasting = False
                    if self._collector_was_on:
                        gc.enable()
