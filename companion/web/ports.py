"""The one port the web adapter talks through: the *hub* of the daemon.

The page never reaches devices, speech or storage itself. The composition root builds an object
with these methods (the real one is :class:`companion.app.hub.Hub`) and hands it to
:func:`companion.web.create_app`. Tests hand in a small fake with the same methods.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from companion.core.receipts import Receipt

T = TypeVar("T")


class Subscription(Protocol):
    """A queue of change notices for one open event stream."""

    def get(self, timeout: float) -> dict[str, Any] | None:
        """The next change notice, or ``None`` when ``timeout`` seconds pass without one."""
        ...

    def close(self) -> None:
        """Stop receiving notices (called when the phone goes away)."""
        ...


class Hub(Protocol):
    """Everything the page can see and do.

    ``state()`` returns ``{"revision": int, "table": {...}, "score": {...}, "device": {...},
    "settings": {...}, "options": {...}}``. ``dispatch`` applies one named action and returns the
    new state; bad input, an unknown player or a stale ``expected_revision`` raise
    :class:`companion.core.errors.ActionError` (status 4xx) and change nothing.
    """

    def state(self) -> dict[str, Any]: ...

    def dispatch(
        self,
        action: str,
        payload: dict[str, Any],
        expected_revision: int | None = None,
        *,
        receipt: Receipt | None = None,
    ) -> dict[str, Any]: ...

    def find_receipt(self, scope: str, key: str) -> str | None:
        """The fingerprint of the request whose change a store kept with ``key`` of session
        ``scope`` (an ``Idempotency-Key`` the web no longer remembers); None: none has it."""
        ...

    def query(self, name: str, params: dict[str, Any]) -> Any:
        """A read beyond the state (``score.rounds``: a page of older rounds; ``score.sheet``:
        the whole game, for the chart and the export)."""
        ...

    def run_long(self, work: Callable[[], T]) -> T:
        """``work()`` where it cannot hold the table (a game file read from a large body): off
        the calling thread, at a lower priority; its result, or its exception raised here."""
        ...

    def stand_aside(self) -> None:
        """Between two pieces of long work: a moment for the table's own work first."""
        ...

    def subscribe(self) -> Subscription: ...

    def wake_subscribers(self) -> None: ...

    def action_schemas(self) -> dict[str, dict[str, Any]]: ...
