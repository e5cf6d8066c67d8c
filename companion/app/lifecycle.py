"""The hub's life as one table of moves (python-statemachine): every phase and what moves it.

- ``new``: built, not started; a call runs at once on the caller's thread (scripts, tests).
- ``running``: one thread, the hub thread, owns the engine and runs every call.
- ``stopping``: no new call from outside; the queue drains (the hub thread's follow-ups too).
- ``stopped``: nothing runs any more, on any thread.

A move the table does not hold raises :class:`~statemachine.exceptions.TransitionNotAllowed`.
"""

from __future__ import annotations

from typing import Literal, cast

from statemachine import State, StateMachine

Phase = Literal["new", "running", "stopping", "stopped"]


class HubLifecycle(StateMachine):
    """The hub's phases; move with :meth:`start`, :meth:`stop` and :meth:`drained` (under the
    hub's phase lock), read with :attr:`phase`."""

    new = State(initial=True)
    running = State()
    stopping = State()
    stopped = State(final=True)

    start = new.to(running)
    stop = new.to(stopped) | running.to(stopping)
    drained = stopping.to(stopped)

    @property
    def phase(self) -> Phase:
        return cast(Phase, self.current_state_value)
