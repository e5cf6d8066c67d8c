"""The hub's promise, checked: the table belongs to the hub thread while the hub runs.

Two checks share one :class:`ThreadGuard`:

- methods that may only run on the hub thread are marked :func:`hub_thread_only`; the mark is
  checked on every call (a thread comparison: cheap enough to stay on in production);
- with ``check_thread`` (on in the tests, by ``UNO_COMPANION_CHECK_THREAD=1``) the engine itself
  is handed out behind :class:`GuardedEngine`, which checks every attribute read or written.

What the guard catches is refused (:class:`OffHubThread`), kept in :attr:`ThreadGuard.caught`
and logged on this module's logger, so a catch on a thread that swallows the exception is still
seen (the test suite fails any test that logs one).
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")


class OffHubThread(AssertionError):
    """The engine, or a hub-thread-only method, was reached off the hub thread while the hub
    runs."""


class ThreadGuard:
    """Says whether the calling thread may touch the table now: the hub thread while the hub
    runs; anyone before it starts and once it has stopped (whoever builds or saves it).

    ``owner()`` is the hub thread (``None`` before the start), ``open_()`` whether the table is
    free to anyone now (not running)."""

    def __init__(
        self, owner: Callable[[], threading.Thread | None], open_: Callable[[], bool]
    ) -> None:
        self._owner = owner
        self._open = open_
        self.caught: list[str] = []  # "name on thread", each touch refused

    def on_hub_thread(self) -> bool:
        """Whether the calling thread is the hub thread."""
        return threading.current_thread() is self._owner()

    def allowed(self) -> bool:
        """Whether the calling thread may touch the table now."""
        return self._open() or self.on_hub_thread()

    def check(self, name: str) -> None:
        """Refuse (:class:`OffHubThread`) a touch of ``name`` that is not :meth:`allowed`."""
        if self.allowed():
            return
        thread = threading.current_thread().name
        self.caught.append(f"{name} on {thread}")
        log.error("%s touched off the hub thread, on thread %r", name, thread)
        raise OffHubThread(f"{name} touched on thread {thread!r}")


class Guarded(Protocol):
    """Anything whose methods are marked :func:`hub_thread_only`: it carries the guard."""

    @property
    def thread_guard(self) -> ThreadGuard: ...


G = TypeVar("G", bound=Guarded)


def hub_thread_only(method: Callable[Concatenate[G, P], R]) -> Callable[Concatenate[G, P], R]:
    """Mark ``method`` as the hub thread's only: each call is checked by its object's guard."""

    @functools.wraps(method)
    def checked(self: G, /, *args: P.args, **kwargs: P.kwargs) -> R:
        self.thread_guard.check(method.__name__)
        return method(self, *args, **kwargs)

    checked.hub_thread_only = True  # type: ignore[attr-defined]  # the mark, for readers
    return checked


class GuardedEngine:
    """An object (the table engine) behind a guard: every attribute read or written is checked
    against the thread that touches it (nested objects too, since they are reached through an
    attribute). Only bound methods read through it are unchecked once read: the hub hands none
    out (an outcome's snapshot is made on the hub thread, before anyone else sees it)."""

    __slots__ = ("_guard", "_inner")

    def __init__(self, inner: Any, guard: ThreadGuard) -> None:
        object.__setattr__(self, "_inner", inner)
        object.__setattr__(self, "_guard", guard)

    def __getattr__(self, name: str) -> Any:
        self._guard.check(name)
        return getattr(self._inner, name)

    def __setattr__(self, name: str, value: Any) -> None:
        self._guard.check(name)
        setattr(self._inner, name, value)
